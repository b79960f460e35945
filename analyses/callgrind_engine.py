"""Instructions per action of the bench's random-play loop, counted by callgrind:
a load-independent stand-in for ``workbench bench --only engine`` (issue 30).

For each game, the loop of ``bench.random_play_rate`` (the bench's rng, fixed
seeds 0..N-1, setup counted) runs under ``valgrind --tool=callgrind`` for 1 game
and for N+1 games; the difference divided by the difference in actions is the
cost of an action with start-up and card loading taken out. OpenSpiel's
``python_tic_tac_toe`` goes through the same loop (1 game and 2,001 games), and
the ratio is its instructions per action over the game's: the engine target is
4x. Needs valgrind; ``PYTHONHASHSEED=0`` keeps the count repeatable.

    python analyses/callgrind_engine.py [--games 30] [GAME ...]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys


def _play(what: str, games: int) -> int:
    """The bench's own random-play loop (``bench.random_play_rate``) for exactly
    ``games`` fixed-seed games of ``what`` (a game id, or ``tic-tac-toe`` for
    OpenSpiel's); the actions played."""
    from workbench.bench import openspiel_new_state, random_play_rate
    if what == "tic-tac-toe":
        new_state = openspiel_new_state()
        if new_state is None:
            raise SystemExit("OpenSpiel is not installed")
    else:
        from workbench.sim.runner import resolve_game
        game = resolve_game(what)
        new_state = lambda i: game.new_initial_state(game.config(game.default_players, seed=i))  # noqa: E731
    return random_play_rate(new_state, games_to_play=games)[1]


def _count(what: str, games: int) -> tuple[int, int]:
    """``(instructions, actions)`` of one run under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, __file__, "--run", what, str(games)],
                         capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", out.stderr)
    actions = re.search(r"^actions (\d+)$", out.stdout, re.M)
    if not found or not actions:
        raise SystemExit(f"callgrind run of {what} failed:\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(actions.group(1))


def per_action(what: str, games: int) -> tuple[float, int]:
    i1, a1 = _count(what, 1)
    i2, a2 = _count(what, games + 1)
    return (i2 - i1) / (a2 - a1), a2 - a1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--run", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("game", nargs="*", default=["meaning-made", "mandate-2038", "pax-transhumanity"])
    a = ap.parse_args()
    if a.run:
        what, n = a.run[0], int(a.run[1])
        print("actions", _play(what, n))
        return
    from workbench import native
    print(f"build: {native.status}")
    ref, ref_actions = per_action("tic-tac-toe", 2000)
    print(f"OpenSpiel python_tic_tac_toe: {ref / 1000:.1f} k instructions an action ({ref_actions:,} actions)")
    for game_id in a.game:
        cost, actions = per_action(game_id, a.games)
        print(f"{game_id}: {cost / 1000:.1f} k instructions an action ({actions:,} actions in {a.games} games), "
              f"{ref / cost:.2f}x tic-tac-toe")


if __name__ == "__main__":
    main()
