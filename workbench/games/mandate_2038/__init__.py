"""Mandate 2038: the complete rules engine, one module per part of the rulebook.

``GAME`` is the :class:`~workbench.core.game.Game` the registry hands out. Start
reading at :mod:`.flow` (the Era and cycle sequence); each Core Action has its
own module (:mod:`.fund`, :mod:`.research`, :mod:`.build`, :mod:`.organize`,
:mod:`.deploy`, :mod:`.influence`), as do the board (:mod:`.board`), Production,
AGI, the Audit, Mandate scoring, milestones, final scoring and the World Ending.
"""

from .game import GAME, Mandate2038

__all__ = ["GAME", "Mandate2038"]
