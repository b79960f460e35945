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
    failures = sum(r.failures for r in reports)
    if args.json:
        emit_json({"ok": failures == 0, "failures": failures, "games": [r.to_dict() for r in reports]})
    else:
        print(format_report(reports))
    return 1 if failures else 0
