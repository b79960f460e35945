"""Versions of a card pool: what a designer saved, when, with which edits, and
the runs made on each.

:func:`pool_version` names the pool a game is played with: a short hash of the
values in the game's pool files (``Game.pool_spec.files``), so the same values
give the same version in any folder, and a comment or a re-indented line does
not make a new one. Playtest rooms, simulations, comparisons and balance runs
record it.

The history is a SQLite database in the card folder,
``<card folder>/.workbench/history.sqlite`` (WAL journal, so a page reading it
never blocks a save; git-ignored in the repository's ``cards/``). It holds:

- ``versions``: one row per save (number, hash, time in UTC, the edits since the
  previous version as ``{card, field, old, new}``, an optional note, what made it:
  ``save``, ``balance``, or ``found`` for a pool first seen on disk, edited by hand);
- ``snapshots``: the pool's values per hash, so any two versions can be compared
  even after the files moved on;
- ``runs``: a simulation, comparison or balance run against a version, with its
  parameters and headline metrics.

A folder the workbench may not write (inside an installed package, read-only,
or inside a game's own package folder, where a plugin ships its cards) has no history: recording is skipped, never an error, since a run or a game must
not fail because its bookkeeping could not be written. Reading a folder without
a history gives an empty list.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .errors import WorkbenchError
from .pool_values import diff_values, flatten_files, read_raw

HISTORY_DIR = ".workbench"
HISTORY_FILE = "history.sqlite"
#: how long a writer waits for another one (a save and a simulation at once)
BUSY_MS = 10_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS versions (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    hash TEXT NOT NULL,
    created TEXT NOT NULL,
    source TEXT NOT NULL,
    note TEXT,
    edits TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    pool TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    hash TEXT NOT NULL,
    created TEXT NOT NULL,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    metrics TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_hash ON runs(hash);
CREATE INDEX IF NOT EXISTS versions_by_hash ON versions(hash);
"""


@dataclass
class Version:
    number: int
    hash: str
    created: str
    source: str
    note: str | None
    edits: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Run:
    id: int
    hash: str
    created: str
    kind: str
    params: dict
    metrics: dict

    def to_dict(self) -> dict:
        return asdict(self)


# --------------------------------------------------------------------------- the pool's name
def _spec(game):
    if isinstance(game, str):
        from .registry import get_game
        game = get_game(game)
    if game.pool_spec is None:
        raise WorkbenchError(f"{game.id} has no card pool to version")
    return game, game.pool_spec


def game_folder(game, cards_dir: str | Path | None = None) -> Path:
    """The game's card folder: ``cards_dir`` itself when it holds the pool files,
    ``cards_dir/<game folder>`` when it is a root made by ``workbench init``,
    else the folder the workbench reads (``--cards``/``$WORKBENCH_CARDS``/bundled)."""
    game, spec = _spec(game)
    from .data import cards_dir as default_dir
    if cards_dir is None:
        return default_dir(game.id)
    folder = Path(cards_dir)
    if any((folder / name).is_file() for name in spec.files):
        return folder
    inner = folder / game.id.replace("-", "_")
    return inner if inner.is_dir() else folder


def _canonical(game, folder: Path) -> tuple[str, dict]:
    _, spec = _spec(game)
    raw = read_raw(folder, spec.files)
    text = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return "p" + hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest(), raw


def pool_version(game, cards_dir: str | Path | None = None) -> str:
    """The version of ``game``'s card pool in ``cards_dir``: ``p`` and 12 hex digits
    of a hash of the values in its pool files (the same values give the same
    version in any folder; comments and layout do not count).

    ``game`` is a game id or a :class:`~workbench.core.game.Game`; ``cards_dir``
    is the game's card folder or a root holding it (``workbench init DIR``), None
    for the folder the workbench reads. It only reads: to also enter the version
    in the folder's history, call :func:`note_version`."""
    return _canonical(game, game_folder(game, cards_dir))[0]


# --------------------------------------------------------------------------- the store
def history_path(folder: Path) -> Path:
    return Path(folder) / HISTORY_DIR / HISTORY_FILE


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


#: how long a read waits for a writer holding the database (then: one line, "locked")
READ_WAIT_S = 3.0


@contextlib.contextmanager
def _connect(folder: Path, *, create: bool) -> Iterator[sqlite3.Connection | None]:
    """The folder's history: refused in one line when the file is not ours
    (:mod:`.databases`); ``create`` opens it to record (creating, stamping and
    bringing its schema up to date), else read-only, None when there is none."""
    from . import databases
    from .storage import refuse_inside_game_package, refuse_inside_installed_package
    path = history_path(folder)
    if create:
        refuse_inside_installed_package(path)
        refuse_inside_game_package(path)
    con = databases.open_database(path, databases.HISTORY, write=create,
                                  timeout=BUSY_MS / 1000 if create else READ_WAIT_S)
    if con is None:
        yield None
        return
    try:
        with databases.errors(path, databases.HISTORY):
            if create:
                con.execute("PRAGMA journal_mode=WAL")
                if con.execute("PRAGMA application_id").fetchone()[0] != databases.HISTORY.application_id:
                    con.execute("BEGIN IMMEDIATE")
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        con.execute(statement)
                    databases.stamp(con, databases.HISTORY, databases.HISTORY.schema)
                    con.execute("COMMIT")
            yield con
    finally:
        con.close()


def _version_row(row) -> Version:
    number, hash_, created, source, note, edits = row
    return Version(number, hash_, created, source, note, json.loads(edits))


def _latest(con) -> Version | None:
    row = con.execute("SELECT number, hash, created, source, note, edits FROM versions "
                      "ORDER BY number DESC LIMIT 1").fetchone()
    return _version_row(row) if row else None


def _snapshot(con, hash_: str) -> dict | None:
    row = con.execute("SELECT pool FROM snapshots WHERE hash = ?", (hash_,)).fetchone()
    return json.loads(row[0]) if row else None


def _record(game, folder: Path, *, note: str | None, source: str, always: bool) -> Version:
    game, _ = _spec(game)
    hash_, raw = _canonical(game, folder)
    with _connect(folder, create=True) as con:
        con.execute("BEGIN IMMEDIATE")
        try:
            latest = _latest(con)
            if latest is not None and latest.hash == hash_ and not (always and note):
                con.execute("COMMIT")
                return latest
            if not always and con.execute("SELECT 1 FROM versions WHERE hash = ?", (hash_,)).fetchone():
                con.execute("COMMIT")
                return _find(con, hash_)
            before = _snapshot(con, latest.hash) if latest else None
            edits = diff_values(flatten_files(before), flatten_files(raw)) if before is not None else []
            con.execute("INSERT OR IGNORE INTO snapshots (hash, game, pool) VALUES (?, ?, ?)",
                        (hash_, game.id, json.dumps(raw, ensure_ascii=False, default=str)))
            cur = con.execute("INSERT INTO versions (hash, created, source, note, edits) VALUES (?, ?, ?, ?, ?)",
                              (hash_, _now(), source, note or None,
                               json.dumps(edits, ensure_ascii=False, default=str)))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return _version_row(con.execute("SELECT number, hash, created, source, note, edits FROM versions "
                                        "WHERE number = ?", (cur.lastrowid,)).fetchone())


def _find(con, hash_: str) -> Version:
    row = con.execute("SELECT number, hash, created, source, note, edits FROM versions WHERE hash = ? "
                      "ORDER BY number DESC LIMIT 1", (hash_,)).fetchone()
    return _version_row(row)


def record_save(game, folder: str | Path, *, note: str | None = None, source: str = "save") -> Version:
    """Enter the pool now in ``folder`` as a new version after a save (the edits
    are what differs from the previous version). Saving the same values again
    makes no new version unless a note comes with it. Raises
    :class:`WorkbenchError` when the history cannot be written."""
    try:
        return _record(game, Path(folder), note=note, source=source, always=True)
    except (sqlite3.Error, OSError) as exc:
        raise WorkbenchError(f"cannot write the pool history in {history_path(Path(folder))}: {exc}") from None


def note_version(game, cards_dir: str | Path | None = None) -> str:
    """The pool version (:func:`pool_version`), entered in the folder's history
    (as ``found``) if it is not there yet; the history is skipped silently where
    it cannot be written."""
    folder = game_folder(game, cards_dir)
    if history_disabled():
        return pool_version(game, folder)
    try:
        return _record(game, folder, note=None, source="found", always=False).hash
    except (WorkbenchError, sqlite3.Error, OSError):
        return pool_version(game, folder)


def record_run(game, cards_dir: str | Path | None, kind: str, params: dict, metrics: dict) -> str | None:
    """Record a run (``simulate``, ``compare``, ``balance``...) against the pool
    version it used; returns that version, None when nothing could be recorded."""
    if history_disabled():
        return None
    try:
        game, _ = _spec(game)
        if game.has_injected_cards:
            return None  # a pool held in memory (an edited session game) is no version of the folder
        folder = game_folder(game, cards_dir)
        hash_ = _record(game, folder, note=None, source="found", always=False).hash
        with _connect(folder, create=True) as con:
            con.execute("INSERT INTO runs (hash, created, kind, params, metrics) VALUES (?, ?, ?, ?, ?)",
                        (hash_, _now(), kind, json.dumps(params, default=str),
                         json.dumps(metrics, default=str)))
        return hash_
    except (WorkbenchError, sqlite3.Error, OSError):
        return None


# --------------------------------------------------------------------------- reading
def versions(folder: str | Path) -> list[Version]:
    """Every version of the folder's pool, oldest first (empty without a history)."""
    with _connect(Path(folder), create=False) as con:
        if con is None:
            return []
        return [_version_row(r) for r in con.execute(
            "SELECT number, hash, created, source, note, edits FROM versions ORDER BY number")]


def runs(folder: str | Path, hash_: str | None = None) -> list[Run]:
    """The runs recorded in the folder (of one version, by hash), oldest first."""
    with _connect(Path(folder), create=False) as con:
        if con is None:
            return []
        query = "SELECT id, hash, created, kind, params, metrics FROM runs"
        args: tuple = ()
        if hash_ is not None:
            query, args = query + " WHERE hash = ?", (hash_,)
        return [Run(i, h, c, k, json.loads(p), json.loads(m))
                for i, h, c, k, p, m in con.execute(query + " ORDER BY id", args)]


def resolve(folder: str | Path, ref: str) -> Version:
    """The version a designer names: its number (``3``, ``v3``) or a hash prefix."""
    found = versions(folder)
    text = str(ref).strip().lower()
    if text.lstrip("v").isdigit():
        for v in found:
            if v.number == int(text.lstrip("v")):
                return v
    else:
        hits = [v for v in found if v.hash.startswith(text)]
        if len({v.hash for v in hits}) == 1:
            return hits[-1]
        if hits:
            raise WorkbenchError(f"version {ref!r} is ambiguous: {', '.join(sorted({v.hash for v in hits}))}")
    known = ", ".join(str(v.number) for v in found) or "none recorded yet"
    raise WorkbenchError(f"no version {ref!r} in {history_path(Path(folder))} (versions: {known})")


def diff(folder: str | Path, old: str, new: str) -> list[dict]:
    """Every value that differs between two versions, ``{card, field, old, new}``."""
    a, b = resolve(folder, old), resolve(folder, new)
    with _connect(Path(folder), create=False) as con:
        before, after = _snapshot(con, a.hash), _snapshot(con, b.hash)
    return diff_values(flatten_files(before or {}), flatten_files(after or {}))


def summary(folder: str | Path) -> list[dict]:
    """Each version with the runs made on it, newest first: what the Cards page
    and ``workbench history`` list."""
    all_runs = runs(folder)
    out = []
    for v in reversed(versions(folder)):
        row = v.to_dict()
        row["runs"] = [r.to_dict() for r in all_runs if r.hash == v.hash]
        out.append(row)
    return out


def history_disabled() -> bool:
    """``WORKBENCH_NO_HISTORY=1`` turns run recording off (a benchmark that must
    not write into the folder it measures)."""
    return os.environ.get("WORKBENCH_NO_HISTORY", "") not in ("", "0")


def _short(value):
    return f"{value:.3g}" if isinstance(value, float) else value


def metrics_text(run: dict, limit: int = 4, arrow: str = "->") -> str:
    """A run's first metrics as one short line (``workbench history``, the Cards page)."""
    parts = []
    for key, value in list(run["metrics"].items())[:limit]:
        if isinstance(value, float):
            parts.append(f"{key} {value:.3g}")
        elif isinstance(value, dict) and "after" in value:
            verdict = f" ({value['verdict']})" if value.get("verdict") else ""  # a comparison's
            parts.append(f"{key} {_short(value.get('before'))} {arrow} {_short(value.get('after'))}{verdict}")
        else:
            parts.append(f"{key} {value}")
    return ", ".join(parts)
