"""Pax Transhumanity bot evaluation: how endings and long games are valued, and
that the leaner legal-move lists still list exactly the legal moves."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bots
from workbench.core.play import play_game
from workbench.games.pax_transhumanity import GAME
from workbench.games.pax_transhumanity import scoring
from workbench.games.pax_transhumanity.evaluation import DEFAULT_WEIGHTS, ending_value, tycoon_progress


def _finished(solved_counts):
    """A fresh 3-player game declared over by Plurality with the given number of
    problems solved per seat in a sphere nobody holds as Secret."""
    state = GAME.new_initial_state(GAME.config(3, seed=5))
    while state.decision is not None:          # the Secret sphere choices
        state.apply_action(state.legal_actions()[0])
    secrets = set(state.secret)
    sphere = next(s for s in ("yellow", "green", "blue", "orange") if s not in secrets)
    for seat, n in enumerate(solved_counts):
        state.solved[seat] = {sphere: n} if n else {}
    state.ending = "plurality"
    return state


def test_ending_value_follows_rank_and_margin():
    state = _finished([3, 1, 0])
    assert scoring.scores(state) == [3, 1, 0]
    w = DEFAULT_WEIGHTS
    assert ending_value(state, 0, w) == w["win"] + w["margin"] * 2
    assert ending_value(state, 1, w) == w["loss"] / 2 + w["margin"] * -2
    assert ending_value(state, 2, w) == w["loss"] + w["margin"] * -3
    # with spend_by off every feature keeps its full weight
    values = [GAME.evaluate(state, s, {"spend_by": 0}) - sum(DEFAULT_WEIGHTS.get(k, 0) * v
                                                             for k, v in GAME.features(state, s).items())
              for s in range(3)]
    assert values == [ending_value(state, s, w) for s in range(3)]


def test_tie_on_points_is_broken_by_capital_for_the_ending_value():
    state = _finished([2, 2, 0])
    state.fin[0][0], state.fin[1][0] = 5, 1
    assert scoring.winners(state) == [0]
    w = DEFAULT_WEIGHTS
    assert ending_value(state, 0, w) == w["win"]
    assert ending_value(state, 1, w) == w["loss"] / 2      # second place, level on points


def test_unfinished_positions_pay_the_stall_charge_per_round():
    state = GAME.new_initial_state(GAME.config(3, seed=2))
    w = {"spend_by": 0}                         # holdings at full weight, so only the stall charge moves
    early = GAME.evaluate(state, 0, w)
    state.round += 10
    assert GAME.evaluate(state, 0, w) == pytest.approx(early - 10 * DEFAULT_WEIGHTS["stall"])
    assert GAME.evaluate(state, 0, {"spend_by": 0, "stall": 0.0}) == pytest.approx(early + DEFAULT_WEIGHTS["stall"])
    state.ending = "timeout"                    # the safety stop is no ending: still charged
    assert GAME.evaluate(state, 0, w) == pytest.approx(early - 10 * DEFAULT_WEIGHTS["stall"])


def test_money_held_is_worth_nothing_by_spend_by():
    state = GAME.new_initial_state(GAME.config(3, seed=2))
    state.round = 30
    rich = state.clone()
    rich.fin[0][0] += 4                        # four more agents in Capital
    w = {"spend_by": 30}
    assert GAME.evaluate(rich, 0, w) == pytest.approx(GAME.evaluate(state, 0, w))
    state.round = rich.round = 10
    assert GAME.evaluate(rich, 0, w) > GAME.evaluate(state, 0, w)


def test_tycoon_progress_grows_faster_near_the_fifth_company():
    settings = {"tycoon_company": 5}
    steps = [tycoon_progress(n + 1, settings) - tycoon_progress(n, settings) for n in range(4)]
    assert steps == sorted(steps) and steps[0] < steps[-1]


@pytest.mark.parametrize("seed", [3, 12])
def test_greedy_games_that_used_to_stall_now_end_by_the_rules(seed):
    # seed 12 (3 players) reached the round limit under the old flat -1000 evaluation,
    # seed 3 under a draft of this one that still valued hoarded money
    state, _ = play_game(GAME, GAME.config(3, seed=seed), make_bots("greedy", 3))
    assert state.ending in ("tipping-point", "singular", "plurality", "tycoon")


def test_listed_moves_are_exactly_the_legal_ones_along_a_random_game():
    """Every listed move applies; a sample of unlisted Imports and Syndicates is refused."""
    from workbench.core.errors import IllegalAction
    from workbench.core.rng import Rng
    from workbench.games.pax_transhumanity.notation import A
    state = GAME.new_initial_state(GAME.config(3, seed=9))
    rng = Rng(4)
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for action in legal:
            state.clone().apply_action(action)        # raises if a listed move is illegal
        if state.decision is None and state.actions_left > 0:
            listed = set(legal)
            for idea in state.market_ideas():
                for cand in (A("syndicate", idea, False), A("import", idea, "blue", 0)):
                    if cand not in listed:
                        with pytest.raises(IllegalAction):
                            state.clone().apply_action(cand)
        state.apply_action(rng.choice(legal))
