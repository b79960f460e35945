"""Pax Transhumanity seat report: who ends the game, who wins it, and how often
the score decides (issue 15).

For each player count, plays the same games ``workbench simulate
pax-transhumanity --seed S --bots B`` plays (game ``i`` seeded
``derive_seed(S, "game", i)``, the bots' streams as in every run) and prints a
Markdown table per player count:

* the issue's targets, read through the metrics of ``workbench/sim/metrics.py``
  (``tie_break_share``, ``decided_by_score``, ``timeout``, ``seat_gap``) with
  95% bootstrap intervals over games, and each seat's win rate with a 95%
  Wilson interval (fair: ``1 / players`` of the games with a winner);
* who ended each game (the seat whose action brought the ending, i.e. whose
  turn it was), by ending, and how often the ender won; for tied games whether
  the ender expected to lead alone by what it could see (rivals' Secret spheres
  estimated as the greedy bot does, :func:`evaluation.public_scores`).

A ``timeout`` (our safety stop, ruling ``round-limit``) has no winner: it is
left out of the tie-break share and counted as *not* decided by score.

``--focal SPEC`` measures strength instead: one seat plays ``SPEC``, the others
``--bots`` (the field); game ``i`` puts the focal bot in seat ``i mod players``,
so every seat gets it equally often. Printed: the focal seat's win rate with a
95% Wilson interval, a field seat's mean win rate, wins on points alone, and
mean final points of the focal seat and of a field seat.

Run (one process; ~1 minute per 100 two-player games on a loaded machine)::

    PYTHONPATH=. python analyses/pax_seats.py --players 2 3 4 --games 200 --seed 20261202
    PYTHONPATH=. python analyses/pax_seats.py --bots "greedy:turn_clock=0" ...   # the bot before the fix
    PYTHONPATH=. python analyses/pax_seats.py --focal greedy --bots "greedy:turn_clock=0" --games 240
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import numpy as np

from workbench.core.bots import make_bot, make_bots
from workbench.core.play import play_game
from workbench.core.registry import get_game
from workbench.core.rng import derive_seed
from workbench.games.pax_transhumanity import evaluation, scoring
from workbench.sim.metrics import MetricData, compute

METRICS = ("tie_break_share", "decided_by_score", "timeout", "seat_gap")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def play(players: int, games: int, seed: int, bots: str, options: dict) -> list[dict]:
    """One record per game: ending, ender seat, winners, scores, round."""
    game = get_game("pax-transhumanity")
    rows = []
    for i in range(games):
        config = game.config(players, seed=derive_seed(seed, "game", i), **options)
        state, _ = play_game(game, config, make_bots(bots, players))
        ended = state.ending not in (None, "timeout")
        pts = scoring.scores(state)
        rows.append({"ending": state.ending, "ender": state.turn if ended else None, "round": state.round,
                     "winners": scoring.winners(state), "scores": pts,
                     "estimate": evaluation.public_scores(state, state.turn) if ended else None})
    return rows


def strength(players: int, games: int, seed: int, focal: str, field: str) -> str:
    """One ``focal`` seat (rotated) against a ``field`` of the other spec."""
    game = get_game("pax-transhumanity")
    wins = field_wins = alone = timeouts = 0
    focal_points = field_points = 0.0
    for i in range(games):
        seat = i % players
        bots = [make_bot(focal if s == seat else field) for s in range(players)]
        config = game.config(players, seed=derive_seed(seed, "game", i))
        state, _ = play_game(game, config, bots)
        winners, pts = scoring.winners(state), scoring.scores(state)
        timeouts += state.ending == "timeout"
        wins += seat in winners
        field_wins += sum(1 for w in winners if w != seat)
        alone += winners == [seat] and sorted(pts)[-1] > sorted(pts)[-2]
        focal_points += pts[seat]
        field_points += (sum(pts) - pts[seat]) / (players - 1)
    lo, hi = wilson(wins, games)
    return (f"| {players} | {games} | {wins / games:.3f} [{lo:.3f}, {hi:.3f}] | "
            f"{field_wins / (players - 1) / games:.3f} | {alone} | {timeouts} | "
            f"{focal_points / games:.2f} / {field_points / games:.2f} |")


def metric_data(rows: list[dict], players: int) -> MetricData:
    won = np.zeros((len(rows), players))
    for g, r in enumerate(rows):
        won[g, r["winners"]] = 1.0
    timeout = np.array([r["ending"] == "timeout" for r in rows], dtype=float)
    cols = {"completed": won.sum(axis=1) > 0, "timeout": timeout,
            "n_winners": won.sum(axis=1), "players": np.full(len(rows), float(players))}
    cols = {k: np.asarray(v, dtype=float) for k, v in cols.items()}
    return MetricData(cols, won, scores=np.array([r["scores"] for r in rows], dtype=float))


def bootstrap(data: MetricData, key: str, seed: int, resamples: int = 1000) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    values = [compute(data.take(rng.integers(0, data.n, data.n)), key) for _ in range(resamples)]
    values = [v for v in values if v is not None]
    lo, hi = np.percentile(values, [2.5, 97.5])
    return float(lo), float(hi)


def report(rows: list[dict], players: int, seed: int) -> str:
    data = metric_data(rows, players)
    n = len(rows)
    lines = [f"### {players} players, {n} games", "", "| metric | value [95% CI] |", "| --- | --- |"]
    for key in METRICS:
        value = compute(data, key)
        lo, hi = bootstrap(data, key, seed)
        lines.append(f"| `{key}` | {value:.3f} [{lo:.3f}, {hi:.3f}] |")
    won_games = int((data.won.sum(axis=1) > 0).sum())
    rates = []
    for s in range(players):
        k = int(data.won[:, s].sum())
        lo, hi = wilson(k, n)
        rates.append(f"{k / n:.3f} [{lo:.2f}, {hi:.2f}]")
    lines.append(f"| seat win rates (fair {won_games / n / players:.3f}) | {'; '.join(rates)} |")
    ended = [r for r in rows if r["ender"] is not None]
    by_seat = Counter(r["ender"] for r in ended)
    lines.append(f"| games ended by seat 1..{players} | "
                 f"{', '.join(str(by_seat.get(s, 0)) for s in range(players))} (of {len(ended)}) |")
    lines.append(f"| ender among the winners | {sum(r['ender'] in r['winners'] for r in ended)} of {len(ended)} |")
    lines.append(f"| endings | {', '.join(f'{k} {v}' for k, v in Counter(r['ending'] for r in rows).most_common())} |")
    tied = [r for r in ended if r["winners"] and sorted(r["scores"])[-1] == sorted(r["scores"])[-2]]
    if tied:
        at_top = sum(r["scores"][r["ender"]] == max(r["scores"]) for r in tied)
        expected = sum(r["estimate"][r["ender"]] > max(e for s, e in enumerate(r["estimate"]) if s != r["ender"])
                       for r in tied)
        tops = Counter(int(max(r["scores"])) for r in tied)
        lines.append(f"| tied games: ender shares the top / expected to lead alone | "
                     f"{at_top} / {expected} of {len(tied)} |")
        lines.append(f"| tied games by top score | "
                     f"{', '.join(f'{k}: {v}' for k, v in sorted(tops.items()))} |")
    lines.append(f"| mean rounds | {np.mean([r['round'] for r in rows]):.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--focal", default=None, help="strength: this bot in one (rotated) seat, --bots elsewhere")
    args = ap.parse_args(argv)
    if args.focal:
        print(f"Pax Transhumanity strength: --focal {args.focal} against --bots {args.bots}, --seed {args.seed}")
        print()
        print("| players | games | focal seat win rate [95% Wilson] | field seat win rate | "
              "focal wins on points alone | timeouts | mean points focal / field |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for players in args.players:
            print(strength(players, args.games, args.seed, args.focal, args.bots), flush=True)
        return 0
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = int(value) if value.isdigit() else value
    print(f"Pax Transhumanity seat report: --bots {args.bots} --seed {args.seed} --games {args.games}"
          + "".join(f" --option {o}" for o in args.option))
    for players in args.players:
        print()
        print(report(play(players, args.games, args.seed, args.bots, options), players, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
