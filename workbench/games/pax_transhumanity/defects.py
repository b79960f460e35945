"""Planted defects of Pax Transhumanity for ``workbench hunt`` (see
:mod:`workbench.hunt.planted`).

* ``strong-card``: one plain Idea (no type, not a game end) gains 3-4 more
  ``solve any`` effects. Named by a ``force`` of it beating the field, its
  takers winning or scoring far more, or a seat scoring far less without it.
* ``stall``: the rule option ``round_limit`` (our safety stop) set to 4-7
  rounds: games are cut off before any End. Named by timeouts.
* No ``seat-advantage`` yet: every seat starts alike and no value of the pool
  is per seat.
* No ``dominant-line`` yet: the costs of the actions (``hire_cost`` ...) live
  in settings.yaml, which the Cards page's session does not edit; an Idea made
  strong is the nearest (``strong-card``).
"""

from __future__ import annotations

from workbench.hunt.planted import PlantedDefect

KINDS = ("strong-card", "stall")
PLAYERS = (3, 2)
GAME_END = "game end"


def planted_defects(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedDefect]:
    table = session.table()
    ideas = table.filter((table["kind"] == "idea") & table["type"].is_null()
                         & ~table["effects"].fill_null("").str.contains(GAME_END, literal=True))
    out = []
    for i in range(count):
        n = (players or PLAYERS)[i % len(players or PLAYERS)]
        if kind == "strong-card":
            rates = pick_rates(n) if pick_rates else {}
            names = sorted(c for c in ideas["name"].to_list() if rates.get(c, 0) >= 0.2) or sorted(ideas["name"])
            card = rng.choice(names)
            old = list(session.value_of(card, "effects") or [])
            new = old + ["solve any"] * rng.randint(3, 4)
            out.append(PlantedDefect(kind, [(card, "effects", "; ".join(new))], n,
                                     [("beats-field", f"force:{card}"), ("taker-wins", card),
                                      ("taker-scores", card), ("ban-costs", card)],
                                     note=f"{card} effects -> {'; '.join(new)}"))
        elif kind == "stall":
            limit = rng.randint(4, 7)
            out.append(PlantedDefect(kind, [], n, [("timeouts", None), ("stalls", None)],
                                     options={"round_limit": limit}, note=f"round_limit {limit}"))
        else:
            raise ValueError(f"no planted defect {kind!r}; choose from {', '.join(KINDS)}")
    return out
