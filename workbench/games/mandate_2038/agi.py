"""Recognized AGI (Era IV only, after Production, before the final Audit).

An institution with at least the threshold Capability, connected Facilities and
Trust may pay the Compute cost to declare: it scores the fixed Mandate award and
adds Scrutiny before the Audit. Each qualifying institution decides once, in
Initiative order. Recognition stays recorded whatever the Audit does afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import audit, board

if TYPE_CHECKING:
    from .state import MandateState

AGI_ERA: Final = 4


def qualifies(state: MandateState, seat: int) -> bool:
    t = state.content.agi
    p = state.players[seat]
    return (not p.agi and p.capability >= t["capability"] and p.trust >= t["trust"]
            and len(board.connected_facilities(state, seat)) >= t["poweredFacilities"]
            and p.compute >= t["computeCost"])


def declare(state: MandateState, seat: int) -> None:
    t = state.content.agi
    p = state.players[seat]
    p.compute -= t["computeCost"]
    p.mandate += t["mandate"]
    p.agi = True
    audit.add_scrutiny(state, seat, t["scrutiny"])
    state.note(f"{state.player_name(seat)} declares recognized AGI (+{t['mandate']} Mandate)")


def any_recognized(state: MandateState) -> bool:
    return any(p.agi for p in state.players)
