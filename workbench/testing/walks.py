"""Seeded random games for the conformance kit: the positions a check looks at.

Every walk draws its moves from its own stream (``derive_seed(seed, purpose)``),
so the same game, seed and purpose give the same positions on any machine."""

from __future__ import annotations

import pickle

from workbench.core.game import Game
from workbench.core.rng import Rng, derive_seed


def player_counts(game: Game) -> list[int]:
    """The fewest, the default and the most players the game takes."""
    return sorted({game.min_players, game.default_players, game.max_players})


def snapshot(state) -> bytes:
    """Everything the state holds, its random stream included, as bytes."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def restore(data: bytes):
    return pickle.loads(data)


def random_walk(game: Game, players: int, seed: int, steps: int, purpose: str = "contract"):
    """``(state before, action chosen)`` pairs of a seeded random game at most
    ``steps`` actions long, and the state it ended in."""
    state = game.new_initial_state(game.config(players, seed=seed))
    rng = Rng(derive_seed(seed, purpose))
    out = []
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        out.append((state.clone(), action))
        state.apply_action(action)
    return out, state


def positions(game: Game, players: int, seed: int, steps: int, every: int) -> list:
    """One position every ``every`` actions of a seeded random game, then its end."""
    walk, end = random_walk(game, players, seed, steps, purpose="observation")
    return [state for state, _ in walk[::every]] + [end]
