"""Planted edits of Mandate 2038 whose effect the rules make certain in
direction (see :mod:`workbench.tweak.planted`), each kind with many variations
(which card, by how much, at which player count).

* ``dearer-card``: the Facility or a Generator costs 1-3 more Runway, or the
  AGI payment 1-3 more Compute: fewer of them are built (declared) per game.
  Planted only on what baseline games at that player count build or declare
  at least once in five games (``pick_rates``, as the other games plant only
  on cards games take): what is never built cannot be built less. A dearer
  AGI also expects more seats short of Compute (``agi_short_of_compute``:
  every other AGI threshold met, too little Compute to pay).
* ``larger-rewards``: the AGI's Mandate award grows by 3-8: the score spread
  widens (the declarer pulls away).
* ``stronger-card``: a personal project that baseline games attach (in at
  least a fifth of them, ``pick_rates``) produces much more: 2-3 more of two
  of Runway, Compute and Capability at every Production while its host is
  connected: its takers end further ahead of the other seats of the same game
  (``card_taker_score``, ``card_taker_margin``, ``card_taker_win``, ``card_taker_soon`` higher).
* ``weaker-card``: such a project that yields something produces nothing
  (its chip still costs what it did; Fusion Demonstrator yields nothing to
  take away, its power is a rule): its takers fall behind the other seats (the same metrics lower).
  Both go round the player counts (2, 3, 4, 5, 2, ...) so each is measured.
  A project's yield is read by the bots only with the card-value term on
  (``greedy:card_value=1``, :func:`.evaluation.project_yield_worth`); the plain
  greedy bot values every project alike.
* ``rename``: one card renamed: nothing the rules read (a card is dealt by its
  place in its file, not its name).
* ``no-op``: a card's provenance mark (seed or draft): nothing the rules read.

The other kinds of the issue do not apply: the table shares no track it can
fall by (the World Ending is read from public results), and the game always
lasts four Eras, so no End card makes it longer.
"""

from __future__ import annotations

from workbench.tweak.planted import NO_OP, RENAME, PlantedEdit, player_count, provenance_flip, rename

KINDS = ("dearer-card", "larger-rewards", "stronger-card", "weaker-card", RENAME, NO_OP)
#: what a stronger or weaker card moves: what its takers gain over the other seats
TAKER_KEYS = ("card_taker_score", "card_taker_margin", "card_taker_win", "card_taker_soon")
#: the tracks a project may produce (data.Project.produces)
YIELDS = ("runway", "compute", "capability")
PLAYERS = (2, 3, 4, 5)
#: (card kind in the catalogue, field, what its cost buys: the game_stats column)
COSTS = (("facility", "runway", "stat:facilities_built"), ("generator", "runway", "stat:generators_built"),
         ("agi", "compute", "stat:agi_declarations"))


def planted_edits(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedEdit]:
    table = session.table()
    out = []
    projects = sorted(table.filter(table["kind"] == "project")["name"].to_list())
    for i in range(count):
        n = player_count(kind, i, rng, players or PLAYERS)
        if kind == "dearer-card":
            rates = pick_rates(n) if pick_rates else {}
            costs = [c for c in COSTS if rates.get(c[2], 1.0) >= 0.2] or list(COSTS)
            what, column, stat = rng.choice(costs)
            card = rng.choice(sorted(table.filter(table["kind"] == what)["name"].to_list()))
            old = session.value_of(card, column)
            new = old + rng.randint(1, 3)
            expect = [(stat, "lower")]
            if what == "agi":
                # a dearer AGI moves declarations by well under a tenth a game
                # (z 2.2-2.7 at 200 games for 3 -> 4); the seats it keeps out
                # meet every other threshold and end short of the Compute
                expect.append(("stat:agi_short_of_compute", "higher"))
            out.append(PlantedEdit(kind, [(card, column, new)], n, expect, f"{card} {column} {old} -> {new}"))
        elif kind == "larger-rewards":
            card = table.filter(table["kind"] == "agi")["name"][0]
            old = session.value_of(card, "mandate")
            new = old + rng.randint(3, 8)
            out.append(PlantedEdit(kind, [(card, "mandate", new)], n, [("score_spread", "higher")],
                                   f"{card} mandate award {old} -> {new}"))
        elif kind in ("stronger-card", "weaker-card"):
            rates = pick_rates(n) if pick_rates else {}
            # a weaker project loses its yield: only one that yields something
            # (Fusion's power is a rule, not a yield) can be planted weaker
            pool = [c for c in projects if kind == "stronger-card" or session.value_of(c, "produces")]
            card = rng.choice([c for c in pool if rates.get(c, 0) >= 0.2] or pool)
            old = dict(session.value_of(card, "produces") or {})
            if kind == "stronger-card":
                new = dict(old)
                for track in rng.sample(YIELDS, 2):
                    new[track] = new.get(track, 0) + rng.randint(2, 3)
                want = "higher"
            else:
                new, want = {}, "lower"
            out.append(PlantedEdit(kind, [(card, "produces", _text(new))], n,
                                   [(f"{k}:{card}", want) for k in TAKER_KEYS],
                                   f"{card} produces {_text(old)} -> {_text(new)}"))
        elif kind == RENAME:
            out.append(rename(kind, session, rng, n))
        elif kind == NO_OP:
            out.append(provenance_flip(kind, table, rng, n))
        else:
            raise ValueError(f"no planted kind {kind!r}; choose from {', '.join(KINDS)}")
    return out


def _text(produces: dict) -> str:
    """A project's yield as the Cards page takes it (``{compute: 4, runway: 2}``)."""
    return "{" + ", ".join(f"{k}: {v}" for k, v in produces.items() if v) + "}"
