"""The Sweeps page's "people beside bots" table reads the playtest journal."""

from __future__ import annotations

from test_journal_cli import _make_journal

from workbench.dashboard.people import PeopleBesideBots
from workbench.dashboard.sweeps import SweepsPage


def test_people_beside_bots_on_the_sweeps_page(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    monkeypatch.setenv("WORKBENCH_JOURNAL", str(tmp_path / "j.sqlite"))
    page = SweepsPage()
    page._game.value = "pax-transhumanity"
    page._games.value = 15
    people = page.people
    people.start()          # no server session: runs here
    # no finished game of people to compare with (no journal yet, or none of this pool's version)
    assert "Cannot compare" in people.status.object
    _make_journal(tmp_path / "j.sqlite")
    people.start()
    assert people.error is None, people.error
    assert "3 game(s) with people" in people.status.object and "15 greedy bot games" in people.status.object
    table = people.table.value
    assert people.table.visible and "Duration, actions (mean)" in set(table["metric"])
    assert table.columns.tolist() == ["metric", "people", "bots", "people - bots"]


def test_a_game_without_journal_games_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    monkeypatch.setenv("WORKBENCH_JOURNAL", str(tmp_path / "j.sqlite"))
    _make_journal(tmp_path / "j.sqlite")
    people = PeopleBesideBots(lambda: "meaning-made", lambda: "random", lambda: 5)
    people.start()
    assert "no finished Meaning Made game" in people.status.object
