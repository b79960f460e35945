"""Final scoring, after the Era IV Audit and Mandate card.

Mandate is already on the track. Each player loses one Mandate per Facility that
is offline now (never below zero). The highest Mandate wins; equal scores are
split by Trust, next by Customers, last by Compute, and players equal in all four
share the win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board

if TYPE_CHECKING:
    from .state import MandateState


def offline_penalty(state: MandateState) -> None:
    for seat, p in enumerate(state.players):
        lost = len(board.offline_facilities(state, seat))
        p.mandate = max(0, p.mandate - lost)


def ranking_key(p) -> tuple:
    return (p.mandate, p.trust, p.customers, p.compute)


def winners(state: MandateState) -> list[int]:
    keys = [ranking_key(p) for p in state.players]
    best = max(keys)
    return [s for s, k in enumerate(keys) if k == best]
