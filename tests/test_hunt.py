"""workbench hunt on the toy game: the bandit finds a card that beats the field,
confirms it on fresh games, and its witness replays; policy bots obey their
kind; bad options are one line. (Recall on planted defects in the bundled
games is measured by analyses/hunt_planted.py, too slow for the suite.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from workbench.core.bots import make_bot
from workbench.core.play import bot_rngs, play_game
from workbench.core.policies import action_kind_of
from workbench.hunt import MARGINS
from workbench.sim.runner import resolve_game

TOY = "workbench.games.pebble_race:GAME"
# the bad-option runs stop before a game; no hunt writes the checkout's history
pytestmark = pytest.mark.usefixtures("no_history")


@pytest.fixture(scope="module")
def toy_hunt(tmp_path_factory):
    from workbench.hunt import run_hunt
    out = tmp_path_factory.mktemp("witness")
    return run_hunt(TOY, players=3, bots="random", budget=500, workers=0, out=out), out


def test_a_card_that_wins_is_found_with_an_interval(toy_hunt):
    doc, _ = toy_hunt
    json.dumps(doc)  # the report is one JSON document
    found = {(f["kind"], f["restriction"] or f["subject"]) for f in doc["findings"]}
    # Gem (4 points) is the best card of the toy: random players who always take it beat the field
    assert ("beats-field", "force:Gem") in found or ("taker-wins", "Gem") in found
    # the score questions, in score spreads: Gem's takers end far above the other seats
    assert ("taker-scores", "Gem") in found and doc["score_scale"] > 0
    for f in doc["findings"]:
        assert f["low"] > 0 and f["low"] <= f["effect"] <= f["high"]
        assert f["games"] >= 5
    assert doc["games"] <= doc["budget"]


def test_witness_games_replay_and_open_as_saved_games(toy_hunt):
    from workbench.core.history import Match
    doc, out = toy_hunt
    assert doc["findings"]
    for f in doc["findings"]:
        wit = f["witness"]
        assert wit is not None and wit["replays"], f["title"]
        saved = json.loads(open(wit["file"], encoding="utf-8").read())
        match = Match.from_dict(saved, game=resolve_game(TOY))
        assert len(match) == wit["moves"]
        assert match.game.result(match.states[-1]).winners == wit["winners"]
        assert all(0 <= m["ply"] < wit["moves"] for m in wit["marks"])
        assert str(out) in wit["file"]


def test_kind_policies_keep_to_their_kind():
    game = resolve_game(TOY)
    config = game.config(3, seed=5)
    for spec, check in (("always:pass:random", lambda kinds: kinds == {"pass"}),
                        ("never:take:random", lambda kinds: "take" not in kinds),
                        ("first", lambda kinds: True)):
        bots = [make_bot(spec), make_bot("random"), make_bot("random")]
        state = game.new_initial_state(config)
        rngs = bot_rngs(config)
        kinds = set()
        while not state.is_terminal():
            seat = state.current_player()
            action = bots[seat].choose(game, state, rngs[seat])
            if seat == 0:
                kinds.add(action_kind_of(game, state, action))
                if spec == "first":
                    assert action == state.legal_actions()[0]
            state.apply_action(action)
        assert check(kinds), (spec, kinds)
    state, log = play_game(game, config, [make_bot("first")] * 3)
    again, log2 = play_game(game, config, [make_bot("first")] * 3)
    assert log == log2


@pytest.mark.parametrize("args, words", [
    (["--margin", "bogus=1"], "--margin"),
    (["--budget", "0"], "--budget"),
    (["--bots", "always:"], "always"),
])
def test_bad_options_are_one_line(args, words):
    proc = subprocess.run([sys.executable, "-m", "workbench", "hunt", "pax-transhumanity", *args, "--no-witness"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_hunt_is_the_same_in_this_process_and_on_a_pool():
    from workbench.hunt import run_hunt
    one = run_hunt(TOY, players=3, bots="random", budget=150, workers=0, witnesses=False, seed=3)
    two = run_hunt(TOY, players=3, bots="random", budget=150, workers=2, witnesses=False, seed=3)
    strip = lambda d: {k: v for k, v in d.items() if k != "elapsed"}  # noqa: E731 (wall clock only)
    assert strip(one) == strip(two)


def test_score_questions_read_the_paired_seat_in_score_spreads():
    from workbench.hunt.games import GameRow, Played, values
    from workbench.hunt.space import BASELINE, Arm, arms_for, hypotheses_for
    played = Played(TOY, 2, "random", 1)
    base = {0: GameRow([1, 0], False, [None] * 2, score=[10.0, 4.0], taker_score={"Gem": 6.0}),
            1: GameRow([0, 1], False, [None] * 2, score=[2.0, 8.0], taker_score={"Gem": 6.0})}
    played.rows["screen"][BASELINE] = base
    assert played.fix_score_scale() == pytest.approx(3.6515, abs=1e-4)  # sd of 10, 4, 2, 8
    # game i's restricted seat is i mod 2: seat 0 in game 0 ends on 7 (not 10), seat 1 in game 1 on 8 (as paired)
    played.rows["screen"]["ban:Gem"] = {0: GameRow([0, 1], False, [None] * 2, score=[7.0, 9.0]),
                                        1: GameRow([0, 1], False, [None] * 2, score=[2.0, 8.0])}
    cost = values(played, "screen", "ban-costs", "ban:Gem", "Gem")
    assert list(cost) == pytest.approx([3 / 3.6515, 0.0], abs=1e-4)
    assert list(values(played, "screen", "taker-scores", BASELINE, "Gem")) == pytest.approx([6 / 3.6515] * 2, abs=1e-4)
    # a strong card's ban ranks by the size of its hint, not its sign; no score question without a spread
    arms = arms_for([("Gem", 0.4)], [])
    assert {a.key: a.prior for a in arms if a.kind == "card"} == {"force:Gem": 0.4, "ban:Gem": 0.4}
    kinds = lambda sc: {h.kind for h in hypotheses_for(arms, 2, [], MARGINS, ["Gem"], score_cards=sc)}  # noqa: E731
    assert {"ban-costs", "taker-scores"} <= kinds(["Gem"])
    assert not {"ban-costs", "taker-scores"} & kinds(None)


def test_the_hunt_section_model_shows_findings_and_refuses_bad_bots(tmp_path):
    # the Balance page's Hunt section: its model only (no browser), on the toy game
    from workbench.dashboard.hunt import HuntModel
    m = HuntModel(game_id=TOY, players=3, bots="random", budget=200, workers=0, out=str(tmp_path))
    m.run()
    assert not m.running and m.report is not None, m.message
    table = m.findings_table()
    assert not table.empty and "Gem" in " ".join(table["finding"])
    assert set(table["replays"]) == {"yes"}
    assert all(str(tmp_path) in w for w in table["witness"])
    assert f"{m.report['games']} games" in m.message
    bad = HuntModel(game_id=TOY, bots="always:", workers=0, out=str(tmp_path))
    bad.run()
    assert bad.message.startswith("cannot hunt:") and bad.report is None and not bad.running


def test_a_read_only_dashboard_refuses_a_hunt():
    from workbench.dashboard.hunt import HuntModel, HuntSection

    class Bench:
        read_only = True

    section = HuntSection(bench=Bench(), model=HuntModel(game_id=TOY, workers=0))
    section._on_run()
    assert "read-only" in section._status.object
    assert not section.model.running and section.model.report is None
