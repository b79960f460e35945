"""Does one chatty person slow every room? (A benchmark, not a test.)

A real ``workbench serve``: 5 rooms x 4 people playing random legal moves (one
websocket client per seat), measured twice: alone, then while one seat of a sixth
room, open in 4 tabs, says 10 chat lines a second (its seat's limit) with long
lines. Prints the delay of a move reaching every seat of its room (median, p95)
in both runs and the change of the median, and the server's memory after each
cycle of opening, playing and closing the rooms (workbench.rooms.bench.latency).

Run::

    .venv/bin/python analyses/rooms_chat_load.py [MOVES] [CYCLES]

Say the machine's load (``uptime``) beside the figures: they are wall-clock.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.rooms.bench import latency  # noqa: E402

if __name__ == "__main__":
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    cycles = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    quiet = latency(rooms=5, seats=4, moves=moves, cycles=cycles)
    chatty = latency(rooms=5, seats=4, moves=moves, cycles=cycles, chatter=True)
    print(json.dumps({"load": os.getloadavg(), "quiet": quiet, "chatty": chatty,
                      "median_change": round(chatty["median_ms"] / quiet["median_ms"] - 1, 3)}))
