"""Measurements of playtest rooms (``workbench bench --only rooms`` and
``--only rooms-resume``; analyses/rooms_bench.py runs both at full size).

* :func:`latency`: a real ``workbench serve`` in a subprocess, ``rooms`` rooms
  of ``seats`` people each, one websocket client per seat playing random legal
  moves from its observation. A move's delay is from the moment its seat sends
  it to the moment each seat of the room receives the frame showing it; the
  median and 95th percentile over every (move, seat) pair. Memory: the server's
  resident size after each cycle of opening, playing and closing the rooms.
* :func:`resume_tries`: a child process plays rooms on a journal and prints an
  acknowledgement after each move it committed; it is killed with SIGKILL at a
  random moment, then the rooms are rebuilt from the journal and every
  acknowledged move must be there (a move committed but not yet acknowledged
  counts as kept, never as lost).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _api(base: str, method: str, path: str = "", body=None):
    from .hosts import script_headers
    req = urllib.request.Request(base + "/playtest/api/rooms" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers=script_headers(base))
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def start_server(journal: Path, port: int):
    # a benchmark leaves the card folder's history alone
    from workbench.core.workspace import current
    env = current().with_journal(journal).environment({**os.environ, "BOKEH_LOG_LEVEL": "warn",
                                                        "WORKBENCH_NO_HISTORY": "1"})
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", "--port", str(port), "--no-browser"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            _api(base, "GET")
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("workbench serve exited") from None
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("workbench serve did not start within 120 s")


async def _chatter(base: str, game: str, tabs: int, rate: float, stop: asyncio.Event) -> int:
    """One seat of its own room, open in ``tabs`` tabs, saying ``rate`` chat lines
    a second in all (its seat's limit) until ``stop``; returns the lines sent."""
    from tornado.websocket import WebSocketClosedError, websocket_connect
    opened = _api(base, "POST", body={"game": game, "players": 2, "seed": 99,
                                      "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    token = next(iter(opened["links"].values())).partition("#")[2]
    url = base.replace("http", "ws") + "/playtest/ws"
    async def open_tab():
        # a loaded server may turn a new socket away ("busy") before its hello:
        # the tab tries again, as the seat page does
        for _ in range(40):
            conn = await websocket_connect(url)
            try:
                await conn.write_message(json.dumps({"type": "hello", "token": token}))
                return conn
            except WebSocketClosedError:
                await asyncio.sleep(0.25)
        raise RuntimeError("the chatty seat could not open a tab in 10 s")

    conns = [await open_tab() for _ in range(tabs)]

    async def drain(conn):
        while await conn.read_message() is not None:
            pass
    readers = [asyncio.ensure_future(drain(c)) for c in conns]
    said = 0
    try:
        while not stop.is_set():
            tab = said % tabs
            try:
                await conns[tab].write_message(json.dumps({"type": "chat", "text": f"line {said}: " + "words " * 20}))
            except WebSocketClosedError:
                # the server closed this tab (on a loaded machine, a hello it did not
                # read in time): the person reopens it, as the seat page would
                conns[tab] = await open_tab()
                readers.append(asyncio.ensure_future(drain(conns[tab])))
                continue
            said += 1
            await asyncio.sleep(1 / rate)
    finally:
        for conn in conns:
            conn.close()
        for r in readers:
            r.cancel()
        _api(base, "DELETE", "/" + opened["room"])
    return said


async def _play_rooms(base: str, game: str, rooms: int, seats: int, moves: int, seed: int,
                      chatter: bool = False) -> list[float]:
    """Open the rooms, connect every seat, play ``moves`` moves in each room; the delays in ms."""
    from tornado.websocket import websocket_connect
    rng = random.Random(seed)
    delays: list[float] = []
    done = asyncio.Event()
    finished = set()
    opened = [_api(base, "POST", body={"game": game, "players": seats, "seed": seed + i,
                                       "seats": [{"kind": "person"}] * seats}) for i in range(rooms)]
    sent: dict[tuple, float] = {}          # (room, ply) -> when the move left its seat
    clients = []
    url = base.replace("http", "ws") + "/playtest/ws"

    async def seat_loop(room_id: str, token: str):
        conn = await websocket_connect(url)
        clients.append(conn)
        await conn.write_message(json.dumps({"type": "hello", "token": token}))
        last_seen = -1
        while True:
            frame = await conn.read_message()
            if frame is None:
                return
            msg = json.loads(frame)
            if msg.get("type") != "state":
                continue
            ply = msg["room"]["plies"]
            if ply != last_seen and (room_id, ply - 1) in sent:
                delays.append((time.perf_counter() - sent[(room_id, ply - 1)]) * 1000)
            last_seen = ply
            obs = msg["observation"]
            if ply >= moves or obs["over"]:
                finished.add((room_id, token))
                if len(finished) == rooms * seats:
                    done.set()
                continue
            if obs["to_move"] and (room_id, ply) not in sent:
                sent[(room_id, ply)] = time.perf_counter()
                await conn.write_message(json.dumps({"type": "move", "text": rng.choice(obs["legal"])}))

    stop = asyncio.Event()
    chat = asyncio.ensure_future(_chatter(base, game, 4, 10, stop)) if chatter else None
    if chatter:
        await asyncio.sleep(1.0)      # the chat is flowing before the first move
    tasks = [asyncio.ensure_future(seat_loop(o["room"], link.partition("#")[2]))
             for o in opened for link in o["links"].values()]
    try:
        await asyncio.wait_for(done.wait(), timeout=600)
    finally:
        stop.set()
        if chat is not None:
            await chat
        for conn in clients:
            conn.close()
        for task in tasks:
            task.cancel()
        for o in opened:
            _api(base, "DELETE", "/" + o["room"])
    return delays


def _first_game() -> str:
    """The game the pages open on (the first listed): what a bench plays by default."""
    from workbench.core.registry import load_all
    return next(iter(load_all()))


def latency(game: str | None = None, rooms: int = 5, seats: int = 4, moves: int = 40, cycles: int = 4,
            seed: int = 1, chatter: bool = False) -> dict:
    """Delays of a move reaching every seat, and the server's memory per cycle."""
    game = game or _first_game()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "journal.sqlite", _free_port())
        try:
            delays, memory = [], [_rss_mb(proc.pid)]
            for cycle in range(cycles):
                delays += asyncio.run(_play_rooms(base, game, rooms, seats, moves, seed + 100 * cycle, chatter))
                memory.append(_rss_mb(proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    delays.sort()
    return {"game": game, "rooms": rooms, "seats": seats, "moves_per_room": moves, "cycles": cycles,
            "chatter": chatter,
            "deliveries": len(delays), "median_ms": statistics.median(delays),
            "p95_ms": delays[int(0.95 * (len(delays) - 1))], "max_ms": delays[-1],
            "rss_mb_after_each_cycle": [round(m, 1) for m in memory],
            "rss_growth_mb_after_first_cycle": round(memory[-1] - memory[1], 1)}


# -- kill -9 and resume ------------------------------------------------------------

def edit_a_number(session, rng: random.Random) -> tuple[str, str, int]:
    """Change one whole-number field of one card of a tweak ``session`` by one
    (any game: the first field, from a random card on, that the game's loader
    accepts changed): ``(card, column, new value)``."""
    import polars as pl

    from workbench.core.errors import WorkbenchError
    table = session.table()
    columns = [c for c, t in table.schema.items() if t in (pl.Int64, pl.Int32) and c != "name"]
    rows = table.rows(named=True)
    start = rng.randrange(len(rows))
    for row in rows[start:] + rows[:start]:
        for column in columns:
            if row[column] is None:
                continue
            for step in (1, -1):
                try:
                    session.edit(row["name"], column, row[column] + step)
                except WorkbenchError:
                    continue
                return row["name"], column, row[column] + step
    raise WorkbenchError("no whole-number field of this pool takes an edit")


def child(journal: str, game: str, seed: int) -> None:
    """Play rooms on ``journal`` forever (resuming what is there), printing
    ``ack <room> <game number> <moves>`` after every committed move."""
    from workbench.core.registry import get_game
    from workbench.rooms.journal import Journal
    from workbench.rooms.room import RoomHall
    hall = RoomHall(Journal(journal))
    rooms = hall.resume()
    if not rooms:
        g = get_game(game)
        rooms = [hall.open_room(g, 3, [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}],
                                seed=seed + i) for i in range(2)]
    rng = random.Random(seed + os.getpid())
    while True:
        for room in rooms:
            if room.over:
                room.start_game()
            seat = room.acting_seat()
            if seat.kind == "bot":
                room.play_bots(limit=1)
            else:
                room.move(seat.index, rng.choice(room.game.observation(room.state, seat.index)["legal"]))
            print(f"ack {room.id} {room.number} {len(room.moves)}", flush=True)


def resume_tries(tries: int = 20, game: str | None = None, seed: int = 1) -> dict:
    """Kill the child with SIGKILL ``tries`` times; count acknowledged moves lost."""
    game = game or _first_game()
    from workbench.rooms.journal import Journal
    from workbench.rooms.room import RoomHall
    rng = random.Random(seed)
    lost = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        journal = str(Path(tmp) / "journal.sqlite")
        for attempt in range(tries):
            proc = subprocess.Popen([sys.executable, "-m", "workbench.rooms.bench", "--child", journal, game,
                                     str(seed + attempt)], stdout=subprocess.PIPE, text=True,
                                    env={**os.environ, "WORKBENCH_NO_HISTORY": "1"})
            acked: dict[str, tuple[int, int]] = {}
            count = [0]

            def read(stream=proc.stdout):
                for line in stream:
                    _, room, number, moves = line.split()
                    acked[room] = (int(number), int(moves))
                    count[0] += 1
            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            wait_for = rng.randint(5, 120)          # acknowledged moves before the kill
            deadline = time.monotonic() + 120
            while count[0] < wait_for and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(timeout=10)
            hall = RoomHall(Journal(journal))
            back = {room.id: room for room in hall.resume()}
            for room_id, (number, moves) in acked.items():
                room = back.get(room_id)
                checked += moves
                if room is None or room.number < number:
                    lost += moves
                elif room.number == number and len(room.moves) < moves:
                    lost += moves - len(room.moves)
            hall.journal.close()
    return {"tries": tries, "acknowledged_moves_checked": checked, "moves_lost": lost}


# -- kill -9 while the designer edits the cards ---------------------------------------

EDIT_EVERY = 12      # acknowledged moves between two of the designer's pool changes


def edited_child(journal: str, game: str, seed: int) -> None:
    """Like :func:`child`, while the designer works on the cards (``$WORKBENCH_CARDS``
    is a scratch copy): every :data:`EDIT_EVERY` moves either an edited card is
    saved (the folder's pool moves on under the running games) or the first room
    starts its Next game on the Cards page's unsaved edited pool. The last room is
    paused once this life has played a while (``paused <room>`` is printed after
    the journal has it) and resumed at the next life's start.
    Prints ``ack <room> <game number> <moves> <pool version>`` after every move."""
    from workbench.core.registry import get_game
    from workbench.rooms.journal import Journal
    from workbench.rooms.room import RoomHall
    from workbench.tweak import open_session
    hall = RoomHall(Journal(journal))
    rooms = hall.resume()
    if hall.broken:
        print(f"broken {len(hall.broken)}", flush=True)
    if not rooms:
        g = get_game(game)
        rooms = [hall.open_room(g, 3, [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}],
                                seed=seed + i) for i in range(3)]
    if rooms[-1].paused:
        rooms[-1].set_paused(False)
    session = open_session(game)
    rng = random.Random(seed + os.getpid())
    played, pause_at = 0, rng.randint(20, 60)
    while True:
        for room in rooms:
            if room.paused:
                continue
            if room.over:
                room.start_game()
            seat = room.acting_seat()
            if seat.kind == "bot":
                room.play_bots(limit=1)
            else:
                room.move(seat.index, rng.choice(room.game.observation(room.state, seat.index)["legal"]))
            print(f"ack {room.id} {room.number} {len(room.moves)} {room.pool_version}", flush=True)
            played += 1
            if played % EDIT_EVERY == 0:
                edit_a_number(session, rng)
                if (played // EDIT_EVERY) % 2:
                    session.save()
                    print("saved", flush=True)
                else:
                    rooms[0].start_game(get_game(session.session_game("edited")))
                    print("next", flush=True)
                    print(f"ack {rooms[0].id} {rooms[0].number} 0 {rooms[0].pool_version}", flush=True)
            if played == pause_at:
                rooms[-1].set_paused(True)
                print(f"paused {rooms[-1].id}", flush=True)


def edited_resume_tries(tries: int = 20, game: str | None = None, seed: int = 1) -> dict:
    """Kill :func:`edited_child` with SIGKILL ``tries`` times over one journal and
    one scratch copy of the cards; after each kill, rebuild the rooms (as a
    restarted server does) and count rooms not resumed, acknowledged moves lost,
    games resumed on another pool than recorded, and paused rooms found unpaused."""
    from workbench.core import storage
    from workbench.core.data import cards_dir
    from workbench.core.workspace import current
    from workbench.rooms.journal import Journal
    from workbench.rooms.pools import playing_version
    from workbench.rooms.room import RoomHall
    game = game or _first_game()
    rng = random.Random(seed)
    out = {"tries": tries, "rooms_not_resumed": 0, "moves_lost": 0, "acknowledged_moves_checked": 0,
           "games_on_another_pool": 0, "pools_seen": 0, "paused_checked": 0, "paused_lost": 0, "saves": 0,
           "next_games_on_edited_pool": 0, "children_failed": 0}
    pools: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        source = cards_dir(game)
        cards = Path(tmp) / "cards"
        storage.copy_tree(source, cards / source.name, "the benchmark's scratch card folder")
        env = current().with_cards(cards).environment()
        env.pop("WORKBENCH_NO_HISTORY", None)    # saves enter the scratch folder's history
        journal = str(Path(tmp) / "journal.sqlite")
        for attempt in range(tries):
            proc = subprocess.Popen([sys.executable, "-m", "workbench.rooms.bench", "--edited-child", journal,
                                     game, str(seed + attempt)], stdout=subprocess.PIPE, text=True, env=env)
            acked: dict[str, tuple[int, int, str]] = {}
            paused: set[str] = set()
            count = [0]

            def read(stream=proc.stdout):
                for line in stream:
                    parts = line.split()
                    if parts[0] == "ack":
                        acked[parts[1]] = (int(parts[2]), int(parts[3]), parts[4])
                        count[0] += 1
                    elif parts[0] == "paused":
                        paused.add(parts[1])
                    elif parts[0] == "saved":
                        out["saves"] += 1
                    elif parts[0] == "next":
                        out["next_games_on_edited_pool"] += 1
            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            wait_for = rng.randint(10, 150)
            deadline = time.monotonic() + 300
            while count[0] < wait_for and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            if proc.poll() is not None:
                out["children_failed"] += 1     # it stopped on its own: an error, not a kill
            else:
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(timeout=10)
            old = dict(os.environ)
            os.environ.update(env)
            os.environ.pop("WORKBENCH_NO_HISTORY", None)
            try:
                from workbench.core.cards import forget
                forget()
                hall = RoomHall(Journal(journal))
                back = {room.id: room for room in hall.resume()}
                # what each resumed game really plays, read with the scratch cards in force
                playing = {room_id: playing_version(room.game) for room_id, room in back.items()}
            finally:
                os.environ.clear()
                os.environ.update(old)
            out["rooms_not_resumed"] += len(hall.broken)
            for room_id, (number, moves, pool) in acked.items():
                room = back.get(room_id)
                out["acknowledged_moves_checked"] += moves
                pools.add(pool)
                if room is None or room.number < number:
                    out["moves_lost"] += moves
                elif room.number == number:
                    out["moves_lost"] += max(0, moves - len(room.moves))
                    if playing[room_id] != pool:
                        out["games_on_another_pool"] += 1
                        out.setdefault("mismatches", []).append(
                            {"try": attempt, "room": room_id, "game": number, "recorded": room.pool_version,
                             "acknowledged": pool, "playing": playing[room_id],
                             "injected": room.game.has_injected_cards})
            for room_id in paused:
                out["paused_checked"] += 1
                out["paused_lost"] += not (room_id in back and back[room_id].paused)
            hall.journal.close()
    out["pools_seen"] = len(pools)
    return out


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 5 and sys.argv[1] == "--edited-child":
        edited_child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
