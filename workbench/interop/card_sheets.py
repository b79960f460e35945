"""A game's cards as a spreadsheet, and a spreadsheet back into the cards.

Export: one sheet per card kind (the kinds of the game's catalogue or its
session), one row per card, one
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
file, sheet, row and column of its cell.

**The sheet as the source.** Every exported sheet ends in a ``card`` column: the
name each row was exported from (leave it as it is). Against it a sheet adds,
removes and renames cards, as the same one edit (validated, all or none, undoable):

* a row whose ``name`` differs from its ``card`` renames that card;
* a row with a ``name`` and an empty ``card`` is a new card, made from the kind's
  blank (``Game.card_blanks``) and given the row's values;
* a card of a kind whose sheet has a ``card`` column and no row for it is removed,
  refused while another card, a setting or a scenario names it.

A sheet without the ``card`` column (an older export, or one typed by hand) only
edits: its rows are matched by ``name`` and a card it leaves out is untouched.

**Columns of the designer's own.** A column the export did not write is kept as a
field of each card of its sheet, in the card's ``extra`` mapping
(:mod:`workbench.core.extra_fields`), edited as ``extra.NAME``; the export shows
every such field as a column after the kind's own. A name that reads like one of
the sheet's columns is refused as a typo, and a sheet whose cards are part of the
rules (a ``single`` kind) or made from the game's data (a deck) takes none.

**Empty means no change**, for text and numbers alike: a cell left empty keeps the
card's value. To empty a value on purpose write :data:`CLEAR` (``(clear)``): text
becomes empty, a number 0, ``draft_fields`` none, a field of the designer's own
is removed.

A CSV may separate its cells with ``,`` or ``;`` (what Excel writes where the
comma is the decimal sign); the header line decides, and the import says which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import extra_fields
from workbench.core.errors import DataError, WorkbenchError, suggest

from . import spreadsheet
from .spreadsheet import column_letter

PROVENANCE_COLUMNS = ("provenance", "draft_fields")
#: the identity column: the name a row was exported from (empty: a new card)
ID = "card"
#: a cell holding exactly this clears the value (an empty cell changes nothing)
CLEAR = "(clear)"


def _text(value: Any) -> Any:
    """A value as a cell holds it: numbers stay numbers, lists become words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value


def extra_columns(session) -> dict[str, list[str]]:
    """Kind -> the names of the extra fields its cards hold (the designer's own
    columns, :mod:`workbench.core.extra_fields`), in first-seen order; a name that
    is one of the kind's own columns is not shown again."""
    kinds = getattr(session, "extra_kinds", frozenset())
    cards: dict[str, list[dict]] = {}
    for kind, _, card, _ in session.entries():
        if kind in kinds:
            cards.setdefault(kind, []).append(card)
    columns = session.kind_columns
    reserved = set(PROVENANCE_COLUMNS) | {ID}
    return {kind: [n for n in extra_fields.names(found) if n not in reserved and n not in columns[kind]]
            for kind, found in cards.items()}


def tables(session) -> dict[str, tuple[list[str], list[list]]]:
    """Kind -> (header, rows) of the session's pool as it is now: the kind's
    columns, its cards' extra fields, the provenance columns and ``card``."""
    columns = session.kind_columns
    extras = extra_columns(session)
    table = session.table()
    cells = {}
    for row in table.iter_rows(named=True):
        cells[(row["kind"], str(row["name"]))] = row
    out: dict[str, tuple[list[str], list[list]]] = {}
    for kind, name, card, file in session.entries():
        cols = list(columns[kind])
        own = extras.get(kind, [])
        header = cols + own + [c for c in PROVENANCE_COLUMNS if c not in cols] + [ID]
        row = cells[(kind, name)]
        values = []
        for col in header:
            if col in ("name", ID):
                values.append(name)
            elif col in own:
                values.append((card.get(extra_fields.EXTRA) or {}).get(col))
            elif col == "provenance" and "provenance" not in cols:
                values.append(card.get("provenance") or (file.get("provenance") if isinstance(file, dict)
                                                         and isinstance(file.get("provenance"), str) else None))
            elif col == "draft_fields":
                values.append(_text(card.get("draft_fields") or []) or None)
            else:
                values.append(_text(row.get(col)))
        values = [None if v == "" else v for v in values]
        out.setdefault(kind, (header, []))[1].append(values)
    for kind, (header, rows) in decks(session).items():     # decks outside the card lists
        out[kind] = (header + [ID], [[None if v == "" else _text(v) for v in r] + [r[0]] for r in rows])
    return out


def decks(session) -> dict[str, tuple[list[str], list[list]]]:
    """The session's decks kept outside its card lists (its ``deck_sheets``: a deck
    the game keeps as plain data, or makes from its other cards); a sheet edits
    what the session's ``deck_edit`` allows and never adds or removes one."""
    make = getattr(session, "deck_sheets", None)
    return make() if make else {}


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
    added: list[tuple[str, str]] = field(default_factory=list)      # (kind, name)
    removed: list[tuple[str, str]] = field(default_factory=list)    # (kind, name)
    notes: list[str] = field(default_factory=list)                  # what the reader decided (a CSV's separator)

    def lines(self) -> list[str]:
        out = list(self.notes)
        out += [f"{kind}: removed {name}" for kind, name in self.removed]
        out += [f"{kind}: added {name}" for kind, name in self.added]
        out += [f"{c.kind} {c.card}.{c.column}: {c.old!r} -> {c.new!r}" for c in self.changes]
        return out if len(out) > len(self.notes) else out + ["no value differs from the pool"]

    @property
    def any(self) -> bool:
        return bool(self.changes or self.added or self.removed)


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
    """What ``sheets`` change in the session's pool: cells that differ, cards
    added, removed and renamed; checked for shape (known sheets, columns and
    cards) but not yet validated."""
    current = tables(session)
    fixed = set(decks(session))
    extras = extra_columns(session)
    inherited = _inherited_provenance(session)
    result = ImportResult()
    seen: set[tuple[str, str]] = set()
    for sheet in sheets:
        if sheet.delimiter == ";":
            result.notes.append(f"{Path(sheet.source).name}: read as ';'-separated")
        if not sheet.header:
            continue
        if sheet.name not in current:
            raise _refuse(sheet, f"no card kind {sheet.name!r}{suggest(sheet.name, current)}; "
                                 f"the sheets are {', '.join(current)}")
        header, rows = current[sheet.name]
        by_name = {str(r[0]).lower(): r for r in rows}
        added_columns = []
        for i, col in enumerate(sheet.header):
            if col not in header:
                problem = _not_an_extra(session, sheet.name, col, header, fixed)
                if problem:
                    raise _refuse(sheet, problem, 1, i)
                added_columns.append(col)
            if sheet.header.index(col) != i:
                raise _refuse(sheet, f"column {col!r} appears twice", 1, i)
        own = set(extras.get(sheet.name, [])) | set(added_columns)
        if added_columns:
            result.notes.append(f"{sheet.name}: new column(s) {', '.join(map(repr, added_columns))} kept on each "
                                f"card as its own field ({extra_fields.EXTRA}.NAME: a print layout reads it, "
                                "the rules do not)")
        if "name" not in sheet.header:
            raise _refuse(sheet, "no 'name' column: it says which card each row is", 1)
        name_at = sheet.header.index("name")
        id_at = sheet.header.index(ID) if ID in sheet.header else None
        new_names: set[str] = set()
        kept: set[str] = set()
        for row, number in zip(sheet.rows, sheet.row_numbers):
            name = "" if row[name_at] is None else str(row[name_at]).strip()
            was = None if id_at is None or row[id_at] is None else str(row[id_at]).strip()
            if not name and not was:
                continue                       # an empty row
            if id_at is not None and not was:  # a new card
                if sheet.name in fixed:
                    raise _refuse(sheet, f"the {sheet.name} cards are fixed by the game's data: a sheet edits "
                                         "their values, it cannot add one", number, name_at)
                if name.lower() in by_name or name.lower() in new_names:
                    raise _refuse(sheet, f"a new card named {name!r}, but a {sheet.name} has that name; "
                                         "give it another, or its row the card column it was exported with",
                                  number, name_at)
                new_names.add(name.lower())
                result.added.append((sheet.name, name))
                for i, col in enumerate(sheet.header):
                    value = _cell_value(row[i], None)
                    if col in ("name", ID) or value is None or (col in own and _is_clear(row[i])):
                        continue
                    if col == "provenance" and _same(value, inherited.get(sheet.name, "")):
                        continue            # the file's own mark, which the new card takes as its cards do
                    field_ = f"{extra_fields.EXTRA}.{col}" if col in own else col
                    result.changes.append(Change(sheet.name, name, field_, None, _typed(field_, value, None),
                                                 _where(sheet, number, i), sheet.source))
                continue
            key = (was if was is not None else name).lower()
            old = by_name.get(key)
            if old is None:
                what = was if was is not None else name
                raise _refuse(sheet, f"no {sheet.name} named {what!r}{suggest(what, [r[0] for r in rows])}; "
                              + ("leave the card column as exported (empty for a new card)" if was is not None
                                 else "add a 'card' column (as export writes it) to add or rename cards"),
                              number, id_at if was is not None else name_at)
            if (sheet.name, key) in seen:
                raise _refuse(sheet, f"{old[0]!r} has a second row", number, name_at)
            seen.add((sheet.name, key))
            kept.add(key)
            rename = None
            for i, col in enumerate(sheet.header):
                before = old[header.index(col)] if col in header else None
                if col == ID:
                    continue
                if col in own:          # the designer's own field: (clear) removes it
                    field_ = f"{extra_fields.EXTRA}.{col}"
                    if _is_clear(row[i]):
                        if before is not None:
                            result.changes.append(Change(sheet.name, str(old[0]), field_, before, None,
                                                         _where(sheet, number, i), sheet.source))
                        continue
                    value = _cell_value(row[i], before)
                    if value is None or _same(extra_fields.from_cell(value), before):
                        continue
                    result.changes.append(Change(sheet.name, str(old[0]), field_, before,
                                                 _typed(field_, value, before), _where(sheet, number, i),
                                                 sheet.source))
                    continue
                if col == "name":
                    if name and name != str(old[0]):
                        rename = Change(sheet.name, str(old[0]), "name", str(old[0]), name,
                                        _where(sheet, number, i), sheet.source)
                    continue
                value = _cell_value(row[i], before)
                if value is None or _same(value, before):
                    continue
                result.changes.append(Change(sheet.name, str(old[0]), col, before, _typed(col, value, before),
                                             _where(sheet, number, i), sheet.source))
            if rename is not None:
                result.changes.append(rename)          # after the card's other cells, which name it as it was
        if id_at is not None:
            for r in rows:
                if str(r[0]).lower() not in kept:
                    if sheet.name in fixed:
                        raise _refuse(sheet, f"no row for {r[0]!r}: the {sheet.name} cards are fixed by the "
                                             "game's data, a sheet cannot remove one")
                    result.removed.append((sheet.name, str(r[0])))
                    seen.add((sheet.name, str(r[0]).lower()))
    result.untouched = [f"{kind}:{r[0]}" for kind, (_, rows) in current.items() for r in rows
                        if (kind, str(r[0]).lower()) not in seen]
    return result


def _inherited_provenance(session) -> dict[str, str]:
    """Kind -> the provenance its new cards take from their file: a kind whose
    blank card has no ``provenance`` of its own, in a file that marks all its
    cards at once (a file-wide ``provenance:``). The sheet shows that mark on every row;
    a new row repeating it sets nothing (the card models have no such field)."""
    blanks = getattr(session.game, "card_blanks", {}) or {}
    out: dict[str, str] = {}
    for kind, _, card, file in session.entries():
        if kind in blanks and "provenance" not in blanks[kind] and "provenance" not in card \
                and isinstance(file, dict) and isinstance(file.get("provenance"), str):
            out.setdefault(kind, file["provenance"])
    return out


def _not_an_extra(session, kind: str, col: str, header: list[str], fixed: set[str]) -> str | None:
    """Why a column the export did not write cannot be a field of the designer's
    own (None: it can). A name that reads like one of the sheet's columns is
    taken for a typo, never kept silently as a new field."""
    import difflib
    known = [c for c in header if c != ID]
    if kind in fixed or kind not in getattr(session, "extra_kinds", frozenset()):
        why = ("its cards are made from the game's data" if kind in fixed
               else f"a {kind} is part of the rules, not a card")
        return (f"no column {col!r} for a {kind}{suggest(col, header)}; its columns are {', '.join(header)} "
                f"(a {kind} keeps no columns of your own: {why})")
    try:
        extra_fields.check_name(col)
    except ValueError as exc:
        return f"a column of your own is kept as a field of each card, and {exc}"
    close = [c for c in known if c.casefold() == col.casefold()] or \
        difflib.get_close_matches(col.casefold(), [c.casefold() for c in known], n=1, cutoff=0.8)
    if close:
        like = next(c for c in known if c.casefold() == close[0].casefold())
        return (f"no column {col!r} for a {kind} (did you mean {like!r}?); a column of your own needs a name "
                "unlike the sheet's columns, so a typo is never kept as a new field")
    return None


def _is_clear(value: Any) -> bool:
    return isinstance(value, str) and value.strip() == CLEAR


def _cell_value(value: Any, before: Any) -> Any:
    """None for an empty cell (no change); the cleared value for :data:`CLEAR`."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and value.strip() == CLEAR:
        if isinstance(before, bool):
            return "false"
        return 0 if isinstance(before, (int, float)) else ""
    return value


def _typed(col: str, value: Any, before: Any) -> Any:
    if col.startswith(extra_fields.EXTRA + "."):
        return extra_fields.from_cell(value)
    if isinstance(before, int) and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)      # a CSV cell is text; the card had a number
    if col == "draft_fields":
        value = [w for w in str(value or "").replace(",", " ").split() if w]
    return value


def import_file(session, path: str | Path, fmt: str | None = None,
                sheets: list[spreadsheet.Sheet] | None = None) -> ImportResult:
    """Take what the workbook at ``path`` changes into the session as one edit
    (validated, all or none, undoable); nothing is saved here. ``sheets``: the
    workbook already read (a command reads it before opening the session, so a
    hostile file is refused before any card is loaded)."""
    from workbench.tweak.session import ADD, DELETE, EditRefused
    path = Path(path)
    result = changes(session, sheets if sheets is not None else spreadsheet.read(path, fmt))
    # removals first (a removed card's name may be given to another), then each
    # added card with its values, then the edits and renames of the cards kept
    items: list[tuple] = []
    where: list[str] = []
    for kind, name in result.removed:
        items.append((DELETE, _ref(session, kind, name)))
        where.append(f"sheet {kind!r}: {name} has no row (removed)")
    added = {(k, n) for k, n in result.added}
    for kind, name in result.added:
        items.append((ADD, kind, name))
        where.append(f"sheet {kind!r}: the new {name}")
        for c in result.changes:
            if (c.kind, c.card) == (kind, name):
                items.append((_ref(session, kind, name), c.column, c.new))
                where.append(c.where)
    fixed = set(decks(session))
    for c in result.changes:
        if c.kind in fixed:
            try:
                items.append(session.deck_edit(c.kind, c.card, c.column, c.new))
            except WorkbenchError as exc:
                raise DataError(f"{c.where}: {exc}", file=str(path)) from None
            where.append(c.where)
        elif (c.kind, c.card) not in added:
            items.append((_ref(session, c.kind, c.card), c.column, c.new))
            where.append(c.where)
    try:
        result.reports = session.edit_many(items, label=f"import {path.name}") if items else []
    except EditRefused as exc:
        err = exc.error
        message = err.message if isinstance(err, DataError) else str(err)
        raise DataError(f"{where[exc.index]}: {message}", file=str(path)) from None
    return result


def _ref(session, kind: str, name: str) -> str:
    return f"{kind}:{name}" if hasattr(session, "catalogue") else name


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
           "Change", "PROVENANCE_COLUMNS", "ID", "CLEAR"]
