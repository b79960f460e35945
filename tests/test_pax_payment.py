"""Payment as the player's choice in Pax Transhumanity's notation (ruling payment-choice)."""

from __future__ import annotations

import pytest

from workbench.core.errors import IllegalAction, NotationError
from workbench.games.pax_transhumanity import GAME

SETUP = {"players": ["Alex", "Brooke"],
         "splay": ["Gene Drive/yellow", "Swarm Robotics/yellow", "Space Elevator Tether/blue",
                   "Orbital Mirror/orange", "Senolytic Therapy/green"],
         "market": {"green": [None, None, "Synthetic Genome", "Universal Translator"]},
         "players_state": {"Alex": {"capital": 3, "wealth": 0, "debt": 0, "patents": {"yellow": 1, "orange": 1}}}}


def test_notation_round_trip_and_refusals():
    state = GAME.scenario_state(SETUP)
    a = GAME.parse_action(state, "syndicate Synthetic Genome selling Yellow")
    assert a.sell == ("yellow",) and str(a) == "syndicate Synthetic Genome selling yellow"
    assert GAME.parse_action(state, str(a)) == a
    with pytest.raises(NotationError, match="not a Patent colour"):
        GAME.parse_action(state, "syndicate Synthetic Genome selling purple")
    with pytest.raises(NotationError, match="pays nothing"):
        GAME.parse_action(state, "fundraise selling yellow")


def test_refused_sale_changes_nothing():
    state = GAME.scenario_state(SETUP)
    before = GAME.observe(state)
    for text in ("syndicate Synthetic Genome selling blue", "syndicate Synthetic Genome selling yellow orange"):
        with pytest.raises(IllegalAction):
            state.apply_action(GAME.parse_action(state, text))
        assert GAME.observe(state) == before


def test_bots_are_offered_both_ways_to_pay_and_each_is_legal():
    state = GAME.scenario_state(SETUP)
    legal = state.legal_actions()
    sales = [a for a in legal if a.sell]
    assert sales, "no selling variant offered although a Patent could pay"
    for a in sales:
        assert a._replace(sell=()) in legal           # the default beside it
        trial = state.clone()
        trial.apply_action(a)
        assert trial.sell_choice == ()


def test_whole_games_with_bots_finish():
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    for seed in (2, 3):
        state, log = play_game(GAME, GAME.config(4, seed=seed), make_bots("greedy", 4))
        assert state.is_terminal()
