"""The review's meaning-level checks one by one: what each counts, and the spelling locale."""

from __future__ import annotations

import pytest

from workbench.rules import catalog as C
from workbench.rules.review import EXPLANATIONS, review, spelling_available
from workbench.rules.review_checks import CATALOGUE_CHECKS, CLAUSE_CHECKS
from workbench.rules.review_checks.articles import needs_az
from workbench.rules.review_checks.catalogue import po_entries
from workbench.rules.review_checks.negation import bounds, negations
from workbench.rules.review_checks.sentences import sentences
from workbench.rules.review_checks.tokens import tokenize


def test_every_check_has_a_name_and_an_explanation():
    names = [c.name for c in CLAUSE_CHECKS + CATALOGUE_CHECKS]
    assert len(names) == len(set(names))
    for chk in CLAUSE_CHECKS + CATALOGUE_CHECKS:
        assert chk.name and chk.explanation() and EXPLANATIONS[chk.name] == chk.explanation()


@pytest.mark.parametrize("text, lang, n", [
    ("Senki sem nyer.", "hu", 1),                       # negative concord: one negation
    ("Soha nem ad Támogatást, és nem tud vagy nem akar.", "hu", 2),
    ("Amíg a készlet ki nem fogy, húzz.", "hu", 0),     # "amíg ... nem" is "until"
    ("A fedetlen Akadályok száma.", "hu", 1),
    ("It needs no action. It cannot or will not pay.", "en", 2),
    ("the number of uncovered Barriers", "en", 1),
    ("the unlocked project", "en", 0),                  # a reversal, not a negation
    ("közvetlenül és függetlenül", "hu", 0),
    # English has no negative concord: a second marker close by is a second negation
    ("A Facility is not never destroyed.", "en", 2),
    ("if there is not none left", "en", 2),
    ("It is neither blue nor red.", "en", 1),
])
def test_negations(text, lang, n):
    assert negations(text, lang) == n


def test_bounds():
    assert bounds("legfeljebb 3-mal", "hu")[0]["max"] == 1
    assert bounds("at least 5 bands", "en")[0]["min"] == 1
    assert bounds("no more than 2 actions", "en")[0]["max"] == 1
    assert negations("no more than 2 actions", "en") == 0   # a bound, not a negation


def test_sentences_know_hungarian_ordinals():
    assert sentences("A IV. Korszak után az 1. hozzájáruló kap. Kezdődik az I. Korszak.", "hu") == 2
    assert sentences("Era I begins. Draw 2.", "en") == 2
    assert sentences("| a | b |\n| --- | --- |\n| 1. | 2. |", "hu") == 0


def test_tokens_read_ordinals_multipliers_and_each():
    vals = [(t.value, t.ordinal, t.dist) for t in tokenize("az első és a 3. hozzájáruló 6-6 lapot kap, duplán", "hu")
            if t.kind == "num"]
    assert vals == [(1, True, False), (3, True, False), (6, False, True), (2, False, False)]
    en = [(t.value, t.ordinal) for t in tokenize("the 2nd and third get double", "en") if t.kind == "num"]
    assert en == [(2, True), (3, True), (2, False)]


@pytest.mark.parametrize("word, az", [("Értelem", True), ("Tőke", False), ("🌟Értelem", True), ("MÁI", True),
                                      ("IV.", False), ("V.", True), ("5-ös", True), ("12", False), ("1", True),
                                      ("Határvidék", False), ("Ügynök", True)])
def test_article_wants(word, az):
    assert needs_az(word) is az


def test_article_check_knows_the_article_filter():
    from workbench.rules.placeholders import context_for
    from workbench.rules.review_checks.articles import ArticleCheck
    ctx = context_for("mandate-2038", "hu")

    def run(text):
        return [d for d, _ in ArticleCheck().run(Pair("x", "", text, "", text, "en", "hu", tr_ctx=ctx))]
    power = "${terms.infrastructure.power}"        # Áram: takes "az"
    assert run(f"Az {power} kell.") == [] and run("${terms.infrastructure.power|Az} kell.") == []
    assert run(f"A {power} kell.") == [f"A {power}"]
    assert run("A ${terms.infrastructure.power|Az} kell.")   # the filter writes the article: a doubled one
    assert run("Tedd az 🌟Értelem jelölőjét.") == [] and run("Tedd a 🌟Értelem jelölőjét.") == ["a Értelem"]


def test_po_entries_keep_duplicates_and_contexts():
    text = ('msgid ""\nmsgstr ""\n"Language: hu\\n"\n\nmsgctxt "g/a"\nmsgid "One"\nmsgstr "Egy"\n'
            'msgctxt "g/a"\nmsgid "One"\nmsgstr "Egy!"\n\nmsgid "loose"\nmsgstr "laza"\n')
    entries = [e for e in po_entries(text) if e["msgid"]]
    assert [(e.get("msgctxt"), e["msgid"], e["msgstr"]) for e in entries] == [
        ("g/a", "One", "Egy"), ("g/a", "One", "Egy!"), (None, "loose", "laza")]


@pytest.mark.skipif(not (spelling_available("en-GB") and spelling_available("en-US")),
                    reason="needs hunspell-en-gb and hunspell-en-us")
def test_spelling_locale_comes_from_the_catalogue_or_a_setting(cards_copy):
    gb = review("pax-transhumanity", "en", spelling=True)
    assert gb.spelling == "on (en-GB)" and not [f for f in gb.findings if f.check == "spelling"]
    us = review("pax-transhumanity", "en", spelling=True, spelling_locale_setting="en-US")
    flagged = {w for f in us.findings if f.check == "spelling" for w in f.detail.split()}
    assert {"colour", "labour"} <= {w.lower() for w in flagged}
    # `rules update` keeps the region the translator chose
    C.update_game_catalog("pax-transhumanity", "en")
    assert "Language: en_GB" in C.po_path("pax-transhumanity", "en").read_text(encoding="utf-8")


def test_cli_refuses_a_malformed_locale(capsys):
    from workbench.cli import main
    assert main(["rules", "review", "pax-transhumanity", "--lang", "en", "--spelling-locale", "british!"]) == 1
    assert "en-GB" in capsys.readouterr().err


# ----------------------------------------------------------------------------- properties
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from workbench.rules.review_checks import Pair  # noqa: E402

_PIECES = ["nem", "soha", "legfeljebb", "legalább", "a", "az", "Értelem", "Tőke", "3", "5-öt", "6-6", "harmadik",
           "első", "1.", "IV.", "🌟", "🛡️", "${terms.x}", "|", "| --- |", "**", "(", ")", "„", "”", ".", ",", ";",
           "\n", "  ", "not", "never", "at most", "the", "and", "uncovered", "double", "kétszer", "top", "alja"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map(" ".join),
       st.lists(st.sampled_from(_PIECES), max_size=30).map(" ".join))
def test_checks_never_fail_and_a_text_agrees_with_itself(a, b):
    """Any text pair is checked without an exception; a text against itself (same
    language) gives nothing but the copy and article findings."""
    for src, tr in ((a, b), (a, a)):
        pair = Pair("g/s/c", src, tr, src, tr, "hu", "hu")
        found = {chk.name: chk().run(pair) for chk in CLAUSE_CHECKS}
        if src == tr:
            loud = {k: v for k, v in found.items() if v and k not in ("untranslated", "article")}
            assert loud == {}, loud


def test_a_doubled_word_is_not_read_across_a_placeholder():
    """A placeholder stands for a word: "a ${term} a pakliból" doubles nothing
    (the plugin trial's draft translation met this false alarm), while a word
    really written twice is still found beside one."""
    from workbench.rules.review_checks.base import Pair
    from workbench.rules.review_checks.typography import DoubledWordCheck

    def run(tr, src="the ${terms.cards.market} refills from the deck"):
        return [d for d, _ in DoubledWordCheck().run(Pair("x", src, tr, src, tr, "en", "hu"))]
    assert run("a ${terms.cards.market} a pakliból töltődik fel") == []
    assert run("a ${terms.cards.market} a a pakliból töltődik fel") == ["a a"]
    assert run("az az ${terms.cards.market} töltődik fel") == ["az az"]
