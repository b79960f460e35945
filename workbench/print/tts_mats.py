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

from dataclasses import dataclass, field

PAD = 4.0        # mm around and between areas
TITLE = 9.0      # mm of the title band
CELL = 13.0      # mm: one space of a track


@dataclass
class Area:
    """A box on a mat: ``key`` names it for pieces and cards placed ``on`` it."""
    key: str
    label: str
    w: float
    h: float
    cell: bool = False               # a track space: its label is its number, large
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
                self.areas[a.key] = a
                x += a.w + (1.0 if a.cell else PAD)
            width = max(width, x - (1.0 if row and row[-1].cell else PAD) + PAD)
            y += max((a.h for a in row), default=0.0) + PAD
        self.width, self.height = round(width, 3), round(y, 3)
        return self

    def page(self, fill: str) -> dict:
        """The Typst page that draws the mat (``tts-mat``)."""
        self.layout()
        return {"mat": True, "title": self.title, "width": self.width, "height": self.height, "fill": fill,
                "areas": [{"label": a.label, "box": list(a.box), "cell": a.cell} for a in self.areas.values()]}


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


def slot(key: str, label: str, w: float, h: float, margin: float = 4.0) -> Area:
    """A card slot a little larger than the card (``w`` x ``h`` mm)."""
    return Area(key, label, w + margin, h + margin + 5.0)


__all__ = ["Area", "Mat", "track", "slot", "CELL"]
