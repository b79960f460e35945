"""Hunspell dictionaries for the review (through spylls), per spelling locale.

A catalogue names the locale to spell against in its standard ``Language`` header
(``Language: en_GB`` or ``en_US``; ``workbench rules update`` keeps the region); a
setting (``--spelling-locale``) overrides it; else the language's first installed
dictionary is used. Without a dictionary, the checks
that need one say so and skip (``knows`` returns None)."""

from __future__ import annotations

import functools
import glob
import os

HUNSPELL_DIRS = ("/usr/share/hunspell", "/usr/share/myspell/dicts", "/usr/share/myspell")


def _candidates(locale: str) -> list[str]:
    loc = locale.replace("-", "_")
    base = loc.split("_")[0]
    out: list[str] = []
    for d in HUNSPELL_DIRS:
        if "_" in loc:
            out += glob.glob(os.path.join(d, f"{loc}.dic"))
        else:
            out += sorted(glob.glob(os.path.join(d, f"{base}_*.dic"))) + glob.glob(os.path.join(d, f"{base}.dic"))
    return out


def dictionary_path(locale: str) -> str | None:
    found = _candidates(locale)
    return found[0][:-4] if found else None


@functools.lru_cache(maxsize=4)
def dictionary(locale: str):
    path = dictionary_path(locale)
    if path is None:
        return None
    return _load(path)


@functools.lru_cache(maxsize=4)
def _load(path: str):
    """One dictionary per file: "en" and "en-GB" name the same en_GB files when that is
    the first English dictionary installed, and reading one takes seconds (a Rules page's
    first review of the Pax English catalogue read it twice)."""
    try:
        from spylls.hunspell import Dictionary
    except ImportError:
        return None
    return Dictionary.from_files(path)


@functools.lru_cache(maxsize=50000)
def knows(locale: str, word: str) -> bool | None:
    """Does the dictionary of ``locale`` know ``word``? None when there is none."""
    d = dictionary(locale)
    if d is None:
        return None
    return bool(d.lookup(word) or d.lookup(word.lower()) or d.lookup(word[:1].upper() + word[1:]))


def spelling_locale(header: dict, lang: str, setting: str | None = None) -> str:
    """The locale to spell against: a setting, else the catalogue's ``Language``
    header when that names a region, else the language."""
    if setting:
        return setting.replace("_", "-")
    language = str(header.get("Language", "") or "").strip()
    if "_" in language or "-" in language:
        return language.replace("_", "-")
    return lang
