"""Adding, duplicating and deleting cards in the tweak session of every bundled
game (workbench.tweak.card_ops): validated before the card enters the pool,
refused while something names it, one undo step each, saved the round-trip way.
The scaffolded game's own test is in tests/test_new_game.py."""

from __future__ import annotations

import pytest

from workbench.core.errors import DataError, WorkbenchError
from workbench.core.registry import get_game
from workbench.tweak.card_ops import CardInUse
from workbench.tweak import open_session

#: game -> (a kind it adds, its card file, a card scenarios name, one such scenario)
GAMES = {
    "meaning-made": ("initiative", "initiatives.yaml", "Listening Circle", "scenario contribute-filled-boxes.yaml"),
    "mandate-2038": ("headline", "headlines.yaml", "Talent War", "scenario headline-talent.yaml"),
    "pax-transhumanity": ("idea", "ideas.yaml", "Gene Drive", "scenario import-idea.yaml"),
}


@pytest.fixture(params=sorted(GAMES))
def game(request, cards_copy, monkeypatch):
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    gid = request.param
    kind, file, named, scenario = GAMES[gid]
    folder = cards_copy / gid.replace("-", "_")
    return gid, open_session(gid), kind, folder / file, named, scenario


def _names(session) -> list[str]:
    return session.table()["name"].to_list()


def test_add_duplicate_delete_and_undo_them(game):
    gid, s, kind, _, _, _ = game
    before = _names(s)
    assert kind in s.blank_kinds and set(s.blank_kinds) <= set(get_game(gid).card_blanks)
    report = s.add_card(kind)
    new = next(n for n in _names(s) if n not in before)
    assert new.startswith("New ") and any(new in line for line in report.lines())
    assert s.add_card(kind).card != new            # a second blank gets a fresh name
    twin = s.duplicate_card(new).card
    assert twin == f"{new} copy" and _names(s).index(twin) == _names(s).index(new) + 1
    assert s.named_by(twin) == []
    s.delete_card(twin)
    assert twin not in _names(s) and len(_names(s)) == len(before) + 2
    # the card graph holds the new cards, and the session's game plays the edited pool
    assert new in s.card_names()
    assert get_game(s.session_game()).cards() is s.cards
    for _ in range(3):
        s.undo()
    assert new in _names(s) and len(_names(s)) == len(before) + 1   # back to the first add
    s.undo()
    assert _names(s) == before and not s.can_undo
    s.redo()
    assert new in _names(s) and s.can_redo


def test_refusals_change_nothing(game):
    """A delete while a scenario names the card (the refusal lists them), a bad
    or lookalike name, an unknown kind: each refused, the pool as it was."""
    _, s, kind, _, named, scenario = game
    table = s.table()
    with pytest.raises(CardInUse, match=f"cannot delete {named}: it is named by .*scenario") as refused:
        s.delete_card(named)
    assert scenario in refused.value.names and refused.value.names == s.named_by(named)
    with pytest.raises(DataError, match="60|long"):
        s.add_card(kind, name="x" * 61)               # the loader's CardName
    with pytest.raises(DataError):                    # a lookalike of a card's name (Cyrillic е, о, С)
        s.duplicate_card(named, name=named.replace("e", "\u0435").replace("o", "\u043e").replace("C", "\u0421"))
    with pytest.raises(DataError, match="exists already"):
        s.add_card(kind, name=named.upper())
    with pytest.raises(WorkbenchError, match="cannot be added"):
        s.add_card("no-such-kind")
    assert s.table().equals(table) and not s.can_undo and not s.dirty


@pytest.mark.parametrize("gid, kind, column", [("meaning-made", "initiative", "flavour"),
                                               ("mandate-2038", "headline", "text")])
def test_a_card_naming_another_blocks_its_delete(cards_copy, gid, kind, column):
    """Planted: another card's free text is exactly the new card's name (Pax
    ideas have no free text; a setting naming a card is the MM case below)."""
    s = open_session(gid)
    new = s.add_card(kind).card
    table = s.table()
    other = next(n for n in table.filter(table["kind"] == kind)["name"] if n != new)
    s.edit(other, column, new)
    with pytest.raises(CardInUse) as refused:
        s.delete_card(new)
    assert refused.value.names == [f"{kind} {other}"]
    if gid == "meaning-made":   # the Initiative that ends the game is named by a setting
        assert "settings.yaml" in s.named_by("Stewardship")


def test_a_kind_without_a_blank_is_not_added_or_deleted(cards_copy):
    s = open_session("mandate-2038")
    with pytest.raises(WorkbenchError, match="a tile cannot be added, duplicated or deleted here"):
        s.add_card("tile")
    with pytest.raises(DataError, match="a tile cannot be added"):
        s.delete_card("Research")


def test_saves_keep_the_file_and_a_delete_gives_it_back(game):
    gid, s, kind, path, _, _ = game
    original = path.read_text(encoding="utf-8")
    new = s.add_card(kind).card
    s.save()
    added = path.read_text(encoding="utf-8")
    kept = original.splitlines()
    assert added.splitlines()[:len(kept)] == kept     # only lines after the others: comments kept
    assert new in added
    again = open_session(gid)
    assert new in _names(again)
    again.delete_card(new)
    again.save()
    assert path.read_text(encoding="utf-8") == original
