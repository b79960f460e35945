"""``workbench check``: card data, scenarios, Python checks, the clause table and the errata;
with ``--mutants``, the mutation score of one game's checks (:mod:`workbench.mutation`)."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="validate data, run every rule check, print the clause table",
                       description="Validate each game's card data, run its scenario files and Python checks, "
                                   "print every rule clause with its languages and check status, and the "
                                   "errata found by replaying worked examples. Exits 1 on any failure.")
    p.add_argument("game", nargs="?", default=None, help="one game id (default: all games)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    m = p.add_argument_group("mutation score (--mutants)")
    m.add_argument("--mutants", action="store_true",
                   help="plant mutants in the game's rules modules and report how many its checks kill, per "
                        "module and per clause, with every survivor")
    m.add_argument("--budget", type=int, default=300, metavar="N",
                   help="mutants sampled from all of the rules modules' (default 300; 0: all of them)")
    m.add_argument("--only", action="append", default=None, metavar="FILE:LINE[:N]",
                   help="only the mutants on this line of a rules module (flow.py:78), or the one numbered N "
                        "there (flow.py:78:44, as in a proposed scenario's file name); repeatable; the budget "
                        "is then not used")
    m.add_argument("--mutant-seed", type=int, default=1, metavar="S", help="seed of the sample (default 1)")
    m.add_argument("--workers", type=int, default=None, metavar="K", help="processes (default: every core)")
    m.add_argument("--propose", default=None, metavar="DIR",
                   help="search play for a position where each survivor differs from the real engine and write "
                        "it to DIR as a scenario")
    m.add_argument("--games", type=int, default=12, metavar="G",
                   help="seeded random and greedy games searched per survivor with --propose (default 12)")
    p.add_argument("--conformance", action="store_true",
                   help="also run the shipped conformance kit (workbench.testing) on each game: the contract, "
                        "observation leaks over determinize samples, sampling, options, round trips")
    p.set_defaults(func=run)


def run(args) -> int:
    from workbench.core.errors import WorkbenchError, suggest
    from workbench.core.registry import game_ids
    from workbench.rules.report import check_report, format_report

    ids = game_ids()
    if args.game is not None:
        if args.game not in ids:
            raise WorkbenchError(f"unknown game {args.game!r}{suggest(args.game, ids)}; choose one of "
                                 + ", ".join(ids))
        ids = [args.game]
    if args.mutants:
        if args.game is None:
            raise WorkbenchError("--mutants scores one game: name it (workbench check GAME --mutants)")
        return run_mutants(args)
    reports = check_report(ids)
    if args.conformance:
        for rep in reports:
            add_conformance(rep)
    failures = sum(r.failures for r in reports)
    if args.json:
        emit_json({"ok": failures == 0, "failures": failures, "games": [r.to_dict() for r in reports]})
    else:
        print(format_report(reports))
        if args.conformance:
            print(format_conformance(reports))
    return 1 if failures else 0


def run_mutants(args) -> int:
    """Exit 0 when the run finished (whatever the score: it is a measure, not a check)."""
    import sys

    from workbench.core.errors import WorkbenchError
    from workbench.mutation.report import format_run, to_dict
    from workbench.mutation.run import run_mutants as run_all

    if args.budget < 0:
        raise WorkbenchError(f"--budget must be 0 (all) or more, not {args.budget}")
    if args.workers is not None and args.workers < 1:
        raise WorkbenchError(f"--workers must be 1 or more, not {args.workers}")

    def progress(done: int, total: int, outcome) -> None:
        if not args.json and (done % 25 == 0 or done == total):
            print(f"  {done}/{total} mutants run", file=sys.stderr, flush=True)

    if args.propose is not None:  # refused before the long run, not after it
        from workbench.core import storage
        storage.make_folder(args.propose, "--propose")
    select = None
    if args.only:
        from workbench.mutation.run import only_selector
        select = only_selector(args.game, args.only)
    result = run_all(args.game, budget=None if select else args.budget or None, seed=args.mutant_seed,
                     workers=args.workers, progress=progress, select=select)
    if args.propose is not None:
        from workbench.mutation.propose import propose_all
        propose_all(result, args.propose, games=args.games, workers=args.workers)
    if args.json:
        emit_json(to_dict(result))
    else:
        print(format_run(result))
    return 0
def add_conformance(rep) -> None:
    """The kit's checks on the report's game, one ``conformance`` check each
    (a failing one counts as a failure of ``workbench check``)."""
    from workbench.core.registry import get_game
    from workbench.rules.report import CheckResult
    from workbench.testing import conformance
    if rep.engine_error:
        return
    for name, problems in conformance(get_game(rep.game)).items():
        rep.checks.append(CheckResult("conformance", name, [], "fail" if problems else "pass",
                                      "; ".join(problems[:3])))


def format_conformance(reports) -> str:
    out = []
    for rep in reports:
        kit = [c for c in rep.checks if c.kind == "conformance"]
        failed = [c for c in kit if c.status == "fail"]
        out.append(f"{rep.name} ({rep.game}): conformance kit: {len(kit) - len(failed)} of {len(kit)} checks pass")
        out += [f"  FAIL {c.name}: {c.message}" for c in failed]
    return "\n".join(out)
