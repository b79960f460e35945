"""A card folder from someone else (shared, downloaded) cannot reach outside
itself: a save journal naming paths outside the folder is refused with one line,
kept aside and nothing moves; card files that are FIFOs or links to devices are
refused before they are opened; save locks live in the user's own folder
(workbench/core/cardfile.py, workbench/core/data.py, docs/reliability.md)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from workbench.core import cardfile
from workbench.core.data import DataError, cards_dir, read_file_bytes


@pytest.fixture
def folder(tmp_path) -> Path:
    """A Meaning Made card folder (the editable files) and, beside it, a file
    standing for the designer's ~/.bashrc."""
    cards = tmp_path / "downloaded" / "meaning_made"
    shutil.copytree(cards_dir("meaning-made"), cards)
    (tmp_path / "victim").write_text("the designer's own file\n", encoding="utf-8")
    return cards


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (links as their target text), to show nothing moved."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            out[str(path.relative_to(root))] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            out[str(path.relative_to(root))] = path.read_bytes()
    return out


def _plant(folder: Path, doc) -> None:
    (folder / cardfile.JOURNAL_NAME).write_text(json.dumps(doc), encoding="utf-8")


def _hostile_journals(folder: Path, tmp_path: Path):
    """(id, journal document) pairs, each naming something a save never writes."""
    # a staged file the hostile journal wants moved over the victim
    evil = folder / f".patterns.yaml{cardfile.TEMP_MARK}evil.tmp"
    evil.write_text("rm -rf ~\n", encoding="utf-8")
    escape = folder / "escape"
    escape.symlink_to(tmp_path)
    v = cardfile.JOURNAL_VERSION
    return [
        ("parent", {"version": v, "replace": [[evil.name, "../../victim"]], "backups": []}),
        ("absolute", {"version": v, "replace": [[str(evil), str(tmp_path / "victim")]], "backups": []}),
        ("through-link", {"version": v, "replace": [[evil.name, "escape/victim"]], "backups": []}),
        ("not-a-temp", {"version": v, "replace": [["patterns.yaml", "events.yaml"]], "backups": []}),
        ("backup-out", {"version": v, "replace": [], "backups": [[evil.name, "../../victim"]]}),
        ("old-format", {"replace": [[str(evil), str(folder / "patterns.yaml")]], "backups": []}),
        ("not-json", "{ not json"),
        ("extra-key", {"version": v, "replace": [], "backups": [], "run": "sh"}),
    ]


@pytest.mark.parametrize("case", ["parent", "absolute", "through-link", "not-a-temp", "backup-out",
                                  "old-format", "not-json", "extra-key"])
def test_a_hostile_journal_is_refused_kept_aside_and_nothing_moves(folder, tmp_path, case):
    doc = dict(_hostile_journals(folder, tmp_path))[case]
    if isinstance(doc, str):
        (folder / cardfile.JOURNAL_NAME).write_text(doc, encoding="utf-8")
    else:
        _plant(folder, doc)
    before = _snapshot(tmp_path)
    with pytest.raises(cardfile.JournalRefused) as refused:
        cardfile.load(folder / "patterns.yaml")
    message = str(refused.value)
    assert "\n" not in message and "nothing was moved" in message
    after = _snapshot(tmp_path)
    # only change: the journal got its "refused" name; every other byte is where it was
    journal = str((folder / cardfile.JOURNAL_NAME).relative_to(tmp_path))
    moved = before.pop(journal)
    aside = [k for k in after if cardfile.REFUSED_JOURNAL in k]
    assert len(aside) == 1 and after.pop(aside[0]) == moved
    assert after == before
    assert (tmp_path / "victim").read_text(encoding="utf-8") == "the designer's own file\n"
    # the folder is usable again: the next load reads the cards
    assert cardfile.load(folder / "patterns.yaml").data["patterns"]


def test_the_editor_of_a_hostile_folder_says_one_line_and_moves_nothing(folder, tmp_path):
    from workbench.tweak import open_session
    _plant(folder, dict(_hostile_journals(folder, tmp_path))["parent"])
    with pytest.raises(cardfile.JournalRefused):
        open_session("meaning-made", folder)
    assert (tmp_path / "victim").read_text(encoding="utf-8") == "the designer's own file\n"


def test_a_journal_a_save_writes_names_only_files_inside_the_folder(folder, monkeypatch):
    seen = {}
    real = cardfile._recover_dirs

    def spy(dirs):
        journal = folder / cardfile.JOURNAL_NAME
        if journal.exists():
            seen.update(json.loads(journal.read_text(encoding="utf-8")))
        return real(dirs)

    monkeypatch.setattr(cardfile, "_recover_dirs", spy)
    loaded = cardfile.load(folder / "patterns.yaml")
    new = json.loads(json.dumps(loaded.data))
    new["patterns"][0]["layer"] = 2
    cardfile.save_files([(loaded, new)])
    names = [n for pair in seen["replace"] + seen["backups"] for n in pair]
    assert names and all(not os.path.isabs(n) and ".." not in Path(n).parts for n in names)
    assert cardfile.load(folder / "patterns.yaml").data["patterns"][0]["layer"] == 2


def test_an_interrupted_save_in_a_subfolder_is_rolled_forward(folder):
    """The legitimate journal still works: a staged file in a subfolder replaces
    its target when the journal names both relative to the card folder."""
    sub = folder / "terms"
    target = sub / "en.yaml"
    staged = sub / f".en.yaml{cardfile.TEMP_MARK}abc.tmp"
    staged.write_bytes(target.read_bytes() + b"# rolled forward\n")
    _plant(folder, {"version": cardfile.JOURNAL_VERSION, "backups": [],
                    "replace": [[staged.relative_to(folder).as_posix(), target.relative_to(folder).as_posix()]]})
    cardfile.recover(folder)
    assert target.read_bytes().endswith(b"# rolled forward\n") and not staged.exists()
    assert not (folder / cardfile.JOURNAL_NAME).exists()


# -- special files -------------------------------------------------------------------

def _read_in_thread(path: Path):
    """read_file_bytes in a thread: a FIFO that blocked would leave it alive."""
    out: dict = {}

    def run():
        try:
            out["value"] = read_file_bytes(path)
        except DataError as exc:
            out["error"] = str(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the read blocked"
    return out


def test_a_fifo_card_file_is_refused_without_opening_it(folder):
    path = folder / "patterns.yaml"
    path.unlink()
    os.mkfifo(path)
    out = _read_in_thread(path)
    assert "named pipe" in out["error"] and "\n" not in out["error"]


def test_a_link_to_dev_zero_is_refused_without_reading_it(folder):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    path = folder / "patterns.yaml"
    path.unlink()
    path.symlink_to("/dev/zero")
    out = _read_in_thread(path)
    assert "device" in out["error"]


def test_a_link_to_a_regular_file_is_read(folder, tmp_path):
    real = folder / "patterns.yaml"
    link = folder / "linked.yaml"
    link.symlink_to(real)
    assert read_file_bytes(link) == real.read_bytes()


def test_the_pool_stamp_never_reads_a_fifo(folder, monkeypatch):
    """The pool cache hashes the card files before loading them: that hash too
    must refuse a FIFO instead of waiting for a writer."""
    from workbench.core import cards
    path = folder / "patterns.yaml"
    path.unlink()
    os.mkfifo(path)
    assert cards._digest(path) == ""


# -- locks ---------------------------------------------------------------------------

def test_save_locks_live_in_a_folder_only_the_user_can_write(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_LOCK_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lock = cardfile._lock_path(tmp_path)
    assert lock.parent == tmp_path / "cache" / "workbench" / cardfile.LOCK_DIR
    mode = stat.S_IMODE(lock.parent.stat().st_mode)
    assert not mode & (stat.S_IWGRP | stat.S_IWOTH)
    monkeypatch.setenv("WORKBENCH_LOCK_DIR", str(tmp_path / "mine"))
    assert cardfile._lock_path(tmp_path).parent == tmp_path / "mine"


# -- bad strings, refused before any work ----------------------------------------------

@pytest.fixture
def own_cards(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cards"
    shutil.copytree(cards_dir("meaning-made"), root / "meaning_made")
    monkeypatch.setenv("WORKBENCH_CARDS", str(root))
    return root / "meaning_made"


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_rules_update_never_starts_a_translation_init_lang_does(own_cards, capsys):
    from workbench.cli import main
    rules = own_cards / "rules"
    assert main(["rules", "update", "meaning-made", "--lang", "zz"]) == 1
    assert "Babel" in _one_line(capsys)
    assert main(["rules", "update", "meaning-made", "--lang", "de"]) == 1
    assert "init-lang" in _one_line(capsys)
    assert not (rules / "zz.po").exists() and not (rules / "de.po").exists()
    assert main(["rules", "init-lang", "meaning-made", "--lang", "de"]) == 0
    assert (rules / "de.po").is_file()
    assert main(["rules", "init-lang", "meaning-made", "--lang", "de"]) == 1  # once only
    assert "already" in _one_line(capsys)
    assert main(["rules", "update", "meaning-made", "--lang", "de"]) == 0


@pytest.mark.parametrize("bots", ["", ",", "greedy,,random", "greedy:", "random:5",
                                  "ban:Shell:ban:Shell:greedy", "ban::greedy", ":greedy", "greedy:win"])
def test_every_bad_bot_string_is_refused_before_a_game(bots, capsys):
    from workbench.cli import main
    assert main(["play", "meaning-made", "--bots", bots]) == 1
    line = _one_line(capsys)
    assert ("bot" in line or "greedy" in line) and "ending" not in capsys.readouterr().out


def test_bot_strings_that_mean_something_still_play():
    from workbench.core.bots import make_bots, split_specs
    assert split_specs(" greedy , random ") == ["greedy", "random"]
    assert [b.name for b in make_bots("greedy,random", 3)] == ["greedy", "random", "random"]
    assert make_bots("ban:Shell:force:Pulse:greedy", 2)[0].inner.card == "Pulse"


def test_a_study_file_that_is_not_sqlite_is_one_line(tmp_path, capsys):
    from workbench.cli import main
    text = tmp_path / "notes.sqlite"
    text.write_text("my notes\n", encoding="utf-8")
    argv = ["balance", "mandate-2038", "--target", "survival=0.5..0.8", "--vary", "x", "--study"]
    assert main(argv + [str(text)]) == 1
    assert "not a SQLite file" in _one_line(capsys)
    assert text.read_text(encoding="utf-8") == "my notes\n"


@pytest.mark.parametrize("host", ["256.1.1.1", "1.2.3", "nosuch.invalid", "a b"])
def test_serve_refuses_a_bad_host_before_printing_a_token(host, capsys, monkeypatch):
    from workbench.cli import main
    monkeypatch.delenv("WORKBENCH_PASSWORD", raising=False)
    assert main(["serve", "--host", host, "--no-browser"]) == 1
    captured = capsys.readouterr()
    assert "token" not in (captured.out + captured.err).lower()
    assert len(captured.err.strip().splitlines()) == 1


# -- lookalike names, numbers beyond 64 bits ----------------------------------------------

def test_a_name_that_looks_like_another_is_refused_naming_the_letter(tmp_path):
    from workbench.core.names import check_lookalikes, skeleton
    assert skeleton("Sh\u0435ll") == skeleton("Shell") == skeleton("ＳＨＥＬＬ")
    assert skeleton("Shell") != skeleton("Spell")
    check_lookalikes([("Shell", "a.yaml"), ("Spell", "a.yaml"), ("Shell", "b.yaml")])  # equal is not "alike"
    with pytest.raises(DataError) as refused:
        check_lookalikes([("Shell", "a.yaml"), ("Sh\u0435ll", "b.yaml")])
    assert "CYRILLIC SMALL LETTER IE" in str(refused.value) and "'Shell'" in str(refused.value)


def test_the_bundled_pools_have_no_lookalike_names():
    from workbench.core.names import check_pool_names
    from workbench.core.registry import game_ids
    from workbench.games.mandate_2038.data import POOL as MANDATE
    from workbench.games.meaning_made.data import POOL as MM
    from workbench.games.pax_transhumanity.data import POOL as PAX
    for spec in (MM, MANDATE, PAX):
        assert spec.game_id in game_ids()
        check_pool_names(cards_dir(spec.game_id), spec.files)


@pytest.mark.parametrize("number", [2 ** 63, -(2 ** 63) - 1, 2 ** 70])
def test_a_number_beyond_64_bits_is_refused_with_its_line(number):
    from workbench.core.data import safe_load_text
    with pytest.raises(DataError, match="64-bit") as refused:
        safe_load_text(f"name: x\ncost:\n  E: {number}\n", file="p.yaml")
    assert "line 3" in str(refused.value)
    assert safe_load_text(f"cost: {2 ** 63 - 1}\n") == {"cost": 2 ** 63 - 1}


def test_the_fast_yaml_loader_reads_what_the_careful_one_reads():
    """libyaml reads the bundled card files to the very same values, and every
    document it would doubt (too deep, an alias loop, a bad number, bad
    syntax) is refused or read by the careful loader, in its words."""
    from pathlib import Path

    from workbench.core import data
    root = Path(data.__file__).resolve().parents[2] / "cards"
    texts = [p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.yaml"))][:60]
    texts += ["a: [1, 2", "x: " + "[" * 60 + "]" * 60, "n: 99999999999999999999", "a: &a [*a]",
              "- " * 70 + "x", "t: 2020-01-01"]

    def read(text):
        try:
            return ("ok", repr(data.safe_load_text(text)))
        except DataError as exc:
            return ("refused", str(exc))

    fast = [read(t) for t in texts]
    saved, data._FastLoader = data._FastLoader, None
    try:
        careful = [read(t) for t in texts]
    finally:
        data._FastLoader = saved
    assert fast == careful
    assert sum(kind == "refused" for kind, _ in fast) == 4
