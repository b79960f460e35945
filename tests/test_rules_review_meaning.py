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
