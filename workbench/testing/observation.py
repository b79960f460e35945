"""The conformance kit's observation checks: what a seat is sent holds nothing
it may not know, and is enough to act on.

What a seat cannot see is exactly what ``determinize`` re-draws for it, so an
observation holds nothing hidden when it reads the same in every sample the
seat could be in; and a seat can act from its observation alone when the legal
moves it lists are those of the state."""

from __future__ import annotations

import json

from workbench.core.game import Game
from workbench.core.rng import Rng, derive_seed

from .walks import player_counts, positions


def leaks(game: Game, state, seat: int, samples: int = 4) -> list[str]:
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
            table, other = obs.get("table") or {}, seen.get("table") or {}
            diff = sorted(key for key in set(other) | set(table) if other.get(key) != table.get(key))
            problems.append(f"sample {k} reads differently at {diff or 'the seat wrapper'}")
            break
    return problems


def check_observation_leaks(game: Game, kit) -> list[str]:
    """Every seat's observation, at positions along random games at every player
    count, reads the same in each ``determinize`` sample of that seat."""
    out = []
    for players in player_counts(game):
        for seed in kit.seeds:
            for state in positions(game, players, seed, steps=kit.observation_steps, every=kit.observation_every):
                for seat in range(players):
                    out += [f"{players} players, seed {seed}, seat {seat}: {p}"
                            for p in leaks(game, state, seat, kit.samples)]
                if len(out) > 5:
                    return out
    return out


def check_acting_from_the_observation(game: Game, kit) -> list[str]:
    """A seat to move finds moves in its observation, and each one it is shown parses and is accepted."""
    state = game.new_initial_state(game.config(game.default_players, seed=3))
    for step in range(60):
        if state.is_terminal():
            break
        seat = state.current_player()
        obs = game.observation(state, seat)
        if not (obs["to_move"] and obs["legal"]):
            return [f"step {step}: the seat to move is shown no moves"]
        state.apply_action(game.parse_action(state, obs["legal"][len(obs["legal"]) // 2]))
    return []


def check_hidden_information_is_declared(game: Game, kit) -> list[str]:
    """A game that re-draws anything for a seat declares hidden information,
    and a game that declares it masks something (``observation`` or ``determinize``)."""
    out = []
    if type(game).determinize is not Game.determinize and not game.hidden_information:
        out.append("determinize re-draws what a seat cannot see, but hidden_information is False")
    if game.hidden_information and type(game).observation is Game.observation \
            and type(game).determinize is Game.determinize:
        out.append("hidden_information is True, but neither observation nor determinize hides anything")
    return out


def check_determinize_keeps_what_the_seat_sees(game: Game, kit) -> list[str]:
    """A sample for the seat to move is a new state with the same legal moves."""
    from .walks import random_walk
    walk, _ = random_walk(game, game.default_players, 6, 30)
    if not walk:
        return []
    state = walk[-1][0]
    seat = state.current_player()
    sample = game.determinize(state, seat, Rng(9))
    out = []
    if sample is state:
        out.append("determinize returned the state itself, not a copy")
    if [str(a) for a in sample.legal_actions()] != [str(a) for a in state.legal_actions()]:
        out.append("a sample for the seat to move lists other moves than the state")
    return out
