"""The card-value terms: each game's evaluation reads what a card gives from the
pool (Meaning Made: what the Palette saves on the Patterns still ahead;
Mandate 2038: a project's printed yield; Pax Transhumanity: a syndicated
idea's effects), so an edit of that card changes its worth to a bot that
weighs the term (``greedy:card_value=1``); the plain greedy bot (weight 0)
plays as before, and every game's fast look-ahead still gives the values of
one plain look-ahead per action with the term on."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bots
from workbench.core.game import Game
from workbench.core.registry import get_game
from workbench.core.rng import Rng

ON = {"card_value": 1.0}


def _walk(game, players: int, seed: int, steps: int, bots: str = "greedy"):
    state = game.new_initial_state(game.config(players, seed=seed))
    seated, rng = make_bots(bots, players), Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply_action(seated[state.current_player()].choose(game, state, rng))


@pytest.mark.parametrize("game_id,players,steps", [("meaning-made", 3, 90), ("mandate-2038", 3, 90),
                                                   ("pax-transhumanity", 3, 70)])
def test_fast_look_ahead_equals_plain_look_ahead_with_the_term_on(game_id, players, steps):
    game = get_game(game_id)
    compared = 0
    for state in _walk(game, players, 5, steps, bots="greedy:card_value=1"):
        seat = state.current_player()
        actions = state.legal_actions()
        assert game.action_values(state, seat, actions, ON) == Game.action_values(game, state, seat, actions, ON)
        compared += len(actions)
    assert compared > 200


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_the_term_is_a_weight_the_bot_spec_accepts_and_off_by_default(game_id):
    game = get_game(game_id)
    assert "card_value" in game.weight_names()
    state = game.new_initial_state(game.config(3, seed=2))
    assert game.evaluate(state, 0, {"card_value": 0.0}) == game.evaluate(state, 0)


def test_a_projects_yield_is_read_from_its_card():
    from workbench.games.mandate_2038.evaluation import DEFAULT_WEIGHTS, project_yield_worth
    game = get_game("mandate-2038")
    state = game.new_initial_state(game.config(3, seed=2))
    base = project_yield_worth(state, "mega_cluster", DEFAULT_WEIGHTS)
    assert base > 0
    proj = state.content.projects["mega_cluster"]
    richer = proj.model_copy(update={"produces": {"compute": 2, "capability": 3}})
    state.content.projects["mega_cluster"] = richer
    try:
        assert project_yield_worth(state, "mega_cluster", DEFAULT_WEIGHTS) > base
        state.content.projects["mega_cluster"] = proj.model_copy(update={"produces": {}})
        assert project_yield_worth(state, "mega_cluster", DEFAULT_WEIGHTS) == 0.0
    finally:
        state.content.projects["mega_cluster"] = proj


def test_an_ideas_effects_are_read_from_its_card():
    from workbench.games.pax_transhumanity.evaluation import DEFAULT_WEIGHTS, idea_worth
    game = get_game("pax-transhumanity")
    state = game.new_initial_state(game.config(3, seed=2))
    idea = state.content.ideas["Gene Drive"]           # effects: growth
    assert idea_worth(idea, DEFAULT_WEIGHTS) == 0.0
    stronger = idea.model_copy(update={"effects": ("growth", "solve any", "found green maker")})
    assert idea_worth(stronger, DEFAULT_WEIGHTS) == DEFAULT_WEIGHTS["solved"] + DEFAULT_WEIGHTS["companies"]
    either = idea.model_copy(update={"effects": ("solve green or growth",)})
    assert idea_worth(either, DEFAULT_WEIGHTS) == DEFAULT_WEIGHTS["solved"]


def test_a_palettes_discount_counts_the_icons_it_meets_ahead():
    from workbench.games.meaning_made.evaluation import palette_discount
    game = get_game("meaning-made")
    state = game.new_initial_state(game.config(3, seed=2))
    p = state.players[0]
    assert palette_discount(state, 0) == 0.0 or any(p.layers)
    before = palette_discount(state, 0)
    p.layers = [0] + [3] * 6                          # a Palette that meets every icon
    assert palette_discount(state, 0) > before


def test_takers_gain_is_read_from_each_pools_takers_when_the_pools_take_the_card_in_other_games():
    """A bot that values a card takes it in other games in the new pool: the
    taker metrics then compare each pool's own takers (Welch's interval, as
    scipy gives it), chosen by which games take the card, never by the values."""
    import numpy as np
    from scipy.stats import ttest_ind

    from workbench.sim.progressive import _unpaired, welch_t_interval
    nan = float("nan")
    x = np.array([1.0, 2.0, nan, 4.0, 0.5, 3.0, nan])
    y = np.array([2.0, nan, nan, 6.0, nan, nan, 2.5])
    # 2 games take it in both pools of 6 in either: each pool's own takers
    assert _unpaired("card_taker_score:Shell", x, y)
    # 4 in both of 6 in either: the pairs (chosen by the takes alone)
    assert not _unpaired("card_taker_score:Shell", x, np.array([2.0, nan, nan, 6.0, 1.5, 5.0, 2.5]))
    assert not _unpaired("card_taker_score:Shell", x, np.where(np.isnan(x), nan, x + 1))   # the same games
    assert not _unpaired("card_first_round:Shell", x, y)                                   # not a taker metric
    lo, hi = welch_t_interval(x, y, 0.9)
    ci = ttest_ind(y[~np.isnan(y)], x[~np.isnan(x)], equal_var=False).confidence_interval(0.9)
    assert (lo, hi) == pytest.approx((ci.low, ci.high))
    assert welch_t_interval(np.array([1.0, 1.0]), np.array([1.0, 1.0, 1.0]), 0.9) == (None, None)
