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
    req = urllib.request.Request(base + "/playtest/api/rooms" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def start_server(journal: Path, port: int):
    # a benchmark leaves the card folder's history alone
    env = {**os.environ, "WORKBENCH_JOURNAL": str(journal), "BOKEH_LOG_LEVEL": "warn", "WORKBENCH_NO_HISTORY": "1"}
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


async def _play_rooms(base: str, game: str, rooms: int, seats: int, moves: int, seed: int) -> list[float]:
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

    tasks = [asyncio.ensure_future(seat_loop(o["room"], link.partition("#")[2]))
             for o in opened for link in o["links"].values()]
    try:
        await asyncio.wait_for(done.wait(), timeout=600)
    finally:
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
            seed: int = 1) -> dict:
    """Delays of a move reaching every seat, and the server's memory per cycle."""
    game = game or _first_game()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "journal.sqlite", _free_port())
        try:
            delays, memory = [], [_rss_mb(proc.pid)]
            for cycle in range(cycles):
                delays += asyncio.run(_play_rooms(base, game, rooms, seats, moves, seed + 100 * cycle))
                memory.append(_rss_mb(proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    delays.sort()
    return {"game": game, "rooms": rooms, "seats": seats, "moves_per_room": moves, "cycles": cycles,
            "deliveries": len(delays), "median_ms": statistics.median(delays),
            "p95_ms": delays[int(0.95 * (len(delays) - 1))], "max_ms": delays[-1],
            "rss_mb_after_each_cycle": [round(m, 1) for m in memory],
            "rss_growth_mb_after_first_cycle": round(memory[-1] - memory[1], 1)}


# -- kill -9 and resume ------------------------------------------------------------

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


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
