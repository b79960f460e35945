"""Checks of Pebble Race's data beyond what each card's model checks alone (a
bundled game also registers Python checks of its rule clauses here, with
:func:`workbench.rules.checks.check`)."""

from __future__ import annotations

from .data import MARKET_SIZE, Pool


def pool_problems(pool: Pool) -> list[str]:
    """Cross-card problems: a deck too small to fill the market, a pool with no
    card worth taking."""
    out = []
    if len(pool.deck()) < MARKET_SIZE:
        out.append(f"the deck has {len(pool.deck())} cards, the market needs {MARKET_SIZE}")
    if not any(c.points > 0 for c in pool.cards):
        out.append("no card is worth any points")
    return out
