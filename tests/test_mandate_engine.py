"""Mandate 2038 engine: whole games, determinism, refusals, notation, data errors."""

from __future__ import annotations

import json

import pytest
import yaml

from workbench.cli import main
from workbench.core.bots import make_bots
from workbench.core.errors import DataError, IllegalAction, NotationError
from workbench.core.play import play_game
from workbench.games.mandate_2038 import GAME, board
from workbench.games.mandate_2038.data import load_content
from workbench.games.mandate_2038.world_ending import TABLE

STANDARD_TILES = ["research", "cloud", "chip", "capital", "talent", "grid", "research", "research", "cloud",
                  "cloud", "consumer", "consumer", "media", "media", "government", "government", "renewable",
                  "renewable"]


def test_play_json_names_winner_and_world_ending(capsys):
    assert main(["play", "mandate-2038", "--players", "4", "--seed", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "mandate-2038" and doc["turns"] == 12
    assert len(doc["players"]) == 4 and doc["winners"]
    assert set(doc["winners"]) <= {p["name"] for p in doc["players"]}
    assert doc["ending"] in TABLE.values()
    assert doc["log"][0].startswith("select ")
    best = max(p["score"] for p in doc["players"])
    assert all(p["score"] == best for p in doc["players"] if p["name"] in doc["winners"])


def test_same_seed_same_game_and_mixed_bots():
    cfg = GAME.config(3, seed=11)
    a = play_game(GAME, cfg, make_bots("greedy,random", 3))[1]
    b = play_game(GAME, cfg, make_bots("greedy,random", 3))[1]
    assert a == b
    c = play_game(GAME, GAME.config(3, seed=12), make_bots("greedy,random", 3))[1]
    assert a != c


@pytest.mark.parametrize("players", [2, 5])
def test_player_counts_play_to_the_end(players):
    state, log = play_game(GAME, GAME.config(players, seed=3), make_bots("random", players))
    assert state.is_terminal()
    res = GAME.result(state)
    assert res.turns == 12 and res.ending in TABLE.values()
    assert len(state.timeline) == 12


def test_player_count_out_of_range():
    with pytest.raises(Exception, match="2 to 5 players"):
        GAME.new_initial_state(GAME.config(6))


def _scenario(**setup):
    base = {"players": ["Alex", "Brooke"], "factions": {"Alex": "Northwind Systems", "Brooke": "Halden Capital Trust"},
            "tiles": STANDARD_TILES, "initiative": "Alex"}
    base.update(setup)
    return GAME.scenario_state(base)


def test_illegal_action_changes_nothing_and_says_why():
    s = _scenario(start="act", selections={"Alex": "deploy", "Brooke": "fund"},
                  players_state={"Alex": {"capability": 1, "compute": 2}})
    before = GAME.observe(s)
    with pytest.raises(IllegalAction, match="Deploy|deploy"):
        s.apply_action(GAME.parse_action(s, "deploy with agent 1 at Grid"))
    with pytest.raises(IllegalAction, match="selected deploy"):
        s.apply_action(GAME.parse_action(s, "fund conservative with agent 1 at Grid"))
    with pytest.raises(IllegalAction, match="no Agent 3"):
        s.apply_action(GAME.parse_action(s, "deploy blocked with agent 3 at Grid"))
    assert GAME.observe(s) == before


def test_notation_round_trips_and_suggests():
    state, _ = play_game(GAME, GAME.config(3, seed=5), make_bots("random", 3), max_actions=60)
    for action in state.legal_actions():
        assert GAME.parse_action(state, str(action)) == action
        assert GAME.parse_action(state, str(action).upper()) == action
    with pytest.raises(NotationError, match="did you mean"):
        GAME.parse_action(state, "fund conservative with agent 1 at Captial")
    with pytest.raises(NotationError, match="with agent"):
        GAME.parse_action(state, "fund conservative")
    with pytest.raises(NotationError, match="did you mean 'research'"):
        GAME.parse_action(state, "select reserch")


def test_selection_stays_hidden_until_everyone_chose():
    s = _scenario(headline="none")
    first = s.player_name(s.decider)
    s.apply_action(GAME.parse_action(s, "select fund"))
    assert GAME.observe(s)["players"][first]["selected"] == "hidden"


def test_clone_is_independent():
    s = GAME.new_initial_state(GAME.config(4, seed=2))
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert GAME.observe(s) != GAME.observe(c)
    assert s.players[0].ready == [True] * 6


def test_state_fields_are_listed_once_for_copy_and_pickle():
    """``STATE_FIELDS`` (pickling, ``fields``) names every field a position is
    made of: the fields ``MandateState`` declares (the compiled build's fixed
    fields), in that order, less its own caches; the compiled build's shallow copy
    (``_shallow_copy_by_field``, on which every clone is built) shares each of them, and the game's
    setup (``_setup``) sets each. A field added to one and not the others
    would be silently dropped by a copy or a save."""
    import ast
    import pickle
    from pathlib import Path

    import workbench.games.mandate_2038 as package
    from workbench.games.mandate_2038 import state as module

    folder = Path(package.__file__).parent  # the source: the compiled module carries none
    tree = ast.parse((folder / "state.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MandateState")
    declared = [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
                and n.value is None]
    caches = [name for name in declared if name.startswith("_")]
    assert tuple(name for name in declared if name not in caches) == module.STATE_FIELDS

    def assigned(tree, func_name: str, target: str) -> list[str]:
        func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == func_name)
        names = []
        for node in ast.walk(func):
            for t in node.targets if isinstance(node, ast.Assign) else []:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id == target:
                        names.append(el.attr)
        return names

    # (the interpreted build replaces the attribute dict in one go)
    assert sorted(assigned(tree, "_shallow_copy_by_field", "c")) == sorted(module.STATE_FIELDS)
    assert sorted(assigned(tree, "__init__", "self")) == sorted(caches)
    game_tree = ast.parse((folder / "game.py").read_text(encoding="utf-8"))
    assert set(assigned(game_tree, "_setup", "s")) == set(module.STATE_FIELDS)

    # and on whichever build runs: a pickled, a shallow-copied and a cloned position keep every field
    s = GAME.new_initial_state(GAME.config(3, seed=4))
    for _ in range(40):
        s.apply_action(s.legal_actions()[0])
    assert list(module.fields(s)) == list(module.STATE_FIELDS)
    for copy in (pickle.loads(pickle.dumps(s)), s.shallow_copy(), s.clone(), module._shallow_copy_by_field(s)):
        assert list(module.fields(copy)) == list(module.STATE_FIELDS)
        assert GAME.observe(copy) == GAME.observe(s) and copy.events == s.events
        assert copy.legal_actions() == s.legal_actions()
    # the compiled build's copy (left out of the mutation score: the interpreted build never
    # runs it) shares every field as shallow_copy() does
    by_field, shallow = module._shallow_copy_by_field(s), s.shallow_copy()
    assert all(getattr(by_field, f) is getattr(s, f) for f in module.STATE_FIELDS)
    assert all(getattr(shallow, f) is getattr(s, f) for f in module.STATE_FIELDS)


def test_board_layout_rings_and_adjacency():
    content = load_content()
    for seed in range(5):
        s = GAME.new_initial_state(GAME.config(4, seed=seed))
        assert s.tiles[0] == "frontier"
        assert sorted(s.tiles[1:7]) == sorted(content.pools["operational"])
        assert sorted(s.tiles[7:]) == sorted(content.pools["public"])
        g = board.graph(s)
        assert g.number_of_nodes() == 19 and g.number_of_edges() == 42
        assert sorted(g.neighbors(0)) == board.INNER


def test_control_ties_and_frontier():
    s = _scenario(start="act", selections={"Alex": "fund", "Brooke": "fund"},
                  players_state={"Alex": {"agents": ["Grid", "Frontier"], "facilities": ["Grid"]},
                                 "Brooke": {"agents": ["Grid", "Grid"]}})
    grid = s.tile_ids.index("Grid")
    assert board.controller(s, grid) is None            # 2 v 2 is a tie
    assert board.controller(s, board.FRONTIER_POS) is None
    s.players[1].agents[1] = s.tile_ids.index("Talent")
    assert board.controller(s, grid) == 0


def test_board_command_json(capsys):
    assert main(["board", "mandate-2038", "--seed", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["tiles"]) == 19 and doc["edges"] == 42
    rings = [t["ring"] for t in doc["tiles"]]
    assert rings.count(0) == 1 and rings.count(1) == 6 and rings.count(2) == 12
    assert all(t["control"] is None for t in doc["tiles"])
    centre = next(t for t in doc["tiles"] if t["ring"] == 0)
    assert len(doc["adjacency"][centre["id"]]) == 6


def test_broken_data_names_file_card_field(cards_copy):
    path = cards_copy / "mandate_2038" / "factions.yaml"
    data = yaml.safe_load(path.read_text())
    data["factions"][2]["start"]["trust"] = 9
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(DataError) as err:
        load_content()
    msg = str(err.value)
    assert "factions.yaml" in msg and "Halden Capital Trust" in msg and "start.trust" in msg


def test_checks_fail_on_broken_contract(cards_copy):
    from workbench.games.mandate_2038 import checks
    path = cards_copy / "mandate_2038" / "game.yaml"
    text = path.read_text().replace("auditTable: {2: [1, 2, 2, 3]", "auditTable: {2: [1, 2, 3, 3]")
    path.write_text(text)
    assert checks.audit_table_matches_formula()
    assert not checks.deck_contracts_add_up()


def test_validate_data_flags_starting_mandate(cards_copy):
    path = cards_copy / "mandate_2038" / "factions.yaml"
    data = yaml.safe_load(path.read_text())
    data["factions"][4]["start"]["mandate"] = 0      # Lumen starts at Trust 3: one milestone already scored
    path.write_text(yaml.safe_dump(data))
    problems = GAME.validate_data()
    assert problems and "Lumen Civic Lab" in problems[0]


def test_greedy_cannot_peek_at_the_training_deck():
    """After a draw the evaluation uses the draw's expectation, not the card drawn."""
    values = []
    for deck in (["Code", "Science"], ["Code", "Code"]):
        s = _scenario(start="act", selections={"Alex": "research", "Brooke": "fund"}, deck=deck,
                      players_state={"Alex": {"compute": 2}})
        s.apply_action(GAME.parse_action(s, "research with agent 1 at Frontier"))
        s.apply_action(GAME.parse_action(s, "draw"))
        values.append(GAME.evaluate(s, 0))
    assert values[0] == pytest.approx(values[1])


def test_statistics_hooks():
    state, log = play_game(GAME, GAME.config(4, seed=9), make_bots("random", 4))
    stats = GAME.game_stats(state)
    assert {"customers_total", "agi_declarations", "open_continuity"} <= set(stats)
    rows = GAME.card_stats(state)
    assert sum(1 for r in rows if r["kind"] == "mandate") == 4
    assert GAME.action_cards(state, GAME.parse_action(state, "select fund")) == ("Fund",)


def test_cost_change_order():
    from workbench.games.mandate_2038.costs import modified_cost
    assert modified_cost(2, discounts=1) == 1
    assert modified_cost(2, discounts=5) == 0                      # never below zero
    assert modified_cost(2, waived=True, surcharges=1) == 1        # waiver first, then the surcharge
    assert modified_cost(2, replacement=4, surcharges=1, discounts=2) == 3


def test_training_deck_reshuffles_the_discard_when_it_runs_out():
    s = _scenario(start="act", selections={"Alex": "research", "Brooke": "fund"},
                  players_state={"Alex": {"compute": 2}})
    s.discard = s.deck[:-1]
    s.deck = ["Code"]
    s.apply_action(GAME.parse_action(s, "research with agent 1 at Frontier"))
    assert s.run["revealed"] == ["Code"]
    assert len(s.deck) == 39 and s.discard == []                  # the discard became the deck at once
    s.apply_action(GAME.parse_action(s, "bank"))
    assert s.discard == ["Code"] and len(s.deck) + len(s.discard) == 40


def test_agents_on_one_district_are_listed_once_but_any_is_accepted():
    s = _scenario(start="act", selections={"Alex": "fund", "Brooke": "fund"})
    listed = {a.agent for a in s.legal_actions() if a.verb == "fund"}
    assert listed == {1}                                           # both Agents start on Frontier
    s.apply_action(GAME.parse_action(s, "fund conservative with agent 2 at Capital"))
    assert GAME.observe(s)["players"]["Alex"]["agents"] == ["Capital", "Frontier"]


def test_headline_effect_needs_a_measure(cards_copy):
    path = cards_copy / "mandate_2038" / "headlines.yaml"
    data = yaml.safe_load(path.read_text())
    del data["cards"][1]["effects"][0]["measure"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(DataError, match="headlines.yaml.*Open Dataset Release.*needs a measure"):
        load_content()


def test_greedy_rates_a_selection_by_its_best_resolution():
    """A one-ply bot sees what its selected Action will do: with a Customer in reach,
    selecting Deploy rates above Fund; with outlook switched off both look alike."""
    s = _scenario(start="select", headline="none", initiative="Alex",
                  players_state={"Alex": {"capability": 2, "compute": 1, "runway": 0}})
    rated = {}
    for weights in (None, {"outlook": 0}):
        for action in ("deploy", "fund"):
            c = s.clone()
            c.apply_action(GAME.parse_action(c, f"select {action}"))
            rated[(action, bool(weights))] = GAME.evaluate(c, 0, weights)
    assert rated[("deploy", False)] > rated[("fund", False)] + 1.5
    assert rated[("deploy", True)] == pytest.approx(rated[("fund", True)])


def test_outlook_never_reads_the_training_deck():
    """Selecting Research is rated with the exact expectation of a run, whatever lies on top."""
    values = []
    for deck in (["Code", "Science", "Web"], ["Code", "Code", "Code"]):
        s = _scenario(start="select", headline="none", initiative="Alex", deck=deck,
                      players_state={"Alex": {"compute": 2}})
        s.apply_action(GAME.parse_action(s, "select research"))
        values.append(GAME.evaluate(s, 0))
    assert values[0] == pytest.approx(values[1])


def test_era_mandate_standing_counts_progress_and_the_lead_not_training_runs():
    """The greedy evaluation's view of the Era's Mandate card (issue 15)."""
    from workbench.games.mandate_2038.evaluation import era_mandate_standing
    state = GAME.new_initial_state(GAME.config(4, seed=1))
    state.mandate_card = "Public Confidence"       # Highest Trust, at least 4
    for p, trust in zip(state.players, (2, 4, 5, 5)):
        p.trust = trust
    assert era_mandate_standing(state, 0) == pytest.approx(0.5)        # half way to the minimum
    assert era_mandate_standing(state, 1) == pytest.approx(1.0)        # qualifies, not leading
    assert era_mandate_standing(state, 2) == pytest.approx(1.5)        # leads, tied
    state.players[3].trust = 3
    assert era_mandate_standing(state, 2) == pytest.approx(2.0)        # leads alone
    state.mandate_card = "Clean Benchmarks"        # a Training-run criterion: left to the run
    assert era_mandate_standing(state, 2) == 0.0


def _player_slots(state):
    from workbench.games.mandate_2038.state import PLAYER_FIELDS
    return [repr([getattr(p, n) for n in PLAYER_FIELDS]) for p in state.players]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_outlook_copies_only_the_mover_and_rates_as_a_full_clone_would(monkeypatch, players):
    """The outlook rates each candidate on a copy that shares the other players
    (evaluation._scratch) and rates one district per kind where the Action and
    the evaluation read only the kind, and candidates with one key
    (evaluation.candidate_key) once: the position looked at is left untouched,
    and every rating equals the one made on full clones of every candidate, with
    every Era Mandate card."""
    from workbench.core.rng import Rng
    from workbench.games.mandate_2038 import evaluation

    def full_clone(state, seat):
        c = state.clone()
        c._legal = None
        return c

    checked, cards = 0, set()
    for seed in range(3):
        state = GAME.new_initial_state(GAME.config(players, seed=20 + seed))
        bots, rng = make_bots("greedy,random", players), Rng(seed)
        while not state.is_terminal():
            for seat in range(players):
                action = evaluation._unresolved_selection(state, seat)
                if action is None:
                    continue
                before = (_player_slots(state), repr(state.ventures), state.pending, state.events)
                w = dict(evaluation.DEFAULT_WEIGHTS)
                fast = evaluation._outlook(state, seat, action, w)
                assert (_player_slots(state), repr(state.ventures), state.pending, state.events) == before
                with monkeypatch.context() as m:
                    # full clones, and every district tried (no sharing by district kind)
                    m.setattr(evaluation, "_scratch", full_clone)
                    m.setattr(evaluation, "_alike_by_kind", lambda *args: None)
                    m.setattr(evaluation, "candidate_key", lambda *args: None)     # every candidate rated
                    assert evaluation._outlook(state, seat, action, w) == fast
                checked += 1
                cards.add(state.mandate_card)
            state.apply_action(bots[state.current_player()].choose(GAME, state, rng))
    assert checked > 100 and len(cards) >= 4
    from workbench.games.mandate_2038.mandate_scoring import CONTROL_CRITERIA
    assert any(GAME.cards().mandate_by_name[c.lower()].criterion in CONTROL_CRITERIA for c in cards)


def test_control_map_agrees_with_controller_district_by_district():
    """One pass over the pieces gives what presence counting gives on every district."""
    from workbench.core.rng import Rng
    for players in (2, 5):
        state = GAME.new_initial_state(GAME.config(players, seed=3))
        rng = Rng(9)
        seen = 0
        while not state.is_terminal():
            control = board.control_map(state)
            assert control == [board.controller(state, pos) for pos in range(len(board.COORDS))]
            seen += sum(c is not None for c in control)
            state.apply_action(state.sample_legal_action(rng)[0])
        assert seen > 50


def test_effect_tables_ask_the_rules_as_district_by_district_would():
    """flow.effect_table (once per district kind, Facility parts only where the
    seat has a Facility, Build's shared plan) equals each Action's ``effects``
    asked on every district, for every seat and Action, along random games."""
    from workbench.core.rng import Rng
    from workbench.games.mandate_2038 import flow
    from workbench.games.mandate_2038.actions import ACTION_RULES
    checked = nonempty = 0
    for players, seed, options in ((2, 1, {}), (4, 2, {"jv_colocated": True}), (5, 3, {})):
        state = GAME.new_initial_state(GAME.config(players, seed=seed, **options))
        rng = Rng(seed)
        while not state.is_terminal():
            if state.phase in ("select", "act"):
                for seat in range(players):
                    for verb, rules in ACTION_RULES.items():
                        table = flow.effect_table(rules, state, seat)
                        assert table == [rules.effects(state, seat, pos) for pos in range(len(state.tiles))], verb
                        nonempty += sum(bool(m) for m in table)
                        checked += 1
            state.apply_action(state.sample_legal_action(rng)[0])
    assert checked > 1000 and nonempty > 5000


def test_kind_classes_answer_for_the_board_asked_about():
    """tables.kind_classes keeps only the last board's classes per set of kinds
    read: boards asked about in turn (games interleaved, a board edited in place)
    each get their own classes, the first district of each class in board order."""
    from workbench.games.mandate_2038 import fund, tables
    boards = [GAME.new_initial_state(GAME.config(3, seed=seed)).tiles for seed in (1, 2, 3)]
    edited = list(boards[0])
    edited[1], edited[-1] = edited[-1], edited[1]
    boards.append(edited)
    assert len({tuple(b) for b in boards}) == len(boards)
    for _ in range(2):
        for tiles in boards + boards[::-1]:
            for read in (None, fund.KINDS_READ, frozenset({"cloud", "research"})):
                firsts, classes = tables.kind_classes(tiles, read)
                key = [k if read is None or k in read else "" for k in tiles]
                assert firsts == sorted({key.index(k) for k in key})
                assert [key[firsts[c]] for c in classes] == key


def test_a_drawn_move_skips_only_its_own_positions_check():
    """apply_action trusts a move only when it is the very object just drawn from
    this position's listing: a clone, a hand edit (forget_listing) or another
    move are checked as always, and a refused move changes nothing."""
    from workbench.core.rng import Rng
    from workbench.games.mandate_2038.notation import Move
    state = GAME.new_initial_state(GAME.config(3, seed=5))
    rng = Rng(1)
    while state.phase != "act":
        state.apply_action(state.sample_legal_action(rng)[0])
    move, _ = state.sample_legal_action(rng)
    twin = state.clone()
    twin.apply_action(move)                       # legal there too: checked, accepted
    before = repr(_player_slots(state))
    with pytest.raises(IllegalAction):
        state.apply_action(Move("select", "fund"))  # another move: checked, refused
    state.forget_listing()
    with pytest.raises(IllegalAction):
        state.apply_action(Move(move.verb, move.mode, move.agent, "Nowhere"))
    assert repr(_player_slots(state)) == before
    state.apply_action(move)
    assert repr(_player_slots(state)) == repr(_player_slots(twin))
