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

``--ladder`` writes the skill ladder of every game instead (``skill_ladder.csv``
and a Markdown table on stdout): for each rung (random, greedy, MCTS) the
measure that shows skill in that game, with a 95% Wilson interval. Where the
table shares one fate (Meaning Made: a collapsed world has no winner) every seat plays the rung and the measure is
survival; in competitive play (Mandate, Pax) one seat plays the rung (rotated through every
seat) against a field of greedy bots and the measure is that seat's win rate,
against the fair share ``1/players``. The verdict column says whether the rung
beats the one below it with intervals apart, within noise, or not.
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


#: the ladder of the skill report per game: rungs, players, games per rung.
#: MCTS uses an iteration count (not a time budget) so the table reproduces;
#: its playouts stop after a few actions and score the leaf with the game's
#: evaluation, which keeps a long game affordable on a loaded 2-core machine.
LADDER_GAMES = {
    # Meaning Made: random playouts waste the shared Support, so their leaves
    # all look doomed and the search learns nothing (mcts:16:d=4 survived 0 of
    # 20); a greedy step per playout keeps the leaves informative, and 48
    # iterations visit each root action several times (16 with two greedy
    # steps survived 70 % against greedy's 80 %)
    "meaning-made": (["random", "greedy", "mcts:48:greedy:d=1"], 2, 20),
    "mandate-2038": (["random", "greedy", "mcts:16:d=4"], 4, 12),
    "pax-transhumanity": (["random", "greedy", "mcts:16:d=4"], 3, 9),
}
#: games whose table shares one fate (Meaning Made: nobody wins a collapsed
#: world), where the ladder measures survival with every seat the same bot
GROUP_FATE = {"meaning-made"}
FIELD = "greedy"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound at 0 and at n)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def skill_ladder(game: str, rungs, players: int, games: int, seed: int, workers, log) -> list[dict]:
    """One row per rung: measure, value, interval, verdict against the rung below."""
    from workbench.core.registry import get_game
    from workbench.sim import SimSpec, simulate

    get_game(game)  # an unknown game fails here, before any batch
    cooperative = game in GROUP_FATE
    rows = []
    for rung in rungs:
        if cooperative:
            res = simulate(SimSpec(game, games=games, players=players, seed=seed, bots=rung, trace=False),
                           workers=workers)
            hits, n = float(res.games["completed"].sum()), res.games.height
            measure, fair = "survival (every seat this bot)", None
        else:
            hits = n = 0
            per_seat = max(1, games // players)
            for seat in range(players):
                res = simulate(SimSpec(game, games=per_seat, players=players, seed=seed + seat,
                                       bots=seat_specs(rung, FIELD, seat, players), trace=False), workers=workers)
                won = res.players.filter(res.players["seat"] == seat)
                hits += float(won["won"].sum())
                n += won.height
            measure, fair = f"win rate, one seat vs {FIELD} field", 1.0 / players
        lo, hi = wilson(hits, n)
        rows.append({"game": game, "players": players, "rung": rung, "measure": measure, "games": n,
                     "value": hits / n if n else None, "ci_low": lo, "ci_high": hi, "fair": fair})
        log(f"  {game} {rung:<14} {rows[-1]['value']:.2f} [{lo:.2f}, {hi:.2f}] over {n} games")
    for below, row in zip(rows, rows[1:]):
        if row["ci_low"] > below["ci_high"]:
            row["verdict"] = f"stronger than {below['rung']}"
        elif row["value"] > below["value"]:
            row["verdict"] = f"above {below['rung']}, within noise"
        elif row["value"] == below["value"]:
            row["verdict"] = f"level with {below['rung']}"
        else:
            row["verdict"] = f"NOT stronger than {below['rung']}"
    rows[0]["verdict"] = "bottom rung"
    return rows


def ladder_markdown(rows: list[dict]) -> str:
    out = ["| game | players | bot | measure | games | value [95% CI] | verdict |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        fair = f" (fair {r['fair']:.2f})" if r["fair"] else ""
        out.append(f"| {r['game']} | {r['players']} | `{r['rung']}` | {r['measure']}{fair} | {r['games']} | "
                   f"{r['value']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}] | {r['verdict']} |")
    return "\n".join(out)


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
    p.add_argument("--ladder", action="store_true",
                   help="the skill ladder of every game (or of --game when given with --ladder-game)")
    p.add_argument("--ladder-game", action="append", default=None, help="limit --ladder to these games")
    args = p.parse_args(argv)
    if args.ladder:
        import polars as pl
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        rows = []
        for game in args.ladder_game or list(LADDER_GAMES):
            rungs, players, games = LADDER_GAMES[game]
            if args.games:
                games = args.games
            if args.quick:
                rungs, games = ["random", "greedy", "mcts:4:d=2"], players
            rows += skill_ladder(game, rungs, players, games, args.seed, args.workers,
                           lambda t: print(t, file=sys.stderr, flush=True))
        pl.DataFrame(rows).write_csv(out / "skill_ladder.csv")
        print(ladder_markdown(rows))
        print(f"wrote {out}/skill_ladder.csv")
        return 0
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
