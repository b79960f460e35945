"""Pebble Race: the toy game, and the template a fourth game copies
(docs/reference/game-contract.md). Not in the registry: tests and examples load it as
``workbench.games.pebble_race:GAME``."""

from .game import GAME, PebbleRace

__all__ = ["GAME", "PebbleRace"]
