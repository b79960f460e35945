"""The meaning checks added for unseen mistakes (issue 28): each catches a planted
case of its kind and stays quiet on a correct rewording of the same clause."""

from __future__ import annotations

import random

import pytest

from workbench.rules.planting import REWORDERS
from workbench.rules.review import meaning_findings


def _findings(src, tr, src_lang, tr_lang):
    return meaning_findings("demo/x/y", src, tr, src_lang, tr_lang, {}, {}, [])


EN = "Each player draws a card, then only the active player may pass; both players keep their cards."
HU = ("Minden játékos húz egy lapot, majd csak a soron lévő játékos passzolhat; mindkét játékos megtartja "
      "a lapjait.")


@pytest.mark.parametrize("src,tr,sl,tl", [(EN, HU, "en", "hu"), (HU, EN, "hu", "en")])
def test_the_pair_is_clean(src, tr, sl, tl):
    assert _findings(src, tr, sl, tl) == set()


@pytest.mark.parametrize("src,tr,sl,tl,detail", [
    # every -> one, both directions (Hungarian "egy" is also the article: counted against English "a")
    (EN, HU.replace("Minden játékos", "Egy játékos"), "en", "hu", "every -> one"),
    (HU, EN.replace("Each player", "One player"), "hu", "en", "every -> one"),
    # "only" dropped from an English source
    (EN, HU.replace("csak a soron", "a soron"), "en", "hu", "only lost (1 -> 0)"),
    # "both" become "one of"
    (EN, HU.replace("mindkét játékos", "az egyik játékos"), "en", "hu", "both lost"),
    (HU, EN.replace("both players", "one of the players"), "hu", "en", "both lost"),
])
def test_quantifier_changes_are_caught(src, tr, sl, tl, detail):
    assert ("quantifier", detail) in _findings(src, tr, sl, tl)


def test_unless_added_alone_is_caught():
    # the condition stays, and an "unless" no source word stands for is added beside it
    src = "If you have a card, draw one more."
    assert ("condition", "unless added") in _findings(src, "Ha van lapod, húzz még egyet, hacsak nem passzoltál.",
                                                      "en", "hu")
    assert not any(c == "condition" for c, _ in _findings(src, "Ha van lapod, húzz még egyet.", "en", "hu"))


@pytest.mark.parametrize("kind", ["article", "split"])
@pytest.mark.parametrize("src,tr,sl,tl", [(EN, HU, "en", "hu"), (HU, EN, "hu", "en")])
def test_rewordings_that_keep_the_meaning_stay_quiet(kind, src, tr, sl, tl):
    variants = REWORDERS[kind](tr, tl, random.Random(7))
    assert variants, f"no {kind} rewording of {tr!r}"
    for new, note in variants:
        assert _findings(src, new, sl, tl) == set(), f"{kind}: {note}: {new!r}"


def test_a_sentence_split_at_then_is_not_an_added_sentence():
    src = "Draw a card, then pass."
    assert not any(c == "sentences" for c, _ in _findings(src, "Húzz egy lapot. Ezután passzolj.", "en", "hu"))
    # a sentence that says something new still counts
    assert ("sentences", "1 -> 2") in _findings(src, "Húzz egy lapot, majd passzolj. A Csoport veszít.", "en", "hu")


def test_icon_terms_that_trade_the_compared_with_role_are_caught():
    src = "If your 🛡️Vitals are higher than your 🌳Legacy, gain 1."
    good = "Ha a 🛡️Életerőd magasabb a 🌳Örökségednél, kapsz 1-et."
    swapped = "Ha a 🌳Örökséged magasabb a 🛡️Életerődnél, kapsz 1-et."
    assert not any(c == "term-roles" for c, _ in _findings(src, good, "en", "hu"))
    assert any(c == "term-roles" and d.startswith("compared") for c, d in _findings(src, swapped, "en", "hu"))


# ---------------------------------------------------------------- per sentence, roles, icons, units (issue 28)
@pytest.mark.parametrize("src,bad,good,sl,tl,check,detail", [
    # "every" become "one" beside an English "a" (the article is not "one")
    ("Each player draws a card. The active player may pass.",
     "Egy játékos húz egy lapot. A soron lévő játékos passzolhat.",
     "Minden játékos húz egy lapot. A soron lévő játékos passzolhat.", "en", "hu", "quantifier", "every -> one"),
    # "only" added, and "only" lost under a Hungarian source
    ("Draw 2 cards.", "Csak 2 lapot húzz.", "Húzz 2 lapot.", "en", "hu", "quantifier", "only added in sentence 1"),
    ("Csak 2 lapot húzhatsz.", "You may draw 2 cards.", "You may draw only 2 cards.", "hu", "en", "quantifier",
     "only lost in sentence 1"),
    # together become alone
    ("All players lose together.", "Minden játékos egyedül veszít.", "Minden játékos együtt veszít.", "en", "hu",
     "actor", "group -> alone"),
    # a "game" become "Era" (Mandate's named stretch of rounds, its Game.rules_words) in
    # one sentence, with "game" said once more elsewhere
    ("A kártya a játék során látható. Az alapjátékban 2 lap van.",
     "The card is visible throughout the Era. In the standard game there are 2 cards.",
     "The card is visible throughout the game. In the standard game there are 2 cards.", "hu", "en", "time",
     "game -> span"),
    # "until the end" become "until the start" (*végéig* / *elejéig*), and a separable
    # "fejezi be" ("ends") become "begins"
    ("The boards stay face up until the end of the round.", "A táblák a forduló elejéig képpel felfelé maradnak.",
     "A táblák a forduló végéig képpel felfelé maradnak.", "en", "hu", "time", "end -> start"),
    ("Ha a Többség fejezi be a játékot, előtte minden lapot ki kell játszani.",
     "If the Plurality begins the game, every card is played out first.",
     "If the Plurality ends the game, every card is played out first.", "hu", "en", "time", "end -> start"),
    # a round named where the source names none ("turns" become "rounds")
    ("Utólag semmi sem váltja át a lapokat pontokra.", "Nothing rounds cards into points later.",
     "Nothing turns cards into points later.", "hu", "en", "time", "round added"),
    # "only" put before a count, where the source sentence says "one" elsewhere
    ("Draw one card, then discard 2 cards.", "Húzz egy lapot, majd csak 2 lapot dobj el.",
     "Húzz egy lapot, majd dobj el 2 lapot.", "en", "hu", "quantifier", "only added before 2"),
    # a negation added in a prose table cell (flavour text, compared cell by cell)
    ("| 1 | Strained. The world holds. | People keep building. |\n",
     "| 1 | Feszült. A világ nem tart ki. | Az emberek tovább építkeznek. |\n",
     "| 1 | Feszült. A világ kitart. | Az emberek tovább építkeznek. |\n", "en", "hu", "negation",
     "added in table row 1 cell 2"),
    # "only" dropped from a prose table cell ("nem csak", "not only", restricts nothing)
    ("| 1 | Lassú. Csak darabok maradtak. | Nem csak szerkezeti. |\n",
     "| 1 | Slow. Pieces are left. | Not only structural. |\n",
     "| 1 | Slow. Only pieces are left. | Not only structural. |\n", "hu", "en", "quantifier",
     "only lost in table row 1 cell 2"),
    # a number that counts another plain noun
    ("Each solved problem is worth 2 points.", "Minden megoldott probléma 2 lapot ér.",
     "Minden megoldott probléma 2 pontot ér.", "en", "hu", "number-nouns", "2 point -> 2 card"),
])
def test_meaning_changes_are_caught_and_rewordings_quiet(src, bad, good, sl, tl, check, detail):
    assert (check, detail) in _findings(src, bad, sl, tl)
    assert not any(c == check for c, _ in _findings(src, good, sl, tl))


@pytest.mark.parametrize("src,good,bad,detail", [
    # a term moved to another sentence
    ("Gain 1 ${terms.a}. Then lose 1 ${terms.b}.", "Kapsz 1 ${terms.a}-t. Ezután veszítesz 1 ${terms.b}-t.",
     "Kapsz 1 ${terms.b}-t. Ezután veszítesz 1 ${terms.a}-t.", "sentence 1 names terms.b"),
    # a term that keeps its place and turns from origin to goal
    ("Take 1 card from ${terms.a} and put it on ${terms.b}.", "Vegyél el 1 lapot ${terms.a}-ból, és tedd ${terms.b}-ra.",
     "Vegyél el 1 lapot ${terms.a}-ba, és tedd ${terms.b}-ra.", "origin -> goal: terms.a"),
])
def test_term_role_changes_are_caught(src, good, bad, detail):
    assert not any(c == "term-roles" for c, _ in _findings(src, good, "en", "hu"))
    assert ("term-roles", detail) in _findings(src, bad, "en", "hu")


def test_an_icon_on_another_terms_word_is_caught():
    from workbench.rules.glossary import GlossaryPair
    pairs = [GlossaryPair(["👤Player"], ["👤Játékos"], "test"), GlossaryPair(["☀️Energy"], ["☀️Energia"], "test")]
    src = "Each 👤Player gains 1 ☀️Energy."

    def found(tr):
        return meaning_findings("demo/x/y", src, tr, "en", "hu", {}, {}, pairs)
    assert not any(c == "icon-term" for c, _ in found("Minden 👤Játékos kap 1 ☀️Energiát."))
    assert ("icon-term", "👤Energia") in found("Minden 👤Energia kap 1 ☀️Energiát.")


@pytest.mark.parametrize("sl,tl", [("en", "hu"), ("hu", "en")])
def test_paraphrases_stay_quiet(sl, tl):
    # "at least 2" / "2 or more", *minden körben* / *körönként*: no finding the pair had not
    text = {"en": "At the end of the round, each player with at least 2 cards cannot pass.",
            "hu": "A forduló végén minden játékos legalább 2 lapot kap, minden körben legfeljebb 3-at."}
    other = {"en": "A forduló végén minden legalább 2 lappal rendelkező játékos nem passzolhat.",
             "hu": "At the end of the round each player gains at least 2 cards, at most 3 in each turn."}
    variants = REWORDERS["paraphrase"](text[tl], tl, random.Random(7))
    assert variants
    for new, note in variants:
        assert _findings(other[tl], new, sl, tl) <= _findings(other[tl], text[tl], sl, tl), note


def test_a_dropped_nem_of_negative_concord_is_caught():
    # "soha nem fizet" -> "soha fizet": the sentence keeps "soha" and has lost its negation;
    # an elliptical "soha," (no verb) still negates
    src = "It never pays again."
    assert not any(c == "negation" for c, _ in _findings(src, "Később soha többé nem fizet.", "en", "hu"))
    assert any(c == "negation" for c, _ in _findings(src, "Később soha többé fizet.", "en", "hu"))
    assert not any(c == "negation" for c, _ in _findings("Only A counts; B never, unless named.",
                                                         "Csak A számít; B soha, hacsak meg nem nevezik.",
                                                         "en", "hu"))


def test_terms_that_trade_places_across_others_are_caught():
    src = "Compare ${terms.a}, then ${terms.b}, then ${terms.c}, then ${terms.d}."
    good = "Hasonlítsd össze ${terms.a} értékét, majd ${terms.b}, aztán ${terms.c}, végül ${terms.d} értékét."
    bad = "Hasonlítsd össze ${terms.c} értékét, majd ${terms.b}, aztán ${terms.a}, végül ${terms.d} értékét."
    assert not any(c == "term-roles" for c, _ in _findings(src, good, "en", "hu"))
    assert ("term-roles", "swapped terms.a / terms.c") in _findings(src, bad, "en", "hu")
    # neighbours reordered by grammar (a possessor first) are not a swap
    assert not any(d.startswith("swapped") for c, d in _findings(src, good.replace(
        "${terms.a} értékét, majd ${terms.b}", "${terms.b} értékét, majd ${terms.a}"), "en", "hu"))
