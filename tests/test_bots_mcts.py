"""The MCTS bot: reproducible, legal, stronger than random, and honest about hidden information."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from workbench.core.bots import make_bot, make_bots
from workbench.core.errors import WorkbenchError
from workbench.core.mcts import MCTSBot, parse_mcts
from workbench.core.play import play_game
from workbench.core.rng import Rng
from workbench.games.pebble_race import GAME, PebbleRace


def test_spec_parsing():
    bot = make_bot("mcts:50:greedy:d=8:c=0.7")
    assert isinstance(bot, MCTSBot)
    assert (bot.iterations, bot.playout, bot.depth, bot.exploration) == (50, "greedy", 8, 0.7)
    assert make_bot("mcts").iterations == 200
    assert make_bot("mcts:t=0.01").time_budget == 0.01
    assert repr(make_bot("mcts:50:greedy:d=8")) == "mcts:50:greedy:d=8"


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:50:fast", "mcts:d=x", "mcts:0"])
def test_bad_specs_are_refused(spec):
    with pytest.raises(WorkbenchError):
        make_bot(spec)


def test_same_state_and_seed_give_same_choice():
    state = GAME.new_initial_state(GAME.config(3, seed=11))
    bot = parse_mcts("60")
    first = bot.choose(GAME, state, Rng(5))
    again = bot.choose(GAME, state, Rng(5))
    assert first == again
    assert first in state.legal_actions()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), steps=st.integers(0, 12))
def test_choice_is_always_legal_and_leaves_state_untouched(seed, players, steps):
    state = GAME.new_initial_state(GAME.config(players, seed=seed))
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])
    if state.is_terminal():
        return
    before = (list(state.scores), list(state.market), list(state.deck), state.rng.state)
    action = parse_mcts("20:d=6").choose(GAME, state, rng)
    assert action in state.legal_actions()
    assert before == (list(state.scores), list(state.market), list(state.deck), state.rng.state)


def test_mcts_beats_random_bots():
    wins = 0
    games = 30
    for i in range(games):
        config = GAME.config(2, seed=100 + i)
        bots = make_bots("mcts:60,random", 2)
        state, _ = play_game(GAME, config, bots)
        wins += "Alex" in GAME.result(state).winners
    # a random seat would win about half; search should win clearly more often
    assert wins >= 20


class CountingRace(PebbleRace):
    def __init__(self):
        self.samples = 0

    def determinize(self, state, seat, rng):
        self.samples += 1
        return super().determinize(state, seat, rng)


def test_determinize_hook_is_used_once_per_iteration():
    game = CountingRace()
    state = game.new_initial_state(game.config(2, seed=3))
    parse_mcts("25").choose(game, state, Rng(1))
    assert game.samples == 25


def test_time_budget_runs_at_least_one_iteration():
    state = GAME.new_initial_state(GAME.config(4, seed=2))
    assert parse_mcts("t=0.0001").choose(GAME, state, Rng(0)) in state.legal_actions()


def test_time_budget_spelled_out_with_a_default_depth():
    from workbench.core.bots import make_bot
    from workbench.core.errors import WorkbenchError
    bot = make_bot("mcts:time=0.01")
    assert bot.time_budget == 0.01 and bot.depth == 40 and bot.name == "mcts:t=0.01"
    assert make_bot("mcts:time=0.01:d=5").depth == 5
    with pytest.raises(WorkbenchError):
        make_bot("mcts:time=0")


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_time_budget_bot_plays_a_legal_move_in_every_game(game_id):
    from workbench.core.bots import make_bot
    from workbench.core.registry import get_game
    from workbench.core.rng import Rng
    game = get_game(game_id)
    state = game.new_initial_state(game.config(game.default_players if hasattr(game, "default_players")
                                               else game.min_players, seed=3))
    action = make_bot("mcts:time=0.01").choose(game, state, Rng(1))
    assert action in state.legal_actions()
