"""The universal tie rule.

When an effect aims at the player with the most or the least of something and
several tie, it aims at the tied player nearest the Initiative holder going
clockwise. Effects that name everyone, or award all tied players (the Era
Mandate card's tied leaders), do not use this rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import MandateState


def nearest_initiative(state: MandateState, seats) -> int:
    """Among ``seats``, the one first reached clockwise from Initiative (inclusive)."""
    seats = set(seats)
    for seat in state.initiative_order():
        if seat in seats:
            return seat
    raise ValueError("no seat to choose from")


def pick_extreme(state: MandateState, values: list[int], highest: bool) -> int:
    """The seat with the highest (or lowest) value; ties by :func:`nearest_initiative`."""
    target = max(values) if highest else min(values)
    return nearest_initiative(state, [s for s, v in enumerate(values) if v == target])
