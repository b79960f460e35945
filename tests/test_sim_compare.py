"""Paired comparisons on the same seeds: differences, intervals, flipped games."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bots
from workbench.core.errors import WorkbenchError
from workbench.core.game import GameConfig
from workbench.core.play import play_game
from workbench.sim import SimSpec, simulate
from workbench.sim.compare import compare, compare_results
from workbench.games.pebble_race import GAME

TOY = "workbench.games.pebble_race:GAME"


def test_identical_arms_differ_by_nothing():
    spec = SimSpec(TOY, games=40, players=3, bots="greedy", seed=8)
    c = compare(spec, spec, workers=0)
    assert c.flipped == []
    for row in c.rows:
        if row["a"] is not None:
            assert row["diff"] == 0
            assert row["ci_low"] == 0 and row["ci_high"] == 0


def test_a_ban_shows_up_as_a_difference_with_its_flipped_games():
    spec = SimSpec(TOY, games=150, players=2, bots="greedy", seed=3)
    c = compare(spec, spec.with_(bots="ban:Gem:greedy,greedy"), workers=0)
    table = {r["metric"]: r for r in c.rows}
    adv = table["Seat advantage, seat 1"]
    # losing the best card costs seat 1 wins, clearly outside the noise
    assert adv["diff"] < 0 and adv["ci_high"] < 0
    assert adv["ci_low"] <= adv["diff"] <= adv["ci_high"]
    assert c.flipped
    # every flipped game reopens from its config and shows the arm's outcome
    flip = c.flipped[0]
    for arm in ("a", "b"):
        config = GameConfig.from_dict(flip[f"config_{arm}"])
        state, _ = play_game(GAME, config, make_bots(flip[f"bots_{arm}"], 2))
        assert GAME.result(state).winners == flip[arm]["winners"]


def test_comparison_is_reproducible():
    spec = SimSpec(TOY, games=30, players=2, bots="random", seed=1)
    other = spec.with_(options={"target": 10})
    assert compare(spec, other, workers=0).rows == compare(spec, other, workers=0).rows


def test_arms_on_different_seeds_are_refused():
    a = simulate(SimSpec(TOY, games=5, seed=1), workers=0)
    b = simulate(SimSpec(TOY, games=5, seed=2), workers=0)
    with pytest.raises(WorkbenchError, match="same seeds"):
        compare_results(a, b)
    with pytest.raises(WorkbenchError):
        compare(SimSpec(TOY, games=5), SimSpec(TOY, games=6))
