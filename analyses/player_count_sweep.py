"""Player-count sweep: how the design metrics move from 1 to 6 players.

For each player count the same bots play the same number of seeded games;
the script writes, to ``analyses/out/``:

* ``player_count_sweep.csv`` / ``.parquet``: one row per player count with every
  registered design metric (see ``workbench/sim/metrics.py``: completion, i.e.
  Meaning Made's survival rate, collapse, timeout, balance, duration, drama,
  decision moves, branching factor ...) and the seconds the batch took;
* ``player_count_cards.parquet``: the card summary per player count (pick
  rate, how early, win rate when taken, the game's own per-card figures);
* ``player_count_sweep.html``: survival / collapse, duration and balance plotted
  against the player count (bokeh), and ``.png``, a snapshot of it (headless
  Chromium; skipped with a note when there is none, or with ``--no-png``).

Run: ``.venv/bin/python analyses/player_count_sweep.py [--game meaning-made]
[--bots greedy] [--games 200] [--quick]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for snapshot.py beside this script


def sweep(game: str, counts, games: int, bots: str, seed: int, workers, log):
    import polars as pl
    from workbench.sim import SimSpec, simulate
    from workbench.sim.metrics import flatten

    rows, cards = [], []
    for n in counts:
        res = simulate(SimSpec(game, games=games, players=n, bots=bots, seed=seed), workers=workers)
        metrics = flatten(res.metrics())
        # per-seat advantage columns differ by player count; the largest gap is in balance
        row = {"players": n, "games": games, "seconds": round(res.elapsed, 2),
               **{k: v for k, v in metrics.items() if not k.startswith("seat_advantage")}}
        rows.append(row)
        summary = res.card_summary()
        if summary.height:
            cards.append(summary.with_columns(pl.lit(n).alias("players")))
        log(f"  {n} players: completion {metrics['completion']:.2f}, no winner {metrics['no_winner']:.2f}, "
            f"{metrics['duration_rounds']:.1f} rounds, {res.elapsed:.1f} s")
    table = pl.DataFrame(rows, infer_schema_length=None)
    card_table = pl.concat(cards, how="diagonal_relaxed") if cards else pl.DataFrame()
    return table, card_table


def plot(table, path: Path, title: str) -> None:
    from bokeh.io import save
    from bokeh.layouts import gridplot
    from bokeh.plotting import figure
    from bokeh.resources import INLINE

    x = table["players"].to_list()
    plots = []
    for keys, label in ((("completion", "no_winner", "timeout"), "share of games"),
                        (("duration_rounds",), "rounds"),
                        (("balance", "drama", "lead_change"), "score (0-1)")):
        fig = figure(title=", ".join(keys), width=420, height=300, x_axis_label="players",
                     y_axis_label=label, tools="hover,save")
        colours = ["#1b9e77", "#d95f02", "#7570b3"]
        for key, colour in zip(keys, colours):
            y = [v if v is not None else float("nan") for v in table[key].to_list()]
            fig.line(x, y, legend_label=key, line_width=2, color=colour)
            fig.scatter(x, y, size=7, color=colour)
        fig.legend.location = "top_left"
        plots.append(fig)
    from bokeh.layouts import column
    from bokeh.models import Div
    page = column(Div(text=f"<h3>Player-count sweep: {title}</h3>"), gridplot(plots, ncols=3))
    save(page, filename=str(path), resources=INLINE, title=title)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="meaning-made")
    p.add_argument("--bots", default="greedy")
    p.add_argument("--games", type=int, default=None, help="games per player count (default 200; quick 6)")
    p.add_argument("--min-players", type=int, default=1)
    p.add_argument("--max-players", type=int, default=6)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--quick", action="store_true", help="a handful of games per count: a smoke run")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--no-png", action="store_true", help="skip the PNG snapshot of the HTML page")
    args = p.parse_args(argv)
    games = args.games or (6 if args.quick else 200)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def log(text):
        print(text, file=sys.stderr, flush=True)

    counts = range(args.min_players, args.max_players + 1)
    log(f"player-count sweep: {args.game}, {games} games per count, bots {args.bots}")
    table, cards = sweep(args.game, counts, games, args.bots, args.seed, args.workers, log)
    table.write_csv(out / "player_count_sweep.csv")
    table.write_parquet(out / "player_count_sweep.parquet")
    if cards.height:
        cards.write_parquet(out / "player_count_cards.parquet")
    plot(table, out / "player_count_sweep.html", f"{args.game}, bots {args.bots}")
    if not args.no_png:
        from snapshot import html_to_png
        skipped = html_to_png(out / "player_count_sweep.html", out / "player_count_sweep.png")
        log(f"PNG skipped: {skipped}" if skipped else f"wrote {out}/player_count_sweep.png")
    print(table.select("players", "games", "completion", "no_winner", "timeout", "balance",
                       "duration_rounds", "duration_actions", "branching_factor", "seconds"))
    print(f"wrote {out}/player_count_sweep.csv (+ .parquet), player_count_cards.parquet, player_count_sweep.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
