"""Card sheets: cards of every kind in one language, laid out on pages with bleed,
crop marks, a footer, and each face page followed by its back page (columns mirrored).

:func:`build_deck` gathers everything into a plain document (a dict) that the Typst
library ``workbench.typ`` draws; :func:`typeset` compiles it with the kinds' templates
from ``cards/<game>/print/`` to PDF or PNG.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.data import load_yaml
from workbench.core.errors import DataError, WorkbenchError

from .geometry import BLEED, FOOTER, MARGIN, MARK_GAP, MARK_LEN, Grid, grid_for
from .pool import pool_version, print_digest
from .words import Words, load_words, print_folder

LIB = Path(__file__).with_name("workbench.typ")
FONTS = ("DejaVu Sans", "Libertinus Serif", "Noto Color Emoji")
#: how the sheets are printed: ``duplex`` (each face page followed by its back page,
#: columns mirrored), ``single`` (every face page, then every back page in the same
#: order: a printer without duplex is fed the printed stack again), ``faces`` (face
#: pages only), ``fold`` (one page a sheet: faces above the fold, backs below it)
SIDES = ("duplex", "single", "faces", "fold")


@dataclass
class Kind:
    key: str
    template: str
    size: str
    title: str
    grid: Grid
    cards: list[dict]


@dataclass
class Deck:
    game: str
    game_name: str
    lang: str
    paper: str
    version: str
    words: Words
    kinds: list[Kind]
    pages: list[dict] = field(default_factory=list)
    sides: str = "duplex"
    #: the cache key of the files the deck is made from (never printed: ``version`` names the pool)
    digest: str = ""

    def counts(self) -> dict[str, int]:
        return {k.key: len(k.cards) for k in self.kinds}

    def document(self) -> dict:
        w = self.words
        return {"game": self.game, "lang": self.lang, "version": self.version, "pages": self.pages,
                "words": {"game": self.game_name, "lang": self.lang, "labels": w.labels, "terms": w.terms,
                          "emoji": w.emoji,
                          "icons": {k: w.icon(k) for k in w.icons}}}


def crop_marks(g: Grid, cells: list[tuple[float, float]]) -> list[list[float]]:
    """Line segments (x1, y1, x2, y2) in the margin around the cards at ``cells``
    (their bleed boxes' corners), on every cut line those cards have."""
    if g.nest:
        return hex_cut_lines(g, cells)
    marks = []
    m = g.margin
    top, bottom = min(y for _, y in cells), max(y for _, y in cells) + g.cell_h
    left, right = min(x for x, _ in cells), max(x for x, _ in cells) + g.cell_w
    floor = g.paper_h - m - FOOTER                      # the footer stands below the bottom marks
    for x in sorted({round(cx + g.bleed + d, 3) for cx, _ in cells for d in (0, g.card_w)}):
        marks.append([x, max(top - MARK_GAP - MARK_LEN, m), x, top - MARK_GAP])
        marks.append([x, bottom + MARK_GAP, x, min(bottom + MARK_GAP + MARK_LEN, floor)])
    for y in sorted({round(cy + g.bleed + d, 3) for _, cy in cells for d in (0, g.card_h)}):
        marks.append([max(left - MARK_GAP - MARK_LEN, m), y, left - MARK_GAP, y])
        marks.append([right + MARK_GAP, y, min(right + MARK_GAP + MARK_LEN, g.paper_w - m), y])
    return [[round(v, 3) for v in m] for m in marks]


def hex_cut_lines(g: Grid, cells: list[tuple[float, float]]) -> list[list[float]]:
    """The six edges of every hex's trim outline: nested hexes are cut along the
    hexagon, not a rectangle around it (pointy-top, as ``hex-tile`` draws it)."""
    out = []
    for x, y in cells:
        bx, by, w, h = x + g.bleed, y + g.bleed, g.card_w, g.card_h
        pts = [(bx + w / 2, by), (bx + w, by + h / 4), (bx + w, by + 3 * h / 4), (bx + w / 2, by + h),
               (bx, by + 3 * h / 4), (bx, by + h / 4)]
        out += [[round(v, 3) for v in (*pts[i], *pts[(i + 1) % 6])] for i in range(6)]
    return out


def fold_ticks(g: Grid) -> list[list[float]]:
    """Short dashed lines on the fold of a fold-in-half sheet, in the side margins
    (from ``margin`` to just short of the cards' bleed)."""
    y = round(g.paper_h / 2, 3)
    reach = min(6.0, g.x0 - MARK_GAP - g.margin)
    right = g.x0 + g.cols * g.cell_w + (g.cell_w / 2 if g.nest and g.rows > 1 else 0.0)
    reach = min(reach, g.paper_w - right - MARK_GAP - g.margin)
    return [[round(g.margin, 3), y, round(g.margin + reach, 3), y],
            [round(g.paper_w - g.margin - reach, 3), y, round(g.paper_w - g.margin, 3), y]]


def build_deck(game_id: str, lang: str, *, paper: str = "a4", emoji: bool | None = None,
               margin: float = MARGIN, bleed: float = BLEED, sides: str = "duplex") -> Deck:
    """Every card of ``game_id`` in ``lang``, paginated for ``paper`` with ``bleed``
    mm around each card, printed as ``sides`` says (:data:`SIDES`)."""
    if sides not in SIDES:
        raise WorkbenchError(f"unknown sides {sides!r}; choose {', '.join(SIDES)}")
    from workbench.core.game import resolve
    from workbench.core.registry import require
    game = require(game_id, "print", "printed cards")
    folder = print_folder(game_id)
    manifest_path = folder / "print.yaml"
    if not manifest_path.exists():
        raise DataError("no print manifest (print.yaml)", file=str(manifest_path))
    manifest = load_yaml(manifest_path) or {}
    words = load_words(game_id, lang, emoji=emoji)
    from .cardlist import with_copies
    # every copy a card declares is printed (and dealt into a Tabletop Simulator deck)
    by_kind = {key: with_copies(list(cards)) for key, cards in resolve(game.print_cards).cards(words).items()}
    version = pool_version(game_id)
    game_name = game.name
    kinds = []
    entries = manifest.get("kinds") if isinstance(manifest, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and e.get("key") and e.get("template")
                                                for e in entries):
        raise DataError("kinds must be a list of {key, template, size}", file=str(manifest_path))
    for entry in entries:
        key = str(entry["key"])
        if key not in by_kind:
            raise DataError(f"kind {key!r} is not one the workbench prints for {game_id} "
                            f"({', '.join(by_kind)})", file=str(manifest_path))
        template = folder / str(entry["template"])
        if not template.exists():
            raise DataError(f"the template of {key} is missing", file=str(template))
        try:
            grid = grid_for(str(entry.get("size", "poker")), paper, margin=margin, bleed=bleed,
                            fold=sides == "fold")
        except WorkbenchError as exc:
            raise DataError(f"{key}: {exc}", file=str(manifest_path)) from None
        kinds.append(Kind(key, str(entry["template"]), str(entry.get("size", "poker")),
                          words.label("kind." + key), grid, by_kind[key]))
    deck = Deck(game_id, game_name, lang, paper, version, words, kinds, sides=sides,
                digest=print_digest(game_id))
    legend = words.label("draft_legend")
    sheet = 0
    backs = []                   # single-sided: the back pages, after every face page
    for kind in kinds:
        g = kind.grid
        for start in range(0, len(kind.cards), g.per_page):
            chunk = kind.cards[start:start + g.per_page]
            for c in chunk:
                c["geom"] = {"w": g.card_w, "h": g.card_h, "bleed": g.bleed}
            sheet += 1
            # the backs mirror the columns about the vertical centre line: the
            # sheet turns over its long edge when portrait, its short edge when landscape
            flip = words.label("flip_short" if g.landscape else "flip_long")
            how = {"duplex": flip, "single": f"{words.label('single_sided')} ({flip})",
                   "faces": words.label("faces_only"), "fold": words.label("fold_note")}[sides]
            span = f"{kind.title} {start + 1}–{start + len(chunk)}/{len(kind.cards)}"
            base = f"{game_name} · {lang} · {words.label('pool')} {version} · {span} · {words.label('sheet')} {sheet}"
            # the sheet's place in its kind is kept, not found again by looking its first card
            # up: equal cards (identical tiles) would all be found at the first one's place
            common = {"kind": kind.key, "cards": chunk, "first": start + 1, "sheet": sheet, "flip": how,
                      "grid": g.to_dict()}
            if sides == "fold":
                faces = [g.cell(i) for i in range(len(chunk))]
                behind = [g.cell(i, back=True) for i in range(len(chunk))]
                deck.pages.append({**common, "back": False, "footer": f"{base} · {how} · ‡ {legend}",
                                   "marks": crop_marks(g, faces) + crop_marks(g, behind), "folds": fold_ticks(g),
                                   "cells": [list(c) for c in faces], "back_cells": [list(c) for c in behind]})
                continue
            for back in (False, True) if sides != "faces" else (False,):
                cells = [g.cell(i, back=back) for i in range(len(chunk))]
                side = words.label("back" if back else "face")
                page = {**common, "back": back, "footer": f"{base} {side} · {how} · ‡ {legend}",
                        "marks": crop_marks(g, cells), "cells": [list(c) for c in cells]}
                (backs if back and sides == "single" else deck.pages).append(page)
    deck.pages += backs
    return deck


def typst_error(exc) -> str:
    """One line for a Typst error: where (the template and line) and what."""
    import re
    where = re.search(r"┌─ (\S+):(\d+):(\d+)", getattr(exc, "diagnostic", "") or "")
    place = ""
    if where:
        path = where.group(1).replace("\\", "/")
        name = path.split("/templates/")[-1] if "/templates/" in path else path.rsplit("/", 1)[-1]
        place = f" in {name} line {where.group(2)}"
    message = " ".join(str(getattr(exc, "message", exc)).split())
    return f"typesetting failed{place}: {message}"


def _main_source(deck: Deck, entry: str = "deck") -> str:
    imports, entries = [], []
    for i, kind in enumerate(deck.kinds):
        imports.append(f'#import "/templates/{kind.template}" as k{i}')
        entries.append(f"{json.dumps(kind.key, ensure_ascii=False)}: (face: k{i}.face, back: k{i}.back)")
    fonts = ", ".join(json.dumps(f, ensure_ascii=False) for f in FONTS)
    return "\n".join([
        f'#import "/workbench.typ": {entry}',
        *imports,
        f"#set text(font: ({fonts}), size: 7pt, lang: {json.dumps(deck.lang, ensure_ascii=False)}, fallback: true)",
        f"#set document(title: {json.dumps(deck.game_name + ' — ' + deck.lang, ensure_ascii=False)})",
        # Typst takes a symbol such as ☀️ from the text font when that font has it; the
        # variation selector asks for the colour picture, so pictographs go to the emoji font.
        (r'#show regex("\p{Extended_Pictographic}\u{FE0F}?"): set text(font: "Noto Color Emoji")'
         if deck.words.emoji else ""),
        '#let doc = json("/deck.json")',
        "#let kinds = (" + ", ".join(entries) + (",)" if len(entries) == 1 else ")"),
        f"#{entry}(doc, kinds)",
        ""])


def overflows(deck: Deck) -> list[dict]:
    """Cards whose text runs out of its box: ``{card, over}`` (mm too tall), as the
    templates' ``overflow-check`` records them (a Typst query of the sheets)."""
    import typst
    with _project(deck, deck.document(), "deck") as root:
        try:
            found = json.loads(typst.query(str(root / "main.typ"), "<overflow>", field="value", root=str(root)))
        except typst.TypstError as exc:
            raise WorkbenchError(typst_error(exc)) from None
    seen, out = set(), []
    for item in found:               # a card on a face and a back page is one card
        key = (item.get("card"), item.get("over"))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


class _project:
    """A temporary Typst project: the library, the game's templates, the deck."""

    def __init__(self, deck: Deck, doc: dict, entry: str):
        self.deck, self.doc, self.entry = deck, doc, entry

    def __enter__(self) -> Path:
        self._tmp = tempfile.TemporaryDirectory(prefix="workbench-print-")
        from workbench.core import storage
        root = Path(self._tmp.name)
        storage.scratch_copy(LIB, root, "workbench.typ")
        storage.copy_tree(print_folder(self.deck.game), root / "templates")
        storage.scratch_write(root, "deck.json", json.dumps(self.doc, ensure_ascii=False))
        storage.scratch_write(root, "main.typ", _main_source(self.deck, self.entry))
        return root

    def __exit__(self, *exc) -> None:
        self._tmp.cleanup()


def typeset(deck: Deck, out: Path | None = None, *, fmt: str = "pdf", ppi: float = 144.0,
            pages: list[int] | None = None, page_list: list[dict] | None = None,
            entry: str = "deck") -> bytes | list[bytes]:
    """Compile ``deck`` to ``fmt`` (pdf, or png: one image per page). ``pages`` keeps
    only those page indexes (a preview); ``page_list`` replaces the pages (drawn by the
    library function ``entry``, e.g. ``tts``). Writes ``out`` when given."""
    import typst
    doc = deck.document()
    if pages is not None:
        doc = {**doc, "pages": [doc["pages"][i] for i in pages]}
    if page_list is not None:
        doc = {**doc, "pages": page_list}
    with _project(deck, doc, entry) as root:
        try:
            data = typst.compile(str(root / "main.typ"), root=str(root), format=fmt,
                                 ppi=ppi if fmt == "png" else None)
        except typst.TypstError as exc:
            raise WorkbenchError(typst_error(exc)) from None
    if out is not None:
        from workbench.core import storage
        storage.write_bytes(out, data if isinstance(data, bytes) else data[0], "--out")
    return data
