"""Planted defects of Meaning Made for ``workbench hunt`` (see
:mod:`workbench.hunt.planted`): each kind draws many variations.

* ``strong-card``: a Pattern that baseline games take (a fifth of games or
  more) gets a Pattern Bonus far beyond any printed one (printed: 1 Vitals or
  a token): 8-12 Legacy, 4-6 Vitals and 2-4 of one token. The End Score is
  Vitals + Legacy and Legacy stops at 30, where 4 in 10 greedy players end:
  a bonus of Legacy alone barely moves who wins (Rest Cycle at Legacy +10,
  I +4, S +2: banning it cost its seat 0.03 score spreads in 48 paired games),
  so the plant gives Vitals too (Rest Cycle at Legacy +10, Vitals +5, E +2:
  banned, seat 1 of 3 took 0.13 of the win credit against 0.27, 30 paired
  games, seed 97). Named by a ``force`` of the card beating the field, by its
  takers winning or scoring far more, or by a seat scoring far less without
  it (its ``ban``).
* ``seat-advantage``: every Initiative's first contributor is paid 12-20
  Legacy (``order_rewards[0]``, printed 5): the turn order decides who
  contributes first, so some seat gains (measured before planting, reward 15:
  seat 4 of 4 took 0.48 of the win credit in 60 greedy games, 0.22 on the
  bundled pool). Named by any seat advantage.
* No ``dominant-line``: no value of this pool makes one kind of move pay more
  without being one card (``strong-card``) or the turn-order race above.
* ``stall``: the rule option ``round_limit`` set to 5-9 rounds (a limit
  shorter than the games): games are cut off. Named by timeouts.
"""

from __future__ import annotations

from workbench.hunt.planted import PlantedDefect

KINDS = ("strong-card", "seat-advantage", "stall")
PLAYERS = (3, 4)


def planted_defects(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedDefect]:
    cards = session.cards
    out = []
    for i in range(count):
        n = (players or PLAYERS)[i % len(players or PLAYERS)]
        if kind == "strong-card":
            rates = pick_rates(n) if pick_rates else {}
            names = sorted(p for p in cards.patterns if rates.get(p, 0) >= 0.2) or sorted(cards.patterns)
            card = rng.choice(names)
            bonus = {"legacy": rng.randint(8, 12), "vitals": rng.randint(4, 6),
                     rng.choice(("E", "I", "S")): rng.randint(2, 4)}
            text = " ".join(f"{k}{v:+d}" for k, v in bonus.items())
            out.append(PlantedDefect(kind, [(card, "bonus", text)], n,
                                     [("beats-field", f"force:{card}"), ("taker-wins", card),
                                      ("taker-scores", card), ("ban-costs", card)],
                                     note=f"{card} bonus -> {text}"))
        elif kind == "seat-advantage":
            reward = rng.randint(12, 20)
            out.append(PlantedDefect(kind, [("settings", "order_rewards[0]", reward)], n,
                                     [("seat-advantage", None)],
                                     note=f"first contributor's reward 5 -> {reward}"))
        elif kind == "stall":
            limit = rng.randint(5, 9)
            out.append(PlantedDefect(kind, [], n, [("timeouts", None), ("stalls", None)],
                                     options={"round_limit": limit}, note=f"round_limit {limit}"))
        else:
            raise ValueError(f"no planted defect {kind!r}; choose from {', '.join(KINDS)}")
    return out
