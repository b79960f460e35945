"""A top view of an exported Tabletop Simulator table, drawn at scale from the
saved object and its images: what a designer checks before uploading (every
component at its size relative to the others, the districts on their spaces, the
pieces by each seat). Far side up; one TTS unit (an inch) is ``ppu`` pixels.

    python -m workbench.print.tts_picture tts/mandate.json docs/screenshots/tts-mandate.png

Positions and sizes are the save's own (``Transform`` and the widths of
:data:`workbench.print.tts.NATIVE_WIDTH`); pieces without an image (pawns,
blocks, bags, counters, hand zones) are drawn as coloured marks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .tts import NATIVE_WIDTH

MARK = {"PlayerPawn": 0.5, "BlockRectangle": (0.9, 0.45), "BlockSquare": 0.35, "BlockTriangle": 0.35,
        "Chip_10": 0.6, "Bag": 1.6, "Infinite_Bag": 1.6, "Counter": (2.2, 1.4)}
ROUND = ("PlayerPawn", "Bag", "Infinite_Bag", "Chip_10")


def _image(url: str, folder: Path):
    from PIL import Image
    name = unquote(urlsplit(url).path).rsplit("/", 1)[-1]
    return Image.open(folder / name).convert("RGBA")


def draw(save_path: Path, out: Path, ppu: int = 40) -> Path:
    from PIL import Image, ImageDraw
    save = json.loads(Path(save_path).read_text(encoding="utf-8"))
    folder = Path(save_path).with_name(Path(save_path).stem + "-images")
    objs = save["ObjectStates"]
    xs = [o["Transform"]["posX"] for o in objs]
    zs = [o["Transform"]["posZ"] for o in objs]
    pad = 8.0
    x0, x1, z0, z1 = min(xs) - pad, max(xs) + pad, min(zs) - pad, max(zs) + pad
    canvas = Image.new("RGBA", (int((x1 - x0) * ppu), int((z1 - z0) * ppu)), (46, 58, 48, 255))
    pen = ImageDraw.Draw(canvas)

    def at(x: float, z: float) -> tuple[int, int]:
        return int((x - x0) * ppu), int((z1 - z) * ppu)

    def paste(img, x: float, z: float, width_units: float) -> None:
        # edges rounded from their true places, so the pieces of a mat laid side by side meet
        hw, hh = width_units / 2, width_units * img.height / img.width / 2
        left, top = round((x - hw - x0) * ppu), round((z1 - z - hh) * ppu)
        right, bottom = round((x + hw - x0) * ppu), round((z1 - z + hh) * ppu)
        canvas.alpha_composite(img.resize((max(1, right - left), max(1, bottom - top))), (left, top))

    order = {"Custom_Tile": 0, "HandTrigger": 1, "DeckCustom": 2, "Card": 2}
    for o in sorted(objs, key=lambda o: (order.get(o["Name"], 3), o["Transform"]["posY"])):
        t, name = o["Transform"], o["Name"]
        x, z = t["posX"], t["posZ"]
        c = o.get("ColorDiffuse", {"r": 0.7, "g": 0.7, "b": 0.7})
        rgb = tuple(int(255 * c[k]) for k in "rgb")
        if name == "Custom_Tile":
            paste(_image(o["CustomImage"]["ImageURL"], folder), x, z, t["scaleX"] * NATIVE_WIDTH["Custom_Tile"])
        elif name == "DeckCustom":
            sheet = o["CustomDeck"][str(o["DeckIDs"][0] // 100)]
            img = _image(sheet["FaceURL"], folder)
            cw, ch = img.width // sheet["NumWidth"], img.height // sheet["NumHeight"]
            paste(img.crop((0, 0, cw, ch)), x, z, t["scaleX"] * NATIVE_WIDTH["Card"])
        elif name == "Card":
            sheet = o["CustomDeck"][str(o["CardID"] // 100)]
            img = _image(sheet["FaceURL"], folder)
            cw, ch = img.width // sheet["NumWidth"], img.height // sheet["NumHeight"]
            col, row = (o["CardID"] % 100) % sheet["NumWidth"], (o["CardID"] % 100) // sheet["NumWidth"]
            paste(img.crop((col * cw, row * ch, (col + 1) * cw, (row + 1) * ch)), x, z,
                  t["scaleX"] * NATIVE_WIDTH["Card"])
        elif name == "HandTrigger":
            (cx, cy), hw, hd = at(x, z), t["scaleX"] * ppu / 2, t["scaleZ"] * ppu / 2
            pen.rectangle((cx - hw, cy - hd, cx + hw, cy + hd), outline=rgb + (255,), width=3)
            pen.text((cx - hw + 6, cy - hd + 4), o["Nickname"], fill=rgb + (255,))
        elif name in MARK:
            size = MARK[name]
            w, d = (size if isinstance(size, tuple) else (size, size))
            if name in ("Bag", "Infinite_Bag"):         # a bag's mark grows with its scale
                w, d = w * t["scaleX"], d * t["scaleZ"]
            cx, cy = at(x, z)
            box = (cx - w * ppu / 2, cy - d * ppu / 2, cx + w * ppu / 2, cy + d * ppu / 2)
            if name in ROUND:
                pen.ellipse(box, fill=rgb + (255,), outline=(20, 20, 20, 255))
            else:
                pen.rectangle(box, fill=rgb + (255,) if name != "Counter" else (235, 235, 235, 255),
                              outline=(20, 20, 20, 255))
            if name == "Counter":
                pen.text((box[0] + 4, box[1] + 3), str(o["Counter"]["value"]), fill=(0, 0, 0, 255))
            if name in ("Bag", "Infinite_Bag"):
                held = "∞" if name == "Infinite_Bag" else len(o["ContainedObjects"])
                pen.text((box[0], box[3] + 2), f"{o['Nickname']} ({held})",
                         fill=(255, 255, 255, 255))
    import io

    from workbench.core import storage
    out = Path(out)
    buf = io.BytesIO()
    canvas.convert("RGB").save(buf, format=Image.registered_extensions().get(out.suffix.lower(), "PNG"))
    storage.write_bytes(out, buf.getvalue(), "--out")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m workbench.print.tts_picture SAVE.json OUT.png")
    print(draw(Path(sys.argv[1]), Path(sys.argv[2])))
