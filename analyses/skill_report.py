"""Skill report: does a stronger bot do better, and by how much?

Plays every bot of a ladder (random, greedy, MCTS at two budgets) against every
other on the same seeds and writes, to ``analyses/out/``:

* ``skill_matrix.csv`` / ``.parquet``: one row per (focal bot, field bot): the
  focal bot sits in one seat (rotating through every seat so no seat is
  favoured) and the field bot fills the others; ``focal_win_rate`` is the
  share of games the focal seat wins, ``field_win_rate`` the mean win rate of
  one field seat, ``edge`` their difference. A ladder where edges grow with
  budget means skill matters.
* ``skill_pools.csv`` / ``.parquet``: every seat the same bot: completion (for
  Meaning Made the survival rate), mean score, duration. For a cooperative
  game this is where skill shows: do better players save the world more often?
* ``skill_report.html``: both as bokeh plots, and ``skill_report.png``, a
  snapshot of it (headless Chromium; skipped with a note when there is none,
  or with ``--no-png``).

Run: ``.venv/bin/python analyses/skill_report.py [--game meaning-made] [--quick]``.
All games are seeded (``--seed``), so a rerun gives the same tables.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for snapshot.py beside this script

#: the ladder: MCTS cut its playouts after a few actions and scores the
#: position with the game's evaluation, so a long game stays affordable
LADDER = ["random", "greedy", "mcts:8:d=4", "mcts:24:d=4"]


def seat_specs(focal: str, field: str, seat: int, players: int) -> str:
    specs = [field] * players
    specs[seat] = focal
    return ",".join(specs)


def skill_matrix(game: str, players: int, games: int, seed: int, ladder, workers, log):
    import polars as pl
    from workbench.sim import SimSpec, simulate

    rows = []
    per_seat = max(1, games // players)
    for focal in ladder:
        for field in ladder:
            wins = field_wins = played = 0
            for seat in range(players):
                spec = SimSpec(game, games=per_seat, players=players, seed=seed,
                               bots=seat_specs(focal, field, seat, players))
                res = simulate(spec, workers=workers)
                won = res.players.pivot(on="seat", index="index", values="won")
                wins += int(won[str(seat)].sum())
                field_wins += sum(int(won[str(s)].sum()) for s in range(players) if s != seat)
                played += res.games.height
            focal_rate = wins / played
            field_rate = field_wins / (played * (players - 1)) if players > 1 else 0.0
            rows.append({"focal": focal, "field": field, "games": played, "focal_win_rate": focal_rate,
                         "field_win_rate": field_rate, "edge": focal_rate - field_rate})
            log(f"  {focal:>12} vs {field:<12} focal wins {focal_rate:.2f}, field seat {field_rate:.2f}")
    return pl.DataFrame(rows)


def skill_pools(game: str, players: int, games: int, seed: int, ladder, workers, log):
    import polars as pl
    from workbench.sim import SimSpec, simulate

    rows = []
    for bot in ladder:
        res = simulate(SimSpec(game, games=games, players=players, seed=seed, bots=bot), workers=workers)
        m = res.metrics()
        rows.append({"bot": bot, "games": games, "completion": m["completion"], "no_winner": m["no_winner"],
                     "timeout": m["timeout"], "mean_score": float(res.players["score"].mean()),
                     "duration_rounds": m["duration_rounds"], "seconds": round(res.elapsed, 2)})
        log(f"  all {bot:<12} completion {m['completion']:.2f}, mean score {rows[-1]['mean_score']:.2f}")
    return pl.DataFrame(rows)


def plot(matrix, pools, path: Path, title: str) -> None:
    from bokeh.io import save
    from bokeh.layouts import column
    from bokeh.models import ColumnDataSource, LinearColorMapper
    from bokeh.palettes import RdBu11
    from bokeh.plotting import figure
    from bokeh.resources import INLINE

    ladder = list(dict.fromkeys(matrix["focal"].to_list()))
    src = ColumnDataSource(dict(focal=matrix["focal"].to_list(), field=matrix["field"].to_list(),
                                edge=matrix["edge"].to_list(),
                                label=[f"{e:+.2f}" for e in matrix["edge"].to_list()]))
    heat = figure(title=f"{title}: focal seat's win-rate edge over a field seat", x_range=ladder,
                  y_range=list(reversed(ladder)), width=560, height=460, tools="hover,save",
                  tooltips=[("focal", "@focal"), ("field", "@field"), ("edge", "@label")],
                  x_axis_label="field bots (other seats)", y_axis_label="focal bot (one seat)")
    mapper = LinearColorMapper(palette=list(reversed(RdBu11)), low=-1, high=1)
    heat.rect(x="field", y="focal", width=1, height=1, source=src,
              fill_color={"field": "edge", "transform": mapper}, line_color="white")
    heat.text(x="field", y="focal", text="label", source=src, text_align="center", text_baseline="middle")
    bars = figure(title=f"{title}: every seat the same bot", x_range=pools["bot"].to_list(), width=560,
                  height=320, y_range=(0, 1), y_axis_label="completion (survival) rate", tools="save")
    bars.vbar(x=pools["bot"].to_list(), top=pools["completion"].to_list(), width=0.6)
    save(column(heat, bars), filename=str(path), resources=INLINE, title=title)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="meaning-made")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=None, help="games per matrix cell and per pool")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=None, help="pool processes (default every core)")
    p.add_argument("--quick", action="store_true", help="few games and cheap bots: a smoke run")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--no-png", action="store_true", help="skip the PNG snapshot of the HTML page")
    args = p.parse_args(argv)
    ladder = ["random", "greedy", "mcts:4:d=3", "mcts:12:d=3"] if args.quick else LADDER
    games = args.games or (args.players if args.quick else 12)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def log(text):
        print(text, file=sys.stderr, flush=True)

    log(f"skill matrix: {args.game}, {args.players} players, {games} games per cell")
    matrix = skill_matrix(args.game, args.players, games, args.seed, ladder, args.workers, log)
    log("every seat the same bot")
    pools = skill_pools(args.game, args.players, games, args.seed, ladder, args.workers, log)
    for name, table in (("skill_matrix", matrix), ("skill_pools", pools)):
        table.write_csv(out / f"{name}.csv")
        table.write_parquet(out / f"{name}.parquet")
    plot(matrix, pools, out / "skill_report.html", f"{args.game}, {args.players} players")
    if not args.no_png:
        from snapshot import html_to_png
        skipped = html_to_png(out / "skill_report.html", out / "skill_report.png")
        log(f"PNG skipped: {skipped}" if skipped else f"wrote {out}/skill_report.png")
    print(matrix)
    print(pools)
    print(f"wrote {out}/skill_matrix.csv, skill_pools.csv (+ .parquet) and skill_report.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
