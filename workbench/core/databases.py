"""Which SQLite files are the workbench's own, and how they are opened.

The workbench keeps two databases in a designer's folder: the pool history
(:mod:`workbench.core.versions`) and the playtest journal
(:mod:`workbench.rooms.journal`). A folder handed to a designer may put anything
at those names, so before a database is used it must be *ours*:

* the file's header says SQLite, and its ``application_id`` (bytes 68-71 of the
  header, read without opening the file as a database) is the kind's own
  (:data:`HISTORY`, :data:`JOURNAL`); a file an earlier workbench wrote, before
  the id existed (id 0), counts as ours when its tables are exactly the kind's;
* its schema version (``user_version``) is one this workbench knows: a file
  from a newer workbench is refused, never rewritten;
* it is a regular file reached without a link out of its folder
  (:func:`workbench.core.storage.check_path`), not a folder, FIFO or device.

Anything else (another program's database, a corrupt file, a locked one, a
folder) is refused in one line naming the file. A **read-only** command opens
read-only (SQLite's ``mode=ro``): it never creates the file, never migrates it,
never changes its journal mode. Only a command that records something creates
or upgrades the file, and stamps the kind's id and schema version on it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import storage
from .errors import WorkbenchError

HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Kind:
    """One kind of database the workbench owns."""

    label: str                   # "pool history", "playtest journal": what a refusal calls it
    application_id: int          # SQLite's application_id, the kind's signature
    schema: int                  # the newest schema version (user_version) this workbench writes
    tables: frozenset[str]       # its tables, to recognise a file written before the id existed


#: ``WBH1`` and ``WBJ1`` in ASCII: what ``PRAGMA application_id`` holds in our files
HISTORY = Kind("pool history", 0x57424831, 1, frozenset({"versions", "snapshots", "runs"}))
JOURNAL = Kind("playtest journal", 0x57424A31, 2,   # = len(workbench.rooms.journal.MIGRATIONS)
               frozenset({"rooms", "seats", "games", "moves", "chat", "surveys", "events"}))


class DatabaseRefused(WorkbenchError):
    """A database the workbench will not use (not ours, newer, corrupt, locked)."""


def _header(real: Path, kind: Kind, shown: Path) -> bytes:
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise DatabaseRefused(f"{shown}: cannot open the {kind.label} ({exc.strerror or exc})") from None
    try:
        import stat
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DatabaseRefused(f"{shown}: not a regular file, so not a {kind.label}")
        return os.read(fd, 100)
    finally:
        os.close(fd)


def _tables(con: sqlite3.Connection) -> set[str]:
    return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not r[0].startswith("sqlite_")}


def _refuse(shown: Path, kind: Kind, why: str) -> DatabaseRefused:
    return DatabaseRefused(f"{shown}: {why}; the workbench leaves it as it is (move it aside, or point the "
                           f"workbench at another folder, to start a new {kind.label})")


def open_database(path: str | Path, kind: Kind, *, write: bool, timeout: float) -> sqlite3.Connection | None:
    """A connection to ``kind``'s database at ``path``, refused in one line when
    the file is not ours (see the module's docstring). Without ``write`` a
    missing or empty file gives None and nothing is created; with it a missing
    file is created (its folder too) and stamped as ``kind``'s, and an older
    schema is left for the caller to migrate (:func:`stamp` afterwards)."""
    shown = Path(path)
    real = storage.check_path(shown, f"the {kind.label}")
    if real.is_dir():
        raise _refuse(shown, kind, f"is a folder, not a {kind.label}")
    exists = real.exists()
    header = _header(real, kind, shown) if exists else b""
    if exists and header and not header.startswith(HEADER):
        raise _refuse(shown, kind, f"is not a {kind.label} (not an SQLite database, or a corrupt one)")
    if exists and header and len(header) < 100:
        raise _refuse(shown, kind, f"is not a {kind.label} (a truncated SQLite file)")
    if not header and not write:
        return None                                   # nothing recorded yet; a read creates nothing
    app_id = int.from_bytes(header[68:72], "big") if header else 0
    version = int.from_bytes(header[60:64], "big") if header else 0
    if app_id not in (0, kind.application_id):
        raise _refuse(shown, kind, f"is another program's database (application_id {app_id:#010x}), not a "
                                   f"{kind.label}")
    if version > kind.schema and app_id == kind.application_id:
        raise _refuse(shown, kind, f"was written by a newer workbench ({kind.label} schema {version}; this one "
                                   f"knows up to {kind.schema}); upgrade the workbench to read it")
    if header and app_id == 0:
        # a file of an earlier workbench (no id yet) holds exactly our tables; an empty
        # database holds none and is ours to fill only when writing. Looked at immutable:
        # no lock taken, no side file made, nothing written to another program's file
        try:
            probe = storage.connect_sqlite(real, read_only=True, immutable=True, timeout=timeout,
                                           what=f"the {kind.label}")
            try:
                tables = _tables(probe)
            finally:
                probe.close()
        except sqlite3.Error as exc:
            raise problem(shown, kind, exc) from None
        if tables and tables != set(kind.tables):
            raise _refuse(shown, kind, f"is another program's database (tables {', '.join(sorted(tables)[:6])}"
                                       f"{'...' if len(tables) > 6 else ''}), not a {kind.label}")
        if not tables and not write:
            return None
        if version > kind.schema:
            raise _refuse(shown, kind, f"was written by a newer workbench (schema {version})")
    if write and not exists:
        storage.make_folder(real.parent, f"the {kind.label}")
    # a read of a WAL file no writer holds (no -wal beside it) needs no side files at all
    quiet = not write and header[18:19] == b"\x02" and not os.path.exists(f"{real}-wal")
    try:
        con = storage.connect_sqlite(real, read_only=not write, immutable=quiet, timeout=timeout,
                                     what=f"the {kind.label}")
    except sqlite3.Error as exc:
        raise _refuse(shown, kind, f"cannot be opened ({exc})") from None
    try:
        con.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()   # a corrupt file fails here
    except DatabaseRefused:
        con.close()
        raise
    except sqlite3.Error as exc:
        con.close()
        raise problem(shown, kind, exc) from None
    return con


def stamp(con: sqlite3.Connection, kind: Kind, version: int) -> None:
    """Mark ``con``'s file as ``kind``'s, at schema ``version`` (inside the
    caller's transaction, so a file is stamped only once its tables exist)."""
    con.execute(f"PRAGMA application_id={kind.application_id}")
    con.execute(f"PRAGMA user_version={int(version)}")


def problem(shown: Path, kind: Kind, exc: sqlite3.Error) -> DatabaseRefused:
    """One line for an SQLite error on ``kind``'s file."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return DatabaseRefused(f"{shown}: the {kind.label} is locked by another program; try again when it is "
                               "done (nothing was changed)")
    if "malformed" in text or "not a database" in text or "corrupt" in text or "disk I/O" in text:
        return _refuse(shown, kind, f"is corrupt ({text})")
    if "readonly" in text or "read-only" in text:
        return DatabaseRefused(f"{shown}: the {kind.label} cannot be written ({text}); nothing was changed")
    return _refuse(shown, kind, f"cannot be used as a {kind.label} ({text})")


@contextlib.contextmanager
def errors(shown: str | Path, kind: Kind) -> Iterator[None]:
    """Turn any SQLite error inside the block into :func:`problem`'s one line."""
    try:
        yield
    except sqlite3.Error as exc:
        raise problem(Path(shown), kind, exc) from None


__all__ = ["Kind", "HISTORY", "JOURNAL", "DatabaseRefused", "open_database", "stamp", "problem", "errors"]
