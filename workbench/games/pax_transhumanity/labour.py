"""Labour (the "#" of Commercialize and Research), the board's places, and
unemployment.

Labour happens in the sphere of the action: the player moves one Employee down
from a place of the right side (Thinker on the left for Research, Maker on the
right for Commercialize). The Employee is their own, or a rival's working at one
of their own Companies. Labour is Subsidized when the Employee started at a
Company or a Utility. Any number of Employees fit in a sphere's unemployment row;
they leave it only by being hired or divested.

How far "down" goes is not fixed by the summary (see rulings): by default the
Employee drops to the next place below on the same side where it may stand, or
to unemployment when there is none; the option ``labour_move: unemployment``
sends it straight to unemployment.
"""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .state import PaxState, seated

SIDE_FOR = {"research": "T", "commercialize": "M"}
SIDE_NAME = {"T": "Thinker", "M": "Maker"}


def uncovered_barriers(state: PaxState, sphere: str) -> int:
    """Barriers of a sphere that no Employee covers."""
    staff: dict = state.staff
    keys: tuple = state.content.barriers[sphere]
    n = 0
    for key in keys:
        if not staff.get(key):
            n += 1
    return n


def can_stand(state: PaxState, key: str, seat: int) -> bool:
    """May an Employee of ``seat`` come down to ``key``? One per player at a
    Utility, one in all elsewhere (an empty Company site included)."""
    here = state.staff.get(key, ())
    if state.content.places[key].kind == "utility":
        return seat not in here
    return not here


def can_hire_at(state: PaxState, key: str, seat: int) -> bool:
    """Hiring goes to a Barrier, a Company (a site with a disc on it) or a Utility."""
    if state.content.places[key].kind == "company" and key not in state.companies:
        return False
    return can_stand(state, key, seat)


def employee_at(state: PaxState, key: str, seat: int):
    """Whose Employee at ``key`` may ``seat`` use for labour (own first, then a
    rival's at an own Company), or None."""
    here = state.staff.get(key, ())
    if seat in here:
        return seat
    if here and state.companies.get(key) == seat:
        return here[0]
    return None


def labour_places(state: PaxState, seat: int, sphere: str, side: str) -> list:
    """Places from which ``seat`` can do labour of ``side`` in ``sphere``."""
    # the same test as employee_at(...) is not None, inlined: legal_actions asks this
    # for every sphere in every position
    staff, companies = state.staff, state.companies
    out = []
    for key in state.content.side_places[side][sphere]:
        here = staff.get(key)
        if here and (seat in here or companies.get(key) == seat):
            out.append(key)
    return out


def labour_keys(state: PaxState, seat: int) -> set:
    """Every place ``seat`` can do labour from (either side, any sphere): the
    test of :func:`labour_places`, worked out once for a whole listing."""
    companies: dict = state.companies
    staff: dict = state.staff
    out = set()
    for key, here in staff.items():
        if here and (seated(here, seat) or companies.get(key) == seat):
            out.add(key)
    return out


def check_labour(state: PaxState, seat: int, key: str, sphere: str, side: str) -> int:
    """Validate a labour place; returns the Employee's owner."""
    place = state.content.places.get(key)
    if place is None:
        raise IllegalAction(f"there is no place {key!r}")
    if place.sphere != sphere:
        raise IllegalAction(f"labour must be in the {sphere} sphere, the sphere of the action, not at {key}")
    if place.side != side:
        raise IllegalAction(f"{key} is a {SIDE_NAME[place.side]} place; this action needs {SIDE_NAME[side]} labour")
    owner = employee_at(state, key, seat)
    if owner is None:
        raise IllegalAction(f"{state.name(seat)} has no Employee at {key} (nor a rival's at an own Company)")
    return owner


def is_subsidized_labour(state: PaxState, key: str) -> bool:
    """Labour is Subsidized when the Employee worked at a Company or a Utility."""
    return key in state.companies or key in state.content.utilities


def labour_destination(state: PaxState, key: str, owner: int):
    """Where the Employee goes: a place key below, or None for unemployment."""
    if state.options.get("labour_move", "next-below") == "unemployment":
        return None
    place = state.content.places[key]
    for below in state.content.sphere_places[place.sphere]:
        p = state.content.places[below]
        if p.side == place.side and p.row > place.row and can_stand(state, below, owner):
            return below
    return None


def remove_staff(state: PaxState, key: str, seat: int) -> None:
    here = list(state.staff.get(key, ()))
    here.remove(seat)
    if here:
        state.staff[key] = tuple(here)
    else:
        state.staff.pop(key, None)


def add_staff(state: PaxState, key: str, seat: int) -> None:
    state.staff[key] = state.staff.get(key, ()) + (seat,)


def change_unemployed(state: PaxState, sphere: str, seat: int, delta: int) -> None:
    row = list(state.unemployed[sphere])
    row[seat] += delta
    state.unemployed[sphere] = tuple(row)


def do_labour(state: PaxState, key: str, owner: int) -> None:
    """Move the Employee at ``key`` down (validated beforehand)."""
    dest = labour_destination(state, key, owner)
    remove_staff(state, key, owner)
    if dest is None:
        change_unemployed(state, state.content.places[key].sphere, owner, +1)
    else:
        add_staff(state, dest, owner)
    state.bump("labour")


def employees_of(state: PaxState, seat: int) -> list:
    """Places where ``seat`` has an Employee (board order)."""
    order = state.content.place_order
    return sorted((key for key, seats in state.staff.items() if seat in seats), key=order.__getitem__)


def action_cost(state: PaxState, sphere: str, labour_key: str, act_subsidized: bool) -> int:
    """Cost of Commercialize or Research: uncovered Barriers of the sphere, doubled
    if the labour or the act is not Subsidized, so only both together escape it (the
    summary's wording; ruling subsidy-doubling). ``subsidy_rule: either`` plays the
    other reading: one Subsidized part is enough."""
    base = uncovered_barriers(state, sphere)
    labour_sub = is_subsidized_labour(state, labour_key)
    options: dict = state.options
    if options.get("subsidy_rule", "both") == "either":
        return base if (labour_sub or act_subsidized) else 2 * base
    return base if (labour_sub and act_subsidized) else 2 * base
