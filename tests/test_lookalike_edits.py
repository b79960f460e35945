"""A card renamed on the Cards page (the tweak session) to a name that looks like
another card's (a Cyrillic letter in place of a Latin one) is refused as the
loader refuses such a file, and the pool is left as it was (issue 24)."""

from __future__ import annotations

import pytest

from workbench.core.errors import DataError
from workbench.tweak import open_session

CASES = [("meaning-made", "Pulse", "Shell", "Sh\u0435ll"),
         ("pax-transhumanity", "Gene Drive", "Algae Reactor", "Alg\u0430e Reactor")]


@pytest.mark.parametrize("game, card, other, lookalike", CASES)
def test_renaming_to_a_lookalike_is_refused_and_changes_nothing(init_folder, game, card, other, lookalike):
    session = open_session(game, folder=init_folder / game.replace("-", "_"))
    before = session.raw
    with pytest.raises(DataError) as err:
        session.edit(card, "name", lookalike)
    text = str(err.value)
    assert "looks like the card" in text and "CYRILLIC" in text and (repr(other) in text or repr(lookalike) in text)
    assert session.raw is before and not session.dirty
    # a plain new name is still fine
    session.edit(card, "name", card + " Two")
