"""A probe bound by games, not by the clock: is a planted card's signal there
for ``workbench hunt`` to find, whatever the machine's load?

Plays ``--games`` baseline games (the base bot at every seat) of the edited
pool and of the unchanged pool on the same seeds, and the ``ban:CARD`` arm of
the edited pool paired with its baseline, through the hunt's own machinery
(:class:`workbench.hunt.games.Played`, the same per-game values its questions
read). Prints, for CARD on each pool: the games that took it, the takers' win
edge and score edge (score spreads of the edited pool's baseline), the
ban-costs value, each with its standard error, its interval at the hunt's
confirm level (``--level``, the hunt's default 0.9975) and the hunt's margin,
and the seconds per game. No clock bound: it ends when its games are played.
With no ``--edit`` it plays the bundled pool once: a check of one finding of a
hunt on fresh seeds (``--seed`` one the hunt never used), as a larger run
would check it.

Run: ``.venv/bin/python analyses/hunt_probe.py --game pax-transhumanity --players 3
--card "Telomere Reset" --edit "Telomere Reset.effects=growth; solve any; solve any; solve any; solve any"
--games 24 --seed 101 --workers 1``
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


LEVEL = 0.9975


def _se(x: np.ndarray) -> str:
    from workbench.sim.intervals import mean
    if len(x) == 0:
        return "no games"
    se = float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():+.3f} (se {se:.3f}, {len(x)} games; interval {mean(x, LEVEL).text(3)} at {LEVEL})"


def main() -> None:
    from workbench.hunt import MARGINS
    from workbench.hunt.games import Played, values
    from workbench.hunt.space import BASELINE, Arm
    from workbench.sim.backends import resolve_backend
    from workbench.tweak import open_session

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--card", required=True)
    p.add_argument("--edit", action="append", default=[], help="CARD.FIELD=VALUE, as compare --edit")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--games", type=int, default=24)
    p.add_argument("--seed", type=int, default=101)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--bots", default="greedy")
    p.add_argument("--level", type=float, default=LEVEL)
    args = p.parse_args()
    globals()["LEVEL"] = args.level

    session = open_session(args.game)
    session.analysing = False
    for e in args.edit:
        target, _, value = e.partition("=")
        card, _, column = target.rpartition(".")
        session.edit(card, column, value)
    edited = session.pool_refs()[1] if args.edit else args.game
    backend = resolve_backend(None, args.workers, None, 2)
    n = -(-args.games // (args.players or 1)) * (args.players or 1)
    baseline = Arm(BASELINE, None, BASELINE)
    ban = Arm(f"ban:{args.card}", f"ban:{args.card}", "card", args.card)
    runs = [("edited", edited, [baseline, ban]), ("unchanged", args.game, [baseline])]
    for label, ref, arms in runs if args.edit else [("bundled", args.game, [baseline, ban])]:
        from workbench.sim.runner import resolve_game
        players = args.players or resolve_game(ref).default_players
        played = Played(ref, players, args.bots, args.seed)
        start = time.perf_counter()
        played.play([(baseline, "screen", n)], backend=backend, workers=args.workers)
        scale = played.fix_score_scale()
        if len(arms) > 1:
            played.play([(a, "screen", n) for a in arms[1:]], backend=backend, workers=args.workers)
        took = time.perf_counter() - start
        print(f"{label} pool ({played.games} games, {took / max(played.games, 1):.1f} s a game, "
              f"score spread {scale}):")
        for kind in ("taker-wins", "taker-scores"):
            print(f"  {kind} (margin {MARGINS[kind]}): {_se(values(played, 'screen', kind, BASELINE, args.card))}")
        if len(arms) > 1:
            print(f"  ban-costs (margin {MARGINS['ban-costs']}): "
                  f"{_se(values(played, 'screen', 'ban-costs', ban.key, args.card))}")
            print(f"  beats-field of ban (margin {MARGINS['beats-field']}): "
                  f"{_se(values(played, 'screen', 'beats-field', ban.key, ban.key))}")
        print(f"  timeouts: {_se(values(played, 'screen', 'timeouts', BASELINE, 'all seats'))}", flush=True)


if __name__ == "__main__":
    main()
