"""What a printed PDF puts on each page, read with PDFium for the print tests: the
paper size, every drawn object's box (paths, images, text), each character with its
font size and box, and the page's text, in PDF points with the origin at the top left.

PDFium reads a deck in a few hundredths of a second where a pure-Python PDF parser
took about three seconds per PDF; the boxes are what the tests measure margins with:
a character's box is its font's box (from its ascent down, at least as tall as its
size), not the tight outline of its glyph."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

# PDFium's font boxes come from float ascents: a line set exactly at a margin can read
# up to 0.005 pt (0.002 mm) inside it
EDGE_TOLERANCE_MM = 0.01
MM = 72 / 25.4

# the leaves of a page's object tree: a form object only groups others
_KINDS = {pdfium_c.FPDF_PAGEOBJ_TEXT: "text", pdfium_c.FPDF_PAGEOBJ_PATH: "path",
          pdfium_c.FPDF_PAGEOBJ_IMAGE: "image", pdfium_c.FPDF_PAGEOBJ_SHADING: "shading"}


@dataclass(frozen=True)
class Box:
    """One drawn thing: its kind, its box, and its text for a character."""
    kind: str
    x0: float
    top: float
    x1: float
    bottom: float
    text: str = ""
    size: float = 0.0

    def edge(self, width: float, height: float) -> float:
        """Its distance to the nearest edge of the paper."""
        return min(self.x0, self.top, width - self.x1, height - self.bottom)


@dataclass
class Page:
    width: float
    height: float
    drawn: list[Box] = field(default_factory=list)    # every leaf object and every character
    chars: list[Box] = field(default_factory=list)    # in reading order
    text: str = ""

    @property
    def lines(self) -> list[Box]:
        """Straight strokes (crop marks, fold ticks): paths thinner than a point one way."""
        return [b for b in self.drawn if b.kind == "path" and min(b.x1 - b.x0, b.bottom - b.top) < 1.0]


def read_pages(path: Path) -> list[Page]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [_page(pdf[i]) for i in range(len(pdf))]
    finally:
        pdf.close()


def _stroke_ends(raw, left: float, bottom: float, right: float, top: float):
    """PDFium widens a stroked path's box on every side; a straight line with butt
    ends (a crop mark) inks nothing past its ends, so its length is given back: the
    widening is half the box's thickness, the line itself having none."""
    width = ctypes.c_float()
    if not pdfium_c.FPDFPageObj_GetStrokeWidth(raw, ctypes.byref(width)) or width.value <= 0:
        return left, bottom, right, top
    if pdfium_c.FPDFPageObj_GetLineCap(raw) != pdfium_c.FPDF_LINECAP_BUTT:
        return left, bottom, right, top
    thick = min(top - bottom, right - left)
    if thick > 2 * width.value + 1e-3:                     # not a straight line
        return left, bottom, right, top
    half = thick / 2
    if top - bottom <= right - left:                       # horizontal
        return left + half, bottom, right - half, top
    return left, bottom + half, right, top - half


def _page(page) -> Page:
    width, height = page.get_size()
    out = Page(width, height)
    for obj in page.get_objects(max_depth=8):
        kind = _KINDS.get(obj.type)
        if kind is not None:
            left, bottom, right, top = obj.get_bounds()
            if kind == "path":
                left, bottom, right, top = _stroke_ends(obj.raw, left, bottom, right, top)
            out.drawn.append(Box(kind, left, height - top, right, height - bottom))
    textpage = page.get_textpage()
    for i in range(textpage.count_chars()):
        code = pdfium_c.FPDFText_GetUnicode(textpage.raw, i)
        if code in (0, 0xFFFF) or chr(code) in "\r\n":
            continue                          # line breaks PDFium adds between runs
        if code == 0xFFFE:                    # PDFium's name for a hyphen that ends a line
            code = ord("-")
        if pdfium_c.FPDFText_IsGenerated(textpage.raw, i):
            continue
        box = pdfium_c.FS_RECTF()
        pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, i, ctypes.byref(box))
        size = pdfium_c.FPDFText_GetFontSize(textpage.raw, i)
        top = height - box.top
        # as tall as its size at least (the box PDF text tools give a character), so a
        # line of text set right at the margin is measured at its full size
        bottom = max(height - box.bottom, top + size)
        char = Box("char", box.left, top, box.right, bottom, chr(code), size)
        out.chars.append(char)
        out.drawn.append(char)
    out.text = textpage.get_text_range().replace("\ufffe", "-")
    textpage.close()
    page.close()
    return out
