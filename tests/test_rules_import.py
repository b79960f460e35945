"""Importing a designer's own rulebook, extracting glossaries, and the rules/check commands."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main
from workbench.rules.glossary import extract_icon_terms, extract_pairs
from workbench.rules.importer import split_rulebook
from workbench.rules.model import parse_rulebook

PLAIN = """Rövid szabályok
Játék 2-4 személyre, körönként legfeljebb 2 akcióval.
Tőkebevonás (Fundraise): pénzt ad.
Tőkebevonás (Fundraise): pénzt ad.
Szint\tKöltség
1\t2
2\t4
Pontozás
A 🌟Meaning 0-n a világ összeomlik.
"""

MARKDOWN = """# Quick Rules

Players take turns.
They act twice.

## Actions

- 🛡️Vitals rise by one.
- Draw a card.

| Area | Use |
| --- | --- |
| Zone | events |

<!-- rule: mine/actions/kept -->
Kept as written.

And its second paragraph.
"""


def test_plain_text_splits_per_line_with_headings_and_tables():
    imp = split_rulebook(PLAIN, game="mine", lang="hu", name="rules.txt")
    ids = [c["id"] for c in imp.clauses]
    assert [s["title"] for s in imp.sections] == ["Rövid szabályok", "Pontozás"]
    assert ids == ["mine/rovid-szabalyok/jatek-2-4-szemelyre",
                   "mine/rovid-szabalyok/tokebevonas-fundraise-penzt-ad",
                   "mine/rovid-szabalyok/tokebevonas-fundraise-penzt-ad-2",
                   "mine/rovid-szabalyok/szint-koltseg-1-2",
                   "mine/pontozas/a-meaning-0-n"]
    table = imp.clauses[3]["text"]
    assert table.splitlines()[0] == "| Szint | Költség |" and "| 2 | 4 |" in table
    # the output is a rulebook in our format: it parses back to the same ids
    book = parse_rulebook(imp.markdown, game="mine")
    assert list(book.clauses) == ids


def test_same_input_same_ids_and_markdown():
    a = split_rulebook(MARKDOWN, game="mine", lang="en", name="r.md")
    b = split_rulebook(MARKDOWN, game="mine", lang="en", name="r.md")
    assert a.markdown == b.markdown
    ids = [c["id"] for c in a.clauses]
    assert ids == ["mine/quick-rules/players-take-turns-they", "mine/actions/vitals-rise-by-one",
                   "mine/actions/draw-a-card", "mine/actions/area-use-zone-events", "mine/actions/kept"]
    kept = a.clauses[-1]["text"]
    assert kept == "Kept as written.\n\nAnd its second paragraph."
    assert "- 🛡️Vitals rise by one." in a.markdown


def test_glossary_extraction():
    pairs = extract_pairs("Kirakjuk az Emberiség fejlődése (Human Progress) kártyát. Egy Akadály-nál "
                          "(Barrier, piros kör) vagy (sárga/zöld) és Tőkebevonás (Fundraise) [$].")
    assert [(p.term, p.other) for p in pairs] == [("Emberiség fejlődése", "Human Progress"),
                                                  ("Akadály", "Barrier"), ("Tőkebevonás", "Fundraise")]
    icons = extract_icon_terms("Your 🛡️Vitals and the 🏁End Initiative; 🛡️Vitals again, 🌟Meaning is made.")
    assert [(t.icon, t.term, t.count) for t in icons] == [("🛡️", "Vitals", 2), ("🏁", "End Initiative", 1),
                                                           ("🌟", "Meaning", 1)]


def test_cli_import_split_and_glossary(tmp_path, capsys):
    src = tmp_path / "house.txt"
    src.write_text(PLAIN, encoding="utf-8")
    assert main(["rules", "import", str(src), "--lang", "hu", "--game", "mine", "--out", str(tmp_path / "o"),
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mode"] == "split" and len(doc["clauses"]) == 5
    assert (tmp_path / "o" / "hu.md").exists()
    pot = (tmp_path / "o" / "mine.pot").read_text(encoding="utf-8")
    assert 'msgctxt "mine/pontozas/a-meaning-0-n"' in pot and 'msgstr ""' in pot
    assert main(["rules", "glossary", str(src), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["pairs"][0] == {"term": "Tőkebevonás", "other": "Fundraise", "count": 2, "lines": [3, 4]}
    assert doc["icons"] == [{"icon": "🌟", "term": "Meaning", "count": 1}]


def test_cli_bad_input_is_one_line(tmp_path, capsys):
    assert main(["rules", "review", "meaning-mad", "--lang", "hu"]) == 1
    err = capsys.readouterr().err
    assert "did you mean 'meaning-made'" in err and err.count("\n") == 1
    assert main(["rules", "import", str(tmp_path / "nope.md"), "--lang", "en"]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["check", "pax-trans"]) == 1
    assert "did you mean 'pax-transhumanity'" in capsys.readouterr().err


def test_render_names_every_unresolved_placeholder(cards_copy, capsys):
    tmpl = cards_copy / "t.md"
    tmpl.write_text("# T\n\n<!-- rule: meaning-made/t/a -->\nKeep ${terms.tracks.meaning}, not "
                    "${terms.nope.x} or ${terms.tracks.meaning | shout}.\n", encoding="utf-8")
    assert main(["rules", "render", "meaning-made", "--lang", "hu", "--template", str(tmpl),
                 "--template-lang", "hu"]) == 1
    out = capsys.readouterr()
    assert "🌟Értelem" in out.out
    assert "${terms.nope.x}" in out.err and "${terms.tracks.meaning | shout}" in out.err


def test_check_reports_clauses_and_games_without_text(cards_copy, capsys):
    import shutil
    rules = cards_copy / "pax_transhumanity" / "rules"
    if rules.exists():
        shutil.rmtree(rules)
    main(["check", "pax-transhumanity"])
    assert "no rules text yet" in capsys.readouterr().out
    main(["check", "meaning-made", "--json"])
    doc = json.loads(capsys.readouterr().out)
    game = doc["games"][0]
    assert game["rules_text"] and game["source_lang"] == "en" and "hu" in game["languages"]
    row = next(r for r in game["clauses"] if r["id"] == "meaning-made/overview/goal")
    assert row["languages"]["en"] == "original" and row["status"] in ("pass", "fail", "none")


def test_check_stops_at_invalid_card_data(cards_copy, monkeypatch, capsys):
    """Invalid card data is reported and nothing after it runs: every scenario
    would fail on the same data error (and be re-run on the bundled pool to tell
    it from a rule change, minutes for nothing); the Rules page says the same."""
    from workbench.core.cards import forget
    from workbench.core.errors import DataError
    from workbench.dashboard.rules import RulesModel

    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    patterns = cards_copy / "meaning_made" / "patterns.yaml"
    patterns.write_text(patterns.read_text(encoding="utf-8").replace("tokens: {E: 1}", "tokens: {E: true}"),
                        encoding="utf-8")
    forget()
    assert main(["check", "meaning-made", "--json"]) == 1
    game = json.loads(capsys.readouterr().out)["games"][0]
    assert any("must be a whole number" in p for p in game["data_problems"])
    assert game["not_run"] and game["checks"] == [] and game["assumptions"] == [] and game["clauses"] == []
    assert main(["check", "meaning-made"]) == 1
    out = capsys.readouterr().out
    assert "fix the card data first" in out and "lean on card values" not in out and "FAIL" not in out
    model = RulesModel(game_id="meaning-made")
    with pytest.raises(DataError, match="must be a whole number.*fix the card data first"):
        model.run_checks()
    assert model.check_status == {}
    forget()


def test_check_fails_on_a_check_naming_an_unknown_clause(cards_copy, capsys):
    scen = cards_copy / "meaning_made" / "scenarios" / "zz-unknown-clause.yaml"
    scen.write_text("game: meaning-made\ntitle: dangling\nchecks: [meaning-made/setup/meanig]\n"
                    "setup: {players: [A, B]}\nsteps: []\n", encoding="utf-8")
    assert main(["check", "meaning-made", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    refs = doc["games"][0]["unknown_clause_refs"]
    assert refs == [{"check": "zz-unknown-clause.yaml", "clause": "meaning-made/setup/meanig",
                     "hint": "(did you mean 'meaning-made/setup/meaning'?)"}]


def test_cli_import_translation_updates_the_catalogue(cards_copy, capsys):
    from workbench.rules import catalog
    src = catalog.source_path("meaning-made").read_text(encoding="utf-8")
    old = catalog.entries_by_context(catalog.read_catalog(catalog.po_path("meaning-made", "hu")))
    # a translator's Markdown: the Hungarian texts, one clause revised
    book = catalog.load_source("meaning-made")
    from workbench.rules.render import compose
    texts = {c: m.string for c, m in old.items()}
    texts["meaning-made/setup/meaning"] = "Az 🌟Értelem jelölője az 5-ös mezőn kezd."
    hu_md = cards_copy / "hu-translation.md"
    hu_md.write_text(compose(book, texts), encoding="utf-8")
    assert src  # the original stays the original
    assert main(["rules", "import", str(hu_md), "--lang", "hu", "--game", "meaning-made", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mode"] == "translation" and doc["translated"] == ["meaning-made/setup/meaning"]
    new = catalog.entries_by_context(catalog.read_catalog(catalog.po_path("meaning-made", "hu")))
    assert new["meaning-made/setup/meaning"].string.startswith("Az 🌟Értelem jelölője")
    assert catalog.source_language("meaning-made") == "en"


def test_cli_update_marks_changed_clauses_fuzzy(cards_copy, capsys):
    from workbench.rules import catalog
    path = catalog.source_path("meaning-made")
    path.write_text(path.read_text(encoding="utf-8").replace("Put the 🌟Meaning marker on 5.",
                                                             "Put the 🌟Meaning marker on 4."), encoding="utf-8")
    assert main(["rules", "update", "meaning-made", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["languages"][0]["changed"] == ["meaning-made/setup/meaning"]
    assert main(["rules", "review", "meaning-made", "--lang", "hu", "--no-spell", "--json"]) == 1
    review = json.loads(capsys.readouterr().out)
    assert {(f["clause"], f["check"]) for f in review["findings"]} == {
        ("meaning-made/setup/meaning", "fuzzy"), ("meaning-made/setup/meaning", "numbers")}


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LINE = st.text(alphabet="Aaábc Ő1.:🌟\t|#-=<>!`", min_size=1, max_size=25).filter(lambda s: s.strip())


@settings(max_examples=40, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=12), st.booleans())
def test_import_ids_are_stable_unique_and_read_back(lines, paragraphs):
    text = ("\n\n" if paragraphs else "\n").join(lines) + "\n"
    try:
        a = split_rulebook(text, game="mine", lang="hu", name="r.txt")
    except Exception as exc:  # only the documented refusal: nothing to split
        assert "no text to split" in str(exc)
        return
    b = split_rulebook(text, game="mine", lang="hu", name="r.txt")
    ids = [c["id"] for c in a.clauses]
    assert ids == [c["id"] for c in b.clauses] and len(set(ids)) == len(ids)
    assert list(parse_rulebook(a.markdown, game="mine").clauses) == ids


def test_cli_glossary_as_yaml_entries(tmp_path, capsys):
    import yaml
    src = tmp_path / "g.txt"
    src.write_text("A Tőkebevonás (Fundraise) pénzt ad; a Rendszer (Regime) változik.\n", encoding="utf-8")
    assert main(["rules", "glossary", str(src), "--yaml", "hu,en"]) == 0
    assert yaml.safe_load(capsys.readouterr().out) == [{"hu": "Tőkebevonás", "en": "Fundraise"},
                                                      {"hu": "Rendszer", "en": "Regime"}]
