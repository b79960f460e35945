"""The dashboard's page models, driven without a browser.

The Play model is tested over the toy game (Pebble Race) so that it checks
the dashboard's own behaviour, not a bundled game's rules; the pages built over
bundled engines and modules are tested where those exist."""

from __future__ import annotations

import json

import pytest

from workbench.core import registry
from workbench.core.errors import WorkbenchError

pytest.importorskip("panel")

from workbench.dashboard.play import HUMAN, PlayModel  # noqa: E402


@pytest.fixture
def toy(monkeypatch):
    from workbench.games.pebble_race import GAME
    registry.register(GAME)
    yield PlayModel(game_id="pebble-race", games=["pebble-race"])
    registry.unregister("pebble-race")


def test_new_game_uses_game_defaults(toy):
    assert toy.players == toy.game.default_players == 4
    assert toy.seats == [HUMAN, "greedy", "greedy", "greedy"]
    assert toy.ply == 0 and toy.to_move() == "Alex"
    assert toy.legal_moves() == toy.match.legal_moves()


def test_human_move_then_bot_answers(toy):
    first = toy.legal_moves()[0]
    assert toy.move(first)
    # Alex moved, the greedy bot in seat 2 answered at once
    assert toy.length == 4
    assert toy.log()[0] == {"ply": 1, "player": "Alex", "action": first}
    assert toy.log()[1]["player"] == "Brooke"
    assert toy.to_move() == "Alex"


def test_illegal_move_refused_and_nothing_changes(toy):
    before = (toy.length, toy.ply, json.dumps(toy.match.to_dict()))
    assert not toy.move("take 99")
    assert "refused" in toy.message and "no card '99'" in toy.message
    assert (toy.length, toy.ply, json.dumps(toy.match.to_dict())) == before
    assert not toy.move("dance")
    assert "cannot read" in toy.message
    assert (toy.length, toy.ply) == before[:2]


def test_time_travel_and_branching(toy):
    toy.move(toy.legal_moves()[0])
    toy.move(toy.legal_moves()[0])
    assert toy.length == 8
    seen = toy.game.observe(toy.state)
    toy.back()
    toy.back()
    assert toy.ply == 6 and toy.length == 8
    toy.forward(2)
    assert toy.game.observe(toy.state) == seen
    toy.goto(0)
    assert toy.ply == 0
    # the recorded move (by hand or by the bot) keeps the future
    recorded = list(toy.match.actions)
    toy.move(recorded[0])
    assert toy.length == 8 and toy.match.actions == recorded
    # a different move forks; the old line is kept as the other line
    toy.goto(0)
    alt = next(t for t in toy.legal_moves() if t != recorded[0])
    toy.move(alt)
    assert toy.match.actions[0] == alt and toy.length == 4  # the bots answered the new move
    assert "other line: 8 actions after position 0" in toy.alternate()
    toy.switch_line()
    assert toy.match.actions == recorded and toy.ply == 1


def test_bot_move_after_stepping_back_keeps_the_future(toy):
    # a bot's choice depends only on the position, so replaying a bot line
    # from an earlier position with Bot move walks the same line forward
    for _ in range(5):
        toy.bot_move()
    recorded = list(toy.match.actions)
    toy.goto(1)
    toy.bot_move()
    assert toy.ply == 2 and toy.match.actions == recorded and toy.match.alternate is None


def test_bot_choices_depend_on_position_only(toy):
    toy.set_seat(0, "random")
    toy.bot_move()
    first = toy.match.actions[0]
    toy.back()
    toy.bot_move()
    assert toy.match.actions[0] == first


def test_play_to_end_and_result(toy):
    played = toy.play_to_end()
    assert played > 0 and toy.state.is_terminal()
    assert toy.legal_moves() == []
    assert toy.status().startswith(f"Game over ({toy.game.result(toy.state).ending})")
    assert not toy.move("pass")
    assert "over" in toy.message


def test_save_and_load_roundtrip(toy, tmp_path):
    toy.move(toy.legal_moves()[0])
    toy.bot_move()
    toy.back()
    path = tmp_path / "g.json"
    toy.save(path)
    other = PlayModel(game_id="pebble-race", games=["pebble-race"])
    other.load(path)
    assert other.match.actions == toy.match.actions
    assert other.ply == toy.ply
    assert other.seats == [HUMAN, "greedy", "greedy", "greedy"]  # the seats travel with the game
    toy.set_seat(0, "random")
    toy.set_seat(1, "ban:take 1:greedy")
    toy.save(path)
    other.load(path)
    assert other.seats == ["random", "ban:take 1:greedy", "greedy", "greedy"]
    # a file from before seats were saved opens with every seat human
    data = json.loads(path.read_text())
    del data["seats"]
    other.open_match(data)
    assert other.seats == [HUMAN] * 4
    data["seats"] = ["human", "wizard", "greedy", "greedy"]
    with pytest.raises(WorkbenchError, match="unknown bot"):
        other.open_match(data)


def test_load_refuses_bad_file_and_keeps_game(toy):
    toy.move(toy.legal_moves()[0])
    actions = list(toy.match.actions)
    with pytest.raises(WorkbenchError, match="not a saved game"):
        toy.load_text("[1, 2]")
    with pytest.raises(WorkbenchError, match="not a saved game"):
        toy.load_text("{nope")
    bad = toy.match.to_dict()
    bad["actions"] = ["take 99"]
    with pytest.raises(WorkbenchError, match="cannot be replayed"):
        toy.open_match(bad)
    assert toy.match.actions == actions


def test_unknown_bot_refused(toy):
    with pytest.raises(WorkbenchError, match="unknown bot"):
        toy.set_seat(1, "wizard")
    assert toy.seats[1] == "greedy"


def test_player_count_bounds_follow_game(toy):
    assert toy.param.players.bounds == (toy.game.min_players, toy.game.max_players) == (1, 6)
    with pytest.raises(ValueError):
        toy.players = 7


# -- Sweeps ------------------------------------------------------------------------

TOY_SIM = "workbench.games.pebble_race:GAME"


@pytest.fixture
def sweeps():
    from workbench.dashboard.sweeps import SweepsModel
    return SweepsModel(games=[TOY_SIM], game_id=TOY_SIM)


def test_sweep_runs_off_thread_with_progress(sweeps):
    sweeps.param.update(games=30, players=3, bots_a="random")
    seen = []
    sweeps.param.watch(lambda e: seen.append(e.new), "done_games")
    thread = sweeps.start()
    assert thread is not None
    sweeps.wait(600)  # a hang limit, not a timing: a loaded machine is slow
    assert not sweeps.running and sweeps.message.startswith("played 30 games")
    assert seen and seen[-1] == 30 and sweeps.progress == 1.0
    assert sweeps.durations()["games"].sum() == 30
    seats = sweeps.seat_balance()
    assert seats["seat"].to_list() == [1, 2, 3]
    assert abs(seats["win_rate"].sum() - sweeps.results["A"].metrics()["completion"]) < 1e-9
    # the page plots the one seat_win_rate metric the Balance view reads
    assert dict(zip(seats["seat"].to_list(), seats["win_rate"].to_list())) == \
        sweeps.results["A"].metrics()["seat_win_rate"]
    table, order = sweeps.card_use()
    assert order and set(table["card"].to_list()) == set(order)


def test_sweep_shows_faction_balance_where_seats_play_factions(sweeps):
    from workbench.dashboard.sweeps import SweepsModel, role_figure
    sweeps.param.update(games=4, players=2, bots_a="random")
    sweeps.run()
    assert sweeps.role_balance().height == 0 and role_figure(sweeps) is None  # the toy has no roles
    mandate = SweepsModel(games=["mandate-2038"], game_id="mandate-2038")
    mandate.param.update(games=3, players=3, bots_a="random", seed=2)
    mandate.run()
    table = mandate.role_balance()
    # the page plots the one role_win_rate metric the Balance view's faction targets read
    assert dict(zip(table["role"].to_list(), table["win_rate"].to_list())) == \
        mandate.results["A"].metrics()["role_win_rate"]
    figure = role_figure(mandate)
    assert figure is not None and figure.title.text.startswith("Faction balance")
    assert sorted(figure.renderers[0].data_source.data["x"]) == sorted(table["role"].to_list())


def test_sweep_compare_lists_flipped_games_that_open_in_play(sweeps, monkeypatch):
    sweeps.param.update(games=30, players=3, bots_a="greedy", compare=True, bots_b="random")
    sweeps.run()
    assert set(sweeps.results) == {"A", "B"}
    table = sweeps.metrics_table()
    assert {"metric", "A", "B", "diff", "ci_low", "ci_high"} <= set(table.columns)
    flips = sweeps.flipped()
    assert flips, "greedy vs random should flip some of 30 games"
    data = sweeps.flipped_match(0, "B")
    # the replayed game ends as the batch recorded it
    from workbench.core.game import GameConfig
    from workbench.core.history import Match
    from workbench.sim import resolve_game
    match = Match.replay(resolve_game(TOY_SIM), GameConfig.from_dict(data["config"]), data["actions"])
    res = match.game.result(match.state)
    assert res.ending == flips[0]["b"]["ending"]
    assert sorted(res.winners) == sorted(flips[0]["b"]["winners"])


def test_sweep_bad_bot_is_a_message_not_a_crash(sweeps):
    sweeps.param.update(games=5, bots_a="wizard")
    sweeps.run()
    assert sweeps.message.startswith("cannot run:") and "unknown bot" in sweeps.message
    assert not sweeps.running


# -- Rules -------------------------------------------------------------------------

@pytest.fixture
def rules():
    from workbench.dashboard.rules import RulesModel
    from workbench.rules.catalog import translation_languages
    if not translation_languages("meaning-made"):
        pytest.skip("Meaning Made has no translation yet")
    return RulesModel(game_id="meaning-made")


def test_rules_side_by_side_in_two_languages(rules):
    from workbench.dashboard.rules import rules_html
    assert rules.left == "en" and rules.right != "en"
    rows = rules.rows()
    assert len(rows) == len(rules.source.clauses)
    first = rows[0]["clause"]
    en, other = rules.shown_text("en", first), rules.shown_text(rules.right, first)
    assert en and other and en != other
    html = rules_html(rules)
    assert f"lang='{rules.right}'" in html and "lang='en'" in html


def test_rules_filters(rules):
    missing = {cid for cid in rules.source.clauses if rules.status(cid) == "missing"}
    rules.filter = "missing"
    assert {r["clause"] for r in rules.rows()} == missing
    rules.filter = "findings"
    assert all(r["findings"] for r in rules.rows())
    rules.filter = "failing"
    assert rules.rows() == []  # nothing has run, so nothing has failed yet


def test_rules_placeholders_resolved_or_raw():
    from workbench.dashboard.rules import RulesModel, games_with_rules
    if "mandate-2038" not in games_with_rules():
        pytest.skip("Mandate 2038 has no rules text yet")
    rules = RulesModel(game_id="mandate-2038")
    with_ph = next((cid for cid, c in rules.source.clauses.items() if "${" in c.body), None)
    if with_ph is None:
        pytest.skip("no placeholder in the rulebook")
    rules.resolve = False
    raw = rules.shown_text("en", with_ph)
    assert "${" in raw
    rules.resolve = True
    # every placeholder the terms define is filled in (an undefined one stays
    # visible, for the designer to notice)
    assert rules.shown_text("en", with_ph).count("${") < raw.count("${")


# -- Cards and Graph ---------------------------------------------------------------

@pytest.fixture
def cards(cards_copy):
    from workbench.dashboard.cards import CardsModel
    from workbench.tweak import open_session
    return CardsModel(session=open_session(folder=cards_copy / "meaning_made"))


def test_card_edit_updates_graph_info(cards):
    first = cards.table()["name"][0]
    before = cards.card_info(first)
    old_i = cards.cell(first, "I")
    assert cards.edit(first, "I", old_i + 2)
    assert cards.cell(first, "I") == old_i + 2
    assert cards.selected == first and cards.report
    assert cards.card_info() != before
    cards.undo()
    assert cards.cell(first, "I") == old_i
    assert cards.card_info(first) == before


def test_invalid_card_edit_refused_and_nothing_lost(cards):
    first = cards.table()["name"][0]
    table = cards.table()
    assert not cards.edit(first, "layer", "twelve")
    assert cards.message.startswith("refused:") and "layer" in cards.message
    assert cards.table().equals(table)
    assert not cards.edit(first + "x", "I", 1)
    assert "did you mean" in cards.message


def test_cards_playtest_streams_its_updates_with_verdicts(cards):
    """The Cards page's playtest is the streamed one: each update replaces the
    comparison, says what it is (preview, look, final) and carries a verdict
    per metric; the last one opens its flipped games."""
    first = cards.table()["name"][0]
    assert cards.edit(first, "E", cards.cell(first, "E") + 1)
    cards.playtest_games, cards.playtest_players, cards.playtest_bots = 20, 3, "random"
    seen, states = [], []
    cards.param.watch(lambda e: seen.append(e.new), ["playtest_state"])
    cards.start_playtest()
    cards.wait(300)
    assert not cards.running and cards.playtest is not None
    assert seen and seen[-1].startswith("final at 20 games per pool")
    summary = cards.playtest.summary
    assert "verdict" in summary.columns and summary["verdict"].null_count() == 0
    assert set(summary["metric"]) >= {"survival rate", f"games taking {first}"}
    assert cards.message.startswith("paired playtest: 20 games per pool")
    from workbench.dashboard.formats import paired_table
    assert list(paired_table(summary).columns)[1] == "verdict"   # beside the metric, never off-screen


def test_an_edit_stops_the_running_playtest(cards):
    first = cards.table()["name"][0]
    cards.playtest_games, cards.playtest_players, cards.playtest_bots = 2000, 4, "greedy"
    cards.start_playtest()
    import time
    deadline = time.monotonic() + 120
    while cards.playtest is None and cards.running and time.monotonic() < deadline:
        time.sleep(0.05)  # the first update, whatever the machine's speed
    assert cards.edit(first, "E", cards.cell(first, "E") + 1)
    cards.wait(300)
    assert not cards.running
    assert cards.message.startswith("playtest stopped at") and "pool changed" in cards.message
    assert cards.playtest.games < 2000


def test_cards_save_refuses_file_changed_on_disk(cards, cards_copy):
    first = cards.table()["name"][0]
    cards.edit(first, "E", cards.cell(first, "E") + 1)
    path = cards_copy / "meaning_made" / "patterns.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited elsewhere\n", encoding="utf-8")
    assert cards.save() == []
    assert "changed on disk" in cards.message


def test_cards_export(cards, tmp_path):
    import polars as pl
    out = cards.export(tmp_path / "pool.csv")
    assert pl.read_csv(out).height == cards.table().height
    assert cards.export_bytes(".parquet")[:4] == b"PAR1"


def test_graph_model_select_and_links(cards):
    from workbench.dashboard.graph import GraphModel
    graph = GraphModel(session=cards.session)
    name = graph.card_names()[0]
    graph.select(name.upper())
    assert graph.selected == name
    assert set(graph.links()) == {"needs", "unlocks"}
    with pytest.raises(WorkbenchError, match="no card named"):
        graph.select(name + "zzz")
    assert graph.selected == name


# -- Board -------------------------------------------------------------------------

def test_board_layout_adjacency_and_reshuffle():
    from workbench.dashboard.board import BoardModel
    board = BoardModel(seed=3)
    tiles = board.tables()['Districts and adjacency']
    assert tiles.height == 19
    # the adjacency is symmetric: each neighbour lists the tile back
    nbrs = {row["tile"]: set(row["neighbours"].split(", ")) for row in tiles.iter_rows(named=True)}
    assert all(t in nbrs[n] for t, ns in nbrs.items() for n in ns)
    assert tiles["degree"].sum() % 2 == 0
    layout = tiles["kind"].to_list()
    board.reshuffle()
    assert board.seed == 4
    again = BoardModel(seed=3)
    assert again.tables()['Districts and adjacency']["kind"].to_list() == layout  # a seed always lays out the same board
    assert board.tables()['Local Power'].height == board.players


def test_board_after_bot_actions_shows_power():
    from workbench.dashboard.board import BoardModel
    board = BoardModel(seed=2, bot_actions=120)
    power = board.tables()['Local Power']
    assert set(power.columns) == {"player", "power sources", "connected", "offline"}
    assert board.figure() is not None


# -- serve ------------------------------------------------------------------------

def test_serve_defaults_to_this_machine_and_warns_otherwise():
    import io

    from workbench.cli import build_parser
    from workbench.commands.serve import warn_if_exposed
    args = build_parser().parse_args(["serve", "--no-browser"])
    assert (args.host, args.port, args.no_browser) == ("127.0.0.1", 5006, True)
    quiet, loud = io.StringIO(), io.StringIO()
    assert not warn_if_exposed("127.0.0.1", quiet) and quiet.getvalue() == ""
    assert warn_if_exposed("0.0.0.0", loud) and "warning" in loud.getvalue()


def test_serve_command_imports_no_panel():
    import subprocess
    import sys
    code = ("import sys, workbench.cli as c; c.build_parser(); "
            "print('panel' in sys.modules, 'bokeh' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_app_builds_every_page_without_errors():
    from workbench.dashboard.app import PAGES, Workbench, build_page
    import panel as pn
    bench = Workbench()
    for title, module, cls in PAGES:
        page = build_page(title, module, cls, bench)
        assert not isinstance(page, pn.pane.Alert), page.object


def test_play_view_follows_a_loaded_game(toy):
    from workbench.dashboard.play import PlayPage
    view = PlayPage(model=toy)
    toy.move(toy.legal_moves()[0])
    saved = toy.to_dict()
    toy.new_game()
    view._upload.value = json.dumps(saved).encode()
    # the loaded game is shown, not replaced by a fresh one
    assert toy.match.actions == saved["actions"]
    assert [w.value for w in view._seats.objects] == [HUMAN, "greedy", "greedy", "greedy"]
    assert view._slider.value == toy.ply and view._slider.end >= toy.length
    assert "position" in view._status.object
    view._moves.value = toy.legal_moves()[-1]
    view._on_play()
    assert toy.match.actions[-1] == view.model.match.actions[-1]
    view._back.clicks += 1
    assert toy.ply == toy.length - 1


# -- property: time travel never loses or invents a position --------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

OPS = st.lists(st.one_of(st.tuples(st.just("move"), st.integers(0, 5)),
                         st.tuples(st.just("bot"), st.just(0)),
                         st.tuples(st.just("back"), st.integers(1, 3)),
                         st.tuples(st.just("forward"), st.integers(1, 3)),
                         st.tuples(st.just("goto"), st.integers(0, 40))), max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_play_history_matches_a_replay(toy, ops):
    from workbench.core.history import Match
    toy.new_game()
    for op, arg in ops:
        if op == "move":
            moves = toy.legal_moves()
            if moves:
                toy.move(moves[arg % len(moves)])
        elif op == "bot":
            toy.bot_move()
        elif op == "back":
            toy.back(arg)
        elif op == "forward":
            toy.forward(arg)
        else:
            toy.goto(min(arg, toy.length))
        assert 0 <= toy.ply <= toy.length == len(toy.log())
        replay = Match.replay(toy.game, toy.match.config, toy.match.actions[:toy.ply])
        assert toy.game.observe(replay.state) == toy.game.observe(toy.state)


def test_flipped_game_opens_on_the_play_page():
    from workbench.dashboard.app import Workbench
    from workbench.dashboard.sweeps import SweepsModel, SweepsPage
    bench = Workbench()
    model = SweepsModel(game_id="meaning-made")
    model.param.update(games=12, players=3, bots_a="greedy", compare=True, bots_b="random")
    page = SweepsPage(bench=bench, model=model)
    model.run()
    page._show()
    flips = model.flipped()
    assert len(page._flipped.value) == len(flips)
    if not flips:
        pytest.skip("no outcome flipped in this small batch")
    bench.page = 4
    page._flipped.selection = [0]
    page._open_b.clicks += 1   # the button's handler replays the game off the event loop
    assert bench.page == 0
    play = bench.play
    assert play.game_id == "meaning-made" and play.match.config.seed == flips[0]["seed"]
    assert play.seats == ["random"] * 3  # setting B's bots keep their seats
    res = play.game.result(play.match.states[-1])
    assert res.ending == flips[0]["b"]["ending"]


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_every_bundled_game_is_drawn_at_start_and_end(game_id):
    import panel as pn

    from workbench.dashboard.play import PlayPage, available_games
    if game_id not in available_games():
        pytest.skip(f"{game_id} does not load")
    model = PlayModel(game_id=game_id)
    view = PlayPage(model=model)
    for _ in range(2):
        drawn = view._table.objects[0]
        assert not isinstance(drawn, pn.pane.Alert), drawn.object
        model.play_to_end()
    assert model.state.is_terminal() and "Game over" in model.status()


# -- legibility, numbers, icons ------------------------------------------------------------

def test_table_colours_meet_wcag_aa():
    from workbench.tabletop import contrast, text_on
    # Pax Transhumanity's market colours with the label colour chosen for them
    for colour in ("yellow", "green", "blue", "orange"):
        assert contrast(colour, text_on(colour)) >= 4.5, colour
    assert text_on("yellow") == "#000000"
    # the track's marked box and the log's greyed future
    assert contrast("#2f5fb3", "#ffffff") >= 4.5
    assert contrast("#6b6b6b", "#ffffff") >= 4.5


def test_numbers_and_seeds_are_shown_as_computed():
    import polars as pl

    from workbench.dashboard.formats import paired_table, seed_text, sig3
    assert sig3(0.10500000000000043) == "0.105"
    assert sig3(1234.56) == "1,235" and sig3(None) == "—"
    assert seed_text(7002520603566679317) == "7002520603566679317"
    frame = pl.DataFrame({"metric": ["survival rate"], "old": [0.5], "new": [0.605],
                          "diff": [0.10500000000000043], "ci_low": [-0.02], "ci_high": [0.19]})
    table = paired_table(frame)
    assert list(table.columns) == ["metric", "old", "new", "difference [95% CI]"]
    assert table.iloc[0]["difference [95% CI]"] == "+0.105 [−0.02, +0.19]"


def test_icons_fall_back_to_text_without_an_emoji_font(monkeypatch):
    from workbench import tabletop
    tabletop.emoji_font_available.cache_clear()
    monkeypatch.setenv("WORKBENCH_ICONS", "text")
    try:
        assert tabletop.icon("⚡", "Energy") == "<span class='wb-icon-text'>[Energy]</span>"
        model = PlayModel(game_id="meaning-made")
        html = tabletop.draw_table(model.game, model.state).object
        # the terms' icons drop out and their words stay
        assert "☀" not in html and "🌟" not in html and "Energy" in html and "Meaning" in html
    finally:
        tabletop.emoji_font_available.cache_clear()


def test_moves_grouped_by_kind_and_state_inspector():
    model = PlayModel(game_id="meaning-made")
    groups = model.move_groups()
    assert sum(len(g) for g in groups.values()) == len(model.legal_moves())
    assert all(all(t.split()[0] == kind for t in moves) for kind, moves in groups.items())
    assert model.inspect() == json.loads(json.dumps(model.game.observe(model.state), default=str))


def test_sweeps_headline_fits_the_game():
    from workbench.dashboard.sweeps import SweepsModel
    model = SweepsModel(games=[TOY_SIM], game_id=TOY_SIM)
    model.param.update(games=6, bots_a="random")
    model.run()
    assert model.headline().startswith("Win-rate spread across seats")
    assert "Survival" not in model.headline()
    csv = model.export_bytes(".csv").decode()
    assert csv.startswith("arm,") and csv.count("\n") == 7
    assert model.export_bytes(".parquet")[:4] == b"PAR1"


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_sweeps_headline_is_declared_by_the_game_not_guessed_from_the_games(bots):
    """Meaning Made declares a shared fate: its headline leads with the survival
    rate whether the bots all lose (random) or one of them wins (greedy), and
    always carries the seat spread read from the ``seat_win_rate`` metric."""
    from workbench.dashboard.sweeps import SweepsModel
    model = SweepsModel(game_id="meaning-made")
    model.param.update(games=4, bots_a=bots, players=2)
    model.run()
    head = model.headline()
    survival = model.results["A"].metrics()["completion"]
    assert head.startswith(f"Survival rate: A {survival:.1%}. Win-rate spread across seats")
    rates = model.results["A"].metrics()["seat_win_rate"].values()
    from workbench.dashboard.formats import sig3
    assert head.endswith(f"A {sig3(max(rates) - min(rates))}")


def test_rules_page_marks_rulings_and_drafts():
    """The Rules page shows the same marks as the rendered book: †ruling-id on a clause
    its marker ties to a ruling, ‡ after a draft value (Mandate's district table)."""
    from workbench.dashboard.rules import RulesModel
    mm = RulesModel(game_id="meaning-made")
    cid = next(c for c, cl in mm.source.clauses.items() if cl.rulings)
    rid = mm.source.clauses[cid].rulings[0]
    for lang in mm.languages:
        assert f"†{rid}" in mm.shown_text(lang, cid)
    mandate = RulesModel(game_id="mandate-2038")
    assert "‡" in mandate.shown_text("en", "mandate-2038/board/district-table")


def test_board_legend_names_each_seat_colour_and_each_piece():
    from bokeh.models import Legend

    from workbench.core.registry import get_game
    from workbench.games.mandate_2038.drawing import SEAT_COLOURS, board_figure
    game = get_game("mandate-2038")
    state = game.new_initial_state(game.config(4, seed=1))
    legend = next(x for x in board_figure(state).below if isinstance(x, Legend))
    labels = [i.label["value"] for i in legend.items]
    seats = [f"{state.player_name(s)} ({p.faction})" for s, p in enumerate(state.players)]
    assert labels == seats + ["Facility (hollow = offline)", "Generator", "Agent"]
    colours = [i.renderers[0].glyph.fill_color for i in legend.items[:4]]
    assert colours == SEAT_COLOURS[:4]


def test_cards_playtest_ends_at_the_first_look_after_its_time_budget(cards):
    """The page's playtest never runs past its time budget by more than a look:
    with the budget at 0.1 s, it ends at its first look, the verdicts of that
    look shown and the rest saying they are undecided."""
    first = cards.table()["name"][0]
    assert cards.edit(first, "E", cards.cell(first, "E") + 1)
    cards.playtest_games, cards.playtest_players, cards.playtest_bots = 2000, 3, "random"
    cards.playtest_seconds = 0.1
    cards.start_playtest()
    cards.wait(300)
    assert not cards.running and cards.playtest is not None
    assert cards.playtest.games < 2000
    assert "time budget" in cards.playtest_state and cards.playtest_state.startswith(
        f"stopped at {cards.playtest.games} games per pool")
    assert cards.message.startswith(f"paired playtest: {cards.playtest.games} games per pool")
    assert cards.playtest.summary["verdict"].null_count() == 0


def test_cards_playtest_explains_a_decided_change_and_shows_card_impact(cards, monkeypatch):
    """Beside the verdict (issue 42): per-card impact from the edited pool's
    games, where the paired games part ways, each edit's share on request (its
    games are test_explain's: here, what the page hands it), and what banning
    a card changes; an undo makes the edits unlistable."""
    cards.playtest_games, cards.playtest_players, cards.playtest_bots = 24, 4, "random"
    cards.workers = 0   # in this process: no pool to start on a loaded machine
    assert cards.edit("settings", "meaning", 1) and cards.edit("Shell", "flavour", "Moss.")
    assert cards.listed_edits() == [("settings", "meaning", 1), ("Shell", "flavour", "Moss.")]
    cards.start_playtest()
    cards.wait(300)
    assert not cards.running and cards.playtest is not None
    rows = cards.impact_rows()
    assert rows and {"card", "games taken", "taker's win share"} <= set(rows[0])
    assert all(r["games"] <= 24 for r in cards.impact)
    assert cards.explanation is not None and cards.explanation["metric"]
    assert cards.why[0].startswith("why (") and "part ways" in cards.why[1]
    asked = []

    def shares(game_id, edits, spec, key, **kw):
        asked.append((edits, key, spec.games))
        return {"method": "shapley", "old": kw["baseline"], "new": kw["full"], "games": 0, "effect": 1.0,
                "shares": [{"edit": list(e), "contribution": 1.0 - j, "share": 1.0 - j} for j, e in enumerate(edits)]}
    monkeypatch.setattr("workbench.tweak.explain.edit_shares", shares)
    cards.start_shares()
    cards.wait(300)
    assert asked == [(cards.listed_edits(), cards.explanation["metric"], 24)]
    assert any("each edit's share" in line for line in cards.why)
    assert cards.why[-2].strip().startswith("settings.meaning=1: +1")
    card = cards.impact[0]["card"]
    cards.ban_games = 8
    cards.start_ban(card)
    cards.wait(300)
    assert cards.ban["card"] == card and cards.ban["games"] == 8
    assert cards.ban_line().startswith(f"never taking {card} (8 paired games")
    cards.undo()
    assert cards.listed_edits() is None


def test_shares_and_ban_text_before_and_without_a_playtest(cards):
    """Asking for the edits' shares before any playtest says what to do (it raised
    AttributeError: the played edits were only set by a playtest); the ban's line
    prints each change beside its interval, or why there is none."""
    cards.run_shares()
    assert cards.message.startswith("no decided change to share out")
    cards.ban = {"card": "Shell", "games": 40, "players": 4, "win_change": -0.125, "win_change_low": -0.25,
                 "win_change_high": 0.0, "score_change": None, "score_change_low": None, "score_change_high": None}
    assert cards.ban_line() == ("never taking Shell (40 paired games, 4 players, one seat banned): win credit -0.12 "
                                "[-0.25, +0.00], score in score spreads: no spread to measure by (negative: the card "
                                "helps its seat)")
    cards.impact = [{"card": "Shell", "games": 3, "win_share": 0.5, "win_share_low": None, "win_share_high": None,
                     "win_edge": 0.25, "win_edge_low": -0.5, "win_edge_high": 1.0}]
    assert cards.impact_rows() == [{"card": "Shell", "games taken": 3, "taker's win share": "0.50 (too few games)",
                                    "edge over the other seats": "+0.25 [-0.50, +1.00]"}]
