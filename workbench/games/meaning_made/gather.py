"""Action: Gather Energy/Insight: take 2 tokens, Energy and Insight in any mix,
never Support."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import MMState


def gather(state: MMState, action) -> None:
    p = state.players[state.seat]
    p.E += action.tokens[0]
    p.I += action.tokens[1]
