"""The greedy bot chooses exactly what plain look-ahead would make it choose,
in every game, on whichever build runs (pure or compiled).

The reference is worked out live, never read from a stored fixture: at each
position the values of :meth:`Game.action_values` as the base class defines it
(clone the state, apply the action, evaluate the whole position, for every
action) against the game's own ``action_values`` (its shared look-aheads,
scratch copies, keys and compiled evaluation), float for float, and the bot's
choice from each with the same random stream. So the evaluation's terms can
change (each game keeps its evaluation a function of its own) and this still
says whether the fast path rates positions as the plain one does.
"""

from __future__ import annotations

import pytest

from workbench.core.bots import GreedyBot, make_bots
from workbench.core.game import Game
from workbench.core.registry import get_game
from workbench.core.rng import Rng

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _positions(game, players: int, seed: int, bots: str, steps: int, every: int):
    """Every ``every``-th position along a game of ``bots`` (advanced in place)."""
    state = game.new_initial_state(game.config(players, seed=seed))
    seats = make_bots(bots, players)
    rng = Rng(seed + 77)
    for step in range(steps):
        if state.is_terminal():
            return
        if step % every == 0:
            yield state
        state.apply_action(seats[state.current_player()].choose(game, state, rng))


class _Reference(GreedyBot):
    """The greedy bot on plain look-ahead: one clone, apply and whole
    evaluation per action (``Game.action_values`` of the base class)."""

    def choose(self, game, state, rng):
        class Plain:
            def action_values(_, state, seat, actions, weights=None):
                return Game.action_values(game, state, seat, actions, weights)
        return super().choose(Plain(), state, rng)


@pytest.mark.parametrize("game_id", GAMES)
def test_greedy_fast_path_chooses_as_plain_look_ahead(game_id):
    """Along greedy and random games on fixed seeds, for the mover (the seat the
    greedy bot rates for), with default and with changed weights: equal values,
    equal choices."""
    game = get_game(game_id)
    players = game.default_players
    weights = sorted(game.weight_names() or ())
    changed = {name: 0.5 + i % 3 for i, name in enumerate(weights[:4])}
    positions = compared = 0
    for seed, bots in ((11, "greedy"), (12, "random")):
        for state in _positions(game, players, seed, bots, steps=300, every=3):
            seat = state.current_player()
            actions = state.legal_actions()
            for w in (None, changed or None):
                fast = game.action_values(state, seat, actions, w)
                plain = Game.action_values(game, state, seat, actions, w)
                assert fast == plain, (game_id, seed, actions[:3], w)
                compared += len(actions)
                bot, ref = GreedyBot(w), _Reference(w)
                assert bot.choose(game, state, Rng(seed)) == ref.choose(game, state, Rng(seed))
            positions += 1
    assert positions > 60 and compared > 1000
