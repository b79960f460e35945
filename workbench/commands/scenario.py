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
                   help="replay leniently and list every divergence instead of stopping at the first; a "
                        "worked example passes when its divergences are exactly its recorded errata "
                        "(steps noted 'erratum ID: ...')")
    r.add_argument("--json", action="store_true", help="print one JSON document")
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="set a game option (a ruling's switch) over the scenario's own setup options")
    r.set_defaults(func=run)


def run(args) -> int:
    """Exit 0 when every scenario passes; with ``--report``, a scenario that
    records errata (a worked example) counts as passing when its divergences are
    exactly its recorded errata, and the last line says whether they are."""
    from pathlib import Path

    from workbench.core.scenario import errata_check, run_file

    from .common import parse_options
    options = parse_options(args.option)
    results = [run_file(Path(f), report=args.report, options=options) for f in args.files]
    errata = [errata_check(Path(f), r) if args.report else None for f, r in zip(args.files, results)]
    ok = [r.passed or (e is not None and e.matches) for r, e in zip(results, errata)]
    if args.json:
        docs = []
        for r, e in zip(results, errata):
            doc = r.to_dict()
            if e is not None:
                doc["errata"] = e.to_dict()
            docs.append(doc)
        emit_json({"passed": sum(ok), "failed": len(ok) - sum(ok), "scenarios": docs})
    else:
        for r, e, good in zip(results, errata, ok):
            mark = "PASS" if r.passed else ("ERRATA" if good else "REPORT" if args.report else "FAIL")
            print(f"{mark} {r.file}: {r.title}")
            for d in r.divergences:
                where = f"step {d.step}" if d.step is not None else "end"
                print(f"    {where} [{d.kind}] {d.message}")
        last = f"{sum(ok)} passed, {len(ok) - sum(ok)} failed"
        checked = [e for e in errata if e is not None]
        if len(checked) == 1:
            last += f"; {checked[0].summary()}"
        elif checked:
            same = sum(e.matches for e in checked)
            last += f"; {same} of {len(checked)} worked examples match their recorded errata exactly"
        print(last)
    return 0 if all(ok) else 1
