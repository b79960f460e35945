"""``workbench bench``: how fast the engines and the batch machinery are.

Each figure is printed with its target and whether it is met, or by how much
it is missed. Figures are measurements of this machine at this moment (the
load average is reported with them); the test suite never asserts them.
"""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="measure engine and batch-simulation speed against targets",
                       description="Measure engine speed (random legal play), batch sweeps on every core "
                                   "and on Dask, start-up time and the quick paired playtest, each against "
                                   "its target.")
    p.add_argument("--game", default="meaning-made", help="game to measure (default meaning-made)")
    p.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    p.add_argument("--quick", action="store_true",
                   help="run a tenth of each sweep (a fiftieth of the greedy one) and extrapolate, "
                        "said so beside each figure")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="run only these figures: engine, sweep-random, sweep-greedy, scaling, dask, "
                        "startup, paired (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def run(args) -> int:
    import os
    import sys

    from workbench.sim.bench import ALL_FIGURES, run_figures

    from . import validate
    game = validate.game(args.game)
    validate.players(game, args.players)
    only = args.only or list(ALL_FIGURES)
    unknown = [n for n in only if n not in ALL_FIGURES]
    if unknown:
        from workbench.core.errors import WorkbenchError, suggest
        raise WorkbenchError(f"unknown figure {unknown[0]!r}{suggest(unknown[0], ALL_FIGURES)}; "
                             f"choose from {', '.join(ALL_FIGURES)}")

    def note(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    figures = run_figures(args.game, args.players, quick=args.quick, only=only, note=note)
    doc = {"game": args.game, "players": args.players, "quick": args.quick,
           "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
           "load_average": [round(x, 2) for x in os.getloadavg()], "figures": figures}
    if args.json:
        emit_json(doc)
        return 0
    print(f"workbench bench: {args.game}, {args.players} players, {doc['cores']} cores, "
          f"load average {doc['load_average'][0]}{' (quick: reduced sizes, extrapolated)' if args.quick else ''}")
    width = max(len(f["label"]) for f in figures) if figures else 10
    for f in figures:
        if f.get("error"):
            print(f"{f['label']:<{width}}  not measured: {f['error']}")
            continue
        print(f"{f['label']:<{width}}  {f['shown']:>16}  target {f['target_text']:<14} {f['verdict']}")
        if f.get("note"):
            print(f"{'':<{width}}  ({f['note']})")
    return 0
