"""Every kind of move a game offers has its one-line help (``Game.move_help``), the
line a playtest seat page shows beside that kind's buttons: seeded random games of
every installed game, every legal move of every position seen, grouped by kind as
the seat page groups them (the notation's first word)."""

from __future__ import annotations

import pytest

from workbench.core.registry import game_ids, get_game
from workbench.core.rng import Rng

PLIES = 400      # per game: long enough to reach every phase of the shortest games


def _kinds_offered(game, seed: int) -> set[str]:
    state = game.new_initial_state(game.config(game.default_players, seed=seed))
    rng, kinds = Rng(seed), set()
    for _ in range(PLIES):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        kinds |= {(game.format_action(state, a).split() or ["?"])[0] for a in legal}
        state.apply_action(rng.choice(legal))
    return kinds


@pytest.mark.parametrize("gid", game_ids())
def test_every_move_kind_offered_has_its_help_line(gid):
    game = get_game(gid)
    offered = set().union(*(_kinds_offered(game, seed) for seed in (3, 17)))
    missing = offered - set(game.move_help)
    assert not missing, f"{gid}: no help line for {sorted(missing)}"
    for kind, line in game.move_help.items():
        # one plain sentence a player reads at a glance
        assert line.strip() and "\n" not in line and len(line) <= 130 and line.endswith("."), (gid, kind)
