"""Behaviour pinned for fixed seeds: every case in ``tests/data/differential``
must print the same ``workbench play --json`` bytes, and give the same
``simulate`` tables, as the engines did when the fixtures were written.

Over 200 games per game (every player count, the variants and ruling switches
that change play, random, greedy and mixed tables). A failure names the
command that now plays differently; replay it with ``workbench play ...``
before and after the change to see the first diverging action. Regenerate
the fixtures only for a deliberate change of behaviour (see
``tests/data/differential/regenerate.py``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "differential"
sys.path.insert(0, str(DATA))

from cases import case_label, covering_sample, play_cases, play_digest, sim_cases, sim_digests  # noqa: E402

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


#: set by the other-build test (tests/test_meaning_made_native.py): play only a
#: covering sample of the cases (every player count, bot kind, variant and option
#: value), as the build the suite runs plays all of them
SAMPLE = os.environ.get("WORKBENCH_DIFFERENTIAL_SAMPLE") == "cover"


def _golden(game: str) -> list[dict]:
    return json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))["cases"]


def _played(game: str) -> list[dict]:
    plays = [g for g in _golden(game) if g["kind"] == "play"]
    if SAMPLE:
        plays = [plays[i] for i in covering_sample([g["case"] for g in plays])]
    return plays


@pytest.mark.parametrize("game", GAMES)
def test_fixture_matches_the_recipe(game):
    """The stored cases are exactly the ones ``cases.py`` generates (at least
    200 played games per game), so no case is silently dropped."""
    golden = _golden(game)
    plays = [g["case"] for g in golden if g["kind"] == "play"]
    sims = [g["case"] for g in golden if g["kind"] == "simulate"]
    assert plays == play_cases(game)
    assert sims == sim_cases(game)
    assert len(plays) >= 200
    players = {c["players"] for c in plays}
    from workbench.core.registry import get_game
    g = get_game(game)
    assert players == set(range(g.min_players, g.max_players + 1))


@pytest.mark.parametrize("game", GAMES)
def test_play_json_is_byte_identical(game):
    changed = [case_label(g["case"]) for g in _played(game) if play_digest(g["case"]) != g["sha256"]]
    assert not changed, f"{len(changed)} games play differently, first: {changed[:3]}"


@pytest.mark.parametrize("game", GAMES)
def test_simulate_tables_are_identical(game):
    changed = []
    for g in _golden(game):
        if g["kind"] != "simulate":
            continue
        now = sim_digests(g["case"])
        changed += [f"{case_label(g['case'])}: {table} table" for table, digest in g["sha256"].items()
                    if now[table] != digest]
    assert not changed, f"simulate tables differ: {changed}"


@pytest.mark.parametrize("game", GAMES)
def test_the_other_builds_sample_covers_every_setting(game):
    """The other build's run plays a covering sample: every player count, bot
    kind, variant and option value of the recipe is in it, and it is smaller."""
    from cases import _features
    cases = play_cases(game)
    sample = covering_sample(cases)
    assert len(sample) < len(cases) / 2
    assert set().union(*(_features(cases[i]) for i in sample)) == set().union(*map(_features, cases))
    assert {cases[i]["players"] for i in sample} == {c["players"] for c in cases}
