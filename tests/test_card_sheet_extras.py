"""Columns a designer adds to a sheet are kept as the cards' own fields (``extra``):
on every sheet whose cards can keep them, in every game; the YAML diff is those
cards' lines; a re-export shows them and re-imports with no change; ``(clear)``
removes one; undo then save gives the files back byte for byte; a print layout
reads them. A typo of a sheet's column, a bad name and a sheet that keeps none are
refused and change nothing. And every card of a kind a sheet can add, typed as a
new row, makes the same card (effects that offer a choice, records, codes)."""

from __future__ import annotations

import copy
import difflib

import openpyxl
import pytest

from workbench.core.errors import DataError
from workbench.interop import card_sheets, spreadsheet
from workbench.tweak import open_session

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _files(session) -> dict[str, bytes]:
    return {name: (session.folder / name).read_bytes() for name in session.file_names}


@pytest.mark.parametrize("game", GAMES)
def test_added_columns_are_kept_on_every_sheet_that_takes_them_and_undo_gives_the_files_back(game, cards_copy,
                                                                                             tmp_path):
    session = open_session(game_id=game)
    before = _files(session)
    out = tmp_path / "cards.xlsx"
    card_sheets.export(session, out)
    wb = openpyxl.load_workbook(out)
    kinds = sorted(session.extra_kinds & set(wb.sheetnames))
    assert kinds, "no sheet keeps columns of the designer's own"
    given: dict[tuple[str, str], dict] = {}
    for kind in kinds:
        ws = wb[kind]
        header = [c.value for c in ws[1]]
        at = header.index("card")
        ws.insert_cols(at + 1, 2)                 # two new columns before `card`
        ws.cell(row=1, column=at + 1).value = "art"
        ws.cell(row=1, column=at + 2).value = "print run"
        rows = list(ws.iter_rows(min_row=2))
        for n, row in enumerate(rows[:2]):        # the first two cards get values, the rest stay empty
            name = str(row[header.index("name")].value)
            row[at].value = f"{kind}-{n}.png"
            row[at + 1].value = n + 2
            given[(kind, name)] = {"art": f"{kind}-{n}.png", "print run": n + 2}
    wb.save(out)
    result = card_sheets.import_file(session, out)
    assert not result.added and not result.removed
    assert {(c.kind, c.card, c.column, c.new) for c in result.changes} == \
        {(k, n, f"extra.{f}", v) for (k, n), fields in given.items() for f, v in fields.items()}
    assert all(any(n.startswith(f"{k}: new column(s) 'art', 'print run' kept") for n in result.notes)
               for k in kinds)
    session.save()
    # the diff is the lines of those cards: every changed line names no other card
    others = {name for kind, name, _, _ in session.entries() if (kind, name) not in given}
    for name in session.file_names:
        a, b = before[name].decode("utf-8").splitlines(), (session.folder / name).read_text("utf-8").splitlines()
        changed = [ln for ln in difflib.unified_diff(a, b, n=0, lineterm="")
                   if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
        for line in changed:
            assert "extra" in line or not any(o in line for o in others), (name, line)
    # a fresh session reads them back, the export shows them and re-imports with no change
    from workbench.core.cards import forget
    forget()
    again = open_session(game_id=game)
    tables = card_sheets.tables(again)
    for (kind, name), fields in given.items():
        header, rows = tables[kind]
        row = next(r for r in rows if r[0] == name)
        assert {f: row[header.index(f)] for f in fields} == fields
    card_sheets.export(again, tmp_path / "again.xlsx")
    assert not card_sheets.changes(again, spreadsheet.read(tmp_path / "again.xlsx")).any
    # one undo takes every value back; a save then gives the files back byte for byte
    session.undo()
    session.save()
    assert _files(session) == before


def test_clear_removes_a_field_and_a_new_row_keeps_its_fields(cards_copy, tmp_path):
    session = open_session(game_id="pax-transhumanity")
    ideas = session.folder / "ideas.yaml"
    before = ideas.read_bytes()
    header, rows = card_sheets.tables(session)["idea"]
    header = header[:-1] + ["tagline", "card"]
    first = rows[0][:-1] + ["Rewrite the wild", rows[0][-1]]
    new = [None] * len(header)
    new[header.index("name")], new[header.index("spheres")] = "Sheet Idea", "green blue"
    new[header.index("effects")], new[header.index("tagline")] = "growth", "A new one"
    spreadsheet.write({"idea": (header, [first] + [r[:-1] + [None, r[-1]] for r in rows[1:]] + [new])},
                      tmp_path / "a", "csv")
    result = card_sheets.import_file(session, tmp_path / "a" / "idea.csv")
    assert result.added == [("idea", "Sheet Idea")]
    made = next(c for c in session.raw["ideas.yaml"]["ideas"] if c["name"] == "Sheet Idea")
    assert made["extra"] == {"tagline": "A new one"} and made["effects"] == ["growth"]
    session.save()
    assert "extra: {tagline: Rewrite the wild}" in ideas.read_text("utf-8")
    # (clear) removes the field, and the card's `extra` with its last one
    cleared = first[:-2] + [card_sheets.CLEAR]      # no `card` column: the sheet only edits
    spreadsheet.write({"idea": (header[:-1], [cleared])}, tmp_path / "b", "csv")
    result = card_sheets.import_file(session, tmp_path / "b" / "idea.csv")
    assert [(c.column, c.old, c.new) for c in result.changes] == [("extra.tagline", "Rewrite the wild", None)]
    assert "extra" not in session.raw["ideas.yaml"]["ideas"][0]
    session.undo()
    session.undo()
    session.save()
    assert ideas.read_bytes() == before


@pytest.mark.parametrize("game,kind,column,match", [
    ("mandate-2038", "tile", "Runway", "did you mean 'runway'"),      # a sheet's own column, other case
    ("pax-transhumanity", "idea", "effect", "did you mean 'effects'"),  # a typo
    ("pax-transhumanity", "idea", "art.file", "letters, digits, spaces"),  # a dot: no name for a field
    ("mandate-2038", "facility", "art", "keeps no columns of your own"),   # one block of the rules
    ("mandate-2038", "action", "art", "made from the game's data"),        # a deck made from the data
    ("meaning-made", "event", "art", "made from the game's data"),
])
def test_a_typo_a_bad_name_or_a_sheet_that_keeps_none_is_refused(game, kind, column, match, cards_copy, tmp_path):
    session = open_session(game_id=game)
    raw = copy.deepcopy(session.raw)
    header, rows = card_sheets.tables(session)[kind]
    spreadsheet.write({kind: (header[:-1] + [column, "card"], [r[:-1] + ["x", r[-1]] for r in rows])},
                      tmp_path, "csv")
    with pytest.raises(DataError, match=match) as err:
        card_sheets.import_file(session, tmp_path / f"{kind}.csv")
    assert f"column {chr(65 + len(header) - 1)} ({column})" in str(err.value)
    assert session.raw == raw and not session.can_undo


def test_a_layout_reads_the_extra_fields(cards_copy):
    """The printed card's record carries ``extra`` (texts), which a template reads
    as ``c.extra``; a card without any has an empty one."""
    from workbench.print.sheets import build_deck
    session = open_session(game_id="pax-transhumanity")
    name = session.raw["ideas.yaml"]["ideas"][0]["name"]
    report = session.edit(name, "extra.art", "gene.png")
    assert report.lines() == ["1 value of the cards' own fields (art): a print layout reads them, no rule does"]
    session.edit(name, "extra.copies", 3)
    session.save()
    from workbench.core.cards import forget
    forget()
    deck = build_deck("pax-transhumanity", "en")
    cards = [c for k in deck.kinds for c in k.cards]
    mine = next(c for c in cards if c["name"] == name)
    assert mine["extra"] == {"art": "gene.png", "copies": "3"}
    assert all(c["extra"] == {} for c in cards if c["name"] != name)


def _set(value):
    """A card's mapping without what is not set (an empty value, a zero count: the
    models' defaults), for comparing a card with its copy typed as a new row."""
    if isinstance(value, dict):
        out = {k: _set(v) for k, v in value.items() if k != "name"}
        return {k: v for k, v in out.items() if v not in (None, [], {}, "", 0)}
    if isinstance(value, list):
        return [_set(v) for v in value]
    return value


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_a_kind_a_sheet_adds_typed_as_a_new_row_is_the_same_card(game):
    """Each card's exported row, typed as a new row (an empty ``card`` cell), is
    read as an import reads it (:func:`card_sheets.changes`) and written into the
    kind's blank card as the import writes it (the session's ``_put``): it gives
    back the card. So every effect form of the bundled data (Pax's choices 'A or
    B', Mandate's effect records, Meaning Made's bonus and penalty codes) and every
    provenance can be typed in a new row."""
    from workbench.graphs import pool_edit
    session = open_session(game_id=game)
    tables = card_sheets.tables(session)
    catalogue = session._card_catalogue()
    pooled = hasattr(session, "catalogue")
    checked = 0
    for kind in session.blank_kinds:
        header, rows = tables[kind]
        typed = [[f"Typed Copy {i}" if col == "name" else None if col == "card" else v
                  for col, v in zip(header, row)] for i, row in enumerate(rows)]
        sheet = spreadsheet.Sheet(kind, header, typed, list(range(2, len(typed) + 2)), "typed.csv")
        result = card_sheets.changes(session, [sheet])
        assert result.added == [(kind, r[0]) for r in typed]
        for row, copy_row in zip(rows, typed):
            raw = copy.deepcopy(session.raw)
            twin = copy.deepcopy(pool_edit.find(raw, catalogue, f"{kind}:{row[0]}").card)
            pool_edit.insert_card(raw, session._kind(kind), session.blank(kind), copy_row[0])
            for c in result.changes:
                if c.card == copy_row[0]:
                    session._put(raw, f"{kind}:{c.card}" if pooled else c.card, c.column, c.new)
            made = pool_edit.find(raw, catalogue, f"{kind}:{copy_row[0]}").card
            assert _set(made) == _set(twin), (kind, row[0])
            checked += 1
    assert checked >= 10
