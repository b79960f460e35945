"""Meaning Made: a competitive-collaborative engine-building game.

The engine is split by rulebook section: :mod:`.setup`, :mod:`.flow`
(phases), :mod:`.consequences` (Events and Resolution Tables), :mod:`.tracks`,
one module per action (:mod:`.gather`, :mod:`.load_pattern`,
:mod:`.contribute`, :mod:`.touchpoint`, :mod:`.recycle`, :mod:`.conversion`),
:mod:`.stability_window`, :mod:`.solo`, :mod:`.variants`, :mod:`.scoring`,
:mod:`.notation`; :mod:`.game` ties them into the workbench protocol.
:mod:`.native` loads the optional compiled build of the rules when it is
current; it must run before any rules module is imported.
"""

from . import native

native.install()

from .game import GAME, MeaningMade  # noqa: E402  (after the compiled build is chosen)

__all__ = ["GAME", "MeaningMade"]
