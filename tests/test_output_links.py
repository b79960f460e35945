"""No file outside the folder and the named output changes, for every command
that writes, with a link planted at every level of the output path (issue 38).

The output is ``F/a/b/<out>`` inside a folder ``F`` handed to the designer; one
component at a time (``a``, ``b``, the output itself, and for commands that write
beside their output, what they derive from it) is made a link to a folder or file
outside ``F``. The command must answer in one line, exit 1, and leave everything
outside ``F`` byte for byte as it was. A link that stays inside ``F`` is followed.
"""

from __future__ import annotations

import os

import pytest

from workbench.cli import main

GAME = "meaning-made"


def _journal(path):
    from workbench.rooms.journal import Journal
    j = Journal(path)
    j.add_room("r1", GAME, {"game": GAME}, [{"seat": 0, "name": "A", "kind": "person"},
                                              {"seat": 1, "name": "B", "kind": "person"}])
    j.start_game("r1", 1, {"game": GAME, "players": ["A", "B"], "seed": 1, "variants": {}, "options": {}}, None)
    j.close()
    return path


#: command -> (arguments with {out}, the output's suffix ("" for a folder), names derived beside it)
COMMANDS = {
    "export tts": (["export", "tts", GAME, "--out", "{out}"], ".json", ["out-images"]),
    "cards export xlsx": (["cards", "export", GAME, "--out", "{out}"], ".xlsx", []),
    "cards export ods": (["cards", "export", GAME, "--out", "{out}"], ".ods", []),
    "cards export csv": (["cards", "export", GAME, "--format", "csv", "--out", "{out}"], "", ["out/pattern.csv"]),
    "print": (["print", GAME, "--out", "{out}"], ".pdf", []),
    "rules pdf": (["rules", "pdf", GAME, "--lang", "en", "--out", "{out}"], ".pdf", []),
    "simulate": (["simulate", GAME, "--games", "2", "--out", "{out}"], ".parquet", ["out.players.parquet"]),
    "graph": (["graph", GAME, "--html", "{out}"], ".html", []),
    "balance --study": (["balance", GAME, "--target", "survival=0.5..0.8", "--vary", "patterns.*.cost",
                         "--trials", "1", "--games-per-trial", "1", "--study", "{out}"], ".sqlite", []),
    "balance --plot": (["balance", GAME, "--target", "survival=0.5..0.8", "--vary", "patterns.*.cost",
                        "--trials", "1", "--games-per-trial", "1", "--plot", "{out}"], ".html", []),
    "journal show --save": (["journal", "show", "1", "--journal", "{journal}", "--save", "{out}"], ".json", []),
    "journal export": (["journal", "export", "{out}", "--journal", "{journal}"], "", ["out/rooms.parquet"]),
    "init": (["init", "{out}", "--game", GAME], "", ["out/meaning_made"]),
    "new-game": (["new-game", "tiny-linked-game", "{out}"], "", ["out/pyproject.toml"]),
}

#: where the link is planted: a level of the path, the output itself, or a derived name
LEVELS = ["a", "a/b", "out", "derived"]


def _snapshot(folder):
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = fh.read()
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), folder) + "/"] = b""
    return out


def _cases():
    for name, (_, suffix, derived) in COMMANDS.items():
        for level in LEVELS:
            if level == "derived":
                for d in derived:
                    yield pytest.param(name, level, d, id=f"{name}-{d}")
            else:
                yield pytest.param(name, level, None, id=f"{name}-{level}")


@pytest.mark.parametrize("command,level,derived", list(_cases()))
def test_a_link_out_at_any_level_changes_nothing_outside(tmp_path, cards_copy, capsys, monkeypatch,
                                                         command, level, derived):
    args, suffix, _ = COMMANDS[command]
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    given = tmp_path / "F"
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "dir" / "keep.txt").write_text("outside data\n", encoding="utf-8")
    victim = outside / f"victim{suffix or '-dir'}"
    if suffix:
        victim.write_bytes(b"outside file\n")
    else:
        victim.mkdir()
    journal = _journal(tmp_path / "journal.sqlite")
    b = given / "a" / "b"
    out = b / f"out{suffix}"
    if level == "a":
        given.mkdir()
        (given / "a").symlink_to(outside / "dir", target_is_directory=True)
    elif level == "a/b":
        (given / "a").mkdir(parents=True)
        b.symlink_to(outside / "dir", target_is_directory=True)
    elif level == "out":
        b.mkdir(parents=True)
        out.symlink_to(victim, target_is_directory=not suffix)
    else:
        b.mkdir(parents=True)
        if not suffix:
            out.mkdir()
        link = b / derived
        link.symlink_to(outside / "dir" if "." not in derived.rsplit("/", 1)[-1] else victim,
                        target_is_directory="." not in derived.rsplit("/", 1)[-1])
    before = _snapshot(outside)
    code = main([a.format(out=out, journal=journal) for a in args])
    err = capsys.readouterr().err
    assert _snapshot(outside) == before, f"{command} changed a file outside the folder"
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "link" in err


def test_a_link_inside_the_folder_is_followed(tmp_path, cards_copy, monkeypatch):
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    given = tmp_path / "F"
    (given / "real").mkdir(parents=True)
    (given / "alias").symlink_to(given / "real", target_is_directory=True)
    assert main(["cards", "export", GAME, "--out", str(given / "alias" / "cards.xlsx")]) == 0
    assert (given / "real" / "cards.xlsx").is_file()
