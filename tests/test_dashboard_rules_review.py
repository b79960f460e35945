"""The Rules page's review findings: listed per clause with the check's explanation,
a jump to the clause, and accepting a finding into accepted-findings.yaml."""

from __future__ import annotations

from html import escape

import pytest

from workbench.core.errors import WorkbenchError
from workbench.rules import catalog as C

CLAUSE = "meaning-made/actions/gather"


@pytest.fixture
def planted(cards_copy):
    """Meaning Made with one planted mistake: "never gives" became "always gives"."""
    path = C.po_path("meaning-made", "hu")
    cat = C.read_catalog(path)
    msg = C.entries_by_context(cat)[CLAUSE]
    msg.string = msg.string.replace("soha nem ad", "mindig ad")
    C.write_catalog(path, cat)
    from workbench.dashboard.rules import RulesModel
    return RulesModel(game_id="meaning-made")


def test_findings_listed_per_clause_with_their_explanation(planted):
    from workbench.dashboard.rules import findings_html, rules_html
    found = planted.all_findings()
    assert {f.clause for f in found} == {CLAUSE} and {f.check for f in found} == {"negation", "opposite"}
    assert next(f for f in found if f.check == "negation").explanation.startswith("Negations")
    assert planted.summary()["hu findings"] == len(found)
    listing = findings_html(planted)
    assert "href='#clause-meaning-made-actions-gather'" in listing and escape(found[0].explanation) in listing
    assert "proved by" in listing or "no check proves it" in listing
    table = rules_html(planted)
    assert "id='clause-meaning-made-actions-gather'" in table and "rules-finding" in table
    assert "spelling off" in planted.review_state()


def test_a_finding_jumps_to_its_clause(planted):
    f = planted.all_findings()[0]
    planted.jump(f.clause)
    assert [r["clause"] for r in planted.rows()] == [CLAUSE]
    planted.show_all()
    assert len(planted.rows()) == len(planted.source.clauses)
    with pytest.raises(WorkbenchError):
        planted.jump("terms/hu.yaml terms.tokens.energy")


def test_accepting_needs_a_reason_and_then_keeps_the_review_quiet(planted):
    from workbench.rules.review import review
    path = C.rules_dir("meaning-made") / "accepted-findings.yaml"
    before = path.read_text(encoding="utf-8")
    keys = [planted.finding_key(f) for f in planted.all_findings()]
    accepted_before = planted.summary()["hu accepted"]          # the bundled acceptances, whatever their number
    with pytest.raises(WorkbenchError, match="reason"):
        planted.accept(keys[0], "   ")
    assert path.read_text(encoding="utf-8") == before          # a refused acceptance changes nothing
    for key in keys:
        planted.accept(key, "a test of the acceptance")
    text = path.read_text(encoding="utf-8")
    assert text.startswith(before.rstrip("\n")) and "clause: meaning-made/actions/gather" in text
    assert planted.all_findings() == [] and planted.summary()["hu accepted"] == accepted_before + len(keys)
    rev = review("meaning-made", "hu", spelling=False)
    assert rev.findings == [] and any(a.clause == CLAUSE for a in rev.accepted) and rev.stale == []
    with pytest.raises(WorkbenchError):
        planted.accept(keys[0], "again")   # no longer reported


def test_the_page_wires_jump_accept_and_play(planted):
    from workbench.dashboard.app import Workbench
    from workbench.dashboard.rules import RulesPage
    bench = Workbench()
    page = RulesPage(bench=bench, model=planted)
    assert list(page._finding.options.values()) == [planted.finding_key(f) for f in planted.all_findings()]
    page._finding.value = list(page._finding.options.values())[0]
    n = len(page._finding.options)
    page._on_jump()
    assert [r["clause"] for r in planted.rows()] == [CLAUSE]
    # the page follows the model's focus by itself: one clause in the table, all again after Show all
    assert page._table.object.count("data-clause=") == 1
    planted.show_all()
    assert page._table.object.count("data-clause=") == len(planted.source.clauses)
    planted.jump(CLAUSE)
    page._on_accept()
    assert "Not accepted" in page._note.object              # no reason given
    page._reason.value = "checked with the designer"
    page._on_accept()
    assert "Accepted" in page._note.object and len(page._finding.options) == n - 1
    bench.page = 4
    page._on_play()
    assert bench.page == 0 and bench.play.game_id == "meaning-made"
