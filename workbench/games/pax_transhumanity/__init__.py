"""Pax Transhumanity, played from the rules of the Hungarian summary with a
draft idea deck (see docs/pax-transhumanity.md)."""

from .game import GAME

__all__ = ["GAME"]
