"""A Tabletop Simulator saved object: every component of a game, and the pieces a
seat needs, ready for a remote table.

Card kinds become custom decks (``DeckCustom``): faces on image sheets of
``NumWidth`` x ``NumHeight`` equal cells (at most 10 x 7), one back image. Hex
tiles, chips and boards become ``Custom_Tile`` objects (hex or box). A game's
print module may add its table (``tts_table``, a
:class:`~workbench.print.tts_objects.Table`): mats the exporter draws (a world
board, player mats, tracks: :mod:`workbench.print.tts_mats`) with a snap point on
every area, the cards the setup deals placed where it deals them (the rest stays
in its kind's deck), pieces on their areas or per seat, bags and infinite bags
with their contents, counters at the data's starting values, a board with snap
points and the tiles the setup lays on it. Every seat gets a hand zone
(``HandTrigger``).

**Images.** Every image is rendered at 300 ppi or more, capped at 4096 px a side
(TTS's texture limit): a deck sheet holds as many cards as fit at 300 ppi
(poker cards 5 x 3 a sheet), and its pixel size is exactly the grid's (each
cell a whole number of pixels, so no neighbour's edge shows): Typst draws each
page at exactly that size (a card stretched by well under 1 % to fill its cell),
so the PNG is Typst's own, never decoded, resized and encoded again. A file's name
ends in the first 16 hex digits of the SHA-256 of its bytes: a changed card
gives a new file and a new URL (TTS caches images by URL), an unchanged one the
same name. URLs are ``file://`` by default, or ``base_url + name`` for images
uploaded where every player's TTS can fetch them (see docs/print.md).

**Scale.** Positions are in TTS units, taken as inches (the table grid's
default square); every object is scaled from its print size in millimetres by
the width the object type has at scale 1 (:data:`NATIVE_WIDTH`), so cards,
tiles and boards keep their true sizes relative to one another.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from .sheets import Deck, build_deck, typeset
from .tts_objects import (DECK_SIZES, EXTRA_COLOURS, GREY_WHITE, INCH, NATIVE_WIDTH, SEAT_COLOURS, STRETCH, Guids, Spots,
                          Table, base, card_scale, deal, pile, seat_objects, snaps, tile, tile_scale, tint, transform)

MAX_COLS, MAX_ROWS = 10, 7
MAX_PX = 4096                 # TTS's texture limit per side
MIN_PPI = 300
IMAGE_NAME = re.compile(r"^.+-[0-9a-f]{16}\.png$")


def cell_pixels(w_mm: float, h_mm: float) -> tuple[int, int, float]:
    """Whole pixels of one cell at 300 ppi, or less when one component alone
    passes 4096 px (then its longer side is 4096); and the ppi that gives."""
    ppi = float(MIN_PPI)
    if max(w_mm, h_mm) / INCH * ppi > MAX_PX:
        ppi = MAX_PX / (max(w_mm, h_mm) / INCH)
    return math.ceil(w_mm / INCH * ppi - 1e-9), math.ceil(h_mm / INCH * ppi - 1e-9), ppi


def sheet_grid(w_mm: float, h_mm: float) -> tuple[int, int]:
    """Columns and rows of a deck sheet: as many as fit 4096 px at 300 ppi, at most 10 x 7."""
    cw, ch, _ = cell_pixels(w_mm, h_mm)
    return max(1, min(MAX_COLS, MAX_PX // cw)), max(1, min(MAX_ROWS, MAX_PX // ch))


@dataclass
class Image:
    """One PNG: the Typst page that draws it and its exact size in pixels."""
    stem: str
    page: dict
    mm: tuple[float, float]
    px: tuple[int, int]
    name: str = ""


def _render(deck: Deck, images: list[Image]) -> None:
    """Typeset every image (grouped by resolution) and fix its exact pixel size."""
    from PIL import Image as PILImage
    groups: dict[float, list[int]] = {}
    for i, im in enumerate(images):
        # the page is drawn a hair larger than the print size (each cell a whole number
        # of pixels at this ppi, the card stretched to it), so Typst's PNG has exactly
        # the size TTS is told: no decoding, resizing or re-encoding
        cols, rows = im.page.get("cols", 1), im.page.get("rows", 1)
        _, _, ppi = cell_pixels(im.mm[0] / cols, im.mm[1] / rows)
        size = lambda n: (n - 0.01) / ppi * INCH          # noqa: E731 - mm that give n whole pixels
        im.page = {**im.page, "cell_w": size(im.px[0] // cols), "cell_h": size(im.px[1] // rows),
                   "page_w": size(im.px[0]), "page_h": size(im.px[1])}
        groups.setdefault(round(ppi, 6), []).append(i)
    for ppi, idx in groups.items():
        pngs = typeset(deck, fmt="png", ppi=ppi, page_list=[images[i].page for i in idx], entry="tts")
        pngs = pngs if isinstance(pngs, list) else [pngs]
        for i, data in zip(idx, pngs):
            im = images[i]
            pic = PILImage.open(io.BytesIO(data))      # lazy: reads the header only
            if pic.size == im.px and pic.mode == "RGBA":
                im.page = {"png": data}                   # Typst's own file: no decoding, no re-encoding
            else:
                pic = pic.convert("RGBA")                 # a hex's corners stay clear
                if pic.size != im.px:
                    pic = pic.resize(im.px, PILImage.LANCZOS)
                buf = io.BytesIO()
                pic.save(buf, format="PNG", optimize=False)
                im.page = {"png": buf.getvalue()}
            im.name = f"{im.stem}-{hashlib.sha256(im.page['png']).hexdigest()[:16]}.png"


def _deck_images(kind) -> tuple[list[tuple[list, int, int, int]], list[Image], Image]:
    g = kind.grid
    cols, rows = sheet_grid(g.card_w, g.card_h)
    per = cols * rows - (1 if cols * rows == MAX_COLS * MAX_ROWS else 0)   # TTS's hidden-card cell
    cw, ch, _ = cell_pixels(g.card_w, g.card_h)
    sheets, images = [], []
    for n, start in enumerate(range(0, len(kind.cards), per)):
        chunk = kind.cards[start:start + per]
        c = max(2, min(cols, len(chunk)))                 # TTS reads sheets of 2 x 2 cells and more
        r = max(2, math.ceil(len(chunk) / c))
        page = {"kind": kind.key, "back": False, "cards": chunk, "cols": c, "rows": r, "grid": g.to_dict(),
                "fill": "#ffffff"}
        images.append(Image(f"{kind.key}-faces-{n + 1}", page, (c * g.card_w, r * g.card_h), (c * cw, r * ch)))
        sheets.append((chunk, len(images) - 1, c, r))
    back = Image(f"{kind.key}-back", {"kind": kind.key, "back": True, "cards": kind.cards[:1], "cols": 1,
                                      "rows": 1, "grid": g.to_dict()}, (g.card_w, g.card_h), (cw, ch))
    return sheets, images, back


def _single(kind, c: dict, i: int, back: bool) -> Image:
    g = kind.grid
    cw, ch, _ = cell_pixels(g.card_w, g.card_h)
    page = {"kind": kind.key, "back": back, "cards": [c], "cols": 1, "rows": 1, "grid": g.to_dict()}
    return Image(f"{kind.key}-{i + 1}-{'back' if back else 'face'}", page, (g.card_w, g.card_h), (cw, ch))


def table_for(deck: Deck, seats: int, seed: int) -> Table:
    from workbench.core.game import resolve
    from workbench.core.registry import get_game
    module = resolve(get_game(deck.game).print_cards)
    make = getattr(module, "tts_table", None)
    return make(deck, seats, seed) if make else Table()


def export(game_id: str, out: Path, *, lang: str = "en", seats: int = 4, seed: int = 1,
           base_url: str | None = None) -> dict:
    """Write ``out`` (the saved object) and its images; return a summary."""
    from workbench.core import storage
    out = storage.check_path(out, "--out")
    deck = build_deck(game_id, lang)
    # the images' folder is derived, not named: it must be a real folder beside the save
    folder = storage.make_folder(storage.inside(out.parent, out.stem + "-images", "the images folder"),
                                 "the images folder")
    table = table_for(deck, seats, seed)
    seats = table.seats or seats
    if table.hand_colours and not table.seat_rgb:     # pieces take the colour of their seat's hand
        rgb = dict(SEAT_COLOURS + EXTRA_COLOURS)
        table.seat_rgb = [rgb[c] for c in table.hand_colours]
    # identity, not equality: three Research tiles are equal dicts but lie on three spaces
    on_board = {id(c): pos for c, pos in zip((table.board or {}).get("tiles", []),
                                             (table.board or {}).get("positions", []))}
    images: list[Image] = []
    plan = []
    for kind in deck.kinds:
        if kind.size in DECK_SIZES:
            sheets, faces, back = _deck_images(kind)
            first = len(images)
            images += faces + [back]
            plan.append(("deck", kind, [(ch, first + i, c, r) for ch, i, c, r in sheets], len(images) - 1))
        else:
            items = []
            for i, c in enumerate(kind.cards):
                images += [_single(kind, c, i, False), _single(kind, c, i, True)]
                items.append((c, len(images) - 2, len(images) - 1))
            plan.append(("tile", kind, items, None))
    board_image = None
    if table.board is not None:
        b = table.board
        w, h = b["width"], b["height"]
        cw, ch, _ = cell_pixels(w, h)
        page = {"kind": b["kind"], "map": True, "back": False, "cards": [], "cells": b["cells"],
                "grid": b["grid"], "width": w, "height": h}
        images.append(Image("board", page, (w, h), (cw, ch)))
        board_image = len(images) - 1
    mat_image: dict[str, list[tuple[tuple, int]]] = {}      # mat key -> (piece, image index) per piece
    for m in table.mats:
        pieces = m.pieces()
        for n, piece in enumerate(pieces):
            cw, ch, _ = cell_pixels(piece[2], piece[3])
            stem = f"mat-{m.key}" + (f"-{n + 1}" if len(pieces) > 1 else "")
            images.append(Image(stem, m.page(tint(table, m.seat), piece), (piece[2], piece[3]), (cw, ch)))
            mat_image.setdefault(m.key, []).append((piece, len(images) - 1))
    _render(deck, images)
    for im in images:
        storage.write_bytes(storage.inside(folder, im.name, "the images folder"), im.page["png"])
    sweep_stale_images(folder, {im.name for im in images})

    def url(i: int) -> str:
        name = images[i].name
        return (base_url.rstrip("/") + "/" + name) if base_url else (folder / name).resolve().as_uri()

    guids = Guids()
    objects: list[dict] = []
    summary: dict = {"decks": {}, "tiles": {}, "boards": {}, "counters": 0, "pieces": {}, "bags": {},
                     "mats": {}, "piles": {}, "rects": {}, "areas": {}}
    spots = Spots(table, seats)
    board_h = spots.centre_h
    dealt = {id(c) for p in table.piles for c in p["cards"]}
    cards_of: dict[int, tuple] = {}      # id(card) -> (kind, CardID, sheet key) or (kind, face image, back image)
    customs: dict[str, dict] = {}        # kind key -> its CustomDeck sheets
    x = -14.0
    deck_no = 0
    for what, kind, items, back_page in plan:
        if what == "deck":
            custom = {}
            for chunk, page_i, cols, rows in items:
                deck_no += 1
                custom[str(deck_no)] = {"FaceURL": url(page_i), "BackURL": url(back_page), "NumWidth": cols,
                                        "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
                for j, c in enumerate(chunk):
                    cards_of[id(c)] = (kind, deck_no * 100 + j, str(deck_no))
            left = [c for c in kind.cards if id(c) not in dealt]
            summary["decks"][kind.key] = len(kind.cards)
            if left:
                objects.append(pile(guids, [(c, cards_of[id(c)]) for c in left], custom,
                                     f"{deck.game_name}: {kind.title}", x, board_h / 2 + 4.0, False))
                x += kind.grid.card_w / INCH + 1.0
            customs[kind.key] = custom
            continue
        loose = [(c, f, b) for c, f, b in items if id(c) not in on_board and id(c) not in dealt]
        for c, f, b in items:
            cards_of[id(c)] = (kind, f, b)
        scale = tile_scale(kind.grid.card_w)
        if kind.size == "board":     # player boards: a row on the far side of the table
            bx = -(len(loose) - 1) / 2 * (kind.grid.card_w / INCH + 0.5)
            for c, face_i, back_i in loose:
                objects.append(tile(guids, kind, c, url(face_i), url(back_i), bx,
                                    board_h / 2 + 12.0 + kind.grid.card_h / INCH / 2, scale))
                bx += kind.grid.card_w / INCH + 0.5
            summary["tiles"][kind.key] = len(items)
            continue
        z = board_h / 2 + 4.0
        for c, face_i, back_i in loose:     # a stack (chips) or a pile per kind
            objects.append(tile(guids, kind, c, url(face_i), url(back_i), x, z, scale))
        for c, face_i, back_i in items:
            if id(c) in on_board:
                at = on_board[id(c)]
                objects.append(tile(guids, kind, c, url(face_i), url(back_i), at[0], at[1], scale, y=1.3))
        summary["tiles"][kind.key] = len(items)
        if loose:
            x += kind.grid.card_w / INCH + 1.0
    if table.board is not None:
        b = table.board
        obj = base(guids, "Custom_Tile", b["nickname"], transform(0.0, 0.0, scale=tile_scale(b["width"]), y=1.0))
        obj["Locked"] = True
        obj["CustomImage"] = {"ImageURL": url(board_image), "ImageSecondaryURL": url(board_image),
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": STRETCH}}
        obj["AttachedSnapPoints"] = snaps(tile_scale(b["width"]), b["positions"])
        objects.append(obj)
        summary["boards"]["board"] = 1
    for m in table.mats:
        cx, cz = spots.mats[m.key]
        parts = mat_image[m.key]
        for n, ((x0, y0, pw, ph), image) in enumerate(parts):
            # a piece's centre on the table: the mat's centre plus the piece's offset in it
            px, pz = cx + (x0 + pw / 2 - m.width / 2) / INCH, cz + (m.height / 2 - y0 - ph / 2) / INCH
            s = tile_scale(pw)
            name = m.nickname + (f" ({n + 1}/{len(parts)})" if len(parts) > 1 else "")
            obj = base(guids, "Custom_Tile", name, transform(px, pz, scale=s, y=1.0), seat=m.seat)
            obj.update({"Locked": True, "ColorDiffuse": dict(GREY_WHITE)})
            obj["CustomImage"] = {"ImageURL": url(image), "ImageSecondaryURL": url(image),
                                  "ImageScalar": 1.0, "WidthScale": 0.0,
                                  "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": STRETCH}}
            # each area's snap point on the piece that holds the area's centre
            mine = [a for a in m.areas.values()
                    if x0 <= a.box[0] + a.box[2] / 2 < x0 + pw + 1e-6 and y0 <= a.box[1] + a.box[3] / 2 < y0 + ph + 1e-6]
            obj["AttachedSnapPoints"] = snaps(s, [(ax - px, az - pz) for ax, az in
                                                   (spots.area(m.key, a.key) for a in mine)])
            objects.append(obj)
        summary["mats"][m.key] = len(m.areas)
        w, h = m.width / INCH / 2, m.height / INCH / 2
        summary["rects"][m.key] = [round(v, 3) for v in (cx - w, cz - h, cx + w, cz + h)]
        for key, a in m.areas.items():      # where each area lies on the table: x0, z0, x1, z1
            ax, az = spots.area(m.key, key)
            aw, ah = a.box[2] / INCH / 2, a.box[3] / INCH / 2
            summary["areas"][f"{m.key}/{key}"] = [round(v, 3) for v in (ax - aw, az - ah, ax + aw, az + ah)]
    for p in table.piles:
        objects += deal(guids, p, cards_of, customs, spots, url)
        summary["piles"][p["nickname"]] = summary["piles"].get(p["nickname"], 0) + len(p["cards"])
    objects += seat_objects(guids, table, seats, spots, summary)
    tabs = notebook(game_id, lang, table)
    summary["notebook"] = [t["title"] for t in tabs.values()]
    save = {"SaveName": f"{deck.game_name} ({lang}, cards {deck.version})", "GameMode": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": tabs, "VersionNumber": ""}
    storage.write_text(out, json.dumps(save, ensure_ascii=False, indent=1), "--out")
    summary.update({"game": game_id, "lang": lang, "out": str(out), "images": str(folder),
                    "image_files": len(images), "version": deck.version, "seats": seats,
                    "image_list": [{"file": im.name, "mm": [round(v, 3) for v in im.mm], "px": list(im.px),
                                    "ppi": round(min(im.px[0] / (im.mm[0] / INCH), im.px[1] / (im.mm[1] / INCH)), 1)}
                                   for im in images]})
    return summary


#: the list of images an export wrote, kept in the images folder: the next export
#: deletes only images listed there, never a file it did not write
MANIFEST = ".workbench-images.json"


def sweep_stale_images(folder: Path, names: set[str]) -> list[str]:
    """Delete the images of an earlier export that this one no longer uses, and
    record ``names`` as the images written now.

    Only a file the manifest lists, whose name has the image shape and ends in
    the first 16 hex digits of its own SHA-256 (so it is still the very file the
    workbench wrote) is deleted; anything else in the folder is left alone."""
    from workbench.core import storage
    from workbench.core.data import read_file_bytes
    from workbench.core.errors import DataError
    listed: list[str] = []
    try:
        data = json.loads(read_file_bytes(storage.inside(folder, MANIFEST)).decode("utf-8"))
        if isinstance(data, dict) and isinstance(data.get("images"), list):
            listed = [n for n in data["images"] if isinstance(n, str)]
    except (DataError, ValueError):
        listed = []                     # no manifest, or not one we can read: delete nothing
    removed = []
    for name in listed:
        if name in names or not IMAGE_NAME.match(name) or "/" in name or name.startswith("."):
            continue
        path = folder / name
        if path.is_symlink() or not path.is_file():
            continue
        try:
            digest = hashlib.sha256(read_file_bytes(path, limit=64 * 1024 * 1024)).hexdigest()[:16]
        except DataError:
            continue
        if name.endswith(f"-{digest}.png") and storage.remove_file(folder, name, "the images folder"):
            removed.append(name)
    storage.write_text(storage.inside(folder, MANIFEST), json.dumps({"images": sorted(names)}, indent=1) + "\n",
                       "the images folder")
    return removed


def notebook(game_id: str, lang: str, table: Table) -> dict:
    """TTS's Notebook (``TabStates``): the rulebook as the workbench renders it in
    ``lang`` (with its ruling marks), then the game's own notes (a player aid); tabs
    everyone sees. A game without a rulebook in ``lang`` gets only its notes."""
    from workbench.core.errors import WorkbenchError
    from workbench.core.registry import get_game
    from workbench.rules.render import render
    notes = []
    try:
        game = get_game(game_id)
        text = render(game_id, lang, game=game).text
    except WorkbenchError:
        text = ""
    # the clause markers are for the workbench's tools, not for a reader
    text = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("<!--")).strip()
    if text:        # the tab is titled by the book's own first heading
        heading = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), game.name)
        notes.append((heading, text))
    notes += table.notes
    return {str(i): {"title": title, "body": body, "color": "Grey",
                     "visibleColor": {"r": 0.5, "g": 0.5, "b": 0.5}, "id": i}
            for i, (title, body) in enumerate(notes)}


__all__ = ["export", "Table", "sheet_grid", "cell_pixels", "NATIVE_WIDTH", "SEAT_COLOURS", "tile_scale",
           "card_scale"]
