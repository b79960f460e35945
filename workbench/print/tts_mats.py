"""Mats for a Tabletop Simulator table: boards the exporter draws itself (a game's
world board, a player's mat, a track of numbered spaces) from what a game's print
module declares, not from a card template.

A :class:`Mat` is rows of :class:`Area` s (a card slot, a box for pieces, one
space of a track), each with its size in millimetres. :meth:`Mat.layout` packs the
rows top to bottom (the image's top is the table's far side) and gives every area
its box; the exporter renders the mat at 300 ppi (``tts-mat`` in workbench.typ),
puts a snap point on the centre of every area and lays the pieces and cards a game
places ``on`` an area there. Nothing here knows a game: the labels, counts and
ranges all come from the game's own data through its ``tts_table``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

PAD = 4.0        # mm around and between areas
TITLE = 9.0      # mm of the title band
CELL = 13.0      # mm: one space of a track
MIN_PPI = 250    # no mat image is coarser than this ...
MAX_PX = 4096    # ... and none is larger than TTS's texture limit a side
SLOT_W, SLOT_H = 4.0, 6.0   # mm a card slot adds to its card: 2 mm a side, its label's band


@dataclass
class Area:
    """A box on a mat: ``key`` names it for pieces and cards placed ``on`` it."""
    key: str
    label: str
    w: float
    h: float
    cell: bool = False               # a track space: its label is its number, large
    holds: tuple[float, float] | None = None   # a card slot: the card (or board) it is made for, w x h mm
    fan: bool = False                # cards are spread over it (a splay), not stacked on a slot
    blank: bool = False              # room only: not drawn, no snap point (lines areas up in columns)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)   # x, y, w, h in mm from the mat's top left


@dataclass
class Mat:
    """A board of areas, shared (``seat`` None) or one seat's."""
    key: str
    nickname: str
    rows: list[list[Area]]
    seat: int | None = None
    title: str = ""
    width: float = 0.0
    height: float = 0.0
    areas: dict[str, Area] = field(default_factory=dict)

    def layout(self) -> Mat:
        """Give every area its box and the mat its size (idempotent)."""
        y = PAD + (TITLE if self.title else 0.0)
        width = 0.0
        self.areas = {}
        for row in self.rows:
            x = PAD
            for a in row:
                if a.key in self.areas:
                    raise ValueError(f"mat {self.key}: area {a.key!r} twice")
                a.box = (round(x, 3), round(y, 3), a.w, a.h)
                if not a.blank:
                    self.areas[a.key] = a
                x += a.w + (1.0 if a.cell else PAD)
            width = max(width, x - (1.0 if row and row[-1].cell else PAD) + PAD)
            y += max((a.h for a in row), default=0.0) + PAD
        self.width, self.height = round(width, 3), round(y, 3)
        return self

    def page(self, fill: str, piece: tuple[float, float, float, float] | None = None) -> dict:
        """The Typst page that draws the mat (``tts-mat``), or one ``piece`` of it
        (x, y, w, h mm: the areas shifted so the piece's corner is the page's)."""
        self.layout()
        x0, y0, w, h = piece or (0.0, 0.0, self.width, self.height)
        return {"mat": True, "title": self.title, "width": w, "height": h, "fill": fill, "dx": -x0, "dy": -y0,
                "areas": [{"label": a.label, "box": list(a.box), "cell": a.cell} for a in self.areas.values()]}

    def pieces(self) -> list[tuple[float, float, float, float]]:
        """The mat cut into equal pieces (x, y, w, h mm, row by row) so each piece's image
        is at least :data:`MIN_PPI` within :data:`MAX_PX` a side: a mat larger than
        that (416 mm) is laid as pieces side by side, not drawn coarser or smaller (a
        smaller mat's slots would no longer fit the cards)."""
        self.layout()
        most = MAX_PX / MIN_PPI * 25.4
        cols, rows = math.ceil(self.width / most - 1e-9), math.ceil(self.height / most - 1e-9)
        w, h = self.width / cols, self.height / rows
        return [(round(c * w, 3), round(r * h, 3), round(w, 3), round(h, 3)) for r in range(rows) for c in range(cols)]


def gap(w: float) -> Area:
    """Room in a row (``w`` mm plus the usual space after it), so the areas after it line
    up with a wider row's."""
    return Area("", "", w, 0.0, blank=True)


def track(key: str, lo: int, hi: int, *, per_row: int = 16, label: str = "") -> list[list[Area]]:
    """The spaces ``lo``..``hi`` of a track as rows of at most ``per_row`` cells
    (areas ``key:lo`` .. ``key:hi``); a first cell-sized label area when ``label``."""
    values = list(range(lo, hi + 1))
    rows = []
    for start in range(0, len(values), per_row):
        rows.append([Area(f"{key}:{v}", str(v), CELL, CELL, cell=True) for v in values[start:start + per_row]])
    if label and rows:
        rows.insert(0, [Area(f"{key}:label", label, CELL * min(per_row, len(values)) +
                             (min(per_row, len(values)) - 1), 6.0, cell=False)])
    return rows


def slot(key: str, label: str, w: float, h: float) -> Area:
    """A card slot a little larger than the card (``w`` x ``h`` mm): 2 mm around it and
    a band for its label, within 10 % of the card each way for every standard size, so
    the slot shows where the card goes rather than a box it can wander in."""
    return Area(key, label, w + SLOT_W, h + SLOT_H, holds=(w, h))


__all__ = ["Area", "Mat", "track", "slot", "gap", "CELL", "MIN_PPI", "PAD", "SLOT_W"]
