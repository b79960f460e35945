"""Pax Transhumanity scenario positions and what a scenario may observe: the
``setup`` block (documented in ``cards/pax_transhumanity/scenarios/README.md``)
built into a position, and the values an ``expect`` block may name."""

from __future__ import annotations

from typing import Mapping

from workbench.core.errors import ScenarioError, suggest

from . import scoring
from .data import SPHERES
from .effects import companies_of, uncovered_black_in_splay
from .finance import patent_value, track_money
from .labour import employees_of
from .notation import format_action
from .regime import REGIMES, cutting_edge, regime_for
from .setup import new_game
from .state import PaxState

def observe(game, state: PaxState) -> dict:
    names = state.config.players
    res = game.result(state)
    players = {}
    for s, name in enumerate(names):
        c, w, d = state.fin[s]
        players[name] = {
            "capital": c, "wealth": w, "debt": d, "money": track_money(state, s),
            "pool": state.pool[s], "secret": state.secret[s],
            "patents": {k: v for k, v in state.patents[s].items() if v},
            "solved": {k: v for k, v in state.solved[s].items() if v},
            "think_tank": state.think_tank[s][::-1],   # top first
            "employees": employees_of(state, s),
            "unemployed": {sp: state.unemployed[sp][s] for sp in SPHERES if state.unemployed[sp][s]},
            "companies": sorted(companies_of(state, s)),
            "syndications": [i for i in state.market_ideas() if s in state.synd.get(i, ())],
            "heat": sum(1 for owners in state.heat.values() for o in owners if o == s),
            "future_shock": scoring.singular_score(state, s),
            "agents": agent_total(state, s),
            "score": res.scores[name],
        }
    return {
        "regime": state.regime, "cutting_edge": cutting_edge(state.splay),
        "splay": [card for card, _, _ in state.splay],
        "bands": [band for _, band, _ in state.splay],
        # each Splay card as the setup writes it: the side put down and whose Future Shock
        # agent stands on each Heat square (null: none)
        "splay_squares": [{"card": card, "down": band,
                           "future_shock": [None if o is None else names[o] for o in owners]}
                          for card, band, owners in state.splay],
        "market": {s: list(state.market[s]) for s in SPHERES},
        "deck_size": len(state.deck), "problems": dict(state.problems),
        "turn": names[state.turn], "round": state.round, "actions_left": state.actions_left,
        "decision": state.decision["kind"] if state.decision else None,
        "to_move": names[state.current_player()] if not state.is_terminal() else None,
        "over": state.is_terminal(), "ending": res.ending, "scoring": res.details["scoring"],
        "winners": res.winners, "out_of_game": list(state.out_of_game),
        "patent_values": {c: patent_value(state, c) for c in SPHERES},
        "uncovered_black_heat": uncovered_black_in_splay(state),
        "legal": [format_action(a) for a in state.legal_actions()],
        "players": players,
    }


def agent_total(state: PaxState, seat: int) -> int:
    """Every agent of ``seat``, wherever it is (the property tests keep this fixed)."""
    return (sum(state.fin[seat]) + state.pool[seat] + state.marker[seat]
            + sum(owners.count(seat) for owners in state.synd.values())
            + sum(owners.count(seat) for owners in state.heat.values())
            + sum(owners.count(seat) for _, _, owners in state.splay)
            + sum(state.patents[seat].values())
            + sum(owners.count(seat) for owners in state.staff.values())
            + sum(state.unemployed[s][seat] for s in SPHERES))


def build_scenario(game, setup: Mapping):
    """A position from a scenario ``setup`` block (documented in
    ``cards/pax_transhumanity/scenarios/README.md``)."""
    known = {"seed", "players", "options", "variants", "start", "secret", "market", "splay", "deck",
             "regime", "turn", "actions_left", "players_state", "problems", "round"}
    unknown = set(setup) - known
    if unknown:
        raise ScenarioError(f"unknown setup key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    cfg = game.config(setup.get("players", 3), seed=int(setup.get("seed", 0)),
                      variants=setup.get("variants", ()), **dict(setup.get("options") or {}))
    state = new_game(cfg, game.cards())
    names = list(cfg.players)
    ideas = state.content.ideas

    def card(name):
        for real in ideas:
            if real.lower() == str(name).lower():
                return real
        raise ScenarioError(f"no idea named {name!r}{suggest(str(name), ideas)}")

    def seat_of(name):
        for i, n in enumerate(names):
            if n.lower() == str(name).lower():
                return i
        raise ScenarioError(f"no player named {name!r}{suggest(str(name), names)}")

    if setup.get("start", "turns") == "secret":
        if any(k in setup for k in ("market", "splay", "deck", "players_state")):
            raise ScenarioError("start: secret keeps the dealt position; drop market/splay/deck/players_state")
        return state
    named = []
    for col in (setup.get("market") or {}).values():
        named += [card(c) for c in col if c is not None]
    for entry in setup.get("splay") or []:
        named.append(card(entry["card"] if isinstance(entry, Mapping) else str(entry).split("/")[0].strip()))
    named += [card(c) for c in setup.get("deck") or []]
    for ps in (setup.get("players_state") or {}).values():
        named += [card(c) for c in (ps or {}).get("think_tank", [])]
    if len(set(named)) != len(named):
        raise ScenarioError("a card is named twice in the setup")
    taken = set(named)
    for sphere in SPHERES:
        state.market[sphere] = [None if c in taken else c for c in state.market[sphere]]
    state.splay = [e for e in state.splay if e[0] not in taken]
    state.deck = [c for c in state.deck if c not in taken]
    for sphere, col in (setup.get("market") or {}).items():
        if sphere not in SPHERES:
            raise ScenarioError(f"market: no sphere {sphere!r}{suggest(str(sphere), SPHERES)}")
        col = [card(c) if c is not None else None for c in col]
        size = state.content.settings["market_slots"]
        if len(col) > size:
            raise ScenarioError(f"market {sphere}: at most {size} slots")
        state.market[sphere] = col + [None] * (size - len(col))
    if "deck" in setup:
        state.deck = [card(c) for c in setup["deck"]][::-1]
    heat_given = {}
    synd_given = {}
    for name, ps in (setup.get("players_state") or {}).items():
        s = seat_of(name)
        for idea, squares in ((ps or {}).get("heat") or {}).items():
            heat_given.setdefault(card(idea), {})[s] = squares
        for idea in (ps or {}).get("syndications") or []:
            synd_given.setdefault(card(idea), []).append(s)
    state.heat, state.synd = {}, {}
    for idea in state.market_ideas():
        squares = ideas[idea].heat
        owners = [None] * len(squares)
        for s, which in heat_given.get(idea, {}).items():
            for colour in which:
                free = [i for i, c in enumerate(squares) if c == colour and owners[i] is None]
                if not free:
                    raise ScenarioError(f"{idea} has no free {colour} Heat square for {names[s]}")
                owners[free[0]] = s
        state.heat[idea] = tuple(owners)
        if idea in synd_given:
            state.synd[idea] = tuple(synd_given[idea])
    for idea in list(heat_given) + list(synd_given):
        if state.where_in_market(idea) is None:
            raise ScenarioError(f"{idea} carries agents in the setup but is not in the Market")
    if "splay" in setup:
        state.splay = []
        for entry in setup["splay"]:
            if isinstance(entry, Mapping):
                name, band, fs = card(entry["card"]), entry.get("down"), entry.get("future_shock") or []
            else:
                parts = [p.strip() for p in str(entry).split("/")]
                name, band, fs = card(parts[0]), (parts[1] if len(parts) > 1 else None), []
            band = band or ideas[name].disciplines[0]
            if band not in ideas[name].disciplines:
                raise ScenarioError(f"splay: {name} has no {band} band")
            squares = ideas[name].heat
            owners = [None] * len(squares)
            for i, who in enumerate(fs):
                if who is not None:
                    if i >= len(squares):
                        raise ScenarioError(f"splay: {name} has only {len(squares)} Heat square(s)")
                    owners[i] = seat_of(who)
            state.splay.append((name, band, tuple(owners)))
    state.regime = setup.get("regime") or regime_for(cutting_edge(state.splay))
    if state.regime not in REGIMES:
        raise ScenarioError(f"no Regime {state.regime!r}{suggest(state.regime, REGIMES)}")
    for sphere, n in (setup.get("problems") or {}).items():
        state.problems[sphere] = int(n)
    total = state.content.settings["agents_in_play"] + state.content.settings["agents_in_pool"]
    secrets = setup.get("secret") or {}
    for s, name in enumerate(names):
        state.secret[s] = state.secret_offer[s][0]
    for name, colour in secrets.items():
        state.secret[seat_of(name)] = colour
    for name, ps in (setup.get("players_state") or {}).items():
        s = seat_of(name)
        ps = ps or {}
        allowed = {"capital", "wealth", "debt", "pool", "patents", "solved", "secret", "think_tank", "employees",
                   "unemployed", "companies", "heat", "syndications"}
        bad = set(ps) - allowed
        if bad:
            raise ScenarioError(f"players_state {name}: unknown key(s) {', '.join(sorted(bad))}")
        f = state.fin[s]
        f[0], f[1], f[2] = ps.get("capital", f[0]), ps.get("wealth", f[1]), ps.get("debt", f[2])
        if "secret" in ps:
            state.secret[s] = ps["secret"]
        state.patents[s] = dict(ps.get("patents") or {})
        state.solved[s] = dict(ps.get("solved") or {})
        state.think_tank[s] = [card(c) for c in ps.get("think_tank") or []][::-1]
        for key in ps.get("employees") or []:
            if key not in state.content.places:
                raise ScenarioError(f"{name}: no place {key!r}{suggest(key, state.content.places)}")
            state.staff[key] = state.staff.get(key, ()) + (s,)
        for sphere, n in (ps.get("unemployed") or {}).items():
            row = list(state.unemployed[sphere])
            row[s] = int(n)
            state.unemployed[sphere] = tuple(row)
        for key in ps.get("companies") or []:
            if key not in state.content.places:
                raise ScenarioError(f"{name}: no place {key!r}{suggest(key, state.content.places)}")
            state.companies[key] = s
    for s, name in enumerate(names):
        ps = (setup.get("players_state") or {}).get(name) or {}
        state.pool[s] = 0
        placed = agent_total(state, s)
        state.pool[s] = int(ps["pool"]) if "pool" in ps else max(0, total - placed)
    state.decision = None
    state.turn = seat_of(setup["turn"]) if "turn" in setup else 0
    state.actions_left = int(setup.get("actions_left", 2))
    state.round = int(setup.get("round", 1))
    return state
