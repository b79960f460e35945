"""The playtest journal: an SQLite file in the designer's folder.

Every room, seat, game, move (with the time its player took to decide), chat
line, pool version, outcome and end-of-game survey. WAL mode and one
transaction per move, so a server killed mid-game loses nothing it had
answered: a room is rebuilt from its config and its moves (the engine is
deterministic), see :func:`workbench.rooms.room.RoomHall.resume`.

The schema grows by numbered migrations (``PRAGMA user_version``): a newer
workbench opens an older journal and brings it up to date, never the reverse.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from workbench.core.errors import WorkbenchError
from workbench.core.workspace import JOURNAL_FILE, current

FILE_NAME = JOURNAL_FILE


def journal_path() -> Path:
    """Where the journal lives: the workspace's journal (``$WORKBENCH_JOURNAL``),
    else its card folder (``--cards``), else the folder the command runs in."""
    return current().journal_path()

MIGRATIONS = [
    # 1: the first schema
    """
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
        created REAL NOT NULL, closed REAL, status TEXT NOT NULL DEFAULT 'open');
    CREATE TABLE seats (
        room TEXT NOT NULL REFERENCES rooms(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
        kind TEXT NOT NULL, bot TEXT, token_hash TEXT, token_hint TEXT, revoked INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (room, seat));
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(id),
        number INTEGER NOT NULL, config TEXT NOT NULL, pool_version TEXT, started REAL NOT NULL,
        ended REAL, status TEXT NOT NULL DEFAULT 'playing', outcome TEXT);
    CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, seat INTEGER NOT NULL,
        by TEXT NOT NULL, action TEXT NOT NULL, think_ms REAL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, ply, at));
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(id),
        seat INTEGER, text TEXT NOT NULL, at REAL NOT NULL);
    CREATE TABLE surveys (
        game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        fun INTEGER, clarity INTEGER, length TEXT, strongest TEXT, weakest TEXT, text TEXT, at REAL NOT NULL,
        PRIMARY KEY (game, seat));
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT, at REAL NOT NULL);
    """,
    # 2: a room's pause survives a restart; a copy of each pool a game was played on
    # that the card folder's history cannot give back (an unsaved edited pool...)
    """
    ALTER TABLE rooms ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE moves ADD COLUMN public TEXT;
    ALTER TABLE rooms ADD COLUMN spectator_hash TEXT;
    CREATE TABLE pools (
        version TEXT PRIMARY KEY, game TEXT NOT NULL, files TEXT NOT NULL, at REAL NOT NULL);
    CREATE TABLE answers (
        game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, key TEXT NOT NULL,
        moment TEXT, question TEXT NOT NULL, answer TEXT, at REAL NOT NULL,
        PRIMARY KEY (game, seat, key));
    """,
]

SURVEY_LENGTHS = ("too short", "about right", "too long")

from workbench.core.databases import JOURNAL as _KIND  # noqa: E402 - checked beside the migrations it counts
assert _KIND.schema == len(MIGRATIONS), "workbench.core.databases.JOURNAL.schema must count the migrations"


class Journal:
    """One journal file. Thread-safe (one connection behind a lock: bots move
    from worker threads); every write is its own committed transaction."""

    def __init__(self, path: Path | str, create: bool = True):
        """Open the journal at ``path``: ``create`` to record (the file and its folder
        are made, stamped as a journal and brought up to date), else read-only (a
        missing or empty journal is refused, nothing is created, migrated or switched
        to WAL). A file that is not a journal of ours is refused in one line
        (:mod:`workbench.core.databases`)."""
        from workbench.core import databases
        self.path = Path(path)
        self.read_only = not create
        con = databases.open_database(self.path, databases.JOURNAL, write=create, timeout=10.0 if create else 3.0)
        if con is None:
            raise WorkbenchError(f"no playtest journal at {self.path} (rooms served by `workbench serve` write one)")
        self.db = con
        try:
            with databases.errors(self.path, databases.JOURNAL):
                if create:
                    self.db.execute("PRAGMA journal_mode=WAL")
                    self.db.execute("PRAGMA synchronous=FULL")
                    self.db.execute("PRAGMA foreign_keys=ON")
                    self.migrate()
                else:
                    version = self.db.execute("PRAGMA user_version").fetchone()[0]
                    if version != len(MIGRATIONS):   # a read never migrates: only `serve` brings it up to date
                        raise WorkbenchError(f"{self.path}: a playtest journal of schema {version}; this workbench "
                                             f"reads schema {len(MIGRATIONS)} (open it once with `workbench serve`)")
        except BaseException:
            self.db.close()
            raise
        self.lock = threading.RLock()

    @classmethod
    def in_folder(cls, folder: Path | str) -> "Journal":
        return cls(Path(folder) / FILE_NAME)

    def migrate(self) -> None:
        from workbench.core.databases import JOURNAL
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise WorkbenchError(f"{self.path} was written by a newer workbench (schema {version})")
        for number in range(version, len(MIGRATIONS)):
            self.db.executescript("BEGIN;" + MIGRATIONS[number] + f"PRAGMA user_version={number + 1}; "
                                  f"PRAGMA application_id={JOURNAL.application_id}; COMMIT;")
        if self.db.execute("PRAGMA application_id").fetchone()[0] != JOURNAL.application_id:
            self.db.execute(f"PRAGMA application_id={JOURNAL.application_id}")   # one of an earlier workbench

    def close(self) -> None:
        self.db.close()

    def _write(self, sql: str, args: tuple = ()) -> int:
        from workbench.core import databases
        with self.lock, databases.errors(self.path, databases.JOURNAL):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = self.db.execute(sql, args)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return cur.lastrowid

    def _rows(self, sql: str, args: tuple = ()) -> list[dict]:
        from workbench.core import databases
        with self.lock, databases.errors(self.path, databases.JOURNAL):
            cur = self.db.execute(sql, args)
            names = [d[0] for d in cur.description]
            return [dict(zip(names, row)) for row in cur.fetchall()]

    # -- writes ----------------------------------------------------------------
    def add_room(self, room_id: str, game: str, config: dict, seats: list[dict]) -> None:
        from workbench.core import databases
        now = time.time()
        with self.lock, databases.errors(self.path, databases.JOURNAL):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO rooms (id, game, config, created) VALUES (?, ?, ?, ?)",
                                (room_id, game, json.dumps(config), now))
                for s in seats:
                    self.db.execute("INSERT INTO seats (room, seat, name, kind, bot, token_hash, token_hint) "
                                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                    (room_id, s["seat"], s["name"], s["kind"], s.get("bot"),
                                     s.get("token_hash"), s.get("token_hint")))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def set_seat(self, room_id: str, seat: int, **fields) -> None:
        allowed = {"kind", "bot", "token_hash", "token_hint", "revoked"}
        assert set(fields) <= allowed
        cols = ", ".join(f"{k} = ?" for k in fields)
        self._write(f"UPDATE seats SET {cols} WHERE room = ? AND seat = ?", (*fields.values(), room_id, seat))

    def set_paused(self, room_id: str, paused: bool) -> None:
        self._write("UPDATE rooms SET paused = ? WHERE id = ?", (int(paused), room_id))

    def keep_pool(self, version: str, game: str, files: dict) -> None:
        """Keep pool ``version``'s file values (once per version)."""
        self._write("INSERT OR IGNORE INTO pools (version, game, files, at) VALUES (?, ?, ?, ?)",
                    (version, game, json.dumps(files, ensure_ascii=False, default=str), time.time()))

    def pool(self, version: str) -> dict | None:
        """The file values kept for pool ``version``, or None."""
        rows = self._rows("SELECT files FROM pools WHERE version = ?", (version,))
        return json.loads(rows[0]["files"]) if rows else None

    def close_room(self, room_id: str) -> None:
        self._write("UPDATE rooms SET status = 'closed', closed = ? WHERE id = ?", (time.time(), room_id))

    def start_game(self, room_id: str, number: int, config: dict, pool_version: str | None) -> int:
        return self._write("INSERT INTO games (room, number, config, pool_version, started) VALUES (?, ?, ?, ?, ?)",
                           (room_id, number, json.dumps(config), pool_version, time.time()))

    def add_move(self, game_id: int, ply: int, seat: int, by: str, action: str, think_ms: float | None,
                 public: str | None = None) -> None:
        """One move: its notation and ``public``, what the whole table saw of it
        (``Game.public_move``)."""
        self._write("INSERT INTO moves (game, ply, seat, by, action, think_ms, at, public) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game_id, ply, seat, by, action, think_ms, time.time(), public))

    def set_spectator(self, room_id: str, digest: str | None) -> None:
        self._write("UPDATE rooms SET spectator_hash = ? WHERE id = ?", (digest, room_id))

    def undo_move(self, game_id: int, ply: int) -> None:
        self._write("UPDATE moves SET undone = 1 WHERE game = ? AND ply = ? AND undone = 0", (game_id, ply))

    def end_game(self, game_id: int, status: str, outcome: dict | None) -> None:
        self._write("UPDATE games SET ended = ?, status = ?, outcome = ? WHERE id = ?",
                    (time.time(), status, json.dumps(outcome) if outcome is not None else None, game_id))

    def add_chat(self, room_id: str, seat: int | None, text: str) -> None:
        """One chat line, committed before the line is shown (a server killed with
        -9 keeps it: WAL) but without waiting for the disk to sync: a chatty table
        must not hold up every room's moves. The next move's synced commit carries it
        to the disk."""
        with self.lock:
            self.db.execute("PRAGMA synchronous=NORMAL")
            try:
                self._write("INSERT INTO chat (room, seat, text, at) VALUES (?, ?, ?, ?)",
                            (room_id, seat, text, time.time()))
            finally:
                self.db.execute("PRAGMA synchronous=FULL")

    def add_survey(self, game_id: int, seat: int, answers: dict) -> None:
        self._write("INSERT OR REPLACE INTO surveys (game, seat, fun, clarity, length, strongest, weakest, text, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seat, answers.get("fun"), answers.get("clarity"), answers.get("length"),
                     answers.get("strongest"), answers.get("weakest"), answers.get("text"), time.time()))

    def add_answers(self, game_id: int, seat: int, rows: list[dict]) -> None:
        """A person's answers to the questions about their own game (``key``,
        ``moment`` shown, ``question``, ``answer``), in one transaction."""
        now = time.time()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for r in rows:
                    self.db.execute("INSERT OR REPLACE INTO answers (game, seat, key, moment, question, answer, at) "
                                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                    (game_id, seat, r["key"], r.get("moment"), r["question"], r.get("answer"), now))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def answers(self, game_id: int | None = None, room_id: str | None = None) -> list[dict]:
        if room_id is not None:
            return self._rows("SELECT a.* FROM answers a JOIN games g ON g.id = a.game WHERE g.room = ? "
                              "ORDER BY a.game, a.seat, a.key", (room_id,))
        if game_id is None:
            return self._rows("SELECT * FROM answers ORDER BY game, seat, key")
        return self._rows("SELECT * FROM answers WHERE game = ? ORDER BY seat, key", (game_id,))

    def add_event(self, room_id: str, kind: str, detail: str = "") -> None:
        self._write("INSERT INTO events (room, kind, detail, at) VALUES (?, ?, ?, ?)", (room_id, kind, detail, time.time()))

    # -- reads -----------------------------------------------------------------
    def rooms(self, status: str | None = None) -> list[dict]:
        if status:
            return self._rows("SELECT * FROM rooms WHERE status = ? ORDER BY created", (status,))
        return self._rows("SELECT * FROM rooms ORDER BY created")

    def seats(self, room_id: str) -> list[dict]:
        return self._rows("SELECT * FROM seats WHERE room = ? ORDER BY seat", (room_id,))

    def games(self, room_id: str | None = None) -> list[dict]:
        if room_id:
            return self._rows("SELECT * FROM games WHERE room = ? ORDER BY id", (room_id,))
        return self._rows("SELECT * FROM games ORDER BY id")

    def game(self, game_id: int) -> dict | None:
        rows = self._rows("SELECT * FROM games WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    def moves(self, game_id: int, include_undone: bool = False) -> list[dict]:
        where = "" if include_undone else " AND undone = 0"
        return self._rows(f"SELECT * FROM moves WHERE game = ?{where} ORDER BY ply, at", (game_id,))

    def chat(self, room_id: str, last: int | None = None) -> list[dict]:
        """The room's chat, oldest first (only the ``last`` lines when given)."""
        if last is not None:
            return self._rows("SELECT * FROM (SELECT * FROM chat WHERE room = ? ORDER BY id DESC LIMIT ?) "
                              "ORDER BY id", (room_id, int(last)))
        return self._rows("SELECT * FROM chat WHERE room = ? ORDER BY id", (room_id,))

    def surveys(self, game_id: int | None = None) -> list[dict]:
        if game_id is None:
            return self._rows("SELECT * FROM surveys ORDER BY game, seat")
        return self._rows("SELECT * FROM surveys WHERE game = ? ORDER BY seat", (game_id,))

    def saved_game(self, game_id: int) -> dict:
        """Game ``game_id`` as a saved game (``Match.to_dict`` with seats): the
        Play page opens it and replays it move by move; undone moves left out."""
        from workbench.core.history import SAVE_FORMAT
        row = self.game(game_id)
        if row is None:
            raise WorkbenchError(f"no game {game_id} in {self.path} (see `workbench journal list`)")
        config = json.loads(row["config"])
        seats = {s["seat"]: s for s in self.seats(row["room"])}
        played = [m["action"] for m in self.moves(game_id)]
        return {"format": SAVE_FORMAT, "game": config["game"],
                "config": {k: config[k] for k in ("players", "seed", "variants", "options")},
                "actions": played, "cursor": len(played),
                "seats": ["human" if seats[i]["kind"] == "person" else seats[i]["bot"]
                          for i in range(len(config["players"]))]}

    def table(self, name: str) -> list[dict]:
        """Every row of one table (for export)."""
        if name not in TABLES:
            raise WorkbenchError(f"no journal table {name!r}; tables: {', '.join(TABLES)}")
        return self._rows(f"SELECT * FROM {name}")


TABLES = ("rooms", "seats", "games", "moves", "chat", "surveys", "events", "pools", "answers")
