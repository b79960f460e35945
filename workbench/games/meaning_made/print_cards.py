"""Meaning Made's printable cards: Patterns, Initiatives and Events."""

from __future__ import annotations

from workbench.core.data import cards_dir, load_yaml

from workbench.print.cardlist import record, signed
from workbench.print.words import Words

GAME_ID = "meaning-made"
# Layer number -> key under ``terms.layers`` (the rulebook's order of Layers).
LAYER_KEYS = {1: "boundary", 2: "balance", 3: "form", 4: "membership", 5: "prediction",
              6: "reinforcement", 7: "presence", 8: "social", 9: "story", 10: "stewardship"}
TOKEN_KEYS = {"E": "tokens.energy", "I": "tokens.insight", "S": "tokens.support", "V": "tracks.vitals"}
TRACK_KEYS = {"meaning": "tracks.meaning", "vitals": "tracks.vitals", "legacy": "tracks.legacy"}


def _layer(w: Words, n: int) -> str:
    return w.term(f"layers.{LAYER_KEYS[n]}")


def _tokens(w: Words, tokens: dict | None) -> list[str]:
    return [f"{n} {w.term(TOKEN_KEYS[k])}" for k, n in (tokens or {}).items() if n]


def _effect(w: Words, eff: dict | None) -> str | None:
    """A bonus or outcome as one line: "+1 ☀️Energy, +1 🛡️Vitals (contributors)"."""
    if not eff:
        return None
    parts = []
    for key, value in eff.items():
        if key in TOKEN_KEYS:
            parts.append(f"{signed(int(value))} {w.term(TOKEN_KEYS[key])}")
        elif key in TRACK_KEYS:
            parts.append(f"{signed(int(value))} {w.term(TRACK_KEYS[key])}")
    target = eff.get("target")
    line = ", ".join(parts)
    return f"{line} ({w.label('target.' + target)})" if target else line


def _consequence(w: Words, cons: dict | None) -> str | None:
    if not cons:
        return None
    return f"{w.label('table.' + cons['table'])} {cons['code']}"


def _flavour(w: Words, card: dict) -> str | None:
    """Flavour text is printed in the card files' language, or where the print strings
    translate it; an untranslated flavour line is left off rather than printed in English."""
    original = card.get("flavour") if w.lang == w.source_lang else None
    return w.card_text(card["name"], "flavour", original)


def cards(w: Words) -> dict[str, list[dict]]:
    folder = cards_dir(GAME_ID)
    out: dict[str, list[dict]] = {}
    pats = []
    for p in (load_yaml(folder / "patterns.yaml") or {}).get("patterns", []):
        req = p.get("requirement") or {}
        pats.append(record(
            p["name"], p, title=w.card_text(p["name"], "name", p["name"]), layer=int(p["layer"]), layer_name=_layer(w, int(p["layer"])),
            requirement=_tokens(w, req.get("tokens")) + [_layer(w, int(n)) for n in req.get("layers") or []],
            bonus=_effect(w, p.get("bonus")), consequence=_consequence(w, p.get("consequence")),
            flavour=_flavour(w, p)))
    out["patterns"] = pats
    inits = []
    for c in (load_yaml(folder / "initiatives.yaml") or {}).get("initiatives", []):
        req = c.get("requirement") or {}
        need = _tokens(w, req.get("tokens")) + [_layer(w, int(n)) for n in req.get("layers") or []]
        if req.get("contributors"):
            need.insert(0, f"{req['contributors']} {w.term('people.players')}")
        if req.get("completed"):
            need.append(f"{w.label('completed')}: " + ", ".join(_layer(w, int(n)) for n in req["completed"]))
        if req.get("patterns_in_play"):
            need.append(f"{req['patterns_in_play']} {w.term('cards.patterns')}")
        inits.append(record(
            c["name"], c, title=w.card_text(c["name"], "name", c["name"]), layer=int(c["layer"]), layer_name=_layer(w, int(c["layer"])), requirement=need,
            order_spaces=int(c.get("order_spaces") or 0), meaning=int(c.get("meaning") or 0),
            bonus=_effect(w, c.get("bonus")), penalty=_consequence(w, c.get("penalty")),
            flavour=_flavour(w, c)))
    out["initiatives"] = inits
    out["events"] = [record(str(e["id"]), e, code=int(e["code"]))
                     for e in (load_yaml(folder / "events.yaml") or {}).get("events", [])]
    return out


# ---------------------------------------------------------------- Tabletop Simulator
#: Contribution marker colours in the rulebook's order (rule components/markers),
#: as TTS player colours: seat 1 plays Blue, seat 2 Red, ...
SEAT_COLOURS = ["Blue", "Red", "Green", "Yellow", "Purple", "Orange"]
#: the three token kinds as TTS pieces: (settings key, term, piece type, colour)
TOKEN_PIECES = [("E", "tokens.energy", "BlockSquare", (0.95, 0.78, 0.12)),
                ("I", "tokens.insight", "BlockTriangle", (0.25, 0.5, 0.92)),
                ("S", "tokens.support", "BlockRectangle", (0.86, 0.2, 0.3))]
MARKER = {"type": "BlockSquare", "scale": 0.4}


def _outcome(w: Words, eff: dict) -> str:
    """One cell of a Resolution Table in words: "-1 🌟Meaning, lose 1 🎟️Token (first player)"."""
    line = _effect(w, {k: v for k, v in eff.items() if k != "target"}) or ""
    extra = []
    if eff.get("lose_tokens"):
        extra.append(f"{signed(-int(eff['lose_tokens']))} {w.term('tokens.tokens')}")
    if eff.get("restrict"):
        what = eff["restrict"]
        name = w.term(RESTRICT_KEYS[what]) if what in RESTRICT_KEYS else w.label("tts.action." + what)
        extra.append(f"{w.label('tts.restricted')}: {name}")
    if eff.get("consequence"):
        extra.append(f"{w.label('table.' + eff['consequence'])} {w.term('rules.consequence')}")
    text = ", ".join(x for x in [line, *extra] if x) or "—"
    return f"{text} ({w.label('target.' + eff['target'])})" if eff.get("target") else text


def player_aid(w: Words) -> list[tuple[str, str]]:
    """The Player Aid's three Resolution Tables (rule events/resolution-tables) as
    Notebook tabs: per row its key and, per run of Layer columns with the same
    outcome, the columns and the outcome. Draft rows say so."""
    tables = load_yaml(cards_dir(GAME_ID) / "tables.yaml") or {}
    out = []
    for table, title in (("event", "tts.event_table"), ("group", "tts.group_table"),
                         ("individual", "tts.individual_table")):
        lines = []
        for row in tables.get(table) or []:
            cols = sorted((int(c), _outcome(w, e or {})) for c, e in (row.get("outcomes") or {}).items())
            runs: list[list] = []
            for col, text in cols:
                if runs and runs[-1][2] == text:
                    runs[-1][1] = col
                else:
                    runs.append([col, col, text])
            cells = "; ".join(f"{w.term('layers.layer')} {a}{'-' + str(b) if b != a else ''}: {t}" for a, b, t in runs)
            draft = " ‡" if row.get("provenance") == "draft" else ""
            lines.append(f"{row['key']}{draft}: {cells}")
        legend = f"‡ {w.label('draft_legend')}" if any(" ‡:" in ln for ln in lines) else ""
        out.append((w.label(title), "\n".join(lines + ([legend] if legend else []))))
    return out


#: an action a Resolution Table may restrict -> its term (conversion is no action term: a label)
RESTRICT_KEYS = {"recycle": "actions.recycle", "touchpoint": "actions.touchpoint", "gather": "actions.gather",
                 "load": "actions.loadPattern", "contribute": "actions.contribute"}


def tts_table(deck, seats: int, seed: int):
    """Meaning Made's table as the setup lays it for ``seed`` (rules Components
    and Setup): the World Board with the Meaning and World Layer tracks (a marker on
    each at its starting space), the Event, Pattern and Initiative decks, the Pattern
    Prism and the Initiative Index dealt face up, the End Initiative in its slot and
    the token supply (infinite bags of Energy, Insight, Support and Requirement-Filled
    markers); per seat a Player Mat (Pattern Palette, Vitals and Legacy tracks with
    their markers) with the starting tokens and Contribution markers on it; in a solo
    game the Community's black markers; the Player Aid's Resolution Tables as
    Notebook tabs. Every count and range is the game's data
    (settings.yaml through the setup) and every card where the setup deals it."""
    from workbench.core.game import GameConfig
    from workbench.core.registry import get_game
    from workbench.print.tts import Table
    from workbench.print.tts_mats import Area, Mat, slot, track
    from .data import PATTERN_LAYERS
    from .setup import new_state

    w = deck.words
    game = get_game(GAME_ID)
    players = max(game.min_players, min(seats, game.max_players, len(SEAT_COLOURS)))
    config = GameConfig(players=tuple(f"seat{i + 1}" for i in range(players)), seed=seed)
    cards = game.cards()
    state = new_state(config, game.rules(config, cards), cards)
    ranges = cards.settings.tracks
    by_name = {(k.key, c["name"]): c for k in deck.kinds for c in k.cards}
    size = {k.key: (k.grid.card_w, k.grid.card_h) for k in deck.kinds}

    def card(kind: str, name: str) -> dict:
        return by_name[(kind, str(name))]

    supply = [Area(f"supply:{key}", w.term(term), 30, 30) for key, term, _, _ in TOKEN_PIECES]
    supply += [Area("supply:filled", w.term("rules.requirementFilled"), 30, 30)]
    if players == 1:
        supply.append(Area("supply:community", w.term("people.community"), 30, 30))
    world = Mat("world", f"{deck.game_name}: {w.term('areas.worldBoard')}", [
        *track("meaning", *ranges["meaning"], label=w.term("tracks.meaning")),
        *track("layer", *ranges["world_layer"], label=w.term("tracks.worldLayer")),
        [slot("pattern-deck", w.term("cards.patterns"), *size["patterns"])] +
        [slot(f"prism:{i}", f"{w.term('areas.patternPrism')} {i + 1}", *size["patterns"])
         for i in range(len(state.prism))],
        [slot("initiative-deck", w.term("cards.initiatives"), *size["initiatives"])] +
        [slot(f"index:{i}", f"{w.term('areas.initiativeIndex')} {i + 1}", *size["initiatives"])
         for i in range(len(state.index))] +
        [slot("end", w.term("cards.endInitiative"), *size["initiatives"]),
         slot("event-deck", w.term("cards.events"), *size["events"]),
         slot("event-zone", w.term("areas.eventZone"), *size["events"])],
        supply], title=w.term("areas.worldBoard"))
    mats = [world]
    pieces = [{**MARKER, "nickname": w.term("tracks.meaning"), "colour": (1.0, 1.0, 1.0),
               "on": ("world", f"meaning:{state.meaning}"), "count": 1},
              {**MARKER, "nickname": w.term("tracks.worldLayer"), "colour": (0.35, 0.35, 0.35),
               "on": ("world", f"layer:{state.world_layer}"), "count": 1}]
    layers = sorted({p.layer for p in cards.patterns.values()} or PATTERN_LAYERS)
    half = (len(layers) + 1) // 2
    for seat, p in enumerate(state.players):
        who = f"{w.term('people.player')} {seat + 1}"
        key = f"seat{seat + 1}"
        palette = [slot(f"palette:{n}", f"{w.term('areas.patternPalette')}: {_layer(w, n)}", *size["patterns"])
                   for n in layers]
        mats.append(Mat(key, f"{who}: {w.term('areas.playerMat')}", [
            palette[:half], palette[half:],
            *track("vitals", *ranges["vitals"], label=w.term("tracks.vitals")),
            *track("legacy", *ranges["legacy"], label=w.term("tracks.legacy")),
            [Area(f"stock:{k}", w.term(term), 30, 30) for k, term, _, _ in TOKEN_PIECES] +
            [Area("markers", w.term("rules.contributionOrder"), 40, 30)]],
            seat=seat, title=f"{who} · {w.term('areas.playerMat')}"))
        pieces += [{**MARKER, "nickname": f"{who}: {w.term('tracks.vitals')}", "seat": seat,
                    "on": (key, f"vitals:{p.vitals}"), "count": 1},
                   {**MARKER, "nickname": f"{who}: {w.term('tracks.legacy')}", "seat": seat,
                    "on": (key, f"legacy:{p.legacy}"), "count": 1},
                   {"type": "PlayerPawn", "nickname": f"{who}: {w.label('tts.contribution_marker')}",
                    "seat": seat, "scale": 0.3, "on": (key, "markers"), "count": p.markers}]
        pieces += [{"type": kind, "nickname": w.term(term), "colour": rgb, "scale": 0.3,
                    "on": (key, f"stock:{k}"), "count": getattr(p, k)} for k, term, kind, rgb in TOKEN_PIECES]
    bags = [{"nickname": w.term(term), "infinite": True, "colour": rgb, "scale": 0.6, "on": ("world", f"supply:{k}"),
             "contents": [{"type": kind, "nickname": w.term(term), "colour": rgb, "scale": 0.3, "count": 1}]}
            for k, term, kind, rgb in TOKEN_PIECES]
    bags.append({"nickname": w.term("rules.requirementFilled"), "infinite": True, "scale": 0.6,
                 "on": ("world", "supply:filled"),
                 "contents": [{"type": "BlockSquare", "nickname": w.term("rules.requirementFilled"),
                               "colour": (0.85, 0.95, 1.0), "scale": 0.25, "count": 1}]})
    if players == 1:
        bags.append({"nickname": w.term("people.community"), "on": ("world", "supply:community"), "scale": 0.6,
                     "contents": [{"type": "PlayerPawn", "nickname": w.term("people.community"),
                                   "black": True, "scale": 0.3, "count": state.community}]})
    piles = [{"nickname": w.term("cards.patterns"), "on": ("world", "pattern-deck"),
              "cards": [card("patterns", n) for n in state.pattern_deck]},
             {"nickname": w.term("cards.initiatives"), "on": ("world", "initiative-deck"),
              "cards": [card("initiatives", n) for n in state.init_deck]},
             {"nickname": w.term("cards.events"), "on": ("world", "event-deck"),
              "cards": [card("events", n) for n in state.event_deck]},
             {"nickname": w.term("cards.endInitiative"), "on": ("world", "end"), "face_up": True,
              "cards": [card("initiatives", state.end)]}]
    piles += [{"nickname": w.term("areas.patternPrism"), "on": ("world", f"prism:{i}"), "face_up": True,
               "cards": [card("patterns", n)]} for i, n in enumerate(state.prism) if n]
    piles += [{"nickname": w.term("areas.initiativeIndex"), "on": ("world", f"index:{i}"), "face_up": True,
               "cards": [card("initiatives", n)]} for i, n in enumerate(state.index) if n]
    return Table(pieces=pieces, bags=bags, mats=mats, piles=piles, seats=players,
                 hand_colours=SEAT_COLOURS[:players],
                 hand_names=[f"{w.term('people.player')} {i + 1} · {w.label('tts.hand')}" for i in range(players)],
                 notes=player_aid(w))
