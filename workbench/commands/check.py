"""``workbench check``: card data, scenarios, Python checks, the clause table and the errata."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="validate data, run every rule check, print the clause table",
                       description="Validate each game's card data, run its scenario files and Python checks, "
                                   "print every rule clause with its languages and check status, and the "
                                   "errata found by replaying worked examples. Exits 1 on any failure.")
    p.add_argument("game", nargs="?", default=None, help="one game id (default: all games)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
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
