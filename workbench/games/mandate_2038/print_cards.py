"""Mandate 2038's printable components: Headlines, Era Mandates, the Training deck,
project chips, faction boards and the 19 district hex tiles.

District and project texts come through the rules' placeholder context
(``context_for``), so the Hungarian overlay in ``rules/content.hu.yaml`` applies;
Headline, Mandate, Training and faction texts through the print strings.
"""

from __future__ import annotations

from workbench.core.data import cards_dir, load_yaml

from workbench.print.cardlist import record
from workbench.print.words import Words

GAME_ID = "mandate-2038"
MEASURES = {"runway": "resources.runway", "compute": "resources.compute",
            "capability": "playerTracks.capability", "customers": "playerTracks.customers",
            "trust": "playerTracks.trust", "mandate": "playerTracks.mandate",
            "scrutiny": "playerTracks.scrutiny"}


def _amounts(w: Words, amounts: dict) -> list[str]:
    return [f"{w.icon(k)}{n} {w.term(MEASURES[k])}" for k, n in amounts.items() if k in MEASURES]


def cards(w: Words) -> dict[str, list[dict]]:
    from workbench.rules.placeholders import context_for
    folder = cards_dir(GAME_ID)
    out: dict[str, list[dict]] = {}
    head = load_yaml(folder / "headlines.yaml") or {}
    out["headlines"] = [record(c["name"], c, default=head.get("provenance", "seed"), era=int(c["era"]),
                               title=w.card_text(c["name"], "name", c["name"]),
                               text=w.card_text(c["name"], "text", c.get("text")))
                        for c in head.get("cards", [])]
    mand = load_yaml(folder / "mandates.yaml") or {}
    out["mandates"] = [record(c["name"], c, default=mand.get("provenance", "seed"), era=int(c["era"]),
                              title=w.card_text(c["name"], "name", c["name"]),
                              minimum=int(c.get("minimum") or 0),
                              text=w.card_text(c["name"], "text", c.get("text")))
                       for c in mand.get("cards", [])]
    train = load_yaml(folder / "training.yaml") or {}
    deck = []
    for c in train.get("cards", []):
        shown = w.card_text(c["name"], "name", c["name"])
        for copy in range(int(c.get("copies", 1))):
            deck.append(record(c["name"], c, default=train.get("provenance", "seed"), title=shown,
                               kind=w.label("training." + c["kind"]), copy=copy + 1))
    out["training"] = deck

    ctx = context_for(GAME_ID, w.lang)
    content = ctx.get("content") or {}
    projects = content.get("projects") or {}
    rules = content.get("rules") or {}
    seats = int(rules.get("maxPlayers") or 5)
    chips = []
    for pid, p in (projects.get("byId") or {}).items():
        for seat in range(1, seats + 1):
            chips.append(record(str(p["name"]), projects, default="seed", id=pid, era=int(p.get("era") or 0),
                                cost=_amounts(w, p.get("cost") or {}), seat=seat,
                                text=str(p.get("backText") or "")))
    out["projects"] = chips

    fac = load_yaml(folder / "factions.yaml") or {}
    out["factions"] = [record(f["name"], f, ability=w.card_text(f["name"], "ability_name", f.get("ability_name")),
                              text=w.card_text(f["name"], "ability_text", f.get("ability_text")),
                              start=_amounts(w, f.get("start") or {}))
                       for f in fac.get("factions", [])]

    board = ((content.get("gameConfig") or {}).get("board") or {})
    rows = {r["key"]: r for r in board.get("tiles") or []}
    tiles = []
    pools = board.get("pools") or {}
    for pool in ("center", "operational", "public"):
        for key in pools.get(pool) or []:
            r = rows[key]
            contract = r.get("contract")
            tiles.append(record(str(r["name"]), r, key=key, pool=w.label("pool." + pool),
                                contract=(w.icon(contract) + " " + w.term(MEASURES[contract])) if contract else "",
                                visit=str(r.get("visit") or ""), production=str(r.get("production") or ""),
                                energy=key in (board.get("energyTiles") or [])))
    out["tiles"] = tiles
    return out


def counters(deck, seats: int) -> list[tuple[str, int]]:
    """The Tabletop Simulator counters: each seat's measures, from zero."""
    w = deck.words
    return [(f"{seat}: {w.icon(k)}{w.term(path)}", 0)
            for seat in range(1, seats + 1) for k, path in MEASURES.items()]


def map_page(deck, seed: int) -> dict | None:
    """The map as the setup lays it out for ``seed``: the tile cards placed on
    the board's hexes, as one page of the deck."""
    from workbench.core.game import GameConfig
    from workbench.core.registry import get_game
    from workbench.graphs.hexboard import pixel

    from .board import COORDS
    kind = next(k for k in deck.kinds if k.key == "tiles")
    state = get_game(GAME_ID).new_initial_state(GameConfig(players=("a", "b", "c", "d"), seed=seed))
    pool = {}
    for c in kind.cards:
        pool.setdefault(c["key"], []).append(c)
    placed = [pool[k].pop(0) for k in state.tiles]
    size = kind.grid.card_h / 2
    centres = [pixel(q, r, size) for q, r in COORDS[:len(placed)]]
    xs = [x for x, _ in centres]
    ys = [-y for _, y in centres]
    pad = 8.0
    left, top = min(xs) - kind.grid.card_w / 2 - pad, min(ys) - size - pad
    cells = [[round(x - kind.grid.card_w / 2 - left, 3), round(-y - size - top, 3)] for x, y in centres]
    width = max(xs) - min(xs) + kind.grid.card_w + 2 * pad
    height = max(ys) - min(ys) + 2 * size + 2 * pad
    return {"kind": "tiles", "map": True, "back": False, "cards": placed, "cells": cells,
            "grid": kind.grid.to_dict(), "width": round(width, 3), "height": round(height, 3)}
