"""Phase C, the Stability Window: in player order from the round's first player,
each player may donate 1 Support for +1 Meaning; the group raises Meaning by at
most 3 a round this way; Fragile players cannot donate. Players who cannot
donate are skipped without being asked (ruling ``stability-skip``).

Who is asked next, and the end of the round after the last donor, are the
round's flow (:func:`.rounds.next_donor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .tracks import change_meaning

if TYPE_CHECKING:
    from .state import MMState


def can_donate(state: MMState, seat: int) -> str | None:
    """None if ``seat`` may donate now, else the reason why not."""
    p = state.players[seat]
    if state.donations >= state.rules.stability_cap:
        return f"the group has reached the +{state.rules.stability_cap} Meaning cap this round"
    if p.fragile:
        return "a Fragile player cannot donate Support"
    if p.S < 1:
        return "no Support to donate"
    if state.meaning >= state.rules.meaning_max:
        return f"Meaning is already at its top ({state.rules.meaning_max})"
    return None


def check_donation(state: MMState, donate: bool) -> None:
    if donate:
        why = can_donate(state, state.decider)
        if why:
            raise IllegalAction(f"cannot donate: {why}")


def donation(state: MMState, donate: bool) -> None:
    if donate:
        state.players[state.decider].S -= 1
        change_meaning(state, 1)
        state.donations += 1
    state.stab_next += 1
