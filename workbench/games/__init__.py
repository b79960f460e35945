"""One sub-package per bundled game; each exposes ``GAME``, an instance of
:class:`workbench.core.game.Game`."""
