"""Trust and Capability milestones: permanent Mandate for reaching thresholds.

Two Mandate the first time Capability reaches 3, 6, 9 and 12, and the first time
Trust reaches 2, 4 and 6. Awards are never reversed; the Trust milestone cube
only moves forward, so regaining a threshold at or below it scores nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import MandateState


def starting_trust_cube(trust: int, thresholds) -> int:
    """Setup: the highest Trust threshold the starting value already includes."""
    return max([t for t in thresholds if t <= trust], default=0)


def check_capability(state: MandateState, seat: int) -> None:
    r = state.content.rules
    p = state.players[seat]
    for t in r["capabilityMilestones"]:
        if p.capability >= t and t not in p.cap_milestones:
            p.cap_milestones = p.cap_milestones + [t]
            p.mandate += r["milestoneMandate"]
            state.note(f"{state.player_name(seat)} reaches Capability {t}: +{r['milestoneMandate']} Mandate")


def check_trust(state: MandateState, seat: int) -> None:
    r = state.content.rules
    p = state.players[seat]
    for t in r["trustMilestones"]:
        if p.trust >= t and t > p.trust_cube:
            p.trust_cube = t
            p.mandate += r["milestoneMandate"]
            state.note(f"{state.player_name(seat)} reaches Trust {t}: +{r['milestoneMandate']} Mandate")
