"""A Tabletop Simulator saved object: every component of a game, and the pieces a
seat needs, ready for a remote table.

Card kinds become custom decks (``DeckCustom``): faces on image sheets of
``NumWidth`` x ``NumHeight`` equal cells (at most 10 x 7), one back image. Hex
tiles, chips and boards become ``Custom_Tile`` objects (hex or box). A game's
print module may add its table (``tts_table``): counters at the data's starting
values, pieces per seat (pawns, blocks, cubes), bags with their contents, a
board with snap points and the tiles the setup lays on it. Every seat gets a
hand zone (``HandTrigger``).

**Images.** Every image is rendered at 300 ppi or more, capped at 4096 px a side
(TTS's texture limit): a deck sheet holds as many cards as fit at 300 ppi
(poker cards 5 x 3 a sheet), and its pixel size is exactly the grid's (each
cell a whole number of pixels, so no neighbour's edge shows). A file's name
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
from dataclasses import dataclass, field
from pathlib import Path

from .sheets import Deck, build_deck, typeset

MAX_COLS, MAX_ROWS = 10, 7
MAX_PX = 4096                 # TTS's texture limit per side
MIN_PPI = 300
INCH = 25.4
DECK_SIZES = {"poker", "mini", "square"}
#: width in TTS units of each object type at scale 1 (the units we place in are
#: inches; a card is about 2.2 units wide at scale 1, a custom tile 2)
NATIVE_WIDTH = {"Card": 2.2, "Custom_Tile": 2.0}
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}
#: seat colours in TTS's order of player colours (hand zones and pieces take them)
SEAT_COLOURS = [("Red", (0.856, 0.1, 0.094)), ("Blue", (0.118, 0.53, 1.0)), ("Green", (0.192, 0.701, 0.168)),
                ("Yellow", (0.905, 0.898, 0.172)), ("Orange", (0.956, 0.392, 0.113)),
                ("Purple", (0.627, 0.125, 0.941)), ("Teal", (0.129, 0.694, 0.607)), ("Pink", (0.96, 0.439, 0.807))]
IMAGE_NAME = re.compile(r"^.+-[0-9a-f]{16}\.png$")


def colour(seat: int | None) -> dict:
    if seat is None:
        return dict(GREY)
    r, g, b = SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]
    return {"r": r, "g": g, "b": b}


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


@dataclass
class Table:
    """What a game adds to the table: counters, pieces, bags and a board (see
    the print modules' ``tts_table``)."""
    counters: list[tuple] = field(default_factory=list)       # (name, value) or (name, value, seat)
    pieces: list[dict] = field(default_factory=list)      # {type, nickname, seat, count, at}
    bags: list[dict] = field(default_factory=list)        # {nickname, seat, contents: [piece...]}
    board: dict | None = None                             # {nickname, cells: [(x, y) mm], size, tiles: [card]}


def _render(deck: Deck, images: list[Image]) -> None:
    """Typeset every image (grouped by resolution) and fix its exact pixel size."""
    from PIL import Image as PILImage
    groups: dict[float, list[int]] = {}
    for i, im in enumerate(images):
        ppi = max(im.px[0] / (im.mm[0] / INCH), im.px[1] / (im.mm[1] / INCH))
        groups.setdefault(round(ppi, 3), []).append(i)
    for ppi, idx in groups.items():
        pngs = typeset(deck, fmt="png", ppi=ppi, page_list=[images[i].page for i in idx], entry="tts")
        pngs = pngs if isinstance(pngs, list) else [pngs]
        for i, data in zip(idx, pngs):
            im = images[i]
            pic = PILImage.open(io.BytesIO(data)).convert("RGBA")   # a hex's corners stay clear
            if pic.size != im.px:
                pic = pic.resize(im.px, PILImage.LANCZOS)
            buf = io.BytesIO()
            pic.save(buf, format="PNG", optimize=False)
            im.page = {"png": buf.getvalue()}
            im.name = f"{im.stem}-{hashlib.sha256(im.page['png']).hexdigest()[:16]}.png"


def _transform(x: float, z: float, *, scale: float = 1.0, y: float = 1.0, flip: bool = False,
               sy: float | None = None) -> dict:
    return {"posX": round(x, 3), "posY": round(y, 3), "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flip else 0.0, "scaleX": round(scale, 4), "scaleY": round(sy if sy else 1.0, 4),
            "scaleZ": round(scale, 4)}


class _Guids:
    def __init__(self):
        self.n = 0x100000

    def __call__(self) -> str:
        self.n += 1
        return f"{self.n:06x}"


def _base(guids: _Guids, name: str, nickname: str, transform: dict, description: str = "",
          seat: int | None = None) -> dict:
    return {"GUID": guids(), "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": colour(seat), "Locked": False,
            "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _description(c: dict) -> str:
    return "draft" if c.get("draft_all") else (f"draft: {', '.join(c['draft'])}" if c.get("draft") else "")


def tile_scale(width_mm: float) -> float:
    return width_mm / INCH / NATIVE_WIDTH["Custom_Tile"]


def card_scale(width_mm: float) -> float:
    return width_mm / INCH / NATIVE_WIDTH["Card"]


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
    out = Path(out)
    deck = build_deck(game_id, lang)
    folder = out.with_name(out.stem + "-images")
    folder.mkdir(exist_ok=True)
    table = table_for(deck, seats, seed)
    # identity, not equality: three Research tiles are equal dicts but lie on three spaces
    on_board = {id(c): pos for c, pos in zip((table.board or {}).get("tiles", []),
                                             (table.board or {}).get("positions", []))}
    images: list[Image] = []
    plan = []
    for kind in deck.kinds:
        if kind.size in DECK_SIZES:
            sheets, faces, back = _deck_images(kind)
            base = len(images)
            images += faces + [back]
            plan.append(("deck", kind, [(ch, base + i, c, r) for ch, i, c, r in sheets], len(images) - 1))
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
    _render(deck, images)
    names = {im.name for im in images}
    for im in images:
        (folder / im.name).write_bytes(im.page["png"])
    stale = [p for p in folder.glob("*.png") if IMAGE_NAME.match(p.name) and p.name not in names]
    for p in stale:
        p.unlink()

    def url(i: int) -> str:
        name = images[i].name
        return (base_url.rstrip("/") + "/" + name) if base_url else (folder / name).resolve().as_uri()

    guids = _Guids()
    objects: list[dict] = []
    summary: dict = {"decks": {}, "tiles": {}, "boards": {}, "counters": 0, "pieces": {}, "bags": {}}
    board_h = (table.board["height"] / INCH) if table.board else 0.0
    x = -14.0
    deck_no = 0
    for what, kind, items, back_page in plan:
        if what == "deck":
            cards, ids, custom = [], [], {}
            scale = card_scale(kind.grid.card_w)
            z = board_h / 2 + 4.0
            for chunk, page_i, cols, rows in items:
                deck_no += 1
                custom[str(deck_no)] = {"FaceURL": url(page_i), "BackURL": url(back_page), "NumWidth": cols,
                                        "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
                for j, c in enumerate(chunk):
                    cid = deck_no * 100 + j
                    ids.append(cid)
                    card = _base(guids, "Card", c.get("title") or c["name"], _transform(x, z, scale=scale, flip=True),
                                 _description(c))
                    card.update({"CardID": cid, "SidewaysCard": False,
                                 "CustomDeck": {str(deck_no): custom[str(deck_no)]}})
                    cards.append(card)
            obj = _base(guids, "DeckCustom", f"{deck.game_name}: {kind.title}", _transform(x, z, scale=scale, flip=True))
            obj.update({"SidewaysCard": False, "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards})
            objects.append(obj)
            summary["decks"][kind.key] = len(ids)
            x += kind.grid.card_w / INCH + 1.0
            continue
        loose = [(c, f, b) for c, f, b in items if id(c) not in on_board]
        scale = tile_scale(kind.grid.card_w)
        if kind.size == "board":     # player boards: a row on the far side of the table
            bx = -(len(loose) - 1) / 2 * (kind.grid.card_w / INCH + 0.5)
            for c, face_i, back_i in loose:
                objects.append(_tile(guids, kind, c, url(face_i), url(back_i), bx,
                                     board_h / 2 + 12.0 + kind.grid.card_h / INCH / 2, scale))
                bx += kind.grid.card_w / INCH + 0.5
            summary["tiles"][kind.key] = len(items)
            continue
        z = board_h / 2 + 4.0
        for c, face_i, back_i in loose:     # a stack (chips) or a pile per kind
            objects.append(_tile(guids, kind, c, url(face_i), url(back_i), x, z, scale))
        for c, face_i, back_i in items:
            if id(c) in on_board:
                at = on_board[id(c)]
                objects.append(_tile(guids, kind, c, url(face_i), url(back_i), at[0], at[1], scale, y=1.3))
        summary["tiles"][kind.key] = len(items)
        x += kind.grid.card_w / INCH + 1.0
    if table.board is not None:
        b = table.board
        obj = _base(guids, "Custom_Tile", b["nickname"], _transform(0.0, 0.0, scale=tile_scale(b["width"]), y=1.0))
        obj["Locked"] = True
        obj["CustomImage"] = {"ImageURL": url(board_image), "ImageSecondaryURL": url(board_image),
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": False}}
        s = tile_scale(b["width"])
        # snap points are in the board's own frame: scaled by it and turned with it (rotY 180)
        obj["AttachedSnapPoints"] = [{"Position": {"x": round(-px / s, 4), "y": 0.1, "z": round(-pz / s, 4)},
                                      "Rotation": {"x": 0.0, "y": 0.0, "z": 0.0}, "Tags": []}
                                     for px, pz in b["positions"]]
        objects.append(obj)
        summary["boards"]["board"] = 1
    objects += _seats(guids, table, seats, board_h, summary)
    save = {"SaveName": f"{deck.game_name} ({lang}, cards {deck.version})", "GameMode": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    out.write_text(json.dumps(save, ensure_ascii=False, indent=1), encoding="utf-8")
    summary.update({"game": game_id, "lang": lang, "out": str(out), "images": str(folder),
                    "image_files": len(images), "version": deck.version,
                    "image_list": [{"file": im.name, "mm": [round(v, 3) for v in im.mm], "px": list(im.px),
                                    "ppi": round(min(im.px[0] / (im.mm[0] / INCH), im.px[1] / (im.mm[1] / INCH)), 1)}
                                   for im in images]})
    return summary


def _tile(guids, kind, c, face: str, back: str, x: float, z: float, scale: float, y: float = 1.0) -> dict:
    obj = _base(guids, "Custom_Tile", c.get("title") or c.get("name", kind.title), _transform(x, z, scale=scale, y=y),
                _description(c))
    obj["CustomImage"] = {"ImageURL": face, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
                          "CustomTile": {"Type": 1 if kind.size == "hex" else 0, "Thickness": 0.2,
                                         "Stackable": kind.size == "chip", "Stretch": True}}
    return obj


def _piece(guids, p: dict, x: float, z: float) -> dict:
    obj = _base(guids, p["type"], p["nickname"], _transform(x, z, scale=p.get("scale", 1.0)), seat=p.get("seat"))
    if p.get("black"):
        obj["ColorDiffuse"] = {"r": 0.1, "g": 0.1, "b": 0.1}
    return obj


def _seats(guids, table: Table, seats: int, board_h: float, summary: dict) -> list[dict]:
    """Hand zones, pieces, bags and counters, seat by seat along the near edge."""
    objects = []
    z0 = -(board_h / 2 + 8.0)
    width = 11.0
    for seat in range(seats):
        cx = (seat - (seats - 1) / 2) * width
        name, _ = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        hand = _base(guids, "HandTrigger", f"Seat {seat + 1} hand", _transform(cx, z0 - 7.0, scale=1.0, y=3.0),
                     seat=seat)
        hand["Transform"].update({"scaleX": 10.0, "scaleY": 4.0, "scaleZ": 3.0})
        hand["FogColor"] = name
        objects.append(hand)
    summary["hands"] = seats
    at = {}
    for p in table.pieces:
        seat = p.get("seat")
        if p.get("at") is not None:
            xs = [p["at"][0] + 0.5 * k for k in range(p["count"])]
            for xx in xs:
                objects.append(_piece(guids, p, xx, p["at"][1]))
        else:
            cx = (seat - (seats - 1) / 2) * width if seat is not None else 16.0 + board_h / 2
            row = at.setdefault(seat, 0)
            at[seat] += 1
            for k in range(p["count"]):
                objects.append(_piece(guids, p, cx - 4.0 + 0.8 * k, z0 + 1.5 * row))
        summary["pieces"][p["nickname"]] = summary["pieces"].get(p["nickname"], 0) + p["count"]
    shared = 0
    for b in table.bags:
        seat = b.get("seat")
        i = shared
        shared += seat is None
        cx = (seat - (seats - 1) / 2) * width + 4.0 if seat is not None else -(board_h / 2 + 6.0)
        zz = z0 - 2.5 if seat is not None else 1.5 - 3.0 * i     # shared bags: left of the board
        bag = _base(guids, "Bag", b["nickname"], _transform(cx, zz), b.get("description", ""), seat=seat)
        bag["ContainedObjects"] = [_piece(guids, p, 0.0, 0.0) for p in b["contents"] for _ in range(p["count"])]
        objects.append(bag)
        summary["bags"][b["nickname"]] = len(bag["ContainedObjects"])
    placed: dict = {}
    for entry in table.counters:
        name, value, seat = (*entry, None)[:3]
        k = placed.setdefault(seat, 0)
        placed[seat] += 1
        if seat is None:       # shared counters: a column left of the board
            x, z = -(board_h / 2 + 8.0), board_h / 2 - 2.0 * k
        else:                  # a seat's counters: a row in front of its pieces
            x, z = (seat - (seats - 1) / 2) * width - 4.5 + (k % 4) * 2.4, z0 + 3.5 + (k // 4) * 1.8
        obj = _base(guids, "Counter", name, _transform(x, z), seat=seat)
        obj["Counter"] = {"value": int(value)}
        objects.append(obj)
    summary["counters"] = len(table.counters)
    return objects


__all__ = ["export", "Table", "sheet_grid", "cell_pixels", "NATIVE_WIDTH", "SEAT_COLOURS", "tile_scale",
           "card_scale"]
