"""Versions of a card pool (issue 25): the pool's version, the history of saves
in the card folder (SQLite), the runs made on each version. Every test works in
a folder made by ``workbench init`` under tmp_path."""

from __future__ import annotations

import sqlite3

import pytest

from workbench.core import versions


@pytest.fixture
def mine(init_folder):
    return init_folder


def test_pool_version_names_the_values_not_the_layout(mine, tmp_path):
    folder = mine / "meaning_made"
    v = versions.pool_version("meaning-made", folder)
    assert v.startswith("p") and len(v) == 13
    assert versions.pool_version("meaning-made", mine) == v          # a root made by init
    assert versions.pool_version("meaning-made") == v                # $WORKBENCH_CARDS
    from workbench.core.registry import get_game
    assert versions.pool_version(get_game("meaning-made"), folder) == v
    patterns = folder / "patterns.yaml"
    patterns.write_text("# a designer's comment\n" + patterns.read_text())
    assert versions.pool_version("meaning-made", folder) == v        # a comment is no new version
    patterns.write_text(patterns.read_text().replace("tokens: {E: 1}\n", "tokens: {E: 4}\n", 1))
    assert versions.pool_version("meaning-made", folder) != v
    assert not (folder / ".workbench").exists()                      # pool_version only reads


def test_every_save_records_a_version_with_its_edits(mine):
    from workbench.tweak import open_session

    folder = mine / "meaning_made"
    s = open_session("meaning-made", folder=folder)
    s.edit("Shell", "E", 4)
    s.save(note="dearer Shell")
    s.edit("Pulse", "bonus", "S+1")
    s.save()
    s.save()                                    # nothing changed: no new version
    found = versions.versions(folder)
    assert [v.source for v in found] == ["found", "save", "save"]
    assert found[1].note == "dearer Shell"
    assert found[1].edits == [{"card": "Shell", "field": "requirement.tokens.E", "old": 1, "new": 4}]
    assert {e["card"] for e in found[2].edits} == {"Pulse"}
    assert found[2].hash == versions.pool_version("meaning-made", folder)
    # any two versions side by side
    d = versions.diff(folder, "1", "3")
    assert {(e["card"], e["field"]) for e in d} >= {("Shell", "requirement.tokens.E"), ("Pulse", "bonus.S")}
    assert versions.diff(folder, found[2].hash[:6], "v3") == []
    with pytest.raises(Exception, match="no version"):
        versions.resolve(folder, "9")
    # a real SQLite store in WAL mode, inside the card folder
    con = sqlite3.connect(versions.history_path(folder))
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_runs_are_recorded_against_the_version_they_used(mine):
    folder = mine / "pax_transhumanity"
    v = versions.record_run("pax-transhumanity", folder, "simulate", {"games": 5}, {"completion": 0.4})
    assert v == versions.pool_version("pax-transhumanity", folder)
    rows = versions.summary(folder)
    assert rows[0]["hash"] == v and rows[0]["runs"][0]["metrics"] == {"completion": 0.4}


def test_a_folder_that_cannot_hold_a_history_skips_it(mine, monkeypatch):
    folder = mine / "mandate_2038"
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    assert versions.record_run("mandate-2038", folder, "simulate", {}, {}) is None
    assert versions.versions(folder) == []


def test_history_command_lists_versions_diffs_and_runs(mine, capsys):
    import json

    from workbench.cli import main
    from workbench.tweak import open_session

    s = open_session("mandate-2038", folder=mine / "mandate_2038")
    assert main(["simulate", "mandate-2038", "--games", "2", "--workers", "0", "--cards", str(mine), "--json"]) == 0
    s.edit("Mirevanta", "runway", 9)
    s.save(note="richer Mirevanta")
    capsys.readouterr()
    assert main(["history", "mandate-2038", "--cards", str(mine), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["recorded"] and [v["number"] for v in doc["versions"]] == [2, 1]
    newest, oldest = doc["versions"]
    assert newest["note"] == "richer Mirevanta" and newest["hash"] == doc["current"]
    assert oldest["runs"][0]["kind"] == "simulate" and "completion" in oldest["runs"][0]["metrics"]
    assert main(["history", "mandate-2038", "--cards", str(mine), "--diff", "1", "2", "--json"]) == 0
    diff = json.loads(capsys.readouterr().out)
    assert diff["diff"] == [{"card": "Mirevanta", "field": "start.runway", "old": 4, "new": 9}]
    assert diff["old"]["runs"] and not diff["new"]["runs"]
    assert main(["history", "mandate-2038", "--cards", str(mine), "--diff", "1", "2"]) == 0
    text = capsys.readouterr().out
    assert "Mirevanta start.runway: 4 -> 9" in text and "runs on version 1:" in text
    assert main(["history", "mandate-2038", "--cards", str(mine)]) == 0
    assert "richer Mirevanta  (on disk)" in capsys.readouterr().out
    assert main(["history", "mandate-2038", "--cards", str(mine), "--diff", "1", "8"]) == 1
    err = capsys.readouterr().err
    assert "no version '8'" in err and "\n" not in err.strip()


def test_cards_page_history_box_shows_versions_and_compares(mine):
    from workbench.dashboard.cards import CardsModel, CardsPage
    from workbench.tweak import open_session

    model = CardsModel(session=open_session("meaning-made", folder=mine / "meaning_made"))
    page = CardsPage(model=model)
    assert "No version recorded yet" in page._versions._list.object
    model.edit("Shell", "E", 3)
    page._versions.note.value = "Shell at 3E"
    page._save_version()
    box = page._versions
    assert "Shell at 3E" in box._list.object and "(on disk)" in box._list.object
    assert box.note.value == "" and box._old.value == "1" and box._new.value == "2"
    box.compare()
    assert "| Shell | requirement\\.tokens\\.E | 1 | 3 |" in box._diff.object  # dots escaped for Markdown


def test_one_version_names_a_pool_in_play_history_print_tts_and_the_print_page(mine, tmp_path, capsys):
    """A printed deck, a Tabletop Simulator save and the Print page name the pool
    by the same version as ``play``, ``history`` and rooms, so a printed prototype
    can be matched to its history."""
    import json

    from workbench.cli import main
    from workbench.dashboard.print import PrintModel
    from workbench.rooms.room import pool_version_of
    from workbench.core.registry import get_game

    def run(*argv):
        assert main([*argv, "--cards", str(mine), "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    played = run("play", "pax-transhumanity", "--players", "3", "--seed", "1")["pool"]
    assert played.startswith("p") and len(played) == 13
    assert run("history", "pax-transhumanity")["current"] == played
    assert run("print", "pax-transhumanity", "--out", str(tmp_path / "deck.pdf"))["version"] == played
    tts = run("export", "tts", "pax-transhumanity", "--seats", "3", "--out", str(tmp_path / "tts" / "pax.json"))
    assert tts["version"] == played
    assert f"cards {played}" in json.loads((tmp_path / "tts" / "pax.json").read_text())["SaveName"]
    assert PrintModel(game="pax-transhumanity").deck().version == played
    assert pool_version_of(get_game("pax-transhumanity")) == played
