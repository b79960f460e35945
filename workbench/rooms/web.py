"""The seats' side of playtest rooms, served inside ``workbench serve``.

Two Tornado routes beside the Panel dashboard:

* ``GET /playtest/seat`` — one static page (``seat.html``) holding no game data;
  the seat's token rides in the link's fragment (``#token``), which browsers never
  send in a request, so it never reaches an access log.
* ``/playtest/ws`` — the seat's websocket. Its first message hands over the token;
  from then on the server sends only :meth:`Room.seat_message` frames (built from
  that seat's observation) and one-line errors that name nothing hidden.

The designer's side is the dashboard's Playtest page (behind the dashboard's
password beyond loopback). Bots think on worker threads; every change to a room
is applied and pushed on the server's event loop, so frames leave in order.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tornado.web
import tornado.websocket
from tornado.ioloop import IOLoop

from workbench.core.errors import WorkbenchError

from .journal import Journal, journal_path
from .hosts import origin_refusal
from .room import MAX_CONNECTIONS_PER_SEAT, Room, RoomError, RoomHall, Throttle
from .wire import read_message

log = logging.getLogger(__name__)

PAGE = Path(__file__).with_name("seat.html")
MAX_FRAME = 16_384                  # bytes in one message from a seat
MAX_SOCKETS_PER_ADDRESS = 48        # a LAN party behind one router, each with a tab or two
MESSAGES_PER_ADDRESS = 60           # a second, over every socket from one address
MAX_UNIDENTIFIED = 32               # sockets (from anywhere) that have not said which seat they are
MAX_UNIDENTIFIED_PER_ADDRESS = 8
MAX_SPECTATORS = 16                 # tabs on one room's spectator link
LOOPBACK = {"127.0.0.1", "::1"}
HELLO_TIMEOUT_S = 10                # a socket that says no hello in this time is closed

_hall: RoomHall | None = None
_driver: "Driver | None" = None


def hall(path: Path | None = None) -> RoomHall:
    """The server's rooms (opened, and every open room resumed, on first use)."""
    global _hall, _driver
    if _hall is None:
        _hall = RoomHall(Journal(path or journal_path()))
        _driver = Driver(_hall)
        for room in _hall.resume():
            room.on_change = _driver.changed
    return _hall


def serving() -> RoomHall | None:
    """The server's rooms if this process serves them (``workbench serve``), else
    None: a dashboard in a notebook has no seat pages to send people to."""
    return _hall


def driver() -> "Driver":
    hall()
    return _driver


def reset() -> None:
    """Forget the server's rooms (tests start a fresh hall)."""
    global _hall, _driver
    if _hall is not None:
        _hall.journal.close()
    _hall = _driver = None


class Driver:
    """Pushes a changed room to its watchers and lets its bots answer."""

    def __init__(self, hall: RoomHall):
        self.hall = hall
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="room-bot")
        self.thinking: set[str] = set()
        self.loop: IOLoop | None = None

    def changed(self, room: Room) -> None:
        """Call on the event loop after any change to ``room``."""
        self.loop = self.loop or IOLoop.current()
        room.push()
        self.kick(room)

    def kick(self, room: Room) -> None:
        seat = room.acting_seat()
        if room.id in self.thinking or seat is None or seat.kind != "bot" or room.paused or room.closed:
            return
        self.thinking.add(room.id)
        future = self.loop.run_in_executor(self.pool, room.bot_choice)
        self.loop.add_future(future, lambda f: self._answer(room, f))

    def _answer(self, room: Room, future) -> None:
        self.thinking.discard(room.id)
        try:
            choice = future.result()
        except Exception:   # noqa: BLE001 - a bot's crash must not take the room down
            log.exception("a bot failed in room %s", room.id)
            room.set_paused(True)
            room.note = "a bot failed; the designer may replace it"
            room.push()
            return
        if choice is not None:
            seat, ply, text = choice
            if len(room.moves) == ply:
                try:
                    room.move(seat, text, by="bot")
                except RoomError:
                    pass     # paused or undone meanwhile: the next change asks again
        self.changed(room)


class SeatPage(tornado.web.RequestHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("Content-Security-Policy",
                        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
        self.write(PAGE.read_bytes())


class Doorway:
    """Limits on websockets that do not depend on the tab: per address (how many
    sockets, how many messages a second) and for sockets that have not yet said
    which seat they are (how many, and how long they may wait)."""

    def __init__(self):
        self.open: dict[str, int] = {}          # address -> open sockets
        self.unidentified: dict[str, int] = {}  # address -> sockets not yet holding a seat
        self.throttles: dict[str, Throttle] = {}

    def admit(self, address: str) -> str | None:
        """Count a new socket from ``address``; why it is refused, or None."""
        if address not in LOOPBACK and self.open.get(address, 0) >= MAX_SOCKETS_PER_ADDRESS:
            return "too many connections from your address"
        if sum(self.unidentified.values()) >= MAX_UNIDENTIFIED or (
                address not in LOOPBACK and self.unidentified.get(address, 0) >= MAX_UNIDENTIFIED_PER_ADDRESS):
            return "too many connections waiting to say which seat they are"
        self.open[address] = self.open.get(address, 0) + 1
        self.unidentified[address] = self.unidentified.get(address, 0) + 1
        return None

    def identified(self, address: str) -> None:
        self._drop(self.unidentified, address)

    def left(self, address: str, identified: bool) -> None:
        self._drop(self.open, address)
        if not identified:
            self._drop(self.unidentified, address)
        if address not in self.open:
            self.throttles.pop(address, None)

    def allow(self, address: str) -> bool:
        # the designer's own machine (scripts, the benchmark's twenty seats) is held
        # by the per-seat limit only; a page of another site cannot open a socket
        # here at all (Origin and Host are checked first)
        if address in LOOPBACK:
            return True
        throttle = self.throttles.get(address)
        if throttle is None:
            throttle = self.throttles[address] = Throttle(MESSAGES_PER_ADDRESS)
        return throttle.allow()

    @staticmethod
    def _drop(counts: dict, address: str) -> None:
        left = counts.get(address, 0) - 1
        if left > 0:
            counts[address] = left
        else:
            counts.pop(address, None)


doorway = Doorway()


class Tab:
    """One seat's open tab as the room sees it: called with a frame to send it;
    :meth:`close` ends the connection (the seat was taken away)."""

    def __init__(self, socket: "SeatSocket"):
        self.socket = socket

    def __call__(self, frame: str) -> None:
        self.socket.send_frame(frame)

    def close(self) -> None:
        self.socket.ousted()


class SeatSocket(tornado.websocket.WebSocketHandler):
    """One browser tab of one seat. Tornado's own ``check_origin`` refuses a
    socket opened by a page of another origin; the Host allow-list
    (:mod:`workbench.rooms.hosts`) has already refused a foreign name."""

    room: Room | None = None
    seat = None
    tab: Tab | None = None
    address = ""
    admitted = False

    @property
    def max_message_size(self) -> int:
        return MAX_FRAME

    def open(self) -> None:
        self.address = self.request.remote_ip or ""
        why = doorway.admit(self.address)
        if why is not None:
            # "busy", not "refused": the page tries again a little later
            self.send_frame(json.dumps({"type": "busy", "message": why}))
            self.close(1008, "refused")
            return
        self.admitted = True
        self.deadline = IOLoop.current().call_later(HELLO_TIMEOUT_S, self._too_slow)

    def _too_slow(self) -> None:
        if self.room is None:
            self.send_frame(json.dumps({"type": "refused", "message": "no seat link was given in time"}))
            self.close(1008, "no hello")

    def send_frame(self, frame: str) -> None:
        try:
            self.write_message(frame)
        except tornado.websocket.WebSocketClosedError:
            pass

    def ousted(self) -> None:
        """The seat was taken from this tab (it has been told why): end it."""
        self.close(1000, "seat taken away")

    def _error(self, message: str) -> None:
        self.send_frame(json.dumps({"type": "error", "message": message}))

    def on_message(self, message) -> None:
        seat = self.seat
        if not doorway.allow(self.address) or (seat is not None and not seat.throttle.allow()):
            self._error("too many messages: slow down")
            return
        try:
            data = read_message(message)
            kind = data.get("type")
            if self.room is None:
                if kind != "hello":
                    raise RoomError("say hello with your link first")
                self._hello(str(data.get("token") or ""))
                return
            room = self.room
            if seat is None:
                raise RoomError("a spectator watches: nothing to send")
            if seat.kind != "person" or self.tab not in seat.connections:
                raise RoomError("this seat is no longer yours")
            if kind == "move":
                room.move(seat.index, str(data.get("text") or ""))
            elif kind == "chat":
                room.send_chat(room.chat(seat.index, str(data.get("text") or "")))
                return      # a chat line is sent on its own: nothing else changed
            elif kind == "survey":
                answers = data.get("answers")
                room.survey(seat.index, answers if isinstance(answers, dict) else {})
            else:
                raise RoomError("not a message this page sends")
        except WorkbenchError as exc:
            self._error(str(exc))
            return
        driver().changed(self.room)

    def _hello(self, token: str) -> None:
        try:
            room, seat = hall().find_seat(token)
        except RoomError as exc:
            self.send_frame(json.dumps({"type": "refused", "message": str(exc)}))
            self.close(1008, "refused")
            return
        tabs = room.spectators if seat is None else seat.connections
        if len(tabs) >= (MAX_SPECTATORS if seat is None else MAX_CONNECTIONS_PER_SEAT):
            self.send_frame(json.dumps({"type": "refused", "message": "this link is open in too many tabs"}))
            self.close(1008, "refused")
            return
        self.room, self.seat, self.tab = room, seat, Tab(self)
        doorway.identified(self.address)
        IOLoop.current().remove_timeout(self.deadline)
        room.on_change = driver().changed
        tabs.append(self.tab)
        self.send_frame(room.chat_frame(room.chat_lines, history=True))
        driver().changed(room)   # everyone sees the seat arrive; a reconnecting seat gets the game where it was

    def on_close(self) -> None:
        if not self.admitted:
            return
        self.admitted = False
        doorway.left(self.address, identified=self.room is not None)
        if self.room is None:
            IOLoop.current().remove_timeout(self.deadline)
        elif self.seat is None:
            if self.tab in self.room.spectators:
                self.room.spectators.remove(self.tab)
        elif self.tab in self.seat.connections:
            self.seat.connections.remove(self.tab)
            driver().changed(self.room)


class DesignerApi(tornado.web.RequestHandler):
    """The designer's JSON door, for scripts (``workbench bench``, tests):
    ``POST /playtest/api/rooms`` opens a room and answers its seat links,
    ``GET /playtest/api/rooms/<id>`` is the designer's view of a room,
    ``POST .../<id>/<action>`` pauses, resumes, undoes, starts the next game or
    puts a bot in a seat or says a chat line, ``DELETE`` the room's path ends it.
    On a server beyond loopback (a password set) it needs ``Authorization: Bearer
    <password>``; otherwise callers from this machine only. Whatever changes
    something needs ``Origin`` naming this server and a JSON body
    (:func:`workbench.rooms.hosts.origin_refusal`): a page of another site can
    send neither."""

    def initialize(self, password: str | None = None) -> None:
        self.password = password

    def prepare(self) -> None:
        self.set_header("Cache-Control", "no-store")
        if self.password:
            given = self.request.headers.get("Authorization", "")
            import secrets
            if not secrets.compare_digest(given.encode(), f"Bearer {self.password}".encode()):
                raise tornado.web.HTTPError(403, reason="the designer's password is needed")
        elif self.request.remote_ip not in LOOPBACK:
            raise tornado.web.HTTPError(403, reason="from this machine only")
        why = origin_refusal(self.request.method, self.request.headers, needs_json=self.request.method == "POST")
        if why is not None:
            raise tornado.web.HTTPError(403, reason=why)

    def write_error(self, status_code: int, **kwargs) -> None:
        # one line, never a page or a traceback
        self.finish({"error": self._reason})

    def _fail(self, exc: Exception) -> None:
        self.set_status(400)
        self.finish({"error": str(exc)})

    def _body(self) -> dict:
        return read_message(self.request.body or b"{}", "request body")

    def post(self, room_id: str | None = None, action: str | None = None) -> None:
        from workbench.core.registry import get_game
        if room_id:
            self._act(room_id, action or "")
            return
        try:
            body = self._body()
            game = get_game(str(body["game"]))
            players = int(body.get("players") or game.default_players)
            room = hall().open_room(game, players, list(body.get("seats") or [{"kind": "person"}] * players),
                                    seed=body.get("seed"), variants=tuple(body.get("variants") or ()),
                                    options=dict(body.get("options") or {}))
        except (WorkbenchError, KeyError, TypeError, ValueError) as exc:
            self._fail(exc)
            return
        driver().changed(room)
        base = f"{self.request.protocol}://{self.request.host}"
        self.finish({"room": room.id, "links": {s.name: seat_link(base, s.token) for s in room.seats if s.token},
                     "spectator": seat_link(base, room.spectator_token)})

    def _act(self, room_id: str, action: str) -> None:
        """``POST /playtest/api/rooms/<id>/<action>``: pause, resume, undo, next,
        bot (body ``{"seat": n, "bot": "greedy"}``) or chat (body ``{"text": "..."}``)."""
        try:
            body = self._body()
            room = hall().get(room_id)
            if action in ("pause", "resume"):
                room.set_paused(action == "pause")
            elif action == "undo":
                room.undo()
            elif action == "next":
                room.start_game()
            elif action == "bot":
                room.replace_with_bot(int(body["seat"]), str(body.get("bot") or "greedy"))
            elif action == "chat":
                room.send_chat(room.chat(None, str(body.get("text") or "")))
            elif action == "spectator":
                token = room.new_spectator_link()
                driver().changed(room)
                self.finish({"room": room_id, "done": action,
                             "spectator": seat_link(f"{self.request.protocol}://{self.request.host}", token)})
                return
            else:
                raise RoomError(f"unknown action {action!r}; pause, resume, undo, next, bot, chat or spectator")
        except (WorkbenchError, KeyError, TypeError, ValueError) as exc:
            self._fail(exc)
            return
        driver().changed(room)
        self.finish({"room": room_id, "done": action})

    def get(self, room_id: str | None = None, action: str | None = None) -> None:
        if not room_id:
            self.finish({"rooms": [{"id": r.id, "game": r.game.ref, "plies": len(r.moves), "over": r.over,
                                    "paused": r.paused, "pool_version": r.pool_version}
                                   for r in hall().rooms.values()],
                         "not_resumed": list(hall().broken.values())})
            return
        try:
            self.set_header("Content-Type", "application/json")
            self.finish(hall().get(room_id).designer_message())
        except RoomError as exc:
            self._fail(exc)

    def delete(self, room_id: str | None = None, action: str | None = None) -> None:
        try:
            hall().close(room_id or "")
        except RoomError as exc:
            self._fail(exc)
            return
        self.finish({"closed": room_id})


def routes(password: str | None = None) -> list[tuple]:
    """The Tornado routes to add to the dashboard server (``extra_patterns``)."""
    return [(r"/playtest/seat", SeatPage), (r"/playtest/ws", SeatSocket),
            (r"/playtest/api/rooms/?([0-9a-f]*)/?([a-z]*)", DesignerApi, {"password": password})]


_served_at = "http://127.0.0.1:5006"


def set_served_at(base: str) -> None:
    """Where this server listens (``workbench serve`` sets it): the links' default start."""
    global _served_at
    _served_at = base


def served_at() -> str:
    return _served_at


def seat_link(base: str, token: str) -> str:
    """The link a person opens for a seat (``base``: how they reach the server)."""
    return f"{base.rstrip('/')}/playtest/seat#{token}"
