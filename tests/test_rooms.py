"""Playtest rooms without a browser: moves through the engine, refusals that
change nothing, what each seat is sent, tokens, limits, the journal, and a room
rebuilt from the journal at its last move."""

from __future__ import annotations

import json

import pytest

from workbench.core.registry import game_ids, get_game
from workbench.rooms.journal import Journal
from workbench.rooms.room import MAX_CHAT, RoomError, RoomHall

pytestmark = pytest.mark.usefixtures("no_history")  # not the checkout's card history

PAX = get_game("pax-transhumanity")




def _hall(tmp_path, **kw) -> RoomHall:
    return RoomHall(Journal.in_folder(tmp_path), **kw)


def _pax_room(hall, rounds=1):
    seats = [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}]
    return hall.open_room(PAX, 4, seats, seed=7, options={"round_limit": rounds})


def _play_people(room, pick=lambda legal: legal[len(legal) // 2]):
    """People pick from their observation's legal list; bots answer in turn."""
    while not room.over:
        room.play_bots()
        if room.over:
            break
        seat = room.acting_seat().index
        legal = room.game.observation(room.state, seat)["legal"]
        room.move(seat, pick(legal))


def test_a_room_plays_to_the_end_and_the_journal_has_it(tmp_path):
    hall = _hall(tmp_path)
    room = _pax_room(hall)
    _play_people(room)
    game = hall.journal.game(room.game_id)
    assert game["status"] == "finished" and json.loads(game["outcome"])["ending"]
    moves = hall.journal.moves(room.game_id)
    assert len(moves) == len(room.moves) > 4
    assert {m["by"] for m in moves} == {"person", "bot"}
    assert all(m["think_ms"] is not None and m["think_ms"] >= 0 for m in moves)
    assert game["pool_version"]
    for seat in range(3):
        room.survey(seat, {"fun": 4, "clarity": "3", "length": "about right", "text": "tense"})
    assert [s["seat"] for s in hall.journal.surveys(room.game_id)] == [0, 1, 2]


def test_refusals_say_why_and_change_nothing(tmp_path):
    room = _pax_room(_hall(tmp_path))
    room.play_bots()
    seat = room.acting_seat().index
    other = (seat + 1) % 3
    before = (room.seat_message(seat), len(room.moves))
    with pytest.raises(RoomError, match="turn"):
        room.move(other, room.game.observation(room.state, seat)["legal"][0])
    with pytest.raises(RoomError, match="refused"):
        room.move(seat, "fly to the moon")
    room.set_paused(True)
    with pytest.raises(RoomError, match="paused"):
        room.move(seat, room.game.observation(room.state, seat)["legal"][0])
    room.set_paused(False)
    assert (room.seat_message(seat), len(room.moves)) == before


def test_a_seat_is_sent_only_its_observation(tmp_path):
    room = _pax_room(_hall(tmp_path), rounds=2)
    for _ in range(3):
        room.play_bots()
        seat = room.acting_seat().index
        room.move(seat, room.game.observation(room.state, seat)["legal"][0])
    state = room.state
    for seat in range(3):
        frame = room.seat_message(seat)
        msg = json.loads(frame)
        assert msg["observation"] == room.game.observation(state, seat)
        for rival in range(4):
            name = state.player_name(rival)
            shown = msg["observation"]["table"]["players"][name]["secret"]
            assert shown == (state.secret[rival] if rival == seat else ("hidden" if state.secret[rival] else None))
        # the deck order is nowhere in the frame, and others' moves show who moved only
        assert json.dumps(list(state.deck))[1:-1] not in frame
        assert all(e["action"] is None for e in msg["log"] if e["seat"] != state.player_name(seat))


def test_tokens_open_one_seat_and_can_be_revoked(tmp_path):
    hall = _hall(tmp_path)
    room = _pax_room(hall)
    tokens = [room.seats[i].token for i in range(3)]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)
    assert room.seats[3].token is None
    assert hall.find_seat(tokens[1])[1].index == 1
    new = room.new_link(1)
    with pytest.raises(RoomError) as err:
        hall.find_seat(tokens[1])
    assert tokens[1] not in str(err.value) and tokens[1][:8] not in str(err.value)
    assert hall.find_seat(new)[1].index == 1
    # the journal keeps a hash, never the token
    raw = (tmp_path / "playtest-journal.sqlite").read_bytes()
    assert new.encode() not in raw and tokens[0].encode() not in raw


def test_limits(tmp_path):
    hall = _hall(tmp_path, max_rooms=1)
    room = _pax_room(hall)
    with pytest.raises(RoomError, match="at most 1 rooms"):
        _pax_room(hall)
    with pytest.raises(RoomError, match="at most"):
        room.chat(0, "x" * (MAX_CHAT + 1))
    room.chat(0, "hello   table")
    assert [c["text"] for c in hall.journal.chat(room.id)] == ["hello table"]
    with pytest.raises(RoomError, match="same name"):
        _hall(tmp_path / "b").open_room(PAX, 2, [{"name": "A"}, {"name": "a"}])


def test_undo_takes_back_the_last_persons_move(tmp_path):
    room = _pax_room(_hall(tmp_path), rounds=2)
    room.play_bots()
    seat = room.acting_seat().index
    before = room.seat_message(seat)
    room.move(seat, room.game.observation(room.state, seat)["legal"][0])
    room.play_bots()
    room.undo()
    assert room.paused
    room.set_paused(False)
    assert json.loads(room.seat_message(seat))["observation"] == json.loads(before)["observation"]
    undone = [m for m in room.journal.moves(room.game_id, include_undone=True) if m["undone"]]
    assert undone


def test_replace_a_person_with_a_bot(tmp_path):
    hall = _hall(tmp_path)
    room = _pax_room(hall)
    token = room.seats[0].token
    room.replace_with_bot(0, "greedy")
    with pytest.raises(RoomError):
        hall.find_seat(token)
    _play_people(room)
    assert room.over


def test_a_restarted_hall_resumes_every_room_at_its_last_move(tmp_path):
    hall = _hall(tmp_path)
    rooms = [_pax_room(hall, rounds=3) for _ in range(2)]
    mm = get_game("meaning-made")
    rooms.append(hall.open_room(mm, 2, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], seed=3))
    for room in rooms:
        for _ in range(4):
            room.play_bots()
            seat = room.acting_seat().index
            room.move(seat, room.game.observation(room.state, seat)["legal"][-1])
    token = rooms[0].seats[1].token
    again = _hall(tmp_path)   # a new server on the same folder
    resumed = {r.id: r for r in again.resume()}
    assert set(resumed) == {r.id for r in rooms}
    for room in rooms:
        back = resumed[room.id]
        assert len(back.moves) == len(room.moves)
        for seat in range(room.state.num_players):
            assert back.game.observation(back.state, seat) == room.game.observation(room.state, seat)
    assert again.find_seat(token)[0].id == rooms[0].id


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_opens_a_room(tmp_path, gid):
    game = get_game(gid)
    n = game.default_players
    room = _hall(tmp_path).open_room(game, n, [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (n - 1))
    room.play_bots()
    assert json.loads(room.seat_message(0))["observation"]["seat"] == room.seats[0].name


def test_kill_9_mid_game_loses_no_acknowledged_move():
    """A process playing two rooms is killed with SIGKILL at random moments
    (``workbench bench --only rooms-resume`` does 20 tries); every move it had
    acknowledged is in the rebuilt rooms."""
    from workbench.rooms.bench import resume_tries
    result = resume_tries(tries=3, seed=5)
    assert result["acknowledged_moves_checked"] > 0
    assert result["moves_lost"] == 0


def test_pause_is_kept_across_a_restart(tmp_path):
    hall = _hall(tmp_path)
    paused, undone, playing = (_pax_room(hall, rounds=2) for _ in range(3))
    for room in (paused, undone, playing):
        room.play_bots()
        seat = room.acting_seat().index
        room.move(seat, room.game.observation(room.state, seat)["legal"][0])
    paused.set_paused(True)
    undone.undo()                      # Undo leaves the room paused
    back = {r.id: r for r in _hall(tmp_path).resume()}
    assert back[paused.id].paused and back[undone.id].paused and not back[playing.id].paused
    assert "paused" in back[paused.id].note
    back[paused.id].set_paused(False)
    assert not {r.id: r for r in _hall(tmp_path).resume()}[paused.id].paused


def _replays_the_same(back, room):
    assert back.pool_version == room.pool_version and len(back.moves) == len(room.moves)
    for seat in range(room.state.num_players):
        assert back.game.observation(back.state, seat) == room.game.observation(room.state, seat)


def test_a_game_resumes_on_the_pool_it_was_recorded_with(tmp_path, cards_copy):
    """A game started on the card folder's pool, then the folder edited; a game on
    an edited pool nobody saved: after a restart both replay on their own pools."""
    from workbench.core.cards import forget
    from workbench.tweak import open_session
    session = open_session("pax-transhumanity")
    hall = _hall(tmp_path)
    on_disk = _pax_room(hall, rounds=3)
    import random

    from workbench.rooms.bench import edit_a_number
    edit_a_number(session, random.Random(3))
    from workbench.core.registry import get_game
    edited = hall.open_room(get_game(session.session_game("edited")), 4,
                            [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}], seed=7,
                            options={"round_limit": 3})
    assert edited.pool_version != on_disk.pool_version and edited.pool_version.startswith("p")
    for room in (on_disk, edited):
        for _ in range(6):
            room.play_bots()
            seat = room.acting_seat().index
            room.move(seat, room.game.observation(room.state, seat)["legal"][-1])
    session.save()                      # the folder now holds the edited values
    forget()
    back = {r.id: r for r in _hall(tmp_path).resume()}
    _replays_the_same(back[on_disk.id], on_disk)
    _replays_the_same(back[edited.id], edited)
    assert back[on_disk.id].game.has_injected_cards      # the old pool, rebuilt from the kept copy
    assert back[edited.id].game.card_names() == edited.game.card_names()


def test_a_room_that_cannot_resume_is_shown_and_the_others_start(tmp_path):
    hall = _hall(tmp_path)
    good, bad = _pax_room(hall, rounds=2), _pax_room(hall, rounds=2)
    for room in (good, bad):
        room.play_bots()
        seat = room.acting_seat().index
        room.move(seat, room.game.observation(room.state, seat)["legal"][0])
    # the journal says a move was played that this position refuses
    hall.journal.add_move(bad.game_id, len(bad.moves), 0, "person", "no such move at all", 1.0)
    again = _hall(tmp_path)
    back = {r.id: r for r in again.resume()}
    assert good.id in back and bad.id not in back
    reason = again.broken[bad.id]["reason"]
    assert "does not replay" in reason and "\n" not in reason


def test_kill_9_while_the_designer_edits_loses_nothing_and_keeps_each_games_pool():
    """Saved edits and Next games on the edited pool between kills (the full 20
    tries: analyses/rooms_edited_resume.py): every room resumes, on its pool."""
    from workbench.rooms.bench import edited_resume_tries
    result = edited_resume_tries(tries=2, game="pax-transhumanity", seed=4)
    assert result["acknowledged_moves_checked"] > 0 and result["pools_seen"] >= 1
    assert result["rooms_not_resumed"] == result["moves_lost"] == result["games_on_another_pool"] == 0
    assert result["children_failed"] == 0
    assert result["paused_lost"] == 0


@pytest.mark.parametrize("gid", ["pax-transhumanity", "mandate-2038", "meaning-made"])
def test_public_texts_drawing_and_the_spectators_view(tmp_path, gid):
    """Each move carries the game's public text (journal and every log); a seat's
    frame draws the table from its observation; the spectator's view is what
    every seat is shown alike, and its log holds public texts only."""
    game = get_game(gid)
    n = 3
    room = _hall(tmp_path).open_room(game, n, [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (n - 1),
                                     seed=2, options={"round_limit": 1} if "round_limit" in game.options else {})
    for _ in range(8):
        room.play_bots(limit=3)
        if room.over:
            break
        if room.acting_seat().index == 0:
            room.move(0, room.game.observation(room.state, 0)["legal"][0])
    moves = room.journal.moves(room.game_id)
    assert moves and all(m["public"] for m in moves)
    seat = json.loads(room.seat_message(0))
    assert "wb-table" in seat["drawing"] and [m for g in seat["moves"] for m in g["moves"]] == \
        seat["observation"]["legal"]
    spectator = json.loads(room.spectator_message())
    assert spectator["spectator"] and spectator["observation"]["legal"] == []
    assert all(e["action"] is None and e["public"] for e in spectator["log"])
    views = [room.game.observation(room.state, s)["table"] for s in range(n)]

    def agrees(public, places):
        if public == "hidden" and any(p != places[0] for p in places):
            return True
        if isinstance(public, dict):
            return all(agrees(v, [p[k] for p in places]) for k, v in public.items())
        if isinstance(public, list) and all(isinstance(p, list) for p in places):
            return all(agrees(v, [p[i] for p in places]) for i, v in enumerate(public))
        return all(p == public for p in places)
    assert agrees(spectator["observation"]["table"], views)
    if gid == "pax-transhumanity":     # a seat's own dealt cards are in its view and in no other
        assert "dealt" in views[0]["players"][room.seats[0].name]
        assert "dealt" not in spectator["observation"]["table"]["players"][room.seats[0].name]


def test_mandates_picks_are_told_as_the_table_saw_them():
    game = get_game("mandate-2038")
    state = game.new_initial_state(game.config(3, seed=4))
    texts = []
    while state.phase == "select":
        action = state.legal_actions()[0]
        after = state.clone()
        after.apply_action(action)
        texts.append(game.public_move(state, action, after))
        state = after
    assert all("chose a Core Action" in t for t in texts)
    assert "revealed" not in texts[0] and "revealed" in texts[-1]
    assert all(c not in texts[0] for c in ("fund", "research", "build", "organize", "deploy", "influence"))


def test_the_survey_asks_about_moments_of_the_persons_own_game(tmp_path):
    hall = _hall(tmp_path)
    room = _pax_room(hall)
    _play_people(room)
    # the journal's times are the truth: make seat 0's third move its long think
    mine = [i for i, m in enumerate(room.moves) if m["seat"] == 0]
    room.moves[mine[2]]["think_ms"] = 41_000
    questions = room.survey_questions(0)
    keys = [q["key"] for q in questions]
    assert keys[0] == "longest" and f"Move {mine[2] + 1}:" in questions[0]["moment"] and "41 s" in questions[0]["moment"]
    assert keys[-1] == "profile" and 2 <= len(keys) <= 4
    assert json.loads(room.seat_message(0))["questions"] == questions
    with pytest.raises(RoomError):
        room.survey(0, {"moments": {"profile": "daily, obviously"}})
    with pytest.raises(RoomError):
        room.survey(0, {"moments": {"made-up": "x"}})
    assert hall.journal.answers(room.game_id) == [] and 0 not in room.surveyed
    room.survey(0, {"moments": {"longest": "whether to hire or research", "profile": "monthly"}, "fun": 4})
    got = {a["key"]: a for a in hall.journal.answers(room.game_id)}
    assert got["longest"]["answer"] == "whether to hire or research" and got["longest"]["moment"]
    assert got["profile"]["answer"] == "monthly"
    # the profile is asked once per person in a room: not again in the next game
    room.start_game()
    _play_people(room)
    assert "profile" not in [q["key"] for q in room.survey_questions(0)]
    assert "profile" in [q["key"] for q in room.survey_questions(1)]
