"""Does one chatty person slow every room, and is memory given back when rooms
close? (A benchmark, not a test: the lead runs it on a quiet machine.)

A real ``workbench serve``: 5 rooms x 4 people playing random legal moves (one
websocket client per seat), measured twice on fresh servers: alone, then while
one seat of a sixth room, open in 4 tabs, says 10 chat lines a second (its seat's
limit) with long lines. Each run opens, plays and closes the rooms ``CYCLES``
times (workbench.rooms.bench.latency). Prints, in plain lines and then as one
JSON line:

* the median (and p95) delay of a move reaching every seat of its room, alone;
* the same with the chatty seat, and the change of the median in %;
* the server's memory before any room opened and after each cycle's rooms closed,
  and its growth after the first cycle (flat: a few MB at most).

Run::

    .venv/bin/python analyses/rooms_chat_load.py [MOVES] [CYCLES]

The figures are wall-clock: the load (``os.getloadavg``) is printed beside them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.rooms.bench import latency  # noqa: E402


def main(moves: int = 30, cycles: int = 3) -> dict:
    before = os.getloadavg()
    quiet = latency(rooms=5, seats=4, moves=moves, cycles=cycles)
    chatty = latency(rooms=5, seats=4, moves=moves, cycles=cycles, chatter=True)
    change = chatty["median_ms"] / quiet["median_ms"] - 1
    result = {"load_before": before, "load_after": os.getloadavg(), "quiet": quiet, "chatty": chatty,
              "median_change": round(change, 3)}
    print(f"{quiet['game']}: 5 rooms x 4 seats, {moves} moves a room, {cycles} cycles of open-play-close; "
          f"load {before[0]:.1f} before, {result['load_after'][0]:.1f} after")
    print(f"move reaching every seat, median {quiet['median_ms']:.1f} ms (p95 {quiet['p95_ms']:.1f}, "
          f"{quiet['deliveries']} deliveries)")
    print(f"the same with one seat chatting at its limit in another room: median {chatty['median_ms']:.1f} ms "
          f"(p95 {chatty['p95_ms']:.1f}), change {change * 100:+.1f} %")
    for name, run in (("alone", quiet), ("with the chat", chatty)):
        rss = run["rss_mb_after_each_cycle"]
        print(f"server memory {name}: {rss[0]} MB before any room, after each cycle's rooms closed "
              f"{rss[1:]} MB; growth after the first cycle {run['rss_growth_mb_after_first_cycle']:+} MB")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
