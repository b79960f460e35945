"""Live playtest rooms: one table of people and bots, moves through the engine.

A :class:`Room` holds one game at a time (a seat list, each seat a person with a
secret link or a bot at a chosen skill). Every change goes through the engine
(``parse_action`` then ``apply_action``: a refusal says why and changes
nothing), is written to the :class:`~workbench.rooms.journal.Journal` in its own
transaction, then each seat is sent :meth:`Room.seat_message`, built from
``Game.observation`` for that seat and nothing else. The designer's message
(:meth:`Room.designer_message`) shows every seat.

The :class:`RoomHall` holds all rooms of a server, enforces the limits (rooms,
messages per second, chat length) and, on start, rebuilds every open room from
the journal: the engine is deterministic, so a game's config and its moves give
back the exact position (a server killed with -9 resumes at the last move).

Nothing here knows Tornado: connections are callables taking one text frame.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from workbench.core.bots import make_bot
from workbench.core.errors import IllegalAction, NotationError, WorkbenchError
from workbench.core.game import Game, GameConfig
from workbench.core.registry import get_game
from workbench.core.rng import Rng, derive_seed

from .journal import SURVEY_LENGTHS, Journal

MAX_ROOMS = 20
MAX_CHAT = 400              # characters in one chat line
MAX_MOVE_TEXT = 200         # characters in one typed move
CHAT_SHOWN = 40             # last chat lines a tab is sent when it arrives (later lines one by one)
MESSAGES_PER_SECOND = 10    # per seat, whatever its number of tabs; a burst of twice that is allowed
MAX_CONNECTIONS_PER_SEAT = 4
TOKEN_BYTES = 24            # secrets.token_urlsafe(24): 32 characters, 192 bits


class RoomError(WorkbenchError):
    """A room request refused (full, unknown, bad token...); says why in one line."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def pool_version_of(game: Game) -> str | None:
    """The version of the pool ``game`` plays (:func:`workbench.rooms.pools.pool_of`):
    entered in the card folder's history; an edited pool's values hashed the
    same way; ``edit-`` and a hash for an injected pool whose values are unknown."""
    from .pools import pool_of
    return pool_of(game)[0]


@dataclass
class Seat:
    index: int
    name: str
    kind: str                   # "person" or "bot"
    bot: str | None = None      # bot spec for a bot seat
    token_hash: str | None = None
    token_hint: str | None = None
    token: str | None = None    # kept in memory only, so the designer can copy the link
    revoked: bool = False
    # the seat's open tabs: callables taking one text frame (a ``close`` attribute,
    # when present, ends the tab's connection)
    connections: list = field(default_factory=list)
    throttle: "Throttle" = field(default_factory=lambda: Throttle())

    def oust(self, message: str) -> None:
        """Tell every open tab of this seat ``message`` at once and send them
        nothing more (the link was revoked, or a bot took the seat over)."""
        tabs, self.connections = list(self.connections), []
        frame = json.dumps({"type": "revoked", "message": message})
        for send in tabs:
            send(frame)
            close = getattr(send, "close", None)
            if close is not None:
                close()

    @property
    def connected(self) -> bool:
        return bool(self.connections)

    def public(self) -> dict:
        return {"seat": self.index, "name": self.name, "kind": self.kind, "bot": self.bot,
                "connected": self.connected if self.kind == "person" else True}


class Throttle:
    """A token bucket: ``rate`` messages a second, bursts of ``2 * rate``."""

    def __init__(self, rate: float = MESSAGES_PER_SECOND):
        self.rate, self.capacity = rate, 2 * rate
        self.level, self.last = self.capacity, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Room:
    """One playtest table: its seats, its current game and who is watching."""

    def __init__(self, room_id: str, game: Game, config: GameConfig, seats: list[Seat], journal: Journal):
        self.id, self.game, self.config, self.seats, self.journal = room_id, game, config, seats, journal
        self.lock = threading.RLock()
        self.designers: list[Callable[[str], None]] = []
        self.spectators: list[Callable[[str], None]] = []   # tabs on the spectator link
        self.spectator_hash: str | None = None
        self.spectator_token: str | None = None   # in memory only, like a seat's
        self.paused = False
        self.closed = False
        self.number = 0            # games started in this room
        self.game_id: int | None = None
        self.state = None
        self.moves: list[dict] = []    # this game's moves: seat, by, action, think_ms
        self.turn_since = time.monotonic()
        self.pool_version: str | None = None
        self.surveyed: set[int] = set()
        self.note = ""             # the last room-wide notice (paused, undone...)
        # the last chat lines, kept here so a chat line costs one small frame, not
        # a read of the journal and a resend of the history to every tab
        self.chat_lines: list[dict] = [{"seat": c["seat"], "text": c["text"]}
                                       for c in journal.chat(room_id, last=CHAT_SHOWN)]
        self.on_change: Callable[["Room"], None] | None = None   # the server's hook (bots, pushes)

    # -- games -----------------------------------------------------------------
    def start_game(self, game: Game | None = None) -> None:
        """Start the room's next game (on ``game``'s pool, e.g. the designer's
        edited one, else the same game again); the seed moves on with each game."""
        with self.lock:
            if self.state is not None and not self.state.is_terminal() and self.game_id is not None:
                self.journal.end_game(self.game_id, "abandoned", self._outcome())
            if game is not None:
                self.game = game
            self.number += 1
            cfg = GameConfig(players=self.config.players, seed=derive_seed(self.config.seed, f"game{self.number}"),
                             variants=self.config.variants, options=self.config.options)
            self.state = self.game.new_initial_state(cfg)
            from .pools import history_has, pool_of
            self.pool_version, files = pool_of(self.game)
            if files is not None and not history_has(self.game, self.pool_version):
                # the history cannot give this pool back: the journal keeps a copy,
                # so the game resumes on it after a restart
                self.journal.keep_pool(self.pool_version, self.game.id, files)
            self.game_id = self.journal.start_game(self.id, self.number, {**cfg.to_dict(), "game": self.game.ref},
                                                   self.pool_version)
            if self.paused:
                self.journal.set_paused(self.id, False)
            self.moves, self.surveyed, self.paused, self.note = [], set(), False, ""
            self.turn_since = time.monotonic()

    def game_config(self) -> GameConfig:
        return self.state.config

    def _outcome(self) -> dict:
        res = self.game.result(self.state)
        return {"scores": res.scores, "winners": res.winners, "ending": res.ending, "turns": res.turns}

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    def acting_seat(self) -> Seat | None:
        if self.state is None or self.state.is_terminal():
            return None
        return self.seats[self.state.current_player()]

    # -- moves -----------------------------------------------------------------
    def move(self, seat: int, text: str, by: str = "person") -> str:
        """Play ``text`` for ``seat``; returns the action's notation. Refused
        (:class:`RoomError`, nothing changed) when it is not the seat's turn,
        the room is paused, or the engine refuses it."""
        with self.lock:
            if self.closed:
                raise RoomError("this room is closed")
            if self.paused:
                raise RoomError("the designer has paused the game")
            if self.state is None or self.state.is_terminal():
                raise RoomError("the game is over")
            if self.state.current_player() != seat:
                raise RoomError(f"it is {self.seats[self.state.current_player()].name}'s turn, not yours")
            text = str(text).strip()[:MAX_MOVE_TEXT]
            if not text:
                raise RoomError("type a move, or pick one from the list")
            try:
                action = self.game.parse_action(self.state, text)
                nxt = self.state.clone()
                nxt.apply_action(action)
            except (NotationError, IllegalAction) as exc:
                # the engine's message is about the seat's own position and move only
                raise RoomError(f"refused: {exc}") from None
            notation = self.game.format_action(self.state, action)
            public = self.game.public_move(self.state, action, nxt)
            think = (time.monotonic() - self.turn_since) * 1000
            self.journal.add_move(self.game_id, len(self.moves), seat, by, notation, round(think, 1), public)
            self.state = nxt
            self.moves.append({"seat": seat, "by": by, "action": notation, "think_ms": think, "public": public})
            self.turn_since = time.monotonic()
            if self.state.is_terminal():
                self.journal.end_game(self.game_id, "finished", self._outcome())
            return notation

    def bot_choice(self):
        """``(seat, notation)`` a bot seat to act would play now, or None. Runs
        the bot on a copy, so it may run outside the room's lock."""
        with self.lock:
            seat = self.acting_seat()
            if seat is None or seat.kind != "bot" or self.paused or self.closed:
                return None
            state, ply = self.state.clone(), len(self.moves)
        bot = make_bot(seat.bot or "greedy")
        action = bot.choose(self.game, state, Rng(derive_seed(self.config.seed, f"bot-{self.number}-{ply}")))
        return seat.index, ply, self.game.format_action(state, action)

    def play_bots(self, limit: int = 10_000) -> int:
        """Let bot seats answer until a person must act (or the game ends)."""
        played = 0
        while played < limit:
            choice = self.bot_choice()
            if choice is None:
                break
            seat, ply, text = choice
            with self.lock:
                if len(self.moves) != ply:
                    continue
                self.move(seat, text, by="bot")
            played += 1
        return played

    def undo(self) -> str:
        """Take back the last move a person made (and the bots' answers after it),
        as the table agreed; the journal keeps them, marked undone."""
        with self.lock:
            if not self.moves:
                raise RoomError("no move to undo in this game")
            keep = len(self.moves) - 1
            while keep > 0 and self.moves[keep]["by"] == "bot":
                keep -= 1
            was_over = self.over
            for ply in range(len(self.moves) - 1, keep - 1, -1):
                self.journal.undo_move(self.game_id, ply)
            self.moves = self.moves[:keep]
            self.state = self.replay(self.state.config, [m["action"] for m in self.moves])
            if was_over:
                self.journal.end_game(self.game_id, "playing", None)
            self.paused = True    # the bots wait until the designer resumes
            self.journal.set_paused(self.id, True)
            self.note = "the designer took back the last move; the game is paused"
            self.journal.add_event(self.id, "undo", f"game {self.number}: back to ply {keep}")
            self.turn_since = time.monotonic()
            return self.note

    def replay(self, config: GameConfig, actions: list[str]):
        state = self.game.new_initial_state(config)
        for text in actions:
            state.apply_action(self.game.parse_action(state, text))
        return state

    def set_paused(self, paused: bool) -> None:
        with self.lock:
            self.paused = paused
            self.journal.set_paused(self.id, paused)
            self.note = "the designer paused the game" if paused else ""
            self.journal.add_event(self.id, "pause" if paused else "resume")

    def end(self) -> None:
        """End the current game now (abandoned if unfinished) and close the room."""
        with self.lock:
            if self.game_id is not None and not self.over:
                self.journal.end_game(self.game_id, "ended by designer", self._outcome())
            self.closed = True
            self.spectator_hash = self.spectator_token = None
            self.journal.close_room(self.id)
            for seat in self.seats:
                seat.token_hash = None

    def replace_with_bot(self, seat: int, bot: str = "greedy") -> None:
        """A departed person's seat is played by ``bot`` from now on; its link stops working."""
        make_bot(bot)   # a misspelt bot is refused before anything changes
        with self.lock:
            s = self.seats[seat]
            s.kind, s.bot, s.token_hash, s.token, s.revoked = "bot", bot, None, None, True
            self.journal.set_seat(self.id, seat, kind="bot", bot=bot, token_hash=None, revoked=1)
            self.journal.add_event(self.id, "replace", f"seat {seat} now {bot}")
            s.oust("a bot now plays this seat; the designer can give you a new link")

    def new_link(self, seat: int) -> str:
        """Revoke ``seat``'s link and issue a new token (returned once)."""
        with self.lock:
            s = self.seats[seat]
            if s.kind != "person":
                raise RoomError(f"{s.name} is a bot seat")
            token = secrets.token_urlsafe(TOKEN_BYTES)
            s.token, s.token_hash, s.token_hint, s.revoked = token, token_hash(token), token[:4], False
            self.journal.set_seat(self.id, seat, token_hash=s.token_hash, token_hint=s.token_hint, revoked=0)
            s.oust("this link was revoked by the designer")
            return token

    # -- chat and surveys --------------------------------------------------------
    def chat(self, seat: int | None, text: str) -> dict:
        """Say ``text`` from ``seat`` (None: the designer); the journal keeps it.
        Returns the line as watchers are sent it (:meth:`chat_frame`)."""
        text = " ".join(str(text).split())
        if not text:
            raise RoomError("an empty chat line")
        if len(text) > MAX_CHAT:
            raise RoomError(f"a chat line holds at most {MAX_CHAT} characters")
        with self.lock:
            self.journal.add_chat(self.id, seat, text)
            line = {"seat": seat, "text": text}
            self.chat_lines = (self.chat_lines + [line])[-CHAT_SHOWN:]
            return line

    def chat_frame(self, lines: list[dict], history: bool = False) -> str:
        """A frame carrying chat ``lines`` only (a new line, or with ``history``
        the recent ones for a tab that just arrived): its size does not grow with
        the history."""
        return json.dumps({"type": "chat", "history": history, "lines": [
            {"seat": None if c["seat"] is None else self.seats[c["seat"]].name, "text": c["text"]} for c in lines]})

    def send_chat(self, line: dict) -> None:
        """Send one new chat line to every watcher of the room."""
        frame = self.chat_frame([line])
        for seat in self.seats:
            for send in list(seat.connections):
                send(frame)
        for send in list(self.spectators) + list(self.designers):
            send(frame)

    def survey_questions(self, seat: int) -> list[dict]:
        """The questions about ``seat``'s own game (:func:`workbench.rooms.moments.moments`)
        and, once per person in this room, the short tester profile."""
        from .moments import PROFILE, moments
        key = (self.game_id, seat)
        cache = self.__dict__.setdefault("_questions", {})
        if key not in cache:
            moves = [{**m, "ply": i} for i, m in enumerate(self.moves)]
            try:
                asked = moments(self.game, self.state.config, moves, seat)
            except Exception:   # noqa: BLE001 - a survey without moments still asks the rest
                asked = []
            profiled = any(a["key"] == "profile" and a["seat"] == seat for a in self.journal.answers(room_id=self.id))
            cache.clear()
            cache[key] = asked + ([] if profiled else [PROFILE])
        return cache[key]

    def survey(self, seat: int, answers: dict) -> None:
        if not self.over:
            raise RoomError("the survey opens when the game is over")
        rows = []
        given = answers.get("moments") if isinstance(answers.get("moments"), dict) else {}
        for q in self.survey_questions(seat):
            value = given.get(q["key"])
            if value is None or str(value).strip() == "":
                continue
            value = " ".join(str(value).split())[:MAX_CHAT * 3]
            if q.get("choices") and value not in q["choices"]:
                raise RoomError(f"{q['question']} one of: {', '.join(q['choices'])}")
            rows.append({"key": q["key"], "moment": q["moment"], "question": q["question"], "answer": value})
        unknown = set(given) - {q["key"] for q in self.survey_questions(seat)}
        if unknown:
            raise RoomError("an answer to a question this survey did not ask")
        clean = {}
        for key in ("fun", "clarity"):
            value = answers.get(key)
            if value is not None and value != "":
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    raise RoomError(f"{key} is a number from 1 to 5") from None
                if not 1 <= value <= 5:
                    raise RoomError(f"{key} is a number from 1 to 5")
                clean[key] = value
        length = answers.get("length") or None
        if length is not None and length not in SURVEY_LENGTHS:
            raise RoomError(f"length felt is one of {', '.join(SURVEY_LENGTHS)}")
        clean["length"] = length
        names = self.game.card_names()
        for key in ("strongest", "weakest"):
            value = str(answers.get(key) or "").strip()[:100] or None
            if value is not None and names is not None and value not in names:
                raise RoomError(f"{key}: no card named {value!r}")
            clean[key] = value
        clean["text"] = str(answers.get("text") or "").strip()[:MAX_CHAT * 5] or None
        if rows:
            self.journal.add_answers(self.game_id, seat, rows)
        self.journal.add_survey(self.game_id, seat, clean)
        self.surveyed.add(seat)

    # -- what each watcher is sent -------------------------------------------------
    def _room_part(self) -> dict:
        return {"id": self.id, "game": self.game.name, "number": self.number, "paused": self.paused,
                "closed": self.closed, "note": self.note, "seats": [s.public() for s in self.seats],
                "plies": len(self.moves), "pool_version": self.pool_version}

    def move_log(self, seat: int | None, spectator: bool = False) -> list[dict]:
        """The moves ``seat`` may read, each with ``public``, what the table saw
        of it (``Game.public_move``): the notation (``action``) too for the
        seat's own moves, every move of a perfect-information game, and the
        designer (``seat`` None); a spectator reads the public texts only."""
        out = []
        for ply, m in enumerate(self.moves):
            shown = not spectator and (seat is None or not self.game.hidden_information or m["seat"] == seat)
            public = m.get("public") or f"{self.seats[m['seat']].name} moved"
            out.append({"ply": ply, "seat": self.seats[m["seat"]].name, "public": public,
                        "action": m["action"] if shown else None})
        return out

    def _drawn(self, obs: dict) -> dict:
        """What a page draws from one observation (and nothing else): the
        table's HTML, the legal moves grouped by kind with their help, and the
        end-of-game summary once the game is over."""
        from workbench.tabletop import view_html
        groups: dict[str, list[str]] = {}
        for text in obs["legal"]:
            groups.setdefault((text.split() or ["?"])[0], []).append(text)
        help_ = self.game.move_help
        return {"drawing": view_html(self.game, obs["table"], obs["acting"], self.state.config),
                "moves": [{"kind": k, "help": help_.get(k), "moves": v} for k, v in groups.items()],
                "end": self.end_summary()}

    def end_summary(self) -> dict | None:
        """Scores, winners and how the game ended, in the game's words (None
        while it is being played): everything here is public at the end."""
        if not self.over:
            return None
        res = self.game.result(self.state)
        return {"ending": res.ending, "words": self.game.ending_words.get(res.ending),
                "scores": res.scores, "winners": res.winners, "turns": res.turns}

    def seat_message(self, seat: int) -> str:
        with self.lock:
            obs = self.game.observation(self.state, seat)
            return json.dumps({"type": "state", "room": self._room_part(), "observation": obs,
                               **self._drawn(obs), "log": self.move_log(seat)[-60:],
                               "survey": self.over and seat not in self.surveyed,
                               "questions": self.survey_questions(seat) if self.over and seat not in self.surveyed
                               else [],
                               "cards": sorted(self.game.card_names() or ()) if self.over else []})

    def spectator_message(self) -> str:
        """The spectator link's frame: the public view only (what every seat knows)."""
        from workbench.core.observation import public_observation
        with self.lock:
            obs = public_observation(self.game, self.state)
            return json.dumps({"type": "state", "room": self._room_part(), "observation": obs,
                               **self._drawn(obs), "log": self.move_log(None, spectator=True)[-60:],
                               "survey": False, "questions": [], "cards": [], "spectator": True})

    def new_spectator_link(self) -> str:
        """Issue the room's spectator token (returned once), revoking the last one."""
        with self.lock:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self.spectator_token, self.spectator_hash = token, token_hash(token)
            self.journal.set_spectator(self.id, self.spectator_hash)
            tabs, self.spectators = list(self.spectators), []
            frame = json.dumps({"type": "revoked", "message": "this spectator link was replaced by the designer"})
            for send in tabs:
                send(frame)
                close = getattr(send, "close", None)
                if close is not None:
                    close()
            return token

    def designer_message(self) -> str:
        with self.lock:
            return json.dumps({"type": "designer", "room": self._room_part(),
                               "observations": [self.game.observation(self.state, s.index) for s in self.seats],
                               "log": self.move_log(None)[-200:], "surveyed": sorted(self.surveyed),
                               "chat": json.loads(self.chat_frame(self.chat_lines))["lines"],
                               "links": {s.index: s.token for s in self.seats if s.token},
                               "spectator": self.spectator_token})

    def push(self) -> None:
        """Send every watcher its current message."""
        for seat in self.seats:
            if seat.connections:
                frame = self.seat_message(seat.index)
                for send in list(seat.connections):
                    send(frame)
        if self.spectators:
            frame = self.spectator_message()
            for send in list(self.spectators):
                send(frame)
        if self.designers:
            frame = self.designer_message()
            for send in list(self.designers):
                send(frame)


class RoomHall:
    """Every room of one server, backed by one journal."""

    def __init__(self, journal: Journal, max_rooms: int = MAX_ROOMS):
        self.journal, self.max_rooms = journal, max_rooms
        self.rooms: dict[str, Room] = {}
        #: rooms of the journal that could not be resumed: id -> {id, game, reason}
        self.broken: dict[str, dict] = {}
        self.lock = threading.RLock()

    def open_room(self, game: Game, players: int, seats: list[dict], seed: int | None = None,
                  variants=(), options=None) -> Room:
        """A new room. ``seats``: one dict per seat, ``{"kind": "person"}`` or
        ``{"kind": "bot", "bot": "greedy"}``, optionally with a ``name``."""
        with self.lock:
            if sum(1 for r in self.rooms.values() if not r.closed) >= self.max_rooms:
                raise RoomError(f"at most {self.max_rooms} rooms are open at once; end one first")
            if len(seats) != players:
                raise RoomError(f"{players} players need {players} seats, not {len(seats)}")
            names = [str(s.get("name") or "").strip()[:30] for s in seats]
            defaults = game.config(players).players
            names = [n or d for n, d in zip(names, defaults)]
            if len(set(n.lower() for n in names)) != len(names):
                raise RoomError("two seats have the same name")
            config = game.config(names, seed=secrets.randbelow(2**31) if seed is None else seed,
                                 variants=variants, **dict(options or {}))
            game.new_initial_state(config)       # refuses bad variants/options before anything is written
            room_seats = []
            for i, (spec, name) in enumerate(zip(seats, names)):
                kind = spec.get("kind", "person")
                if kind not in ("person", "bot"):
                    raise RoomError(f"seat {i + 1}: a person or a bot, not {kind!r}")
                bot = spec.get("bot") or "greedy" if kind == "bot" else None
                if bot:
                    make_bot(bot)
                room_seats.append(Seat(i, name, kind, bot))
            room_id = secrets.token_hex(4)
            room = Room(room_id, game, config, room_seats, self.journal)
            for seat in room_seats:
                if seat.kind == "person":
                    seat.token = secrets.token_urlsafe(TOKEN_BYTES)
                    seat.token_hash, seat.token_hint = token_hash(seat.token), seat.token[:4]
            self.journal.add_room(room_id, game.ref, {**config.to_dict(), "game": game.ref},
                                  [{"seat": s.index, "name": s.name, "kind": s.kind, "bot": s.bot,
                                    "token_hash": s.token_hash, "token_hint": s.token_hint} for s in room_seats])
            room.start_game()
            room.new_spectator_link()
            self.rooms[room_id] = room
            return room

    def find_seat(self, token: str) -> tuple[Room, Seat | None]:
        """The room and seat a token opens (seat None: the room's spectator
        link). The error never repeats the token."""
        digest = token_hash(str(token))
        with self.lock:
            for room in self.rooms.values():
                if room.spectator_hash is not None and secrets.compare_digest(room.spectator_hash, digest):
                    if room.closed:
                        raise RoomError("this room is closed")
                    return room, None
                for seat in room.seats:
                    if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                        if room.closed:
                            raise RoomError("this room is closed")
                        return room, seat
        raise RoomError("this link does not open a seat (revoked, or the room was closed)")

    def get(self, room_id: str) -> Room:
        try:
            return self.rooms[room_id]
        except KeyError:
            raise RoomError(f"no room {room_id!r}") from None

    def close(self, room_id: str) -> None:
        room = self.get(room_id)
        room.end()
        room.push()
        with self.lock:
            self.rooms.pop(room_id, None)

    def resume(self) -> list[Room]:
        """Rebuild every open room of the journal at its last move, each game on
        the pool it was recorded with. A room that cannot be rebuilt is left in
        :attr:`broken` with its reason (one line); the others resume anyway."""
        resumed = []
        for row in self.journal.rooms("open"):
            if row["id"] in self.rooms:
                continue
            try:
                room = self._rebuild(row)
            except Exception as exc:   # noqa: BLE001 - one room's trouble must not keep the server down
                self.broken[row["id"]] = {"id": row["id"], "game": row["game"], "reason": _one_line(exc)}
                continue
            self.broken.pop(row["id"], None)
            self.rooms[room.id] = room
            resumed.append(room)
        return resumed

    def _rebuild(self, row: dict) -> Room:
        base = get_game(row["game"].partition("@")[0])   # a session's registration is gone after a restart
        config = GameConfig.from_dict(json.loads(row["config"]))
        seats = [Seat(s["seat"], s["name"], s["kind"], s["bot"], s["token_hash"], s["token_hint"],
                      revoked=bool(s["revoked"])) for s in self.journal.seats(row["id"])]
        games = self.journal.games(row["id"])
        last = games[-1] if games else None
        game = self._game_on_pool(base, last["pool_version"] if last else None)
        room = Room(row["id"], game, config, seats, self.journal)
        room.spectator_hash = row.get("spectator_hash")
        room.paused = bool(row.get("paused"))
        if room.paused:
            room.note = "the designer paused the game"
        if last is None:
            room.start_game()
            return room
        room.number, room.game_id, room.pool_version = last["number"], last["id"], last["pool_version"]
        gcfg = GameConfig.from_dict(json.loads(last["config"]))
        moves = self.journal.moves(last["id"])
        room.moves = [{"seat": m["seat"], "by": m["by"], "action": m["action"], "think_ms": m["think_ms"],
                       "public": m.get("public")} for m in moves]
        try:
            room.state = room.replay(gcfg, [m["action"] for m in room.moves])
        except (NotationError, IllegalAction) as exc:
            raise RoomError(f"game {last['number']} does not replay on pool {last['pool_version']}: "
                            f"{_one_line(exc)}") from None
        room.surveyed = {s["seat"] for s in self.journal.surveys(last["id"])}
        if room.state.is_terminal() and last["status"] == "playing":
            self.journal.end_game(last["id"], "finished", room._outcome())
        return room

    def _game_on_pool(self, base: Game, version: str | None) -> Game:
        """``base``'s rules on pool ``version``: the card folder's pool when it is
        that version, else the copy the journal kept, else the history's."""
        from .pools import current_version, game_on, history_files
        if version is None or base.pool_spec is None or current_version(base) == version:
            return base
        files = self.journal.pool(version) or history_files(base, version)
        if files is None:
            raise RoomError(f"pool {version} is neither in the card folder's history nor kept in the journal")
        game = game_on(base, files)
        from workbench.core.registry import register_session_game
        register_session_game(game, label="playtest")   # so the Play page can open its games
        return game


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]
