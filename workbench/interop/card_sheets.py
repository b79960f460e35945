"""A game's cards as a spreadsheet, and a spreadsheet back into the cards.

Export: one sheet per card kind (Meaning Made's ``pattern`` and ``initiative``,
Mandate 2038's ``tile``, ``project``, ``headline``...), one row per card, one
column per flat field the Cards page edits (the session's ``kind_columns``),
plus the provenance columns ``provenance`` (the card's own, or its file's when
the card has none) and ``draft_fields``.

Import: every sheet is matched to its kind by name, every row to its card by
the ``name`` column, and only the cells that differ from the pool as it is are
taken, as edits of the live-tweak session (:meth:`TweakSession.edit_many`):
each validated by the game's own models, all or none, one step of undo, and a
save that changes only those values' lines and keeps the designer's comments.
So a value the sheet does not carry (a column left out, a card left out, a
field no column shows) is never touched. The first problem is refused with the
file, sheet, row and column of its cell. A sheet cannot add, remove or rename
cards: an unknown name is refused (rename on the Cards page or in the YAML).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.errors import DataError, WorkbenchError, suggest

from . import spreadsheet
from .spreadsheet import column_letter

PROVENANCE_COLUMNS = ("provenance", "draft_fields")


def _text(value: Any) -> Any:
    """A value as a cell holds it: numbers stay numbers, lists become words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value


def tables(session) -> dict[str, tuple[list[str], list[list]]]:
    """Kind -> (header, rows) of the session's pool as it is now."""
    columns = session.kind_columns
    table = session.table()
    cells = {}
    for row in table.iter_rows(named=True):
        cells[(row["kind"], str(row["name"]))] = row
    out: dict[str, tuple[list[str], list[list]]] = {}
    for kind, name, card, file in session.entries():
        cols = list(columns[kind])
        header = cols + [c for c in PROVENANCE_COLUMNS if c not in cols]
        row = cells[(kind, name)]
        values = []
        for col in header:
            if col == "name":
                values.append(name)
            elif col == "provenance" and "provenance" not in cols:
                values.append(card.get("provenance") or (file.get("provenance") if isinstance(file, dict)
                                                         and isinstance(file.get("provenance"), str) else None))
            elif col == "draft_fields":
                values.append(_text(card.get("draft_fields") or []) or None)
            else:
                values.append(_text(row.get(col)))
        values = [None if v == "" else v for v in values]
        out.setdefault(kind, (header, []))[1].append(values)
    return out


def export(session, path: str | Path, fmt: str | None = None) -> dict:
    """Write the session's pool to ``path`` (format by ``fmt`` or suffix)."""
    path = Path(path)
    fmt = spreadsheet.format_of(path, fmt) if fmt or path.suffix else "csv"
    data = tables(session)
    files = spreadsheet.write(data, path, fmt)
    return {"game": session.game_id, "format": fmt, "out": str(path), "files": [str(f) for f in files],
            "sheets": {k: len(rows) for k, (_, rows) in data.items()}}


def _same(a: Any, b: Any) -> bool:
    def norm(v):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return " ".join(str(v).split())
    return norm(a) == norm(b)


@dataclass
class Change:
    kind: str
    card: str
    column: str
    old: Any
    new: Any
    where: str              # sheet, row and column of the cell
    source: str = ""        # the file it came from


@dataclass
class ImportResult:
    changes: list[Change] = field(default_factory=list)
    reports: list = field(default_factory=list)
    untouched: list[str] = field(default_factory=list)   # cards of the pool no sheet lists

    def lines(self) -> list[str]:
        out = [f"{c.kind} {c.card}.{c.column}: {c.old!r} -> {c.new!r}" for c in self.changes]
        return out or ["no value differs from the pool"]


def _where(sheet: spreadsheet.Sheet, row: int | None = None, col: int | None = None) -> str:
    parts = [f"sheet {sheet.name!r}"]
    if row is not None:
        parts.append(f"row {row}")
    if col is not None:
        parts.append(f"column {column_letter(col)} ({sheet.header[col]})")
    return ", ".join(parts)


def _refuse(sheet: spreadsheet.Sheet, message: str, row: int | None = None, col: int | None = None):
    return DataError(f"{_where(sheet, row, col)}: {message}", file=sheet.source)


def changes(session, sheets: list[spreadsheet.Sheet]) -> ImportResult:
    """The cells of ``sheets`` that differ from the session's pool, checked for
    shape (known sheets, columns and cards) but not yet validated."""
    current = tables(session)
    result = ImportResult()
    seen: set[tuple[str, str]] = set()
    for sheet in sheets:
        if not sheet.header:
            continue
        if sheet.name not in current:
            raise _refuse(sheet, f"no card kind {sheet.name!r}{suggest(sheet.name, current)}; "
                                 f"the sheets are {', '.join(current)}")
        header, rows = current[sheet.name]
        by_name = {str(r[0]).lower(): r for r in rows}
        for i, col in enumerate(sheet.header):
            if col not in header:
                raise _refuse(sheet, f"no column {col!r} for a {sheet.name}{suggest(col, header)}; "
                                     f"its columns are {', '.join(header)}", 1, i)
            if sheet.header.index(col) != i:
                raise _refuse(sheet, f"column {col!r} appears twice", 1, i)
        if "name" not in sheet.header:
            raise _refuse(sheet, "no 'name' column: it says which card each row is", 1)
        name_at = sheet.header.index("name")
        for row, number in zip(sheet.rows, sheet.row_numbers):
            name = "" if row[name_at] is None else str(row[name_at]).strip()
            old = by_name.get(name.lower())
            if old is None:
                raise _refuse(sheet, f"no {sheet.name} named {name!r}{suggest(name, [r[0] for r in rows])}; "
                                     "a sheet edits cards, it cannot add or rename them", number, name_at)
            if (sheet.name, name.lower()) in seen:
                raise _refuse(sheet, f"{name!r} has a second row", number, name_at)
            seen.add((sheet.name, name.lower()))
            for i, col in enumerate(sheet.header):
                before = old[header.index(col)]
                value = row[i]
                if col == "name" or _same(value, before):
                    continue
                if value in (None, "") and isinstance(before, (int, float)):
                    raise _refuse(sheet, f"empty cell where the card has {before}; write a number",
                                  number, i)
                if isinstance(before, int) and isinstance(value, str) and value.strip().lstrip("-").isdigit():
                    value = int(value)      # a CSV cell is text; the card had a number
                if col == "draft_fields":
                    value = [w for w in str(value or "").replace(",", " ").split() if w]
                result.changes.append(Change(sheet.name, str(old[0]), col, before, value,
                                             _where(sheet, number, i), sheet.source))
    result.untouched = [f"{kind}:{r[0]}" for kind, (_, rows) in current.items() for r in rows
                        if (kind, str(r[0]).lower()) not in seen]
    return result


def import_file(session, path: str | Path, fmt: str | None = None) -> ImportResult:
    """Take the differing cells of the workbook at ``path`` into the session
    as one edit (validated, all or none, undoable); nothing is saved here."""
    from workbench.tweak.session import EditRefused
    path = Path(path)
    result = changes(session, spreadsheet.read(path, fmt))
    edits = [((f"{c.kind}:{c.card}" if _needs_kind(session, c) else c.card), c.column, c.new)
             for c in result.changes]
    try:
        result.reports = session.edit_many(edits, label=f"import {path.name}") if edits else []
    except EditRefused as exc:
        change = result.changes[exc.index]
        err = exc.error
        message = err.message if isinstance(err, DataError) else str(err)
        raise DataError(f"{change.where}: {message}", file=change.source) from None
    return result


def _needs_kind(session, change: Change) -> bool:
    """Whether the card must be named ``kind:name`` (a pool with a catalogue,
    where two kinds may share a name)."""
    return hasattr(session, "catalogue")




def export_bytes(session, fmt: str = "xlsx") -> bytes:
    """The workbook as bytes (``xlsx`` or ``ods``), for a browser download."""
    import tempfile
    if fmt not in ("xlsx", "ods"):
        raise WorkbenchError("a download is one file: xlsx or ods")
    with tempfile.TemporaryDirectory(prefix="workbench-sheet-") as tmp:
        target = Path(tmp) / f"cards.{fmt}"
        export(session, target, fmt)
        return target.read_bytes()


def import_bytes(session, data: bytes, filename: str) -> ImportResult:
    """:func:`import_file` for an uploaded file (``filename`` gives its format;
    a refusal names the uploaded name, not a temporary path)."""
    import tempfile
    name = Path(filename).name or "upload"
    fmt = spreadsheet.format_of(Path(name))
    if len(data) > spreadsheet.MAX_BYTES:
        raise WorkbenchError(f"{name}: larger than {spreadsheet.MAX_BYTES // 1_000_000} MB")
    with tempfile.TemporaryDirectory(prefix="workbench-sheet-") as tmp:
        from workbench.core import storage
        path = storage.write_bytes(Path(tmp) / name, data)
        try:
            return import_file(session, path, fmt)
        except DataError as exc:
            raise DataError(exc.message, file=name) from None
        except WorkbenchError as exc:
            raise WorkbenchError(str(exc).replace(str(path), name)) from None


__all__ = ["tables", "export", "changes", "import_file", "export_bytes", "import_bytes", "ImportResult",
           "Change", "PROVENANCE_COLUMNS"]
