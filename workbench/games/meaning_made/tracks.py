"""The tracks: Meaning (0-12), World Layer (1-10, never backward), Vitals
(0-10) with the Fragile state, and Legacy (0-30).

Every change to a track goes through these functions, so the ranges and the
side effects (Legacy for raising the World Layer, a Consequence when Vitals
reach 0) happen in exactly one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import MMState


def change_meaning(state: MMState, delta: int) -> None:
    """Meaning moves by ``delta`` and stays within its track (0-12)."""
    state.meaning = max(0, min(state.rules.meaning_max, state.meaning + delta))


def highest_layer(state: MMState) -> int:
    """The column for Resolution Table lookups: the highest Layer among all
    Palettes and completed Initiatives, 1 if none is above 1. Patterns never
    leave a Palette and completed Initiatives stay completed, so this is the
    World Layer track itself."""
    return state.world_layer


def world_layer_check(state: MMState, layer: int, seats) -> None:
    """A Pattern was loaded or an Initiative completed at ``layer``: if that is
    above the World Layer, move the track up and give +1 Legacy to each seat in
    ``seats`` (the loader, or each contributor)."""
    if layer <= state.world_layer:
        return
    state.world_layer = min(layer, state.rules.layer_max)
    for seat in seats:
        change_legacy(state, seat, 1)


def change_legacy(state: MMState, seat: int, delta: int) -> None:
    if state.rules.cooperative and state.rules.options["cooperative_legacy"] == "none":
        return
    p = state.players[seat]
    p.legacy = max(0, min(state.rules.legacy_max, p.legacy + delta))


def gain_tokens(state: MMState, seat: int, E: int = 0, I: int = 0, S: int = 0) -> None:
    p = state.players[seat]
    p.E = max(0, p.E + E)
    p.I = max(0, p.I + I)
    p.S = max(0, p.S + S)


def lose_tokens(state: MMState, seat: int, n: int) -> None:
    """Take ``n`` tokens, one at a time from the player's largest pile (ties: E,
    then I, then S) so the loss is deterministic and hurts the least-scarce kind."""
    p = state.players[seat]
    for _ in range(n):
        best = max(("E", "I", "S"), key=lambda k: getattr(p, k))
        if getattr(p, best) <= 0:
            return
        setattr(p, best, getattr(p, best) - 1)
