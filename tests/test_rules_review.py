"""Translation review: each check catches what it is for, and only that."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.rules import catalog as C
from workbench.rules.glossary import find_term, word_match
from workbench.rules.numbers import EN_WORDS, HU_WORDS, number_parity, numbers
from workbench.rules.review import ending, review

EN = """# Setup

<!-- rule: demo/setup/deal -->
Deal three cards to each ${terms.people.player}. Put the 🌟Meaning marker on 5.

<!-- rule: demo/setup/fundraise -->
Fundraise gives you 2 money.

<!-- rule: demo/setup/long -->
Each player keeps a private stock of tokens and may hold any number of them at once.
"""

HU_GOOD = {
    "demo/setup": "Előkészítés",
    "demo/setup/deal": "Ossz három lapot minden ${terms.people.player | dat}. Tedd az 🌟Értelem jelölőt az 5-ös mezőre.",
    "demo/setup/fundraise": "A Tőkebevonás 2 pénzt ad.",
    "demo/setup/long": "Minden játékosnak saját zsetonkészlete van, és egyszerre akárhány zsetont tarthat.",
}


@pytest.fixture
def demo(tmp_path, monkeypatch):
    root = tmp_path / "cards"
    game = root / "demo"
    (game / "rules").mkdir(parents=True)
    (game / "terms").mkdir()
    (game / "rules" / "en.md").write_text(EN, encoding="utf-8")
    (game / "terms" / "en.yaml").write_text("people: {player: player}\ntracks: {meaning: 🌟Meaning}\n",
                                           encoding="utf-8")
    (game / "terms" / "hu.yaml").write_text(
        "people:\n  player: {text: játékos, forms: {dat: játékosnak}}\ntracks: {meaning: 🌟Értelem}\n",
        encoding="utf-8")
    (game / "glossary.yaml").write_text("- {en: Fundraise, hu: Tőkebevonás}\n", encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_CARDS", str(root))

    def write(texts: dict[str, str]):
        source = C.load_source("demo")
        cat, _ = C.update_catalog(None, source, lang="hu")
        live = C.entries_by_context(cat)
        for k, v in texts.items():
            live[k].string = v
        C.write_catalog(C.po_path("demo", "hu"), cat)
    return game, write


def _checks(rev):
    return {(f.clause, f.check) for f in rev.findings}


def test_a_good_translation_has_no_findings(demo):
    _game, write = demo
    write(HU_GOOD)
    rev = review("demo", "hu", spelling=False)
    assert rev.findings == [], [f.message for f in rev.findings]
    assert rev.translated == 4 and rev.missing == 0


@pytest.mark.parametrize("clause, bad, check", [
    ("demo/setup/deal", "Ossz négy lapot minden ${terms.people.player | dat}. Tedd az 🌟Értelem jelölőt az 5-ös mezőre.",
     "numbers"),
    ("demo/setup/deal", "Ossz három lapot minden játékosnak. Tedd az 🌟Értelem jelölőt az 5-ös mezőre.", "placeholders"),
    ("demo/setup/deal", "Ossz három lapot minden ${terms.people.player | dat}. Tedd az Értelem jelölőt az 5-ös mezőre.",
     "icons"),
    ("demo/setup/deal", "Ossz három lapot minden ${terms.people.player | dat}. Tedd az 🌟Értelem jelölőt az 5-ös mezőre",
     "punctuation"),
    ("demo/setup/deal", "Ossz három lapot minden ${terms.people.playr}. Tedd az 🌟Értelem jelölőt az 5-ös mezőre.",
     "placeholders"),
    ("demo/setup/fundraise", "A Pénzgyűjtés 2 pénzt ad.", "glossary"),
    ("demo/setup/long", "Minden játékosnak van zsetonja.", "length"),
])
def test_each_mistake_is_caught_by_its_check(demo, clause, bad, check):
    _game, write = demo
    write({**HU_GOOD, clause: bad})
    rev = review("demo", "hu", spelling=False)
    assert (clause, check) in _checks(rev)
    finding = next(f for f in rev.findings if f.clause == clause and f.check == check)
    assert finding.message  # says what to fix


def test_missing_and_fuzzy(demo):
    game, write = demo
    write({k: v for k, v in HU_GOOD.items() if k != "demo/setup/long"})
    (game / "rules" / "en.md").write_text(EN.replace("gives you 2 money", "gives you 2 money at once"),
                                          encoding="utf-8")
    C.update_game_catalog("demo", "hu")
    rev = review("demo", "hu", spelling=False)
    assert ("demo/setup/long", "missing") in _checks(rev)
    assert ("demo/setup/fundraise", "fuzzy") in _checks(rev)
    assert rev.missing == 1 and rev.fuzzy == 1


def test_accepted_findings_and_stale_acceptances(demo):
    game, write = demo
    write({**HU_GOOD, "demo/setup/long": "Minden játékosnak van zsetonja."})
    (game / "rules" / "accepted-findings.yaml").write_text(
        "- {clause: demo/setup/long, check: length, reason: the Hungarian says it more briefly}\n"
        "- {clause: demo/setup/long, check: time, reason: holding them all at once goes without saying}\n"
        "- {clause: demo/setup/deal, check: numbers, detail: missing 7, reason: no longer true}\n",
        encoding="utf-8")
    rev = review("demo", "hu", spelling=False)
    assert rev.findings == []
    assert sorted(f.check for f in rev.accepted) == ["length", "time"]
    assert rev.stale and rev.stale[0]["clause"] == "demo/setup/deal"


def test_an_acceptance_is_bound_to_the_text_it_was_made_for(demo):
    game, write = demo
    short = "Minden játékosnak van zsetonja."
    write({**HU_GOOD, "demo/setup/long": short})
    (game / "rules" / "accepted-findings.yaml").write_text(
        f"- {{clause: demo/setup/long, check: length, text: '{short}', reason: briefer}}\n"
        f"- {{clause: demo/setup/long, check: time, text: '{short}', reason: briefer}}\n", encoding="utf-8")
    assert review("demo", "hu", spelling=False).findings == []
    write({**HU_GOOD, "demo/setup/long": "Minden játékosnak van néhány zsetonja."})
    rev = review("demo", "hu", spelling=False)
    assert {f.check for f in rev.findings} >= {"length"}, "a changed text reopens the accepted finding"


def test_acceptance_needs_a_reason(demo):
    game, write = demo
    write(HU_GOOD)
    (game / "rules" / "accepted-findings.yaml").write_text("- {clause: demo/setup/long, check: length}\n",
                                                            encoding="utf-8")
    from workbench.core.errors import DataError
    with pytest.raises(DataError, match="reason"):
        review("demo", "hu", spelling=False)


# ----------------------------------------------------------------------------- numbers
@given(st.integers(min_value=2, max_value=12))
def test_number_words_agree_across_languages(n):
    en = next(w for w, v in EN_WORDS.items() if v == n)
    hu = [w for w, v in HU_WORDS.items() if v == n]
    assert hu, n
    for form in hu:
        assert number_parity(f"take {en} cards", "en", f"vegyél {form} lapot", "hu") == ([], [])
        assert number_parity(f"take {n} cards", "en", f"vegyél {form} lapot", "hu") == ([], [])


def test_number_words_in_context():
    assert numbers("Húzz két lapot, majd hármat; az 5-öt; tizenkét zseton; kétféleképpen", "hu") == \
        {2: 2, 3: 1, 5: 1, 12: 1}
    # ordinary words that begin like number words are not numbers
    assert numbers("hatás ötlet négyzet hétfő", "hu") == {}
    # "egy" is also the article: a digit 1 may be written as it
    assert number_parity("Take 1 card.", "en", "Húzz egy lapot.", "hu") == ([], [])
    assert number_parity("Take 2 cards.", "en", "Húzz 3 lapot.", "hu") == ([2], [3])
    assert numbers("twenty-one players, ${content.x.9}", "en") == {21: 1}


# ----------------------------------------------------------------------------- glossary matching
def test_stem_matching_follows_hungarian_inflection():
    assert find_term("Értelem", "növeld az Értelmet")
    assert find_term("Minta", "a Mintát")
    assert not find_term("Minta", "mint egy")
    assert find_term("Játékosok", "minden Játékos", lenient=True)
    assert not find_term("Játékosok", "minden Játékos")
    assert find_term("🌳Legacy", "your 🌳Legacy grows") and not find_term("🌳Legacy", "if legally possible")
    assert not find_term("⚠️Consequence", "a ⚠️Pattern Consequence")
    assert find_term("Emberiség fejlődése", "az Emberiség fejlődésének sora")
    assert word_match("Tőkebevonás", "Tőkebevonással")
    assert word_match("Törékeny", "Törékennyé") and word_match("kártya", "kártyát")
    assert word_match("Fundraise", "Fundraising") and word_match("Hire", "Hiring")
    assert not word_match("Alkalmazás", "Alkalmazott") and not word_match("Kutatás", "Kutatóközpont")


def test_the_longer_term_wins_where_two_match(demo):
    from workbench.rules.glossary import GlossaryPair
    from workbench.rules.review import check_glossary
    pairs = [GlossaryPair(["Tőke"], ["Capital"], "t"), GlossaryPair(["Tőkebevonás"], ["Fundraise"], "t")]
    assert check_glossary("A Tőkebevonás pénzt ad.", "Fundraise gives money.", pairs) == []
    assert [d for d, _ in check_glossary("A Tőkebevonás pénzt ad.", "Raise gives money.", pairs)] == \
        ["Tőkebevonás -> Fundraise"]
    assert [d for d, _ in check_glossary("A Tőke nő.", "Money grows.", pairs)] == ["Tőke -> Capital"]


def test_endings():
    assert ending("Do it.") == "." and ending("Choose:") == ":" and ending("**Bold.**") == "."
    assert ending("| a | b |") == "table" and ending("Ends with 🌟") == "none"


# ----------------------------------------------------------------------------- spelling
@pytest.mark.skipif(not __import__("workbench.rules.review", fromlist=["x"]).spelling_available("hu"),
                    reason="no Hungarian hunspell dictionary installed")
def test_spelling_finds_unknown_words_and_accepts_listed_ones(demo):
    game, write = demo
    write({**HU_GOOD, "demo/setup/fundraise": "A Tőkebevonás 2 pénzt add xyzqw."})
    rev = review("demo", "hu", spelling=True)
    spell = [f for f in rev.findings if f.check == "spelling"]
    assert [f.clause for f in spell] == ["demo/setup/fundraise"] and "xyzqw" in spell[0].detail
    (game / "rules" / "accepted-findings.yaml").write_text(
        "- {check: spelling, lang: hu, words: [xyzqw], reason: a card name the dictionary cannot know}\n",
        encoding="utf-8")
    assert [f for f in review("demo", "hu", spelling=True).findings if f.check == "spelling"] == []


# ----------------------------------------------------------------------------- the bundled texts
def _bundled():
    from workbench.core.registry import game_ids
    return [(g, lang) for g in game_ids() for lang in C.translation_languages(g)]


@pytest.mark.parametrize("game_id, lang", _bundled())
def test_bundled_translations_show_only_accepted_findings(game_id, lang):
    rev = review(game_id, lang, spelling=False)
    assert rev.missing == 0 and rev.fuzzy == 0
    assert rev.findings == [], "\n".join(f"{f.clause} [{f.check}] {f.message}" for f in rev.findings)
    assert rev.stale == []
