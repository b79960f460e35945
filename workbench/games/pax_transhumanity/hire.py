"""Hire: install an Employee at a Barrier, a Company or a Utility.

The Employee comes from the finance track (the topmost agent) or from the
player's own unemployed in the same sphere. It costs $3 (free under Group
Dynamics). At a Utility each player may have one Employee; any other place holds
one Employee in all. Hiring at a place where the player has a Company takes no
action (it may be done any time during the own turn), but is still paid for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .finance import agents_after_payment, can_pay, finance_agents, install, pay, plan_payment
from .labour import add_staff, can_hire_at, change_unemployed
from .notation import new_action
from .regime import hire_is_free

if TYPE_CHECKING:
    from .state import PaxState


def hire_cost(state: PaxState) -> int:
    if hire_is_free(state):
        return 0
    settings: dict = state.content.settings
    return settings["hire_cost"]


def is_free_action(state: PaxState, seat: int, key: str) -> bool:
    """Hiring into an own Company does not use one of the turn's two actions."""
    return state.companies.get(key) == seat


def check(state: PaxState, seat: int, key: str, from_unemployed: bool) -> tuple:
    """Raise IllegalAction unless ``seat`` may hire at ``key``; returns the
    payment's plan (:func:`.finance.plan_payment`)."""
    place = state.content.places.get(key)
    if place is None:
        raise IllegalAction(f"there is no place {key!r}")
    if place.kind == "company" and key not in state.companies:
        raise IllegalAction(f"{key} is an empty Company site: hiring needs a Barrier, a Company or a Utility")
    if not can_hire_at(state, key, seat):
        if place.kind == "utility":
            raise IllegalAction(f"{state.name(seat)} already has an Employee at the Utility {key}")
        raise IllegalAction(f"{key} already has an Employee")
    cost = hire_cost(state)
    plan = plan_payment(state, seat, cost)      # can_pay, and the agents a sale frees
    if plan is None:
        raise IllegalAction(f"{state.name(seat)} cannot raise ${cost} to hire")
    if from_unemployed:
        if not state.unemployed[place.sphere][seat]:
            raise IllegalAction(f"{state.name(seat)} has no unemployed agent in the {place.sphere} sphere")
    elif finance_agents(state, seat) + len(plan[0]) < 1:
        raise IllegalAction(f"{state.name(seat)} has no agent on the finance track to hire")
    return plan


def legal(state: PaxState, seat: int, free_only: bool = False, count_only: bool = False):
    """Every legal Hire (the same tests as :func:`check`, without raising); with
    ``count_only`` just how many there are (nothing built)."""
    if free_only and seat not in state.companies.values():
        return 0 if count_only else []  # asked after every turn's last action: most players own no Company
    cost = hire_cost(state)
    if not can_pay(state, seat, cost):
        return 0 if count_only else []
    from_track = agents_after_payment(state, seat, cost) >= 1
    out = []
    n = 0
    companies: dict = state.companies
    staff: dict = state.staff
    unemployed: dict = state.unemployed
    rows: tuple[tuple[str, str, str], ...] = state.content.place_rows
    for key, kind, sphere in rows:
        if free_only and companies.get(key) != seat:
            continue
        # labour.can_hire_at, inlined: this runs for every place in every position
        here = staff.get(key)
        if kind == "utility":
            if here and seat in here:
                continue
        elif here or (kind == "company" and key not in companies):
            continue
        idle: tuple = unemployed[sphere]
        if count_only:
            n += int(from_track) + (1 if idle[seat] else 0)
            continue
        if from_track:
            out.append(new_action("hire", (key, False)))
        if idle[seat]:
            out.append(new_action("hire", (key, True)))
    return n if count_only else out


def apply(state: PaxState, seat: int, action) -> bool:
    """Hire; returns True when it used one of the turn's actions."""
    key, from_unemployed = action.args
    plan = check(state, seat, key, from_unemployed)
    pay(state, seat, hire_cost(state), plan=plan)
    if from_unemployed:
        change_unemployed(state, state.content.places[key].sphere, seat, -1)
    else:
        install(state, seat)
    add_staff(state, key, seat)
    state.bump("hires")
    return not is_free_action(state, seat, key)
