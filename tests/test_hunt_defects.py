"""The planted defects of the bundled games (workbench/games/<game>/defects.py),
which analyses/hunt_planted.py hunts to measure recall: every kind draws valid
edits that change the pool, with many variations, and Meaning Made's strong
card moves what its End Score adds up (Vitals beside Legacy, which stops at
its cap)."""

from __future__ import annotations

import random

import pytest

from workbench.core.registry import get_game
from workbench.hunt.planted import defects_module
from workbench.tweak import open_session

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _session(game_id):
    # values in, nothing asked of the card graph: an edit's analyses are not built
    session = open_session(game_id)
    session.analysing = False
    return session


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_plants_valid_edits_that_change_the_pool(game_id):
    module = defects_module(get_game(game_id))
    assert module is not None and module.KINDS
    session = _session(game_id)
    for kind in module.KINDS:
        defects = module.planted_defects(session, random.Random(f"test:{kind}"), kind, 6)
        assert len(defects) == 6 and all(d.kind == kind and d.expect for d in defects)
        # many variations of a kind, not one defect drawn again
        assert len({repr((d.edits, d.options)) for d in defects}) > 2, kind
        for d in defects[:2]:  # every edit the pool takes costs a validation: two a kind
            assert d.edits or d.options, d.note
            for card, field, value in d.edits:
                before = session.value_of(card, field)
                session.edit(card, field, value)  # raises on a value the pool refuses
                assert session.value_of(card, field) != before, d.note
            for _ in d.edits:
                session.undo()
    with pytest.raises(ValueError):
        module.planted_defects(session, random.Random(1), "no-such-kind", 1)


def test_meaning_made_strong_card_gives_vitals_beside_legacy():
    module = defects_module(get_game("meaning-made"))
    session = _session("meaning-made")
    cap = session.cards.settings.tracks["legacy"][1]
    for d in module.planted_defects(session, random.Random(5), "strong-card", 3):
        (card, field, text), = d.edits
        session.edit(card, field, text)
        bonus = session.value_of(card, field)
        assert 4 <= bonus["vitals"] <= 6 and 8 <= bonus["legacy"] < cap, d.note
