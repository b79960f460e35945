"""``workbench print``: print-and-play card sheets of a game as a PDF."""

from __future__ import annotations

import sys

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("print", help="print-and-play card sheets (PDF) in a language",
                       description="Card sheets for every component kind of GAME: bleed, crop marks, "
                                   "backs on the following page with mirrored columns (long-edge duplex). "
                                   "Templates: cards/<game>/print/ (in --cards DIR when given). "
                                   "See docs/print.md.")
    p.add_argument("game")
    p.add_argument("--lang", default="en", help="language of the cards' texts (default en)")
    p.add_argument("--paper", default="a4", choices=["a4", "letter"], help="paper size (default a4)")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="where to write the PDF (missing folders on the way are created)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def check_game(name: str) -> str:
    from workbench.core.errors import WorkbenchError, suggest
    from workbench.print.sheets import MODULES
    if name not in MODULES:
        raise WorkbenchError(f"unknown game {name!r}{suggest(name, list(MODULES))}; choose one of "
                             + ", ".join(MODULES))
    return name


def run(args) -> int:
    from workbench.print.sheets import build_deck, typeset
    from . import validate
    game_id = check_game(args.game)
    validate.lang(args.lang)
    out = validate.out_path(args.out, "--out", (".pdf",))  # before the typesetting, not after
    deck = build_deck(game_id, args.lang, paper=args.paper)
    typeset(deck, out)
    missing = sorted(set(deck.words.missing))
    if args.json:
        emit_json({"game": game_id, "lang": args.lang, "paper": args.paper, "out": str(out),
                   "version": deck.version, "pages": len(deck.pages), "cards": deck.counts(),
                   "emoji": deck.words.emoji, "untranslated": missing})
    else:
        kinds = ", ".join(f"{k.title} {len(k.cards)}" for k in deck.kinds)
        print(f"wrote {out}: {len(deck.pages)} pages ({args.paper}), {kinds}; cards {deck.version}")
    if not deck.words.emoji:
        print("print: the emoji font (Noto Color Emoji) is not installed; icons are printed as text",
              file=sys.stderr)
    if missing:
        print(f"print: {len(missing)} text(s) not translated into {args.lang}, printed in the original: "
              + ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""), file=sys.stderr)
    return 0
