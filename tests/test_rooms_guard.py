"""What may reach the rooms' server: a foreign Host gets 403 everywhere, a
cross-origin POST (text/plain or JSON) opens no room and changes nothing, deep
or malformed JSON gets one refusal line, limits count per seat and per address,
sockets that never say hello are closed, and a seat taken away (revoked, or a
bot took over) is told at once and sent nothing more.

The seat routes run in this process on a real Tornado server (the same
:func:`workbench.rooms.web.routes` and Host guard ``workbench serve`` uses),
spoken to over HTTP and websockets."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from workbench.rooms import hosts, web
from workbench.rooms.hosts import allowed_hosts, guard_application, host_name, origin_refusal, same_origin
from workbench.rooms.room import MESSAGES_PER_SECOND, RoomError
from workbench.rooms.wire import read_message

pytestmark = pytest.mark.usefixtures("no_history")


# -- the pure parts ---------------------------------------------------------------

def test_host_names_and_the_allow_list():
    assert host_name("LocalHost:5006") == "localhost"
    assert host_name("[::1]:5006") == "::1"
    assert host_name("example.org.") == "example.org"
    names = allowed_hosts("127.0.0.1", ["table.lan", "https://tunnel.example:8443"], env={})
    assert {"localhost", "127.0.0.1", "::1", "table.lan", "tunnel.example"} <= names
    assert "evil.example" not in names
    assert "from-env" in allowed_hosts("127.0.0.1", env={"WORKBENCH_ALLOWED_HOSTS": " from-env , "})
    assert hosts.host_refusal("evil.example:5006", names)
    assert hosts.host_refusal(None, names)
    assert hosts.host_refusal("[::1]:5006", names) is None


def test_origin_rules():
    own = {"Host": "127.0.0.1:5006", "Origin": "http://127.0.0.1:5006", "Content-Type": "application/json"}
    assert origin_refusal("POST", own, needs_json=True) is None
    assert origin_refusal("POST", {**own, "Origin": "http://evil.example"}, True)
    assert origin_refusal("POST", {**own, "Origin": "http://127.0.0.1:5007"}, True)
    assert origin_refusal("POST", {**own, "Origin": "null"}, True)
    assert origin_refusal("POST", {k: v for k, v in own.items() if k != "Origin"}, True)
    assert origin_refusal("POST", {**own, "Content-Type": "text/plain"}, True)
    assert origin_refusal("POST", {**own, "Content-Type": "application/json; charset=utf-8"}, True) is None
    assert origin_refusal("GET", {"Host": "127.0.0.1:5006"}, False) is None
    assert origin_refusal("GET", {"Host": "127.0.0.1:5006", "Origin": "http://evil.example"}, False)
    assert same_origin("https://LOCALHOST:5006", "localhost:5006")


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 50_000, "{", "[]", '"x"', b"\xff\xfe", "nan",
                                  json.dumps({"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}})])
def test_bad_messages_get_one_line(text):
    with pytest.raises(RoomError) as refused:
        read_message(text)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 120


def test_a_good_message_reads():
    assert read_message('{"type": "move", "text": "a b"}') == {"type": "move", "text": "a b"}


# -- a live server ------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live(tmp_path, monkeypatch):
    """The seat routes on a free port, guarded as ``workbench serve`` guards them."""
    monkeypatch.setenv("WORKBENCH_JOURNAL", str(tmp_path / "journal.sqlite"))
    web.reset()
    monkeypatch.setattr(web, "doorway", web.Doorway())
    hosts.set_allowed(allowed_hosts("127.0.0.1", env={}))
    port = _free_port()
    yield port
    web.reset()
    hosts.set_allowed(hosts.LOOPBACK_NAMES)


def run(port, scenario):
    """Serve on ``port`` and run ``scenario(base)`` (a coroutine function) on the same loop."""
    async def main():
        app = tornado.web.Application(web.routes())
        guard_application(app)
        server = app.listen(port, address="127.0.0.1")
        try:
            return await scenario(f"http://127.0.0.1:{port}")
        finally:
            server.stop()
    return asyncio.run(main())


async def fetch(url, method="GET", body=None, headers=None):
    """``(status, parsed JSON or text)``; an HTTP error is an answer too."""
    request = HTTPRequest(url, method=method, body=body, headers=headers or {},
                          allow_nonstandard_methods=True, request_timeout=30)
    try:
        answer = await AsyncHTTPClient().fetch(request)
    except HTTPClientError as exc:
        answer = exc.response
    text = answer.body.decode()
    try:
        return answer.code, json.loads(text)
    except ValueError:
        return answer.code, text


def own(base):
    return {"Origin": base, "Content-Type": "application/json"}


ROOM = {"game": "pax-transhumanity", "players": 4, "seed": 3, "options": {"round_limit": 1},
        "seats": [{"kind": "person"}] * 3 + [{"kind": "bot", "bot": "random"}]}


def _state_counts():
    hall = web.hall()
    return (len(hall.rooms), len(hall.journal.rooms()), len(hall.journal.table("events")),
            [(r.id, r.paused, len(r.moves), tuple(s.kind for s in r.seats)) for r in hall.rooms.values()])


def test_foreign_host_gets_403_on_every_route(live):
    async def scenario(base):
        out = []
        for path in ("/playtest/seat", "/playtest/api/rooms", "/playtest/ws"):
            out.append(await fetch(base + path, headers={"Host": f"rebound.example:{live}"}))
        out.append(await fetch(base + "/playtest/api/rooms", "POST", json.dumps(ROOM),
                               {**own(f"http://rebound.example:{live}"), "Host": f"rebound.example:{live}"}))
        ok = await fetch(base + "/playtest/seat", headers={"Host": f"localhost:{live}"})
        return out, ok
    refused, ok = run(live, scenario)
    assert [code for code, _ in refused] == [403] * 4
    assert all("host name" in str(body) for _, body in refused)
    assert ok[0] == 200
    assert web.hall().journal.rooms() == []


def test_cross_origin_posts_open_no_room_and_change_nothing(live):
    async def scenario(base):
        code, opened = await fetch(base + "/playtest/api/rooms", "POST", json.dumps(ROOM), own(base))
        assert code == 200, opened
        before = _state_counts()
        room = "/" + opened["room"]
        tries = []
        for path, body in (("", json.dumps(ROOM)), (room + "/pause", "{}"), (room + "/undo", "{}"),
                           (room + "/bot", json.dumps({"seat": 0})), (room + "/next", "{}"),
                           (room + "/chat", json.dumps({"text": "hi"}))):
            # a cross-site form or no-cors fetch: text/plain, foreign Origin
            tries.append(await fetch(base + "/playtest/api/rooms" + path, "POST", body,
                                     {"Origin": "http://evil.example", "Content-Type": "text/plain"}))
            # a cross-origin JSON POST (a browser would preflight it; a script may forge it)
            tries.append(await fetch(base + "/playtest/api/rooms" + path, "POST", body,
                                     {"Origin": "http://evil.example", "Content-Type": "application/json"}))
            # its own Origin, but text/plain
            tries.append(await fetch(base + "/playtest/api/rooms" + path, "POST", body,
                                     {"Origin": base, "Content-Type": "text/plain"}))
        tries.append(await fetch(base + "/playtest/api/rooms" + room, "DELETE", None, {"Origin": "http://evil.example"}))
        tries.append(await fetch(base + "/playtest/api/rooms" + room, headers={"Origin": "http://evil.example"}))
        return before, tries
    before, tries = run(live, scenario)
    assert [code for code, _ in tries] == [403] * len(tries)
    assert all(set(body) == {"error"} and "\n" not in body["error"] for _, body in tries)
    assert _state_counts() == before


def test_deep_or_bad_json_to_the_api_gets_one_line(live):
    async def scenario(base):
        return [await fetch(base + "/playtest/api/rooms", "POST", body, own(base))
                for body in ("[" * 15_000, '{"game": ' * 5_000, "not json", '["a list"]')]
    answers = run(live, scenario)
    assert [code for code, _ in answers] == [400] * 4
    assert all(set(body) == {"error"} and "\n" not in body["error"] for _, body in answers)
    assert web.hall().journal.rooms() == []


async def _seat(base, token):
    """A seat's socket after hello, and the frames it gets."""
    ws = await websocket_connect(base.replace("http", "ws") + "/playtest/ws")
    ws.write_message(json.dumps({"type": "hello", "token": token}))
    return ws


async def _next(ws, kind=None, timeout=20):
    while True:
        frame = await asyncio.wait_for(ws.read_message(), timeout)
        if frame is None:
            return None
        msg = json.loads(frame)
        if kind is None or msg["type"] == kind:
            return msg


def _token(link):
    return link.rpartition("#")[2]


def test_deep_json_on_a_socket_gets_one_line_and_a_revoked_tab_gets_nothing_more(live):
    async def scenario(base):
        _, opened = await fetch(base + "/playtest/api/rooms", "POST", json.dumps(ROOM), own(base))
        links = list(opened["links"].values())
        a1, a2, b = await _seat(base, _token(links[0])), await _seat(base, _token(links[0])), \
            await _seat(base, _token(links[1]))
        for ws in (a1, a2, b):
            assert (await _next(ws, "state"))["observation"]["seat_index"] in (0, 1)
        a1.write_message("[" * 15_000)
        deep = await _next(a1, "error")
        # the designer hands seat 0 to a bot: both its tabs are told, then closed
        code, _ = await fetch(base + f"/playtest/api/rooms/{opened['room']}/bot", "POST",
                              json.dumps({"seat": 0}), own(base))
        assert code == 200
        told = [await _next(ws, "revoked") for ws in (a1, a2)]
        after = []
        for ws in (a1, a2):
            while (frame := await asyncio.wait_for(ws.read_message(), 20)) is not None:
                after.append(frame)
        # the room goes on (another seat chats, the bot plays): the ousted tabs hear nothing
        b.write_message(json.dumps({"type": "chat", "text": "still here"}))
        chat = await _next(b, "chat")
        b.close()
        return deep, told, after, chat
    deep, told, after, chat = run(live, scenario)
    assert "nested too deeply" in deep["message"] and "\n" not in deep["message"]
    assert all("bot" in t["message"] for t in told)
    assert after == []
    assert chat["lines"][-1]["text"] == "still here"


def test_limits_are_per_seat_and_silent_sockets_are_closed(live, monkeypatch):
    monkeypatch.setattr(web, "HELLO_TIMEOUT_S", 0.3)
    monkeypatch.setattr(web, "MAX_UNIDENTIFIED", 3)

    async def scenario(base):
        _, opened = await fetch(base + "/playtest/api/rooms", "POST", json.dumps(ROOM), own(base))
        token = _token(next(iter(opened["links"].values())))
        tabs = [await _seat(base, token) for _ in range(4)]
        for ws in tabs:
            await _next(ws, "state")
        # 4 tabs of one seat share one budget: 4 x 15 chat lines at once pass 20 at most
        for i in range(15):
            for ws in tabs:
                ws.write_message(json.dumps({"type": "chat", "text": f"line {i}"}))
        slow = 0
        for ws in tabs:      # read each tab until it has been quiet for a second
            while True:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.read_message(), 1.0))
                except asyncio.TimeoutError:
                    break
                slow += msg["type"] == "error" and "slow down" in msg["message"]
        lines = len(web.hall().journal.chat(opened["room"]))
        # silent sockets: at most 3 wait (here), and they are closed after the timeout
        silent = [await websocket_connect(base.replace("http", "ws") + "/playtest/ws") for _ in range(4)]
        refused = await _next(silent[3])
        ends = [await asyncio.wait_for(ws.read_message(), 10) for ws in silent[:3]]
        ends2 = [await asyncio.wait_for(ws.read_message(), 10) for ws in silent[:3]]
        for ws in tabs:
            ws.close()
        return slow, lines, refused, ends, ends2
    slow, lines, refused, ends, ends2 = run(live, scenario)
    assert lines <= 2 * MESSAGES_PER_SECOND + 5 and slow == 60 - lines
    assert refused["type"] == "busy" and "waiting" in refused["message"]
    assert all(json.loads(e)["type"] == "refused" and "in time" in json.loads(e)["message"] for e in ends)
    assert ends2 == [None, None, None]


def test_per_address_limits_beyond_this_machine(monkeypatch):
    door = web.Doorway()
    monkeypatch.setattr(web, "MAX_UNIDENTIFIED_PER_ADDRESS", 10_000)
    monkeypatch.setattr(web, "MAX_UNIDENTIFIED", 10_000)
    for _ in range(web.MAX_SOCKETS_PER_ADDRESS):
        assert door.admit("192.0.2.7") is None
    assert "too many connections" in door.admit("192.0.2.7")
    assert door.admit("192.0.2.8") is None and door.admit("127.0.0.1") is None
    allowed = sum(door.allow("192.0.2.7") for _ in range(1000))
    assert 2 * web.MESSAGES_PER_ADDRESS <= allowed < 2 * web.MESSAGES_PER_ADDRESS + 20
    assert all(door.allow("127.0.0.1") for _ in range(1000))     # this machine: per seat only
    door.left("192.0.2.7", identified=False)
    assert door.admit("192.0.2.7") is None
    waiting = web.Doorway()
    monkeypatch.setattr(web, "MAX_UNIDENTIFIED_PER_ADDRESS", 2)
    assert waiting.admit("192.0.2.9") is None and waiting.admit("192.0.2.9") is None
    assert "waiting" in waiting.admit("192.0.2.9")
    assert waiting.admit("127.0.0.1") is None          # this machine: the global bound only
