"""Mandate 2038's printable components: Headlines, Era Mandates, the Training deck,
each faction's six Core Action cards, project chips, faction boards and the 19
district hex tiles.

District and project texts come through the rules' placeholder context
(``context_for``), so the Hungarian overlay in ``rules/content.hu.yaml`` applies;
Headline, Mandate, Training and faction texts through the print strings.
"""

from __future__ import annotations

from workbench.core.data import cards_dir, load_yaml

from workbench.core.extra_fields import as_texts
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

    from .data import CORE_ACTIONS
    fac = load_yaml(folder / "factions.yaml") or {}
    out["actions"] = [record(w.term(f"actions.{a}"), fac, title=w.term(f"actions.{a}"), action=a,
                             faction=f["name"], order=i + 1, extra={})   # made from the rules: no fields of its own
                      for f in fac.get("factions", []) for i, a in enumerate(CORE_ACTIONS)]

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
                                text=str(p.get("backText") or ""), extra=as_texts(p)))
    out["projects"] = chips

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


# ---------------------------------------------------------------- Tabletop Simulator
def tts_table(deck, seats: int, seed: int):
    """The Mandate 2038 table for ``seats`` players as the setup lays it for
    ``seed`` (rules section Setup): the map board (hex spaces with snap points)
    with each district tile on its space (so the 19 tiles exist once, loose tiles
    that match the board); a deck mat with the four Era piles of Headlines and of
    Mandates, the Training deck and its discard, and Era I's Headline and Mandate
    face up; per seat its faction's six Core Action cards in its hand and a mat
    with the faction board the setup dealt it, its supply
    Agents (those the setup places on the Frontier already there), Facilities,
    Generator and Scrutiny cubes in a bag, the Initiative chip on the mat of the
    seat that holds it; counters at each seat's starting values; the Audit bag as
    the setup leaves it and the Systemic Risk cubes beside it."""
    from workbench.core.game import GameConfig
    from workbench.core.registry import get_game
    from .board import COORDS
    from workbench.graphs.hexboard import pixel

    from workbench.print.tts import INCH, Table
    from workbench.print.tts_mats import Area, Mat, slot
    w = deck.words
    game = get_game(GAME_ID)
    players = max(game.min_players, min(seats, game.max_players))
    state = game.new_initial_state(GameConfig(players=tuple(f"seat{i + 1}" for i in range(players)), seed=seed))
    kind = next(k for k in deck.kinds if k.key == "tiles")
    pool: dict[str, list[dict]] = {}
    for c in kind.cards:
        pool.setdefault(c["key"], []).append(c)
    placed = [pool[key].pop(0) for key in state.tiles]
    g = kind.grid
    size = g.card_h / 2                                   # centre to corner, mm
    centres = [pixel(q, r, size) for q, r in COORDS[:len(placed)]]
    pad = 8.0
    left = min(x for x, _ in centres) - g.card_w / 2 - pad
    top = min(-y for _, y in centres) - size - pad
    width = max(x for x, _ in centres) - min(x for x, _ in centres) + g.card_w + 2 * pad
    height = max(-y for _, y in centres) - min(-y for _, y in centres) + 2 * size + 2 * pad
    cells = [[round(x - g.card_w / 2 - left, 3), round(-y - size - top, 3)] for x, y in centres]
    # TTS x grows right and z away from the near edge; the image's top is the far side
    positions = [(round((x - left - width / 2) / INCH, 4), round((height / 2 - (-y - top)) / INCH, 4))
                 for x, y in centres]
    board = {"nickname": f"{deck.game_name}: map (seed {seed})", "kind": "tiles", "cells": cells,
             "grid": g.to_dict(), "width": round(width, 3), "height": round(height, 3),
             "tiles": placed, "positions": positions}

    supply = ((load_yaml(cards_dir(GAME_ID) / "game.yaml") or {}).get("content") or {}).get("gameConfig") or {}
    mine, shared = supply.get("playerSupply") or {}, supply.get("sharedSupply") or {}
    kinds = {k.key: k for k in deck.kinds}
    named = {key: {} for key in kinds}
    for key, k in kinds.items():
        for c in k.cards:
            named[key].setdefault(c["name"], []).append(c)
    size = {key: (k.grid.card_w, k.grid.card_h) for key, k in kinds.items()}
    roman = ["I", "II", "III", "IV", "V", "VI"]
    eras = range(len(state.headline_decks))
    deck_mat = Mat("decks", f"{deck.game_name}: {w.label('tts.decks')}", [
        [slot(f"headlines:{e}", f"{w.label('kind.headlines')} · {w.label('era')} {roman[e]}", *size["headlines"])
         for e in eras] + [slot("headline", f"{w.term('systems.headline')} · {w.label('tts.current')}",
                                *size["headlines"])],
        [slot(f"mandates:{e}", f"{w.label('kind.mandates')} · {w.label('era')} {roman[e]}", *size["mandates"])
         for e in eras] + [slot("mandate", f"{w.term('playerTracks.mandate')} · {w.label('tts.current')}",
                                *size["mandates"])],
        [slot("training", w.label("kind.training"), *size["training"]),
         slot("discard", f"{w.label('kind.training')} · {w.label('tts.discard')}", *size["training"])]],
        title=w.label("tts.decks"))
    shown = {state.headline, state.mandate_card} - {None}
    piles = [{"nickname": f"{w.label('kind.headlines')} {roman[e]}", "on": ("decks", f"headlines:{e}"),
              "cards": [named["headlines"][n][0] for n in state.headline_decks[e] if n not in shown]} for e in eras]
    piles += [{"nickname": f"{w.label('kind.mandates')} {roman[e]}", "on": ("decks", f"mandates:{e}"),
               "cards": [named["mandates"][n][0] for n in state.mandate_decks[e] if n not in shown]} for e in eras]
    piles += [{"nickname": w.term("systems.headline"), "on": ("decks", "headline"), "face_up": True,
               "cards": [named["headlines"][state.headline][0]]}] if state.headline else []
    piles += [{"nickname": w.term("playerTracks.mandate"), "on": ("decks", "mandate"), "face_up": True,
               "cards": [named["mandates"][state.mandate_card][0]]}] if state.mandate_card else []
    copies = {n: list(cs) for n, cs in named["training"].items()}         # a card's copies, one each draw
    piles.append({"nickname": w.label("kind.training"), "on": ("decks", "training"),
                  "cards": [copies[n].pop(0) for n in state.deck]})
    mats = [deck_mat]
    counters, pieces, bags = [], [], []
    for seat, p in enumerate(state.players):
        label = f"{seat + 1} {p.faction}"
        key = f"seat{seat + 1}"
        board_w, board_h = size["factions"]
        mats.append(Mat(key, f"{label}: {w.label('kind.factions')}", [
            [slot("faction", w.label("kind.factions"), board_w, board_h)],
            [Area("agents", w.label("tts.agents"), 40, 24), Area("facilities", w.label("tts.facilities"), 40, 24),
             Area("generator", w.label("tts.generator"), 26, 24),
             Area("scrutiny", w.term("playerTracks.scrutiny"), 30, 24),
             Area("initiative", w.label("tts.initiative"), 30, 24)]], seat=seat, title=label))
        piles.append({"nickname": p.faction, "on": (key, "faction"), "cards": [named["factions"][p.faction][0]]})
        piles.append({"nickname": w.label("kind.actions"), "hand": seat,      # picked face down each cycle
                      "cards": [c for c in kinds["actions"].cards if c["faction"] == p.faction]})
        values = {"runway": p.runway, "compute": p.compute, "capability": p.capability,
                  "customers": p.customers, "trust": p.trust, "mandate": p.mandate, "scrutiny": p.bag}
        counters += [(f"{label}: {w.icon(k)}{w.term(path)}", int(values[k]), seat) for k, path in MEASURES.items()]
        on_map = [pos for pos in p.agents if pos is not None]
        for pos in sorted(set(on_map)):
            px, pz = positions[pos]
            pieces.append({"type": "PlayerPawn", "nickname": f"{label}: Agent", "seat": seat,
                           "count": on_map.count(pos), "at": (px - 0.6 + 0.3 * seat, pz - 0.6), "scale": 0.35})
        if len(p.agents) - len(on_map):
            pieces.append({"type": "PlayerPawn", "nickname": f"{label}: Agent", "seat": seat, "on": (key, "agents"),
                           "count": len(p.agents) - len(on_map), "scale": 0.35})
        pieces.append({"type": "BlockRectangle", "nickname": f"{label}: Facility", "seat": seat,
                       "on": (key, "facilities"), "count": int(mine.get("facilities", len(p.facilities))),
                       "scale": 0.5})
        pieces.append({"type": "BlockTriangle", "nickname": f"{label}: {w.label('tts.generator')}", "seat": seat,
                       "on": (key, "generator"), "count": int(mine.get("generators", 1)), "scale": 0.5})
        if seat == state.initiative:
            pieces.append({"type": "Chip_10", "nickname": w.label("tts.initiative"), "colour": (1.0, 1.0, 1.0),
                           "on": (key, "initiative"), "count": 1, "scale": 0.5})
        bags.append({"nickname": f"{label}: {w.term('playerTracks.scrutiny')}", "seat": seat,
                     "on": (key, "scrutiny"), "scale": 0.6,
                     "contents": [{"type": "BlockSquare", "nickname": w.term("playerTracks.scrutiny"),
                                   "seat": seat, "count": int(mine.get("scrutinyCubes", 10)) - p.bag,
                                   "scale": 0.3}]})
    audit = [{"type": "BlockSquare", "nickname": w.term("playerTracks.scrutiny"), "seat": seat,
              "count": p.bag, "scale": 0.3} for seat, p in enumerate(state.players) if p.bag]
    if state.bag_black:
        audit.append({"type": "BlockSquare", "nickname": "Systemic Risk", "black": True,
                      "count": state.bag_black, "scale": 0.3})
    bags.append({"nickname": "Audit bag", "seat": None, "contents": audit,
                 "description": "as the setup leaves it"})
    bags.append({"nickname": "Systemic Risk cubes", "seat": None,
                 "contents": [{"type": "BlockSquare", "nickname": "Systemic Risk", "black": True,
                               "count": int(state.black_supply or shared.get("systemicRiskCubes", 0)),
                               "scale": 0.3}]})
    return Table(counters=counters, pieces=pieces, bags=bags, board=board, mats=mats, piles=piles,
                 seats=players, hand_names=[f"{seat + 1} {p.faction} · {w.label('tts.hand')}"
                                            for seat, p in enumerate(state.players)])
