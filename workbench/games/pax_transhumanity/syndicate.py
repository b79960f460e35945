"""Syndicate: install an agent as a Syndication on a Market idea.

One Syndication per player per idea. The price is the idea's height in its column
(the price tokens 0 at the bottom to 5 at the top), doubled when any rival has
already syndicated it; under Paradigm Shift it is free. Every uncovered white Heat
square on the idea's left edge must also get an agent as Heat; an uncovered black
one may (``cover black``). If the idea has a Surge Arrow (every idea does under
Transbiology), a higher idea in the same column that carries the arrow's colour may
be syndicated in the same action for free, provided its white Heat can be covered;
from there the chain may go on (``surge <Idea>`` decisions, ``stop`` to end).
"""

from __future__ import annotations

from typing import Final

from workbench.core.errors import IllegalAction

from .finance import agents_after_payment, finance_agents, has_patents, install, pay, plan_payment
from .notation import A, new_action
from .regime import surge_colours, syndication_is_free
from .state import PaxState, SPHERE_ORDER, seated


def price(state: PaxState, seat: int, idea: str) -> int:
    _, slot = state.where_in_market(idea)
    rivals = any(s != seat for s in state.synd.get(idea, ()))
    return market_price(slot, rivals, syndication_is_free(state))


def market_price(slot: int, rivals_on_it: bool, free: bool) -> int:
    """The price of syndicating the idea in Market ``slot`` (its height), for a
    player with ``rivals_on_it`` or not; ``free`` under Paradigm Shift. The seat
    page prints it on each Market card from the same function."""
    if free:
        return 0
    return slot * 2 if rivals_on_it else slot


def uncovered(state: PaxState, idea: str, colour: str) -> int:
    if colour not in _SIDE:
        return 0
    owners = state.heat[idea]
    n = 0
    for i in state.content.heat_squares[idea][_SIDE[colour]]:
        if owners[i] is None:
            n += 1
    return n


_SIDE: Final = {"white": 0, "black": 1}


def agents_needed(state: PaxState, idea: str, black: bool) -> int:
    return 1 + uncovered(state, idea, "white") + (uncovered(state, idea, "black") if black else 0)


def check(state: PaxState, seat: int, idea: str, black: bool, cost: int) -> tuple:
    """Raise IllegalAction unless ``seat`` may syndicate ``idea`` for ``cost``;
    returns the payment's plan (:func:`.finance.plan_payment`)."""
    if state.where_in_market(idea) is None:
        raise IllegalAction(f"{idea} is not in the Market")
    if seat in state.synd.get(idea, ()):
        raise IllegalAction(f"{state.name(seat)} already has a Syndication on {idea}")
    if black and not uncovered(state, idea, "black"):
        raise IllegalAction(f"{idea} has no uncovered black Heat square to cover")
    plan = plan_payment(state, seat, cost)      # can_pay, and the agents a sale frees
    if plan is None:
        raise IllegalAction(f"{state.name(seat)} cannot raise ${cost} to syndicate {idea}")
    need = agents_needed(state, idea, black)
    if finance_agents(state, seat) + len(plan[0]) < need:
        raise IllegalAction(f"syndicating {idea} needs {need} agent(s) from the finance track "
                            "(the Syndication and its white Heat)")
    return plan


def place_agents(state: PaxState, seat: int, idea: str, black: bool) -> None:
    install(state, seat)
    state.synd[idea] = state.synd.get(idea, ()) + (seat,)
    squares = state.idea(idea).heat
    owners = list(state.heat[idea])
    for i, c in enumerate(squares):
        if owners[i] is None and (c == "white" or black):
            install(state, seat)
            owners[i] = seat
    state.heat[idea] = tuple(owners)
    state.bump("syndications")


def legal(state: PaxState, seat: int, count_only: bool = False):
    """Every legal Syndicate (the same tests as :func:`check`, without raising);
    with ``count_only`` just how many there are (nothing built)."""
    out: list = []
    n = 0
    free = syndication_is_free(state)
    f: list = state.fin[seat]
    capital: int = f[0]
    wealth: int = f[1]
    debt: int = f[2]
    money, on_track = 2 * capital + wealth, capital + wealth + debt
    # beyond the track's money only a Patent sale pays: with none to sell, every
    # dearer idea is out without asking finance
    track_only = not has_patents(state, seat) and not state.sell_choice
    if track_only and on_track < 1:
        return 0 if count_only else out     # no agent to install, nothing to sell
    agents_at: dict = {}    # cost -> agents left after paying it (few distinct costs)
    # the containers' types written out (tuples of seats, of square indices): the
    # compiled build then walks them directly; this runs for every Market idea in
    # every position
    synd: dict = state.synd
    heat: dict = state.heat
    squares: dict = state.content.heat_squares
    market: dict = state.market
    spheres = SPHERE_ORDER
    for sphere in spheres:
        col: list = market[sphere]
        for slot in range(len(col)):
            idea = col[slot]
            if idea is None:
                continue
            if track_only and not free and slot > money:
                break               # this slot and those above cost more than the track holds
            owners: tuple[int, ...] = synd.get(idea, ())
            if seated(owners, seat):
                continue
            cost = 0 if free else (slot * 2 if owners else slot)   # owners here are all rivals
            agents: int
            if cost <= money:       # the track pays it: no Patent sold (finance.plan_payment)
                agents = on_track
            elif track_only:
                continue
            else:
                known = agents_at.get(cost)
                if known is None:
                    known = agents_at[cost] = agents_after_payment(state, seat, cost)
                agents = known
            if agents < 1:
                continue
            # the uncovered Heat counted here, not through uncovered()
            held: tuple[int | None, ...] = heat[idea]
            at: tuple = squares[idea]
            whites_at: tuple[int, ...] = at[0]
            blacks_at: tuple[int, ...] = at[1]
            whites = 0
            for i in whites_at:
                if held[i] is None:
                    whites += 1
            if agents >= 1 + whites:
                blacks = 0
                for i in blacks_at:
                    if held[i] is None:
                        blacks += 1
                black = blacks and agents >= 1 + whites + blacks
                if count_only:
                    n += 2 if black else 1
                    continue
                out.append(new_action("syndicate", (idea, False)))
                if black:
                    out.append(new_action("syndicate", (idea, True)))
    return n if count_only else out


def apply(state: PaxState, seat: int, action) -> None:
    idea, black = action.args
    if state.where_in_market(idea) is None:
        raise IllegalAction(f"{idea} is not in the Market")
    cost = price(state, seat, idea)
    plan = check(state, seat, idea, black, cost)
    pay(state, seat, cost, plan=plan)
    place_agents(state, seat, idea, black)
    state.act = {"kind": "syndicate", "seat": seat, "chain": (idea,)}
    offer_surge(state, seat)


def surge_targets(state: PaxState, seat: int) -> list:
    """Ideas the chain may reach now: higher in the column of an idea syndicated in
    this action, carrying one of its Surge Arrow colours, white Heat coverable."""
    reach = state.options.get("surge_reach", "any")
    found = []
    for origin in state.act["chain"]:
        sphere, slot = state.where_in_market(origin)
        colours = surge_colours(state, state.idea(origin))
        if not colours:
            continue
        col = state.market[sphere]
        above = range(slot + 1, len(col)) if reach == "any" else range(slot + 1, min(slot + 2, len(col)))
        for j in above:
            target = col[j]
            if target is None or target in found or target in state.act["chain"]:
                continue
            if seat in state.synd.get(target, ()):
                continue
            if not set(colours) & set(state.idea(target).disciplines):
                continue
            if finance_agents(state, seat) < agents_needed(state, target, False):
                continue
            found.append(target)
    return found


def offer_surge(state: PaxState, seat: int) -> bool:
    """Ask for a chained syndication if one is possible; False when the action is over."""
    if surge_targets(state, seat):
        state.decision = {"kind": "surge", "seat": seat}
        return True
    return False


def surge_options(state: PaxState, seat: int) -> list:
    out = []
    for target in surge_targets(state, seat):
        out.append(A("surge", target, False))
        if uncovered(state, target, "black") and finance_agents(state, seat) >= agents_needed(state, target, True):
            out.append(A("surge", target, True))
    return out + [A("stop")]


def answer_surge(state: PaxState, seat: int, action) -> bool:
    """Apply ``surge``/``stop``; True when the Syndicate action is over."""
    if action.kind == "stop":
        state.decision = None
        return True
    if action not in surge_options(state, seat):
        idea = action.args[0]
        raise IllegalAction(f"{idea} cannot be reached by a Surge Arrow now (it must be higher in the same "
                            "column, carry the arrow's colour, and its white Heat must be coverable)")
    place_agents(state, seat, action.args[0], action.args[1])
    state.bump("surges")
    state.act["chain"] = state.act["chain"] + (action.args[0],)
    state.decision = None
    return not offer_surge(state, seat)
