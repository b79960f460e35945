"""Hunspell dictionaries for the review (through spylls), per spelling locale.

A catalogue names the locale to spell against in its standard ``Language`` header
(``Language: en_GB`` or ``en_US``; ``workbench rules update`` keeps the region); a
setting (``--spelling-locale``) overrides it; else the language's first installed
dictionary is used. Without a dictionary, the checks
that need one say so and skip (``knows`` returns None). Each dictionary file is
loaded once per process (:func:`dictionary`), and :func:`preload` loads them on
a background thread."""

from __future__ import annotations

import functools
import glob
import os
import threading

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


@functools.lru_cache(maxsize=64)
def dictionary_path(locale: str) -> str | None:
    found = _candidates(locale)
    return found[0][:-4] if found else None


#: dictionary file (without .dic) -> the loaded dictionary, or None when spylls is missing
_LOADED: dict[str, object] = {}
_LOCK = threading.Lock()


def dictionary(locale: str):
    """The hunspell dictionary for ``locale`` (None when none is installed).
    Each file is loaded once per process (a few seconds each), whatever locale
    names it (``hu``, ``hu-HU``): two threads asking at once wait for one load."""
    path = dictionary_path(locale)
    if path is None:
        return None
    with _LOCK:
        if path not in _LOADED:
            try:
                from spylls.hunspell import Dictionary
            except ImportError:
                _LOADED[path] = None
            else:
                _LOADED[path] = Dictionary.from_files(path)
        return _LOADED[path]


def loaded(locale: str) -> bool:
    """Whether ``locale``'s dictionary is already in memory (or there is none to load)."""
    path = dictionary_path(locale)
    return path is None or path in _LOADED


def preload(locales) -> threading.Thread:
    """Load the dictionaries of ``locales`` on a daemon thread (the dashboard does
    it at start-up, so the Rules page does not wait for them); returns the thread."""
    wanted = list(dict.fromkeys(locales))
    thread = threading.Thread(target=lambda: [dictionary(loc) for loc in wanted], name="hunspell-preload",
                              daemon=True)
    thread.start()
    return thread


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
