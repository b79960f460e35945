"""Action: Gather Energy/Insight: take 2 tokens, Energy and Insight in any mix,
never Support."""

from __future__ import annotations


def gather(state, action) -> None:
    p = state.players[state.seat]
    p.E += action.tokens[0]
    p.I += action.tokens[1]
