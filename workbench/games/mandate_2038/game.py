"""The Mandate 2038 :class:`~workbench.core.game.Game`: setup, notation, scoring,
evaluation for greedy bots, scenario positions and what scenarios may observe.

Options (``GameConfig.options``):

- ``factions``: list of faction names, one per seat (default: dealt at random
  from the six, from the game's seed);
- ``jv_colocated``: Joint Ventures may also join Facilities on the same district
  (ruling jv-colocated; default false);
- ``systemic_risk_on_customer``: a Deploy to four or more Customers adds a
  Systemic Risk cube (ruling systemic-risk-entry; default true);
- ``jv_range_checked_once``: a Joint Venture's hosts need to be adjacent only when
  it is created, not while it produces (ruling jv-range-kept; default false);
- ``district_extra_any_mode``: Media's extra Scrutiny removal and Government's extra
  Trust come with either lobbying choice, not only the matching one (ruling
  influence-district-extra; default false).
"""

from __future__ import annotations

from typing import Mapping

from workbench.core.errors import NotationError, WorkbenchError, suggest
from workbench.core.game import Game, GameConfig, GameResult
from workbench.core.rng import Rng

from . import agi, audit, board, costs, final_scoring, flow, influence, mandate_scoring, milestones, notation, odds, research, world_ending
from .data import CORE_ACTIONS, load_content
from .state import MandateState, new_player

OPTIONS = ("factions", "jv_colocated", "systemic_risk_on_customer", "jv_range_checked_once",
           "district_extra_any_mode")

DEFAULT_WEIGHTS = {
    "mandate": 1.0, "capability": 0.35, "customers": 0.5, "trust": 0.45, "runway": 0.12,
    "compute": 0.15, "connected": 0.7, "offline": -0.9, "scrutiny": -0.3,
    # an Agent on the board is presence for every later Action: worth more than
    # the two Runway a Recruit costs (at 0.2 Organize was never chosen, issue 15)
    "agents": 0.9,
    # each Runway below 4 counts this much more: a player who cannot pay for a
    # Build or a Recruit gains most from Fund
    "short_runway": 0.25,
    "generator": 0.4, "projects": 0.6, "provisional": 0.35, "blocked_selection": -1.5,
    "agi_readiness": 2.0, "outlook": 1.0, "ventures": 0.6,
    # the Era's revealed Mandate card: progress toward its minimum (0-1) plus 1
    # for leading the qualifiers alone, 0.5 tied (see era_mandate_standing)
    "era_mandate": 1.5,
}


#: Mandate criteria that Training runs decide: left out of the standing, because
#: the run's own valuation (expected banked Capability, no peeking at the deck)
#: already plays for them, and counting their realised values mid-run made the
#: bots bank too early (Clean Benchmarks scored in 3 of 8 games instead of 8)
RUN_CRITERIA = frozenset({"best_run", "unique_domains", "capability_gained"})


def era_mandate_standing(state, seat: int) -> float:
    """How well ``seat`` stands on the Era's revealed Mandate card (0 for the
    Training-run criteria, see :data:`RUN_CRITERIA`): its criterion
    value's share of the card's minimum (capped at 1), plus 1 when it alone
    leads the players who reach the minimum, 0.5 when it leads tied. Compute
    produced is only recorded at Production, so before that the connected
    Facilities (which produce it) stand in for it."""
    name = state.mandate_card
    if not name:
        return 0.0
    card = state.content.mandate_by_name.get(name.lower())
    if card is None or card.criterion in RUN_CRITERIA:
        return 0.0

    def value(s: int) -> float:
        v = mandate_scoring.value(state, s, card.criterion)
        if card.criterion == "compute_produced" and not v:
            v = len(board.connected_facilities(state, s))
        return v

    values = [value(s) for s in range(state.n)]
    mine = values[seat]
    out = min(1.0, mine / card.minimum) if card.minimum > 0 else 1.0
    qualified = [v for v in values if v >= card.minimum]
    if mine >= card.minimum and mine == max(qualified):
        out += 1.0 if qualified.count(mine) == 1 else 0.5
    return out


def _unresolved_selection(state, seat: int) -> str | None:
    """The Core Action ``seat`` has selected this cycle and not yet resolved (None
    outside selection and resolution, and once its resolution has begun)."""
    if state.phase not in ("select", "act", "answer") or state.run is not None:
        return None
    action = state.selections[seat]
    if action is None or not state.players[seat].ready[CORE_ACTIONS.index(action)]:
        return None
    if state.acting is not None and state.acting[0] == seat:
        return None
    return action


_RUN_VALUE: dict = {}


def _expected_run(on_research: bool) -> int:
    """A Training run's expected banked Capability under the best stopping rule from
    a full deck (odds.py), rounded: what a bot expects of selecting Research."""
    if on_research not in _RUN_VALUE:
        comp = odds.full_deck(load_content())
        _RUN_VALUE[on_research] = round(odds.optimal_run(comp, 1 if on_research else 0)["expected"])
    return _RUN_VALUE[on_research]


class Mandate2038(Game):
    id = "mandate-2038"
    name = "Mandate 2038"
    min_players = 2
    max_players = 5
    default_players = 4
    #: the card names of the Core Actions, counted once per selection: the
    #: ``action_usage`` metric reads them (see :mod:`workbench.sim.metrics`)
    action_kinds = tuple(a.capitalize() for a in CORE_ACTIONS)
    variants = {}

    # -- setup ---------------------------------------------------------------
    def new_initial_state(self, config: GameConfig) -> MandateState:
        state = self._setup(config)
        flow.begin_era(state, 1)
        return state

    def _setup(self, config: GameConfig, factions: list[str] | None = None) -> MandateState:
        content = load_content()
        n = len(config.players)
        if not content.rules["minPlayers"] <= n <= content.rules["maxPlayers"]:
            raise WorkbenchError(f"Mandate 2038 takes 2 to 5 players, not {n}")
        if len({p.lower() for p in config.players}) != n:
            raise WorkbenchError("player names must differ")
        if any(" " in p for p in config.players):
            raise WorkbenchError("player names may not contain spaces (they appear in the notation)")
        if config.variants:
            raise WorkbenchError(f"Mandate 2038 has no variants (got {', '.join(config.variants)})")
        unknown = set(config.options) - set(OPTIONS)
        if unknown:
            bad = sorted(unknown)[0]
            raise WorkbenchError(f"unknown option {bad!r}{suggest(bad, OPTIONS)}; options: {', '.join(OPTIONS)}")
        s = MandateState()
        s.config = config
        s.options = dict(config.options)
        s.content = content
        s.rng = Rng(config.seed)
        s.tiles = board.lay_out(content, s.rng)
        s.tile_ids = board.tile_ids(s.tiles, content)
        chosen = factions or config.options.get("factions")
        if chosen:
            if len(chosen) != n:
                raise WorkbenchError(f"give one faction per player ({n}), got {len(chosen)}")
            picks = []
            for name in chosen:
                f = content.faction_by_name.get(str(name).lower())
                if f is None:
                    raise WorkbenchError(f"no faction named {name!r}{suggest(str(name), [x.name for x in content.factions])}")
                picks.append(f)
        else:
            picks = list(content.factions)
            s.rng.shuffle(picks)
            picks = picks[:n]
        r = content.rules
        s.players = []
        for f in picks:
            p = new_player(f, content.supply["agents"], content.supply["facilities"], r["startingAgents"],
                           board.FRONTIER_POS)
            p.trust_cube = milestones.starting_trust_cube(p.trust, r["trustMilestones"])
            p.cap_milestones = [t for t in r["capabilityMilestones"] if t <= p.capability]
            s.players.append(p)
        s.deck = content.training_deck()
        s.rng.shuffle(s.deck)
        s.discard = []
        s.headline_decks = []
        s.mandate_decks = []
        for era in range(1, r["eras"] + 1):
            hs = [h.name for h in content.headlines if h.era == era]
            s.rng.shuffle(hs)
            s.headline_decks.append(hs)
            ms = [m.name for m in content.mandates if m.era == era]
            s.rng.shuffle(ms)
            s.mandate_decks.append(ms)
        s.initiative = s.rng.randbelow(n)
        s.timeline, s.headline, s.mandate_card = [], None, None
        s.bag_black, s.black_supply = 0, content.shared["systemicRiskCubes"]
        s.era, s.cycle = 0, 0
        s.phase, s.decider = "select", 0
        s.selections, s.order, s.sel_index, s.act_index = [None] * n, [], 0, 0
        s.offered, s.pending, s.acting, s.run, s.pre_draw = False, None, None, None, None
        s.ventures, s.queue, s.after_queue = [], [], "select"
        s.mandate_results, s.events = [], ()
        return s

    # -- notation ------------------------------------------------------------
    def parse_action(self, state, text: str):
        return notation.parse(state, text)

    def format_action(self, state, action) -> str:
        return str(action)

    def action_cards(self, state, action) -> tuple[str, ...]:
        """The Core Action card an action selects (Training cards are drawn blind,
        so a draw names none). Resolving the selected Action does not count it
        again, so ``times_taken`` is the number of selections."""
        if getattr(action, "verb", None) == "select":
            return (action.mode.capitalize(),)
        return ()

    # -- outcome -------------------------------------------------------------
    def result(self, state) -> GameResult:
        scores = {state.player_name(s): p.mandate for s, p in enumerate(state.players)}
        turns = (state.era - 1) * state.content.rules["cyclesPerEra"] + state.cycle
        if not state.is_terminal():
            return GameResult(scores, [], "unfinished", turns, self._details(state))
        wins = [state.player_name(s) for s in final_scoring.winners(state)]
        return GameResult(scores, wins, world_ending.ending(state), turns, self._details(state))

    def _details(self, state) -> dict:
        return {
            "factions": {state.player_name(s): p.faction for s, p in enumerate(state.players)},
            "agi_recognized": [state.player_name(s) for s, p in enumerate(state.players) if p.agi],
            "collective_trust": world_ending.collective_trust(state),
            "setup_collective_trust": world_ending.setup_collective_trust(state),
            "unresolved_systemic_risk": state.bag_black,
            "continuity": "open" if world_ending.is_open(state) else "closed",
            "mandates": list(state.mandate_results),
            "timeline": list(state.timeline),
        }

    def game_stats(self, state) -> dict:
        ps = state.players
        return {
            "agi_declarations": sum(p.agi for p in ps),
            "customers_total": sum(p.customers for p in ps),
            "facilities_built": sum(sum(f is not None for f in p.facilities) for p in ps),
            "generators_built": sum(p.generator is not None for p in ps),
            "joint_ventures": len(state.ventures),
            "collective_trust": world_ending.collective_trust(state),
            "unresolved_systemic_risk": state.bag_black,
            "open_continuity": world_ending.is_open(state),
            "max_capability": max(p.capability for p in ps),
        }

    def card_stats(self, state) -> list[dict]:
        rows = [{"card": h, "kind": "headline", "era": e + 1, "revealed": h in state.timeline}
                for e, deck in enumerate(state.headline_decks) for h in deck]
        rows += [{"card": h, "kind": "headline", "revealed": True} for h in state.timeline]
        for res in state.mandate_results:
            rows.append({"card": res["card"], "kind": "mandate", "era": res["era"],
                         "scorers": len(res["scorers"])})
        return rows

    def evaluate(self, state, seat: int, weights: Mapping[str, float] | None = None) -> float:
        """Weighted features of ``seat``'s position (``DEFAULT_WEIGHTS`` names them).

        While ``seat`` has a selected Core Action still to resolve, the position is
        rated as it would stand after the best resolution of that Action (its
        *outlook*), so a one-ply greedy bot selects the Action that will do most for
        it instead of picking blind. After a Training draw the realised card is
        replaced by the draw's expected value, so the look-ahead cannot peek at the
        deck."""
        w = dict(DEFAULT_WEIGHTS)
        if weights:
            w.update(weights)
        action = _unresolved_selection(state, seat)
        if action is not None and w.get("outlook", 1.0):
            return self._outlook(state, seat, action, w)
        return self._features(state, seat, w)

    def _outlook(self, state, seat: int, action: str, w: dict) -> float:
        """The best feature value among the resolutions of ``seat``'s selected Action,
        each applied to a copy of the position (a Training run counts its expected
        banked Capability from a full deck, never the real cards)."""
        rules = flow.ACTION_RULES[action]
        index = CORE_ACTIONS.index(action)
        best, tried = None, set()
        for move in flow.resolutions(state, seat, action):
            if (move.mode, move.tile) in tried:
                continue                      # which identical Agent moves changes nothing here
            tried.add((move.mode, move.tile))
            c = state.clone()
            c._legal = None                   # edited by hand below, not through apply_action
            pos = c.tile_ids.index(move.tile)
            c.players[seat].agents[move.agent - 1] = pos
            if move.mode != "blocked":
                if action == "research":
                    c.players[seat].compute -= research.compute_cost(c, pos)
                    costs.gain(c, seat, "capability", _expected_run(c.tiles[pos] == "research"))
                elif rules.resolve(c, seat, pos, move.mode):
                    influence.accept(c)       # a proposal is rated as if the partner agreed
                    c.pending = None
            if pos == board.FRONTIER_POS:
                costs.gain(c, seat, "runway", 1)
            c.players[seat].ready[index] = False
            value = self._features(c, seat, w)
            if best is None or value > best:
                best = value
        return best if best is not None else self._features(state, seat, w)

    def _features(self, state, seat: int, w: dict) -> float:
        p = state.players[seat]
        capability, trust, bag, mandate, runway = p.capability, p.trust, p.bag, p.mandate, p.runway
        prov = 0.0
        if state.pre_draw is not None and state.pre_draw[0] == seat:
            snap = state.pre_draw
            capability, trust, bag, mandate, runway = snap[3], snap[4], snap[5], snap[6], snap[8]
            step = odds.one_draw(odds.composition_of(state.content, snap[7]), set(snap[2]), snap[1])
            prov = step["expected_prov"]
            bag += step["expected_scrutiny"]
            trust += step["p_human_eval"]
        elif state.run is not None and state.run["seat"] == seat:
            prov = state.run["prov"]
        blocked = 0
        if _unresolved_selection(state, seat) is not None:
            # a pick whose Action will have no legal effect wastes one of the Era's three turns
            blocked = flow.is_blocked(state, seat, state.selections[seat])
        connected = len(board.connected_facilities(state, seat))
        built = sum(f is not None for f in p.facilities)
        ventures = sum(1 for v in state.ventures if seat in (v["a"], v["b"]) and influence.active(state, v))
        pend = state.pending
        if pend is not None and pend["kind"] == "venture" and pend["from"] == seat:
            ventures += 0.5                   # a proposal waiting for the partner's answer
        readiness = agi.readiness(state, seat, capability, connected, trust) if w["agi_readiness"] else 0.0
        standing = era_mandate_standing(state, seat) if w["era_mandate"] else 0.0
        short = 4 - runway if runway < 4 else 0
        return (w["era_mandate"] * standing + w["short_runway"] * short + w["agi_readiness"] * readiness + w["mandate"] * mandate + w["capability"] * capability
                + w["customers"] * p.customers
                + w["trust"] * trust + w["runway"] * runway + w["compute"] * p.compute
                + w["connected"] * connected + w["offline"] * (built - connected)
                + w["scrutiny"] * bag + w["agents"] * sum(a is not None for a in p.agents)
                + w["generator"] * (p.generator is not None) + w["projects"] * len(p.projects)
                + w["provisional"] * prov + w["blocked_selection"] * blocked + w["ventures"] * ventures)

    # -- scenarios -------------------------------------------------------------
    def scenario_state(self, setup: Mapping):
        from .scenario_setup import build
        return build(self, setup)

    def scenario_step(self, state, step: Mapping) -> bool:
        from .scenario_setup import step as do_step
        return do_step(self, state, step)

    def observe(self, state) -> dict:
        from .scenario_setup import observe
        return observe(self, state)

    def rules_context(self, lang: str) -> dict:
        """The ``game``, ``facts`` and ``content`` namespaces of the rulebook
        placeholders, straight from ``game.yaml`` (the engine reads the same values).
        District names in the district table follow the language's terms."""
        from workbench.rules.placeholders import load_terms
        import copy
        raw = copy.deepcopy(load_content().raw)
        locations = (load_terms(self.id, lang) or {}).get("locations") or {}
        for row in raw["content"]["gameConfig"]["board"]["tiles"]:
            term = locations.get(row["key"])
            if isinstance(term, dict):
                term = term.get("text")
            if term:
                row["name"] = term
        return {"game": raw.get("game", {}), "facts": raw.get("facts", {}), "content": raw["content"]}

    def validate_data(self) -> list[str]:
        from . import checks
        problems = []
        try:
            load_content()
        except WorkbenchError as exc:
            return [str(exc)]
        for fn in (checks.factions_start_consistent,):
            problems.extend(fn() or [])
        return problems
