"""Databases that are ours (issue 38): the pool history and the playtest journal
carry an application_id and a schema version; a foreign, future, corrupt or
locked database, or a folder, is refused in one line naming it and left
byte-for-byte as it was; a read-only command creates, migrates and switches
nothing; a history or ``.workbench`` linking out of the card folder is refused."""

from __future__ import annotations

import os
import sqlite3

import pytest

from workbench.cli import main
from workbench.core import databases, versions

GAME = "meaning-made"


def _snapshot(folder):
    """Every file under ``folder`` with its bytes (what must not change)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            out[os.path.relpath(path, folder)] = open(path, "rb").read() if os.path.isfile(path) else "dir"
    return out


def _foreign(path, wal=False):
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE accounts (id INTEGER, owner TEXT)")
    con.execute("INSERT INTO accounts VALUES (1, 'someone else')")
    con.commit()
    con.close()


def _future(path, kind):
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id={kind.application_id}")
    con.execute(f"PRAGMA user_version={kind.schema + 5}")
    con.execute("CREATE TABLE later (x)")
    con.commit()
    con.close()


def _corrupt(path):
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)


def _plant(kind: str, path, db_kind):
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "foreign":
        _foreign(path)
    elif kind == "foreign-wal":
        _foreign(path, wal=True)
    elif kind == "future":
        _future(path, db_kind)
    elif kind == "corrupt":
        _corrupt(path)
    elif kind == "text":
        path.write_text("not a database at all\n", encoding="utf-8")
    elif kind == "folder":
        path.mkdir()


PLANTS = ["foreign", "foreign-wal", "future", "corrupt", "text", "folder"]


def _one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("plant", PLANTS)
def test_history_refuses_what_is_not_ours_and_changes_nothing(cards_copy, capsys, plant):
    path = versions.history_path(cards_copy / "meaning_made")
    _plant(plant, path, databases.HISTORY)
    before = _snapshot(cards_copy)
    assert main(["history", GAME]) == 1
    err = capsys.readouterr().err
    assert _one_line(err) and "history.sqlite" in err, err
    assert _snapshot(cards_copy) == before


@pytest.mark.parametrize("plant", PLANTS)
def test_journal_list_refuses_what_is_not_ours_and_changes_nothing(tmp_path, capsys, plant):
    path = tmp_path / "j" / "playtest-journal.sqlite"
    _plant(plant, path, databases.JOURNAL)
    before = _snapshot(tmp_path)
    assert main(["journal", "list", "--journal", str(path)]) == 1
    err = capsys.readouterr().err
    assert _one_line(err) and "playtest-journal.sqlite" in err, err
    assert _snapshot(tmp_path) == before


def test_a_save_never_writes_history_into_a_foreign_database(cards_copy):
    from workbench.tweak import open_session
    path = versions.history_path(cards_copy / "meaning_made")
    _plant("foreign", path, databases.HISTORY)
    before = path.read_bytes()
    session = open_session(game_id=GAME)
    card = session.table()["name"][0]
    session.edit(card, "flavour", "a new line of flavour")
    session.save()
    assert session.last_version is None and "another program" in session.history_problem
    assert path.read_bytes() == before and not os.path.exists(f"{path}-wal")


@pytest.mark.parametrize("where", ["folder", "file"])
def test_history_linked_out_of_the_card_folder_is_refused(cards_copy, tmp_path, capsys, where):
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = cards_copy / "meaning_made"
    if where == "folder":
        (folder / ".workbench").symlink_to(outside, target_is_directory=True)
    else:
        (folder / ".workbench").mkdir()
        _foreign(outside / "other.sqlite")
        (folder / ".workbench" / "history.sqlite").symlink_to(outside / "other.sqlite")
    before = _snapshot(outside)
    with pytest.raises(Exception, match="link"):
        versions.record_save(GAME, folder)
    assert main(["history", GAME]) == 1
    assert _one_line(capsys.readouterr().err)
    assert _snapshot(outside) == before


def test_read_only_commands_create_nothing(cards_copy, tmp_path, capsys):
    before = _snapshot(cards_copy)
    assert main(["history", GAME]) == 0
    assert main(["journal", "list"]) == 0
    assert _snapshot(cards_copy) == before
    # an existing history of ours is read without its journal mode or files changing
    versions.record_save(GAME, cards_copy / "meaning_made")
    before = _snapshot(cards_copy)
    assert main(["history", GAME]) == 0
    assert _snapshot(cards_copy) == before


def test_ours_is_stamped_and_an_earlier_unstamped_one_is_still_read(cards_copy):
    folder = cards_copy / "meaning_made"
    path = versions.history_path(folder)
    path.parent.mkdir()
    con = sqlite3.connect(path)             # what a workbench before the stamp wrote
    con.executescript(versions._SCHEMA)
    con.close()
    assert versions.versions(folder) == []
    versions.record_save(GAME, folder)
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == databases.HISTORY.application_id
    assert con.execute("PRAGMA user_version").fetchone()[0] == databases.HISTORY.schema
    con.close()
    assert len(versions.versions(folder)) == 1


def test_a_locked_history_is_one_line_not_a_hang(cards_copy, capsys):
    folder = cards_copy / "meaning_made"
    versions.record_save(GAME, folder)
    path = versions.history_path(folder)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO runs (hash, created, kind, params, metrics) VALUES ('x','x','x','{}','{}')")
    try:
        assert main(["history", GAME]) == 1
        err = capsys.readouterr().err
        assert _one_line(err) and "locked" in err
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_journal_of_ours_still_works_end_to_end(tmp_path):
    from workbench.rooms.journal import Journal
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    j.add_room("r1", GAME, {"game": GAME}, [{"seat": 0, "name": "A", "kind": "person"}])
    j.close()
    ro = Journal(path, create=False)
    assert [r["id"] for r in ro.rooms()] == ["r1"]
    ro.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == databases.JOURNAL.application_id
    con.close()
