"""Commercialize: turn a syndicated idea into Patents and let its effects act.

Needs an own Syndication on the idea and the idea must be feasible, in one of three
ways (``via``): ``splay``, two neighbouring Splay bands in the idea's two colours
with no rival Future Shock agent on them, or an own one there; ``patents``, divest
two own Patents in the idea's two disciplines; ``think tank``, the top card of the
own Think Tank has the same two disciplines (it then takes the idea's Market slot).
The price is the sphere's uncovered Barriers, doubled unless the Maker labour or the
commercialization is Subsidized (Assembly, or the Developing World under
Globalization). Money first, then labour. The effects act top to bottom; then the
card goes to the bottom of the Splay with the chosen discipline (``down``) showing,
its Heat agents become Future Shock agents, and each Syndication on it becomes a
Patent of that discipline for its owner, or, after Utility labour, goes back to its
owner's Wealth. Last, the Regime is updated and the endings are checked.
"""

from __future__ import annotations

from typing import Final

from workbench.core.errors import IllegalAction

from .effects import queue_card_effects, run_tasks
from .finance import can_pay, divest, pay
from .labour import action_cost, check_labour, do_labour, labour_keys
from .notation import A
from .regime import commercialize_subsidized, update_regime
from .state import PaxState, SPHERE_ORDER, seated

WAYS: Final = ("splay", "patents", "think tank")


def _pair(a, b) -> tuple:
    return tuple(sorted((a, b)))


def splay_feasible(state: PaxState, seat: int, disciplines) -> bool:
    want = _pair(*disciplines)
    splay = state.splay
    for i in range(len(splay) - 1):
        first, second = splay[i], splay[i + 1]
        if _pair(first[1], second[1]) != want:
            continue
        owners = [o for o in first[2] + second[2] if o is not None]
        if seat in owners or not owners:
            return True
    return False


def patents_feasible(state: PaxState, seat: int, disciplines) -> bool:
    a, b = disciplines
    have = state.patents[seat]
    return have.get(a, 0) >= 2 if a == b else (have.get(a, 0) >= 1 and have.get(b, 0) >= 1)


def think_tank_feasible(state: PaxState, seat: int, disciplines) -> bool:
    tank = state.think_tank[seat]
    return bool(tank) and _pair(*state.idea(tank[-1]).disciplines) == _pair(*disciplines)


def feasible(state: PaxState, seat: int, idea: str, via: str) -> bool:
    disciplines = state.idea(idea).disciplines
    # branches rather than a table of functions: the compiled build calls each directly
    if via == "splay":
        return splay_feasible(state, seat, disciplines)
    if via == "patents":
        return patents_feasible(state, seat, disciplines)
    if via == "think tank":
        return think_tank_feasible(state, seat, disciplines)
    raise KeyError(via)


def reserved(state: PaxState, idea: str, via: str):
    """Patents a commercialization via Patents divests, kept out of the payment."""
    if via != "patents":
        return None
    out: dict = {}
    for colour in state.idea(idea).disciplines:
        out[colour] = out.get(colour, 0) + 1
    return out


def cost(state: PaxState, idea: str, labour_key: str, sphere: str | None = None) -> int:
    """The price of commercializing ``idea`` (in the Market; ``sphere``: its
    column, when the caller knows it) with labour at ``labour_key``."""
    if sphere is None:
        sphere = state.where_in_market(idea)[0]
    return action_cost(state, sphere, labour_key, commercialize_subsidized(state, sphere))


def check(state: PaxState, seat: int, action) -> None:
    idea, down, via, labour_key = action.args
    where = state.where_in_market(idea)
    if where is None:
        raise IllegalAction(f"{idea} is not in the Market")
    if seat not in state.synd.get(idea, ()):
        raise IllegalAction(f"{state.name(seat)} needs an own Syndication on {idea} to commercialize it")
    if down not in state.idea(idea).disciplines:
        raise IllegalAction(f"{idea} has no {down} discipline to put down in the Splay")
    if not feasible(state, seat, idea, via):
        raise IllegalAction(f"{idea} is not feasible via {via}")
    check_labour(state, seat, labour_key, where[0], "M")
    price = cost(state, idea, labour_key)
    if not can_pay(state, seat, price, reserved(state, idea, via)):
        raise IllegalAction(f"{state.name(seat)} cannot raise ${price} to commercialize {idea}")


def legal(state: PaxState, seat: int, mine: set | None = None) -> list:
    """Every legal Commercialize; ``mine``: the player's :func:`.labour.labour_keys`,
    when the caller has worked them out already."""
    out: list = []
    # labour first, worked out once (labour_keys): most players in most positions
    # have no Maker labour in a sphere where they hold a Syndication
    if mine is None:
        mine = labour_keys(state, seat)
    if not mine:
        return out
    synd: dict = state.synd
    makers: dict = state.content.side_places["M"]
    market: dict = state.market
    spheres = SPHERE_ORDER
    for sphere in spheres:
        keys: tuple = makers[sphere]
        places = [k for k in keys if k in mine]     # labour_places(..., "M")
        if not places:
            continue
        col: list = market[sphere]
        held = []
        for idea in col:
            if idea is not None:
                if seated(synd.get(idea, ()), seat):
                    held.append(idea)
        if not held:
            continue
        # the price depends on the idea only through its sphere: once per place
        prices = [cost(state, held[0], key, sphere) for key in places]
        for idea in held:
            ways = [w for w in WAYS if feasible(state, seat, idea, w)]
            if not ways:
                continue
            for key, price in zip(places, prices):
                for via in ways:
                    if not can_pay(state, seat, price, reserved(state, idea, via)):
                        continue
                    for down in dict.fromkeys(state.idea(idea).disciplines):
                        out.append(A("commercialize", idea, down, via, key))
    return out


def apply(state: PaxState, seat: int, action) -> None:
    check(state, seat, action)
    idea, down, via, labour_key = action.args
    sphere, slot = state.where_in_market(idea)
    from .labour import employee_at, is_subsidized_labour
    owner = employee_at(state, labour_key, seat)
    utility = state.content.places[labour_key].kind == "utility"
    pay(state, seat, cost(state, idea, labour_key), reserved(state, idea, via))
    if is_subsidized_labour(state, labour_key):
        state.bump("subsidized_labour")
    do_labour(state, labour_key, owner)
    tank_card = None
    if via == "patents":
        for colour in state.idea(idea).disciplines:
            state.patents[seat][colour] -= 1
            divest(state, seat)
    elif via == "think tank":
        tank_card = state.think_tank[seat].pop()
    state.market[sphere][slot] = None
    state.act = {"kind": "commercialize", "seat": seat, "idea": idea, "down": down,
                 "utility": utility, "slot": (sphere, slot), "tank_card": tank_card}
    state.tasks = queue_card_effects(state, seat, state.idea(idea)) + [("finish commercialize",)]
    state.bump("commercializations")
    state.bump(f"commercialized_by_{seat}")
    run_tasks(state)


def finish(state: PaxState) -> None:
    """The card joins the Splay; Heat becomes Future Shock; Syndications become Patents."""
    act = state.act
    idea, down = act["idea"], act["down"]
    owners = state.heat.pop(idea, ())
    state.splay.append((idea, down, tuple(owners)))
    for s in state.synd.pop(idea, ()):
        if act["utility"]:
            divest(state, s)
        else:
            state.patents[s][down] = state.patents[s].get(down, 0) + 1
            state.bump("patents_made")
    if act["tank_card"] is not None:
        sphere, slot = act["slot"]
        card = act["tank_card"]
        state.market[sphere][slot] = card
        state.heat[card] = (None,) * len(state.idea(card).heat)
    update_regime(state)
    from .ending import check_after_commercialize
    check_after_commercialize(state)
