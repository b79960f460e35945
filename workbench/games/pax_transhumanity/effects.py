"""Card effects and the queue that resolves them one by one.

An idea's ``effects`` are terms resolved top to bottom ("+" joins terms); a term
may offer alternatives with "or", which binds tighter than "+": ``growth`` then
``solve green or growth`` is two terms, the second a choice. Term words:

- ``growth``: an own agent comes from the pool to Wealth;
- ``solve <sphere>`` / ``solve any``: the named (or a chosen) problem is solved and
  its token taken, while tokens remain;
- ``found <sphere> thinker|maker [!<row>]``: an own Company disc goes on a place of
  that side of the sphere; an Employee already there is hired by it; a rival's
  Company may be pushed out only at the row marked ``!`` (a Brash startup); no
  place, no Company; the fifth Company makes its owner the Tycoon;
- ``resilience``: Social Resilience, divest any one Heat or Future Shock agent
  (a rival's too) that is not on the card being commercialized;
- ``disruption``: Industry Disruption, the discipline put down in the Splay is the
  Disruptive Discipline: every Patent of it is divested and one Splay card showing
  it leaves the game (its Future Shock agents divested);
- ``recession``: Exoglobal Recession, only while the card's black Heat square is
  uncovered: every player sends one Employee to the pool;
- ``damping``: Heat-damping Growth, an own agent may come from the pool onto an
  uncovered black Heat square in the Market or the Splay;
- ``nuclear <sphere>``: Nuclear Exchange, each player discards that many Companies
  and solved problems of the sphere: the uncovered black Heat squares of the Splay
  minus their own Future Shock agents on black squares;
- ``game end``: the game ends once the action is over.

Tasks are tuples kept in ``state.tasks``; a task that needs a choice sets
``state.decision`` and waits for the deciding seat's answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from workbench.core.errors import IllegalAction

from .data import SIDES, SPHERES, parse_effect, parse_effect_term  # noqa: F401  (the grammar is data)
from .finance import divest
from .labour import change_unemployed, remove_staff
from .notation import A

if TYPE_CHECKING:
    from .state import PaxState

def effect_text(effect: tuple) -> str:
    if effect[0] == "found":
        side = "thinker" if effect[2] == "T" else "maker"
        return f"found {effect[1]} {side}" + (f" !{effect[3]}" if effect[3] else "")
    return " ".join(str(x) for x in effect)


def card_terms(idea) -> list:
    return [parse_effect_term(t) for t in idea.effects]


# -- the queue ----------------------------------------------------------------
def queue_card_effects(state: PaxState, seat: int, idea) -> list:
    return [("term", seat, alts) for alts in card_terms(idea)]


#: task kind -> handler of the tasks the turn's flow queues behind card effects
#: (e.g. finishing a Commercialize); the flow registers them, so this module
#: never imports the flow above it
FLOW_TASKS: dict[str, Callable] = {}


def run_tasks(state: PaxState) -> None:
    """Resolve queued tasks until one waits for a decision or none are left."""
    while state.decision is None and state.ending is None and state.tasks:
        task = state.tasks.pop(0)
        kind = task[0]
        if kind == "term":
            _, seat, alts = task
            if len(alts) == 1:
                state.tasks.insert(0, ("do", seat, alts[0]))
            else:
                state.decision = {"kind": "choose", "seat": seat, "alts": alts}
        elif kind == "do":
            resolve(state, task[1], task[2])
        elif kind == "nuke":
            _nuke_player(state, task[1], task[2], task[3])
        elif kind == "fire":
            _fire_player(state, task[1])
        else:
            handler = FLOW_TASKS.get(kind)
            if handler is None:
                raise ValueError(f"unknown task {task!r}")
            handler(state, task)


def resolve(state: PaxState, seat: int, effect: tuple) -> None:
    kind = effect[0]
    state.bump(f"effect_{kind.replace(' ', '_')}")
    if kind == "growth":
        if state.pool[seat]:
            state.pool[seat] -= 1
            divest(state, seat)
    elif kind == "solve":
        if effect[1] == "any":
            options = [s for s in SPHERES if state.problems[s] > 0]
            if len(options) == 1:
                solve(state, seat, options[0])
            elif options:
                state.decision = {"kind": "solve", "seat": seat}
        else:
            solve(state, seat, effect[1])
    elif kind == "found":
        options = found_places(state, seat, effect)
        if len(options) == 1:
            found_company(state, seat, options[0])
        elif options:
            state.decision = {"kind": "found", "seat": seat, "effect": effect}
    elif kind == "resilience":
        if resilience_targets(state):
            state.decision = {"kind": "resilience", "seat": seat}
    elif kind == "disruption":
        colour = state.act["down"]
        for s in range(state.num_players):
            n = state.patents[s].get(colour, 0)
            if n:
                state.patents[s][colour] = 0
                divest(state, s, n)
        options = disrupt_targets(state)
        if len(options) == 1:
            disrupt(state, options[0])
        elif options:
            state.decision = {"kind": "disrupt", "seat": seat}
    elif kind == "recession":
        idea = state.act["idea"]
        squares = state.idea(idea).heat
        owners = state.heat.get(idea, ())
        if any(c == "black" and owners[i] is None for i, c in enumerate(squares)):
            order = [(seat + k) % state.num_players for k in range(state.num_players)]
            state.tasks[0:0] = [("fire", s) for s in order]
    elif kind == "damping":
        if state.pool[seat] and damping_targets(state):
            state.decision = {"kind": "damp", "seat": seat}
    elif kind == "nuclear":
        order = [(seat + k) % state.num_players for k in range(state.num_players)]
        state.tasks[0:0] = [("nuke", s, effect[1], None) for s in order]
    elif kind == "game end":
        state.game_end_flag = True
        if state.act and state.act.get("idea") == state.content.plurality:
            # Every Nuclear Exchange in the Splay is played out before the game ends.
            extra = []
            for card, _, _ in state.splay:
                for alts in card_terms(state.idea(card)):
                    for eff in alts:
                        if eff[0] == "nuclear":
                            extra.append(("do", seat, eff))
            state.tasks[0:0] = extra


# -- effect details -------------------------------------------------------------
def solve(state: PaxState, seat: int, sphere: str) -> None:
    if state.problems[sphere] > 0:
        state.problems[sphere] -= 1
        state.solved[seat][sphere] = state.solved[seat].get(sphere, 0) + 1
        state.bump("problems_solved")


def companies_of(state: PaxState, seat: int, sphere: str | None = None) -> list:
    return [k for k, s in state.companies.items()
            if s == seat and (sphere is None or state.content.places[k].sphere == sphere)]


def found_places(state: PaxState, seat: int, effect: tuple) -> list:
    _, sphere, side, brash = effect
    out = []
    for key in state.content.sphere_places[sphere]:
        p = state.content.places[key]
        if p.side != side or p.kind != "company":
            continue
        owner = state.companies.get(key)
        if owner is None or (owner != seat and brash == p.row):
            out.append(key)
    return out


def found_company(state: PaxState, seat: int, key: str) -> None:
    if len(companies_of(state, seat)) + 1 >= state.content.settings["tycoon_company"]:
        state.tycoon = seat
        state.ending = "tycoon"
        return
    if key in state.companies:
        state.bump("brash_startups")
    state.companies[key] = seat   # an Employee already here now works for this Company
    state.bump("companies_founded")


def resilience_targets(state: PaxState) -> list:
    """(kind, seat, idea) of every Heat and Future Shock agent it may remove."""
    # the card being commercialized left the Market before its effects: no need to skip it there
    out = []
    for idea in state.market_ideas():
        for s in dict.fromkeys(o for o in state.heat.get(idea, ()) if o is not None):
            out.append(("heat", s, idea))
    for idea, _, owners in state.splay:
        for s in dict.fromkeys(o for o in owners if o is not None):
            out.append(("future shock", s, idea))
    return out


def remove_agent(state: PaxState, kind: str, seat: int, idea: str) -> None:
    if kind == "heat":
        owners = list(state.heat[idea])
        owners[owners.index(seat)] = None
        state.heat[idea] = tuple(owners)
    else:
        i = next(i for i, e in enumerate(state.splay) if e[0] == idea)
        card, band, held = state.splay[i]
        left = list(held)
        left[left.index(seat)] = None
        state.splay[i] = (card, band, tuple(left))
    divest(state, seat)


def disrupt_targets(state: PaxState) -> list:
    colour = state.act["down"]
    return [card for card, band, _ in state.splay if band == colour]


def disrupt(state: PaxState, idea: str) -> None:
    i = next(i for i, e in enumerate(state.splay) if e[0] == idea)
    card, _, owners = state.splay.pop(i)
    for s in owners:
        if s is not None:
            divest(state, s)
    state.out_of_game.append(card)
    state.bump("disrupted_cards")


def damping_targets(state: PaxState) -> list:
    # the card being commercialized left the Market before its effects: no need to skip it there
    out = []
    for idea in state.market_ideas():
        squares = state.idea(idea).heat
        if any(c == "black" and state.heat[idea][i] is None for i, c in enumerate(squares)):
            out.append(idea)
    for idea, _, owners in state.splay:
        squares = state.idea(idea).heat
        if any(c == "black" and owners[i] is None for i, c in enumerate(squares)):
            out.append(idea)
    return out


def damp(state: PaxState, seat: int, idea: str) -> None:
    squares = state.idea(idea).heat
    state.pool[seat] -= 1
    if state.where_in_market(idea):
        owners = list(state.heat[idea])
        i = next(i for i, c in enumerate(squares) if c == "black" and owners[i] is None)
        owners[i] = seat
        state.heat[idea] = tuple(owners)
    else:
        j = next(j for j, e in enumerate(state.splay) if e[0] == idea)
        card, band, held = state.splay[j]
        covered = list(held)  # (one type per name: mypyc compiles this module)
        i = next(i for i, c in enumerate(squares) if c == "black" and covered[i] is None)
        covered[i] = seat
        state.splay[j] = (card, band, tuple(covered))


def uncovered_black_in_splay(state: PaxState) -> int:
    return sum(1 for card, _, owners in state.splay
               for i, c in enumerate(state.idea(card).heat) if c == "black" and owners[i] is None)


def own_black_future_shock(state: PaxState, seat: int) -> int:
    return sum(1 for card, _, owners in state.splay
               for i, c in enumerate(state.idea(card).heat) if c == "black" and owners[i] == seat)


def nuclear_losses(state: PaxState, seat: int) -> int:
    """How many Companies and solved problems a Nuclear Exchange costs ``seat``."""
    return max(0, uncovered_black_in_splay(state) - own_black_future_shock(state, seat))


def nuke_options(state: PaxState, seat: int, sphere: str) -> list:
    opts = [A("discard", "company", k) for k in companies_of(state, seat, sphere)]
    if state.solved[seat].get(sphere, 0):
        opts.append(A("discard", "problem", sphere))
    return opts


def _nuke_player(state: PaxState, seat: int, sphere: str, left) -> None:
    if left is None:
        left = nuclear_losses(state, seat)
    holdings = len(companies_of(state, seat, sphere)) + state.solved[seat].get(sphere, 0)
    if left <= 0 or holdings == 0:
        return
    if holdings <= left:
        for k in companies_of(state, seat, sphere):
            discard(state, seat, A("discard", "company", k))
        while state.solved[seat].get(sphere, 0):
            discard(state, seat, A("discard", "problem", sphere))
        return
    state.decision = {"kind": "nuke", "seat": seat, "sphere": sphere, "left": left}


def discard(state: PaxState, seat: int, action) -> None:
    what, where = action.args
    if what == "company":
        del state.companies[where]
    else:
        state.solved[seat][where] -= 1
    state.bump("nuclear_losses")


def fire_options(state: PaxState, seat: int) -> list:
    from .labour import employees_of
    opts = [A("fire", k) for k in employees_of(state, seat)]
    opts += [A("fire", "unemployed", s) for s in SPHERES if state.unemployed[s][seat]]
    return opts


def _fire_player(state: PaxState, seat: int) -> None:
    opts = fire_options(state, seat)
    if len(opts) == 1:
        fire(state, seat, opts[0])
    elif opts:
        state.decision = {"kind": "fire", "seat": seat}


def fire(state: PaxState, seat: int, action) -> None:
    if action.args[0] == "unemployed":
        change_unemployed(state, action.args[1], seat, -1)
    else:
        remove_staff(state, action.args[0], seat)
    state.pool[seat] += 1
    state.bump("recession_layoffs")


# -- the decisions effects ask for ------------------------------------------------
def decision_options(state: PaxState) -> list:
    d = state.decision
    kind, seat = d["kind"], d["seat"]
    if kind == "choose":
        return [A("choose", effect_text(e)) for e in d["alts"]]
    if kind == "solve":
        return [A("solve", s) for s in SPHERES if state.problems[s] > 0]
    if kind == "found":
        return [A("found", k) for k in found_places(state, seat, d["effect"])]
    if kind == "resilience":
        return [A("remove", k, state.name(s), idea) for k, s, idea in resilience_targets(state)] + [A("skip")]
    if kind == "disrupt":
        return [A("disrupt", c) for c in disrupt_targets(state)]
    if kind == "damp":
        return [A("damp", c) for c in damping_targets(state)] + [A("skip")]
    if kind == "nuke":
        return nuke_options(state, seat, d["sphere"])
    if kind == "fire":
        return fire_options(state, seat)
    return []


def apply_decision(state: PaxState, action) -> bool:
    """Apply an answer to an effect's decision; False if this module does not own it."""
    d = state.decision
    kind, seat = d["kind"], d["seat"]
    if kind not in ("choose", "solve", "found", "resilience", "disrupt", "damp", "nuke", "fire"):
        return False
    options = decision_options(state)
    if action not in options:
        listed = ", ".join(str(o) for o in options)
        raise IllegalAction(f"{state.name(seat)} must answer with one of: {listed}")
    state.decision = None
    if kind == "choose":
        effect = next(e for e in d["alts"] if effect_text(e) == action.args[0])
        state.tasks.insert(0, ("do", seat, effect))
    elif kind == "solve":
        solve(state, seat, action.args[0])
    elif kind == "found":
        found_company(state, seat, action.args[0])
    elif kind == "resilience" and action.kind == "remove":
        target = state.config.players.index(action.args[1])
        remove_agent(state, action.args[0], target, action.args[2])
    elif kind == "disrupt":
        disrupt(state, action.args[0])
    elif kind == "damp" and action.kind == "damp":
        damp(state, seat, action.args[0])
    elif kind == "nuke":
        discard(state, seat, action)
        if d["left"] > 1:
            state.tasks.insert(0, ("nuke", seat, d["sphere"], d["left"] - 1))
    elif kind == "fire":
        fire(state, seat, action)
    run_tasks(state)
    return True
