"""Card names that look alike: a pool where two different names read the same on
screen (``Shell`` and ``Shеll`` with a Cyrillic ``е``) is refused, naming the
letter that differs.

A name's *skeleton* is what it looks like: NFKC-normalised, case-folded, and
each character replaced by the Latin letter or digit it is confusable with, from
Unicode's confusables table as the ``confusable-homoglyphs`` package ships it
(MIT licence; data from Unicode's ``confusables.txt``). Two names of one pool
with the same skeleton but different spellings are lookalikes. Exactly equal
names are each loader's own "used twice" check, not this module's."""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from .errors import DataError


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """character -> the ASCII letter or digit it is confusable with (only
    characters that have one)."""
    raw = json.loads((resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8"))
    out = {}
    for char, glyphs in raw.items():
        if char.isascii():
            continue
        for glyph in glyphs:
            c = glyph.get("c", "")
            if len(c) == 1 and c.isascii() and c.isalnum():
                out[char] = c.casefold()
                break
    return out


def skeleton(name: str) -> str:
    """What ``name`` looks like (see the module docstring)."""
    table = _table()
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(table.get(c, c) for c in text)


def _describe(a: str, b: str) -> str:
    """The first character where ``a`` and ``b`` differ, named."""
    for x, y in zip(a, b):
        if x != y:
            def label(c: str) -> str:
                return f"{c!r} ({unicodedata.name(c, f'U+{ord(c):04X}')})"
            return f"{label(x)} where the other has {label(y)}"
    return "they differ only in letter case"


def check_lookalikes(entries: Iterable[tuple[str, str]]) -> None:
    """Refuse the first name of ``entries`` (``(name, file)`` pairs) that looks
    like another but is spelt differently."""
    seen: dict[str, tuple[str, str]] = {}
    for name, file in entries:
        key = skeleton(name)
        other = seen.get(key)
        if other is not None and other[0] != name:
            raise DataError(f"looks like the card {other[0]!r} ({Path(other[1]).name}) but is spelt with "
                            f"other characters: {_describe(name, other[0])}; rename one of them so players "
                            "can tell them apart", file=file, card=name, field="name")
        seen.setdefault(key, (name, file))


def _row_names(data: Any) -> Iterable[str]:
    """Every ``name`` of a mapping inside a list, anywhere in ``data`` (the card
    rows of every game's files)."""
    if isinstance(data, dict):
        for value in data.values():
            yield from _row_names(value)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                yield item["name"]
            yield from _row_names(item)


def check_pool_names(folder: Path, files: Iterable[str], data: dict[str, Any] | None = None) -> None:
    """The lookalike check over every card name of a pool's files; ``data``:
    file name -> its data already read (those files are not read again)."""
    from .data import load_yaml
    entries = []
    for name in files:
        path = Path(folder) / name
        if data is not None and name in data:
            entries += [(n, str(path)) for n in _row_names(data[name])]
        elif path.is_file():
            entries += [(n, str(path)) for n in _row_names(load_yaml(path))]
    check_lookalikes(entries)
