"""Pax Transhumanity: scenarios, Python checks, notation, refusals and data errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core.errors import DataError, IllegalAction, NotationError, WorkbenchError
from workbench.core.scenario import run_file, scenario_files
from workbench.games.pax_transhumanity import GAME
from workbench.rules.checks import load_game_checks

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = scenario_files("pax-transhumanity")


def test_at_least_thirty_scenarios():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(path):
    result = run_file(path)
    assert result.passed, [d.message for d in result.divergences]


@pytest.mark.parametrize("chk", load_game_checks("pax-transhumanity"), ids=lambda c: c.name.split(".")[-1])
def test_python_check(chk):
    ok, message = chk.run()
    assert ok, message


def test_scenario_catches_a_wrong_claim(tmp_path):
    src = (ROOT / "cards/pax_transhumanity/scenarios/fundraise-steps.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text(src.read_text().replace("capital: 5", "capital: 6"))
    assert not run_file(bad).passed


def _fresh(seed=4, players=3):
    st = GAME.new_initial_state(GAME.config(players, seed=seed))
    while st.decision is not None:
        st.apply_action(st.legal_actions()[0])
    return st


def test_notation_round_trips_for_every_legal_action():
    st = _fresh()
    seen = 0
    for _ in range(60):
        for action in st.legal_actions():
            text = GAME.format_action(st, action)
            assert GAME.parse_action(st, text) == action, text
            assert GAME.parse_action(st, text.upper()) == action
            seen += 1
        st.apply_action(st.legal_actions()[-2] if len(st.legal_actions()) > 1 else st.legal_actions()[0])
        if st.is_terminal():
            break
    assert seen > 100


def test_illegal_action_changes_nothing():
    st = _fresh()
    before = GAME.observe(st)
    for text in ("commercialize Gene Drive down yellow via splay labour yellow M2", "hire yellow M1",
                 "placate Gene Drive white", "research blue labour blue T1 to discard", "raise"):
        with pytest.raises((IllegalAction, NotationError)):
            st.apply_action(GAME.parse_action(st, text))
        assert GAME.observe(st) == before


def test_misspelt_idea_suggests_the_nearest():
    st = _fresh()
    with pytest.raises(NotationError, match="did you mean 'Gene Drive'"):
        GAME.parse_action(st, "syndicate Gene Drve")
    with pytest.raises(NotationError, match="did you mean 'syndicate'"):
        GAME.parse_action(st, "syndcate Gene Drive")


def test_unknown_option_and_bad_player_count():
    with pytest.raises(WorkbenchError, match="subsidy_rule"):
        GAME.new_initial_state(GAME.config(2, subsidy_rul="both"))
    with pytest.raises(WorkbenchError, match="one of both, either"):
        GAME.new_initial_state(GAME.config(2, subsidy_rule="never"))
    with pytest.raises(WorkbenchError, match="1 to 4"):
        GAME.new_initial_state(GAME.config(5))


def test_subsidy_rule_switch_changes_the_cost():
    setup = {"players": 2, "market": {"yellow": ["Gene Drive"]}, "players_state": {"Alex": {"employees": ["yellow M4"]}}}
    from workbench.games.pax_transhumanity.commercialize import cost
    # Utility labour is Subsidized, the act is not: the default (the text's reading) doubles
    assert cost(GAME.scenario_state(setup), "Gene Drive", "yellow M4") == 4
    either = dict(setup, options={"subsidy_rule": "either"})
    assert cost(GAME.scenario_state(either), "Gene Drive", "yellow M4") == 2


def test_broken_card_file_names_file_card_and_field(cards_copy):
    from workbench.games.pax_transhumanity.data import load_content
    path = cards_copy / "pax_transhumanity" / "ideas.yaml"
    path.write_text(path.read_text().replace("  disciplines: [green, blue]\n  arrows: []\n  heat: [black]\n  effects: [solve yellow]",
                                             "  disciplines: [green, purple]\n  arrows: []\n  heat: [black]\n  effects: [solve yellow]", 1))
    with pytest.raises(DataError) as err:
        load_content(cards_copy / "pax_transhumanity")
    assert "ideas.yaml" in str(err.value) and "Senolytic Therapy" in str(err.value) and "disciplines" in str(err.value)
    path.write_text(path.read_text().replace("effects: [growth]", "effects: [groth]", 1))
    with pytest.raises(DataError, match="effects"):
        load_content(cards_copy / "pax_transhumanity")


@pytest.mark.parametrize("file, old, new, words", [
    ("boards.yaml", "problem_tokens: 3", "problem_tokens: -1", "problem_tokens"),
    ("boards.yaml", "problem_tokens: 3", "problem_tokens: true", "problem_tokens"),
    ("settings.yaml", "capital: 3,", "capital: -2,", "capital must be a whole number"),
    ("settings.yaml", "wealth: 3,", "wealth: 30,", "more than the 9 agents in play"),
    # nine on the track would leave none for the Human Progress card (8 + 1 in the source)
    ("settings.yaml", "wealth: 3,", "wealth: 4,", "less the one on the Human Progress card"),
    ("settings.yaml", "capital: 3, ", "", "must give capital, wealth and debt"),
])
def test_negative_or_impossible_start_numbers_are_refused(cards_copy, file, old, new, words):
    from workbench.games.pax_transhumanity.data import load_content
    path = cards_copy / "pax_transhumanity" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError, match=words) as err:
        load_content(cards_copy / "pax_transhumanity")
    assert file in str(err.value)


def test_deck_has_enough_draft_ideas_with_provenance():
    from workbench.games.pax_transhumanity.data import content
    c = content()
    assert len(c.plain_ideas) >= 60
    assert all(i.provenance == "draft" for n, i in c.ideas.items() if i.kind == "idea")
    assert len(c.tipping_points) == 4 and c.plurality
    kinds = {t.split()[0] for i in c.ideas.values() for term in i.effects for t in term.split(" or ")}
    assert {"growth", "solve", "found", "resilience", "disruption", "recession", "damping", "nuclear", "game"} <= kinds


def test_cli_play_json_is_deterministic():
    cmd = [sys.executable, "-m", "workbench.cli", "play", "pax-transhumanity", "--players", "3", "--seed", "1",
           "--bots", "random", "--json"]
    a = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    b = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert a == b
    doc = json.loads(a)
    assert doc["game"] == "pax-transhumanity" and len(doc["players"]) == 3 and doc["log"]


def test_greedy_bots_play_seed_one_to_an_ending():
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    from workbench.games.pax_transhumanity.ending import ENDINGS
    config = GAME.config(3, seed=1)
    state, log = play_game(GAME, config, make_bots("greedy", 3))
    assert state.ending in ENDINGS, state.ending
    result = GAME.result(state)
    assert result.winners and set(result.scores) == set(config.players)
    stats = GAME.game_stats(state)
    assert stats["ending"] == state.ending and stats["n_commercializations"] >= 1
    assert GAME.card_stats(state)
