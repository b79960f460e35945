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

**A workbook is untrusted input** (it may come from anyone). Reading is bounded
and refuses early: the file (:data:`MAX_BYTES`, a regular file: a FIFO or device
is refused before it is opened, and a file in a CSV folder that links out of the
folder is refused before it is read), the unpacked size of an xlsx or ods
(:data:`MAX_UNPACKED`), rows and columns (:data:`MAX_ROWS`, :data:`MAX_COLS`;
an xlsx is refused from the dimension it declares, before its rows are read) and
one cell (:data:`MAX_CELL` characters). A value holding a NUL or another control
character (tab and line ends apart) is refused. A formula cell is read as the
value its program saved with it; one saved without a value (what a program that
does not compute formulas writes) is refused, never read as empty.

**Export writes text as text.** In xlsx and ods a text cell is a string cell,
never a formula, whatever it starts with. In CSV, a text value starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return (after any number of
``'``) gets one ``'`` in front (the OWASP rule against formula injection: a
spreadsheet program opening the CSV shows text, it does not compute); reading a
CSV takes that one ``'`` off again, so export then import gives back every value
unchanged.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core import storage
from workbench.core.errors import DataError, WorkbenchError

FORMATS = ("csv", "xlsx", "ods")
#: refuse a workbook larger than this (bytes): a card pool is a few hundred rows
MAX_BYTES = 20_000_000
#: refuse an xlsx or ods whose parts unpack to more than this (a zip bomb is small on disk)
MAX_UNPACKED = 100_000_000
#: most parts (files) inside an xlsx or ods
MAX_PARTS = 2_000
#: most rows of one sheet (the largest pool has a few hundred cards)
MAX_ROWS = 20_000
#: most columns of one sheet
MAX_COLS = 500
#: most characters in one cell (a card's longest text is a few hundred)
MAX_CELL = 10_000
#: what starts a formula in a spreadsheet program (OWASP "CSV injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Sheet:
    """One table read back: its header and rows, with the rows' numbers in the
    spreadsheet (the header is row 1)."""

    name: str
    header: list[str]
    rows: list[list[Any]]
    row_numbers: list[int]
    source: str          # the file the sheet came from (a CSV folder names the file)
    delimiter: str = ""  # a CSV's separator as read (',' or ';'), so an import can say which


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
    folder = storage.make_folder(path, "--out")
    written = []
    for name, (header, rows) in tables.items():
        # each file is derived from the folder's name: a link out of the folder is refused
        target = storage.inside(folder, f"{name}.csv", "--out")
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        # a bare CR is no line end to this writer, so it would leave it unquoted: quote such rows
        quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
        for row in [header, *rows]:
            cells = [csv_cell(v) for v in row]
            (quoted if any(isinstance(v, str) and "\r" in v for v in cells) else w).writerow(cells)
        storage.write_bytes(target, buf.getvalue().encode("utf-8-sig"), "--out")
        written.append(path / f"{name}.csv")
    return written


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell: text that a spreadsheet program would take for a
    formula gets one leading ``'`` (see the module's docstring)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.lstrip("'").startswith(FORMULA_START):
        return "'" + value
    return value


def csv_value(text: str) -> str:
    """The value a CSV cell written by :func:`csv_cell` stands for."""
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_START):
        return text[1:]
    return text


def _write_xlsx(tables, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    wb.remove(wb.active)
    for name, (header, rows) in tables.items():
        ws = wb.create_sheet(name)
        # cell by cell with the row counted here: ws[ws.max_row] after each append
        # scans every cell of the sheet (an export of 2,500 cards took 40 s)
        for r, row in enumerate([header, *rows], start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = ws.cell(row=r, column=c, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"     # text stays text: openpyxl would make '=...' a formula
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "B2"
        for i, col in enumerate(header):
            longest = max([len(str(col))] + [len(str(r[i])) for r in rows if r[i] is not None])
            ws.column_dimensions[column_letter(i)].width = min(60, max(8, longest + 2))
    buf = io.BytesIO()
    wb.save(buf)
    storage.write_bytes(path, buf.getvalue(), "--out")


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
    buf = io.BytesIO()
    doc.write(buf)
    storage.write_bytes(path, buf.getvalue(), "--out")


# -- reading ---------------------------------------------------------------------------------------
class SheetRefused(WorkbenchError):
    """A workbook the workbench will not read (too big, a formula without a
    value, a control character...): one line naming the file and the cell."""


def read(path: Path, fmt: str | None = None) -> list[Sheet]:
    """Every sheet of the workbook at ``path`` (a refusal names the file)."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise WorkbenchError(f"{path}: no such file or folder")
    real = storage.check_path(path)             # no link out of its folder; no FIFO, device, socket
    fmt = format_of(real, fmt)
    if real.is_dir():
        names = sorted(p.name for p in real.iterdir() if p.name.lower().endswith(".csv"))
        if not names:
            raise WorkbenchError(f"{path}: a CSV folder holds one <kind>.csv per card kind; found none")
        if len(names) > 100:
            raise SheetRefused(f"{path}: {len(names)} CSV files; a card folder has a few card kinds")
        # every file is checked before any is read, so a refusal never quotes a file outside
        files = [(path / n, storage.inside(real, n, "the sheet folder")) for n in names]
    else:
        files = [(path, real)]
    raws = [(shown, _read_bytes(real_file, shown)) for shown, real_file in files]
    try:
        if fmt == "xlsx":
            return _read_xlsx(raws[0][1], str(path))
        if fmt == "ods":
            return _read_ods(raws[0][1], str(path))
        return [_read_csv(raw, shown) for shown, raw in raws]
    except WorkbenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file: one line naming it
        raise WorkbenchError(f"{path}: cannot read it as {fmt} ({type(exc).__name__}: "
                             f"{' '.join(str(exc).split())[:200]})") from None


def _read_bytes(real: Path, shown: Path) -> bytes:
    from workbench.core.data import read_file_bytes
    try:
        return read_file_bytes(real, limit=MAX_BYTES)
    except DataError as exc:
        raise SheetRefused(f"{shown}: {exc.message}") from None


def _check_value(value: Any, name: str, row: int, col: int, source: str) -> Any:
    """One cell's value, refused when longer than :data:`MAX_CELL` or holding a
    control character."""
    if isinstance(value, str):
        if len(value) > MAX_CELL:
            raise SheetRefused(f"{source}: sheet {name!r}, row {row}, column {column_letter(col)}: the cell holds "
                               f"{len(value):,} characters; a card's value holds at most {MAX_CELL:,}")
        bad = next((c for c in value if (ord(c) < 32 and c not in "\t\n\r") or 127 <= ord(c) < 160), None)
        if bad is not None:
            raise SheetRefused(f"{source}: sheet {name!r}, row {row}, column {column_letter(col)}: the cell holds "
                               f"the control character U+{ord(bad):04X}; remove it (a card's text is printable)")
    return value


def _grid_limits(rows: int, cols: int, name: str, source: str) -> None:
    if rows > MAX_ROWS or cols > MAX_COLS:
        raise SheetRefused(f"{source}: sheet {name!r} spans {rows:,} rows and {cols:,} columns; a card sheet has "
                           f"at most {MAX_ROWS:,} rows and {MAX_COLS:,} columns")


def _sheet(name: str, grid: list[list[Any]], source: str) -> Sheet:
    _grid_limits(len(grid), max((len(r) for r in grid), default=0), name, source)
    grid = [list(r) for r in grid]
    for n, row in enumerate(grid, start=1):
        for c, value in enumerate(row):
            _check_value(value, name, n, c, source)
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


def _unpacked(raw: bytes, source: str):
    """The workbook's zip, refused when it unpacks to more than
    :data:`MAX_UNPACKED` (the sizes it declares are what zipfile reads up to)."""
    import zipfile
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise SheetRefused(f"{source}: not a spreadsheet file (it is not a zip archive)") from None
    infos = archive.infolist()
    if len(infos) > MAX_PARTS:
        raise SheetRefused(f"{source}: holds {len(infos):,} parts; a workbook has a few dozen")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNPACKED:
        raise SheetRefused(f"{source}: unpacks to {total / 1e6:,.0f} MB; the workbench reads workbooks up to "
                           f"{MAX_UNPACKED // 1_000_000} MB unpacked")
    return archive


def _has_formulas(archive) -> bool:
    """Whether any worksheet of the xlsx holds a formula element (``<f>`` or
    ``<f ...>``, with or without a namespace prefix): only then is the workbook
    read a second time for its formulas."""
    import re
    pattern = re.compile(rb"<(?:\w+:)?f[\s>/]")
    for info in archive.infolist():
        if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
            with archive.open(info) as part:
                tail = b""
                while chunk := part.read(1 << 20):
                    if pattern.search(tail + chunk):
                        return True
                    tail = chunk[-16:]
    return False


def _read_xlsx(raw: bytes, source: str) -> list[Sheet]:
    from openpyxl import load_workbook
    archive = _unpacked(raw, source)
    values = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    # a second reading for the formulas only when a sheet holds one (most sheets hold none)
    formulas = load_workbook(io.BytesIO(raw), read_only=True, data_only=False) if _has_formulas(archive) else None
    try:
        out = []
        for ws, wf in zip(values.worksheets, formulas.worksheets if formulas else [None] * len(values.worksheets)):
            # the dimension the sheet declares: refused before a row is read
            _grid_limits(ws.max_row or 0, ws.max_column or 0, ws.title, source)
            # then read every row there is (a declared dimension may also be too small)
            ws.reset_dimensions()
            grid = _bounded_rows(ws.iter_rows(values_only=True), ws.title, source)
            if wf is not None:
                wf.reset_dimensions()
            for n, row in enumerate(_bounded_rows(wf.iter_rows(values_only=False), ws.title, source)
                                    if wf is not None else [], start=1):
                for cell in row:
                    if getattr(cell, "data_type", None) != "f":
                        continue
                    c = cell.column - 1
                    cached = grid[n - 1][c] if n - 1 < len(grid) and c < len(grid[n - 1]) else None
                    if cached is None:
                        raise SheetRefused(
                            f"{source}: sheet {ws.title!r}, row {n}, column {column_letter(c)}: a formula "
                            f"({str(cell.value)[:60]}) saved without its value; open the workbook in a spreadsheet "
                            "program and save it, or type the value")
            out.append(_sheet(ws.title, grid, source))
        return out
    finally:
        values.close()
        if formulas is not None:
            formulas.close()


def _bounded_rows(rows, name: str, source: str) -> list[list]:
    """Rows from a reader, refused as soon as there are too many or one is too wide."""
    grid = []
    for row in rows:
        if len(grid) >= MAX_ROWS:
            _grid_limits(MAX_ROWS + 1, 0, name, source)
        if len(row) > MAX_COLS:
            _grid_limits(len(grid) + 1, len(row), name, source)
        grid.append(list(row))
    return grid


def _read_ods(raw: bytes, source: str) -> list[Sheet]:
    from odf.namespaces import OFFICENS, TABLENS
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    archive = _unpacked(raw, source)
    try:
        content = archive.getinfo("content.xml").file_size
    except KeyError:
        raise SheetRefused(f"{source}: not an OpenDocument spreadsheet (no content.xml)") from None
    if content > MAX_BYTES:     # odfpy builds the whole document in memory
        raise SheetRefused(f"{source}: its content unpacks to {content / 1e6:,.0f} MB; the workbench reads "
                           f"ods content up to {MAX_BYTES // 1_000_000} MB")
    doc = load(io.BytesIO(raw))
    out = []
    for table in doc.spreadsheet.getElementsByType(Table):
        name = str(table.getAttribute("name"))
        grid: list[list[Any]] = []
        for tr in table.getElementsByType(TableRow):
            rrep = int(tr.attributes.get((TABLENS, "number-rows-repeated"), 1))
            row: list[Any] = []
            for cell in tr.getElementsByType(TableCell):
                crep = int(cell.attributes.get((TABLENS, "number-columns-repeated"), 1))
                kind = cell.attributes.get((OFFICENS, "value-type"))
                formula = cell.attributes.get((TABLENS, "formula"))
                if kind in ("float", "percentage", "currency"):
                    number = float(cell.attributes.get((OFFICENS, "value")))
                    value: Any = int(number) if number.is_integer() else number
                elif kind == "boolean":
                    value = cell.attributes.get((OFFICENS, "boolean-value")) == "true"
                else:
                    texts = ["".join(str(n) for n in p.childNodes) for p in cell.getElementsByType(P)]
                    value = "\n".join(texts) if texts else None
                if formula and kind is None:
                    raise SheetRefused(
                        f"{source}: sheet {name!r}, row {len(grid) + 1}, column {column_letter(len(row))}: a formula "
                        f"({formula[:60]}) saved without its value; open the workbook in a spreadsheet program "
                        "and save it, or type the value")
                if value is not None and len(row) + crep > MAX_COLS:
                    _grid_limits(len(grid) + 1, len(row) + crep, name, source)
                row += [value] * min(crep, MAX_COLS)   # trailing empty cells repeat to the sheet's edge
                if len(row) > MAX_COLS:
                    row = row[:MAX_COLS]
            empty = all(v is None for v in row)
            if not empty and len(grid) + rrep > MAX_ROWS:
                _grid_limits(len(grid) + rrep, len(row), name, source)
            grid += [row] * (1 if empty else rrep)
            if len(grid) > MAX_ROWS:
                _grid_limits(len(grid), len(row), name, source)
        out.append(_sheet(name, grid, source))
    return out


def _read_csv(raw: bytes, path: Path) -> Sheet:
    try:
        text = raw.decode("utf-8-sig", errors="strict")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise SheetRefused(f"{path}: not UTF-8 text (bad byte at line {line}); save the CSV as UTF-8") from None
    if "\x00" in text:
        raise SheetRefused(f"{path}: holds a NUL byte; a CSV is text (save it again as UTF-8 CSV)")
    delimiter = csv_delimiter(text)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    grid = []
    limit = csv.field_size_limit(MAX_CELL * 4 + 16)   # a longer cell is refused by its length below
    try:
        for row in reader:
            if len(grid) >= MAX_ROWS or len(row) > MAX_COLS:
                _grid_limits(len(grid) + 1, len(row), path.stem, str(path))
            grid.append([csv_value(v) if v != "" else None for v in row])
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise SheetRefused(f"{path}: row {reader.line_num}: a cell longer than {MAX_CELL:,} characters; "
                               "a card's value holds at most that") from None
        raise SheetRefused(f"{path}: row {reader.line_num}: not CSV ({exc})") from None
    finally:
        csv.field_size_limit(limit)
    sheet = _sheet(path.stem, grid, str(path))
    sheet.delimiter = delimiter
    return sheet


def csv_delimiter(text: str) -> str:
    """``;`` when the header line holds more semicolons than commas outside quotes
    (what Excel writes where the comma is the decimal sign: Hungarian, German,
    French...), else ``,``. The header decides: its names hold neither."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    counts = {",": 0, ";": 0}
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    return ";" if counts[";"] > counts[","] else ","


__all__ = ["FORMATS", "Sheet", "column_letter", "format_of", "write", "read", "csv_delimiter"]
