"""`workbench rules terms`: one rendering per term, for every bundled game, read from
the catalogue as well as declared in the terms and glossary files; a clause that says
a term another way, or uses a rendering where the source has no such term, is named."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main
from workbench.rules.terminology import terminology

TRANSLATIONS = [("meaning-made", "hu"), ("mandate-2038", "hu"), ("pax-transhumanity", "en")]


@pytest.mark.parametrize("game_id, lang", TRANSLATIONS)
def test_every_bundled_game_has_one_rendering_per_term(game_id, lang, capsys):
    rep = terminology(game_id, lang)
    bad = {r.term: (r.renderings, r.otherwise, r.unsourced) for r in rep.rows if not r.ok}
    assert bad == {} and rep.shared == {}
    assert main(["rules", "terms", game_id, "--lang", lang]) == 0
    assert capsys.readouterr().out.rstrip().endswith("one rendering per term, used for it in every clause")


def test_mandate_rules_words_are_in_the_report():
    """The words the issue found split (four for "ready", two for "bank", rival, loop) are held terms."""
    rows = {r.term: r for r in terminology("mandate-2038", "hu").rows}
    assert {t: rows[t].renderings for t in ("ready", "bank", "rival", "loop", "supply")} == {
        "ready": ["kész"], "bank": ["bankol"], "rival": ["rivális"], "loop": ["hurok"], "supply": ["készlet"]}
    assert rows["ready"].clauses == 4 and rows["rival"].clauses == 4


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_second_word_for_ready_is_named(cards_copy, capsys):
    po = cards_copy / "mandate_2038" / "rules" / "hu.po"
    _replace(po, "kiválasztja egy kész Alapakcióját", "kiválasztja egy még felhasználható Alapakcióját")
    rows = {r.term: r for r in terminology("mandate-2038", "hu").rows}
    assert rows["ready"].otherwise == ["mandate-2038/cycle/selection"] and not rows["ready"].ok
    assert main(["rules", "terms", "mandate-2038", "--lang", "hu"]) == 1
    out = capsys.readouterr().out
    assert "rendered otherwise in mandate-2038/cycle/selection" in out and "not one-to-one" in out


def test_loop_for_a_turn_is_named(cards_copy, capsys):
    """*hurok* (loop) where the source says "turn": the rendering is used for no source term."""
    po = cards_copy / "mandate_2038" / "rules" / "hu.po"
    _replace(po, "cselekedhet egy későbbi körben", "cselekedhet egy későbbi hurokban")
    assert main(["rules", "terms", "mandate-2038", "--lang", "hu", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    loop = next(t for t in doc["terms"] if t["term"] == "loop")
    assert loop["unsourced"] == ["mandate-2038/cycle/agents-persistent"] and doc["ok"] is False


def test_an_accepted_finding_does_not_count(cards_copy):
    """The Mandate heading keeps the game's name "Mandate 2038" (accepted): not a second rendering,
    until the acceptance is gone."""
    rows = {r.term: r for r in terminology("mandate-2038", "hu").rows}
    assert "mandate-2038/section" not in rows["Mandate"].otherwise
    (cards_copy / "mandate_2038" / "rules" / "accepted-findings.yaml").write_text("[]\n", encoding="utf-8")
    rows = {r.term: r for r in terminology("mandate-2038", "hu").rows}
    assert "mandate-2038/section" in rows["Mandate"].otherwise


def title_case_words(name: str, terms: set[str]) -> list[str]:
    """Words after the first that a Hungarian name should not capitalise: Hungarian
    capitalises only the first word of a name (*A zárt hurok*, not *A Zárt Hurok*). A word
    that is itself a game term keeps its capital, and a colon starts a new name."""
    from workbench.rules.text import strip_icons
    out = []
    for part in strip_icons(name).split(":"):
        out += [w for w in part.split()[1:] if w[:1].isupper() and w.strip(",.") not in terms]
    return out


def test_hungarian_names_capitalise_the_first_word_only():
    import yaml

    from workbench.core.data import cards_dir
    from workbench.rules.placeholders import flatten_terms, load_terms
    from workbench.rules.text import strip_icons
    assert title_case_words("A Zárt Hurok", set()) == ["Zárt", "Hurok"]
    assert title_case_words("Átbillenési pont: A gépek ébredése", set()) == []
    bad = []
    for game_id in ("meaning-made", "mandate-2038", "pax-transhumanity"):
        terms = flatten_terms(load_terms(game_id, "hu"))
        words = {strip_icons(v).strip() for v in terms.values()}
        names = list(terms.items())
        printed = yaml.safe_load((cards_dir(game_id) / "print" / "strings.hu.yaml").read_text(encoding="utf-8"))
        for card, fields in (printed.get("cards") or {}).items():
            for key in ("name", "ability_name"):
                if isinstance(fields, dict) and key in fields:
                    names.append((f"print {card}", fields[key]))
        bad += [f"{game_id} {where}: {name!r}" for where, name in names if title_case_words(str(name), words)]
    assert bad == []
