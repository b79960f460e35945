"""The Playtest page's model: opening rooms from the form, the designer's
actions (pause, undo, a bot for a person who left, a new link, next game, end)
and the refusals (outside ``workbench serve``, on a read-only dashboard)."""

from __future__ import annotations

import pytest

from workbench.core.errors import WorkbenchError
from workbench.dashboard.playtest import PlaytestModel, PlaytestPage, seat_specs
from workbench.rooms import web

pytestmark = pytest.mark.usefixtures("no_history")  # not the checkout's card history


@pytest.fixture
def served(tmp_path):
    web.reset()
    hall = web.hall(tmp_path / "journal.sqlite")
    yield hall
    web.reset()




def test_seat_specs():
    assert seat_specs("person, Ana=greedy, mcts:50", 4) == [
        {"kind": "person"}, {"kind": "bot", "bot": "greedy", "name": "Ana"}, {"kind": "bot", "bot": "mcts:50"},
        {"kind": "person"}]
    with pytest.raises(WorkbenchError, match="3 seats given for 2"):
        seat_specs("person, person, person", 2)


def test_without_the_server_the_page_says_so():
    web.reset()
    model = PlaytestModel()
    assert "workbench serve" in model.available()
    assert model.open_room() is None and "workbench serve" in model.message
    page = PlaytestPage()
    assert page.open_button.disabled


def test_read_only_dashboard_has_no_rooms(served):
    class Bench:
        read_only, pool = True, None
    assert "read-only" in PlaytestModel(bench=Bench()).available()


def test_open_and_steer_a_room(served):
    model = PlaytestModel()
    model.game_id = "pax-transhumanity"
    model.players = 3
    model.seats = "person, Bo=person, random"
    model.options = "round_limit=1"
    room = model.open_room()
    assert room is not None and "opened" in model.message
    assert [s.name for s in room.seats][1] == "Bo" and room.seats[2].kind == "bot"
    assert model.link(room.seats[0].token).endswith("/playtest/seat#" + room.seats[0].token)
    page = PlaytestPage()
    assert any(room.id in str(card.title) for card in page.rooms.objects)
    model.act(room.id, "pause")
    assert room.paused
    model.act(room.id, "pause")
    assert not room.paused
    old = room.seats[0].token
    model.act(room.id, "link", 0)
    assert room.seats[0].token != old
    model.act(room.id, "undo")
    assert "no move to undo" in model.message
    model.act(room.id, "bot", 1)
    assert room.seats[1].kind == "bot"
    model.act(room.id, "next")
    assert room.number == 2
    model.act(room.id, "end")
    assert room.id not in served.rooms and room.closed
    model.options = "round_limit"
    assert model.open_room() is None and model.message.startswith("not opened")


def test_a_journal_game_opens_on_the_play_page(served):
    from workbench.core.registry import get_game
    from workbench.dashboard.app import Workbench
    bench = Workbench()
    page = PlaytestPage(bench=bench)
    room = served.open_room(get_game("pax-transhumanity"), 2, [{"kind": "bot", "bot": "random"}] * 2, seed=2,
                            options={"round_limit": 1})
    room.play_bots()
    assert room.over
    page.refresh(force=True)
    assert page.games.value["id"].tolist() == [room.game_id]
    page.games.selection = [0]
    page.open_game.clicks += 1   # its handler says what it does, then replays the game
    assert "opened on the Play page" in page.model.message
    assert bench.play.state.is_terminal() and len(bench.play.match) == len(room.moves)
    assert bench.page == 0


def test_next_game_plays_the_pool_the_cards_page_edits(served, cards_copy):
    from workbench.dashboard.app import Workbench
    bench = Workbench()
    bench.card_game = "pax-transhumanity"
    pool = bench.card_pool()
    model = PlaytestModel(bench=bench)
    model.game_id = "pax-transhumanity"
    model.players = 2
    model.seats = "person, random"
    room = model.open_room()
    first = room.pool_version
    assert not room.game.has_injected_cards
    pool.edit("Gene Drive", "heat", "black")
    model.act(room.id, "next")
    assert room.number == 2 and room.game.has_injected_cards
    # the edited values are named as a save would name them, and the journal keeps
    # them (no file holds them) so the game resumes on them after a restart
    assert room.pool_version != first and room.pool_version.startswith("p")
    assert served.journal.pool(room.pool_version)["ideas.yaml"] is not None
    games = served.journal.games(room.id)
    assert [g["pool_version"] for g in games] == [first, room.pool_version]


def test_the_room_card_has_the_chat_clickable_links_and_the_real_port(served, monkeypatch):
    import panel as pn
    monkeypatch.setattr(web, "_served_at", "http://127.0.0.1:6123")
    model = PlaytestModel()
    model.game_id = "pax-transhumanity"
    model.players = 2
    model.seats = "person, random"
    room = model.open_room()
    model.say(room.id, "welcome, *all*")
    assert room.chat_lines[-1] == {"seat": None, "text": "welcome, *all*"}
    model.say(room.id, "   ")
    assert "empty chat line" in model.message
    card = PlaytestPage()._room_card(room)

    def walk(obj):
        yield obj
        for child in getattr(obj, "objects", []) or []:
            yield from walk(child)
    parts = list(walk(card))
    texts = [p.object for p in parts if isinstance(p, pn.pane.Markdown)]
    link = model.link(room.seats[0].token)
    assert link.startswith("http://127.0.0.1:6123/playtest/seat#")
    assert any(f"]({link})" in t for t in texts)                      # clickable
    assert any(f"]({model.link(room.spectator_token)})" in t for t in texts)
    assert sum(1 for p in parts if isinstance(p, pn.widgets.Button) and p.label == "Copy") == 2
    assert not any("``" in t for t in texts)                         # no empty link cell for the bot
    assert any("welcome, \\*all\\*" in t or "welcome, *all*" in t for t in texts)
