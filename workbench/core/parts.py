"""Rule parts card-driven games share, as plain data with pure helpers: a deck
that draws and reshuffles its discards, a market row that refills from a deck,
resource costs with permanent discounts, a track with a cap, and a turn order
in which players may pass.

Every part holds plain lists and dicts (cheap to copy in ``State.clone``) and
draws randomness only from the :class:`~workbench.core.rng.Rng` it is handed,
so a game stays reproducible from its seed. A refused payment raises
:class:`~workbench.core.errors.IllegalAction` before changing anything.
The scaffold of ``workbench new-game`` is built from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .errors import IllegalAction
from .rng import Rng


@dataclass
class Deck:
    """A face-down pile (top is the end of the list) and its discard pile."""

    cards: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)

    def copy(self) -> "Deck":
        return Deck(list(self.cards), list(self.discards))

    def draw(self, rng: Rng) -> str | None:
        """The top card; an empty pile first takes the discards back, shuffled
        with ``rng``. None when both are empty."""
        if not self.cards and self.discards:
            self.cards, self.discards = self.discards, []
            rng.shuffle(self.cards)
        return self.cards.pop() if self.cards else None

    def discard(self, card: str) -> None:
        self.discards.append(card)


@dataclass
class MarketRow:
    """Face-up cards a player may take, kept at ``size`` from a deck."""

    size: int
    slots: list[str] = field(default_factory=list)

    def copy(self) -> "MarketRow":
        return MarketRow(self.size, list(self.slots))

    def refill(self, deck: Deck, rng: Rng) -> None:
        """Draw until the row is full or the deck (with its discards) is empty."""
        while len(self.slots) < self.size:
            card = deck.draw(rng)
            if card is None:
                return
            self.slots.append(card)

    def take(self, card: str) -> str:
        """Remove ``card`` from the row (refused when it is not there)."""
        if card not in self.slots:
            raise IllegalAction(f"{card} is not in the market")
        self.slots.remove(card)
        return card


def price(cost: Mapping[str, int], discounts: Mapping[str, int]) -> dict[str, int]:
    """What ``cost`` comes to after permanent ``discounts`` (never below zero)."""
    return {r: max(0, int(n) - int(discounts.get(r, 0))) for r, n in cost.items() if int(n) > 0}


def can_pay(pool: Mapping[str, int], cost: Mapping[str, int], discounts: Mapping[str, int] = {}) -> bool:
    return all(pool.get(r, 0) >= n for r, n in price(cost, discounts).items())


def pay(pool: dict[str, int], cost: Mapping[str, int], discounts: Mapping[str, int] = {}) -> dict[str, int]:
    """Take the discounted ``cost`` out of ``pool``; refused (pool unchanged)
    when it falls short. Returns what was paid."""
    due = price(cost, discounts)
    short = {r: n - pool.get(r, 0) for r, n in due.items() if pool.get(r, 0) < n}
    if short:
        raise IllegalAction("not enough " + ", ".join(f"{r} (short {n})" for r, n in short.items()))
    for r, n in due.items():
        pool[r] -= n
    return due


def gain(pool: dict[str, int], amounts: Mapping[str, int], cap: int | None = None) -> None:
    """Add ``amounts`` to ``pool``, each resource held at ``cap`` at most."""
    for r, n in amounts.items():
        value = pool.get(r, 0) + int(n)
        pool[r] = min(value, cap) if cap is not None else value


@dataclass
class Track:
    """A marker on a numbered track from ``low`` to ``high`` (moves stop at the ends)."""

    value: int
    low: int = 0
    high: int | None = None

    def move(self, steps: int) -> int:
        """Move by ``steps``; returns how far it really moved."""
        before = self.value
        self.value = max(self.low, self.value + steps)
        if self.high is not None:
            self.value = min(self.value, self.high)
        return self.value - before


@dataclass
class TurnOrder:
    """Seats taking turns in order; a seat that passes is skipped until the
    round ends (everyone passed), when :meth:`new_round` starts again."""

    seats: int
    current: int = 0
    passed: list[bool] = field(default_factory=list)

    def __post_init__(self):
        if not self.passed:
            self.passed = [False] * self.seats

    def copy(self) -> "TurnOrder":
        return TurnOrder(self.seats, self.current, list(self.passed))

    def advance(self) -> None:
        """The next seat that has not passed (stays put when all have)."""
        for step in range(1, self.seats + 1):
            seat = (self.current + step) % self.seats
            if not self.passed[seat]:
                self.current = seat
                return

    def pass_turn(self) -> None:
        self.passed[self.current] = True
        self.advance()

    @property
    def round_over(self) -> bool:
        return all(self.passed)

    def new_round(self, first: int = 0) -> None:
        self.passed = [False] * self.seats
        self.current = first
