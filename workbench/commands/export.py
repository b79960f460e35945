"""``workbench export``: a game's components for other tools (Tabletop Simulator)."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="export a game's components (Tabletop Simulator)",
                       description="Export a game's components for another tool.")
    es = p.add_subparsers(dest="export_command", metavar="FORMAT", required=True)
    t = es.add_parser("tts", help="a Tabletop Simulator saved object (JSON) and its image sheets",
                      description="Write a TTS saved object: decks as 10x7 image sheets, tiles, boards, "
                                  "the Mandate 2038 map, counters. Images go to <out>-images/ beside the "
                                  "JSON, linked by file:// URLs unless --base-url is given. See docs/print.md.")
    t.add_argument("game")
    t.add_argument("--lang", default="en", help="language of the components (default en)")
    t.add_argument("--seats", type=int, default=4, help="players to make counters for (default 4)")
    t.add_argument("--seed", type=int, default=1, help="seed of the Mandate 2038 map layout (default 1)")
    t.add_argument("--base-url", default=None, metavar="URL",
                   help="where the images will be uploaded; URLs become URL/<file> instead of file://")
    t.add_argument("--out", required=True, metavar="FILE.json",
                   help="where to write the save (missing folders on the way are created)")
    t.add_argument("--json", action="store_true", help="print one JSON document")
    t.set_defaults(func=run_tts)


def run_tts(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.print.tts import export

    from .print import check_game
    from . import validate
    game_id = check_game(args.game)
    validate.lang(args.lang)
    out = validate.out_path(args.out, "--out", (".json",))
    validate.seed(args.seed)
    if not 1 <= args.seats <= 8:
        raise WorkbenchError("--seats must be between 1 and 8")
    summary = export(game_id, out, lang=args.lang, seats=args.seats, seed=args.seed, base_url=args.base_url)
    if args.json:
        emit_json(summary)
    else:
        decks = ", ".join(f"{k} {n}" for k, n in summary["decks"].items())
        print(f"wrote {out}: decks {decks}; {sum(summary['tiles'].values())} tiles, "
              f"{sum(summary['boards'].values())} boards, {summary['counters']} counters; "
              f"{summary['image_files']} images in {summary['images']}")
    return 0
