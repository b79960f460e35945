"""A Tabletop Simulator saved object: every component of a game, ready to drop into TTS.

Card kinds become custom decks (``DeckCustom``) whose faces are image sheets of at most
10 x 7 cards (TTS reads a sheet as ``NumWidth`` x ``NumHeight`` equal cells; the last
cell of a full 10 x 7 sheet is left empty, as TTS's deck builder does) and whose back
is one image. Hexes and chips become ``Custom_Tile`` objects (hex, box), boards
``Custom_Board``; a game whose print module lays out a map (``map_page``) also
gets it as one board, as the game's setup lays it for the seed. Tracks and resources become ``Counter`` tokens.

Images are PNG files written beside the JSON (``<name>-images/``), rendered by Typst from
the same templates as the print sheets. Their URLs are ``file://`` URLs by default
(they load for the person on this machine); ``base_url`` writes ``base_url + file name``
instead, for images uploaded where every player's TTS can fetch them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path


from .sheets import Deck, build_deck, typeset

SHEET_COLS, SHEET_ROWS = 10, 7
PER_SHEET = SHEET_COLS * SHEET_ROWS - 1
DECK_SIZES = {"poker", "mini", "square"}
INCH = 25.4
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


def _transform(x: float, z: float, *, scale: float = 1.0, flip: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flip else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def _base(name: str, nickname: str, guid: int, transform: dict, description: str = "") -> dict:
    return {"GUID": f"{guid:06x}", "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": dict(GREY), "Locked": False,
            "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _description(c: dict) -> str:
    marks = "draft" if c.get("draft_all") else (f"draft: {', '.join(c['draft'])}" if c.get("draft") else "")
    return marks


def counters(game_id: str, deck: Deck, seats: int) -> list[tuple[str, int]]:
    """(name, starting value) of every counter: the game's tracks per seat, in the
    deck's language, as its print module's ``counters(deck, seats)`` gives them (none without)."""
    fn = getattr(_print_module(game_id), "counters", None)
    return fn(deck, seats) if fn else []


def _map_page(deck: Deck, seed: int) -> dict | None:
    """The board as the game's setup lays it out for ``seed``, when its print
    module lays one (``map_page(deck, seed)``)."""
    fn = getattr(_print_module(deck.game), "map_page", None)
    return fn(deck, seed) if fn else None


def _print_module(game_id: str):
    from workbench.core.game import resolve
    from workbench.core.registry import get_game
    return resolve(get_game(game_id).print_cards)


def export(game_id: str, out: Path, *, lang: str = "en", seats: int = 4, seed: int = 1,
           base_url: str | None = None, ppi: float = 110.0) -> dict:
    """Write ``out`` (the saved object) and its images; return a summary."""
    out = Path(out)
    deck = build_deck(game_id, lang)
    images = out.with_name(out.stem + "-images")
    images.mkdir(exist_ok=True)
    pages: list[dict] = []
    names: list[str] = []
    plan: list[tuple] = []          # (object kind, kind, cards, face page indexes, back page index)
    for kind in deck.kinds:
        g = kind.grid
        if kind.size in DECK_SIZES:
            sheets = []
            for start in range(0, len(kind.cards), PER_SHEET):
                chunk = kind.cards[start:start + PER_SHEET]
                rows = min(SHEET_ROWS, math.ceil((len(chunk) + 1) / SHEET_COLS)) if len(chunk) < PER_SHEET \
                    else SHEET_ROWS
                cols = SHEET_COLS if len(chunk) >= SHEET_COLS else len(chunk) + 1
                pages.append({"kind": kind.key, "back": False, "cards": chunk, "cols": cols, "rows": rows,
                              "grid": g.to_dict(), "fill": "#ffffff"})
                names.append(f"{kind.key}-faces-{len(sheets) + 1}.png")
                sheets.append((len(pages) - 1, chunk, cols, rows))
            pages.append({"kind": kind.key, "back": True, "cards": kind.cards[:1], "cols": 1, "rows": 1,
                          "grid": g.to_dict()})
            names.append(f"{kind.key}-back.png")
            plan.append(("deck", kind, sheets, len(pages) - 1))
        else:
            faces = []
            for i, c in enumerate(kind.cards):
                for back in (False, True):
                    pages.append({"kind": kind.key, "back": back, "cards": [c], "cols": 1, "rows": 1,
                                  "grid": g.to_dict()})
                    names.append(f"{kind.key}-{i + 1}-{'back' if back else 'face'}.png")
                faces.append((c, len(pages) - 2, len(pages) - 1))
            plan.append(("tile" if kind.size in ("hex", "chip") else "board", kind, faces, None))
    board = _map_page(deck, seed)
    if board is not None:
        pages.append(board)
        names.append("map.png")
    pngs = typeset(deck, fmt="png", ppi=ppi, page_list=pages, entry="tts")
    pngs = pngs if isinstance(pngs, list) else [pngs]
    for name, data in zip(names, pngs):
        (images / name).write_bytes(data)

    def url(i: int) -> str:
        return (base_url.rstrip("/") + "/" + names[i]) if base_url else (images / names[i]).resolve().as_uri()

    objects: list[dict] = []
    guid = 0x100000
    x = -30.0
    deck_no = 0
    summary: dict = {"decks": {}, "tiles": {}, "boards": {}, "counters": 0}
    for what, kind, items, back_page in plan:
        if what == "deck":
            cards, ids, custom = [], [], {}
            scale = kind.grid.card_w / 63.0
            for page_i, chunk, cols, rows in items:
                deck_no += 1
                custom[str(deck_no)] = {"FaceURL": url(page_i), "BackURL": url(back_page), "NumWidth": cols,
                                        "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
                for j, c in enumerate(chunk):
                    cid = deck_no * 100 + j
                    ids.append(cid)
                    guid += 1
                    card = _base("Card", c.get("title") or c["name"], guid, _transform(x, 0, scale=scale, flip=True),
                                 _description(c))
                    card.update({"CardID": cid, "SidewaysCard": False,
                                 "CustomDeck": {str(deck_no): custom[str(deck_no)]}})
                    cards.append(card)
            guid += 1
            obj = _base("DeckCustom", f"{deck.game_name}: {kind.title}", guid, _transform(x, 0, scale=scale, flip=True))
            obj.update({"SidewaysCard": False, "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards})
            objects.append(obj)
            summary["decks"][kind.key] = len(ids)
            x += 4.0
        else:
            z = 12.0
            for c, face_i, back_i in items:
                guid += 1
                scale = kind.grid.card_w / INCH
                if what == "tile":
                    obj = _base("Custom_Tile", c.get("name", kind.title), guid, _transform(x, z, scale=scale / 2),
                                _description(c))
                    obj["CustomImage"] = {"ImageURL": url(face_i), "ImageSecondaryURL": url(back_i),
                                          "ImageScalar": 1.0, "WidthScale": 0.0,
                                          "CustomTile": {"Type": 1 if kind.size == "hex" else 0,
                                                         "Thickness": 0.2, "Stackable": kind.size == "chip",
                                                         "Stretch": True}}
                else:
                    obj = _base("Custom_Board", c.get("name", kind.title), guid, _transform(x, z, scale=scale / 2),
                                _description(c))
                    obj["CustomImage"] = {"ImageURL": url(face_i), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                          "WidthScale": 0.0}
                objects.append(obj)
                z += 3.0
            summary["tiles" if what == "tile" else "boards"][kind.key] = len(items)
            x += 6.0
    if board is not None:
        guid += 1
        obj = _base("Custom_Board", f"{deck.game_name}: map (seed {seed})", guid,
                    _transform(0, -20, scale=board["width"] / INCH / 4))
        obj["Locked"] = True
        obj["CustomImage"] = {"ImageURL": url(len(names) - 1), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0}
        objects.append(obj)
        summary["boards"]["map"] = 1
    for i, (name, value) in enumerate(counters(game_id, deck, seats)):
        guid += 1
        obj = _base("Counter", name, guid, _transform(-40 + (i % 8) * 3.0, 25 + (i // 8) * 2.0))
        obj["Counter"] = {"value": value}
        objects.append(obj)
        summary["counters"] += 1
    save = {"SaveName": f"{deck.game_name} ({lang}, cards {deck.version})", "GameMode": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    out.write_text(json.dumps(save, ensure_ascii=False, indent=1), encoding="utf-8")
    summary.update({"game": game_id, "lang": lang, "out": str(out), "images": str(images),
                    "image_files": len(names), "version": deck.version})
    return summary
