"""Print-on-demand files: every card of a deck as its own image and its own PDF, face
and back, with the bleed a print service asks for, named by card and copy.

A service prints each file edge to edge and cuts ``bleed`` mm inside it, so a file is
the card's trim size plus the bleed on every side, at ``ppi`` (300 or more) exactly:
its pixel size is ``round((trim + 2 * bleed) / 25.4 * ppi)`` on each side and the PNG
carries that resolution (its ``pHYs`` chunk). Copies are honoured: a kind that holds
three equal tiles gives three face files (``-1``, ``-2``, ``-3``), so uploading the
folder orders the right count of each. The files of one card are::

    <out>/<kind>/<card>-<copy>-face.png   ...-back.png   ...-face.pdf   ...-back.pdf

with ``<card>`` the card files' name in lower-case ASCII letters, digits and hyphens
(the same in every language), and ``<out>/manifest.csv`` lists every file in deck
order with its card, copy, side, size in mm and pixels, ppi and SHA-256 (a back shared
by a whole kind shows as one hash). A file the previous manifest listed and this run
does not write is removed; nothing else in the folder is touched.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import unicodedata
from pathlib import Path

from workbench.core import storage
from workbench.core.errors import WorkbenchError

from .geometry import SERVICE_BLEED, Grid
from .sheets import Deck, typeset

INCH = 25.4
MIN_PPI = 300
MANIFEST = "manifest.csv"
COLUMNS = ["file", "kind", "card", "copy", "side", "trim_mm", "bleed_mm", "file_mm", "px", "ppi", "sha256"]


def slug(name: str) -> str:
    """A card name as a file name: ASCII letters and digits, hyphens between words."""
    plain = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "card"


def pixels(mm: float, ppi: float) -> int:
    """Whole pixels of ``mm`` at ``ppi`` (the nearest)."""
    return max(1, round(mm / INCH * ppi))


def file_names(deck: Deck) -> list[tuple[str, dict, str, int]]:
    """``(kind key, card, card slug, copy)`` for every card in deck order; the copy
    counts the cards of the kind with the same file name so far (1, 2, ...)."""
    out = []
    for kind in deck.kinds:
        seen: dict[str, int] = {}
        for c in kind.cards:
            s = slug(c.get("name", kind.key))
            seen[s] = seen.get(s, 0) + 1
            out.append((kind.key, c, s, seen[s]))
    return out


def _pages(deck: Deck, ppi: float, back: bool, exact: bool) -> list[dict]:
    pages = []
    for key, c, _, _ in file_names(deck):
        g: Grid = next(k.grid for k in deck.kinds if k.key == key)
        w, h = g.card_w + 2 * g.bleed, g.card_h + 2 * g.bleed
        if exact:            # a hair under n pixels: Typst rounds it to exactly n
            w, h = ((pixels(v, ppi) - 0.01) / ppi * INCH for v in (w, h))
        c["geom"] = {"w": g.card_w, "h": g.card_h, "bleed": g.bleed}
        pages.append({"kind": key, "back": back, "cards": [c], "grid": g.to_dict(), "page_w": w, "page_h": h})
    return pages


def export(deck: Deck, out: Path, *, ppi: float = MIN_PPI, formats: tuple[str, ...] = ("png", "pdf")) -> dict:
    """Write every card's face and back files under ``out``; return a summary."""
    from PIL import Image
    from pypdf import PdfReader, PdfWriter
    if ppi < MIN_PPI or ppi > 1200:
        raise WorkbenchError(f"--ppi {ppi:g}: give 300 to 1200 (print services ask for 300 or more)")
    if not set(formats) <= {"png", "pdf"} or not formats:
        raise WorkbenchError("formats are png and pdf")
    out = storage.make_folder(Path(out), "--out")
    names = file_names(deck)
    rows: list[dict] = []
    written: list[tuple[str, bytes]] = []
    for back in (False, True):
        side = "back" if back else "face"
        if "png" in formats:
            pngs = typeset(deck, fmt="png", ppi=ppi, page_list=_pages(deck, ppi, back, True), entry="cards")
            pngs = pngs if isinstance(pngs, list) else [pngs]
            for (key, c, s, copy), data in zip(names, pngs):
                pic = Image.open(io.BytesIO(data))
                buf = io.BytesIO()
                pic.save(buf, format="PNG", dpi=(ppi, ppi))     # the resolution a service reads
                written.append((f"{key}/{s}-{copy}-{side}.png", buf.getvalue()))
                rows.append(_row(deck, key, c, copy, side, written[-1], ppi, pic.size))
        if "pdf" in formats:
            data = typeset(deck, fmt="pdf", page_list=_pages(deck, ppi, back, False), entry="cards")
            reader = PdfReader(io.BytesIO(data))
            for (key, c, s, copy), page in zip(names, reader.pages):
                writer = PdfWriter()
                writer.add_page(page)
                writer.add_metadata({"/Title": f"{deck.game_name}: {c.get('title') or c.get('name')} ({side})"})
                buf = io.BytesIO()
                writer.write(buf)
                written.append((f"{key}/{s}-{copy}-{side}.pdf", buf.getvalue()))
                rows.append(_row(deck, key, c, copy, side, written[-1], None, None))
    old = _listed(out)
    for name, data in written:
        folder = storage.make_folder(storage.inside(out, name.split("/")[0], "--out"), "--out")
        storage.write_bytes(storage.inside(folder, name.split("/")[1], "--out"), data, "--out")
    new = {name for name, _ in written}
    for name in sorted(old - new):          # only files this exporter wrote before
        kind, file = name.split("/")
        if (out / kind).is_dir():
            storage.remove_file(storage.inside(out, kind, "--out"), file, "--out")
    order = {(r["kind"], r["card"], r["copy"]): i for i, r in enumerate(rows)}
    rows.sort(key=lambda r: (order[(r["kind"], r["card"], r["copy"])], r["side"] != "face", r["file"]))
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    storage.write_text(storage.inside(out, MANIFEST, "--out"), text.getvalue(), "--out")
    return {"game": deck.game, "lang": deck.lang, "out": str(out), "ppi": ppi, "files": len(written),
            "cards": deck.counts(), "bleed": next((k.grid.bleed for k in deck.kinds), SERVICE_BLEED),
            "manifest": str(out / MANIFEST)}


def _row(deck: Deck, key: str, c: dict, copy: int, side: str, item: tuple[str, bytes], ppi, px) -> dict:
    g = next(k.grid for k in deck.kinds if k.key == key)
    return {"file": item[0], "kind": key, "card": c.get("name", ""), "copy": copy, "side": side,
            "trim_mm": f"{g.card_w:g}x{g.card_h:g}", "bleed_mm": f"{g.bleed:g}",
            "file_mm": f"{g.card_w + 2 * g.bleed:g}x{g.card_h + 2 * g.bleed:g}",
            "px": f"{px[0]}x{px[1]}" if px else "", "ppi": f"{ppi:g}" if ppi else "",
            "sha256": hashlib.sha256(item[1]).hexdigest()}


def _listed(out: Path) -> set[str]:
    """The files the previous manifest in ``out`` lists (names the exporter makes only)."""
    from workbench.core.data import read_file_bytes
    path = storage.inside(out, MANIFEST, "--out")
    if not path.is_file():
        return set()
    ok = re.compile(r"^[a-z0-9_-]+/[a-z0-9-]+-\d+-(face|back)\.(png|pdf)$")
    try:
        text = read_file_bytes(path).decode("utf-8")
    except (UnicodeDecodeError, WorkbenchError):
        return set()                     # not a manifest this exporter wrote: delete nothing
    return {r.get("file", "") for r in csv.DictReader(io.StringIO(text)) if ok.match(r.get("file") or "")}


__all__ = ["export", "slug", "pixels", "file_names", "MIN_PPI"]
