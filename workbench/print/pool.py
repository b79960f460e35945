"""Which card pool a printed deck shows, and when a cached deck must be made again.

A printed sheet, the Print page and the Tabletop Simulator export name the pool
by the same version as ``play``, ``history`` and playtest rooms
(:func:`workbench.core.versions.pool_version`, ``p`` and 12 hex digits), so a
printed prototype can be matched to ``workbench history``. That version covers the
card values only; a deck also depends on the game's terms, its print folder
(templates, strings) and the rulebook's content translations, so
:func:`print_digest` hashes those files as well, for caches only: it is never
shown to a reader.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from workbench.core.data import cards_dir, read_file_bytes


NOT_PRINTED = {"rulings.yaml", "glossary.yaml"}   # the rulebook's, not the cards'


def pool_files(game_id: str) -> list[Path]:
    """Every file a printed deck is made from (cards, terms, print folder, content translations)."""
    root = cards_dir(game_id)
    files = [p for p in root.glob("*.yaml") if p.name not in NOT_PRINTED] + list((root / "terms").glob("*.yaml")) \
        + [p for p in (root / "print").glob("*") if p.is_file()] + list((root / "rules").glob("content.*.yaml"))
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def pool_version(game_id: str) -> str:
    """The card pool's version, the one every other command prints."""
    from workbench.core.versions import pool_version as version
    return version(game_id)


def print_digest(game_id: str) -> str:
    """Sixteen hex digits of a SHA-256 over :func:`pool_files`' paths and bytes: a
    cache key that changes with a template or a translation as well as a card."""
    root = cards_dir(game_id)
    h = hashlib.sha256()
    for path in pool_files(game_id):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + read_file_bytes(path) + b"\0")
    return h.hexdigest()[:16]
