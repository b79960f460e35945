"""Planted defects of Mandate 2038 for ``workbench hunt`` (see
:mod:`workbench.hunt.planted`).

* ``strong-card``: one Project produces 3-5 more of two yields and costs no
  Runway (strong and free). Named by a ``force`` of it beating the field, its
  takers winning or scoring far more, or a seat scoring far less without it.
* ``seat-advantage``: one faction (factions are dealt from the seed, so it
  sits at every seat in turn) starts with 5-8 more Mandate and 3-5 more
  Runway. Named by that faction's advantage (a role advantage).
* No ``stall``: a game ends after its fourth Era whatever is played, and no
  option or value of this pool can keep it going.
* No ``dominant-line`` yet: the Core Actions' payoffs are rules, not values of
  the pool; a Project made strong is the nearest (``strong-card``).
"""

from __future__ import annotations

from workbench.hunt.planted import PlantedDefect

KINDS = ("strong-card", "seat-advantage")
PLAYERS = (3, 4)
YIELDS = ("compute", "capability", "runway")


def planted_defects(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedDefect]:
    table = session.table()
    out = []
    for i in range(count):
        n = (players or PLAYERS)[i % len(players or PLAYERS)]
        if kind == "strong-card":
            projects = sorted(table.filter(table["kind"] == "project")["name"].to_list())
            card = rng.choice(projects)
            produces = dict(session.value_of(card, "produces") or {})
            for y in rng.sample(YIELDS, 2):
                produces[y] = produces.get(y, 0) + rng.randint(3, 5)
            text = "{" + ", ".join(f"{k}: {v}" for k, v in produces.items() if v) + "}"
            out.append(PlantedDefect(kind, [(card, "produces", text), (card, "runway", 0)], n,
                                     [("beats-field", f"force:{card}"), ("taker-wins", card),
                                      ("taker-scores", card), ("ban-costs", card)],
                                     note=f"{card} produces {text}, costs no Runway"))
        elif kind == "seat-advantage":
            factions = sorted(table.filter(table["kind"] == "faction")["name"].to_list())
            faction = rng.choice(factions)
            mandate = session.value_of(faction, "mandate") + rng.randint(5, 8)
            runway = session.value_of(faction, "runway") + rng.randint(3, 5)
            out.append(PlantedDefect(kind, [(faction, "mandate", mandate), (faction, "runway", runway)], n,
                                     [("role-advantage", faction)],
                                     note=f"{faction} starts with mandate {mandate}, runway {runway}"))
        else:
            raise ValueError(f"no planted defect {kind!r}; choose from {', '.join(KINDS)}")
    return out
