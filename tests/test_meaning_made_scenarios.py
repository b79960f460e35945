"""Every Meaning Made scenario file, run strictly; the worked example, run in
report mode, must produce the errata list in ``worked-example-errata.md``.

A scenario is one rule pinned down in YAML (docs/reference/scenario-format.md); a failure
here names the file, the step and the value that differed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.core.data import load_yaml
from workbench.core.scenario import run_file

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "cards" / "meaning_made" / "scenarios"
WORKED = FOLDER / "worked-example.yaml"
ERRATA = FOLDER / "worked-example-errata.md"
RULE_FILES = sorted(p for p in FOLDER.glob("*.yaml") if p != WORKED)


def _clause_ids() -> set[str]:
    """Clause ids the English rulebook marks, when it exists; else None."""
    rules = ROOT / "cards" / "meaning_made" / "rules" / "en.md"
    if not rules.exists():
        return set()
    return set(re.findall(r"<!--\s*rule:\s*(meaning-made/[\w/-]+)[^>]*-->", rules.read_text("utf-8")))


def test_there_are_at_least_forty_rule_scenarios():
    assert len(RULE_FILES) >= 40, [p.name for p in RULE_FILES]


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_rule_scenario_passes(path):
    result = run_file(path)
    data = load_yaml(path)
    assert result.steps_run > 0 or data.get("expect") or data.get("expect_refused") or data.get("over_seeds"), \
        f"{path.name} checks nothing"
    assert result.passed, "\n".join(
        f"{path.name} step {d.step} [{d.kind}] {d.message}" for d in result.divergences)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_rule_scenario_is_well_formed(path):
    data = load_yaml(path)
    assert data["game"] == "meaning-made"
    assert data.get("title"), f"{path.name} has no title"
    checks = data.get("checks") or []
    assert checks, f"{path.name} names no rule clause"
    for clause in checks:
        assert re.fullmatch(r"meaning-made/[a-z-]+/[a-z0-9-]+", clause), clause
    known = _clause_ids()
    if known:
        unknown = [c for c in checks if c not in known]
        assert not unknown, f"{path.name}: clause(s) not in the rulebook: {unknown}"
    assert data.get("steps") or data.get("expect") or data.get("expect_refused") or data.get("over_seeds")


# --------------------------------------------------------------------------
# The worked example: each erratum is tagged in the scenario with a note that
# starts "erratum <id>:". Report mode must find a divergence at every tagged
# step, and every divergence must sit on a tagged step: nothing unexplained.

ERRATUM = re.compile(r"erratum ([A-Z]\d+)")


def _worked_report():
    return run_file(WORKED, report=True)


def _tags(line: str | None) -> set[str]:
    return set(ERRATUM.findall(line or ""))


def test_worked_example_runs_to_its_end_in_report_mode():
    result = _worked_report()
    steps = load_yaml(WORKED)["steps"]
    assert result.steps_run == len(steps)
    assert not [d for d in result.divergences if d.kind == "error"], [
        d.message for d in result.divergences if d.kind == "error"]


def test_worked_example_report_finds_every_erratum():
    result = _worked_report()
    found = set()
    for d in result.divergences:
        found |= _tags(d.line)
    documented = set(re.findall(r"^#+\s*([A-Z]\d+)\b", ERRATA.read_text("utf-8"), re.M))
    assert documented, "the errata file lists no erratum ids"
    missing = documented - found
    assert not missing, f"errata the report did not find: {sorted(missing)}"


def test_worked_example_report_has_no_unexplained_divergence():
    result = _worked_report()
    documented = set(re.findall(r"^#+\s*([A-Z]\d+)\b", ERRATA.read_text("utf-8"), re.M))
    unexplained = [f"step {d.step} [{d.kind}] {d.message} :: {d.line}" for d in result.divergences
                   if not (_tags(d.line) & documented)]
    assert not unexplained, "\n".join(unexplained)


def test_worked_example_strict_mode_stops_at_the_first_erratum():
    strict = run_file(WORKED)
    assert not strict.passed
    assert len(strict.divergences) >= 1
    assert _tags(strict.divergences[0].line), strict.divergences[0]


def test_report_mode_lets_a_refused_action_use_up_its_turn():
    """A refused step in report mode still spends that player's action
    (``Game.scenario_skip``), so the following steps keep the text's turn order
    and only the refusal itself is reported."""
    from workbench.core.registry import get_game
    from workbench.core.scenario import ScenarioRunner

    data = {
        "game": "meaning-made",
        "setup": {"players": ["Alex", "Brooke"], "start": "turns",
                  "world": {"prism": ["Shell", "Selective Membrane", "Shelter", "Pulse", "Setpoint", "Buffer"]},
                  "players_state": {"Alex": {"E": 2, "S": 0}, "Brooke": {"S": 0}}},
        "steps": [
            {"Alex": "load Shelter"},          # refused: no Support
            {"Alex": "gather 2E"},
            {"Brooke": "gather 2E"},
            {"expect": {"turn": "Brooke", "actions_left": 1, "players": {"Alex": {"E": 4}}}},
        ],
    }
    result = ScenarioRunner(get_game("meaning-made"), report=True).run(data)
    assert [(d.step, d.kind) for d in result.divergences] == [(1, "illegal")]
    strict = ScenarioRunner(get_game("meaning-made")).run(data)
    assert [(d.step, d.kind) for d in strict.divergences] == [(1, "illegal")]
    assert strict.steps_run == 1


def test_command_line_report_of_the_worked_example():
    """``workbench scenario run FILE --report --json``: one JSON document whose
    divergences carry every erratum id, and exit 0: they are exactly the errata
    the file records."""
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "scenario", "run", str(WORKED),
                           "--report", "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["failed"] == 0 and doc["passed"] == 1
    assert doc["scenarios"][0]["errata"]["matches"] is True
    found = set()
    for d in doc["scenarios"][0]["divergences"]:
        found |= _tags(d.get("line"))
    documented = set(re.findall(r"^#+\s*([A-Z]\d+)\b", ERRATA.read_text("utf-8"), re.M))
    assert documented <= found


def test_report_exits_1_and_says_so_when_the_divergences_differ_from_the_errata(tmp_path):
    """Take the note off one erratum step: that divergence is no longer recorded,
    so the report differs from the errata (exit 1, said on the last line); add a
    note to a step that holds: a recorded erratum is not found (exit 1 too)."""
    import subprocess
    import sys

    text = WORKED.read_text(encoding="utf-8")
    first = re.search(r'note: "erratum (W\d+):', text)
    untagged = tmp_path / "untagged.yaml"
    untagged.write_text(text[:first.start()] + 'note: "' + text[first.end():], encoding="utf-8")
    extra = tmp_path / "extra.yaml"
    steps_at = text.index("\nsteps:\n") + len("\nsteps:\n")
    extra.write_text(text[:steps_at] + '  - {expect: {turn: Alex}, note: "erratum Z99: invented"}\n'
                     + text[steps_at:], encoding="utf-8")
    for path, words in ((untagged, "not recorded as errata"), (extra, "recorded but not found: Z99")):
        proc = subprocess.run([sys.executable, "-m", "workbench.cli", "scenario", "run", str(path), "--report"],
                              capture_output=True, text=True, timeout=600)
        last = proc.stdout.strip().splitlines()[-1]
        assert proc.returncode == 1 and "differs from the recorded errata" in last and words in last, last
