"""Hunspell dictionaries for the review (through spylls), per spelling locale.

A catalogue names the locale to spell against in its standard ``Language`` header
(``Language: en_GB`` or ``en_US``; ``workbench rules update`` keeps the region); a
setting (``--spelling-locale``) overrides it; else the language's first installed
dictionary is used. Without a dictionary, the checks
that need one say so and skip (``knows`` returns None). Each dictionary file is
loaded once per process (:func:`dictionary`), and :func:`preload` loads them on
a background thread.

Loading a dictionary costs seconds (about 6 s of CPU for Hungarian, 3 s for
English), most of a review's time, while a review asks about the same few
thousand words every time. So what a dictionary said about each word
(:func:`lookup`, :func:`stems`) is kept between runs in the user's cache folder
(``$WORKBENCH_CACHE_DIR``, else ``$XDG_CACHE_HOME/workbench``, under
``hunspell/``), one JSON file per dictionary, named by the dictionary files' size
and modification time and the spylls version: a changed or updated dictionary
starts a new file. The dictionary itself is loaded only when a word is not in
the cache. The cache is only ever a copy of the dictionary's answers, so a lost
or unreadable cache file costs time, never a different review."""

from __future__ import annotations

import atexit
import functools
import glob
import hashlib
import json
import os
import threading
from pathlib import Path

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
    """Whether ``locale``'s dictionary is already in memory, or its answers are in
    the cache from an earlier run (or there is none to load)."""
    path = dictionary_path(locale)
    return path is None or path in _LOADED or bool(_word_cache(path)["lookup"])


def preload(locales) -> threading.Thread:
    """Load the dictionaries of ``locales`` on a daemon thread (the dashboard does
    it at start-up, so the Rules page does not wait for them); returns the thread.
    A dictionary whose answers an earlier run cached is not loaded: a review
    loads it only if it meets a word the cache has not seen."""
    wanted = list(dict.fromkeys(locales))
    thread = threading.Thread(target=lambda: [dictionary(loc) for loc in wanted if not loaded(loc)],
                              name="hunspell-preload", daemon=True)
    thread.start()
    return thread


@functools.lru_cache(maxsize=50000)
def knows(locale: str, word: str) -> bool | None:
    """Does the dictionary of ``locale`` know ``word``? None when there is none."""
    if dictionary_path(locale) is None:
        return None
    return bool(lookup(locale, word) or lookup(locale, word.lower())
                or lookup(locale, word[:1].upper() + word[1:]))


# --------------------------------------------------------------------------- the cache of answers
#: bump when what is cached changes meaning
_CACHE_FORMAT = 1
#: dictionary file (without .dic) -> {"file": cache file or None, "lookup": {...}, "stems": {...}, "new": n}
_CACHES: dict[str, dict] = {}


def lookup(locale: str, word: str) -> bool | None:
    """The dictionary's ``lookup(word)`` (is it a correct word form?), from the
    cache when an earlier run asked; None when ``locale`` has no dictionary."""
    return _answer(locale, "lookup", word, lambda d: bool(d.lookup(word)))


def stems(locale: str, word: str) -> list[str] | None:
    """The stems (lower case, sorted) hunspell analyses ``word`` into: [] when it
    cannot analyse it, None when ``locale`` has no dictionary."""
    def analyse(d) -> list[str]:
        try:
            return sorted({f.stem.lower() for f in d.lookuper.good_forms(word)})
        except Exception:   # noqa: BLE001 - a dictionary that cannot analyse a word says nothing about it
            return []
    return _answer(locale, "stems", word, analyse)


def _answer(locale: str, table: str, word: str, ask):
    """``word``'s entry in the cache's ``table``, asked of the dictionary (loading
    it) only when the cache has none; None when ``locale`` has no dictionary."""
    path = dictionary_path(locale)
    if path is None:
        return None
    cache = _word_cache(path)
    found = cache[table].get(word)
    if found is None:
        d = dictionary(locale)
        if d is None:
            return None
        found = cache[table][word] = ask(d)
        cache["new"] += 1
    return found


def cache_folder() -> Path:
    from workbench.core.storage import user_cache
    return user_cache("hunspell")


def _cache_file(path: str) -> Path | None:
    try:
        from importlib.metadata import version
        parts = [str(_CACHE_FORMAT), version("spylls"), path]
        for ext in (".dic", ".aff"):
            st = os.stat(path + ext)
            parts += [str(st.st_size), str(st.st_mtime_ns)]
    except Exception:   # noqa: BLE001 - no cache rather than no review
        return None
    key = hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]
    return cache_folder() / f"{os.path.basename(path)}-{key}.json"


def _word_cache(path: str) -> dict:
    with _LOCK:
        cache = _CACHES.get(path)
        if cache is None:
            file = _cache_file(path)
            data = _read(file) if file else {}
            cache = _CACHES[path] = {"file": file, "lookup": data.get("lookup", {}),
                                     "stems": data.get("stems", {}), "new": 0}
        return cache


def _read(file: Path) -> dict:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("lookup"), dict) \
        and isinstance(data.get("stems"), dict) else {}


def save_cache() -> None:
    """Write what the dictionaries said this run to the cache (merged with what
    another process wrote meanwhile); a folder that cannot be written is skipped."""
    from workbench.core import storage
    with _LOCK:
        for cache in _CACHES.values():
            file = cache["file"]
            if not cache["new"] or file is None:
                continue
            try:
                storage.make_folder(file.parent, "the spelling dictionaries' cache")
                on_disk = _read(file)
                merged = {"lookup": {**on_disk.get("lookup", {}), **cache["lookup"]},
                          "stems": {**on_disk.get("stems", {}), **cache["stems"]}}
                storage.write_text(file, json.dumps(merged, ensure_ascii=False, sort_keys=True),
                                   "the spelling dictionaries' cache")
                cache["new"] = 0
            except Exception:   # noqa: BLE001 - a cache that cannot be written costs time only
                continue


atexit.register(save_cache)


def spelling_locale(header: dict, lang: str, setting: str | None = None) -> str:
    """The locale to spell against: a setting, else the catalogue's ``Language``
    header when that names a region, else the language."""
    if setting:
        return setting.replace("_", "-")
    language = str(header.get("Language", "") or "").strip()
    if "_" in language or "-" in language:
        return language.replace("_", "-")
    return lang
