"""Marks in rendered rulebooks: draft values (‡), clauses decided by rulings (†), the
legend, ``--plain``, and the refusal to render a template into another language."""

from __future__ import annotations

import re

import pytest

from workbench.cli import main
from workbench.rules.catalog import load_source, source_language, translation_languages
from workbench.rules.marks import is_draft, load_rulings
from workbench.rules.model import parse_rulebook
from workbench.rules.render import render

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def test_marker_names_rulings():
    book = parse_rulebook("# A\n\n<!-- rule: g/a/x ruling: one, two-b -->\nText.\n\n<!-- rule: g/a/y -->\nMore.\n",
                          game="g")
    assert book.clauses["g/a/x"].rulings == ("one", "two-b")
    assert book.clauses["g/a/x"].body == "Text."
    assert book.clauses["g/a/y"].rulings == ()


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_marks_its_clause(game):
    """One place holds it: each ruling is named by the marker of the clause it decides."""
    book = load_source(game)
    named = {rid for c in book.clauses.values() for rid in c.rulings}
    rulings = load_rulings(game)
    assert named <= set(rulings), f"markers name unknown rulings: {named - set(rulings)}"
    assert set(rulings) <= named, f"rulings no clause marker names: {set(rulings) - named}"
    for rid in named:
        assert rid in book.clauses[rulings[rid]["clause"]].rulings


@pytest.mark.parametrize("game", GAMES)
def test_every_language_shows_the_marks_and_plain_leaves_them_out(game):
    for lang in [source_language(game)] + translation_languages(game):
        marked = render(game, lang)
        assert not marked.unresolved
        assert marked.rulings, f"{game} {lang}: no ruling marked"
        first = marked.rulings[0]
        assert f"[†1](#ruling-{first})" in marked.text
        assert f'<a id="ruling-{first}"></a>†1 `{first}`' in marked.text
        plain = render(game, lang, plain=True)
        assert "†" not in plain.text and "‡" not in plain.text and "ruling-" not in plain.text
        assert "<!--" not in plain.text  # the clause and section markers are for review, not for print


def test_draft_values_are_marked_in_both_languages():
    for lang in ("en", "hu"):
        text = render("mandate-2038", lang).text
        # Cloud's production is a draft; Capital's visit bonus is the source's.
        row = next(ln for ln in text.splitlines() if ln.startswith("| ") and "2 " in ln and "‡" in ln)
        assert row
        assert "‡" in text.split("---")[-1]  # the legend explains the mark
    en = render("mandate-2038", "en").text
    capital = next(ln for ln in en.splitlines() if ln.startswith("| Capital"))
    assert "Fund +1 Runway; Influence target |" in capital and "2 Runway‡" in capital


def test_is_draft_follows_blocks_and_draft_fields():
    ctx = {"content": {"a": {"provenance": "seed", "draft_fields": ["x"], "x": 1, "y": 2,
                             "rows": [{"provenance": "draft", "v": 3}]}},
           "terms": {"provenance": "draft", "t": "T"}}
    assert is_draft(ctx, "content.a.x") and not is_draft(ctx, "content.a.y")
    assert is_draft(ctx, "content.a.rows.0.v")
    assert not is_draft(ctx, "terms.t")  # words carry no mark


def test_unknown_ruling_in_a_marker_fails_render(cards_copy, capsys):
    path = cards_copy / "meaning_made" / "rules" / "en.md"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<!-- rule: (\S+)[^>]*-->", r"<!-- rule: \1 ruling: no-such-ruling -->", text, count=1)
    path.write_text(text, encoding="utf-8")
    assert main(["rules", "render", "meaning-made", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "no ruling 'no-such-ruling' in rulings.yaml" in err


def test_template_in_another_language_is_refused(tmp_path, capsys):
    tmpl = tmp_path / "book.md"
    tmpl.write_text("# ${terms.playerTracks.trust}\n\nPlain English prose.\n", encoding="utf-8")
    assert main(["rules", "render", "mandate-2038", "--lang", "hu", "--template", str(tmpl)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "written in en" in err
    assert main(["rules", "render", "mandate-2038", "--lang", "en", "--template", str(tmpl)]) == 0


@pytest.mark.parametrize("word,article", [("Elismerés", "az"), ("Bizalom", "a"), ("🛡️Életerő", "az"),
                                          ("Ügyfél", "az"), ("1", "az"), ("5", "az"), ("50", "az"),
                                          ("500", "az"), ("1000", "az"), ("2", "a"), ("10", "a"),
                                          ("11", "a"), ("100", "a"), ("150", "a")])
def test_hungarian_article_follows_the_first_sound(word, article):
    from workbench.rules.placeholders import hungarian_article
    assert hungarian_article(word) == article


def test_article_filter_follows_a_renamed_term(cards_copy):
    """Renaming Trust to a word with a vowel changes the article the Mandate book prints."""
    path = cards_copy / "mandate_2038" / "terms" / "hu.yaml"
    before = render("mandate-2038", "hu", plain=True).text
    assert "Amikor a Bizalom értéked" in before          # mandate-2038/milestones/trust
    path.write_text(path.read_text(encoding="utf-8").replace("text: Bizalom,", "text: Elismerés,"), encoding="utf-8")
    after = render("mandate-2038", "hu", plain=True).text
    assert "Amikor az Elismerés értéked" in after
    # every article the catalogue writes before the term now agrees with it
    import re as _re
    assert not _re.search(r"(?<![\w-])[aA] Elismerés", after.replace("A nulla Elismerés", ""))


def test_check_fails_on_a_marker_naming_an_unknown_ruling(cards_copy, capsys):
    path = cards_copy / "meaning_made" / "rules" / "en.md"
    text = path.read_text(encoding="utf-8").replace("ruling: first-player-fixed", "ruling: first-player-fixd", 1)
    path.write_text(text, encoding="utf-8")
    assert main(["check", "meaning-made"]) == 1
    out = capsys.readouterr().out
    assert "names ruling first-player-fixd, which rulings.yaml does not have" in out
    assert "first-player-fixed" in out   # the suggestion
