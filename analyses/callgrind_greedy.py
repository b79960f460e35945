"""Instructions per greedy game, counted by callgrind inside the games only: the
load-independent figure of issue 47 (greedy play in every game about as cheap as
in the reference game), and the same-run ratio to the reference game.

Each game runs in a child process under ``valgrind --tool=callgrind`` that plays
one untimed warm-up game (card data, first imports, a process's once-only
tables such as a Training run's exact odds), then greedy bots in every seat on
the fixed seeds asked for, at the game's default player count. Only the played
games are counted: the child plays them inside ``functools.reduce`` (a C
function callgrind can name) and callgrind collects only inside it
(``--collect-atstart=no --toggle-collect=functools_reduce``), so start-up and
warm-up are out of the count. ``PYTHONHASHSEED=0`` keeps the count repeatable;
machine load changes how long this takes, never the count.

    python analyses/callgrind_greedy.py [--seeds 0,1] [GAME ...]

Prints, per game, instructions per game and per action, and the ratio of the
reference game's instructions per game to this game's (what games per second
would be in the same run, on one core, if time followed instructions).
"""

from __future__ import annotations

import argparse
import functools
import sys


def _reference_and_games() -> tuple[str | None, list[str]]:
    """The game with its own greedy target (``Game.bench_greedy_target``, what
    the others are measured against) and every installed game, in listing order."""
    from workbench.core import registry
    games = registry.load_all()
    reference = next((gid for gid, g in games.items() if g.bench_greedy_target is not None), None)
    return reference, list(games)


def _play(what: str, seeds: list[int]) -> int:
    """The child's work: a warm-up game, then the seeds inside functools.reduce."""
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    from workbench.sim.runner import resolve_game
    game = resolve_game(what)
    n = game.default_players
    play_game(game, game.config(n, seed=10**6), make_bots("greedy", n))      # warm-up, not counted

    def one(actions: int, seed: int) -> int:
        _, log = play_game(game, game.config(n, seed=seed), make_bots("greedy", n))
        return actions + len(log)

    return functools.reduce(one, seeds, 0)


def count(what: str, seeds: list[int]) -> tuple[int, int]:
    """``(instructions, actions)`` of the counted games of ``what``."""
    from workbench.callgrind import collected
    try:
        return collected([__file__, "--child", what, ",".join(map(str, seeds))], what,
                         ("--collect-atstart=no", "--toggle-collect=functools_reduce"))
    except RuntimeError as err:
        raise SystemExit(str(err)) from None


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print("actions", _play(sys.argv[2], [int(s) for s in sys.argv[3].split(",")]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="0,1", help="comma-separated game seeds (default 0,1)")
    ap.add_argument("games", nargs="*", help="game ids (default: every bundled game)")
    args = ap.parse_args()
    reference, listed = _reference_and_games()
    args.games = args.games or listed
    seeds = [int(s) for s in args.seeds.split(",")]
    from workbench import native      # importing workbench chose the build
    print(f"build: {native.status}; seeds {seeds}; greedy bots in every seat, default players")
    per_game = {}
    for what in args.games:
        instructions, actions = count(what, seeds)
        per_game[what] = instructions / len(seeds)
        print(f"{what}: {per_game[what] / 1e6:,.1f} M instructions a game, "
              f"{instructions / max(actions, 1) / 1e3:,.1f} k an action ({len(seeds)} games, {actions} actions)",
              flush=True)
    if reference in per_game:
        for what, cost in per_game.items():
            if what != reference:
                print(f"{what}: {per_game[reference] / cost:.2f}x {reference}'s greedy games per instruction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
