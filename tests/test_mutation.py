"""Mutation testing (``workbench check GAME --mutants``) and the scenario kinds it asked for.

Quick by design: the operators and the planting run on a small module written here; the whole
loop (sample, run the checks, propose a scenario for a survivor) runs on the scaffold's game
with the mutants of one function. The full runs of the bundled games are ``workbench check
GAME --mutants`` (docs/rules.md), never a test."""

from __future__ import annotations

import ast
import os
import sys
import textwrap

import pytest

from workbench.core.registry import get_game
from workbench.core.scenario import ScenarioRunner
from workbench.mutation.operators import apply, mutants, snippet

SOURCE = textwrap.dedent('''
    """A docstring is never mutated."""
    LIMIT = 3


    def cost(base: int, discount: int = 1) -> int:
        """Never below zero."""
        total = base - discount
        if total < 0 and base > 0:
            return 0
        return max(total, 0)


    class Track:
        def bump(self, n):
            self.value += n
            record(self)


    def record(x):
        return x
''')


def test_operators_find_each_kind_and_skip_docstrings_and_defaults():
    found = mutants(SOURCE, "m")
    kinds = {m.operator for m in found}
    assert kinds == {"compare", "arith", "constant", "boolean", "branch", "remove"}
    assert all(m.line != 2 for m in found)                       # the docstring
    assert not [m for m in found if m.line == 6 and m.operator == "constant"]  # the default value
    assert {m.scope for m in found} == {"LIMIT", "cost", "Track.bump"}
    for m in found:                                              # every mutant compiles and differs
        mutated = ast.unparse(apply(SOURCE, m))
        assert mutated != ast.unparse(ast.parse(SOURCE))
        compile(apply(SOURCE, m), "m.py", "exec")
    lt = next(m for m in found if m.change == "< -> <=")
    assert snippet(SOURCE, lt) == ("if total < 0 and base > 0:", "if total <= 0 and base > 0:")


def test_functions_named_compiled_only_are_not_mutated():
    """A module's ``__compiled_only__`` functions (code the interpreted build never runs) get
    no mutant, and the tuple itself is not a constant to mutate; the rest keep theirs, with
    the same numbering as the module without the tuple's functions."""
    source = SOURCE + '__compiled_only__ = ("record", "cost")\n'
    found = mutants(source, "m")
    assert {m.scope for m in found} == {"LIMIT", "Track.bump"}
    for m in found:
        compile(apply(source, m), "m.py", "exec")
    assert [m.change for m in found] == [m.change for m in mutants(SOURCE, "m") if m.scope != "cost"]


def test_planting_changes_every_reference_and_only_in_the_child(tmp_path, monkeypatch):
    from workbench.mutation.forks import fork_each
    from workbench.mutation.plant import plant
    (tmp_path / "mutmod_probe.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import mutmod_probe
    alias = mutmod_probe.cost                                    # a reference taken before planting
    swap = next(m for m in mutants(SOURCE, "mutmod_probe") if m.change == "- -> +")
    limit = next(m for m in mutants(SOURCE, "mutmod_probe") if m.scope == "LIMIT")
    answers = {}

    def job(m):
        plant(m, SOURCE)
        return {"cost": alias(5, 2), "limit": sys.modules["mutmod_probe"].LIMIT}

    fork_each([("swap", lambda: job(swap), 30.0), ("limit", lambda: job(limit), 30.0)], 2,
              lambda key, answer, _s: answers.__setitem__(key, answer))
    assert answers == {"swap": {"cost": 7, "limit": 3}, "limit": {"cost": 3, "limit": 4}}
    assert alias(5, 2) == 3 and mutmod_probe.LIMIT == 3        # the parent still runs the real code
    sys.modules.pop("mutmod_probe")


# -- the scenario kinds ----------------------------------------------------------------------

def _run(game_id: str, data: dict) -> list:
    return ScenarioRunner(get_game(game_id)).run({"game": game_id, **data}).divergences


def test_expect_refused_passes_only_when_the_setup_is_refused():
    assert _run("pax-transhumanity", {"setup": {"players": 5}, "expect_refused": True}) == []
    assert _run("pax-transhumanity", {"setup": {"players": 5}, "expect_refused": "1 to 4"}) == []
    wrong_reason = _run("pax-transhumanity", {"setup": {"players": 5}, "expect_refused": "no such text"})
    assert wrong_reason and "not for" in wrong_reason[0].message
    accepted = _run("pax-transhumanity", {"setup": {"players": 3}, "expect_refused": True})
    assert accepted and "accepted" in accepted[0].message


def test_seen_by_reads_each_seats_own_view():
    setup = {"seed": 4, "players": ["Alex", "Brooke"], "start": "secret"}
    own = {"seen_by": {"Alex": {"table": {"players": {"Alex": {"secret_offer": [
        "green", "blue", "orange"]}}}}}}
    assert _run("pax-transhumanity", {"setup": setup, "expect": own}) == []
    peek = {"seen_by": {"Brooke": {"table": {"players": {"Alex": {"secret_offer": ["green", "blue", "orange"]}}}}}}
    assert _run("pax-transhumanity", {"setup": setup, "expect": peek})
    shown = {"seen_by": {"Alex": {"table": {"players": {"Alex": {"secret_offer": "not shown"}}}}}}
    assert _run("pax-transhumanity", {"setup": setup, "expect": shown})


def test_offers_pins_the_listed_legal_actions():
    setup = {"seed": 4, "players": ["Alex", "Brooke"], "start": "secret"}
    good = [{"offers": ["secret blue", "SECRET green"], "does_not_offer": ["secret yellow"]}]
    assert _run("pax-transhumanity", {"setup": setup, "steps": good}) == []
    bad = _run("pax-transhumanity", {"setup": setup, "steps": [{"offers": ["secret yellow"]},
                                                               {"does_not_offer": ["secret blue"]}]})
    assert [d.message for d in bad] == ["'secret yellow' is not listed as legal"]


def test_over_seeds_needs_every_value_and_no_other():
    base = {"setup": {"players": ["Alex", "Brooke", "Casey"]}}
    assert _run("mandate-2038", {**base, "over_seeds": {"seeds": 8, "key": "initiative",
                                                        "takes": ["Alex", "Brooke", "Casey"]}}) == []
    short = _run("mandate-2038", {**base, "over_seeds": {"seeds": 8, "key": "initiative",
                                                         "takes": ["Alex", "Brooke"]}})
    assert short and "also" in short[0].message
    never = _run("mandate-2038", {**base, "over_seeds": {"seeds": 8, "key": "initiative",
                                                         "takes": ["Alex", "Brooke", "Casey", "Drew"]}})
    assert never and "never" in never[0].message


def test_the_cost_step_states_the_modifier_order():
    setup = {"players": ["Alex", "Brooke"]}
    assert _run("mandate-2038", {"setup": setup, "steps": [{"cost": {"base": 1, "surcharges": 2,
                                                                     "discounts": 2}, "is": 1}]}) == []
    assert _run("mandate-2038", {"setup": setup, "steps": [{"cost": {"base": 1, "surcharges": 2,
                                                                     "discounts": 2}, "is": 2}]})


def _keys(node, path=()):
    """Every (path, mapping) in a loaded scenario, the path being the keys leading to it."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _keys(v, path + (k,))
    elif isinstance(node, list):
        for v in node:
            yield from _keys(v, path)


def test_the_bundled_scenarios_state_each_new_kind():
    """Each kind the scenario language grew is used by a shipped scenario: a forbidden
    setup, what one seat sees, a random choice over seeds, Mandate 2038's cost-modifier
    order and Pax Transhumanity's Future Shock square and side put down. Only files naming
    a kind are parsed (a text search first), so this stays quick."""
    from pathlib import Path

    from workbench.core.scenario import load_scenario
    root = Path(__file__).resolve().parents[1] / "cards"
    words = ("expect_refused", "seen_by", "over_seeds", "cost:", "future_shock")
    used: dict[str, set[str]] = {}
    for path in sorted(root.glob("*/scenarios/*.yaml")):
        if not any(w in path.read_text(encoding="utf-8") for w in words):
            continue
        data = load_scenario(path)
        found = used.setdefault(data["game"], set())
        found |= {k for k in ("expect_refused", "over_seeds") if data.get(k)}
        for where, node in _keys(data):
            if "seen_by" in node and "expect" in where and isinstance(node["seen_by"], dict):
                found.add("seen_by")
            if "steps" in where and isinstance(node.get("cost"), dict) and "is" in node:
                found.add("cost order")
            if where[-1:] == ("splay_squares",) and {"down", "future_shock"} <= set(node):
                found.add("future shock square and side")
    assert all("expect_refused" in used.get(g, ()) for g in ("meaning-made", "mandate-2038", "pax-transhumanity"))
    assert "seen_by" in used.get("pax-transhumanity", ())
    assert "over_seeds" in used.get("mandate-2038", ())
    assert "cost order" in used.get("mandate-2038", ())
    assert "future shock square and side" in used.get("pax-transhumanity", ())


def test_the_report_prints_the_kill_rate_per_module_and_clause_and_each_survivor():
    """What ``workbench check GAME --mutants`` prints, from outcomes made here (no run)."""
    from workbench.mutation.operators import Mutant
    from workbench.mutation.report import NO_CLAUSE, format_run
    from workbench.mutation.run import MutationRun, Outcome

    def outcome(module, line, status, clause=None, **kw):
        m = Mutant(f"pkg.{module}", line, line, line, "compare", "< -> <=", "f", "function")
        return Outcome(m, status, clause=clause, before="a < b", after="a <= b", **kw)

    run = MutationRun("g", 1, 9, ["pkg.flow", "pkg.state"], checks=3, workers=2, outcomes=[
        outcome("flow", 1, "killed", "g/turn", by="scenario:a.yaml"),
        outcome("flow", 2, "killed", "g/turn", by="scenario:a.yaml"),
        outcome("flow", 3, "survived", "g/turn",
                proposal={"file": "/p/mutant-flow-3-3.yaml", "summary": "round differs after step 2"}),
        outcome("state", 4, "unreached", proposal={"summary": "no difference in 2 games, 40 steps"})])
    text = format_run(run)
    assert "killed 2 of 4 planted: 50.0 %" in text
    assert "survived 2 (1 on lines no check reaches), equivalent 0" in text
    assert [ln.split() for ln in text.splitlines() if ln.strip().startswith(("flow ", "state "))] == [
        ["flow", "2/3", "66.7", "%"], ["state", "0/1", "0.0", "%"]]
    assert f"{NO_CLAUSE}     0/1" in text and "g/turn" in text
    assert "flow.py:3 in f [compare] a < b  =>  a <= b" in text
    assert "proposed scenario: /p/mutant-flow-3-3.yaml (round differs after step 2)" in text
    assert "no difference found: no difference in 2 games, 40 steps" in text


# -- the whole loop on the scaffold's game ---------------------------------------------------

@pytest.fixture
def tiny(scaffolded, monkeypatch):
    from workbench.core import registry
    monkeypatch.syspath_prepend(str(scaffolded))
    registry.refresh()
    yield scaffolded
    for name in [m for m in sys.modules if m == "tiny_market" or m.startswith("tiny_market.")]:
        sys.modules.pop(name)
    monkeypatch.undo()
    registry.refresh()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="mutants run in forked children")
def test_a_rule_change_no_scaffold_scenario_covers_gets_a_scenario_that_kills_it(tiny, tmp_path, capsys):
    """End to end through ``workbench check``: the scaffold's one scenario never ends a game,
    so a planted change to who wins at the end is reported as a survivor no clause's check
    reaches, with a proposed scenario; that file, saved unchanged into the game's scenarios
    folder, passes ``workbench scenario run`` on the real engine and kills the mutant on the rerun."""
    import json
    import shutil

    from workbench.cli import main

    flow = tiny / "tiny_market" / "flow.py"
    change = next(m for m in mutants(flow.read_text(encoding="utf-8"), "tiny_market.flow")
                  if m.scope == "_finish" and m.operator == "branch")
    only = ["--only", f"flow.py:{change.line}:{change.index}", "--workers", "2", "--json"]

    def check(*args: str) -> dict:
        capsys.readouterr()
        assert main(["check", "tiny-market", "--mutants", *only, *args]) == 0
        report = json.loads(capsys.readouterr().out)
        assert [m["id"] for m in report["mutants"]] == [change.id]
        return report["mutants"][0]

    before = check("--propose", str(tmp_path / "proposed"), "--games", "2")
    assert before["status"] == "survived" and before["clause"] is None   # no rule's scenario covers it
    assert before["proposal"]["passes_on_real_engine"] and before["proposal"]["fails_on_mutant"]
    proposed = tmp_path / "proposed" / f"mutant-flow-{change.line}-{change.index}.yaml"
    assert before["proposal"]["file"] == str(proposed)
    saved = tiny / "tiny_market" / "cards" / "scenarios" / proposed.name
    shutil.copyfile(proposed, saved)                              # saved unchanged
    assert main(["scenario", "run", str(saved)]) == 0           # passes on the real engine
    after = check()
    assert (after["status"], after["by"]) == ("killed", f"scenario:{saved.name}")


def test_only_names_a_line_or_one_mutant_and_refuses_a_line_with_none(tiny):
    from workbench.core.errors import WorkbenchError
    from workbench.mutation.run import only_selector
    found = mutants((tiny / "tiny_market" / "flow.py").read_text(encoding="utf-8"), "tiny_market.flow")
    one = found[-1]
    on_line = [m for m in found if m.line == one.line]
    assert [m for m in found if only_selector("tiny-market", [f"flow.py:{one.line}"])(m)] == on_line
    assert [m for m in found if only_selector("tiny-market", [f"flow:{one.line}:{one.index}"])(m)] == [one]
    for spec, words in (("flow.py", "FILE:LINE"), ("market.py:3", "not a rules module"), ("flow.py:1", "no mutant")):
        with pytest.raises(WorkbenchError, match=words):
            only_selector("tiny-market", [spec])
