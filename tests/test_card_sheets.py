"""Cards in a spreadsheet: export, change a value in a spreadsheet library,
import; the game plays the new value, the YAML diff is that one line, and a bad
cell is refused with its file, sheet, row and column (nothing changes)."""

from __future__ import annotations

import difflib

import openpyxl
import pytest

from workbench.cli import main
from workbench.core.errors import DataError
from workbench.core.game import GameConfig
from workbench.core.registry import get_game
from workbench.tweak import open_session
from workbench.interop import card_sheets, spreadsheet


def _cell(ws, column: str, name: str):
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if row[header.index("name")].value == name:
            return row[header.index(column)]
    raise AssertionError(f"no row {name}")


def _facility_cost(game_id: str = "mandate-2038") -> int:
    from workbench.games.mandate_2038.build import facility_cost
    state = get_game(game_id).new_initial_state(GameConfig(players=("a", "b", "c"), seed=3))
    seat = next(i for i, p in enumerate(state.players) if p.ability != "utility_permits")
    pos = next(i for i, t in enumerate(state.tiles) if t not in ("chip", None))
    return facility_cost(state, seat, pos)


def test_xlsx_round_trip_one_cost_is_played_and_one_line_changes(cards_copy, tmp_path):
    game_yaml = cards_copy / "mandate_2038" / "game.yaml"
    before_text = game_yaml.read_text(encoding="utf-8")
    cost_before = _facility_cost()
    out = tmp_path / "mandate.xlsx"
    assert main(["cards", "export", "mandate-2038", "--out", str(out)]) == 0
    wb = openpyxl.load_workbook(out)
    assert {"tile", "facility", "project", "headline", "faction"} <= set(wb.sheetnames)
    cell = _cell(wb["facility"], "runway", "Facility")
    old = cell.value
    cell.value = old + 1
    wb.save(out)

    assert main(["cards", "import", "mandate-2038", str(out)]) == 0
    after_text = game_yaml.read_text(encoding="utf-8")
    diff = [line for line in difflib.unified_diff(before_text.splitlines(), after_text.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert diff == [f"-    facilityCost: {old}", f"+    facilityCost: {old + 1}"]
    assert "#" in after_text and after_text.count("#") == before_text.count("#")   # comments kept
    assert _facility_cost() == cost_before + 1                                      # the game plays it
    # an export of the imported pool is the same workbook: nothing else moved
    again = open_session(game_id="mandate-2038")
    assert card_sheets.changes(again, spreadsheet.read(out)).changes == []


def test_bad_cell_is_refused_with_sheet_row_and_column(cards_copy, tmp_path):
    session = open_session(game_id="mandate-2038")
    out = tmp_path / "m.xlsx"
    card_sheets.export(session, out)
    wb = openpyxl.load_workbook(out)
    ws = wb["project"]
    good = _cell(ws, "runway", next(r[0].value for r in ws.iter_rows(min_row=3, max_row=3)))
    good.value = good.value + 1            # a good change before the bad one: refused with it
    bad = _cell(ws, "compute", ws["A2"].value)
    bad.value = "lots"
    wb.save(out)
    raw, undo = session.raw, session.can_undo
    with pytest.raises(DataError) as err:
        card_sheets.import_file(session, out)
    message = str(err.value)
    column = bad.column_letter
    assert f"file {out}" in message and "sheet 'project'" in message
    assert f"row 2, column {column} (compute)" in message and "whole number" in message
    assert session.raw is raw and session.can_undo == undo                # nothing taken
    # the command says it in one line and exits 1
    assert main(["cards", "import", "mandate-2038", str(out)]) == 1


@pytest.mark.parametrize("fmt", ["ods", "csv"])
def test_ods_and_csv_carry_a_change_and_keep_what_they_do_not_carry(cards_copy, tmp_path, fmt):
    """Meaning Made through ODS and a CSV folder: one Pattern's Energy changes, a
    column and a sheet left out of the file keep their values; undo is one step."""
    session = open_session(game_id="meaning-made")
    first = session.table().row(0, named=True)
    header, rows = card_sheets.tables(session)["pattern"]
    e = header.index("E")
    rows[0][e] = rows[0][e] + 1
    keep = [i for i, c in enumerate(header) if c not in ("flavour", "provenance")]   # columns left out
    out = tmp_path / ("cards.ods" if fmt == "ods" else "cards")
    spreadsheet.write({"pattern": ([header[i] for i in keep], [[r[i] for i in keep] for r in rows])}, out, fmt)
    result = card_sheets.import_file(session, out)
    assert [(c.card, c.column, c.new) for c in result.changes] == [(first["name"], "E", first["E"] + 1)]
    assert any(u.startswith("initiative:") for u in result.untouched)
    table = session.table()
    assert table.row(0, named=True)["E"] == first["E"] + 1
    assert table.row(0, named=True)["flavour"] == first["flavour"]
    session.undo()
    assert session.table().row(0, named=True)["E"] == first["E"] and not session.can_undo


def test_unknown_sheet_column_or_card_is_refused(cards_copy, tmp_path):
    session = open_session(game_id="pax-transhumanity")
    header, rows = card_sheets.tables(session)["idea"]
    cases = {
        "ideaz": (header, rows[:1], "no card kind 'ideaz'"),
        # a new column is kept as the cards' own field (test_card_sheet_extras.py), but not
        # one that reads like a column of the sheet: that is a typo
        "idea": (header[:-1] + ["heatz"], rows[:1], "row 1, column .*did you mean 'heat'"),
    }
    for sheet, (h, r, wanted) in cases.items():
        out = tmp_path / f"{sheet}.xlsx"
        spreadsheet.write({sheet: (h, r)}, out, "xlsx")
        with pytest.raises(DataError, match=wanted):
            card_sheets.import_file(session, out)
    # without the card column a sheet only edits: an unknown name is refused
    assert header[-1] == card_sheets.ID
    renamed = [list(rows[0])[:-1]]
    renamed[0][0] = "A Card That Does Not Exist"
    out = tmp_path / "idea.csv"
    spreadsheet.write({"idea": (header[:-1], renamed)}, tmp_path, "csv")
    with pytest.raises(DataError, match="row 2, column A.*add a 'card' column"):
        card_sheets.import_file(session, out)
    # with it, a card cell naming no card is refused (it is the row's identity)
    lost = [list(r) for r in rows]
    lost[0][-1] = "A Card That Does Not Exist"
    spreadsheet.write({"idea": (header, lost)}, tmp_path, "csv")
    with pytest.raises(DataError, match="row 2, column .* \\(card\\).*as exported"):
        card_sheets.import_file(session, out)
    assert not session.can_undo


def test_cards_page_model_exports_and_imports_a_workbook(cards_copy):
    """The Cards page's Export spreadsheet / Import pair: the upload is one edit
    (one Undo), a refusal is one line naming the uploaded file's cell."""
    import io

    from workbench.dashboard.cards import CardsModel
    model = CardsModel(game_id="pax-transhumanity")
    wb = openpyxl.load_workbook(io.BytesIO(model.sheet_bytes("xlsx")))
    ws = wb["board"]
    header = [c.value for c in ws[1]]
    numeric = next(c for c in header if isinstance(ws.cell(2, header.index(c) + 1).value, int))
    cell = ws.cell(2, header.index(numeric) + 1)
    cell.value += 1
    buf = io.BytesIO()
    wb.save(buf)
    assert model.import_sheet(buf.getvalue(), "boards.xlsx"), model.message
    assert "1 value(s) changed" in model.message and model.session.can_undo
    name = ws.cell(2, 1).value
    assert model.session.table().filter(model.session.table()["name"] == name)[numeric][0] == cell.value
    model.session.undo()
    assert not model.session.can_undo
    cell.value = "many"
    buf = io.BytesIO()
    wb.save(buf)
    assert not model.import_sheet(buf.getvalue(), "boards.xlsx")
    assert model.message.startswith("refused: file boards.xlsx: sheet 'board', row 2, column")
