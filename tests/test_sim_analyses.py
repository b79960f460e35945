"""Smoke runs of the analyses (skill report, player-count sweep) with --quick."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = "workbench.games.pebble_race:GAME"


def _script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "analyses" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_skill_report_quick(tmp_path):
    assert _script("skill_report").main(["--game", TOY, "--quick", "--players", "2", "--games", "8",
                                         "--workers", "0", "--out", str(tmp_path), "--no-png"]) == 0
    matrix = pl.read_csv(tmp_path / "skill_matrix.csv")
    assert matrix.height == 16
    assert set(matrix.columns) >= {"focal", "field", "focal_win_rate", "field_win_rate", "edge"}
    # a bot against itself has no edge (the focal seat rotates through every seat)
    mirror = matrix.filter(pl.col("focal") == pl.col("field"))
    assert mirror["edge"].abs().max() <= 0.5
    assert pl.read_parquet(tmp_path / "skill_pools.parquet").height == 4
    assert (tmp_path / "skill_report.html").stat().st_size > 1000


def test_skill_ladder_quick(tmp_path, capsys):
    report = _script("skill_report")
    assert report.main(["--ladder", "--quick", "--ladder-game", "meaning-made+high-instability",
                        "--workers", "0", "--out", str(tmp_path)]) == 0
    rows = pl.read_csv(tmp_path / "skill_ladder.csv")
    assert rows["rung"].to_list()[:2] == ["random", "greedy"] and rows.height == 3
    assert set(rows["variants"].to_list()) == {"high-instability"}
    assert (rows["ci_low"] <= rows["value"]).all() and (rows["value"] <= rows["ci_high"]).all()
    # the greedy rung agrees with a greedy bot given the same rng, by construction
    assert rows.filter(pl.col("rung") == "greedy")["agrees_with_greedy"].to_list() == [1.0]
    assert rows["verdict"][0] == "bottom rung"
    assert "| meaning-made (high-instability) | 2 | `greedy` |" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--ladder-game", "chess"], ["--rungs", "greedy,mcts:k=0"]])
def test_skill_ladder_refuses_bad_input_in_one_line(argv, tmp_path, capsys):
    assert _script("skill_report").main(["--ladder", "--out", str(tmp_path), *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_skill_ladder_tune_prints_a_rung_fitted_away_from_the_ladder_seeds(capsys):
    report = _script("skill_report")
    assert report.main(["--tune", "meaning-made", "--trials", "2", "--games", "4", "--workers", "0"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "(seed 1000)" in lines[0] and len(lines[1].split()) == 2 + 2     # "trial scores:" and 2 trials
    from workbench.core.bots import check_specs
    from workbench.core.registry import get_game
    check_specs(get_game("meaning-made"), lines[-1])
    assert lines[-1] == "greedy" or lines[-1].startswith("greedy:")


@pytest.mark.parametrize("argv", [["--tune", "chess"], ["--tune", "mandate-2038", "--tune-seed", "9"],
                                  ["--tune", "mandate-2038", "--trials", "0"]])
def test_skill_ladder_tune_refuses_bad_input_in_one_line(argv, capsys):
    assert _script("skill_report").main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_every_ladder_rung_is_a_bot_its_game_accepts():
    from workbench.core.bots import check_specs
    from workbench.core.registry import get_game
    for spec in _script("skill_report").LADDER_GAMES.values():
        for rung in spec.rungs:
            check_specs(get_game(spec.game), rung)


@pytest.mark.parametrize("game", [TOY, "meaning-made"])
def test_player_count_sweep_quick(tmp_path, game):
    args = ["--game", game, "--quick", "--games", "2", "--workers", "0", "--out", str(tmp_path), "--no-png"]
    if game != TOY:
        args += ["--bots", "random"]
    assert _script("player_count_sweep").main(args) == 0
    table = pl.read_csv(tmp_path / "player_count_sweep.csv")
    assert table["players"].to_list() == [1, 2, 3, 4, 5, 6]
    assert {"completion", "no_winner", "balance", "duration_rounds"} <= set(table.columns)
    assert (tmp_path / "player_count_sweep.html").exists()


@pytest.mark.slow
def test_png_snapshot_of_a_plot_page(tmp_path):
    import os
    chromium = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        pytest.skip(f"no Chromium at {chromium}")
    assert _script("player_count_sweep").main(["--game", TOY, "--quick", "--games", "2", "--max-players", "2",
                                               "--workers", "0", "--out", str(tmp_path)]) == 0
    png = tmp_path / "player_count_sweep.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_meaning_flow_accounts_for_every_change_and_leaves_play_alone():
    # the analysis wraps flow functions, which compiled rules call past the wrapper:
    # the script runs itself as plain Python, and so does this test (in a subprocess)
    from workbench import native
    if native.status == "compiled (mypyc)":
        import os
        import subprocess
        import sys
        test = f"{__file__}::test_meaning_flow_accounts_for_every_change_and_leaves_play_alone"
        # one plain-Python process for both table sizes; without the notebook plugin,
        # whose imports cost seconds and which this run does not use
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
                              "-p", "no:xdist", "-p", "no:nbval", test],
                             cwd=ROOT, env={**os.environ, "WORKBENCH_PURE": "1"}, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout[-3000:]
        return
    from workbench.core.bots import make_bots
    from workbench.core.game import GameConfig
    from workbench.core.play import play_game
    from workbench.core.registry import get_game
    from workbench.games.meaning_made import flow

    flow_module = _script("meaning_flow")
    game = get_game("meaning-made")
    originals = (flow.event_phase, flow.end_round)
    for players, seed in ((2, 3), (2, 11), (4, 3), (4, 11)):
        row = flow_module.flow_of_game(game, players, seed, "greedy")
        start = game.new_initial_state(GameConfig(players=flow_module.NAMES[:players], seed=seed)).rules.start_meaning
        # Events, donations, completions and the rest add up to the whole change of Meaning
        assert start + sum(row["sources"].values()) == row["final_meaning"]
        assert row["sources"]["event"] < 0 <= row["sources"].get("donation", 0)
        assert row["zero_lost"] <= row["zero_rounds"] and row["capped_rounds"] <= row["rounds"]
        # measuring does not change the game: the same seed and bots play the same game without it
        config = GameConfig(players=flow_module.NAMES[:players], seed=seed)
        state, log = play_game(game, config, make_bots("greedy", players))
        assert (len(log), state.round, game.result(state).ending) == (row["log_length"], row["rounds"], row["ending"])
    assert (flow.event_phase, flow.end_round) == originals  # the hooks are gone afterwards


def test_pax_seat_report_agrees_with_simulate(capsys):
    """analyses/pax_seats.py plays the games `workbench simulate` plays and reads
    them through the same metrics: its figures match the batch's."""
    from workbench.sim import SimSpec, simulate
    module = _script("pax_seats")
    rows = module.play(2, 6, 11, "greedy", {})
    data = module.metric_data(rows, 2)
    result = simulate(SimSpec("pax-transhumanity", games=6, players=2, bots="greedy", seed=11), workers=0)
    metrics = result.metrics()
    for key in ("tie_break_share", "decided_by_score", "timeout", "seat_gap"):
        assert module.compute(data, key) == pytest.approx(metrics[key]), key
    assert [r["ending"] for r in rows] == result.games.sort("index")["ending"].to_list()
    # every finished game names the seat that ended it; a timeout names none
    assert all((r["ender"] is None) == (r["ending"] == "timeout") for r in rows)
    assert module.main(["--players", "2", "--games", "2", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "`decided_by_score`" in out and "games ended by seat 1..2" in out
    assert module.main(["--focal", "greedy:turn_clock=0", "--players", "2", "--games", "2", "--seed", "11"]) == 0
    assert "focal seat win rate" in capsys.readouterr().out


def test_mandate_usage_reports_a_variant_without_touching_the_cards(capsys):
    import json

    from workbench.tweak.pool_session import PoolTweakSession
    script = _script("mandate_usage")
    assert script.main(["--games", "3", "--bots", "random", "--seed", "4", "--workers", "0",
                        "--set", "tiles.*.compute=0", "--set", "facility.Facility.fundConservative=5"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shares = {k: v for k, v in doc.items() if k.startswith("share_")}
    assert len(shares) == 6 and abs(sum(v[0] for v in shares.values()) - 1) < 1e-9
    assert doc["least_used"][0] == min(v[0] for v in shares.values())
    for _, low, high in [doc["least_used"], doc["faction_gap"]]:
        assert 0 <= low <= high <= 1
    assert len(doc["factions"]) >= 4
    assert PoolTweakSession("mandate-2038").value_of("Facility", "fundConservative") == 2   # a scratch copy only
    assert script.main(["--games", "1", "--set", "tiles.*.compute"]) == 1
    assert "PATTERN=VALUE" in capsys.readouterr().err
