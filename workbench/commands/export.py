"""``workbench export``: a game's components for other tools (Tabletop Simulator)."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="export a game's components (Tabletop Simulator)",
                       description="Export a game's components for another tool.")
    es = p.add_subparsers(dest="export_command", metavar="FORMAT", required=True)
    t = es.add_parser("tts", help="a Tabletop Simulator saved object (JSON) and its image sheets",
                      description="Write a TTS saved object: decks as image sheets, tiles, boards, and the "
                                  "game's table as its setup lays it (mats, tracks, dealt cards, pieces, bags, "
                                  "hand zones). Images go to <out>-images/ beside the JSON, linked by file:// "
                                  "URLs unless --base-url is given. See docs/print.md.")
    t.add_argument("game")
    t.add_argument("--lang", default="en", help="language of the components (default en)")
    t.add_argument("--seats", type=int, default=4, help="seats at the table (default 4; kept within the game's player range)")
    t.add_argument("--seed", type=int, default=1, help="seed of the setup the table is laid from: shuffles, deals, map (default 1)")
    t.add_argument("--base-url", default=None, metavar="URL",
                   help="where the images will be uploaded; URLs become URL/<file> instead of file://")
    t.add_argument("--host", default=None, metavar="ADDRESS[:PORT]",
                   help="serve the images from `workbench serve --tts-images` on your LAN: URLs become "
                        "http://ADDRESS:PORT/tts/<file> (port 5006 unless given)")
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
    out = validate.out_path(args.out, "--out", (".json",))   # a missing parent folder is created
    validate.seed(args.seed)
    if not 1 <= args.seats <= 8:
        raise WorkbenchError("--seats must be between 1 and 8")
    base_url = base_url_of(args.base_url, args.host)
    summary = export(game_id, out, lang=args.lang, seats=args.seats, seed=args.seed, base_url=base_url)
    if args.json:
        emit_json(summary)
    else:
        decks = ", ".join(f"{k} {n}" for k, n in summary["decks"].items())
        print(f"wrote {out}: decks {decks}; {sum(summary['tiles'].values())} tiles, "
              f"{sum(summary['boards'].values())} boards, {len(summary['mats'])} mats, "
              f"{sum(summary['piles'].values())} components placed by the setup, {summary['counters']} counters, "
              f"{sum(summary['pieces'].values())} pieces, {len(summary['bags'])} bags, "
              f"{summary['hands']} hand zones; {summary['image_files']} images in {summary['images']}")
        if summary["seats"] != args.seats:
            print(f"--seats {args.seats} is outside the game's player range: the table is laid for "
                  f"{summary['seats']}")
        if args.host:
            print(f"serve them with: workbench serve --host 0.0.0.0 --tts-images {summary['images']}")
        elif not base_url:
            print("the images are file:// links on this machine; for remote players upload the folder and "
                  "export again with --base-url (docs/print.md)")
    return 0


def base_url_of(base_url: str | None, host: str | None) -> str | None:
    """The images' base URL: ``--base-url`` as given (http or https), or the
    dashboard's ``/tts`` folder on ``--host``."""
    from workbench.core.errors import WorkbenchError
    if base_url and host:
        raise WorkbenchError("give --base-url or --host, not both")
    if host:
        name, _, port = host.strip().partition(":")
        if not name or any(c.isspace() or c in "/?#@" for c in name):
            raise WorkbenchError(f"--host {host!r} is not an address (e.g. 192.168.1.20 or mybox.local:5006)")
        from . import validate
        number = validate.port(port or 5006)
        return f"http://{name}:{number}/tts"
    if base_url is not None:
        from . import validate
        return validate.http_url(base_url, "--base-url")
    return base_url
