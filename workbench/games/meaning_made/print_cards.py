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
def tts_table(deck, seats: int, seed: int):
    """Meaning Made's table: the shared Meaning track and each seat's Vitals,
    Legacy and tokens as counters at the settings' starting values."""
    from workbench.print.tts import Table
    w = deck.words
    s = load_yaml(cards_dir(GAME_ID) / "settings.yaml") or {}
    out = [(w.term("tracks.meaning"), int(s.get("meaning", 0)))]
    tokens = s.get("tokens") or {}
    for seat in range(1, seats + 1):
        who = f"{w.term('people.player')} {seat}"
        out += [(f"{who}: {w.term('tracks.vitals')}", int(s.get("vitals", 0)), seat - 1),
                (f"{who}: {w.term('tracks.legacy')}", int(s.get("legacy", 0)), seat - 1)]
        out += [(f"{who}: {w.term(key)}", int(tokens.get(k, 0)), seat - 1)
                for k, key in (("E", "tokens.energy"), ("I", "tokens.insight"), ("S", "tokens.support"))]
    return Table(counters=out)
