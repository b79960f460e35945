"""Tabletop Simulator objects: the saved object's entry for each thing on the
table (base fields, transforms, cards and decks, tiles, standard pieces, bags,
counters, hand zones, snap points), and where each goes (:class:`Spots`).

:class:`Table` is what a game's print module declares (``tts_table``): the
exporter (:mod:`workbench.print.tts`) renders the images and calls
:func:`seat_objects`, :func:`deal` and the builders here to lay everything out.
Positions are TTS units taken as inches; the far side of the table is +z.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .tts_mats import Mat

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
GREY_WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}
#: ``CustomTile.Stretch`` of every tile, board and mat. Tabletop Simulator's own
#: knowledge base (Custom Tile, import option "Stretch Aspect Ratio") gives the rule:
#: checked, the image is stretched to make a symmetrical tile (a square box, a regular
#: hex); unchecked, the tile takes the image's proportions. Every image here is drawn
#: at its component's true proportions (a 170x115 mm board, a 70x80.8 mm pointy-top hex,
#: a mat as laid out), so unchecked is what loads as drawn; checked would square a board
#: or a mat. (For a square chip both give the same tile.)
STRETCH = False




def colour(seat: int | None) -> dict:
    """TTS's colour of a seat by its place in :data:`SEAT_COLOURS`; grey for shared things."""
    if seat is None:
        return dict(GREY)
    r, g, b = SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]
    return {"r": r, "g": g, "b": b}


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
    its player range), ``hand_colours`` TTS's player colour of each seat's hand zone,
    ``hand_names`` their names in the export's language and ``seat_rgb`` each seat's
    piece colour, when the game has its own. ``notes`` become tabs of TTS's Notebook
    (after the rulebook's, which the exporter adds)."""
    counters: list[tuple] = field(default_factory=list)       # (name, value) or (name, value, seat)
    pieces: list[dict] = field(default_factory=list)
    bags: list[dict] = field(default_factory=list)
    board: dict | None = None                             # {nickname, cells: [(x, y) mm], size, tiles: [card]}
    mats: list[Mat] = field(default_factory=list)
    piles: list[dict] = field(default_factory=list)
    seats: int | None = None
    hand_colours: list[str] | None = None
    hand_names: list[str] | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)   # Notebook tabs: (title, text), e.g. a player aid
    seat_rgb: list[tuple[float, float, float]] | None = None


def transform(x: float, z: float, *, scale: float = 1.0, y: float = 1.0, flip: bool = False,
               sy: float | None = None) -> dict:
    return {"posX": round(x, 3), "posY": round(y, 3), "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flip else 0.0, "scaleX": round(scale, 4), "scaleY": round(sy if sy else 1.0, 4),
            "scaleZ": round(scale, 4)}


class Guids:
    """Unique six-hex-digit GUIDs, the same for every export of the same table."""

    def __init__(self):
        self.n = 0x100000

    def __call__(self) -> str:
        self.n += 1
        return f"{self.n:06x}"


def base(guids: Guids, name: str, nickname: str, transform: dict, description: str = "",
          seat: int | None = None) -> dict:
    return {"GUID": guids(), "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": colour(seat), "Locked": False,
            "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def description(c: dict) -> str:
    return "draft" if c.get("draft_all") else (f"draft: {', '.join(c['draft'])}" if c.get("draft") else "")


def tile_scale(width_mm: float) -> float:
    return width_mm / INCH / NATIVE_WIDTH["Custom_Tile"]


def card_scale(width_mm: float) -> float:
    return width_mm / INCH / NATIVE_WIDTH["Card"]


def tint(table: Table, seat: int | None) -> str:
    """A mat's background: its seat's colour mixed with white, or a neutral one when shared."""
    if seat is None:
        return "#d9d3c3"
    rgb = table.seat_rgb[seat] if table.seat_rgb else tuple(colour(seat)[k] for k in "rgb")
    return "#" + "".join(f"{int(255 * (0.55 + 0.45 * v)):02x}" for v in rgb)


def snaps(scale: float, positions) -> list[dict]:
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
        # the hand zones lie beyond the seats' loose things; right under the mats when
        # everything a seat has lies on its mat
        loose = any(len(c) > 2 and c[2] is not None for c in table.counters) or any(
            x.get("seat") is not None and x.get("on") is None and x.get("at") is None
            for x in table.pieces + table.bags)
        self.hand_z = self.z0 - 7.0 if loose or not mine else top - mat_h - self.GAP - 1.5
        self.used: dict[tuple, int] = {}

    def seat_x(self, seat: int) -> float:
        return (seat - (self.seats - 1) / 2) * self.seat_w

    def mat(self, key: str) -> Mat:
        for m in self.table.mats:
            if m.key == key:
                return m
        raise KeyError(f"the table has no mat {key!r} (mats: {', '.join(m.key for m in self.table.mats)})")

    def area(self, mat: str, key: str) -> tuple[float, float]:
        """The centre of a mat's area on the table."""
        m = self.mat(mat)
        if key not in m.areas:
            raise KeyError(f"mat {mat!r} has no area {key!r}")
        x, y, w, h = m.areas[key].box
        cx, cz = self.mats[mat]
        return cx + (x + w / 2 - m.width / 2) / INCH, cz + (m.height / 2 - (y + h / 2)) / INCH

    def on(self, where: tuple[str, str], step: float = 0.42) -> tuple[float, float]:
        """The next free spot in an area: its centre when the area holds one piece
        (a track space), else the next place of a grid filling it from its top left."""
        x, z = self.area(*where)
        w, h = (v / INCH for v in self.mat(where[0]).areas[where[1]].box[2:])
        k = self.used.get(where, 0)
        self.used[where] = k + 1
        cols = int(w / step)
        if cols < 2:
            return x, z + 0.1 * k
        return x - w / 2 + step * (0.5 + k % cols), z + h / 2 - step * (0.9 + k // cols)


def card_object(guids, c: dict, ref: tuple, custom: dict, x: float, z: float, scale: float, face_up: bool,
                y: float = 1.0) -> dict:
    """One card (``ref``: its kind, CardID and sheet key), face down unless ``face_up``."""
    _, cid, key = ref
    card = base(guids, "Card", c.get("title") or c["name"], transform(x, z, scale=scale, flip=not face_up, y=y),
                description(c))
    card.update({"CardID": cid, "SidewaysCard": False, "CustomDeck": {key: custom[key]}})
    return card


def pile(guids, cards: list[tuple[dict, tuple]], custom: dict, nickname: str, x: float, z: float,
         face_up: bool) -> dict:
    """One card, or a deck of them (top first), at (x, z)."""
    scale = card_scale(cards[0][1][0].grid.card_w)
    if len(cards) == 1:
        c, ref = cards[0]
        return card_object(guids, c, ref, custom, x, z, scale, face_up)
    inner = [card_object(guids, c, ref, custom, x, z, scale, face_up) for c, ref in cards]
    used = {ref[2] for _, ref in cards}
    obj = base(guids, "DeckCustom", nickname, transform(x, z, scale=scale, flip=not face_up))
    obj.update({"SidewaysCard": False, "DeckIDs": [ref[1] for _, ref in cards],
                "CustomDeck": {k: v for k, v in custom.items() if k in used}, "ContainedObjects": inner})
    return obj


def deal(guids, p: dict, cards_of: dict, customs: dict, spots: Spots, url) -> list[dict]:
    """A pile the setup deals: onto a mat's area, or into a seat's hand (one card beside the next)."""
    refs = [(c, cards_of[id(c)]) for c in p["cards"]]
    if not refs:
        return []
    kind = refs[0][1][0]
    if kind.size not in DECK_SIZES:           # tiles (boards, chips): a stack on the area's centre
        x, z = spots.area(*p["on"])
        return [tile(guids, k, c, url(f), url(b), x, z, tile_scale(k.grid.card_w), y=1.2 + 0.2 * i)
                for i, (c, (k, f, b)) in enumerate(refs)]
    custom = {key: sheet for _, (k, _, _) in refs for key, sheet in customs[k.key].items()}
    if p.get("hand") is not None:
        hx, hz = spots.seat_x(p["hand"]), spots.hand_z
        card_w = refs[0][1][0].grid.card_w / INCH          # side by side, overlapping to stay inside the zone
        w = min(card_w + 0.3, (spots.seat_w - 1.0 - card_w) / max(1, len(refs) - 1))
        return [card_object(guids, c, ref, custom, hx + (i - (len(refs) - 1) / 2) * w, hz,
                            card_scale(ref[0].grid.card_w), True, y=3.0) for i, (c, ref) in enumerate(refs)]
    x, z = spots.area(*p["on"])
    return [pile(guids, refs, custom, p["nickname"], x, z, bool(p.get("face_up")))]


def tile(guids, kind, c, face: str, back: str, x: float, z: float, scale: float, y: float = 1.0) -> dict:
    obj = base(guids, "Custom_Tile", c.get("title") or c.get("name", kind.title), transform(x, z, scale=scale, y=y),
               description(c))
    obj["CustomImage"] = {"ImageURL": face, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
                          "CustomTile": {"Type": 1 if kind.size == "hex" else 0, "Thickness": 0.2,
                                         "Stackable": kind.size == "chip", "Stretch": STRETCH}}
    return obj


def piece(guids, table: Table, p: dict, x: float, z: float, y: float = 1.0) -> dict:
    """A standard TTS piece (pawn, block, chip...) in its seat's colour, or the one it names."""
    seat = p.get("seat")
    obj = base(guids, p["type"], p["nickname"], transform(x, z, scale=p.get("scale", 1.0), y=y), seat=seat)
    rgb = p.get("colour") or ((0.1, 0.1, 0.1) if p.get("black") else None)
    if rgb is None and seat is not None and table.seat_rgb:
        rgb = table.seat_rgb[seat]
    if rgb is not None:
        obj["ColorDiffuse"] = dict(zip("rgb", rgb))
    return obj


def seat_objects(guids, table: Table, seats: int, spots: Spots, summary: dict) -> list[dict]:
    """Hand zones, pieces, bags and counters: a seat's along the near edge, the
    shared ones on their areas or beside the centre."""
    objects = []
    z0 = spots.z0
    for seat in range(seats):
        name = (table.hand_colours or [c for c, _ in SEAT_COLOURS])[seat % len(table.hand_colours or SEAT_COLOURS)]
        label = table.hand_names[seat] if table.hand_names else f"Seat {seat + 1} hand"
        hand = base(guids, "HandTrigger", label, transform(spots.seat_x(seat), spots.hand_z, y=3.0), seat=seat)
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
                objects.append(piece(guids, table, p, *spots.on(p["on"]), y=1.4))
        elif p.get("at") is not None:
            xs = [p["at"][0] + 0.5 * k for k in range(p["count"])]
            for xx in xs:
                objects.append(piece(guids, table, p, xx, p["at"][1]))
        else:
            cx = spots.seat_x(seat) if seat is not None else spots.right + 3.0
            row = at.setdefault(seat, 0)
            at[seat] += 1
            for k in range(p["count"]):
                objects.append(piece(guids, table, p, cx - 4.0 + 0.8 * k, z0 + 1.5 * row))
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
        bag = base(guids, "Infinite_Bag" if infinite else "Bag", b["nickname"],
                    transform(cx, zz, y=1.4, scale=b.get("scale", 1.0)),
                    b.get("description", ""), seat=seat)
        rgb = b.get("colour") or (table.seat_rgb[seat] if seat is not None and table.seat_rgb else None)
        if rgb:
            bag["ColorDiffuse"] = dict(zip("rgb", rgb))
        bag["ContainedObjects"] = [piece(guids, table, p, 0.0, 0.0) for p in b["contents"]
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
        obj = base(guids, "Counter", name, transform(x, z), seat=seat)
        obj["Counter"] = {"value": int(value)}
        objects.append(obj)
    summary["counters"] = len(table.counters)
    return objects
