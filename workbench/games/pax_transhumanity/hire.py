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
from .notation import Action
from .regime import hire_is_free

if TYPE_CHECKING:
    from .state import PaxState


def hire_cost(state: PaxState) -> int:
    return 0 if hire_is_free(state) else state.content.settings["hire_cost"]


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


def legal(state: PaxState, seat: int, free_only: bool = False) -> list:
    """Every legal Hire (the same tests as :func:`check`, without raising)."""
    if free_only and seat not in state.companies.values():
        return []           # asked after every turn's last action: most players own no Company
    cost = hire_cost(state)
    if not can_pay(state, seat, cost):
        return []
    from_track = agents_after_payment(state, seat, cost) >= 1
    out = []
    companies, staff, unemployed = state.companies, state.staff, state.unemployed
    make = tuple.__new__
    rows: tuple = state.content.place_rows
    for row in rows:
        key: str = row[0]
        kind: str = row[1]
        if free_only and companies.get(key) != seat:
            continue
        # labour.can_hire_at, inlined: this runs for every place in every position
        here = staff.get(key)
        if kind == "utility":
            if here and seat in here:
                continue
        elif here or (kind == "company" and key not in companies):
            continue
        if from_track:
            out.append(make(Action, ("hire", (key, False), ())))
        if unemployed[row[2]][seat]:
            out.append(make(Action, ("hire", (key, True), ())))
    return out


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
