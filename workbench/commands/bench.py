"""``workbench bench``: how fast the engines and the batch machinery are.

One section per game (random play against OpenSpiel's tic-tac-toe, greedy
games/s, the paired playtest), then the batch figures (sweeps, scaling, Dask,
start-up) measured on the first game. Each figure is printed with its target
and whether it is met, or by how much it is missed. Figures are measurements
of this machine at this moment (the load average is reported with them); the
test suite never asserts them.
"""

from __future__ import annotations

from .common import emit_json

def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="measure engine and batch-simulation speed against targets",
                       description="Measure each game's engine (random play against OpenSpiel's tic-tac-toe, "
                                   "greedy games/s, the paired playtest), then batch sweeps on every core and "
                                   "on Dask and start-up time, each against its target.")
    p.add_argument("--game", action="append", default=[],
                   help="game to measure (repeatable; default: the three bundled games). The batch "
                        "figures use the first one")
    p.add_argument("--players", type=int, default=None,
                   help="players per game (default: each game's usual table, 4 / 4 / 3)")
    p.add_argument("--quick", action="store_true",
                   help="shorter slices, a tenth of each sweep (a fiftieth of the greedy one) and of the "
                        "paired playtest, extrapolated, said so beside each figure; no callgrind count")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="run only these figures: engine, greedy, paired (per game), sweep-random, "
                        "sweep-greedy, scaling, dask, startup, rooms, rooms-resume (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--markdown", metavar="FILE", default=None,
                   help="also write the figures as a table between the <!-- bench-table --> and "
                        "<!-- /bench-table --> markers of FILE (the README's current figures)")
    p.add_argument("--from-json", metavar="FILE", default=None,
                   help="measure nothing: read a saved `workbench bench --json` run (with --markdown, "
                        "write its table)")
    p.set_defaults(func=run)


def run(args) -> int:
    import os
    import sys

    from workbench.bench import ALL_FIGURES, run_sections

    if args.from_json:
        return _from_saved(args)

    from . import validate
    from workbench.core.registry import load_all
    every = list(load_all())
    for ref in args.game or every:  # every game (and --players against each) before any figure
        validate.players(validate.game(ref), args.players)
    only = args.only or list(ALL_FIGURES)
    unknown = [n for n in only if n not in ALL_FIGURES]
    if unknown:
        from workbench.core.errors import WorkbenchError, suggest
        raise WorkbenchError(f"unknown figure {unknown[0]!r}{suggest(unknown[0], ALL_FIGURES)}; "
                             f"choose from {', '.join(ALL_FIGURES)}")
    games = args.game or every

    def note(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    import datetime

    from workbench import native
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = [round(x, 2) for x in os.getloadavg()]
    sections, figures = run_sections(games, args.players, quick=args.quick, only=only, note=note)
    doc = {"game": games[0], "players": args.players, "quick": args.quick, "measured_at": started,
           "build": native.status, "load_average_at_start": load,
           "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
           "load_average": [round(x, 2) for x in os.getloadavg()],
           "games": sections, "figures": figures}
    if args.markdown:
        _write_table(doc, args.markdown, note)
    if args.json:
        emit_json(doc)
        return 0
    print(f"workbench bench: {doc['cores']} cores, load average {doc['load_average'][0]}"
          f"{' (quick: reduced sizes, extrapolated)' if args.quick else ''}")
    blocks = [(f"{s['game']}, {s['players']} players", s["figures"]) for s in sections]
    if figures:
        blocks.append((f"batch ({games[0]})", figures))
    width = max((len(f["label"]) for _, figs in blocks for f in figs), default=10)
    for title, figs in blocks:
        print(f"\n{title}")
        for f in figs:
            if f.get("error"):
                print(f"  {f['label']:<{width}}  not measured: {f['error']}")
                continue
            print(f"  {f['label']:<{width}}  {f['shown']:>16}  target {f['target_text']:<14} {f['verdict']}")
            if f.get("note"):
                print(f"  {'':<{width}}  ({f['note']})")
    return 0


def _write_table(doc: dict, target: str, note) -> None:
    from workbench.bench_table import markdown_table, write_into
    path = write_into(target, markdown_table(doc))
    note(f"wrote the figures' table into {path}")


def _from_saved(args) -> int:
    import json
    from pathlib import Path

    from workbench.core.errors import WorkbenchError
    try:
        doc = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WorkbenchError(f"--from-json {args.from_json}: not a saved bench run ({exc})") from None
    if not isinstance(doc, dict) or "games" not in doc:
        raise WorkbenchError(f"--from-json {args.from_json}: not a saved bench run (no games)")
    if args.markdown:
        _write_table(doc, args.markdown, lambda text: print(text))
    elif args.json:
        emit_json(doc)
    else:
        from workbench.bench_table import markdown_table
        print(markdown_table(doc), end="")
    return 0
