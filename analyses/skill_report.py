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
table shares one fate (``Game.group_fate``; Meaning Made: a collapsed world has
no winner) every seat plays the rung and the measure is survival; in
competitive play (Mandate, Pax) one seat plays the rung (rotated through every
seat) against a field of greedy bots and the measure is that seat's win rate,
against the fair share ``1/players``. The verdict column says whether the rung
beats the one below it with intervals apart, within noise, or not. Beside it,
from one more game per rung played in this process: milliseconds per decision
(decisions with a choice only) and how often the rung picks the move greedy
would have picked. ``LADDER_GAMES`` holds the ladders (game, variants, rungs,
players, games per rung); ``--ladder-game`` picks some by game id or label.

``--tune LADDER`` fits a greedy rung to a ladder's game by self-play
(:mod:`workbench.sim.tune`, Optuna, bounded by ``--trials``) on games seeded
from ``--tune-seed``, never the ladder's own, and prints its bot spec: the
tuned rung of a ladder is that spec, measured on the ladder's seeds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

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


#: the guided MCTS of the ladder (see workbench/core/mcts.py): 16 iterations,
#: PUCT over the mover's 6 best-rated actions with the softmax of their one-ply
#: ratings as prior, greedy playouts of 2 actions scored by ``Game.evaluate``.
#: An iteration count, not a time budget, so the table reproduces.
MCTS_RUNG = "mcts:16:prior=greedy:k=6:greedy:d=2"


class LadderSpec(NamedTuple):
    """One ladder: a game (with variants), its rungs, players and games per rung.
    (A NamedTuple, not a dataclass: the tests load this script without
    registering it as a module, which a dataclass needs.)"""

    game: str
    rungs: tuple[str, ...]
    players: int
    games: int
    variants: tuple[str, ...] = ()


#: the ladders of the skill report, by label. Games per rung: 48 (12 per seat
#: at 4 players), enough for 95% intervals to separate a rung that wins twice
#: the fair share from one that wins it.
LADDER_GAMES: dict[str, LadderSpec] = {
    # greedy survives about 95 % of two-player games: no rung above it can show
    # more with intervals apart (the report says so), hence the harder table below
    "meaning-made": LadderSpec("meaning-made", ("random", "greedy", MCTS_RUNG), 2, 48),
    # High Instability (Meaning starts at 4, two Events a round): greedy survives
    # about a quarter of two-player games, so there is room above it
    # with the skill dial's levels between random and greedy (workbench.core.skill):
    # how forgiving the table is for casual players
    "meaning-made+high-instability": LadderSpec("meaning-made", ("random", "skill:novice", "skill:casual",
                                                                 "skill:steady", "greedy", MCTS_RUNG), 2, 48,
                                                ("high-instability",)),
    "mandate-2038": LadderSpec("mandate-2038", ("random", "greedy", MCTS_RUNG), 4, 48),
    # 96 games (32 per seat): at 48 the rung read 0.44 [0.31, 0.58] against
    # greedy's 0.23 [0.13, 0.37], near apart; at 96 greedy's share came back
    # to about fair and the two stay within noise (docs/playtesting.md)
    "pax-transhumanity": LadderSpec("pax-transhumanity", ("random", "greedy", MCTS_RUNG), 3, 96),
}
FIELD = "greedy"
#: the master seed of ``--tune``'s games: not the ladder's (7, one batch a seat
#: from 7 on), so a tuned rung is measured on games it was not fitted to
TUNE_SEED = 1000


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound at 0 and at n)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def probe(game_id: str, rung: str, players: int, seed: int, variants=()) -> dict:
    """What one decision of ``rung`` costs and where it departs from greedy:
    one game in this process (the rung in seat 0, every seat in a group-fate
    game, greedy elsewhere), timing the rung's decisions with more than one
    legal action. ``agrees_with_greedy``: the share of them where the rung
    took a move the greedy bot rates best (one of its ties counts);
    ``iterations_per_root_action``: for MCTS, its iterations over the root
    actions it visited, averaged over the decisions."""
    import time

    from workbench.core.bots import make_bot
    from workbench.core.play import bot_rngs
    from workbench.core.registry import get_game
    from workbench.core.rng import derive_seed

    game = get_game(game_id)
    config = game.config(players, seed=derive_seed(seed, "probe"), variants=variants)
    coop = game.group_fate
    bots = [make_bot(rung) if coop or s == 0 else make_bot(FIELD) for s in range(players)]
    rngs = bot_rngs(config)
    state = game.new_initial_state(config)
    spent = decisions = agree = 0
    per_action: list[float] = []
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        bot = bots[seat]
        if (coop or seat == 0) and len(legal) > 1:
            start = time.perf_counter()
            action = bot.choose(game, state, rngs[seat])
            spent += time.perf_counter() - start
            decisions += 1
            values = game.action_values(state, seat, legal)
            agree += values[legal.index(action)] >= max(values) - 1e-12
            if getattr(bot, "last_root_actions", 0):
                per_action.append(bot.last_iterations / bot.last_root_actions)
        else:
            action = bot.choose(game, state, rngs[seat])
        state.apply_action(action)
    return {"ms_per_decision": 1000 * spent / decisions if decisions else 0.0,
            "agrees_with_greedy": agree / decisions if decisions else None,
            "iterations_per_root_action": sum(per_action) / len(per_action) if per_action else None}


def skill_ladder(game: str, rungs, players: int, games: int, seed: int, workers, log,
                 variants=(), label: str | None = None) -> list[dict]:
    """One row per rung: measure, value, interval, verdict against the rung below,
    milliseconds per decision and agreement with greedy (:func:`probe`)."""
    from workbench.core.registry import get_game
    from workbench.sim import SimSpec, simulate

    # an unknown game fails here, before any batch; a table that shares one
    # fate (Meaning Made: nobody wins a collapsed world) measures survival
    cooperative = get_game(game).group_fate
    variants = tuple(variants)
    rows = []
    for rung in rungs:
        if cooperative:
            res = simulate(SimSpec(game, games=games, players=players, seed=seed, bots=rung, trace=False,
                                   variants=variants), workers=workers)
            hits, n = float(res.games["completed"].sum()), res.games.height
            measure, fair = "survival (every seat this bot)", None
        else:
            hits = n = 0
            per_seat = max(1, games // players)
            for seat in range(players):
                res = simulate(SimSpec(game, games=per_seat, players=players, seed=seed + seat,
                                       bots=seat_specs(rung, FIELD, seat, players), trace=False,
                                       variants=variants), workers=workers)
                won = res.players.filter(res.players["seat"] == seat)
                hits += float(won["won"].sum())
                n += won.height
            measure, fair = f"win rate, one seat vs {FIELD} field", 1.0 / players
        lo, hi = wilson(hits, n)
        cost = probe(game, rung, players, seed, variants)
        rows.append({"ladder": label or game, "game": game, "variants": "+".join(variants), "players": players,
                     "rung": rung, "measure": measure, "games": n, "wins": hits,
                     "value": hits / n if n else None, "ci_low": lo, "ci_high": hi, "fair": fair, **cost})
        log(f"  {label or game} {rung:<14} {rows[-1]['value']:.2f} [{lo:.2f}, {hi:.2f}] over {n} games, "
            f"{cost['ms_per_decision']:.1f} ms per decision")
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


def tune_rung(args) -> int:
    """``--tune``: fit a greedy bot's weights to a ladder's game by self-play
    (:func:`workbench.sim.tune.tune`: one seat of the candidate against greedy
    bots, or every seat in a group-fate game) on ``--tune-seed`` games, never the
    ladder's own seeds, and print the bot spec a ladder rung can name. Bounded by
    trials, not by time, so the same command gives the same spec on any machine."""
    from workbench.core.errors import WorkbenchError
    from workbench.sim.tune import tune

    spec = LADDER_GAMES.get(args.tune)
    if spec is None:
        print(f"error: no ladder {args.tune!r}; choose from {', '.join(LADDER_GAMES)}", file=sys.stderr)
        return 1
    if args.trials < 1 or (args.games is not None and args.games < spec.players):
        print(f"error: --tune needs --trials >= 1 and --games >= {spec.players}", file=sys.stderr)
        return 1
    # a batch's games are seeded from its master seed (seed + seat, a seat per batch): two
    # master seeds closer than the seat count would share batches with the ladder
    if abs(args.tune_seed - args.seed) < spec.players:
        print(f"error: --tune-seed {args.tune_seed} shares games with the ladder's seed {args.seed}: "
              "tune on games the ladder does not play", file=sys.stderr)
        return 1
    try:
        t = tune(spec.game, players=spec.players, pool_key=f"ladder:{args.tune}", trials=args.trials,
                 games=args.games or spec.games, seed=args.tune_seed, seconds=None, keys=args.tune_keys,
                 workers=args.workers, variants=spec.variants)
    except WorkbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"tuned over {t.trials} trials of {t.games} games (seed {args.tune_seed}), {t.seconds:.0f} s: "
          f"best {t.score:.3f}, plain greedy {t.baseline:.3f}")
    print("trial scores: " + " ".join(f"{v:.3f}" for v in t.history))
    print(t.bot)
    return 0


def ladder_markdown(rows: list[dict]) -> str:
    out = ["| game | players | bot | measure | games | value [95% CI] | ms / decision | greedy's best move | "
           "iterations per root action | verdict |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        fair = f" (fair {r['fair']:.2f})" if r["fair"] else ""
        game = f"{r['game']} ({r['variants']})" if r.get("variants") else r["game"]
        agree = r.get("agrees_with_greedy")
        agree = "" if agree is None else f"{agree:.0%}"
        per = r.get("iterations_per_root_action")
        per = "" if per is None else f"{per:.1f}"
        out.append(f"| {game} | {r['players']} | `{r['rung']}` | {r['measure']}{fair} | {r['games']} | "
                   f"{r['value']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}] | {r['ms_per_decision']:.1f} | "
                   f"{agree} | {per} | {r['verdict']} |")
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
    p.add_argument("--ladder-game", action="append", default=None,
                   help="limit --ladder to this game id or ladder label (repeatable), e.g. "
                        "meaning-made+high-instability")
    p.add_argument("--rungs", type=lambda text: tuple(r.strip() for r in text.split(",") if r.strip()),
                   default=None, help="with --ladder: these rungs instead of the ladder's, comma-separated, "
                                      "bottom first, e.g. greedy,mcts:32:prior=greedy:k=3:greedy:d=2")
    p.add_argument("--tune", metavar="LADDER", default=None,
                   help="tune a greedy rung for this ladder by self-play (workbench.sim.tune) on seeds "
                        "away from the ladder's and print its bot spec; --games games a trial")
    p.add_argument("--tune-keys", type=lambda text: [k.strip() for k in text.split(",") if k.strip()],
                   default=None, help="with --tune: the weights to move (default every nonzero weight)")
    p.add_argument("--trials", type=int, default=16, help="with --tune: Optuna trials (trial 0 is greedy)")
    p.add_argument("--tune-seed", type=int, default=TUNE_SEED, help="with --tune: the tuning games' seed")
    args = p.parse_args(argv)
    if args.tune:
        return tune_rung(args)
    if args.ladder:
        import polars as pl
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        rows = []
        wanted = args.ladder_game
        unknown = [g for g in wanted or () if g not in LADDER_GAMES and
                   g not in {spec.game for spec in LADDER_GAMES.values()}]
        if unknown:
            print(f"error: no ladder for {', '.join(unknown)}; choose from {', '.join(LADDER_GAMES)}",
                  file=sys.stderr)
            return 1
        if args.rungs:
            from workbench.core.bots import make_bot
            from workbench.core.errors import WorkbenchError
            try:
                for rung in args.rungs:
                    make_bot(rung)
            except WorkbenchError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
        for label, spec in LADDER_GAMES.items():
            if wanted and label not in wanted and spec.game not in wanted:
                continue
            rungs, games = args.rungs or spec.rungs, args.games or spec.games
            if args.quick:
                rungs, games = ("random", "greedy", "mcts:4:prior=greedy:k=3:greedy:d=2"), spec.players
            rows += skill_ladder(spec.game, rungs, spec.players, games, args.seed, args.workers,
                                 lambda t: print(t, file=sys.stderr, flush=True), spec.variants, label)
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
