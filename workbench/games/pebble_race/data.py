"""Pebble Race's card data: the card kinds (points, copies), validated with
pydantic, and the numbers of the rules.

A bundled game keeps these in ``cards/<game>/*.yaml`` and reads them through
the core loader (:mod:`workbench.core.cards`); the template carries its pool in
:data:`DEFAULT_CARDS` so it needs no folder, and :func:`load_cards` reads the
same shape from ``cards.yaml`` in a folder when one is given. Either way the
engine only sees a validated :class:`Pool`.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from workbench.core.cards import PoolSpec, load_pool, require_mapping, validate_rows
from workbench.core.data import load_yaml
from workbench.core.errors import DataError

GAME_ID = "pebble-race"
MARKET_SIZE = 3
SHELL_PENALTY_AT = 3
SHELL_PENALTY = 6


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    points: int = Field(ge=-10, le=10)
    copies: int = Field(ge=1, le=20)
    provenance: str = "draft"


class Pool(BaseModel):
    """The cards of one game: kind name -> :class:`Card`, in deck order."""
    model_config = ConfigDict(frozen=True)
    cards: tuple[Card, ...]

    @property
    def points(self) -> dict[str, int]:
        return {c.name: c.points for c in self.cards}

    def deck(self) -> list[str]:
        """Every copy, kind by kind (shuffled at setup)."""
        return [c.name for c in self.cards for _ in range(c.copies)]


DEFAULT_CARDS = ({"name": "Pebble", "points": 1, "copies": 6}, {"name": "Stone", "points": 2, "copies": 6},
                 {"name": "Gem", "points": 4, "copies": 6}, {"name": "Shell", "points": 3, "copies": 6})


def pool_from_rows(rows, *, file: Path) -> Pool:
    cards = validate_rows(Card, rows, file=file)
    names = [c.name for c in cards]
    if len(set(names)) != len(names):
        raise DataError("a card name is used twice", file=str(file), field="name")
    if sum(c.copies for c in cards) < MARKET_SIZE:
        raise DataError(f"the deck needs at least {MARKET_SIZE} cards for the market", file=str(file))
    return Pool(cards=tuple(cards))


def read_folder(folder: Path) -> Pool:
    """The pool in ``folder/cards.yaml`` (a mapping with a list ``cards``)."""
    path = Path(folder) / "cards.yaml"
    data = require_mapping(load_yaml(path), path)
    return pool_from_rows(data.get("cards") or [], file=path)


POOL = PoolSpec(GAME_ID, ("cards.yaml",), read_folder)
DEFAULT_POOL = pool_from_rows(DEFAULT_CARDS, file=Path("<built in>"))


def load_cards(folder=None) -> Pool:
    """The pool of ``folder`` (cached, reloaded when ``cards.yaml`` changes), or the
    built-in pool without a folder."""
    return DEFAULT_POOL if folder is None else load_pool(POOL, folder)
