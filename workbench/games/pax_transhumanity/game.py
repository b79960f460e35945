"""The Pax Transhumanity :class:`Game`: making states, notation, scoring, bot
evaluation, statistics hooks and scenario positions."""

from __future__ import annotations

from typing import Mapping

from workbench.core.errors import ScenarioError, WorkbenchError, suggest
from workbench.core.game import Game, GameResult

from . import scoring
from .commercialize import WAYS, cost as commercialize_cost, feasible
from .content import SPHERES, content
from .effects import companies_of, uncovered_black_in_splay
from .ending import longest_run
from .finance import can_pay, patent_value, track_money
from .labour import employees_of, labour_places
from .notation import Parser, format_action
from .regime import cutting_edge, regime_for, REGIMES
from .research import lowest_card
from .setup import empty_state, new_game

DEFAULT_WEIGHTS = {
    "score": 2.0,           # points under the scoring that would apply now
    "commercialized": 5.0,  # ideas this player has commercialized (the game's aim)
    "companies": 2.0,
    "solved": 1.5,
    "patents": 1.2,         # Patent agents held
    "patent_value": 0.1,    # their total sale value
    "syndications": 0.3,    # (counted up to 3)
    "feasible": 0.5,        # own Syndications that are feasible now (any of the three ways)
    "progress": 1.5,        # best own Syndication's readiness: feasible + Maker labour + affordable (0-3)
    "thinkers": 1.0,        # spheres with a card to research where the player has Thinker labour
    "employees": 0.5,       # (counted up to 4)
    "money": 0.1,           # what the player could pay, Patent sales included (counted up to $6:
                            # money kept beyond two Hires' worth does nothing, so bots spend it)
    "broke": -1.5,          # 1 when the finance track alone pays less than $3 (a Hire): Patents
                            # sold in a payment pay little, so a broke player should Fundraise them
    "debt": -0.4,           # agents in Debt (only Capital pairs them off in a Fundraise)
    "agents": 0.4,          # agents on the finance track, free to install
    "future_shock": 0.4,
    "think_tank": 0.3,
    "clock": 2.0,           # cards drawn, researched away or commercialized: bots move the game on
    "imports": -0.05,       # Imports made by anyone: moving cards is no progress in itself
    "tipping_points": 2.0,  # 1 with an own Syndication on a Tipping Point in the Market (the way to end
                            # the game); more would only tie up agents
    "tipping_ready": 1.0,   # ... of them, those at the bottom of their column (researchable now)
    "cash": 0.2,            # what the finance track alone pays (up to $6): a Fundraise needs track agents
    "tycoon": 1.0,          # Companies counted again, squared over the fifth: the closer to Tycoon the better
    # how a finished game is valued: the features of the final position plus these
    "win": 50.0,            # the player wins (alone or shared)
    "loss": -10.0,          # a loss, scaled by rank: last place gets all of it, second of four a third
    "margin": 2.0,          # per point ahead of (or behind) the best rival under the final scoring
    "stall": 0.5,           # per round played, charged to unfinished positions only, so a dragging
                            # game makes finishing (even second) worth more than going on
    "spend_by": 30.0,       # round by which money and Patents held are worth nothing (their weights
                            # shrink linearly to 0): scoring never counts money, so bots spend it
}

#: keys that are not features: how endings, long games and held money are valued
ENDING_KEYS = ("win", "loss", "margin", "stall", "spend_by")
#: features whose weight shrinks toward ``spend_by``
HOLDINGS = ("money", "cash", "broke", "agents", "debt", "patents", "patent_value")


class PaxGame(Game):
    id = "pax-transhumanity"
    name = "Pax Transhumanity"
    min_players = 1
    max_players = 4
    default_players = 3
    variants: Mapping[str, str] = {}

    def new_initial_state(self, config):
        return new_game(config, content())

    def parse_action(self, state, text: str):
        if not isinstance(text, str):
            return text
        return Parser(state.content.ideas, state.config.players).parse(text)

    def format_action(self, state, action) -> str:
        return format_action(action)

    # -- outcome ----------------------------------------------------------------
    def result(self, state) -> GameResult:
        pts = scoring.scores(state)
        names = state.config.players
        ending = state.ending or "unfinished"
        return GameResult(
            scores={names[s]: pts[s] for s in range(state.num_players)},
            winners=[names[s] for s in scoring.winners(state)],
            ending=ending, turns=state.round,
            details={"scoring": scoring.mode(state) if state.ending not in (None, "timeout", "tycoon")
                     else ending, "regime": state.regime,
                     "splay": [band for _, band, _ in state.splay],
                     "secret": {names[s]: state.secret[s] for s in range(state.num_players)}})

    def features(self, state, seat: int) -> dict:
        # what the player could pay now: the finance track plus selling every Patent
        held = state.patents[seat]
        value_of = {c: patent_value(state, c) for c in held}   # each colour's sale value, once
        liquid = track_money(state, seat) + sum((value_of[c] + 1) * n for c, n in held.items())
        feasible_count, best_progress = syndication_outlook(state, seat)
        tipping = list(held_tipping_points(state, seat))
        return {
            "score": scoring.score(state, seat),
            "companies": len(companies_of(state, seat)),
            "solved": sum(state.solved[seat].values()),
            "patents": sum(state.patents[seat].values()),
            "patent_value": sum(value_of[c] * n for c, n in held.items()),
            "syndications": min(3, sum(1 for owners in state.synd.values() if seat in owners)),
            "feasible": feasible_count,
            "progress": best_progress,
            "commercialized": state.stats.get(f"commercialized_by_{seat}", 0),
            "thinkers": sum(1 for sp in SPHERES if any(state.market[sp]) and labour_places(state, seat, sp, "T")),
            "employees": min(4, len(employees_of(state, seat))),
            "money": min(6, liquid),
            "broke": 1 if track_money(state, seat) < 3 else 0,
            "agents": sum(state.fin[seat]),
            "debt": state.fin[seat][2],
            "imports": state.stats.get("imports", 0),
            "clock": len(state.splay) + len(state.out_of_game) - len(state.deck),
            "future_shock": scoring.singular_score(state, seat),
            "think_tank": len(state.think_tank[seat]),
            "tipping_points": min(1, len(tipping)),
            "tipping_ready": sum(1 for tp in tipping if is_lowest(state, tp)),
            "cash": min(6, track_money(state, seat)),
            "tycoon": tycoon_progress(len(companies_of(state, seat)), state.content.settings),
        }

    def evaluate(self, state, seat: int, weights=None) -> float:
        """Weighted features (see ``DEFAULT_WEIGHTS``; money and Patents held count
        less and less until round ``spend_by``). A finished game adds the
        ending's worth for ``seat`` (:func:`ending_value`); an unfinished one pays
        ``stall`` per round, so the longer a game drags on the more an ending the
        player would not win beats going on. The safety stop (``timeout``) is
        valued like any unfinished position."""
        if weights:
            w = dict(DEFAULT_WEIGHTS)
            w.update(weights)
        else:
            w = DEFAULT_WEIGHTS  # only read
        f = self.features(state, seat)
        keep = max(0.0, 1.0 - state.round / w["spend_by"]) if w["spend_by"] > 0 else 1.0
        # the same products summed by sum() in the same order as always (a loop
        # of += would differ from sum() on Python versions that compensate)
        get = w.get
        value = sum([get(k, 0.0) * v * (keep if k in HOLDINGS else 1.0) for k, v in f.items()])
        if state.is_terminal() and state.ending != "timeout":
            return value + ending_value(state, seat, w)
        return value - w["stall"] * state.round

    # -- statistics hooks -------------------------------------------------------
    def action_cards(self, state, action) -> tuple:
        action = self.coerce_action(state, action)
        k, x = action.kind, action.args
        if k in ("syndicate", "surge", "commercialize", "placate", "import", "disrupt", "damp"):
            return (x[0],)
        if k == "research":
            from .research import lowest_card
            low = lowest_card(state, x[0])
            return (low[1],) if low else ()
        return ()

    def game_stats(self, state) -> dict:
        out = {"ending": state.ending or "unfinished", "regime": state.regime, "rounds": state.round,
               "splay_cards": len(state.splay), "longest_run": longest_run(state.splay),
               "deck_left": len(state.deck),
               "companies": len(state.companies),
               "problems_solved": sum(sum(s.values()) for s in state.solved)}
        out.update({f"n_{k}": v for k, v in sorted(state.stats.items())})
        return out

    def card_stats(self, state) -> list:
        rows = []
        for pos, (card, band, owners) in enumerate(state.splay):
            rows.append({"card": card, "where": "splay", "position": pos, "band": band,
                         "future_shock": sum(1 for o in owners if o is not None)})
        for sphere in SPHERES:
            for slot, card in enumerate(state.market[sphere]):
                if card is not None:
                    rows.append({"card": card, "where": f"market {sphere}", "position": slot,
                                 "syndications": len(state.synd.get(card, ()))})
        return rows

    def validate_data(self) -> list:
        try:
            from .content import load_content
            load_content()
        except WorkbenchError as exc:
            return [str(exc)]
        return []

    # -- scenarios ----------------------------------------------------------------
    def observe(self, state) -> dict:
        names = state.config.players
        res = self.result(state)
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

    def scenario_state(self, setup: Mapping):
        return build_scenario(self, setup)


def ending_value(state, seat: int, w: Mapping) -> float:
    """What a finished game is worth to ``seat`` on top of its features: ``win``
    for a winner, else ``loss`` scaled by rank (last place all of it), plus
    ``margin`` per point ahead of (behind) the best rival. Solo: the margin is
    measured against the solo target."""
    pts = scoring.scores(state)
    won = seat in scoring.winners(state)
    n = state.num_players
    if n == 1:
        target = int(state.options.get("solo_target", state.content.settings["solo_target"]))
        return (w["win"] if won else w["loss"]) + w["margin"] * (pts[0] - target)
    best_rival = max(pts[s] for s in range(n) if s != seat)
    margin = pts[seat] - best_rival
    if won:
        return w["win"] + w["margin"] * margin
    # rank 1 = second place; everyone with strictly more points (or the winners) is ahead
    ahead = sum(1 for s in range(n) if s != seat and (pts[s] > pts[seat] or s in scoring.winners(state)))
    rank = max(1, ahead)
    return w["loss"] * rank / (n - 1) + w["margin"] * margin


def held_tipping_points(state, seat: int):
    """Tipping Points in the Market the player has a Syndication on."""
    for idea in state.market_ideas():
        if seat in state.synd.get(idea, ()) and state.idea(idea).kind == "tipping point":
            yield idea


def is_lowest(state, idea: str) -> bool:
    where = state.where_in_market(idea)
    if where is None:
        return False
    low = lowest_card(state, where[0])
    return low is not None and low[1] == idea


def tycoon_progress(companies: int, settings) -> float:
    """Companies on the way to the fifth (the Tycoon): grows with the square, so
    the fourth Company is worth more than the first."""
    need = int(settings["tycoon_company"])
    return (min(companies, need) ** 2) / need


def syndication_outlook(state, seat: int) -> tuple:
    """``(feasible, progress)`` of the player's Syndications: how many are feasible
    now, and how close the best one is to being commercialized (one point each for
    being feasible, for Maker labour in its sphere, and for the money: 0-3)."""
    count = best = 0
    for sphere in SPHERES:
        places = None
        for idea in state.market[sphere]:
            if idea is None or seat not in state.synd.get(idea, ()):
                continue
            ok = any(feasible(state, seat, idea, w) for w in WAYS)
            count += ok
            if places is None:
                places = labour_places(state, seat, sphere, "M")
            points = int(ok)
            if places:
                points += 1 + (1 if any(can_pay(state, seat, commercialize_cost(state, idea, k)) for k in places) else 0)
            best = max(best, points)
    return count, best


def agent_total(state, seat: int) -> int:
    """Every agent of ``seat``, wherever it is (the property tests keep this fixed)."""
    return (sum(state.fin[seat]) + state.pool[seat] + state.marker[seat]
            + sum(owners.count(seat) for owners in state.synd.values())
            + sum(owners.count(seat) for owners in state.heat.values())
            + sum(owners.count(seat) for _, _, owners in state.splay)
            + sum(state.patents[seat].values())
            + sum(owners.count(seat) for owners in state.staff.values())
            + sum(state.unemployed[s][seat] for s in SPHERES))


def build_scenario(game: PaxGame, setup: Mapping):
    """A position from a scenario ``setup`` block (documented in
    ``cards/pax_transhumanity/scenarios/README.md``)."""
    known = {"seed", "players", "options", "variants", "start", "secret", "market", "splay", "deck",
             "regime", "turn", "actions_left", "players_state", "problems", "round"}
    unknown = set(setup) - known
    if unknown:
        raise ScenarioError(f"unknown setup key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    cfg = game.config(setup.get("players", 3), seed=int(setup.get("seed", 0)),
                      variants=setup.get("variants", ()), **dict(setup.get("options") or {}))
    state = new_game(cfg, content())
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


GAME = PaxGame()
