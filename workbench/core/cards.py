"""One card-data loader for every game: read a game's YAML files, validate them
with the game's pydantic models, and keep the result until a file changes.

A game describes its data with a :class:`PoolSpec` (its id, the files that make
up the pool and a ``load(folder)`` function that validates them and returns the
pool object). :func:`load_pool` returns the cached pool of a folder and reloads
it when any of those files changes: each call compares every file's
modification time and size, and a file modified within the last two seconds of
the load (the file system's clock may not have ticked since) is compared by
content hash as well, the way git treats "racily clean" files. So a designer who
edits ``cards/<game>/*.yaml`` while a notebook or ``workbench serve`` is open
plays the edited rules in the next game, without a restart.

:func:`validate_rows` is the shared helper that turns a list of YAML mappings
into pydantic models, naming file, card and field on the first failure.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from pydantic import BaseModel, ValidationError

from .data import cards_dir, file_digest, validation_error
from .errors import DataError
from .names import check_pool_names

#: a file modified this close (seconds) to the load is also checked by content
RACY_SECONDS = 2.0


@dataclass(frozen=True)
class PoolSpec:
    """How a game's card pool is read: the files (names inside the card folder)
    and the function that validates them into the pool object."""

    game_id: str
    files: tuple[str, ...]
    load: Callable[[Path], Any]

    def read(self, folder: str | Path | None = None) -> Any:
        """The validated pool of ``folder`` (:func:`load_pool`). ``Game.load_cards``
        reads through here, so the game contract needs no import of the loader
        (the loader finds the game's folder through the registry, which knows
        the contract: the contract importing the loader would close a circle)."""
        return load_pool(self, folder)


@dataclass
class _Entry:
    stamp: tuple
    hashes: dict[str, str]
    racy: tuple[str, ...]
    pool: Any


_CACHE: dict[tuple[str, str], _Entry] = {}
_RESOLVED: dict[tuple, Path] = {}
_LOCK = threading.Lock()


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, -1)
    return (st.st_mtime_ns, st.st_size)


def _digest(path: Path) -> str:
    # read safely: a FIFO or a link to /dev/zero must not block or fill memory
    # here, before the loader refuses it with one line
    return file_digest(path) or ""


def _folder(spec: PoolSpec, folder: str | Path | None) -> Path:
    # resolved once per (folder, $WORKBENCH_CARDS): new games ask for the pool often
    key = (spec.game_id, str(folder) if folder else None, os.environ.get("WORKBENCH_CARDS"))
    found = _RESOLVED.get(key)
    if found is None:
        found = _RESOLVED[key] = Path(folder) if folder else cards_dir(spec.game_id)
    return found


def load_pool(spec: PoolSpec, folder: str | Path | None = None) -> Any:
    """The validated pool of ``folder`` (default: the game's card folder), read
    again when one of ``spec.files`` changed since the last load."""
    path = _folder(spec, folder)
    files = [path / name for name in spec.files]
    stamp = tuple(_stat(f) for f in files)
    key = (spec.game_id, str(path))
    hit = _CACHE.get(key)
    if hit is not None and hit.stamp == stamp:
        if not hit.racy:
            return hit.pool
        if all(_digest(path / n) == hit.hashes[n] for n in hit.racy):
            newest = max(mtime for mtime, _ in stamp)
            if time.time_ns() - newest > RACY_SECONDS * 1e9:
                hit.racy = ()  # unchanged long after its last write: the stamp is enough from now on
            return hit.pool
    with _LOCK:
        now = time.time_ns()
        hashes = {f.name: _digest(f) for f in files}
        # two names that read the same on screen are refused, whatever the game
        # (first: the game's own checks would complain about a symptom of it)
        check_pool_names(path, spec.files)
        pool = spec.load(path)
        racy = tuple(f.name for f, (mtime, _) in zip(files, stamp)
                     if now - mtime < RACY_SECONDS * 1e9)
        _CACHE[key] = _Entry(stamp, hashes, racy, pool)
    return pool


def forget(game_id: str | None = None) -> None:
    """Drop cached pools (all, or one game's), e.g. after a test swapped folders."""
    for key in [k for k in _CACHE if game_id is None or k[0] == game_id]:
        del _CACHE[key]
    _RESOLVED.clear()


def validate_rows(model: type[BaseModel], rows: Iterable, *, file: Path, name_key: str = "name") -> list:
    """Each mapping of ``rows`` validated as ``model``; the first bad one raises a
    :class:`DataError` naming the file, the card (its ``name_key`` or ``#n``) and
    the field."""
    out = []
    for i, row in enumerate(rows):
        label = row.get(name_key, f"#{i + 1}") if isinstance(row, dict) else f"#{i + 1}"
        try:
            out.append(model.model_validate(row))
        except ValidationError as exc:
            raise validation_error(exc, file=str(file), card=str(label)) from None
    return out


def require_mapping(data: Any, file: Path, what: str = "a mapping at the top") -> dict:
    """``data`` if it is a mapping, else a :class:`DataError` naming ``file``."""
    if not isinstance(data, dict):
        raise DataError(f"expected {what}", file=str(file))
    return data


__all__ = ["PoolSpec", "load_pool", "forget", "validate_rows", "require_mapping", "RACY_SECONDS"]
