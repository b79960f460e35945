"""The card pool a room's game is played on, kept so the game resumes on it.

A game in a room is replayed from its moves after a restart, and a move only
means the same thing on the same cards: a game started before the designer
saved an edit, or on the Cards page's unsaved edited pool, must resume on *its*
pool, not on today's files. When a game starts, :func:`pool_of` names its pool
(the version hash :mod:`workbench.core.versions` gives the same values) and
returns the pool's file values; the room's journal keeps those values unless the
card folder's history already holds that version. :func:`game_on` rebuilds a
game bound to such values, validated by the game's own loader.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from workbench.core.errors import WorkbenchError


def version_of_files(files: dict) -> str:
    """The pool version of ``files`` (file name -> parsed values), as
    :func:`workbench.core.versions.pool_version` names the same values on disk."""
    text = json.dumps(files, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return "p" + hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest()


def pool_of(game) -> tuple[str | None, dict | None]:
    """``(version, files)`` of the pool ``game`` plays: the card folder's (entered
    in its history), or an edited pool's values when the game was made from a
    Cards page session (``Game.pool_files``). ``(None, None)`` for a game without
    cards; an injected pool whose values nobody kept gets an ``edit-`` name and
    no files (such a game cannot be resumed on its pool)."""
    if game.pool_spec is None:
        return None, None
    files = getattr(game, "pool_files", None)
    if game.has_injected_cards:
        if files is None:
            return "edit-" + hashlib.sha256(repr(game.cards()).encode()).hexdigest()[:12], None
        return version_of_files(files), files
    from workbench.core.pool_values import read_raw
    from workbench.core.versions import game_folder, note_version
    try:
        files = read_raw(game_folder(game), game.pool_spec.files)
    except (OSError, WorkbenchError):
        return None, None
    try:
        version = note_version(game)
    except (OSError, WorkbenchError):
        version = version_of_files(files)
    return version, files


def history_has(game, version: str) -> bool:
    """Whether the card folder's history can give back pool ``version``."""
    return history_files(game, version) is not None


def history_files(game, version: str) -> dict | None:
    """Pool ``version``'s file values from the card folder's history, or None."""
    from workbench.core import versions
    try:
        folder = versions.game_folder(game)
        with versions._connect(folder, create=False) as con:
            return None if con is None else versions._snapshot(con, version)
    except Exception:   # noqa: BLE001 - an unreadable history only means "not there"
        return None


def game_on(base, files: dict):
    """``base``'s rules bound to the pool ``files`` describes (validated by the
    game's loader, as a save would be); the values stay on the game
    (``pool_files``) so its next game keeps the same pool."""
    from workbench.core import storage
    from workbench.core.data import dump_yaml
    from workbench.core.versions import game_folder
    spec = base.pool_spec
    with tempfile.TemporaryDirectory(prefix="workbench-room-pool-") as tmp:
        folder = game_folder(base)
        # the folder's other files (read by the loader, never part of a version) as they are
        for item in folder.iterdir() if folder.is_dir() else ():
            if item.is_file() and item.suffix == ".yaml" and item.name not in spec.files:
                storage.scratch_copy(item, tmp)
        for name in spec.files:
            if files.get(name) is not None:
                storage.scratch_write(tmp, name, dump_yaml(files[name], fast=True))
        pool = spec.load(Path(tmp))
    game = base.with_cards(pool)
    game.pool_files = files
    return game


def current_version(game) -> str | None:
    """The version of the pool in ``game``'s card folder now. A save the killed
    server left half done is finished or rolled back first (``cardfile.recover``,
    as the next load would do): the version compared is the one the game will load."""
    from workbench.core.cardfile import recover
    from workbench.core.versions import game_folder, pool_version
    try:
        recover(game_folder(game))
        return pool_version(game)
    except (OSError, WorkbenchError):
        return None


def playing_version(game) -> str | None:
    """The version of the pool ``game`` really plays now: its kept values' when it
    was rebuilt on them, else its card folder's."""
    if getattr(game, "pool_files", None) is not None:
        return version_of_files(game.pool_files)
    return current_version(game)
