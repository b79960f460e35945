"""Mandate 2038: scenario files, Python checks of the source's claims, the
rulebook template, and hypothesis properties of random games."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from workbench.core.bots import make_bots
from workbench.core.play import bot_rngs
from workbench.core.scenario import run_file, scenario_files
from workbench.games.mandate_2038 import GAME, audit, board
from workbench.rules.checks import load_game_checks

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards" / "mandate_2038"
FILES = scenario_files("mandate-2038")


def test_at_least_25_scenarios():
    assert len(FILES) >= 25


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_passes(path):
    res = run_file(path)
    assert res.passed, [d.message for d in res.divergences]


def test_scenario_clauses_exist_in_the_rulebook():
    clauses = set(re.findall(r"<!-- rule: (\S+) -->", (CARDS / "rules" / "en.md").read_text()))
    for path in FILES:
        res = run_file(path)
        assert set(res.checks) <= clauses, (path.name, set(res.checks) - clauses)
    for chk in load_game_checks("mandate-2038"):
        assert set(chk.clauses) <= clauses


def test_python_checks_pass():
    checks = load_game_checks("mandate-2038")
    assert len(checks) >= 5
    for chk in checks:
        ok, msg = chk.run()
        assert ok, (chk.name, msg)


def test_audit_formula_table():
    assert audit.audit_table() == {2: [1, 2, 2, 3], 3: [2, 2, 3, 4], 4: [2, 3, 4, 5], 5: [3, 4, 5, 6]}
    assert audit.draws_for(1, 2) == 1          # 0.5 rounds up
    assert audit.draws_for(2, 1) == 1          # minimum one


def test_every_source_placeholder_is_defined():
    """Every ${...} key our template uses resolves from our terms and content."""
    from workbench.rules.placeholders import context_for, find_placeholders, resolve_one
    text = (CARDS / "rules" / "en.md").read_text()
    for lang in ("en", "hu"):
        ctx = context_for("mandate-2038", lang, game=GAME)
        for ph in find_placeholders(text):
            assert resolve_one(ph, ctx)


# -- properties of random games ------------------------------------------------------

def _invariants(state):
    content = state.content
    cubes = content.supply["scrutinyCubes"]
    assert state.bag_black + state.black_supply == content.shared["systemicRiskCubes"]
    revealed = state.run["revealed"] if state.run else []
    assert Counter(state.deck + state.discard + revealed) == Counter(content.training_deck())
    per_tile = Counter()
    for seat, p in enumerate(state.players):
        assert 0 <= p.runway <= 12 and 0 <= p.compute <= 10 and 0 <= p.trust <= 6
        assert 0 <= p.bag <= cubes and 0 <= p.customers <= 5 and p.mandate >= 0 and p.capability >= 0
        assert len(p.agents) == 4 and len(p.facilities) == 4
        deployed = [a for a in p.agents if a is not None]
        assert len(deployed) >= 2
        for pos in p.facilities:
            if pos is not None:
                assert pos != board.FRONTIER_POS
                per_tile[pos] += 1
        built = [f for f in p.facilities if f is not None]
        assert p.facilities[:len(built)] == built        # built in number order, never removed
        for pid, host in p.projects.items():
            assert p.facilities[host] is not None
        if p.generator is not None:
            assert state.tiles[p.generator] in content.energy_tiles
    assert all(n <= content.facility_spaces for n in per_tile.values())
    gens = Counter(p.generator for p in state.players if p.generator is not None)
    assert all(n <= content.generator_slots for n in gens.values())
    pairs = [v["pair"] for v in state.ventures]
    assert len(pairs) == len(set(pairs)) and all(1 <= k <= 6 for k in pairs)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_random_games_end_and_keep_invariants(seed, players):
    config = GAME.config(players, seed=seed)
    state = GAME.new_initial_state(config)
    bots = make_bots("random", players)
    rngs = bot_rngs(config)
    steps = 0
    while not state.is_terminal():
        _invariants(state)
        seat = state.current_player()
        state.apply_action(bots[seat].choose(GAME, state, rngs[seat]))
        steps += 1
        assert steps < 5000
    _invariants(state)
    res = GAME.result(state)
    assert res.turns == 12 and res.winners
