"""A real ``workbench serve`` killed with SIGKILL and started again on its journal:
a paused room comes back paused (and refuses a move), a room in play comes back in
play at its last move, and the seat links keep working."""

from __future__ import annotations

import asyncio
import json

import pytest

from workbench.rooms.bench import _api, _free_port, start_server

pytestmark = pytest.mark.slow


async def _move(base: str, link: str, text: str | None = None) -> dict:
    """Open ``link``'s seat and play ``text`` (None: its first legal move, once it
    is the seat's turn); the answer: an error line, or the state showing the move."""
    from tornado.websocket import websocket_connect
    conn = await websocket_connect(base.replace("http", "ws") + "/playtest/ws")

    async def read() -> dict:
        return json.loads(await asyncio.wait_for(conn.read_message(), 60))
    try:
        await conn.write_message(json.dumps({"type": "hello", "token": link.partition("#")[2]}))
        msg = await read()
        while msg["type"] != "state" or (text is None and not msg["observation"]["to_move"]):
            msg = await read()
        plies = msg["room"]["plies"]
        await conn.write_message(json.dumps({"type": "move", "text": text or msg["observation"]["legal"][0]}))
        while True:
            answer = await read()
            if answer["type"] == "error" or (answer["type"] == "state" and answer["room"]["plies"] > plies):
                return answer
    finally:
        conn.close()


def test_a_paused_room_stays_paused_across_kill_9(tmp_path):
    journal = tmp_path / "journal.sqlite"
    proc, base = start_server(journal, _free_port())
    try:
        rooms = [_api(base, "POST", body={"game": "meaning-made", "players": 2, "seed": 3 + i,
                                          "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
                 for i in range(2)]
        paused, playing = rooms
        _api(base, "POST", f"/{paused['room']}/pause", body={})
        links = {r["room"]: next(iter(r["links"].values())) for r in rooms}
        before = {r["id"]: r for r in _api(base, "GET")["rooms"]}
    finally:
        proc.kill()            # SIGKILL: no shutdown code runs
        proc.wait(timeout=30)
    proc, base = start_server(journal, _free_port())
    try:
        after = {r["id"]: r for r in _api(base, "GET")["rooms"]}
        assert after[paused["room"]]["paused"] and not after[playing["room"]]["paused"]
        assert {k: v["plies"] for k, v in after.items()} == {k: v["plies"] for k, v in before.items()}
        refused = asyncio.run(_move(base, links[paused["room"]], "gather 2E"))
        assert refused == {"type": "error", "message": "the designer has paused the game"}
        played = asyncio.run(_move(base, links[playing["room"]]))
        assert played["type"] == "state" and played["room"]["plies"] > before[playing["room"]]["plies"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
