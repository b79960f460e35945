"""``workbench cards export|import|watch``: a game's cards as a spreadsheet and back.

Export writes one sheet per card kind (``.xlsx``, ``.ods``, or a folder of
``<kind>.csv``); import takes the cells that differ from the card files as one
edit of the live-tweak session (validated by the game's models, all or none),
prints the changes and saves them (only those values' lines change; backups
rotate). See docs/print.md, "Cards in a spreadsheet".
"""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("cards", help="cards as a spreadsheet (xlsx, ods, csv) and back",
                       description="Export a game's cards to a spreadsheet, one sheet per card kind, or "
                                   "import an edited one back into the card files.")
    cs = p.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    e = cs.add_parser("export", help="write the cards to a spreadsheet",
                      description="One sheet per card kind, one row per card, one column per field "
                                  "(plus provenance and draft_fields). csv writes a folder of <kind>.csv.")
    e.add_argument("game")
    e.add_argument("--format", default=None, choices=["csv", "xlsx", "ods"],
                   help="default: from the --out suffix (a name without one is a CSV folder)")
    e.add_argument("--out", required=True, metavar="FILE", help="FILE.xlsx, FILE.ods or a folder for csv "
                   "(missing folders on the way are created)")
    e.add_argument("--json", action="store_true", help="print one JSON document")
    e.set_defaults(func=run_export)
    i = cs.add_parser("import", help="take an edited spreadsheet back into the card files",
                      description="Cells that differ from the card files become edits, validated by the "
                                  "game's models (the first problem is named by file, sheet, row and "
                                  "column) and saved so only those values' lines change.")
    i.add_argument("game")
    i.add_argument("file", metavar="FILE", help="an .xlsx or .ods file, a <kind>.csv, or a folder of them")
    i.add_argument("--dry-run", action="store_true", help="show the changes, save nothing")
    i.add_argument("--analyses", action="store_true",
                   help="also say what the card graph's analyses make of the changes (cards that became dead "
                        "or live, costs, the bottleneck); slower on a large pool")
    i.add_argument("--json", action="store_true", help="print one JSON document")
    i.set_defaults(func=run_import)
    w = cs.add_parser("watch", help="re-import a spreadsheet each time it is saved",
                      description="Poll FILE (its time and size) and import it each time it is saved, as "
                                  "'cards import' does, saving the cards so the Cards and Play pages follow "
                                  "the sheet. A refused sheet is one line and changes nothing; the watch goes "
                                  "on. Stops on Ctrl-C, after --max-imports or after --for seconds.")
    w.add_argument("game")
    w.add_argument("file", metavar="FILE", help="an .xlsx or .ods file, a <kind>.csv, or a folder of them")
    w.add_argument("--interval", type=float, default=1.0, help="seconds between looks, 0.1 to 60 (default 1)")
    w.add_argument("--max-imports", type=int, default=1000, help="stop after this many saved imports (default 1000)")
    w.add_argument("--for", dest="duration", type=float, default=8 * 3600, metavar="SECONDS",
                   help="stop after this long (default 8 hours, at most a week)")
    w.set_defaults(func=run_watch)


def _session(game: str):
    from workbench.tweak import open_session
    from . import validate
    return open_session(game_id=validate.game_id(game))


def run_export(args) -> int:
    from pathlib import Path

    from workbench.core.errors import WorkbenchError
    from workbench.interop import card_sheets, spreadsheet
    out = Path(args.out)
    fmt = args.format or (spreadsheet.format_of(out) if out.suffix else "csv")
    from . import validate
    if fmt == "csv":
        if out.exists() and not out.is_dir():
            raise WorkbenchError(f"--out {args.out!r}: csv writes a folder of <kind>.csv; this is a file")
        validate.out_path(args.out, "--out", None, folder_ok=True)
    else:
        validate.out_path(args.out, "--out", (f".{fmt}",))
    summary = card_sheets.export(_session(args.game), out, fmt)
    if args.json:
        emit_json(summary)
    else:
        sheets = ", ".join(f"{k} {n}" for k, n in summary["sheets"].items())
        print(f"wrote {out} ({fmt}): {sheets}")
    return 0


def run_import(args) -> int:
    from pathlib import Path

    from workbench.interop import card_sheets, spreadsheet
    from . import validate
    validate.game_id(args.game)
    sheets = spreadsheet.read(Path(args.file))     # a hostile sheet is refused before the cards load
    session = _session(args.game)
    # taking values in needs the pool validated once, not the card graph: its analyses
    # (a betweenness over every card, twice: before and after) only when asked for
    session.analysing = bool(args.analyses)
    result = card_sheets.import_file(session, args.file, sheets=sheets)
    saved = [] if args.dry_run or not result.any else session.save()
    if args.json:
        emit_json({"game": session.game_id, "file": str(args.file), "saved": [str(p) for p in saved],
                   "changes": [{"kind": c.kind, "card": c.card, "column": c.column, "old": c.old, "new": c.new,
                                "cell": c.where} for c in result.changes],
                   "added": [{"kind": k, "card": n} for k, n in result.added],
                   "removed": [{"kind": k, "card": n} for k, n in result.removed], "notes": result.notes,
                   "analyses": [line for r in result.reports for line in r.lines() if r.changed],
                   "untouched": result.untouched})
        return 0
    for line in result.lines():
        print(line)
    for report in result.reports:
        for line in report.lines() if report.changed else []:
            print(f"  {line}")
    if result.untouched:
        print(f"{len(result.untouched)} card(s) not in the sheets, kept as they are")
    if saved and getattr(session, "history_problem", None):
        import sys
        print(f"saved, but no version was recorded: {session.history_problem}", file=sys.stderr)
    if saved:
        print("saved " + ", ".join(p.name for p in saved) + " (the previous files are kept as .bak)")
    elif result.any:
        print("dry run: nothing saved")
    return 0


def run_watch(args) -> int:
    from workbench.interop.sheet_watch import watch
    from . import validate
    watch(validate.game_id(args.game), args.file, interval=args.interval, max_imports=args.max_imports,
          duration=args.duration, say=lambda line: print(line, flush=True))
    return 0
