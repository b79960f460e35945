"""The clause model, placeholders, PO catalogues and rendering."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.errors import DataError
from workbench.rules import catalog as C
from workbench.rules.model import parse_rulebook
from workbench.rules.placeholders import find_placeholders, resolve_text
from workbench.rules.render import compose

BOOK = """<!-- section: setup -->
# Setup 🎲

<!-- rule: demo/setup/deal -->
Deal 3 cards to each player.

<!-- rule: demo/setup/board -->
1. Lay out the board.
2. Put the marker on 5.

<!-- map:start -->
| Tile | Value |
| --- | --- |
| ${terms.tiles.frontier} | 2 |
<!-- map:end -->

## Play

Take turns clockwise.

<!-- rule: demo/play/actions -->
On your turn take two actions.

```
<!-- rule: demo/code/not-a-marker -->
```
"""


def test_clauses_sections_and_bodies():
    book = parse_rulebook(BOOK, game="demo", lang="en")
    assert list(book.clauses) == ["demo/setup/deal", "demo/setup/board", "demo/play/text", "demo/play/actions"]
    assert book.clauses["demo/setup/deal"].body == "Deal 3 cards to each player."
    board = book.clauses["demo/setup/board"].body
    assert board.startswith("1. Lay out the board.") and board.endswith("<!-- map:end -->")
    assert "| ${terms.tiles.frontier} | 2 |" in board
    assert book.clauses["demo/play/text"].auto
    # the marker inside the code fence is code, part of the clause before it
    assert "demo/code/not-a-marker" in book.clauses["demo/play/actions"].body
    assert list(book.sections) == ["demo/setup", "demo/play"]
    assert book.sections["demo/setup"].title == "Setup 🎲"
    assert book.clauses["demo/setup/deal"].section == "demo/setup"
    ctxts = [e[0] for e in book.entries()]
    assert ctxts[0] == "demo/setup" and "demo/play" in ctxts


@pytest.mark.parametrize("text, fragment", [
    ("# T\n- x\n  <!-- rule: demo/a/b -->\n", "own line at the left margin"),
    ("# T\nSee <!-- rule: demo/a/b --> here\n", "not inside text"),
    ("<!-- rule: Demo/A -->\nx\n", "must look like game/section/name"),
    ("<!-- rule: other/a/b -->\nx\n", "must start with 'demo/'"),
    ("<!-- rule: demo/a/b -->\nx\n<!-- rule: demo/a/b -->\ny\n", "used twice"),
    ("<!-- section: s -->\ntext\n", "directly above its heading"),
])
def test_bad_markup_names_the_line(text, fragment):
    with pytest.raises(DataError) as exc:
        parse_rulebook(text, game="demo", path="x.md")
    assert fragment in str(exc.value) and "x.md" in str(exc.value) and "line" in str(exc.value)


def test_heading_slugs_are_unique_and_ascii():
    book = parse_rulebook("# Előkészítés\n<!-- rule: demo/a/b -->\nx\n# Előkészítés\n<!-- rule: demo/a/c -->\ny\n",
                          game="demo")
    assert list(book.sections) == ["demo/elokeszites", "demo/elokeszites-2"]


def test_placeholders_resolve_with_forms_and_filters():
    ctx = {"terms": {"res": {"runway": {"text": "Tartalék", "forms": {"acc": "Tartalékot"}}}, "n": 4},
           "facts": {"rounds": "four"}}
    text, bad = resolve_text("${terms.res.runway | acc}, ${facts.rounds | capitalize}, ${terms.n}, "
                             "${terms.res.nothing}, ${terms.res.runway | loud}", ctx)
    assert text.startswith("Tartalékot, Four, 4, ")
    assert [b[0] for b in bad] == ["${terms.res.nothing}", "${terms.res.runway | loud}"]
    assert [p.key for p in find_placeholders("${a.b}${c.d | upper}")] == ["a.b", "c.d"]


# ----------------------------------------------------------------------------- catalogues
def _book(bodies: dict[str, str]) -> object:
    text = "# Rules\n" + "".join(f"<!-- rule: demo/rules/{k} -->\n{v}\n\n" for k, v in bodies.items())
    return parse_rulebook(text, game="demo", lang="en", path="en.md")


def _roundtrip(cat):
    return C.parse_catalog_text(C.catalog_text(cat))


def test_changed_source_keeps_translation_fuzzy_with_previous_msgid():
    cat, _ = C.update_catalog(None, _book({"a": "Take 3 cards.", "b": "Shuffle."}), lang="hu")
    C.entries_by_context(cat)["demo/rules/a"].string = "Húzz 3 lapot."
    cat = _roundtrip(cat)
    cat, summary = C.update_catalog(cat, _book({"a": "Take 4 cards.", "b": "Shuffle."}), lang="hu")
    assert summary.changed == ["demo/rules/a"]
    cat = _roundtrip(cat)
    a = C.entries_by_context(cat)["demo/rules/a"]
    assert a.string == "Húzz 3 lapot." and "fuzzy" in a.flags and a.previous_id == ["Take 3 cards."]
    # a second change keeps the source the translation was made from
    cat, _ = C.update_catalog(cat, _book({"a": "Take 5 cards.", "b": "Shuffle."}), lang="hu")
    a = C.entries_by_context(_roundtrip(cat))["demo/rules/a"]
    assert a.previous_id == ["Take 3 cards."] and a.id == "Take 5 cards."
    text = C.catalog_text(cat)
    assert '#| msgid "Take 3 cards."' in text and "#, fuzzy" in text


def test_removed_clause_is_kept_obsolete_and_comes_back():
    cat, _ = C.update_catalog(None, _book({"a": "One.", "b": "Two lines\nhere."}), lang="hu")
    C.entries_by_context(cat)["demo/rules/b"].string = "Két sor\nitt."
    cat, summary = C.update_catalog(_roundtrip(cat), _book({"a": "One."}), lang="hu")
    assert summary.obsolete == ["demo/rules/b"]
    assert "#~ msgctxt \"demo/rules/b\"" in C.catalog_text(cat)
    cat, summary = C.update_catalog(_roundtrip(cat), _book({"a": "One.", "b": "Two lines\nhere."}), lang="hu")
    assert summary.revived == ["demo/rules/b"]
    b = C.entries_by_context(cat)["demo/rules/b"]
    assert b.string == "Két sor\nitt." and "fuzzy" not in b.flags


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from(["Take 2.", "Take 3.", "Draw one.", ""])),
                min_size=1, max_size=8))
def test_no_translation_is_ever_lost(edits):
    """Whatever sequence of source edits, every translation made stays in the file
    (live or obsolete) with the text the translator wrote."""
    bodies = {"a": "Start."}
    cat, _ = C.update_catalog(None, _book(bodies), lang="hu")
    made: dict[str, str] = {}
    for key, body in edits:
        if body:
            bodies[key] = body
        else:
            bodies.pop(key, None)
        if not bodies:
            bodies["a"] = "Start."
        cat, _ = C.update_catalog(_roundtrip(cat), _book(bodies), lang="hu")
        for ctxt, msg in C.entries_by_context(cat).items():
            if ctxt.count("/") == 2 and not msg.string:
                msg.string = f"fordítás {ctxt} {len(made)}"
                made[ctxt] = msg.string
        kept = {m.context: m.string for m in list(_roundtrip(cat)) + list(_roundtrip(cat).obsolete.values())
                if m.context}
        for ctxt, text in made.items():
            assert kept.get(ctxt) == text


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(alphabet="abc def\n.🌟0123#-=<>|*`", min_size=1, max_size=30).filter(lambda s: s.strip()),
                min_size=1, max_size=6))
def test_compose_with_own_texts_is_the_identity(bodies):
    # bodies as the contract extracts them: no trailing spaces, no blank lines at the ends
    bodies = ["\n".join(ln.rstrip() for ln in b.strip().splitlines()) for b in bodies]
    text = "# Rules\n\n" + "\n".join(f"<!-- rule: demo/rules/c{i} -->\n{b}\n" for i, b in enumerate(bodies))
    book = parse_rulebook(text, game="demo")
    same = {c.id: c.body for c in book.clauses.values()} | {s.id: s.title for s in book.sections.values()}
    assert compose(book, same).rstrip("\n") == text.rstrip("\n")


# ----------------------------------------------------------------------------- files on disk
@pytest.fixture
def demo_cards(tmp_path, monkeypatch):
    root = tmp_path / "cards"
    (root / "demo" / "rules").mkdir(parents=True)
    (root / "demo" / "terms").mkdir()
    (root / "demo" / "rules" / "en.md").write_text(BOOK, encoding="utf-8")
    (root / "demo" / "terms" / "en.yaml").write_text("tiles: {frontier: Frontier}\n", encoding="utf-8")
    (root / "demo" / "terms" / "hu.yaml").write_text("tiles: {frontier: Határvidék}\n", encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_CARDS", str(root))
    return root / "demo"


def test_import_translation_then_render(demo_cards, tmp_path):
    hu = (BOOK.replace("# Setup 🎲", "# Előkészítés 🎲")
          .replace("Deal 3 cards to each player.", "Ossz 3 lapot minden játékosnak.")
          .replace("## Play", "## Játék").replace("Take turns clockwise.", "Óramutató szerint következtek.")
          .replace("On your turn take two actions.", "A körödben két akciót hajts végre."))
    src = tmp_path / "hu.md"
    src.write_text(hu, encoding="utf-8")
    assert C.source_language("demo") == "en"
    _cat, summary = C.import_translation("demo", "hu", src)
    assert "demo/setup/deal" in summary.translated and "demo/setup" in summary.translated
    assert C.translation_languages("demo") == ["hu"] and C.source_language("demo") == "en"
    from workbench.rules.render import render
    res = render("demo", "hu")
    assert "# Előkészítés 🎲" in res.text and "Ossz 3 lapot" in res.text
    assert "| Határvidék | 2 |" in res.text and not res.unresolved
    # re-importing the same file after the source changed must not clear the fuzzy flag
    (demo_cards / "rules" / "en.md").write_text(BOOK.replace("Deal 3 cards", "Deal 4 cards"), encoding="utf-8")
    _cat, summary = C.import_translation("demo", "hu", src)
    assert "demo/setup/deal" in summary.changed and "demo/setup/deal" not in summary.translated
    msg = C.entries_by_context(C.read_catalog(C.po_path("demo", "hu")))["demo/setup/deal"]
    assert "fuzzy" in msg.flags


def test_translation_with_a_missing_marker_is_refused(demo_cards, tmp_path):
    bad = tmp_path / "hu.md"
    bad.write_text(BOOK.replace("<!-- rule: demo/setup/deal -->\n", ""), encoding="utf-8")
    with pytest.raises(DataError, match="clauses missing: demo/setup/deal"):
        C.import_translation("demo", "hu", bad)


def test_a_broken_catalogue_is_refused_with_its_line(demo_cards, tmp_path):
    cat, _ = C.update_catalog(None, parse_rulebook(BOOK, game="demo", lang="en", path="en.md"), lang="hu")
    C.entries_by_context(cat)["demo/setup/deal"].string = 'Ossz 3 "lapot".'
    text = C.catalog_text(cat)
    assert C.entries_by_context(C.parse_catalog_text(text))["demo/setup/deal"].string == 'Ossz 3 "lapot".'
    broken = text.replace('msgstr "Ossz 3', 'msgstr Ossz 3')
    path = C.po_path("demo", "hu")
    path.write_text(broken, encoding="utf-8")
    line = broken.splitlines().index(next(ln for ln in broken.splitlines() if ln.startswith("msgstr Ossz"))) + 1
    with pytest.raises(DataError, match=f"hu.po.*line {line}: not valid PO syntax"):
        C.read_catalog(path)
