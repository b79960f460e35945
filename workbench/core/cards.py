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

That comparison runs for every new game, so it is kept to one ``os.stat`` per
file on paths worked out once per folder; a pool is validated once per content:
files whose stamp changed but whose bytes are one the folder already held (a
save of unchanged cards, an undo back to the last version, a checkout) get the
pool validated then, not a second validation. Only a content never validated
is loaded and checked, so an edit the checks refuse is refused every time it
is asked for.

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
from .workspace import current
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


@dataclass(frozen=True)
class _Where:
    """A pool's folder, its files as paths and as the strings ``os.stat`` takes
    (worked out once: a new game asks for its pool, and building five paths
    cost as much as statting them), and the cache key."""
    path: Path
    files: tuple[Path, ...]
    names: tuple[str, ...]
    key: tuple[str, str]


_CACHE: dict[tuple[str, str], _Entry] = {}
_RESOLVED: dict[tuple, _Where] = {}
#: per folder, the pools already validated, by the SHA-256 of their files (the
#: last few contents only: an undo, a redo, a save of unchanged cards)
_VALIDATED: dict[tuple[str, str], dict[tuple[str, ...], Any]] = {}
_VALIDATED_KEPT = 4
_LOCK = threading.Lock()


def _stat(path: str | Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, -1)
    return (st.st_mtime_ns, st.st_size)


def _digest(path: Path) -> str:
    # read safely: a FIFO or a link to /dev/zero must not block or fill memory
    # here, before the loader refuses it with one line
    return file_digest(path) or ""


def _folder(spec: PoolSpec, folder: str | Path | None) -> _Where:
    # resolved once per (folder, workspace): new games ask for the pool often
    key = (spec.game_id, str(folder) if folder else None, current().cards)
    found = _RESOLVED.get(key)
    if found is None:
        path = Path(folder) if folder else cards_dir(spec.game_id)
        files = tuple(path / name for name in spec.files)
        found = _RESOLVED[key] = _Where(path, files, tuple(str(f) for f in files), (spec.game_id, str(path)))
    return found


def load_pool(spec: PoolSpec, folder: str | Path | None = None) -> Any:
    """The validated pool of ``folder`` (default: the game's card folder), read
    again when one of ``spec.files`` changed since the last load."""
    where = _folder(spec, folder)
    stamp = tuple([_stat(name) for name in where.names])
    hit = _CACHE.get(where.key)
    if hit is not None and hit.stamp == stamp:
        if not hit.racy:
            return hit.pool
        if all(_digest(where.path / n) == hit.hashes[n] for n in hit.racy):
            newest = max(mtime for mtime, _ in stamp)
            if time.time_ns() - newest > RACY_SECONDS * 1e9:
                hit.racy = ()  # unchanged long after its last write: the stamp is enough from now on
            return hit.pool
    with _LOCK:
        now = time.time_ns()
        path, files = where.path, where.files
        hashes = {f.name: _digest(f) for f in files}
        content = tuple(hashes[f.name] for f in files)
        seen = _VALIDATED.setdefault(where.key, {})
        pool = seen.get(content) if all(content) else None
        if pool is None:
            # two names that read the same on screen are refused, whatever the game
            # (first: the game's own checks would complain about a symptom of it)
            check_pool_names(path, spec.files)
            pool = spec.load(path)      # raises on a refused edit: nothing is kept
            if all(content):            # every file was read: its content names the pool
                seen[content] = pool
                while len(seen) > _VALIDATED_KEPT:
                    del seen[next(iter(seen))]
        racy = tuple(f.name for f, (mtime, _) in zip(files, stamp)
                     if now - mtime < RACY_SECONDS * 1e9)
        _CACHE[where.key] = _Entry(stamp, hashes, racy, pool)
    return pool


def forget(game_id: str | None = None) -> None:
    """Drop cached pools (all, or one game's), e.g. after a test swapped folders."""
    for cache in (_CACHE, _VALIDATED):
        for key in [k for k in cache if game_id is None or k[0] == game_id]:
            del cache[key]
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
