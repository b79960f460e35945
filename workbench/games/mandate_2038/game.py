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

from workbench.core.errors import WorkbenchError, suggest
from workbench.core.game import Game, GameConfig, GameResult, Option, part
from workbench.core.rng import Rng

from . import board, build, evaluation, final_scoring, flow, milestones, notation, world_ending
from .build import PROJECT_NAMES
from .data import CORE_ACTIONS, POOL, Content, factions_start_consistent, load_content
from .evaluation import DEFAULT_WEIGHTS
from .move_help import MOVE_HELP
from .state import MandateState, new_player

# The state hands legal_actions and apply_action to the flow; the game layer,
# which sits above both, wires them (the state never imports the rules).
MandateState.engine = flow

OPTION_SPECS = {
    "factions": Option(None, list, "faction names, one per seat (default: dealt at random from the seed)"),
    "jv_colocated": Option(False, bool, "Joint Ventures may also join Facilities on the same district "
                                        "(ruling jv-colocated)"),
    "systemic_risk_on_customer": Option(True, bool, "a Deploy to four or more Customers adds a Systemic Risk "
                                                    "cube (ruling systemic-risk-entry)"),
    "jv_range_checked_once": Option(False, bool, "a Joint Venture's hosts need to be adjacent only when it is "
                                                 "created (ruling jv-range-kept)"),
    "district_extra_any_mode": Option(False, bool, "Media's extra Scrutiny removal and Government's extra Trust "
                                                   "come with either lobbying choice (ruling "
                                                   "influence-district-extra)"),
}
OPTIONS = tuple(OPTION_SPECS)


def _agi_short_of_compute(state: MandateState) -> int:
    """How many institutions end the game unrecognized while meeting every AGI
    threshold but the Compute cost: the seats a Compute cost keeps from
    declaring (a design metric read from the final position, so an Audit after
    the AGI step that lowers Trust or Capability takes a seat out again; a statistic,
    not a rule)."""
    t = state.content.agi
    return sum(1 for s, p in enumerate(state.players)
               if not p.agi and p.compute < t["computeCost"] and p.capability >= t["capability"]
               and p.trust >= t["trust"]
               and len(board.connected_facilities(state, s)) >= t["poweredFacilities"])


class Mandate2038(Game):
    id = "mandate-2038"
    name = "Mandate 2038"
    min_players = 2
    max_players = 5
    default_players = 4
    #: the card names of the Core Actions, counted once per selection: the
    #: ``action_usage`` metric reads them (see :mod:`workbench.sim.metrics`)
    action_kinds = tuple(a.capitalize() for a in CORE_ACTIONS)
    #: each seat plays a faction (dealt from the seed, or the ``factions`` option)
    role_label = "faction"
    variants = {}
    options = OPTION_SPECS
    # observed values named by a term of terms/<lang>.yaml (their icon on every page)
    observation_terms = {"runway": "resources.runway", "compute": "resources.compute",
                         "capability": "playerTracks.capability", "customers": "playerTracks.customers",
                         "trust": "playerTracks.trust", "mandate": "playerTracks.mandate",
                         "scrutiny": "playerTracks.scrutiny", "headline": "systems.headline"}
    default_weights = DEFAULT_WEIGHTS
    #: face-down Core Action picks, unrevealed Mandates, deck orders (:mod:`.hidden`)
    hidden_information = True
    #: every seat picks its Core Action face down, the picks revealed together
    simultaneity = "simultaneous"

    # -- verdicts (issue 25): what a paired comparison leads with ---------------
    # four Eras always, so the length in rounds never moves: the spread of the
    # Mandate scores, the fairness by faction, what gets built and declared, and
    # who met every AGI threshold but the Compute (a Compute cost's own signal:
    # a dearer AGI moves declarations by well under a tenth a game)
    leading_metrics = ("score_spread", "role_gap", "stat:facilities_built", "stat:generators_built",
                       "stat:agi_declarations", "stat:agi_short_of_compute", "decided_by_score",
                       "duration_actions")
    # our drafts: a point of Mandate spread, three points of a faction's win
    # rate, a tenth of a building or declaration per game, five actions
    equivalence_margins = {"score_spread": 1.0, "role_gap": 0.03, "stat:facilities_built": 0.1,
                           "stat:generators_built": 0.1, "stat:agi_declarations": 0.1,
                           "stat:agi_short_of_compute": 0.1,
                           "decided_by_score": 0.03, "duration_actions": 5.0}
    metric_goals = {"role_gap": -1, "decided_by_score": 1}
    # what a project gives comes at the Era's Production, after the last of its
    # three cycles: three cycles after the take always hold the next one
    taker_horizon = 3
    card_pool_type = Content
    pool_spec = POOL

    # -- what the game offers the pages and commands (core/game.py, issue 26) --
    listing_order = 1
    card_graph = part(".card_graph")
    table_drawer = part(".tabletop", "draw_mandate")
    view_drawer = part(".tabletop", "mandate_view")
    #: one line per move kind beside a seat page's buttons (:mod:`.move_help`)
    move_help = MOVE_HELP
    ending_words = {
        "The Singularity": "An institution paid for recognized AGI, and continuity stayed Open "
                           "(the players' Trust grew enough and few black Systemic Risk cubes are in the bag).",
        "The Closed Loop": "An institution paid for recognized AGI, but continuity closed "
                           "(too little Trust grown, or too many black Systemic Risk cubes).",
        "The Plural Future": "Nobody's AGI was recognized, and continuity stayed Open.",
        "Assured Continuity": "Nobody's AGI was recognized, and continuity closed.",
    }
    board = part(".board_view")
    print_cards = part(".print_cards")
    rulebook_languages = ("en", "hu")
    # what the translation review counts as a time (an Era lasts several rounds; a
    # cycle repeats inside one): the generic lexicons know no game's periods
    rules_words = {"time.span": {"en": ("Era",), "hu": ("Korszak",)},
                   "time.repeat": {"en": ("cycle",), "hu": ("ciklus", "akcióciklus")}}
    balance = {
        "targets": ("action_usage_min>=0.05 @players=4", "faction_gap<=0.1 @players=4"),
        "vary": ("tiles.*.runway=0..3", "tiles.*.compute=0..3"),
        "trials": 8, "games_per_trial": 8, "fresh_games": 16}
    bench_edit = "tiles.*.runway"            # a tile's Runway production
    # the draft decks a designer grows: a new Headline or Era Mandate (its file is
    # provenance: draft as a whole). `workbench check` then reports the counts per
    # Era the contract wants; tiles, Generators, factions, projects and Training
    # follow the source's counts and are edited, not added.
    card_blanks = {
        "headline": {"name": "New Headline", "era": 1, "text": "Every institution gains 1 Runway.",
                     "effects": [{"who": "all", "gain": {"runway": 1}}]},
        "mandate": {"name": "New Mandate", "era": 1, "criterion": "customers", "minimum": 1,
                    "text": "Most Customers (at least 1)."}}

    # -- setup ---------------------------------------------------------------
    def new_initial_state(self, config: GameConfig) -> MandateState:
        state = self._setup(config)
        flow.begin_era(state, 1)
        return state

    def _setup(self, config: GameConfig, factions: list[str] | None = None) -> MandateState:
        content = self.cards()
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
            if isinstance(chosen, str):
                chosen = [chosen]
            if len(chosen) != n:
                raise WorkbenchError(f"give one faction per player ({n}), got {len(chosen)}")
            if isinstance(chosen, str):
                chosen = [chosen]
            lowered = [str(x).lower() for x in chosen]
            dup = next((x for i, x in enumerate(chosen) if str(x).lower() in lowered[:i]), None)
            if dup is not None:
                raise WorkbenchError(f"faction {dup!r} is given twice; each player plays a different faction")
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
    def parse_action(self, state: MandateState, text: str):
        return notation.parse(state, text)

    def format_action(self, state: MandateState, action) -> str:
        return str(action)

    def public_move(self, before, action, after) -> str:
        """What the table saw of a move: :mod:`.public`."""
        from .public import public_move
        return public_move(self, before, action, after)

    def observation(self, state: MandateState, seat: int) -> dict:
        """What ``seat`` may know of ``state``: :func:`.hidden.observation`."""
        from .hidden import observation
        return observation(self, state, seat)

    def determinize(self, state: MandateState, seat: int, rng: Rng) -> MandateState:
        """A copy of ``state`` with what ``seat`` cannot see re-drawn (deck orders,
        unrevealed Mandates, rivals' face-down picks, the random stream):
        :mod:`.hidden`."""
        from .hidden import determinize
        return determinize(state, seat, rng)

    def card_names(self) -> frozenset[str]:
        # the Core Actions, and the bundled projects (a Build that attaches one takes it)
        return frozenset(verb.capitalize() for verb in CORE_ACTIONS) | frozenset(PROJECT_NAMES)

    def weight_names(self) -> frozenset[str]:
        return frozenset(DEFAULT_WEIGHTS)

    def action_cards(self, state: MandateState, action) -> tuple[str, ...]:
        """The Core Action card an action selects (Training cards are drawn blind,
        so a draw names none), or the project a Build attaches. Resolving the
        selected Action does not count it again, so a Core Action's
        ``times_taken`` is the number of selections."""
        verb = getattr(action, "verb", None)
        if verb == "select":
            return (action.mode.capitalize(),)
        if verb == "build":
            # a Build that attaches a personal project takes that project's chip
            # (named as its card is: an edit of its yield is an edit of a card)
            pid = build.project_of(action.mode)
            if pid is not None and pid in state.content.projects:
                return (state.content.projects[pid].name,)
        return ()

    # -- outcome -------------------------------------------------------------
    def result(self, state: MandateState) -> GameResult:
        scores = {state.player_name(s): p.mandate for s, p in enumerate(state.players)}
        turns = (state.era - 1) * state.content.rules["cyclesPerEra"] + state.cycle
        if not state.is_terminal():
            return GameResult(scores, [], "unfinished", turns, self._details(state))
        wins = [state.player_name(s) for s in final_scoring.winners(state)]
        return GameResult(scores, wins, world_ending.ending(state), turns, self._details(state))

    def _details(self, state: MandateState) -> dict:
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

    def player_role(self, state: MandateState, seat: int) -> str:
        """The faction ``seat`` plays (set up once; factions never change hands)."""
        return state.players[seat].faction

    def game_stats(self, state: MandateState) -> dict:
        ps = state.players
        return {
            "agi_declarations": sum(p.agi for p in ps),
            "agi_short_of_compute": _agi_short_of_compute(state),
            "customers_total": sum(p.customers for p in ps),
            "facilities_built": sum(sum(f is not None for f in p.facilities) for p in ps),
            "generators_built": sum(p.generator is not None for p in ps),
            "joint_ventures": len(state.ventures),
            "collective_trust": world_ending.collective_trust(state),
            "unresolved_systemic_risk": state.bag_black,
            "open_continuity": world_ending.is_open(state),
            "max_capability": max(p.capability for p in ps),
        }

    def card_stats(self, state: MandateState) -> list[dict]:
        rows = [{"card": h, "kind": "headline", "era": e + 1, "revealed": h in state.timeline}
                for e, deck in enumerate(state.headline_decks) for h in deck]
        rows += [{"card": h, "kind": "headline", "revealed": True} for h in state.timeline]
        for res in state.mandate_results:
            rows.append({"card": res["card"], "kind": "mandate", "era": res["era"],
                         "scorers": len(res["scorers"])})
        return rows

    def action_values(self, state: MandateState, seat: int, actions, weights: Mapping[str, float] | None = None) -> list[float]:
        """:meth:`Game.action_values`, with one look-ahead for all exchange offers:
        an offer changes nothing :meth:`evaluate` reads until it is answered (the
        positions differ only in the pending trade and who answers it, and the
        evaluation reads a pending proposal only when it is a Joint Venture), so
        every offer is worth what the first one is. Offers were about half of a
        greedy game's outlooks. Resolutions that only change the acting player
        are rated without playing them out (:func:`.evaluation.resolution_values`).
        ``tests/test_engine_fast_paths.py`` checks the result equals one full
        look-ahead per action for every seat."""
        if state.phase == MandateState.SELECT:
            return self._selection_values(state, seat, actions, weights)
        out = []
        offer_value = None
        direct = evaluation.resolution_values(state, seat, actions, weights)
        for action, value in zip(actions, direct):
            if value is not None:
                out.append(value)
                continue
            offer = getattr(action, "verb", None) == "offer"
            if offer and offer_value is not None:
                out.append(offer_value)
                continue
            nxt = state.clone()
            nxt.apply_action(action)
            value = self.evaluate(nxt, seat, weights)
            if offer:
                offer_value = value
            out.append(value)
        return out

    def _selection_values(self, state: MandateState, seat: int, actions, weights) -> list[float]:
        """:meth:`action_values` of the picks of a Core Action: each pick is
        played by the flow on a copy that shares everything with ``state`` but the
        picks (a pick changes only the flow's own fields, the picks list in place
        and the event log, a tuple, by replacement; the rating never changes the
        position it rates), not on a full clone: the clones of the players were
        most of what a pick cost before its outlook (issue 47)."""
        out = []
        for action in actions:
            c = state.shallow_copy()
            c.selections = list(state.selections)
            flow.apply(c, action)
            out.append(self.evaluate(c, seat, weights))
        return out

    def evaluate(self, state: MandateState, seat: int, weights: Mapping[str, float] | None = None) -> float:
        """Weighted features of ``seat``'s position (see :mod:`.evaluation`)."""
        return evaluation.evaluate(state, seat, weights)

    # -- scenarios -------------------------------------------------------------
    def scenario_state(self, setup: Mapping):
        from .scenario import build
        return build(self, setup)

    def scenario_step(self, state: MandateState, step: Mapping) -> bool:
        from .scenario import step as do_step
        return do_step(self, state, step)

    def observe(self, state: MandateState) -> dict:
        from .scenario import observe
        return observe(self, state)

    def rules_context(self, lang: str) -> dict:
        """The ``game``, ``facts`` and ``content`` namespaces of the rulebook
        placeholders, straight from ``game.yaml`` (the engine reads the same values).
        District names in the district table follow the language's terms."""
        from workbench.rules.placeholders import load_terms
        import copy
        raw = copy.deepcopy(self.cards().raw)
        locations = (load_terms(self.id, lang) or {}).get("locations") or {}
        for row in raw["content"]["gameConfig"]["board"]["tiles"]:
            term = locations.get(row["key"])
            if isinstance(term, dict):
                term = term.get("text")
            if term:
                row["name"] = term
        return {"game": raw.get("game", {}), "facts": raw.get("facts", {}), "content": raw["content"]}

    def drawing(self, state: MandateState):
        """The hex board with districts, Facilities, Generators and Agents."""
        from .drawing import board_figure
        return board_figure(state)

    def validate_data(self) -> list[str]:
        problems = []
        try:
            load_content()
        except WorkbenchError as exc:
            return [str(exc)]
        for fn in (factions_start_consistent,):
            problems.extend(fn() or [])
        return problems


GAME = Mandate2038()
