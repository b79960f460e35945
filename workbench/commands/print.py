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
    p.add_argument("--paper", default="a4", choices=["a4", "letter"], help="paper size (default a4)")
    p.add_argument("--margin", type=float, default=5.0, metavar="MM",
                   help="nothing is printed closer than this to the paper's edge, crop marks included "
                        "(default 5 mm: most home printers cannot print the outer 3-5 mm)")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="where to write the PDF (missing folders on the way are created)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def duplex_help() -> str:
    """How to print the sheets duplex, from the grids themselves: a landscape sheet turns
    over its short edge, a portrait one over its long edge."""
    from workbench.print.geometry import PAPERS, SIZES, grid_for
    wide = [s for s in SIZES if any(grid_for(s, p).landscape for p in PAPERS)]
    return ("Print duplex: landscape sheets (" + ", ".join(wide) + " cards) flip on the short edge, "
            "portrait sheets (every other size) on the long edge; each page's footer says which.")


def check_game(name: str) -> str:
    from workbench.core.registry import require
    require(name, "print", "printed cards")  # an unknown id gets the known ones
    return name


def run(args) -> int:
    from workbench.print.sheets import build_deck, typeset
    from . import validate
    game_id = check_game(args.game)
    validate.lang(args.lang)
    out = validate.out_path(args.out, "--out", (".pdf",))  # before the typesetting, not after
    if not 0 <= args.margin <= 30:
        from workbench.core.errors import WorkbenchError
        raise WorkbenchError(f"--margin {args.margin:g}: give 0 to 30 mm (5 mm suits most printers)")
    from workbench.print.checks import small_text
    from workbench.print.words import print_folder
    deck = build_deck(game_id, args.lang, paper=args.paper, margin=args.margin)
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


def cut_list(deck) -> list[dict]:
    """One row per sheet to tick off: its pages, kind, cards and duplex flip."""
    rows = []
    for i in range(0, len(deck.pages), 2):
        face = deck.pages[i]
        kind = next(k for k in deck.kinds if k.key == face["kind"])
        first = face["first"] if face["cards"] else 0
        rows.append({"sheet": i // 2 + 1, "pages": f"{i + 1}-{i + 2}", "kind": kind.title,
                     "cards": len(face["cards"]), "first": first, "last": first + len(face["cards"]) - 1,
                     "orientation": "landscape" if face["grid"]["paper_w"] > face["grid"]["paper_h"] else "portrait",
                     "flip": face["flip"]})
    return rows
