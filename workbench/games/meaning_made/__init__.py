"""Meaning Made: a competitive-collaborative engine-building game.

The engine is split by rulebook section: :mod:`.setup`, :mod:`.flow`
(phases), :mod:`.consequences` (Events and Resolution Tables), :mod:`.tracks`,
one module per action (:mod:`.gather`, :mod:`.load_pattern`,
:mod:`.contribute`, :mod:`.touchpoint`, :mod:`.recycle`, :mod:`.conversion`),
:mod:`.stability_window`, :mod:`.solo`, :mod:`.variants`, :mod:`.scoring`,
:mod:`.notation`; :mod:`.game` ties them into the workbench protocol.
"""

from .game import GAME, MeaningMade

__all__ = ["GAME", "MeaningMade"]
