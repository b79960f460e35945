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
from .tts_mats import Mat

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
#: TTS's other player colours (White is a seat like the rest; Black is the Game Master's)
EXTRA_COLOURS = [("White", (1.0, 1.0, 1.0)), ("Brown", (0.443, 0.231, 0.09))]
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
    """What a game adds to the table (see the print modules' ``tts_table``).

    ``pieces`` are ``{type, nickname, seat, count, at | on, scale, colour, black}``:
    ``at`` an (x, z) position in TTS units, ``on`` a ``(mat key, area key)`` of one of
    ``mats``, neither: a row by the seat (or beside the board when shared). ``bags``
    are ``{nickname, seat, contents: [piece...], infinite, on, description}``; an
    infinite bag (TTS's ``Infinite_Bag``: a supply that never runs out) holds one
    piece. ``piles`` are the cards the setup deals: ``{nickname, cards: [card...] top
    first, on | hand: seat, face_up}``, the cards being the deck's own card records;
    every card of a kind no pile takes stays in the kind's deck by the table.
    ``seats`` is the number of seats the game set up (it clamps the asked number to
    its player range), ``hand_colours`` TTS's player colour of each seat's hand zone
    and ``seat_rgb`` each seat's piece colour, when the game has its own."""
    counters: list[tuple] = field(default_factory=list)       # (name, value) or (name, value, seat)
    pieces: list[dict] = field(default_factory=list)
    bags: list[dict] = field(default_factory=list)
    board: dict | None = None                             # {nickname, cells: [(x, y) mm], size, tiles: [card]}
    mats: list[Mat] = field(default_factory=list)
    piles: list[dict] = field(default_factory=list)
    seats: int | None = None
    hand_colours: list[str] | None = None
    seat_rgb: list[tuple[float, float, float]] | None = None


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
    mat_image = {}
    for m in table.mats:
        m.layout()
        cw, ch, _ = cell_pixels(m.width, m.height)
        images.append(Image(f"mat-{m.key}", m.page(_tint(table, m.seat)), (m.width, m.height), (cw, ch)))
        mat_image[m.key] = len(images) - 1
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
                objects.append(_pile(guids, [(c, cards_of[id(c)]) for c in left], custom,
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
        if loose:
            x += kind.grid.card_w / INCH + 1.0
    if table.board is not None:
        b = table.board
        obj = _base(guids, "Custom_Tile", b["nickname"], _transform(0.0, 0.0, scale=tile_scale(b["width"]), y=1.0))
        obj["Locked"] = True
        obj["CustomImage"] = {"ImageURL": url(board_image), "ImageSecondaryURL": url(board_image),
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": False}}
        obj["AttachedSnapPoints"] = _snaps(tile_scale(b["width"]), b["positions"])
        objects.append(obj)
        summary["boards"]["board"] = 1
    for m in table.mats:
        cx, cz = spots.mats[m.key]
        s = tile_scale(m.width)
        obj = _base(guids, "Custom_Tile", m.nickname, _transform(cx, cz, scale=s, y=1.0), seat=m.seat)
        obj.update({"Locked": True, "ColorDiffuse": dict(GREY_WHITE)})
        obj["CustomImage"] = {"ImageURL": url(mat_image[m.key]), "ImageSecondaryURL": url(mat_image[m.key]),
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}}
        obj["AttachedSnapPoints"] = _snaps(s, [(px - cx, pz - cz) for px, pz in
                                               (spots.area(m.key, a) for a in m.areas)])
        objects.append(obj)
        summary["mats"][m.key] = len(m.areas)
        w, h = m.width / INCH / 2, m.height / INCH / 2
        summary["rects"][m.key] = [round(v, 3) for v in (cx - w, cz - h, cx + w, cz + h)]
        for key, a in m.areas.items():      # where each area lies on the table: x0, z0, x1, z1
            ax, az = spots.area(m.key, key)
            aw, ah = a.box[2] / INCH / 2, a.box[3] / INCH / 2
            summary["areas"][f"{m.key}/{key}"] = [round(v, 3) for v in (ax - aw, az - ah, ax + aw, az + ah)]
    for p in table.piles:
        objects += _deal(guids, p, cards_of, customs, spots, url)
        summary["piles"][p["nickname"]] = summary["piles"].get(p["nickname"], 0) + len(p["cards"])
    objects += _seats(guids, table, seats, spots, summary)
    save = {"SaveName": f"{deck.game_name} ({lang}, cards {deck.version})", "GameMode": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    out.write_text(json.dumps(save, ensure_ascii=False, indent=1), encoding="utf-8")
    summary.update({"game": game_id, "lang": lang, "out": str(out), "images": str(folder),
                    "image_files": len(images), "version": deck.version, "seats": seats,
                    "image_list": [{"file": im.name, "mm": [round(v, 3) for v in im.mm], "px": list(im.px),
                                    "ppi": round(min(im.px[0] / (im.mm[0] / INCH), im.px[1] / (im.mm[1] / INCH)), 1)}
                                   for im in images]})
    return summary


GREY_WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}


def _tint(table: Table, seat: int | None) -> str:
    """A mat's background: its seat's colour mixed with white, or a neutral one when shared."""
    if seat is None:
        return "#d9d3c3"
    rgb = table.seat_rgb[seat] if table.seat_rgb else tuple(colour(seat)[k] for k in "rgb")
    return "#" + "".join(f"{int(255 * (0.55 + 0.45 * v)):02x}" for v in rgb)


def _snaps(scale: float, positions) -> list[dict]:
    """Snap points in an object's own frame: scaled by it and turned with it (rotY 180)."""
    return [{"Position": {"x": round(-px / scale, 4), "y": 0.1, "z": round(-pz / scale, 4)},
             "Rotation": {"x": 0.0, "y": 0.0, "z": 0.0}, "Tags": []} for px, pz in positions]


class Spots:
    """Where things go on the table, in TTS units: the centre (the game's board at
    the origin, the shared mats in a row beside it), then per seat along the near
    edge its mat, its pieces and counters, and its hand zone furthest out."""

    GAP = 1.0

    def __init__(self, table: Table, seats: int):
        self.table, self.seats = table, seats
        b = table.board
        bw, bh = ((b["width"] / INCH, b["height"] / INCH) if b else (0.0, 0.0))
        shared = [m for m in table.mats if m.seat is None]
        widths = [m.width / INCH for m in shared]
        heights = [m.height / INCH for m in shared]
        self.mats: dict[str, tuple[float, float]] = {}
        if b:
            x = bw / 2 + self.GAP
        else:
            x = -(sum(widths) + self.GAP * max(0, len(shared) - 1)) / 2
        for m, w in zip(shared, widths):
            self.mats[m.key] = (x + w / 2, 0.0)
            x += w + self.GAP
        self.centre_h = max([bh, *heights], default=0.0)
        edges = [(cx - w / 2, cx + w / 2) for (cx, _), w in zip(self.mats.values(), widths)]
        edges += [(-bw / 2, bw / 2)] if b else []
        self.left = min((e[0] for e in edges), default=0.0)     # the centre's edges, for shared things beside it
        self.right = max((e[1] for e in edges), default=0.0)
        mine = [m for m in table.mats if m.seat is not None]
        mat_h = max((m.height / INCH for m in mine), default=0.0)
        self.seat_w = max(11.0, max((m.width / INCH for m in mine), default=0.0) + self.GAP)
        top = -(self.centre_h / 2 + 2.0)
        for m in mine:
            self.mats[m.key] = (self.seat_x(m.seat), top - m.height / INCH / 2)
        self.z0 = -(self.centre_h / 2 + 8.0 + (mat_h + self.GAP if mine else 0.0))
        self.used: dict[tuple, int] = {}

    def seat_x(self, seat: int) -> float:
        return (seat - (self.seats - 1) / 2) * self.seat_w

    def area(self, mat: str, key: str) -> tuple[float, float]:
        m = next(m for m in self.table.mats if m.key == mat)
        x, y, w, h = m.areas[key].box
        cx, cz = self.mats[mat]
        return cx + (x + w / 2 - m.width / 2) / INCH, cz + (m.height / 2 - (y + h / 2)) / INCH

    def on(self, where: tuple[str, str], step: float = 0.42) -> tuple[float, float]:
        """The next free spot in an area: its centre when the area holds one piece
        (a track space), else the next place of a grid filling it from its top left."""
        x, z = self.area(*where)
        m = next(m for m in self.table.mats if m.key == where[0])
        w, h = (v / INCH for v in m.areas[where[1]].box[2:])
        k = self.used.get(where, 0)
        self.used[where] = k + 1
        cols = int(w / step)
        if cols < 2:
            return x, z + 0.1 * k
        return x - w / 2 + step * (0.5 + k % cols), z + h / 2 - step * (0.9 + k // cols)


def _card(guids, c: dict, ref: tuple, custom: dict, x: float, z: float, scale: float, face_up: bool,
          y: float = 1.0) -> dict:
    _, cid, key = ref
    card = _base(guids, "Card", c.get("title") or c["name"], _transform(x, z, scale=scale, flip=not face_up, y=y),
                 _description(c))
    card.update({"CardID": cid, "SidewaysCard": False, "CustomDeck": {key: custom[key]}})
    return card


def _pile(guids, cards: list[tuple[dict, tuple]], custom: dict, nickname: str, x: float, z: float,
          face_up: bool) -> dict:
    """One card, or a deck of them (top first), at (x, z)."""
    scale = card_scale(cards[0][1][0].grid.card_w)
    if len(cards) == 1:
        c, ref = cards[0]
        return _card(guids, c, ref, custom, x, z, scale, face_up)
    inner = [_card(guids, c, ref, custom, x, z, scale, face_up) for c, ref in cards]
    used = {ref[2] for _, ref in cards}
    obj = _base(guids, "DeckCustom", nickname, _transform(x, z, scale=scale, flip=not face_up))
    obj.update({"SidewaysCard": False, "DeckIDs": [ref[1] for _, ref in cards],
                "CustomDeck": {k: v for k, v in custom.items() if k in used}, "ContainedObjects": inner})
    return obj


def _deal(guids, p: dict, cards_of: dict, customs: dict, spots: Spots, url) -> list[dict]:
    """A pile the setup deals: onto a mat's area, or into a seat's hand (one card beside the next)."""
    refs = [(c, cards_of[id(c)]) for c in p["cards"]]
    if not refs:
        return []
    kind = refs[0][1][0]
    if kind.size not in DECK_SIZES:           # tiles (boards, chips): a stack on the area's centre
        x, z = spots.area(*p["on"])
        return [_tile(guids, k, c, url(f), url(b), x, z, tile_scale(k.grid.card_w), y=1.2 + 0.2 * i)
                for i, (c, (k, f, b)) in enumerate(refs)]
    custom = {key: sheet for _, (k, _, _) in refs for key, sheet in customs[k.key].items()}
    if p.get("hand") is not None:
        hx, hz = spots.seat_x(p["hand"]), spots.z0 - 7.0
        w = refs[0][1][0].grid.card_w / INCH + 0.3
        return [_card(guids, c, ref, custom, hx + (i - (len(refs) - 1) / 2) * w, hz,
                      card_scale(ref[0].grid.card_w), True, y=3.0) for i, (c, ref) in enumerate(refs)]
    x, z = spots.area(*p["on"])
    return [_pile(guids, refs, custom, p["nickname"], x, z, bool(p.get("face_up")))]


def _tile(guids, kind, c, face: str, back: str, x: float, z: float, scale: float, y: float = 1.0) -> dict:
    obj = _base(guids, "Custom_Tile", c.get("title") or c.get("name", kind.title), _transform(x, z, scale=scale, y=y),
                _description(c))
    obj["CustomImage"] = {"ImageURL": face, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
                          "CustomTile": {"Type": 1 if kind.size == "hex" else 0, "Thickness": 0.2,
                                         "Stackable": kind.size == "chip", "Stretch": True}}
    return obj


def _piece(guids, table: Table, p: dict, x: float, z: float, y: float = 1.0) -> dict:
    """A standard TTS piece (pawn, block, chip...) in its seat's colour, or the one it names."""
    seat = p.get("seat")
    obj = _base(guids, p["type"], p["nickname"], _transform(x, z, scale=p.get("scale", 1.0), y=y), seat=seat)
    rgb = p.get("colour") or ((0.1, 0.1, 0.1) if p.get("black") else None)
    if rgb is None and seat is not None and table.seat_rgb:
        rgb = table.seat_rgb[seat]
    if rgb is not None:
        obj["ColorDiffuse"] = dict(zip("rgb", rgb))
    return obj


def _seats(guids, table: Table, seats: int, spots: Spots, summary: dict) -> list[dict]:
    """Hand zones, pieces, bags and counters: a seat's along the near edge, the
    shared ones on their areas or beside the centre."""
    objects = []
    z0 = spots.z0
    for seat in range(seats):
        name = (table.hand_colours or [c for c, _ in SEAT_COLOURS])[seat % len(table.hand_colours or SEAT_COLOURS)]
        hand = _base(guids, "HandTrigger", f"Seat {seat + 1} hand", _transform(spots.seat_x(seat), z0 - 7.0,
                                                                              scale=1.0, y=3.0), seat=seat)
        hand["Transform"].update({"scaleX": spots.seat_w - 1.0, "scaleY": 4.0, "scaleZ": 3.0})
        hand["FogColor"] = name
        if table.seat_rgb:
            hand["ColorDiffuse"] = dict(zip("rgb", table.seat_rgb[seat]))
        objects.append(hand)
    summary["hands"] = seats
    at = {}
    for p in table.pieces:
        seat = p.get("seat")
        if p.get("on") is not None:
            for _ in range(p["count"]):
                objects.append(_piece(guids, table, p, *spots.on(p["on"]), y=1.4))
        elif p.get("at") is not None:
            xs = [p["at"][0] + 0.5 * k for k in range(p["count"])]
            for xx in xs:
                objects.append(_piece(guids, table, p, xx, p["at"][1]))
        else:
            cx = spots.seat_x(seat) if seat is not None else spots.right + 3.0
            row = at.setdefault(seat, 0)
            at[seat] += 1
            for k in range(p["count"]):
                objects.append(_piece(guids, table, p, cx - 4.0 + 0.8 * k, z0 + 1.5 * row))
        summary["pieces"][p["nickname"]] = summary["pieces"].get(p["nickname"], 0) + p["count"]
    shared = 0
    for b in table.bags:
        seat = b.get("seat")
        if b.get("on") is not None:
            cx, zz = spots.on(b["on"])
        elif seat is not None:
            cx, zz = spots.seat_x(seat) + 4.0, z0 - 2.5
        else:                        # shared bags: a column left of the centre
            cx, zz = spots.left - 3.0, 1.5 - 3.0 * shared
            shared += 1
        infinite = bool(b.get("infinite"))
        bag = _base(guids, "Infinite_Bag" if infinite else "Bag", b["nickname"],
                    _transform(cx, zz, y=1.4, scale=b.get("scale", 1.0)),
                    b.get("description", ""), seat=seat)
        rgb = b.get("colour") or (table.seat_rgb[seat] if seat is not None and table.seat_rgb else None)
        if rgb:
            bag["ColorDiffuse"] = dict(zip("rgb", rgb))
        bag["ContainedObjects"] = [_piece(guids, table, p, 0.0, 0.0) for p in b["contents"]
                                   for _ in range(1 if infinite else p["count"])]
        objects.append(bag)
        summary["bags"][b["nickname"]] = "infinite" if infinite else len(bag["ContainedObjects"])
    placed: dict = {}
    for entry in table.counters:
        name, value, seat = (*entry, None)[:3]
        k = placed.setdefault(seat, 0)
        placed[seat] += 1
        if seat is None:       # shared counters: a column left of the centre
            x, z = spots.left - 6.0, spots.centre_h / 2 - 2.0 * k
        else:                  # a seat's counters: a row in front of its pieces
            x, z = spots.seat_x(seat) - 4.5 + (k % 4) * 2.4, z0 + 3.5 + (k // 4) * 1.8
        obj = _base(guids, "Counter", name, _transform(x, z), seat=seat)
        obj["Counter"] = {"value": int(value)}
        objects.append(obj)
    summary["counters"] = len(table.counters)
    return objects


__all__ = ["export", "Table", "sheet_grid", "cell_pixels", "NATIVE_WIDTH", "SEAT_COLOURS", "tile_scale",
           "card_scale"]
