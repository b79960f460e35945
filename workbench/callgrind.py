"""Instructions counted by valgrind's callgrind for the bench's own play loops:
the load-independent figures beside ``workbench bench``'s wall-clock ones.

A loop (random play, or greedy bots in every seat) runs in a child process
under ``valgrind --tool=callgrind`` once for ``1`` game and once for ``1 + n``
games on fixed seeds; the difference divided by ``n`` games (or by the
difference in actions) is the cost of a game (an action) with start-up, imports
and card loading taken out. ``PYTHONHASHSEED=0`` keeps the count repeatable.
Machine load changes the seconds a run takes, never its count: on a machine
shared with others this is the figure to compare builds and changes by.

    python -m workbench.callgrind greedy GAME [N]     # prints the per-game count
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

#: the loops a child process runs (``python -m workbench.bench --loop``):
#: ``random`` (``bench.random_play_rate``) and ``greedy`` (``bench.greedy_play_rate``)
LOOPS = ("random", "greedy")


def available() -> bool:
    """Whether valgrind is on PATH."""
    return shutil.which("valgrind") is not None


def collected(child: list[str], label: str, options: tuple[str, ...] = ()) -> tuple[int, int]:
    """``(instructions, actions)`` of the Python child ``child`` (its arguments
    after the interpreter) run under callgrind with ``options``; the child
    prints ``actions N`` on a line of its own."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *options,
                          sys.executable, *child], capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", out.stderr)
    actions = re.search(r"^actions (\d+)$", out.stdout, re.M)
    if not found or not actions:
        raise RuntimeError(f"callgrind run of {label} failed:\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(actions.group(1))


def count(loop: str, what: str, games: int) -> tuple[int, int]:
    """``(instructions, actions)`` of one child run of a bench loop under callgrind."""
    return collected(["-m", "workbench.bench", "--loop", loop, what, str(games)], f"{loop} {what}")


def per_game(loop: str, what: str, games: int) -> dict:
    """Instructions per game and per action of ``loop`` over ``games`` games
    (seeds 1..games; the run of seed 0 alone is taken off as start-up)."""
    i1, a1 = count(loop, what, 1)
    i2, a2 = count(loop, what, games + 1)
    return {"instructions_per_game": (i2 - i1) / games, "instructions_per_action": (i2 - i1) / max(a2 - a1, 1),
            "games": games, "actions": a2 - a1, "startup_instructions": i1}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) in (2, 3) and args[0] in LOOPS:
        r = per_game(args[0], args[1], int(args[2]) if len(args) == 3 else 4)
        print(f"{args[1]} {args[0]}: {r['instructions_per_game'] / 1e6:,.1f} M instructions a game, "
              f"{r['instructions_per_action'] / 1e3:,.1f} k an action ({r['games']} games, {r['actions']:,} actions)")
        return 0
    print("usage: python -m workbench.callgrind random|greedy GAME [N]", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
