"""Research: slide a sphere's Market column down and refill it.

Needs Thinker labour in the sphere and money (free under Computing): the sphere's
uncovered Barriers, doubled unless the labour or the research is Subsidized (the
Developing World under Globalization). The lowest card of the column (if any)
leaves; the rest slide down to close the gaps, and the empty slots are refilled
from the Draw Deck from the bottom up while it lasts. A Tipping Point may only be
researched by a player with a Syndication on it. Agents on the leaving card are
divested; the card then goes (``to``) onto the researcher's Think Tank (not if a
rival syndicated it), or becomes Patents in one or both of its disciplines (not
after Utility labour), and is discarded only when neither is possible.
Researching Plurality away ends the game.
"""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .finance import can_pay, divest, finance_agents, install, pay, plan_payment
from .labour import action_cost, check_labour, do_labour, employee_at, labour_keys
from .notation import A
from .regime import research_is_free, research_subsidized
from .state import PaxState, SPHERE_ORDER


def lowest_card(state: PaxState, sphere: str):
    """``(slot, idea)`` of the lowest card of the column, or None."""
    for slot, idea in enumerate(state.market[sphere]):
        if idea is not None:
            return slot, idea
    return None


def cost(state: PaxState, sphere: str, labour_key: str) -> int:
    if research_is_free(state):
        return 0
    return action_cost(state, sphere, labour_key, research_subsidized(state, sphere))


def destinations(state: PaxState, seat: int, sphere: str, labour_key: str) -> list:
    """``(to, colours)`` choices for the leaving card (empty when the column is empty)."""
    low = lowest_card(state, sphere)
    if low is None:
        return [(None, ())]
    idea = low[1]
    card = state.idea(idea)
    if card.kind == "plurality":
        return [("discard", ())]
    out = []
    if not any(s != seat for s in state.synd.get(idea, ())):
        out.append(("think tank", ()))
    if state.content.places[labour_key].kind != "utility":
        a, b = card.disciplines
        returning = sum(1 for s in state.synd.get(idea, ()) if s == seat) \
            + sum(1 for s in state.heat.get(idea, ()) if s == seat)
        plan = plan_payment(state, seat, cost(state, sphere, labour_key))
        agents = finance_agents(state, seat) + returning + (len(plan[0]) if plan else 0)
        for colours in ([(a,), (a, b)] if a == b else [(a,), (b,), (a, b)]):
            if agents >= len(colours):
                out.append(("patents", colours))
    if not out:
        # The summary: the card is simply discarded only when neither the Think Tank
        # nor Patents can take it (ruling research-discard).
        out.append(("discard", ()))
    return out


def check(state: PaxState, seat: int, action) -> None:
    sphere, labour_key, to, colours = action.args
    check_labour(state, seat, labour_key, sphere, "T")
    price = cost(state, sphere, labour_key)
    if not can_pay(state, seat, price):
        raise IllegalAction(f"{state.name(seat)} cannot raise ${price} to research the {sphere} sphere")
    low = lowest_card(state, sphere)
    if low is not None:
        card = state.idea(low[1])
        if card.kind == "tipping point" and seat not in state.synd.get(low[1], ()):
            raise IllegalAction(f"{low[1]} is a Tipping Point: researching it needs an own Syndication on it")
        if to is None:
            raise IllegalAction(f"say where {low[1]} goes: to think tank, to patents <colour>..., or to discard")
    elif to is not None:
        raise IllegalAction(f"the {sphere} column is empty: no card leaves, so drop 'to {to}'")
    if (to, tuple(colours)) not in destinations(state, seat, sphere, labour_key):
        why = {"think tank": "a rival also syndicated it",
               "patents": "labour at a Utility makes no Patents (or too few agents, or a wrong colour)",
               "discard": "a card is discarded only when neither the Think Tank nor Patents can take it"}.get(to, "")
        raise IllegalAction(f"{low[1]} cannot go to {to}" + (f": {why}" if why else ""))


def legal(state: PaxState, seat: int, mine: set | None = None) -> list:
    """Every legal Research; ``mine``: the player's :func:`.labour.labour_keys`,
    when the caller has worked them out already."""
    out: list = []
    if mine is None:
        mine = labour_keys(state, seat)
    if not mine:
        return out
    thinkers: dict = state.content.side_places["T"]
    spheres = SPHERE_ORDER
    for sphere in spheres:
        at: tuple = thinkers[sphere]
        keys = [k for k in at if k in mine]     # labour_places(..., "T")
        if not keys:
            continue
        low = lowest_card(state, sphere)
        if low is not None and state.idea(low[1]).kind == "tipping point" and seat not in state.synd.get(low[1], ()):
            continue
        for key in keys:
            if not can_pay(state, seat, cost(state, sphere, key)):
                continue
            for to, colours in destinations(state, seat, sphere, key):
                out.append(A("research", sphere, key, to, colours))
    return out


def apply(state: PaxState, seat: int, action) -> None:
    check(state, seat, action)
    sphere, labour_key, to, colours = action.args
    owner = employee_at(state, labour_key, seat)
    pay(state, seat, cost(state, sphere, labour_key))
    do_labour(state, labour_key, owner)
    low = lowest_card(state, sphere)
    col = state.market[sphere]
    if low is not None:
        slot, idea = low
        col[slot] = None
        for s in state.synd.pop(idea, ()):
            divest(state, s)
        for s in state.heat.pop(idea, ()):
            if s is not None:
                divest(state, s)
        if to == "think tank":
            state.think_tank[seat].append(idea)
        elif to == "patents":
            for colour in colours:
                install(state, seat)
                state.patents[seat][colour] = state.patents[seat].get(colour, 0) + 1
                state.bump("patents_made")
            state.out_of_game.append(idea)     # the card itself leaves; its value lives on as Patents
        else:
            state.out_of_game.append(idea)
            if state.idea(idea).kind == "plurality":
                state.ending = "plurality"
    slide_and_refill(state, sphere)
    state.bump("researches")


def slide_and_refill(state: PaxState, sphere: str) -> None:
    col = [c for c in state.market[sphere] if c is not None]
    size = state.content.settings["market_slots"]
    while len(col) < size and state.deck:
        card = state.deck.pop()
        col.append(card)
        state.heat[card] = (None,) * len(state.idea(card).heat)
    state.market[sphere] = col + [None] * (size - len(col))
