"""``Game.observation``: what a playtest room sends one seat (pgx-style, one
test over every game).

What a seat cannot see is exactly what ``determinize`` re-draws for it, so an
observation holds nothing hidden when it reads the same in every sample the
seat could be in; and a seat can act from its observation alone when the legal
moves it lists are those of the state (and of every sample). A planted leak
(a game whose observation shows a rival's hidden value) must fail the check."""

from __future__ import annotations

import json

import pytest

from workbench.core.game import Game
from workbench.core.registry import game_ids, get_game
from workbench.core.rng import Rng, derive_seed
from workbench.games.pebble_race import GAME as TOY

GAMES = {gid: get_game(gid) for gid in game_ids()}
GAMES[TOY.id] = TOY
SAMPLES = 4


def _positions(game: Game, players: int, seed: int, steps: int, every: int):
    """Positions of a seeded random game, one every ``every`` actions, then its end."""
    state = game.new_initial_state(game.config(players, seed=seed))
    rng = Rng(derive_seed(seed, "observation"))
    out = []
    for step in range(steps):
        if state.is_terminal():
            break
        if step % every == 0:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])
    out.append(state)
    return out


def leaks(game: Game, state, seat: int, samples: int = SAMPLES) -> list[str]:
    """Why ``seat``'s observation of ``state`` is not safe (empty: it is)."""
    obs = game.observation(state, seat)
    problems = []
    if json.loads(json.dumps(obs, allow_nan=False)) != obs:
        problems.append("not plain JSON")
    legal = [game.format_action(state, a) for a in state.legal_actions()]
    if obs["to_move"] and obs["legal"] != legal:
        problems.append("legal moves differ from the state's")
    if not obs["to_move"] and obs["legal"]:
        problems.append("lists moves while another seat acts")
    for k in range(samples):
        sample = game.determinize(state, seat, Rng(derive_seed(k, "sample")))
        seen = game.observation(sample, seat)
        if seen != obs:
            diff = sorted(key for key in set(seen["table"]) | set(obs["table"])
                          if seen["table"].get(key) != obs["table"].get(key))
            problems.append(f"sample {k} reads differently at {diff or 'the seat wrapper'}")
            break
    return problems


@pytest.mark.parametrize("gid", list(GAMES))
def test_observation_shows_nothing_the_seat_cannot_know(gid):
    game = GAMES[gid]
    for players in sorted({game.min_players, game.default_players, game.max_players}):
        for seed in (1, 2):
            for state in _positions(game, players, seed, steps=240, every=17):
                for seat in range(players):
                    assert leaks(game, state, seat) == [], (players, seed, seat)


@pytest.mark.parametrize("gid", list(GAMES))
def test_a_seat_to_move_can_act_from_its_observation(gid):
    game = GAMES[gid]
    state = _positions(game, game.default_players, 3, steps=1, every=1)[0]
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_player()
        obs = game.observation(state, seat)
        assert obs["to_move"] and obs["legal"]
        # every listed move parses back and is accepted
        state.apply_action(game.parse_action(state, obs["legal"][len(obs["legal"]) // 2]))


def test_hidden_games_declare_it():
    for game in GAMES.values():
        if type(game).determinize is not Game.determinize:
            assert game.hidden_information, game.id
        if game.hidden_information:
            assert type(game).observation is not Game.observation or type(game).determinize is not Game.determinize


#: planted leaks: a game's observation with one hidden value added back
PLANTED = {
    "pax secret": ("pax-transhumanity", lambda state: {"secrets": list(state.secret)}),
    "pax deck order": ("pax-transhumanity", lambda state: {"deck": list(state.deck)}),
    "mandate face-down picks": ("mandate-2038", lambda state: {"picks": list(state.selections)}),
    "mandate unrevealed mandates": ("mandate-2038", lambda state: {"mandates": [list(p) for p in state.mandate_decks]}),
    "meaning made deck order": ("meaning-made", lambda state: {"patterns": list(state.pattern_deck)}),
}


@pytest.mark.parametrize("leak", list(PLANTED))
def test_a_planted_leak_is_caught(leak):
    gid, extra = PLANTED[leak]
    base = GAMES[gid]

    class Leaky(type(base)):
        def observation(self, state, seat):
            obs = super().observation(state, seat)
            obs["table"].update(json.loads(json.dumps(extra(state))))
            return obs

    leaky = Leaky()
    caught = 0
    for state in _positions(leaky, leaky.default_players, 1, steps=240, every=7):
        seat = (state.current_player() + 1) % state.num_players if not state.is_terminal() else 0
        caught += any("differently" in p for p in leaks(leaky, state, seat))
    assert caught, leak
