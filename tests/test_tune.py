"""The self-play tuner (workbench.sim.tune) and ``compare --adapt``: seeded, the
plain greedy bot as trial 0 (never worse than the defaults on the tuning
games), bounded by trials, cached per pool key (in memory and as one file)."""

from __future__ import annotations

import json

import pytest

from workbench.sim import tune as tuner

TOY = "workbench.games.pebble_race:GAME"


def test_tuning_is_seeded_bounded_and_cached(tmp_path, monkeypatch):
    monkeypatch.setattr(tuner, "_MEMO", {})
    first = tuner.tune(TOY, players=2, pool_key="pool-a", trials=3, games=6, seed=1, workers=0,
                       cache_dir=tmp_path)
    assert first.trials == 3 and len(first.history) == 3 and not first.cached
    assert first.score >= first.baseline == first.history[0]       # trial 0 is the plain greedy bot
    assert first.bot == "greedy" or first.bot.startswith("greedy:")
    files = list(tmp_path.glob("tuned-*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["key"] == first.key
    monkeypatch.setattr(tuner, "_MEMO", {})                          # a new process: read from the file
    again = tuner.tune(TOY, players=2, pool_key="pool-a", trials=3, games=6, seed=1, workers=0,
                       cache_dir=tmp_path)
    assert again.cached and again.weights == first.weights and again.score == first.score
    other = tuner.tune(TOY, players=2, pool_key="pool-b", trials=1, games=6, seed=1, workers=0)
    assert other.key != first.key and other.trials == 1


def test_a_tuned_bot_is_a_bot_spec_the_game_accepts():
    from workbench.core.bots import check_specs
    from workbench.sim.runner import resolve_game
    game = resolve_game(TOY)
    t = tuner.Tuned(weights={k: 2 * v for k, v in game.default_weights.items()}, score=0.5, baseline=0.4,
                    trials=2, games=4, players=2, seconds=0.1, key="k")
    check_specs(game, t.bot)
    assert t.bot.startswith("greedy:")


@pytest.mark.parametrize("extra, words", [(["--bots", "random"], "--adapt"),
                                          (["--adapt-trials", "0"], "--adapt-trials")])
def test_compare_adapt_refuses_bad_input_in_one_line(capsys, monkeypatch, extra, words):
    from workbench.cli import main
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    code = main(["compare", "meaning-made", "--edit", "Shell.E=4", "--games", "20", "--adapt", *extra])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 1 and len(lines) == 1 and words in lines[0]
