"""Workbooks of plain tables: write and read ``.xlsx``, ``.ods`` and CSV.

A workbook here is an ordered mapping of sheet name -> table, a table being a
header (column names) and rows of cell values (whole numbers, numbers, text or
empty). Nothing here knows about cards: :mod:`workbench.interop.card_sheets`
builds the tables and judges what comes back.

Formats, each through a maintained library:

* ``xlsx``: openpyxl (MIT). The header row is bold and frozen.
* ``ods``: odfpy (Apache-2.0), the OpenDocument reference library.
* ``csv``: one file per sheet, ``<sheet>.csv``, in a folder (a spreadsheet
  program opens one CSV as one sheet, so a folder keeps one sheet per file);
  written UTF-8 with a byte-order mark so Excel reads accents right. Reading
  takes that folder, or a single ``<sheet>.csv`` file.

Reading keeps where each value stood (sheet, spreadsheet row number and column
letter) so a refusal can point at the cell.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.errors import WorkbenchError

FORMATS = ("csv", "xlsx", "ods")
#: refuse a workbook larger than this (bytes): a card pool is a few hundred rows
MAX_BYTES = 20_000_000


@dataclass
class Sheet:
    """One table read back: its header and rows, with the rows' numbers in the
    spreadsheet (the header is row 1)."""

    name: str
    header: list[str]
    rows: list[list[Any]]
    row_numbers: list[int]
    source: str          # the file the sheet came from (a CSV folder names the file)


def column_letter(index: int) -> str:
    """Spreadsheet column name of a 0-based index: 0 -> A, 26 -> AA."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def format_of(path: Path, given: str | None = None) -> str:
    """The format of ``path``: ``given``, else its suffix (a folder is CSV)."""
    if given:
        if given not in FORMATS:
            raise WorkbenchError(f"unknown format {given!r}; choose one of {', '.join(FORMATS)}")
        return given
    if path.is_dir():
        return "csv"
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise WorkbenchError(f"{path}: cannot tell the format from {path.suffix or 'no suffix'!r}; "
                             f"give a .xlsx, .ods or .csv file or a folder of .csv files")
    return suffix


# -- writing ---------------------------------------------------------------------------------------
def write(tables: dict[str, tuple[list[str], list[list]]], path: Path, fmt: str) -> list[Path]:
    """Write ``tables`` to ``path`` in ``fmt``; returns the files written."""
    path = Path(path)
    if fmt == "xlsx":
        _write_xlsx(tables, path)
        return [path]
    if fmt == "ods":
        _write_ods(tables, path)
        return [path]
    path.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (header, rows) in tables.items():
        target = path / f"{name}.csv"
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        w.writerows([["" if v is None else v for v in row] for row in rows])
        target.write_text(buf.getvalue(), encoding="utf-8-sig")
        written.append(target)
    return written


def _write_xlsx(tables, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    wb.remove(wb.active)
    for name, (header, rows) in tables.items():
        ws = wb.create_sheet(name)
        ws.append(header)
        for row in rows:
            ws.append(row)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "B2"
        for i, col in enumerate(header):
            longest = max([len(str(col))] + [len(str(r[i])) for r in rows if r[i] is not None])
            ws.column_dimensions[column_letter(i)].width = min(60, max(8, longest + 2))
    wb.save(path)


def _write_ods(tables, path: Path) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    doc = OpenDocumentSpreadsheet()
    for name, (header, rows) in tables.items():
        table = Table(name=name)
        for row in [header, *rows]:
            tr = TableRow()
            for value in row:
                if isinstance(value, bool) or value is None or not isinstance(value, (int, float)):
                    cell = TableCell(valuetype="string")
                    if value is not None:
                        cell.addElement(P(text=str(value).lower() if isinstance(value, bool) else str(value)))
                else:
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value)))
                tr.addElement(cell)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))


# -- reading ---------------------------------------------------------------------------------------
def read(path: Path, fmt: str | None = None) -> list[Sheet]:
    """Every sheet of the workbook at ``path`` (a refusal names the file)."""
    path = Path(path)
    if not path.exists():
        raise WorkbenchError(f"{path}: no such file or folder")
    fmt = format_of(path, fmt)
    files = sorted(path.glob("*.csv")) if path.is_dir() else [path]
    if path.is_dir() and not files:
        raise WorkbenchError(f"{path}: a CSV folder holds one <kind>.csv per card kind; found none")
    for f in files:
        if f.stat().st_size > MAX_BYTES:
            raise WorkbenchError(f"{f}: larger than {MAX_BYTES // 1_000_000} MB; not a card workbook")
    try:
        if fmt == "xlsx":
            return _read_xlsx(path)
        if fmt == "ods":
            return _read_ods(path)
        return [_read_csv(f) for f in files]
    except WorkbenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file: one line naming it
        raise WorkbenchError(f"{path}: cannot read it as {fmt} ({type(exc).__name__}: "
                             f"{' '.join(str(exc).split())[:200]})") from None


def _sheet(name: str, grid: list[list[Any]], source: str) -> Sheet:
    grid = [list(r) for r in grid]
    while grid and all(v in (None, "") for v in grid[-1]):
        grid.pop()
    if not grid:
        return Sheet(name, [], [], [], source)
    header = ["" if v is None else str(v).strip() for v in grid[0]]
    while header and not header[-1]:
        header.pop()
    rows, numbers = [], []
    for n, row in enumerate(grid[1:], start=2):
        row = (row + [None] * len(header))[:len(header)]
        if all(v in (None, "") or (isinstance(v, str) and not v.strip()) for v in row):
            continue
        rows.append(row)
        numbers.append(n)
    return Sheet(name, header, rows, numbers, source)


def _read_xlsx(path: Path) -> list[Sheet]:
    from openpyxl import load_workbook
    wb = load_workbook(path, read_only=True, data_only=True)
    try:
        return [_sheet(ws.title, list(ws.iter_rows(values_only=True)), str(path)) for ws in wb.worksheets]
    finally:
        wb.close()


def _read_ods(path: Path) -> list[Sheet]:
    from odf.namespaces import OFFICENS, TABLENS
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    doc = load(str(path))
    out = []
    for table in doc.spreadsheet.getElementsByType(Table):
        grid: list[list[Any]] = []
        for tr in table.getElementsByType(TableRow):
            rrep = int(tr.attributes.get((TABLENS, "number-rows-repeated"), 1))
            row: list[Any] = []
            for cell in tr.getElementsByType(TableCell):
                crep = int(cell.attributes.get((TABLENS, "number-columns-repeated"), 1))
                kind = cell.attributes.get((OFFICENS, "value-type"))
                if kind in ("float", "percentage", "currency"):
                    number = float(cell.attributes.get((OFFICENS, "value")))
                    value: Any = int(number) if number.is_integer() else number
                elif kind == "boolean":
                    value = cell.attributes.get((OFFICENS, "boolean-value")) == "true"
                else:
                    texts = ["".join(str(n) for n in p.childNodes) for p in cell.getElementsByType(P)]
                    value = "\n".join(texts) if texts else None
                row += [value] * min(crep, 1000)   # trailing empty cells repeat to the sheet's edge
            grid += [row] * min(rrep, 1 if all(v is None for v in row) else rrep)
        out.append(_sheet(str(table.getAttribute("name")), grid, str(path)))
    return out


def _read_csv(path: Path) -> Sheet:
    text = path.read_bytes().decode("utf-8-sig", errors="strict")
    grid = list(csv.reader(io.StringIO(text)))
    return _sheet(path.stem, [[v if v != "" else None for v in r] for r in grid], str(path))


__all__ = ["FORMATS", "Sheet", "column_letter", "format_of", "write", "read"]
