"""Rule checks independent of the designer's values (issue 25).

``workbench check --cards DIR`` on a folder whose cards the designer edited
reports no rule failure caused by the edits: a scenario stating its card values
(``setup.cards``) runs with them, and a check that fails only with the edited
values is an assumption (information). A genuinely broken rule still fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.cards import forget

#: ten edits across the three games, through the Cards page's own session
TEN_EDITS = {
    "meaning-made": [("Shell", "E", 4), ("Selective Membrane", "I", 3), ("Pulse", "bonus", "S+1"),
                     ("Listening Circle", "meaning", 3)],
    "mandate-2038": [("Mirevanta", "runway", 9), ("Orisonix", "compute", 1), ("Facility", "runway", 7)],
    "pax-transhumanity": [("Gene Drive", "heat", "white white black"), ("Senolytic Therapy", "effects", "growth"),
                          ("Organ Printing", "arrows", "green")],
}


@pytest.fixture
def edited(init_folder):
    from workbench.tweak import open_session

    for game, edits in TEN_EDITS.items():
        session = open_session(game, folder=init_folder / game.replace("-", "_"))
        for card, column, value in edits:
            session.edit(card, column, value)
        session.save(note="ten edits")
    return init_folder


def _check(root, capsys, *games) -> tuple[int, dict]:
    forget()
    code = main(["check", *games, "--cards", str(root), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_ten_edited_cards_cause_no_rule_failure(edited, capsys):
    code, doc = _check(edited, capsys)
    assert doc["failures"] == 0, [c for g in doc["games"] for c in g["checks"] if c["status"] == "fail"]
    assert code == 0
    by_game = {g["game"]: g for g in doc["games"]}
    # the edits do reach checks that lean on them: they are reported as information
    for game in TEN_EDITS:
        assert by_game[game]["assumptions"], f"{game}: no check noticed the edited values"
    mm = by_game["meaning-made"]
    stated = {a["name"] for a in mm["assumptions"] if a["how"] == "stated"}
    assert "prism-refill-from-deck.yaml" in stated  # states Shell's values, runs with them
    leaning = [c for c in mm["checks"] if c["status"] == "assumption"]
    assert leaning and all("passes with the bundled ones" in c["message"] for c in leaning)
    shell = next(a for a in mm["assumptions"] if a["name"] == "prism-refill-from-deck.yaml")
    assert any(d["card"] == "Shell" and d["pool"] == {"E": 4} for d in shell["differences"])


def test_text_report_says_information_not_failure(edited, capsys):
    forget()
    assert main(["check", "meaning-made", "--cards", str(edited)]) == 0
    out = capsys.readouterr().out
    assert "information, not failures" in out and "lean on card values your pool changed" in out
    assert "FAIL" not in out


# The rule broken here is Mandate 2038's Public Audit: it draws one cube too many.
# It is broken as a developer would break it, by an edit to the rules source, in a
# copy of the package run in a subprocess: a monkeypatch cannot reach past the
# compiled build the install makes (compiled modules call each other directly),
# and an edited source runs as plain Python (workbench/native.py).
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def broken_tree(tmp_path_factory):
    tree = tmp_path_factory.mktemp("broken")
    shutil.copytree(ROOT / "workbench", tree / "workbench",
                    ignore=shutil.ignore_patterns("__pycache__", "_native"))
    shutil.copytree(ROOT / "cards", tree / "cards", ignore=shutil.ignore_patterns(".workbench*", "*.bak"))
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    audit = tree / "workbench" / "games" / "mandate_2038" / "audit.py"
    text = audit.read_text(encoding="utf-8")
    assert "    return max(1, whole)\n" in text
    audit.write_text(text.replace("    return max(1, whole)\n", "    return max(1, whole) + 1\n"), encoding="utf-8")
    return tree


def _broken_check(tree, *args) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if k != "WORKBENCH_CARDS"}
    env["PYTHONPATH"] = str(tree)
    run = subprocess.run([sys.executable, "-m", "workbench", "check", "mandate-2038", "--json", *args],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    assert run.stdout.strip(), run.stderr[-2000:]
    return run.returncode, json.loads(run.stdout)


def test_a_broken_rule_still_fails_on_an_edited_folder(edited, broken_tree):
    code, doc = _broken_check(broken_tree, "--cards", str(edited))
    assert code == 1 and doc["failures"] > 0
    report = doc["games"][0]
    failed = [c for c in report["checks"] if c["status"] == "fail"]
    assert "audit-draws.yaml" in {c["name"] for c in failed}, failed
    # the failing ones are failures, not excused as assumptions
    assert not {c["name"] for c in failed} & {a["name"] for a in report["assumptions"]}


def test_a_broken_rule_fails_without_cards_too(broken_tree):
    code, doc = _broken_check(broken_tree)
    assert code == 1 and doc["failures"] > 0
    report = doc["games"][0]
    failed = {c["name"] for c in report["checks"] if c["status"] == "fail"}
    assert "audit-draws.yaml" in failed
    # on the bundled pool the only assumptions are scenarios that set up a card value of their
    # own (a situation the bundled cards never print); none of them excuses a failure
    assert all((a["kind"], a["how"]) == ("scenario", "stated") for a in report["assumptions"])
    assert not failed & {a["name"] for a in report["assumptions"]}


def test_stated_values_are_laid_over_the_pool(tmp_path, monkeypatch, capsys):
    """A scenario with ``setup.cards`` passes with its values whatever the pool
    holds, and fails (setup error) when it names a card the pool lacks."""
    from workbench.core.scenario import run_file

    root = tmp_path / "mine"
    assert main(["init", str(root), "--game", "meaning-made"]) == 0
    monkeypatch.setenv("WORKBENCH_CARDS", str(root))
    forget()
    patterns = root / "meaning_made" / "patterns.yaml"
    patterns.write_text(patterns.read_text().replace("tokens: {E: 1}\n", "tokens: {E: 3}\n", 1))
    forget()
    scenario = root / "meaning_made" / "scenarios" / "prism-refill-from-deck.yaml"
    assert run_file(scenario).passed
    text = scenario.read_text()
    # without its stated values it leans on the pool's Shell and fails
    bare = tmp_path / "bare.yaml"
    bare.write_text("\n".join(line for line in text.splitlines() if "Shell: {requirement" not in line
                              and "  cards:" not in line))
    assert not run_file(bare).passed
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("    Shell: {requirement", "    Shel: {requirement"))
    res = run_file(wrong)
    assert not res.passed and "no card 'Shel'" in res.divergences[0].message
