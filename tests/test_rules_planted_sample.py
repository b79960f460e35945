"""A small fixed-seed sample of the planted-mistake generator (workbench.rules.planting)
against the meaning review: each kind planted in one made-up clause pair must be
caught, and correct rewordings of it must stay quiet. The full measure over every
bundled clause is `python analyses/review_planted.py` (figures in docs/rules.md)."""

from __future__ import annotations

import random

import pytest

from workbench.rules.planting import MUTATORS, REWORDERS
from workbench.rules.review import meaning_findings

EN = "At the end of each round, the active player gains 2 money if they have no cards."
HU = "Minden forduló végén a soron lévő játékos 2 pénzt kap, ha nincs lapja."


def _findings(src, tr, src_lang, tr_lang):
    return meaning_findings("demo/x/y", src, tr, src_lang, tr_lang, {}, {}, [])


@pytest.mark.parametrize("src,tr,sl,tl", [(EN, HU, "en", "hu"), (HU, EN, "hu", "en")])
def test_bundled_style_pair_is_clean(src, tr, sl, tl):
    assert _findings(src, tr, sl, tl) == set()


@pytest.mark.parametrize("kind", ["number", "time", "condition", "actor"])
@pytest.mark.parametrize("src,tr,sl,tl", [(EN, HU, "en", "hu"), (HU, EN, "hu", "en")])
def test_planted_kind_is_caught(kind, src, tr, sl, tl):
    variants = MUTATORS[kind](tr, tl, random.Random(7))
    assert variants, f"the generator has no {kind} mistake for {tr!r}"
    for new, note in variants:
        assert _findings(src, new, sl, tl), f"{kind} not caught: {note}: {new!r}"


def test_synonym_rewordings_stay_quiet():
    for new, note in REWORDERS["synonym"](HU, "hu", random.Random(7)):
        assert _findings(EN, new, "en", "hu") == set(), note


def test_a_games_named_stretch_of_rounds_comes_from_the_game():
    """The lexicons name no game's stretch of rounds (issue 41): Mandate declares its
    Era (``Game.rules_words``), the review counts it as a time and the measure plants
    its mistakes with it; a game's declaration the lexicons cannot take is reported."""
    from workbench.core.game import RULES_CONCEPTS, rules_words_problems
    from workbench.rules.meaning import _lexicon, concepts, games_words
    from workbench.rules.planting import _game_info
    for lang in ("en", "hu"):   # the concepts left to the games are the contract's
        lex = _lexicon(lang, ())
        assert {n for n, c in lex.concepts.items() if not (c.words or c.forms or c.phrases)} == set(RULES_CONCEPTS)
    assert ("time.span", ("Era",)) in games_words("en") and ("time.span", ("Korszak",)) in games_words("hu")
    assert concepts("Once an Era, draw a card.", "en")["time.span"] == 1
    assert _game_info("mandate-2038", "en")["spans"] == ("Era",)
    assert _game_info("meaning-made", "en")["spans"] == ()
    text = "At the end of the game, draw a card."
    assert any("the Era" in new for new, _ in MUTATORS["time"](text, "en", random.Random(1), spans=("Era",)))
    assert not any("Era" in new for new, _ in MUTATORS["time"](text, "en", random.Random(1)))
    # the span word itself is swapped as written: "Era" (not only its partner "game")
    planted = [new for new, _ in MUTATORS["time"]("Once an Era, each era-style card.", "en", random.Random(1),
                                                  spans=("Era",))]
    assert "Once an Game, each era-style card." in planted
    assert not any("game-style" in new for new in planted)
    assert rules_words_problems({"time.span": {"en": ("Season",)}}) == []
    assert len(rules_words_problems({"time.turn": {"en": ("Season",)}, "time.span": {"en": "Season"}})) == 2
