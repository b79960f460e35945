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


def readiness(state: MandateState, seat: int, capability: float, connected: float, trust: float) -> float:
    """How close ``seat`` stands to qualifying, 0 to 1 (1 once recognized): the mean
    share of each threshold met. Only bots read it (a planning feature from Era III
    on, when recognition is one Era away); it is no rule."""
    p = state.players[seat]
    if p.agi:
        return 1.0
    if state.era < AGI_ERA - 1:
        return 0.0
    t = state.content.agi
    # written out (the greedy outlook asks this for every candidate); the same
    # additions, in the same order, as summing the four shares
    return (min(1.0, capability / t["capability"]) + min(1.0, connected / t["poweredFacilities"])
            + min(1.0, trust / t["trust"]) + min(1.0, p.compute / t["computeCost"])) / 4


def declare(state: MandateState, seat: int) -> None:
    t = state.content.agi
    p = state.players[seat]
    p.compute -= t["computeCost"]
    p.mandate += t["mandate"]
    p.agi = True
    audit.add_scrutiny(state, seat, t["scrutiny"])
    state.note(f"{state.player_name(seat)} declares recognized AGI (+{t['mandate']} Mandate)")


def short_of_compute(state: MandateState) -> int:
    """How many institutions end the game unrecognized while meeting every AGI
    threshold but the Compute cost: the seats a Compute cost keeps from
    declaring (a design metric read from the final position, so an Audit after
    the AGI step that lowers Trust or Capability takes a seat out again)."""
    t = state.content.agi
    return sum(1 for s, p in enumerate(state.players)
               if not p.agi and p.compute < t["computeCost"] and p.capability >= t["capability"]
               and p.trust >= t["trust"]
               and len(board.connected_facilities(state, s)) >= t["poweredFacilities"])


def any_recognized(state: MandateState) -> bool:
    return any(p.agi for p in state.players)
