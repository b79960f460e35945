"""``workbench scenario run``: run scenario files (executable rule checks)."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("scenario", help="run scenario files",
                       description="Run scenario files: positions, steps and what must hold.")
    ssub = p.add_subparsers(dest="scenario_command", metavar="ACTION", required=True)
    r = ssub.add_parser("run", help="run one or more scenario files")
    r.add_argument("files", nargs="+", metavar="FILE")
    r.add_argument("--report", action="store_true",
                   help="replay leniently and list every divergence instead of stopping at the first")
    r.add_argument("--json", action="store_true", help="print one JSON document")
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="set a game option (a ruling's switch) over the scenario's own setup options")
    r.set_defaults(func=run)


def run(args) -> int:
    from pathlib import Path

    from workbench.core.scenario import run_file

    from .common import parse_options
    options = parse_options(args.option)
    results = [run_file(Path(f), report=args.report, options=options) for f in args.files]
    failed = [r for r in results if not r.passed]
    if args.json:
        emit_json({"passed": len(results) - len(failed), "failed": len(failed),
                   "scenarios": [r.to_dict() for r in results]})
    else:
        for r in results:
            mark = "PASS" if r.passed else ("REPORT" if args.report else "FAIL")
            print(f"{mark} {r.file}: {r.title}")
            for d in r.divergences:
                where = f"step {d.step}" if d.step is not None else "end"
                print(f"    {where} [{d.kind}] {d.message}")
        print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
