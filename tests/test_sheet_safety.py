"""Spreadsheets as untrusted input and safe output (issue 38): formulas without a
value refused, bounded reading refused early, control characters and huge cells
refused, links out of a sheet folder refused before anything is read, special
files refused before they are opened; CSV export neutralises what a spreadsheet
program would run (OWASP) and import undoes it, xlsx and ods write text as text."""

from __future__ import annotations

import io
import os
import zipfile

import openpyxl
import pytest

from workbench.cli import main
from workbench.interop import card_sheets, spreadsheet
from workbench.interop.spreadsheet import SheetRefused

HOSTILE_TEXTS = ["=1+2", "+CMD|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx", "'=x", "''@y", "plain", "'quoted",
                 "-", "="]


def _tables():
    return {"pattern": (["name", "text", "cost"], [[f"c{i}", t, i] for i, t in enumerate(HOSTILE_TEXTS)])}


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_export_then_read_gives_every_value_back_and_no_formula(tmp_path, fmt):
    out = tmp_path / ("sheets" if fmt == "csv" else f"cards.{fmt}")
    spreadsheet.write(_tables(), out, fmt)
    if fmt == "csv":
        text = (out / "pattern.csv").read_text(encoding="utf-8-sig")
        for line in text.splitlines()[1:]:
            cell = line.split(",", 1)[1].lstrip('"')
            assert not cell.startswith(spreadsheet.FORMULA_START), line   # nothing a program would compute
    if fmt == "xlsx":
        ws = openpyxl.load_workbook(out)["pattern"]
        assert all(c.data_type != "f" for row in ws.iter_rows() for c in row)
    sheet = spreadsheet.read(out)[0]
    # XML keeps no bare CR (it reads back as a line end, which the import compares as equal)
    expected = HOSTILE_TEXTS if fmt == "csv" else [t.replace("\r", "\n") for t in HOSTILE_TEXTS]
    assert [r[1] for r in sheet.rows] == expected


def _xlsx_with_formula(path, cached: bool):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "pattern"
    ws.append(["name", "text"])
    ws.append(["Anchor", "=CONCAT(\"a\",\"b\")"])
    wb.save(path)
    if cached:                       # what a program that computes formulas leaves: <f> and <v>
        raw = path.read_bytes()
        with zipfile.ZipFile(io.BytesIO(raw)) as zin, zipfile.ZipFile(path, "w") as zout:
            for item in zin.infolist():
                data = zin.read(item)
                if item.filename == "xl/worksheets/sheet1.xml":
                    data = data.replace(b"</f>", b"</f><v>ab</v>").replace(b'<c r="B2"', b'<c r="B2" t="str"')
                zout.writestr(item, data)


def test_formula_without_value_is_refused_and_with_value_read(tmp_path):
    bare = tmp_path / "bare.xlsx"
    _xlsx_with_formula(bare, cached=False)
    with pytest.raises(SheetRefused, match="row 2, column B: a formula .* without its value"):
        spreadsheet.read(bare)
    cached = tmp_path / "cached.xlsx"
    _xlsx_with_formula(cached, cached=True)
    assert spreadsheet.read(cached)[0].rows == [["Anchor", "ab"]]


def _xlsx_declaring(path, ref: str):
    wb = openpyxl.Workbook()
    wb.active.title = "pattern"
    wb.active.append(["name", "text"])
    wb.save(path)
    raw = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                import re
                data = re.sub(rb'<dimension ref="[^"]*"', f'<dimension ref="{ref}"'.encode(), data)
            zout.writestr(item, data)


@pytest.mark.parametrize("ref", ["A1:B1048576", "A1:XFD2"])
def test_a_sheet_claiming_huge_dimensions_is_refused_from_its_declaration(tmp_path, ref):
    path = tmp_path / "huge.xlsx"
    _xlsx_declaring(path, ref)
    with pytest.raises(SheetRefused, match="spans .* rows and .* columns"):
        spreadsheet.read(path)


def test_a_zip_bomb_is_refused_from_its_declared_sizes(tmp_path):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b" " * (spreadsheet.MAX_UNPACKED + 1))
    assert path.stat().st_size < 1_000_000
    with pytest.raises(SheetRefused, match="unpacks to"):
        spreadsheet.read(path)


@pytest.mark.parametrize("cell,what", [("a\x00b", "NUL"), ("a\x07b", r"U\+0007"), ("a\x9bb", r"U\+009B"),
                                       ("x" * (spreadsheet.MAX_CELL + 1), "characters")])
def test_control_characters_and_huge_cells_are_refused_in_csv(tmp_path, cell, what):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "pattern.csv").write_text(f"name,text\nAnchor,{cell}\n", encoding="utf-8")
    with pytest.raises(SheetRefused, match=what):
        spreadsheet.read(folder)


def test_a_10_mb_cell_in_xlsx_is_refused_with_its_cell(tmp_path):
    wb = openpyxl.Workbook()
    wb.active.title = "pattern"
    wb.active.append(["name", "text"])
    wb.active.append(["Anchor", "x" * 32_000])      # the most one xlsx cell holds
    wb.save(tmp_path / "c.xlsx")
    with pytest.raises(SheetRefused, match="row 2, column B: the cell holds 32,000 characters"):
        spreadsheet.read(tmp_path / "c.xlsx")


def test_a_link_out_of_a_sheet_folder_is_refused_without_reading_it(tmp_path):
    secret = tmp_path / "outside.csv"
    secret.write_text("TOP-SECRET-LINE,x\n", encoding="utf-8")
    folder = tmp_path / "given"
    folder.mkdir()
    (folder / "pattern.csv").symlink_to(secret)
    with pytest.raises(Exception) as caught:
        spreadsheet.read(folder)
    assert "TOP-SECRET" not in str(caught.value) and "link" in str(caught.value)
    # the refusal through the command line is one line and quotes nothing of it
    assert main(["cards", "import", "meaning-made", str(folder)]) == 1


def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    folder = tmp_path / "given"
    folder.mkdir()
    os.mkfifo(folder / "pattern.csv")
    with pytest.raises(Exception, match="special file"):
        spreadsheet.read(folder)
    with pytest.raises(Exception, match="special file"):
        spreadsheet.read(folder / "pattern.csv")


def test_csv_export_never_writes_through_a_link_out(tmp_path, cards_copy):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    out = tmp_path / "S"
    out.mkdir()
    (out / "pattern.csv").symlink_to(victim)
    assert main(["cards", "export", "meaning-made", "--format", "csv", "--out", str(out)]) == 1
    assert victim.read_text(encoding="utf-8") == "keep me\n"


def test_an_import_validates_the_pool_once_and_names_the_first_bad_cell(cards_copy, monkeypatch):
    from workbench.tweak import open_session
    from workbench.tweak.session import EditRefused
    session = open_session(game_id="meaning-made")
    names = list(session.table()["name"])[:30]
    calls = []
    real = session._validate
    monkeypatch.setattr(session, "_validate", lambda raw, **kw: calls.append(1) or real(raw, **kw))
    edits = [(n, "flavour", f"edited {i}") for i, n in enumerate(names)]
    session.edit_many(edits)
    assert len(calls) == 1                       # one validation for thirty cells
    assert session.can_undo
    before = session.raw
    calls.clear()
    bad = edits[:17] + [(names[17], "E", -5)] + edits[18:]
    with pytest.raises(EditRefused) as refused:
        session.edit_many(bad)
    assert refused.value.index == 17 and "E" in str(refused.value)
    assert len(calls) <= 8                       # bisection: a few validations, not one per cell
    assert session.raw is before                 # refused: nothing changed


def test_cards_import_builds_no_card_graph_unless_asked_and_opening_builds_none(cards_copy, tmp_path, monkeypatch,
                                                                                capsys):
    """The card graph's analyses (a betweenness over every card) are not part of
    taking a sheet in: a session builds them when asked for, and ``cards import``
    asks only with ``--analyses``."""
    from workbench.tweak import open_session
    from workbench.tweak.pool_session import PoolTweakSession
    built = []
    real = PoolTweakSession._build_graph
    monkeypatch.setattr(PoolTweakSession, "_build_graph", lambda self, cards: built.append(1) or real(self, cards))
    session = open_session(game_id="mandate-2038")
    assert built == []                                   # opening builds nothing
    header, rows = card_sheets.tables(session)["facility"]
    edited = [list(rows[0])]
    edited[0][header.index("runway")] += 1
    spreadsheet.write({"facility": (header, edited)}, tmp_path, "csv")
    assert main(["cards", "import", "mandate-2038", str(tmp_path / "facility.csv"), "--dry-run"]) == 0
    assert built == [] and "facility Facility.runway" in capsys.readouterr().out
    assert main(["cards", "import", "mandate-2038", str(tmp_path / "facility.csv"), "--dry-run", "--analyses"]) == 0
    assert built                                         # asked for: before and after the edit
    assert session.analyses()["card_status"].height > 0  # and a session still gives them when asked
