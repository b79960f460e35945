"""The sheet as the source of the cards: a row added, a row removed and a name
changed in an xlsx become a card added, removed and renamed (the game plays the new
pool, the YAML diff is those three cards, undo and save give the file back byte for
byte); a ';' CSV imports and says so; empty cells change nothing, ``(clear)`` empties;
every sheet of every game exports and re-imports with no change."""

from __future__ import annotations

import csv
import difflib

import openpyxl
import pytest
import yaml

from workbench.core.errors import DataError
from workbench.core.registry import get_game
from workbench.interop import card_sheets, spreadsheet
from workbench.tweak import open_session

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def _blocks(text: str, names: set[str]) -> set[int]:
    """Line numbers (0-based) of the list entries of ``text`` whose name is in ``names``."""
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("- name:")]
    out = set()
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        name = yaml.safe_load(lines[a].split("- name:", 1)[1])
        if str(name) in names:
            out.update(range(a, b))
    return out


def test_a_sheet_adds_removes_and_renames_cards_and_undo_gives_the_file_back(cards_copy, tmp_path):
    from workbench.core.cards import forget
    from workbench.testing import conformance_problems
    ideas_file = cards_copy / "pax_transhumanity" / "ideas.yaml"
    before = ideas_file.read_bytes()
    session = open_session(game_id="pax-transhumanity")
    out = tmp_path / "pax.xlsx"
    card_sheets.export(session, out)
    wb = openpyxl.load_workbook(out)
    ws = wb["idea"]
    header = [c.value for c in ws[1]]
    col = {h: i for i, h in enumerate(header)}
    rows = list(ws.iter_rows(min_row=2))
    free = [r for r in rows if r[col["name"]].value and not session.named_by(r[col["name"]].value)
            and (r[col["provenance"]].value or "") != ""]
    gone_row, renamed_row = free[0], free[1]
    # the new row copies a card whose effect is a choice "A or B" (a phrase of the effects cell)
    model = next(r for r in rows if " or " in str(r[col["effects"]].value or "")
                 and r[col["name"]].value not in (gone_row[col["name"]].value, renamed_row[col["name"]].value))
    gone, old = gone_row[col["name"]].value, renamed_row[col["name"]].value
    renamed_row[col["name"]].value = "Sheet Renamed Idea"
    new = [c.value for c in model]
    new[col["name"]], new[col["card"]] = "Sheet Added Idea", None
    ws.append(new)
    ws.delete_rows(gone_row[0].row)
    wb.save(out)

    result = card_sheets.import_file(session, out)
    assert result.removed == [("idea", gone)] and result.added == [("idea", "Sheet Added Idea")]
    assert [(c.card, c.column, c.new) for c in result.changes if c.column == "name"] == \
        [(old, "name", "Sheet Renamed Idea")]
    session.save()
    after = ideas_file.read_bytes()
    # the YAML diff is those three cards: every line taken out was the removed or the
    # renamed card's, every line put in is the added or the renamed card's
    a_text, b_text = before.decode("utf-8"), after.decode("utf-8")
    out_ok, in_ok = _blocks(a_text, {gone, old}), _blocks(b_text, {"Sheet Added Idea", "Sheet Renamed Idea"})
    ops = difflib.SequenceMatcher(None, a_text.splitlines(), b_text.splitlines(), autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    assert changed
    for tag, i1, i2, j1, j2 in changed:
        assert set(range(i1, i2)) <= out_ok and set(range(j1, j2)) <= in_ok, (tag, i1, i2, j1, j2)
    added = next(i for i in yaml.safe_load(b_text)["ideas"] if i["name"] == "Sheet Added Idea")
    twin = next(i for i in yaml.safe_load(a_text)["ideas"] if i["name"] == model[col["name"]].value)
    assert {k: v for k, v in added.items() if k not in ("name", "provenance")} == \
        {k: v for k, v in twin.items() if k not in ("name", "provenance", "draft_fields")}
    # the game plays the new pool
    forget()
    game = get_game("pax-transhumanity")
    names = set(game.cards().ideas)
    assert {"Sheet Added Idea", "Sheet Renamed Idea"} <= names and not {gone, old} & names
    assert conformance_problems(game, games=2) == []
    # one undo takes all three back; saving then gives the file back byte for byte
    session.undo()
    session.save()
    assert ideas_file.read_bytes() == before


def test_removing_a_card_something_names_is_refused_and_nothing_changes(cards_copy, tmp_path):
    session = open_session(game_id="pax-transhumanity")
    header, rows = card_sheets.tables(session)["idea"]
    named = next(r for r in rows if session.named_by(r[0]))
    kept = [r for r in rows if r is not named]
    spreadsheet.write({"idea": (header, kept)}, tmp_path, "csv")
    raw = session.raw
    with pytest.raises(DataError, match=f"{named[0]} has no row.*named by"):
        card_sheets.import_file(session, tmp_path / "idea.csv")
    assert session.raw is raw and not session.can_undo


def test_a_semicolon_csv_imports_and_says_so_and_empty_cells_change_nothing(cards_copy, tmp_path):
    session = open_session(game_id="mandate-2038")
    card_sheets.export(session, tmp_path / "sheets", "csv")
    path = tmp_path / "sheets" / "facility.csv"
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    runway = header.index("runway")
    old = int(rows[1][runway])
    rows[1][runway] = str(old + 1)
    with open(tmp_path / "facility.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter=";").writerows(rows)
    result = card_sheets.import_file(session, tmp_path / "facility.csv")
    assert any("';'-separated" in n for n in result.notes) and "';'-separated" in result.lines()[0]
    assert [(c.column, c.old, c.new) for c in result.changes] == [("runway", old, old + 1)]
    # an emptied number and an emptied text change nothing; (clear) empties a text on purpose
    session = open_session(game_id="mandate-2038")
    header, rows = card_sheets.tables(session)["tile"]
    text_col = next(c for c in ("contract", "visit") if any(r[header.index(c)] for r in rows))
    i = next(k for k, r in enumerate(rows) if r[header.index(text_col)])
    blanked = [list(r) for r in rows]
    blanked[i][header.index("runway")] = None
    blanked[i][header.index(text_col)] = None
    spreadsheet.write({"tile": (header, blanked)}, tmp_path / "b", "csv")
    assert not card_sheets.changes(session, spreadsheet.read(tmp_path / "b" / "tile.csv")).any
    blanked[i][header.index(text_col)] = card_sheets.CLEAR
    spreadsheet.write({"tile": (header, blanked)}, tmp_path / "b", "csv")
    found = card_sheets.changes(session, spreadsheet.read(tmp_path / "b" / "tile.csv")).changes
    assert [(c.column, c.new) for c in found] == [(text_col, "")]


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_of_every_game_exports_and_reimports_with_no_change(game, fmt, tmp_path):
    session = open_session(game_id=game)
    out = tmp_path / (f"cards.{fmt}" if fmt != "csv" else "cards")
    summary = card_sheets.export(session, out, fmt)
    assert summary["sheets"] and all(summary["sheets"].values())
    result = card_sheets.changes(session, spreadsheet.read(out, fmt))
    assert not result.any and result.untouched == [], (result.lines()[:5], result.untouched[:5])
    assert card_sheets.import_file(session, out, fmt).reports == [] and not session.can_undo


def test_watch_reimports_on_save_reports_a_refusal_and_stops_when_bounded(cards_copy, tmp_path):
    """The watch with a scripted clock: each poll is a step of the script (a save of
    the sheet, a bad save, nothing), so the test waits on no real time."""
    from workbench.interop.sheet_watch import watch
    session = open_session(game_id="mandate-2038")
    out = tmp_path / "m.xlsx"
    card_sheets.export(session, out)
    wb = openpyxl.load_workbook(out)
    ws = wb["facility"]
    header = [c.value for c in ws[1]]
    cell = ws.cell(row=2, column=header.index("runway") + 1)
    old = cell.value
    lines: list[str] = []
    steps = iter(["bad", None, None, "good", None, None, None])
    t = [0.0]

    def step(_seconds):
        t[0] += 1
        what = next(steps, None)
        if what == "bad":
            cell.value = "lots"
            wb.save(out)
        elif what == "good":
            cell.value = old + 2
            wb.save(out)

    assert watch("mandate-2038", out, interval=0.1, max_imports=1, duration=100, say=lines.append,
                 sleep=step, clock=lambda: t[0]) == 1
    assert any(line.startswith("refused, nothing saved") and "whole number" in line for line in lines)
    assert any(f"runway: {old} -> {old + 2}" in line for line in lines) and lines[-1].startswith("saved ")
    assert card_sheets.tables(open_session(game_id="mandate-2038"))["facility"][1][0][header.index("runway")] \
        == old + 2
    with pytest.raises(Exception, match="--interval"):
        watch("mandate-2038", out, interval=0)


def test_decks_without_a_card_list_have_a_sheet_too(cards_copy, tmp_path):
    """Meaning Made's Event deck (its code edited from the sheet) and Mandate's Core
    Action cards (shown, every faction's six; a change is refused with what to edit)."""
    session = open_session(game_id="meaning-made")
    header, rows = card_sheets.tables(session)["event"]
    assert len(rows) == 12 and header[:2] == ["name", "code"]
    draft = next(r for r in rows if r[header.index("provenance")] == "draft")
    edited = [list(r) for r in rows]
    edited[rows.index(draft)][1] = draft[1] % 6 + 1
    spreadsheet.write({"event": (header, edited)}, tmp_path / "mm", "csv")
    result = card_sheets.import_file(session, tmp_path / "mm" / "event.csv")
    assert [(c.card, c.column, c.new) for c in result.changes] == [(draft[0], "code", draft[1] % 6 + 1)]
    assert next(e for e in session.raw["events.yaml"]["events"] if e["id"] == draft[0])["code"] == draft[1] % 6 + 1
    spreadsheet.write({"event": (header, edited[1:])}, tmp_path / "mm", "csv")
    with pytest.raises(DataError, match="cannot remove"):
        card_sheets.import_file(session, tmp_path / "mm" / "event.csv")
    mandate = open_session(game_id="mandate-2038")
    header, rows = card_sheets.tables(mandate)["action"]
    factions = card_sheets.tables(mandate)["faction"][1]
    assert len(rows) == 6 * len(factions) == 36
    changed = [list(r) for r in rows]
    changed[0][header.index("action")] = "sleep"
    spreadsheet.write({"action": (header, changed)}, tmp_path / "m", "csv")
    with pytest.raises(DataError, match="faction sheet"):
        card_sheets.import_file(mandate, tmp_path / "m" / "action.csv")
    assert not mandate.can_undo
