"""``workbench simulate``: many bot games at once, with the design metrics."""

from __future__ import annotations

import sys

from .common import add_game_options, emit_json, game_setup


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report design metrics",
                       description="Play a batch of bot games (all cores, or a Dask cluster) and print "
                                   "the design metrics. Game i of the batch is seeded from --seed and i, "
                                   "so the result does not depend on the backend or the worker count.")
    p.add_argument("game", help="a registered game id (an unknown one is answered with the list)")
    p.add_argument("--games", type=int, required=True, help="number of games")
    add_game_options(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="processes in the pool (default: every core; 0 plays in this process; "
                            "more than the cores only with --many-workers)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS|local",
                       help="run on Dask: 'local' starts a LocalCluster, else tcp://host:port")
    p.add_argument("--many-workers", action="store_true",
                   help="allow --workers above the number of cores (up to 256), on purpose")
    p.add_argument("--out", default=None, metavar="FILE.parquet|FILE.csv",
                   help="write the per-game table there as games finish (players and cards beside it, "
                        "e.g. FILE.players.parquet); the format follows the suffix; missing folders on the "
                        "way are created")
    p.add_argument("--max-actions", type=int, default=20000, help="cut a game off after this many actions")
    p.add_argument("--ideal-rounds", default=None, metavar="LO-HI", help="target length for the Ideal Duration score")
    p.add_argument("--card-rows", type=int, default=10, help="card rows to print (default 10)")
    p.set_defaults(func=run)


def _ideal(text):
    from workbench.core.errors import WorkbenchError
    if not text:
        return None
    lo, sep, hi = text.partition("-")
    try:
        lo, hi = int(lo), int(hi)
    except ValueError:
        raise WorkbenchError(f"--ideal-rounds {text!r} must look like 8-12") from None
    if not sep or lo > hi or lo < 1:
        raise WorkbenchError(f"--ideal-rounds {text!r} must look like 8-12 (low first, from 1)")
    return lo, hi


def _fmt(value) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _print_roles(roles: list[dict], label: str) -> None:
    """Win rate by role (faction) with its 95 % interval, beside the fair rate."""
    rw = max(len(label), max(len(r["role"]) for r in roles))
    print(f"{label:<{rw}}  {'games':>5}  {'wins':>4}  win rate  95% interval    fair")
    for r in roles:
        print(f"{r['role']:<{rw}}  {r['player_games']:>5}  {r['wins']:>4}  {r['win_rate']:>8.3f}  "
              f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]  {r['fair']:.3f}")


def run(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.sim import SimSpec
    from workbench.sim.metrics import flatten
    from workbench.sim.sweep import SweepInterrupted, check_output, run_sweep

    from . import validate
    # every value is checked before a game is played or a worker started
    game = validate.game(args.game)
    validate.games(args.games)
    validate.workers(args.workers, many=args.many_workers)
    validate.scheduler(args.scheduler)
    validate.max_actions(args.max_actions)
    validate.out_path(args.out, "--out", (".parquet", ".csv"))
    if args.out:
        check_output(args.out)  # the three files' names too
    ideal = _ideal(args.ideal_rounds)
    validate.whole(args.card_rows, "--card-rows", 0, 100_000)
    players, seed, options, bots = game_setup(args, game, default_bots="random")
    game.new_initial_state(game.config(players or game.default_players,
                                       seed=seed, variants=args.variant, **options))
    spec = SimSpec(game=args.game, games=args.games, players=players, bots=bots,
                   seed=seed, variants=tuple(args.variant), options=options,
                   max_actions=args.max_actions)
    bar = None
    if sys.stderr.isatty() or not args.json:
        from tqdm import tqdm
        bar = tqdm(total=args.games, unit="game", file=sys.stderr, desc=args.game, leave=False,
                   disable=not sys.stderr.isatty())
    try:
        outcome = run_sweep(spec, args.out, workers=args.workers, scheduler=args.scheduler,
                            progress=bar.update if bar else None, ideal_rounds=ideal)
    except SweepInterrupted as exc:
        if bar is not None:
            bar.close()
        print(f"workbench simulate: {exc}", file=sys.stderr)
        return 130
    finally:
        if bar is not None:
            bar.close()
    result, written = outcome.result, outcome.written
    metrics = flatten(result.metrics())
    from workbench.core.versions import record_run
    # the run enters the pool's history against the version it played (none for a game without cards)
    record_run(game, None, "simulate",
               {"games": args.games, "players": players or game.default_players, "bots": spec.bots,
                "seed": spec.seed, "variants": list(spec.variants)}, metrics)
    cards = result.card_summary()
    roles = result.role_summary()
    if args.json:
        emit_json({
            "game": args.game, "games": args.games, "players": int(result.games["players"][0]),
            "bots": spec.bots, "seed": spec.seed, "variants": list(spec.variants),
            "backend": result.backend, "seconds": round(result.elapsed, 3),
            "games_per_second": round(args.games / result.elapsed, 1) if result.elapsed else None,
            "endings": dict(sorted(result.games["ending"].value_counts().rows())),
            "metrics": metrics,
            "roles": roles,
            "game_stats": result.game_stats_summary(),
            "cards": cards.head(args.card_rows).to_dicts(),
            "out": written,
        })
        return 0
    n_players = int(result.games["players"][0])
    print(f"{args.game}: {args.games} games, {n_players} players, bots {spec.bots}, seed {spec.seed}, "
          f"{result.backend} backend, {result.elapsed:.1f} s ({args.games / max(result.elapsed, 1e-9):.0f} games/s)")
    endings = ", ".join(f"{e} {c}" for e, c in sorted(result.games["ending"].value_counts().rows()))
    print(f"endings: {endings}")
    print()
    table = result.metrics_table()
    width = max(len(m) for m in table["metric"])
    print(f"{'metric':<{width}}  value")
    for label, value in table.rows():
        print(f"{label:<{width}}  {_fmt(value)}")
    if roles:
        print()
        _print_roles(roles, game.role_label or "role")
    stats = result.game_stats_summary()
    if stats:
        print()
        sw = max(len(k) for k in stats)
        print(f"{'game statistics (mean per game)':<{sw}}")
        for key, value in stats.items():
            print(f"{key:<{sw}}  {_fmt(value)}")
    if cards.height:
        print()
        cols = [c for c in ("card", "pick_rate", "mean_first_round", "win_rate_when_taken") if c in cards.columns]
        # then the game's own per-card figures, the ones with values first
        extra = [c for c in cards.columns if c.startswith("mean_") and c not in cols
                 and c not in ("mean_times", "mean_first_fraction")]
        extra.sort(key=lambda c: (c != "mean_contributors", cards[c].null_count()))
        extra = extra[:2]
        cols += extra
        shown = cards.select(cols).head(args.card_rows)
        cw = max(4, max(len(str(c)) for c in shown["card"]))
        print(f"{'card':<{cw}}  " + "  ".join(f"{c:>{max(len(c), 8)}}" for c in cols[1:]))
        for row in shown.rows():
            print(f"{row[0]:<{cw}}  " + "  ".join(f"{_fmt(v):>{max(len(c), 8)}}" for c, v in zip(cols[1:], row[1:])))
        if cards.height > args.card_rows:
            print(f"... {cards.height - args.card_rows} more cards (--card-rows N, or --out for every row)")
    for path in written:
        print(f"wrote {path}")
    return 0
