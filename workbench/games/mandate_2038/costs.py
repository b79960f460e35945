"""Universal costs and caps: gains clipped to the caps, losses floored at zero,
and the order in which effects change a cost.

Runway is capped at twelve and Compute at ten, applied right after any gain or
trade; Trust runs from zero to six. A cost is modified in a fixed order:
replacements and waivers first, then surcharges, then discounts, never below zero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import milestones

if TYPE_CHECKING:
    from .state import MandateState


def cap_of(state: MandateState, track: str) -> int | None:
    # asked on every gain and every listed exchange: no dict built per call
    r = state.content.rules
    if track == "runway":
        return r["runwayCap"]
    if track == "compute":
        return r["computeCap"]
    if track == "trust":
        return r["trustMax"]
    return None


def gain(state: MandateState, seat: int, track: str, amount: int) -> None:
    """Add ``amount`` to a track up to its cap (the excess stays in the supply: no rule
    counts it). Capability and Trust gains check their milestones; Customers are gained
    only by Deploy (see deploy.py)."""
    if amount <= 0:
        return
    p = state.players[seat]
    value = getattr(p, track) + amount
    cap = cap_of(state, track)
    if cap is not None and value > cap:
        value = cap
    setattr(p, track, value)
    if track == "capability":
        milestones.check_capability(state, seat)
    elif track == "trust":
        milestones.check_trust(state, seat)


def lose(state: MandateState, seat: int, track: str, amount: int) -> int:
    """Take up to ``amount`` from a track (never below zero); returns what was lost."""
    p = state.players[seat]
    have = getattr(p, track)
    taken = min(have, max(0, amount))
    setattr(p, track, have - taken)
    return taken


def apply_all(state: MandateState, seat: int, gains: dict | None = None, losses: dict | None = None) -> None:
    for track, amount in (losses or {}).items():
        lose(state, seat, track, amount)
    for track, amount in (gains or {}).items():
        gain(state, seat, track, amount)


def can_receive(state: MandateState, seat: int, track: str) -> bool:
    """A trade may not carry a player over a cap."""
    cap = cap_of(state, track)
    return cap is None or getattr(state.players[seat], track) < cap


def modified_cost(base: int, *, waived: bool = False, replacement: int | None = None,
                  surcharges: int = 0, discounts: int = 0) -> int:
    """A cost after its modifiers in the rulebook's order: replacements and waivers,
    then surcharges, then discounts; the result is never below zero."""
    cost = base
    if replacement is not None:
        cost = replacement
    if waived:
        cost = 0
    cost += surcharges
    cost -= discounts
    return max(0, cost)
