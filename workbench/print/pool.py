"""The card pool's version: a short hash of the files a printed deck is made from.

Every sheet's footer carries it, so a printed prototype can be traced back to its data.
The hash covers the game's card files (``*.yaml`` beside the game), its terms, its print
folder (templates, strings) and the rulebook's content translations; not the scenarios
the rulings, the glossary or the rulebook text, which do not change a card.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from workbench.core.data import cards_dir, read_file_bytes


NOT_PRINTED = {"rulings.yaml", "glossary.yaml"}   # the rulebook's, not the cards'


def pool_files(game_id: str) -> list[Path]:
    root = cards_dir(game_id)
    files = [p for p in root.glob("*.yaml") if p.name not in NOT_PRINTED] + list((root / "terms").glob("*.yaml")) \
        + [p for p in (root / "print").glob("*") if p.is_file()] + list((root / "rules").glob("content.*.yaml"))
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def pool_version(game_id: str) -> str:
    """Eight hex digits of a SHA-256 over the files' paths and bytes."""
    root = cards_dir(game_id)
    h = hashlib.sha256()
    for path in pool_files(game_id):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + read_file_bytes(path) + b"\0")
    return h.hexdigest()[:8]
