"""Pax Transhumanity's printable components: the ideas, the Tipping Points (with
Plurality) and the four sphere boards."""

from __future__ import annotations

from workbench.core.data import cards_dir, load_yaml

from workbench.print.cardlist import record
from workbench.print.words import Words

GAME_ID = "pax-transhumanity"
EFFECT_KEYS = {"growth": "effects.growth", "solve": "effects.solve", "found": "effects.foundCompany",
               "resilience": "effects.socialResilience", "disruption": "effects.industryDisruption",
               "recession": "effects.exoglobalRecession", "damping": "effects.heatDampingGrowth",
               "nuclear": "effects.nuclearExchange"}
SIDE_KEYS = {"thinker": "board.thinker", "maker": "board.maker"}
PLACE_KEYS = {"barrier": "board.barrier", "company": "board.company", "utility": "board.utility"}


def _effect(w: Words, term: str) -> str:
    """One effect term in words: "Solve 🟨", "Found Company 🟩 Maker !2"."""
    alts = []
    for alt in term.lower().split(" or "):
        words = alt.split()
        if words == ["game", "end"]:
            alts.append(w.label("game_end"))
            continue
        out = [w.term(EFFECT_KEYS[words[0]])]
        for extra in words[1:]:
            if extra in SIDE_KEYS:
                out.append(w.term(SIDE_KEYS[extra]))
            elif extra == "any":
                out.append(w.label("any_sphere"))
            elif extra.startswith("!"):
                out.append(f"({w.term('board.brash', w.label('brash'))} {extra[1:]})")
            else:
                out.append(w.icon(extra) or extra)
        alts.append(" ".join(out))
    return f" {w.label('or')} ".join(alts)


def _idea(w: Words, c: dict) -> dict:
    kind = c.get("kind", "idea")
    label = {"tipping point": w.term("board.tippingPoint"), "plurality": w.term("board.plurality")}.get(
        kind, w.label("idea"))
    return record(c["name"], c, title=w.card_text(c["name"], "name", c["name"]), kind=kind, kind_label=label,
                  disciplines=list(c.get("disciplines") or []),
                  bands=[w.icon(x) for x in c.get("disciplines") or []],
                  arrows=" ".join(w.icon(x) for x in c.get("arrows") or []),
                  heat=" ".join(w.icon("heat_" + h) for h in c.get("heat") or []),
                  effects=[_effect(w, t) for t in c.get("effects") or []])


def cards(w: Words) -> dict[str, list[dict]]:
    folder = cards_dir(GAME_ID)
    ideas = (load_yaml(folder / "ideas.yaml") or {}).get("ideas", [])
    out = {"ideas": [_idea(w, c) for c in ideas if c.get("kind", "idea") == "idea"],
           "tipping": [_idea(w, c) for c in ideas if c.get("kind", "idea") != "idea"]}
    boards = []
    for colour, s in ((load_yaml(folder / "boards.yaml") or {}).get("spheres") or {}).items():
        rows = [{"T": w.term(PLACE_KEYS[r["T"]]), "M": w.term(PLACE_KEYS[r["M"]])} for r in s.get("rows") or []]
        boards.append(record(w.label("sphere." + colour), s, colour=colour, icon=w.icon(colour),
                             problem=w.card_text(str(s.get("problem")), "name", s.get("problem")),
                             problem_tokens=int(s.get("problem_tokens") or 0),
                             developing=bool(s.get("developing_world")), rows=rows,
                             thinker=w.term("board.thinker"), maker=w.term("board.maker")))
    out["boards"] = boards
    return out


# ---------------------------------------------------------------- Tabletop Simulator
def tts_table(deck, seats: int, seed: int):
    """Pax Transhumanity's table: each seat's finance as counters at the
    settings' starting values."""
    from workbench.print.tts import Table
    w = deck.words
    s = load_yaml(cards_dir(GAME_ID) / "settings.yaml") or {}
    start = (s.get("finance_start") or {}).get("value") or {}
    return Table(counters=[(f"{seat}: {w.term('finance.' + k)}", int(v), seat - 1)
                           for seat in range(1, seats + 1) for k, v in start.items()])
