"""The game contract, checked on every registered game and the toy template by
the shipped conformance kit (:mod:`workbench.testing`), the same kit a plugin's
own tests and ``workbench check GAME`` run: a bundled game is held to exactly
what a designer's game is. A game added to the registry is checked here without
a new line of test code; the kit's checks themselves are tested for blindness
in tests/test_conformance_kit.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.registry import game_ids, get_game
from workbench.games.pebble_race import GAME as TOY
from workbench.testing import CHECKS, Kit, run_check

TOY_SCENARIO = Path(__file__).parent / "data" / "pebble-race-market.yaml"
GAMES = {gid: get_game(gid) for gid in game_ids()}
GAMES[TOY.id] = TOY
KITS = {gid: Kit() for gid in GAMES}
KITS[TOY.id] = Kit(scenario_files=(TOY_SCENARIO,))


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("gid", list(GAMES))
def test_the_shipped_kit_passes(gid, check):
    assert run_check(GAMES[gid], check, KITS[gid]) == []


def test_every_game_has_scenarios():
    from workbench.core.scenario import scenario_files
    for gid in game_ids():
        assert scenario_files(gid), gid


def test_toy_scenario_runs():
    from workbench.core.scenario import run_file
    assert run_file(TOY_SCENARIO, game=TOY).passed
