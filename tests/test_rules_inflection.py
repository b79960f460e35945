"""Every inflected placeholder of every bundled Hungarian text prints a real word.

A Hungarian catalogue bends terms it does not spell out: ``${...|az}`` writes the
article, ``${...|acc}`` a named form, and letters glued to a placeholder a suffix
(``${terms.playerTracks.scrutiny}-kockát``). The source never shows these words, so
they are rendered here (workbench.rules.inflection) and each printed word is looked up
in the Hungarian hunspell dictionary, each article held to the reading the review's
article check uses. ``${terms.playerTracks.trust|az}ot`` prints "a Bizalomot" and is
caught; the planted tests show it.
"""

from __future__ import annotations

import re

import pytest

from workbench.core.registry import game_ids
from workbench.rules import catalog as C
from workbench.rules.inflection import inflected_uses, rules_texts
from workbench.rules.placeholders import context_for, hungarian_article
from workbench.rules.review import load_accepted
from workbench.rules.review_checks.articles import needs_az
from workbench.rules.review_checks.dictionary import knows

LANG = "hu"


def hungarian_games() -> list[str]:
    return [g for g in game_ids()
            if C.source_language(g) == LANG or LANG in C.translation_languages(g)]


def accepted_words(game_id: str) -> set[str]:
    """Words the game accepts as spelt (coined verbs such as "bankol")."""
    out: set[str] = set()
    for entry in load_accepted(game_id):
        if entry.get("check") in ("spelling", "terms-spelling") and entry.get("lang", LANG) == LANG:
            out.update(str(w).lower() for w in entry.get("words") or [])
    return out


def unknown(word: str, accepted: set[str]) -> list[str]:
    """The parts of a printed word the dictionary does not know (a hyphen joins parts
    each spelt on its own: Felügyelet-kockát; an acronym such as MÁI is read aloud)."""
    bad = []
    for part in (p for p in word.split("-") if p):
        if part.isdigit() or (len(part) > 1 and part.isupper()) or part.lower() in accepted:
            continue
        if not knows(LANG, part):
            bad.append(part)
    return bad


def problems(game_id: str) -> tuple[int, list[str]]:
    """How many inflected uses the game's Hungarian texts have, and what is wrong with them."""
    ctx = context_for(game_id, LANG)
    accepted = accepted_words(game_id)
    n, out = 0, []
    for where, text in rules_texts(game_id, LANG):
        for use in inflected_uses(text, ctx, where):
            n += 1
            for w in use.words:
                for part in unknown(w, accepted):
                    out.append(f"{where}: {use.raw} prints {use.printed!r}; {part!r} is not a Hungarian word")
            if use.article:
                want = "az" if needs_az(use.word) else "a"
                if use.article.lower() != want:
                    out.append(f"{where}: {use.raw} prints {use.printed!r}; the review reads {want!r}")
        if where.startswith("content."):
            # the content overlay spells terms out, inflected ("1 Tartalékkal olcsóbb")
            for w in re.findall(r"[\w-]+", text):
                if w[0].isdigit():
                    continue    # a number and its suffix (1-gyel)
                n += 1
                out += [f"{where}: {w!r} ({p!r}) is not a Hungarian word" for p in unknown(w, accepted)]
    return n, out


@pytest.fixture(autouse=True)
def dictionary():
    if knows(LANG, "Bizalmat") is None:
        pytest.skip("no Hungarian hunspell dictionary (hunspell-hu) or spylls")


def test_every_bundled_game_has_hungarian_texts_to_check():
    assert set(hungarian_games()) == {"meaning-made", "mandate-2038", "pax-transhumanity"}
    n, _ = problems("mandate-2038")
    assert n > 60       # Mandate 2038 inflects nearly every term through placeholders


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_every_inflected_placeholder_prints_a_known_word(game_id):
    _n, found = problems(game_id)
    assert found == []


def test_a_suffix_glued_to_a_term_is_caught():
    """The mistake the issue names: the accusative glued to the article filter."""
    ctx = context_for("mandate-2038", LANG)
    [use] = inflected_uses("elveszi azt ${terms.playerTracks.trust|az}ot, amellyel", ctx, "x")
    assert use.printed == "a Bizalomot" and use.kind == "article"
    assert [unknown(w, set()) for w in use.words] == [["Bizalomot"]]
    [good] = inflected_uses("elveszi azt ${terms.playerTracks.trust|acc|az}, amellyel", ctx, "x")
    assert good.printed == "a Bizalmat" and [unknown(w, set()) for w in good.words] == [[]]


def test_the_planted_bizalomot_fails_the_catalogue(cards_copy):
    """Put the old mistake back into a copy of the Mandate catalogue: the check names the clause."""
    path = cards_copy / "mandate_2038" / "rules" / "hu.po"
    text = path.read_text(encoding="utf-8")
    assert "${terms.playerTracks.trust|acc|az}" in text
    path.write_text(text.replace("${terms.playerTracks.trust|acc|az}", "${terms.playerTracks.trust|az}ot"),
                    encoding="utf-8")
    _n, found = problems("mandate-2038")
    assert len(found) == 1 and "mandate-2038/agi/recorded" in found[0] and "'Bizalomot'" in found[0]


def test_a_misspelt_content_string_fails(cards_copy):
    path = cards_copy / "mandate_2038" / "rules" / "content.hu.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("1 Tartalékkal olcsóbb", "1 Tartalékal olcsóbb", 1), encoding="utf-8")
    _n, found = problems("mandate-2038")
    assert len(found) == 1 and "Tartalékal" in found[0]


@pytest.mark.parametrize("word, article", [("MÁI", "az"), ("KKV", "a"), ("IV.", "a"), ("I.", "az"),
                                           ("V. Korszak", "az"), ("Csip", "a"), ("Ügyfelek", "az"),
                                           ("Bizalom", "a"), ("5", "az"), ("1000", "az")])
def test_the_article_filter_reads_as_the_review_does(word, article):
    """One reading of a word's first sound: the filter writes what the review's article check expects."""
    assert hungarian_article(word) == article
    assert ("az" if needs_az(word) else "a") == article


@pytest.mark.parametrize("word, article", [
    ("1", "az"), ("5", "az"), ("50", "az"), ("500", "az"), ("1000", "az"), ("5000", "az"), ("5 000", "az"),
    ("1 000 000", "az"), ("2", "a"), ("20", "a"), ("100", "a"), ("10", "a"), ("10000", "a"), ("15", "a"),
    ("I.", "az"), ("V.", "az"), ("L.", "az"), ("LV.", "az"), ("II.", "a"), ("IV.", "a"), ("X.", "a"),
    ("C.", "a")])
def test_numbers_take_the_article_of_how_they_are_read(word, article):
    """egy, öt, ötven, ötszáz, ezer, ötezer, egymillió and the ordinals első, ötödik, ötvenedik open with a
    vowel; kettő, húsz, száz, tíz, tízezer, második, negyedik, tizedik, századik do not. The filter and the
    review's check give the same answer, since the check reads through the filter's function."""
    assert hungarian_article(word) == article
    assert needs_az(word) is (article == "az")
