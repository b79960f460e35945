"""``workbench print``: print-and-play card sheets of a game as a PDF."""

from __future__ import annotations

import sys

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("print", help="print-and-play card sheets (PDF) in a language",
                       description="Card sheets for every component kind of GAME: bleed, crop marks, "
                                   "backs on the following page with mirrored columns. " + duplex_help() +
                                   " Templates: cards/<game>/print/ (in --cards DIR when given). "
                                   "See docs/print.md.")
    p.add_argument("game")
    p.add_argument("--lang", default="en", help="language of the cards' texts (default en)")
    p.add_argument("--paper", default="a4", choices=["a4", "letter", "a3", "tabloid"],
                   help="paper size (default a4)")
    p.add_argument("--margin", type=float, default=5.0, metavar="MM",
                   help="nothing is printed closer than this to the paper's edge, crop marks included "
                        "(default 5 mm: most home printers cannot print the outer 3-5 mm)")
    p.add_argument("--target", default="home", choices=["home", "print-service"],
                   help="home: sheets to print and cut (a PDF); print-service: every card's face and back "
                        "as its own PNG and PDF with bleed, named by card and copy, and a manifest.csv, "
                        "in the folder --out (default home)")
    p.add_argument("--bleed", type=float, default=None, metavar="MM",
                   help="printed past each cut line (default 2 mm for home, 3.175 mm = 1/8 in for print-service)")
    p.add_argument("--sides", default="duplex", choices=["duplex", "single", "faces", "fold"],
                   help="home sheets: duplex (each face page then its back page), single (every face page, "
                        "then every back page), faces (no backs), fold (faces above a fold line, backs below: "
                        "print one side, fold, cut) (default duplex)")
    p.add_argument("--ppi", type=float, default=300.0,
                   help="print-service images: pixels per inch, 300 to 1200 (default 300)")
    p.add_argument("--out", required=True, metavar="FILE.pdf|FOLDER",
                   help="where to write the PDF, or the folder of a print-service export (missing folders on "
                        "the way are created)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def duplex_help() -> str:
    """How to print the sheets duplex, from the grids themselves: a landscape sheet turns
    over its short edge, a portrait one over its long edge."""
    from workbench.print.geometry import PAPERS, SIZES, grid_for
    wide = [f"{p}: {', '.join(s for s in SIZES if grid_for(s, p).landscape)}" for p in PAPERS]
    return ("Duplex: a landscape sheet flips on the short edge, a portrait one on the long edge, and each "
            "page's footer says which. Landscape sheets (the rest are portrait) - " + "; ".join(wide) + ".")


def check_game(name: str) -> str:
    from workbench.core.registry import require
    require(name, "print", "printed cards")  # an unknown id gets the known ones
    return name


def run(args) -> int:
    from workbench.print.sheets import build_deck, typeset
    from . import validate
    from workbench.core.errors import WorkbenchError
    from workbench.print.geometry import BLEED, SERVICE_BLEED
    game_id = check_game(args.game)
    validate.lang(args.lang)
    service = args.target == "print-service"
    if service:
        from pathlib import Path
        if Path(args.out).suffix:
            raise WorkbenchError(f"--out {args.out!r}: a print-service export is a folder; give one without "
                                 "a suffix")
        out = validate.out_path(args.out, "--out", None, folder_ok=True)
    else:
        out = validate.out_path(args.out, "--out", (".pdf",))  # before the typesetting, not after
    if not 0 <= args.margin <= 30:
        raise WorkbenchError(f"--margin {args.margin:g}: give 0 to 30 mm (5 mm suits most printers)")
    bleed = args.bleed if args.bleed is not None else (SERVICE_BLEED if service else BLEED)
    if not 0 <= bleed <= 10:
        raise WorkbenchError(f"--bleed {bleed:g}: give 0 to 10 mm (print services ask for 3.175 mm, 1/8 in)")
    if service and not 300 <= args.ppi <= 1200:
        raise WorkbenchError(f"--ppi {args.ppi:g}: give 300 to 1200 (print services ask for 300 or more)")
    from workbench.print.checks import small_text
    from workbench.print.words import print_folder
    deck = build_deck(game_id, args.lang, paper=args.paper, margin=args.margin, bleed=bleed, sides=args.sides)
    if service:
        return _print_service(deck, out, args)
    small = small_text(print_folder(game_id))
    for line in small:
        print(f"print: {line}; it may not be legible on paper", file=sys.stderr)
    typeset(deck, out)
    from workbench.print.sheets import overflows
    over = overflows(deck)
    for item in over:
        print(f"print: the text of {item['card']!r} runs {item['over']} mm past its card's safe area; "
              "shorten it or change its template", file=sys.stderr)
    missing = sorted(set(deck.words.missing))
    if args.json:
        emit_json({"game": game_id, "lang": args.lang, "paper": args.paper, "margin": args.margin,
                   "bleed": bleed, "sides": args.sides,
                   "out": str(out), "version": deck.version, "pages": len(deck.pages), "cards": deck.counts(),
                   "cut_list": cut_list(deck), "small_text": small, "overflows": over,
                   "emoji": deck.words.emoji, "untranslated": missing})
    else:
        kinds = ", ".join(f"{k.title} {len(k.cards)}" for k in deck.kinds)
        print(f"wrote {out}: {len(deck.pages)} pages ({args.paper}), {kinds}; cards {deck.version}")
        for row in cut_list(deck):
            print(f"  sheet {row['sheet']} (pages {row['pages']}): {row['kind']} {row['cards']} cards "
                  f"({row['first']}-{row['last']}), {row['orientation']}, {row['flip']}  [ ]")
    if not deck.words.emoji:
        print("print: the emoji font (Noto Color Emoji) is not installed; icons are printed as text",
              file=sys.stderr)
    if missing:
        print(f"print: {len(missing)} text(s) not translated into {args.lang}, printed in the original: "
              + ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""), file=sys.stderr)
    return 0


def _print_service(deck, out, args) -> int:
    from workbench.print import pod
    summary = pod.export(deck, out, ppi=args.ppi)
    if args.json:
        emit_json(summary)
    else:
        kinds = ", ".join(f"{k.title} {len(k.cards)}" for k in deck.kinds)
        print(f"wrote {summary['files']} files to {out} ({kinds}; faces and backs, PNG at {args.ppi:g} ppi "
              f"and PDF, {summary['bleed']:g} mm bleed); the list is {summary['manifest']}")
    return 0


def cut_list(deck) -> list[dict]:
    """One row per sheet to tick off: its pages, kind, cards and how it is printed."""
    pages: dict[int, list[int]] = {}
    for n, page in enumerate(deck.pages, start=1):
        pages.setdefault(page["sheet"], []).append(n)
    rows = []
    for sheet, numbers in pages.items():
        face = deck.pages[numbers[0] - 1]
        kind = next(k for k in deck.kinds if k.key == face["kind"])
        first = face["first"] if face["cards"] else 0
        together = len(numbers) == 1 or numbers[-1] == numbers[0] + 1
        rows.append({"sheet": sheet, "pages": (f"{numbers[0]}-{numbers[-1]}" if together and len(numbers) > 1
                                               else ", ".join(map(str, numbers))),
                     "kind": kind.title, "cards": len(face["cards"]), "first": first,
                     "last": first + len(face["cards"]) - 1,
                     "orientation": "landscape" if face["grid"]["paper_w"] > face["grid"]["paper_h"] else "portrait",
                     "flip": face["flip"]})
    return rows
