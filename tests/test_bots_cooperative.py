"""The Meaning Made greedy bot sees the group's fate (issue 15): at Meaning 0
with the table's last Support in hand, it keeps the Support for the Stability
Window instead of putting it on an Initiative, and donates it there. The
position is the one greedy bots threw away on seed 7 with 2 players (round 26):
both players at Legacy 30, Meaning 0, Brooke holding the only Support. Since
Meaning Made lays its decks out in the files' order before the shuffle (ruling
deck-order-before-shuffle) seed 7 deals another game; seed 2 reaches the same
kind of position (round 23), and the seeded test plays it."""

from __future__ import annotations

import pytest

from workbench.core.bots import GreedyBot
from workbench.core.registry import get_game
from workbench.core.rng import Rng
from workbench.games.meaning_made.evaluation import rescue

GAME = get_game("meaning-made")

SETUP = {
    "players": ["Alex", "Brooke"],
    "start": "turns",
    "turn": "Brooke",
    "world": {"meaning": 0, "world_layer": 9,
              "completed": ["Listening Circle", "Trade Standard", "Mentorship Chain"]},
    "players_state": {"Alex": {"E": 0, "I": 0, "S": 0, "legacy": 30, "vitals": 2},
                      "Brooke": {"E": 0, "I": 1, "S": 1, "legacy": 30, "vitals": 2}},
}


def _position():
    return GAME.scenario_state(dict(SETUP))


def _play_round(state, bot: GreedyBot):
    rng = Rng(7)
    start = state.round
    while not state.is_terminal() and state.round == start:
        state.apply_action(bot.choose(GAME, state, rng))
    return state


def test_the_position_offers_a_way_to_spend_the_last_support():
    state = _position()
    legal = [str(a) for a in state.legal_actions()]
    assert any(text.endswith("with S") for text in legal), legal
    assert rescue(state) == 1


def test_greedy_keeps_the_last_support_and_donates_it():
    state = _position()
    action = GreedyBot().choose(GAME, state, Rng(7))
    after = state.clone()
    after.apply_action(action)
    assert after.players[1].S >= 1, str(action)
    state = _play_round(state, GreedyBot())
    assert state.ending != "collapsed"
    assert state.meaning >= 1 or state.ending == "survived"


#: the seed whose greedy game reaches the position (7 under the name-sorted decks)
SEED = 2


def _seed7_round26():
    """Seed :data:`SEED`, 2 players, played by the greedy bot without the group-fate term
    (the bot of the issue) up to Brooke's turn at Meaning 0 holding the only Support."""
    from workbench.core.play import bot_rngs
    config = GAME.config(2, seed=SEED)
    state = GAME.new_initial_state(config)
    old = GreedyBot({"doom": 0.0})
    rngs = bot_rngs(config)
    while not state.is_terminal():
        seat = state.current_player()
        p = state.players
        if (state.phase == "turns" and seat == 1 and state.meaning == 0 and p[1].S == 1
                and p[0].S == 0 and p[0].E < 2):
            return state
        state.apply_action(old.choose(GAME, state, rngs[seat]))
    pytest.fail(f"the seed-{SEED} game no longer reaches the position of the issue")


def test_seed7_round26_greedy_donates_instead_of_contributing():
    state = _seed7_round26()
    old_choice = GreedyBot({"doom": 0.0}).choose(GAME, state, Rng(1))
    new_choice = GreedyBot().choose(GAME, state, Rng(1))
    old_after, new_after = state.clone(), state.clone()
    old_after.apply_action(old_choice)
    new_after.apply_action(new_choice)
    # the old bot spends the Support; the new one keeps it for the Window
    assert old_after.players[1].S == 0, str(old_choice)
    assert new_after.players[1].S == 1, str(new_choice)
    finished = _play_round(state, GreedyBot())
    assert finished.ending != "collapsed"
    assert _play_round(_seed7_round26(), GreedyBot({"doom": 0.0})).ending == "collapsed"


@pytest.mark.parametrize("phase_setup, expected", [({"start": "stability"}, 1), ({"start": "turns"}, 1)])
def test_rescue_counts_support_of_players_who_may_still_donate(phase_setup, expected):
    setup = dict(SETUP, **phase_setup)
    assert rescue(GAME.scenario_state(setup)) == expected
