"""Restricted-play bots ban or force one card through Game.action_cards."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bot, make_bots
from workbench.core.errors import WorkbenchError
from workbench.core.play import play_game
from workbench.core.restricted import RestrictedBot
from workbench.core.rng import Rng
from workbench.games.pebble_race import GAME


def _taken_by(log_seats, card):
    return [seat for seat, text in log_seats if text == f"take {card}"]


def _play(specs, seed, players=3):
    config = GAME.config(players, seed=seed)
    bots = make_bots(specs, players)
    seats = []
    _, log = play_game(GAME, config, bots)
    # rebuild who played each action by replaying the log
    replay = GAME.new_initial_state(config)
    for text in log:
        seats.append((replay.current_player(), text))
        replay.apply_action(GAME.parse_action(replay, text))
    return seats, bots


def test_spec_builds_the_inner_bot():
    bot = make_bot("ban:Shell:mcts:30")
    assert isinstance(bot, RestrictedBot)
    assert (bot.mode, bot.card, repr(bot.inner)) == ("ban", "Shell", "mcts:30")
    assert repr(make_bot("force:gem")) == "force:gem:greedy"


@pytest.mark.parametrize("spec,card,inner", [
    ("ban:Tipping Point: Post-Scarcity", "Tipping Point: Post-Scarcity", "greedy"),
    ("ban:Tipping Point: Post-Scarcity:random", "Tipping Point: Post-Scarcity", "random"),
    ("force:Tipping Point: Post-Scarcity:mcts:30", "Tipping Point: Post-Scarcity", "mcts:30"),
    ("ban:Shell: greedy", "Shell", "greedy"),
    ("ban:Shell:", "Shell", "greedy"),
])
def test_a_card_name_may_hold_a_colon(spec, card, inner):
    bot = make_bot(spec)
    assert (bot.card, repr(bot.inner)) == (card, inner)


def test_a_misspelt_inner_bot_is_named_as_a_bot():
    with pytest.raises(WorkbenchError, match="unknown bot 'gredy'"):
        make_bot("ban:Shell:gredy")


def test_a_pax_card_with_a_colon_is_checked_and_restricted():
    from workbench.core.bots import check_specs
    from workbench.core.registry import get_game
    pax = get_game("pax-transhumanity")
    named = sorted(c for c in pax.card_names() if ": " in c)
    assert named                                     # the pool has such names
    check_specs(pax, f"ban:{named[0]}:random,greedy")
    with pytest.raises(WorkbenchError, match="has no card"):
        check_specs(pax, "ban:Tipping Point: Nowhere,greedy")


def test_missing_card_is_refused():
    with pytest.raises(WorkbenchError):
        make_bot("ban:")


@pytest.mark.parametrize("seed", range(8))
def test_banned_card_is_never_taken(seed):
    seats, bots = _play("ban:Shell:random,random", seed)
    assert 0 not in _taken_by(seats, "Shell")
    assert bots[0].offered > 0  # the card was on offer, so the ban did bind


@pytest.mark.parametrize("seed", range(8))
def test_forced_card_is_taken_whenever_offered(seed):
    config = GAME.config(2, seed=seed)
    bots = make_bots("force:Gem:random,random", 2)
    state = GAME.new_initial_state(config)
    rngs = [Rng(seed + s) for s in range(2)]
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].choose(GAME, state, rngs[seat])
        if seat == 0 and "Gem" in state.market:
            assert str(action) == "take Gem"
        state.apply_action(action)


def test_ban_changes_play_compared_with_the_free_bot():
    free = [_play("greedy", s)[0] for s in range(6)]
    banned = [_play("ban:Gem:greedy,greedy", s)[0] for s in range(6)]
    assert free != banned


def test_ban_wrapping_mcts_never_searches_the_banned_card_at_the_root():
    from workbench.core.mcts import MCTSBot
    state = GAME.new_initial_state(GAME.config(2, seed=1))
    while "Gem" not in state.market:
        state = GAME.new_initial_state(GAME.config(2, seed=state.config.seed + 1))
    inner = MCTSBot(30)
    seen = []
    original = inner._iterate

    def spy(game, root, sample, rng, bounds, root_legal):
        seen.append(list(root_legal))
        return original(game, root, sample, rng, bounds, root_legal)

    inner._iterate = spy
    bot = RestrictedBot("ban", "Gem", inner)
    assert str(bot.choose(GAME, state, Rng(0))) != "take Gem"
    assert seen and all("take Gem" not in map(str, legal) for legal in seen)
