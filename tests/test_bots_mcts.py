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


@pytest.mark.parametrize("spec", ["mcts:time=0.01", "mcts:t=0.01:prior=greedy:k=4:greedy:d=2"])
@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_time_budget_bot_plays_a_legal_move_in_every_game(game_id, spec):
    from workbench.core.bots import make_bot
    from workbench.core.registry import get_game
    from workbench.core.rng import Rng
    game = get_game(game_id)
    state = game.new_initial_state(game.config(game.default_players if hasattr(game, "default_players")
                                               else game.min_players, seed=3))
    action = make_bot(spec).choose(game, state, Rng(1))
    assert action in state.legal_actions()


# -- guided search (k=, prior=greedy, eps=) ------------------------------------

from workbench.core.game import TERMINAL, Game, GameResult, State  # noqa: E402


class _TrapState(State):
    """One player, two decisions. First: ``bait`` (1 point now), ``plant``
    (nothing now, but a harvest worth 3 next) or one of the ``junk`` moves
    (-1). Second: ``bait`` again or ``harvest`` (3 points if planted, else 0)."""

    def __init__(self, config):
        self.config, self.rng = config, Rng(config.seed)
        self.step, self.score, self.planted = 0, 0, False

    def current_player(self):
        return TERMINAL if self.step >= 2 else 0

    def legal_actions(self):
        if self.step == 0:
            return ["junk1", "bait", "junk2", "plant", "junk3"]
        return ["bait", "harvest"] if self.step == 1 else []

    def apply_action(self, action):
        if action not in self.legal_actions():
            from workbench.core.errors import IllegalAction
            raise IllegalAction(f"{action} is not legal now")
        if action == "bait":
            self.score += 1
        elif action == "plant":
            self.planted = True
        elif action == "harvest":
            self.score += 3 if self.planted else 0
        elif action.startswith("junk"):
            self.score -= 1
        self.step += 1

    def clone(self):
        new = _TrapState.__new__(_TrapState)
        new.config, new.rng = self.config, self.rng.copy()
        new.step, new.score, new.planted = self.step, self.score, self.planted
        return new

    def is_terminal(self):
        return self.step >= 2


class TrapGame(Game):
    """A move that looks worse one ply ahead (plant) and is better two ahead."""

    id, name, min_players, max_players = "trap", "Trap", 1, 1

    def new_initial_state(self, config):
        return _TrapState(config)

    def parse_action(self, state, text):
        return text

    def result(self, state):
        return GameResult(scores={"Alex": state.score}, winners=["Alex"] if state.score >= 3 else [],
                          ending="over", turns=state.step)

    def evaluate(self, state, seat, weights=None):
        return float(state.score)


def _trap_choice(spec: str, seed: int = 0) -> str:
    game = TrapGame()
    state = game.new_initial_state(game.config(1, seed=seed))
    return make_bot(spec).choose(game, state, Rng(seed))


def test_greedy_takes_the_bait_and_guided_search_plants():
    assert _trap_choice("greedy") == "bait"
    for spec in ("mcts:8:k=2:greedy:d=2", "mcts:8:prior=greedy:greedy:d=2",
                 "mcts:12:prior=greedy:k=3:greedy:d=2"):
        assert _trap_choice(spec) == "plant", spec


def test_a_sharper_prior_needs_more_iterations_to_look_past_the_best_rated_move():
    # at tau=0.3 plant's prior is about 1/60 of bait's: PUCT tries it only once
    # sqrt(N) times that prior outweighs bait's visits
    assert _trap_choice("mcts:16:prior=greedy:tau=0.3:greedy:d=2") == "bait"
    assert _trap_choice("mcts:128:prior=greedy:tau=0.3:greedy:d=2") == "plant"


def test_k_1_keeps_the_greedy_move_whatever_the_playouts_find():
    # the only candidate is the best-rated one, so there is nothing to compare
    assert _trap_choice("mcts:20:k=1:greedy:d=2") == "bait"


def test_candidates_are_the_best_rated_moves():
    game = TrapGame()
    state = game.new_initial_state(game.config(1))
    bot = parse_mcts("4:k=2:greedy:d=2")
    bot.choose(game, state, Rng(0))
    # the root was rated once and only the two best moves were searched
    from workbench.core.mcts import _Node
    root = _Node(1)
    candidates, priors = bot._candidates(game, root, state, 0, state.legal_actions())
    assert candidates == ["bait", "plant"] and priors is None
    assert root.ratings == {"junk1": -1.0, "bait": 1.0, "junk2": -1.0, "plant": 0.0, "junk3": -1.0}


def test_softmax_prior_follows_the_ratings():
    from workbench.core.mcts import softmax_prior
    p = softmax_prior([1.0, 0.0, -1.0], 1.0)
    assert abs(sum(p) - 1.0) < 1e-12 and p[0] > p[1] > p[2]
    assert softmax_prior([2.0, 2.0], 1.0) == [0.5, 0.5]
    # a lower temperature sharpens it
    assert softmax_prior([1.0, 0.0, -1.0], 0.25)[0] > p[0]


def test_guided_spec_parsing_and_name():
    bot = make_bot("mcts:32:greedy:d=4:prior=greedy:k=6:tau=0.5:eps=0.1")
    assert (bot.prior, bot.top_k, bot.tau, bot.epsilon, bot.playout, bot.depth) == ("greedy", 6, 0.5, 0.1, "greedy", 4)
    assert repr(bot) == "mcts:32:prior=greedy:k=6:tau=0.5:greedy:eps=0.1:d=4"
    assert repr(make_bot(repr(bot))) == repr(bot)


@pytest.mark.parametrize("spec", ["mcts:prior=best", "mcts:k=0", "mcts:k=x", "mcts:tau=0", "mcts:tau=nan",
                                  "mcts:eps=1.5", "mcts:eps=-0.1"])
def test_bad_guided_specs_are_refused(spec):
    with pytest.raises(WorkbenchError):
        make_bot(spec)


class RatingRace(PebbleRace):
    def __init__(self):
        self.ratings = 0

    def action_values(self, state, seat, actions, weights=None):
        self.ratings += 1
        return super().action_values(state, seat, actions, weights)


def test_guided_search_is_reproducible_legal_and_rates_each_node_once():
    game = RatingRace()
    state = game.new_initial_state(game.config(3, seed=5))
    bot = parse_mcts("30:prior=greedy:k=3:d=6")
    first = bot.choose(game, state, Rng(9))
    assert bot.last_iterations == 30
    # one rating per node of the tree at most: the root and one new node per iteration
    assert 1 <= game.ratings <= 31
    assert first == bot.choose(game, state, Rng(9))
    assert first in state.legal_actions()


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_guided_search_reproduces_in_every_game(game_id):
    from workbench.core.registry import get_game
    game = get_game(game_id)
    state = game.new_initial_state(game.config(game.default_players, seed=4))
    while len(state.legal_actions()) < 3:  # a decision with something to compare
        state.apply_action(state.legal_actions()[0])
    spec = "mcts:6:prior=greedy:k=3:greedy:d=2"
    first = make_bot(spec).choose(game, state, Rng(8))
    assert first in state.legal_actions()
    assert make_bot(spec).choose(game, state, Rng(8)) == first


def test_guided_mcts_beats_random_bots():
    wins = 0
    for i in range(20):
        state, _ = play_game(GAME, GAME.config(2, seed=300 + i), make_bots("mcts:16:prior=greedy:k=3:greedy:d=4,random", 2))
        wins += "Alex" in GAME.result(state).winners
    assert wins >= 14


class _Clock:
    """A stand-in for ``time``: every reading is 1 ms after the last."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 0.001
        return self.now


def test_time_budget_stops_the_guided_search_at_the_deadline(monkeypatch):
    import workbench.core.mcts as mcts
    monkeypatch.setattr(mcts, "time", _Clock())
    state = GAME.new_initial_state(GAME.config(3, seed=2))
    bot = parse_mcts("t=0.01:prior=greedy:k=3:greedy")
    assert bot.choose(GAME, state, Rng(0)) in state.legal_actions()
    # ten readings fit in the budget: the start, then one per iteration at most
    assert 1 <= bot.last_iterations <= 10


def test_guided_search_under_a_ban_never_rates_or_searches_the_banned_card():
    from workbench.core.restricted import RestrictedBot
    state = GAME.new_initial_state(GAME.config(2, seed=1))
    while "Gem" not in state.market:
        state = GAME.new_initial_state(GAME.config(2, seed=state.config.seed + 1))
    game = RatingRace()
    inner = parse_mcts("20:prior=greedy:k=2:greedy:d=3")
    bot = RestrictedBot("ban", "Gem", inner)
    rated = []
    original = game.action_values

    def spy(s, seat, actions, weights=None):
        if not rated:  # the first rating is the root's
            rated.extend(map(str, actions))
        return original(s, seat, actions, weights)

    game.action_values = spy
    assert str(bot.choose(game, state, Rng(0))) != "take Gem"
    assert rated and "take Gem" not in rated
