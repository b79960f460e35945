"""``workbench journal``: list, show (and save for the Play page), export as
Parquet, compare people's games with bot games; the journal's schema migrations."""

from __future__ import annotations

import json
import random
import sqlite3

import polars as pl
import pytest

from workbench.cli import main
from workbench.core.registry import get_game
from workbench.rooms.journal import MIGRATIONS, Journal
from workbench.rooms.room import RoomHall

pytestmark = pytest.mark.usefixtures("no_history")  # not the checkout's card history

PAX = get_game("pax-transhumanity")


@pytest.fixture(scope="module")
def journal_file(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORKBENCH_NO_HISTORY", "1")   # not the checkout's card history
        yield _make_journal(tmp_path_factory.mktemp("journal") / "j.sqlite")




def _make_journal(path):
    hall = RoomHall(Journal(path))
    rng = random.Random(1)
    room = hall.open_room(PAX, 4, [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}], seed=3,
                          options={"round_limit": 1})
    for number in range(3):
        while not room.over:
            room.play_bots()
            if room.over:
                break
            seat = room.acting_seat().index
            room.move(seat, rng.choice(PAX.observation(room.state, seat)["legal"]))
        for seat in range(3):
            room.survey(seat, {"fun": 2 + seat, "clarity": 4, "length": "too short", "text": f"game {number}"})
        room.chat(1, "well played")
        if number < 2:
            room.start_game()
    hall.journal.close()
    return path


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_list_and_show(journal_file, capsys, tmp_path):
    doc = _json(capsys, ["journal", "list", "--journal", str(journal_file), "--json"])
    (room,) = doc["rooms"]
    assert [g["status"] for g in room["games"]] == ["finished"] * 3
    assert all(g["surveys"] == 3 and g["moves"] > 4 and g["pool_version"] for g in room["games"])
    game = room["games"][1]["game"]
    saved = tmp_path / "game.json"
    shown = _json(capsys, ["journal", "show", str(game), "--journal", str(journal_file), "--json", "--save", str(saved)])
    assert len(shown["moves"]) == room["games"][1]["moves"]
    assert [s["text"] for s in shown["surveys"]] == ["game 1"] * 3
    assert all(m["think_s"] is not None for m in shown["moves"])
    # the saved game replays on the Play page to the same end
    from workbench.dashboard.play import PlayModel
    play = PlayModel()
    play.load(saved)
    assert play.state.is_terminal() and len(play.match) == len(shown["moves"])
    assert play.seats == ["human", "human", "human", "random"]


def test_export_writes_parquet_without_tokens(journal_file, capsys, tmp_path):
    assert main(["journal", "export", str(tmp_path / "out"), "--journal", str(journal_file)]) == 0
    moves = pl.read_parquet(tmp_path / "out" / "moves.parquet")
    seats = pl.read_parquet(tmp_path / "out" / "seats.parquet")
    assert moves.height > 10 and {"action", "think_ms", "seat"} <= set(moves.columns)
    assert "token_hash" not in seats.columns
    assert pl.read_parquet(tmp_path / "out" / "surveys.parquet").height == 9


def test_compare_people_with_bots(journal_file, capsys):
    doc = _json(capsys, ["journal", "compare", "pax-transhumanity", "--journal", str(journal_file), "--json",
                         "--bot-games", "20", "--resamples", "30"])
    assert doc["human_games"] == 3 and doc["bot_games"] == 20 and doc["players"] == 4
    rows = {r["key"]: r for r in doc["rows"]}
    length = rows["duration_actions"]
    assert length["people"] > 0 and length["bots"] > 0
    # three games are too few for any interval (workbench/sim/intervals.py); twenty bot games give one
    assert length["people_ci"] == [None, None] and "too few games" in length["people_note"]
    assert length["bots_ci"][0] <= length["bots"] <= length["bots_ci"][1]
    assert length["diff"] == pytest.approx(length["people"] - length["bots"])


def test_refusals(journal_file, capsys, tmp_path):
    assert main(["journal", "show", "999", "--journal", str(journal_file)]) == 1
    assert "no game 999" in capsys.readouterr().err
    assert main(["journal", "compare", "pax-transhumanity", "--journal", str(journal_file),
                 "--pool-version", "00000000"]) == 1
    assert "pool on disk" in capsys.readouterr().err
    assert main(["journal", "show", "1", "--journal", str(tmp_path / "none.sqlite")]) == 1
    assert "no playtest journal" in capsys.readouterr().err
    assert main(["journal", "list", "--journal", str(tmp_path / "none.sqlite")]) == 0   # nothing played yet
    assert "no playtest journal yet" in capsys.readouterr().out
    assert not (tmp_path / "none.sqlite").exists()


def test_a_newer_journal_is_refused_and_an_older_one_migrated(tmp_path):
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.commit()
    db.close()
    from workbench.core.errors import WorkbenchError
    with pytest.raises(WorkbenchError, match="newer workbench"):
        Journal(path)
