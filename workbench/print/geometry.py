"""Sizes of card kinds and papers, and how many cards of a kind fit a sheet.

All lengths are millimetres. Cards sit in a grid of cells (card plus bleed on every
side), centred horizontally so the back page can mirror the columns about the page's
centre line. Nothing is printed within ``margin`` of the paper's edge (default 5 mm:
most home printers cannot print the outer 3-5 mm, and "fit to page" would shrink the
cards), so the grid keeps room inside the margin for the crop marks (at least
:data:`MARK_MIN` long, :data:`MARK_GAP` from the bleed) and, at the bottom, the footer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.core.errors import WorkbenchError

# Standard sizes (width, height) in mm. Designers pick one per kind in print.yaml.
SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "mini": (44.0, 63.0),          # "mini American/Euro" small cards
    "square": (70.0, 70.0),
    "chip": (30.0, 30.0),          # square chits and chips
    "hex": (70.0, round(70.0 * 2 / math.sqrt(3), 2)),   # pointy-top hex, 70 mm across the flats
    "board": (170.0, 115.0),       # player and faction boards
    "tarot": (70.0, 120.0),        # tarot cards
}
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4),
                                          "a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}
BLEED = 2.0         # printed past the cut line on every side (a home print cut by hand)
SERVICE_BLEED = 3.175   # 1/8 inch: what print-on-demand services ask for around each card
MARGIN = 5.0        # default: nothing is printed closer than this to the paper's edge
MARK_GAP = 1.0      # a crop mark starts this far from the bleed edge ...
MARK_MIN = 1.5      # ... and is at least this long ...
MARK_LEN = 3.0      # ... and at most this long
FOOTER = 3.0        # room above the bottom margin for the footer line


@dataclass(frozen=True)
class Grid:
    """Where the cards of one kind go on a sheet."""
    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    x0: float       # left edge of the first cell (bleed box), mm from the page's left
    y0: float
    margin: float = MARGIN
    #: hexes nested: rows a hex's three quarters apart, every other row shifted half a hex
    nest: bool = False
    #: a fold-in-half sheet: faces in the top half, their backs mirrored about the fold
    #: (the page's horizontal centre line) in the bottom half; x0, y0 are in the bottom
    #: half, y0 measured from the fold
    fold: bool = False

    @property
    def pitch(self) -> float:
        """Distance between rows: a cell, or for nested hexes three quarters of a
        regular hex as wide as the bleed box (its neighbours' bleeds just meet)."""
        return 0.75 * self.cell_w * 2 / math.sqrt(3) if self.nest else self.cell_h

    @property
    def landscape(self) -> bool:
        return self.paper_w > self.paper_h

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed

    def cell(self, index: int, *, back: bool = False) -> tuple[float, float]:
        """Top-left corner of cell ``index`` (row-major). On a back page the column
        is mirrored, so a card's back lands behind its face when the sheet is turned
        over. On a fold-in-half sheet the back is the face's mirror image about the
        fold: same column, the row counted from the fold the other way, so folding
        the sheet (printed sides out) puts every back behind its face, upright when
        the card is turned over top to bottom."""
        row, col = divmod(index, self.cols)
        x = self.x0 + col * self.cell_w + (self.cell_w / 2 if self.nest and row % 2 else 0.0)
        if self.fold:
            from_fold = self.y0 + row * self.pitch
            half = self.paper_h / 2
            return round(x, 3), round(half + from_fold if back else half - from_fold - self.cell_h, 3)
        if back:
            x = self.paper_w - x - self.cell_w
        return round(x, 3), round(self.y0 + row * self.pitch, 3)

    def to_dict(self) -> dict:
        return {"paper_w": self.paper_w, "paper_h": self.paper_h, "w": self.card_w, "h": self.card_h,
                "bleed": self.bleed, "cols": self.cols, "rows": self.rows, "x0": self.x0, "y0": self.y0,
                "margin": self.margin, "nest": self.nest, "fold": self.fold}


def size_of(name: str) -> tuple[float, float]:
    if name not in SIZES:
        raise WorkbenchError(f"unknown card size {name!r}; choose one of {', '.join(SIZES)}")
    return SIZES[name]


def grid_for(size: str, paper: str, *, bleed: float = BLEED, margin: float = MARGIN, fold: bool = False) -> Grid:
    """The densest grid of ``size`` cards on ``paper``, portrait or landscape (one
    orientation for every sheet of a kind), with every crop mark and the footer
    at least ``margin`` from the paper's edge. ``fold``: the grid of one half of a
    fold-in-half sheet (the half below the fold, which holds the footer; the faces'
    half above is its mirror image)."""
    if paper not in PAPERS:
        raise WorkbenchError(f"unknown paper {paper!r}; choose {', '.join(PAPERS)}")
    if not 0 <= margin <= 30:
        raise WorkbenchError(f"--margin {margin:g} mm: give 0 to 30 mm (5 mm suits most printers)")
    if not 0 <= bleed <= 10:
        raise WorkbenchError(f"--bleed {bleed:g} mm: give 0 to 10 mm (print services ask for 3.175 mm, 1/8 in)")
    w, h = size_of(size)
    best: Grid | None = None
    pw0, ph0 = PAPERS[paper]
    room = margin + MARK_GAP + MARK_MIN          # from the edge to the grid's bleed box
    nest = size == "hex"
    cw, ch = w + 2 * bleed, h + 2 * bleed
    pitch = 0.75 * cw * 2 / math.sqrt(3) if nest else ch
    for pw, full_h in ((pw0, ph0), (ph0, pw0)):      # portrait, then landscape
        # a fold sheet's half below the fold: the fold is its top edge, the footer's room at the bottom
        ph = full_h / 2 if fold else full_h
        shift = cw / 2 if nest else 0.0          # nested rows: every other one half a hex to the right
        cols = int((pw - 2 * room - shift) // cw)
        rows = 1 + int((ph - 2 * room - FOOTER - ch) // pitch) if ph - 2 * room - FOOTER >= ch else 0
        if cols < 1 or rows < 1:
            continue
        shift = shift if rows > 1 else 0.0
        x0 = (pw - cols * cw - shift) / 2
        y0 = room + (ph - 2 * room - FOOTER - (rows - 1) * pitch - ch) / 2
        g = Grid(pw, full_h, w, h, bleed, cols, rows, round(x0, 3), round(y0, 3), margin, nest, fold)
        if best is None or g.per_page > best.per_page:
            best = g
    if best is None:
        raise WorkbenchError(f"a {size} card ({w}x{h} mm) does not fit on {paper}"
                             f"{' folded in half' if fold else ''} with a {margin:g} mm margin")
    return best
