"""The spelling dictionaries' cache: a later run answers from it without loading
the dictionary, with the same answers; a changed dictionary or a broken cache file
never gives a different answer."""

from __future__ import annotations

import os

import pytest

from workbench.rules.review_checks import dictionary as D


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A two-word hunspell dictionary for the made-up locale ``xx``, and a private cache."""
    folder = tmp_path / "hunspell"
    folder.mkdir()
    (folder / "xx_XX.aff").write_text("SET UTF-8\n\nSFX S Y 1\nSFX S 0 s .\n", encoding="utf-8")
    (folder / "xx_XX.dic").write_text("2\ncat/S\nhouse\n", encoding="utf-8")
    monkeypatch.setattr(D, "HUNSPELL_DIRS", (str(folder),))
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    D.dictionary_path.cache_clear()
    path = D.dictionary_path("xx")
    yield folder, path
    D._CACHES.pop(path, None)
    D._LOADED.pop(path, None)
    D.dictionary_path.cache_clear()


def _forget(path):
    """As a new process: nothing in memory."""
    D._CACHES.pop(path, None)
    D._LOADED.pop(path, None)


def test_a_later_run_answers_from_the_cache_without_loading(tiny):
    folder, path = tiny
    first = (D.lookup("xx", "cats"), D.lookup("xx", "dog"), D.stems("xx", "cats"), D.stems("xx", "dogs"))
    assert first == (True, False, ["cat"], [])
    assert path in D._LOADED
    D.save_cache()
    files = list((folder.parent / "cache" / "hunspell").iterdir())
    assert len(files) == 1 and files[0].name.startswith("xx_XX-")
    _forget(path)
    assert D.loaded("xx")          # its answers are cached: nothing to wait for
    again = (D.lookup("xx", "cats"), D.lookup("xx", "dog"), D.stems("xx", "cats"), D.stems("xx", "dogs"))
    assert again == first and path not in D._LOADED
    # a word the cache has not seen loads the dictionary
    assert D.lookup("xx", "house") is True and path in D._LOADED


def test_a_changed_dictionary_or_a_broken_cache_gives_the_dictionarys_answer(tiny):
    folder, path = tiny
    assert D.lookup("xx", "houses") is False
    D.save_cache()
    _forget(path)
    # the dictionary learns a word: its cached "no" must not survive
    dic = folder / "xx_XX.dic"
    dic.write_text("2\ncat/S\nhouse/S\n", encoding="utf-8")
    st = dic.stat()
    os.utime(dic, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert D.lookup("xx", "houses") is True
    D.save_cache()
    _forget(path)
    for file in (folder.parent / "cache" / "hunspell").iterdir():
        file.write_text("{not json", encoding="utf-8")
    assert D.lookup("xx", "houses") is True and path in D._LOADED


def test_no_dictionary_is_none_not_a_cache_entry(tiny):
    assert D.lookup("zz", "cat") is None and D.stems("zz", "cat") is None and D.knows("zz", "cat") is None
