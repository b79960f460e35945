"""Card saves keep the designer's file: only the edited lines change, comments,
mode and symlinks stay, a read-only file is refused, two simultaneous saves never
both succeed, a killed save leaves all old or all new files and no temp files,
a failed save keeps the backups (see workbench/core/cardfile.py)."""

from __future__ import annotations

import copy
import difflib
import errno
import multiprocessing as mp
import os
import random
import shutil
import signal
import stat
import time
from pathlib import Path

import pytest

from workbench.core import cardfile
from workbench.core.cardfile import SaveError
from workbench.core.data import cards_dir

CTX = mp.get_context("fork")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if cardfile.TEMP_MARK in p.name
                  or p.name == cardfile.JOURNAL_NAME)


@pytest.fixture
def card_folder(tmp_path) -> Path:
    """The two editable Meaning Made files, copied (comments and all)."""
    folder = tmp_path / "mm"
    folder.mkdir()
    for name in ("patterns.yaml", "initiatives.yaml"):
        shutil.copyfile(cards_dir("meaning-made") / name, folder / name)
    return folder


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_one_value_save_changes_only_its_line_and_keeps_comments_and_mode(card_folder):
    path = card_folder / "patterns.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  bonus: {E: 1}\n", "  bonus: {E: 1}   # the designer's note\n", 1), encoding="utf-8")
    os.chmod(path, 0o640)
    before = path.read_text(encoding="utf-8")
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["requirement"]["tokens"]["E"] = 3
    cardfile.save_files([(loaded, new)])
    after = path.read_text(encoding="utf-8")
    assert _changed_lines(before, after) == ["-    tokens: {E: 1}", "+    tokens: {E: 3}"]
    assert "# the designer's note" in after and after.startswith("# Meaning Made")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert (card_folder / "patterns.yaml.bak").read_text(encoding="utf-8") == before
    assert _leftovers(card_folder) == []


@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_save_keeps_the_files_line_ends_and_byte_order_mark(card_folder, bom, newline):
    """A file written on Windows (CRLF, maybe a BOM) is saved the same way: the
    bytes differ only in the edited line, and a second save reads back the first."""
    path = card_folder / "patterns.yaml"
    text = path.read_text(encoding="utf-8").replace("\n", newline)
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    path.write_bytes(raw)
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["requirement"]["tokens"]["E"] = 3
    (saved,) = cardfile.save_files([(loaded, new)])
    after = path.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") == bom
    assert after.count(b"\n") == raw.count(b"\n") and after.count(b"\r\n") == raw.count(b"\r\n")
    before_lines, after_lines = raw.split(b"\n"), after.split(b"\n")
    changed = [(a, b) for a, b in zip(before_lines, after_lines) if a != b]
    assert changed == [(b"    tokens: {E: 1}" + newline[:-1].encode(), b"    tokens: {E: 3}" + newline[:-1].encode())]
    # the returned file is what is on disk: a second edit saves without a "changed on disk" refusal
    again = copy.deepcopy(saved.data)
    again["patterns"][0]["requirement"]["tokens"]["E"] = 2
    cardfile.save_files([(saved, again)])
    assert cardfile.load(path).data == again and path.read_bytes().count(b"\r\n") == raw.count(b"\r\n")


def test_nested_value_from_null_and_list_changes_stay_local(card_folder):
    path = card_folder / "patterns.yaml"
    before = path.read_text(encoding="utf-8")
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][1]["consequence"] = {"table": "group", "code": 3}
    new["patterns"][2]["requirement"]["layers"] = [1, 2]
    cardfile.save_files([(loaded, new)])
    after = path.read_text(encoding="utf-8")
    assert cardfile.safe_load_text(after) == new
    assert len(_changed_lines(before, after)) == 4  # two lines out, two lines in
    assert "layers: [1, 2]" in after and "consequence: {table: group, code: 3}" in after


def test_symlinked_card_file_is_written_through_to_its_target(card_folder):
    shared = card_folder / "shared"
    shared.mkdir()
    target = shared / "patterns.yaml"
    (card_folder / "patterns.yaml").rename(target)
    (card_folder / "patterns.yaml").symlink_to(target)
    loaded = cardfile.load(card_folder / "patterns.yaml")
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = 2
    cardfile.save_files([(loaded, new)])
    assert (card_folder / "patterns.yaml").is_symlink()
    assert cardfile.load(target).data["patterns"][0]["layer"] == 2
    assert _leftovers(shared) == [] and _leftovers(card_folder) == []


def test_a_card_file_linked_outside_its_folder_is_refused_for_editing(card_folder, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    (card_folder / "patterns.yaml").rename(outside)
    (card_folder / "patterns.yaml").symlink_to(outside)
    before = outside.read_bytes()
    with pytest.raises(cardfile.DataError, match="outside its card folder"):
        cardfile.load(card_folder / "patterns.yaml")
    assert outside.read_bytes() == before


def test_read_only_file_is_refused_and_untouched(card_folder):
    path = card_folder / "patterns.yaml"
    os.chmod(path, 0o444)
    before = path.read_bytes()
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = 2
    with pytest.raises(SaveError, match="read-only"):
        cardfile.save_files([(loaded, new)])
    assert path.read_bytes() == before and not (card_folder / "patterns.yaml.bak").exists()
    assert _leftovers(card_folder) == []


def test_changed_on_disk_is_refused_and_the_other_edit_kept(card_folder):
    path = card_folder / "patterns.yaml"
    loaded = cardfile.load(path)
    path.write_text(path.read_text(encoding="utf-8") + "# edited elsewhere\n", encoding="utf-8")
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = 2
    with pytest.raises(SaveError, match="changed on disk"):
        cardfile.save_files([(loaded, new)])
    assert path.read_text(encoding="utf-8").endswith("# edited elsewhere\n")


def test_backups_rotate_and_a_failed_save_keeps_them(card_folder, monkeypatch):
    path = card_folder / "patterns.yaml"
    versions = [path.read_text(encoding="utf-8")]
    for layer in (2, 3, 4, 5):
        loaded = cardfile.load(path)
        new = copy.deepcopy(loaded.data)
        new["patterns"][0]["layer"] = layer
        cardfile.save_files([(loaded, new)])
        versions.append(path.read_text(encoding="utf-8"))
    backups = [card_folder / n for n in ("patterns.yaml.bak", "patterns.yaml.bak.1", "patterns.yaml.bak.2")]
    assert [b.read_text(encoding="utf-8") for b in backups] == versions[-2::-1][:3]
    kept = [b.read_bytes() for b in backups]

    def full_disk(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = 6
    monkeypatch.setattr(cardfile.os, "fsync", full_disk)
    with pytest.raises(SaveError, match="disk is full") as err:
        cardfile.save_files([(loaded, new)])
    assert "\n" not in str(err.value)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == versions[-1]
    assert [b.read_bytes() for b in backups] == kept
    assert _leftovers(card_folder) == []


def test_unwritable_folder_gives_one_sentence_with_what_to_do(card_folder, monkeypatch):
    loaded = cardfile.load(card_folder / "patterns.yaml")
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = 2
    real_open = os.open

    def denied(path, *a, **k):
        if cardfile.TEMP_MARK in str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *a, **k)
    monkeypatch.setattr(cardfile.os, "open", denied)
    with pytest.raises(SaveError, match="permission denied; make the file and its folder writable"):
        cardfile.save_files([(loaded, new)])


# -- two processes saving the same file at the same instant ---------------------------

def _racer(path: str, layer: int, barrier, out) -> None:
    loaded = cardfile.load(path)
    new = copy.deepcopy(loaded.data)
    new["patterns"][0]["layer"] = layer
    barrier.wait()
    try:
        cardfile.save_files([(loaded, new)])
        out.put((layer, "saved"))
    except SaveError as exc:
        out.put((layer, f"refused: {exc}"))


@pytest.mark.parametrize("trial", range(6))
def test_simultaneous_saves_never_both_succeed_and_lose_nothing(card_folder, trial):
    path = card_folder / "patterns.yaml"
    barrier, out = CTX.Barrier(2), CTX.Queue()
    procs = [CTX.Process(target=_racer, args=(str(path), layer, barrier, out)) for layer in (2, 3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)  # limits that only catch a hang: a loaded machine is slow
    results = dict(out.get(timeout=60) for _ in procs)
    saved = [layer for layer, what in results.items() if what == "saved"]
    assert len(saved) == 1, results
    refused = next(what for what in results.values() if what != "saved")
    assert "changed on disk" in refused or "still running" in refused
    assert cardfile.load(path).data["patterns"][0]["layer"] == saved[0]  # the saved edit is there
    assert _leftovers(card_folder) == []


# -- kill -9 in the middle of a two-file save ------------------------------------------

def _saver(folder: str, ready) -> None:
    gen = 0
    ready.set()
    while True:
        gen += 1
        files = [cardfile.load(Path(folder) / n) for n in ("a.yaml", "b.yaml")]
        cardfile.save_files([(f, {**f.data, "gen": gen}) for f in files])


@pytest.mark.parametrize("trial", range(5))
def test_kill_during_a_two_file_save_leaves_all_old_or_all_new(tmp_path, trial):
    folder = tmp_path / "k"
    folder.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (folder / name).write_text(f"# {name}\nname: {name}\ngen: 0\n", encoding="utf-8")
    ready = CTX.Event()
    proc = CTX.Process(target=_saver, args=(str(folder), ready))
    proc.start()
    ready.wait(300)
    time.sleep(random.Random(trial).uniform(0.05, 0.4))
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(60)
    # the next load finishes (or clears) what the killed save left
    a, b = cardfile.load(folder / "a.yaml"), cardfile.load(folder / "b.yaml")
    assert a.data["gen"] == b.data["gen"]
    assert a.text.startswith("# a.yaml") and b.text.startswith("# b.yaml")
    assert _leftovers(folder) == []


def test_tweak_session_reload_picks_up_the_change_that_refused_a_save(cards_copy):
    from workbench.tweak import open_session

    s = open_session()
    s.edit("Shell", "E", 2)
    path = cards_copy / "meaning_made" / "patterns.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- name: Cyst", "- name: Cyste", 1),
                    encoding="utf-8")
    with pytest.raises(SaveError, match="changed on disk"):
        s.save()
    s.reload()
    assert "Cyste" in s.table()["name"].to_list() and not s.dirty and not s.can_undo
    s.edit("Shell", "E", 2)
    assert s.save() == [path]
    text = path.read_text(encoding="utf-8")
    assert "- name: Cyste" in text and "tokens: {E: 2}" in text
