"""Exact Training-run odds, checked by hand values and by simulating the engine."""

from __future__ import annotations

import math
from fractions import Fraction

from workbench.core.rng import Rng
from workbench.games.mandate_2038 import GAME, odds
from workbench.games.mandate_2038.data import DOMAINS

FULL = odds.full_deck()
TILES = ["research", "cloud", "chip", "capital", "talent", "grid", "research", "research", "cloud", "cloud",
         "consumer", "consumer", "media", "media", "government", "government", "renewable", "renewable"]


def test_crash_chances_by_hand():
    rows = odds.crash_by_draw(FULL, 3)
    assert rows[0]["p_crash_here"] == 0
    assert rows[1]["p_reach"] == Fraction(36, 40)                      # no Human Evaluation first
    # a domain then its twin, or a Curated Corpus (naming a domain with 4 left) then that domain
    assert rows[1]["p_crash_total"] == Fraction(28, 40) * Fraction(3, 39) + Fraction(4, 40) * Fraction(4, 39)


def test_one_card_rule_and_partly_drawn_deck():
    assert odds.run_value(FULL, lambda n, p: True)["expected"] == 1        # 28/40 + 4/40 + 2*4/40
    left = odds.remaining_after(FULL, ["Human Evaluation"] * 4)
    assert odds.run_value(left, lambda n, p: True)["expected"] == Fraction(28 + 4 + 8, 36)
    step = odds.one_draw(odds.remaining_after(FULL, ["Code"]), {"Code"}, 1)
    assert math.isclose(step["p_crash"], 3 / 39)


def test_best_rule_beats_every_simple_rule():
    best = odds.optimal_run(FULL)["expected"]
    for k in range(1, 8):
        assert best >= odds.run_value(FULL, lambda n, p, k=k: n >= k)["expected"]
        assert best >= odds.run_value(FULL, lambda n, p, k=k: p >= k)["expected"]
    assert odds.optimal_run(FULL, bonus=1)["expected"] > best


def _simulate(rule, runs: int) -> tuple[float, float]:
    """Play Research in the engine ``runs`` times from a freshly shuffled full deck."""
    base = GAME.scenario_state({"players": ["Alex", "Brooke"], "tiles": TILES, "initiative": "Alex",
                                "factions": {"Alex": "Northwind Systems", "Brooke": "Halden Capital Trust"},
                                "start": "act", "selections": {"Alex": "research", "Brooke": "fund"},
                                "players_state": {"Alex": {"compute": 2, "capability": 0}}})
    gains, crashes = [], 0
    for i in range(runs):
        s = base.clone()
        s.rng = Rng(1000 + i)
        s.rng.shuffle(s.deck)
        s.apply_action(GAME.parse_action(s, "research with agent 1 at Frontier"))
        cards = 1
        while s.run is not None:
            wait = s.run["await"]
            if wait == "corpus":
                left = {d: s.deck.count(d) for d in DOMAINS if d not in s.run["seen"]}
                pick = min(left, key=lambda d: (left[d], DOMAINS.index(d)))
                s.apply_action(GAME.parse_action(s, f"corpus {pick}"))
            elif rule(cards, s.run["prov"]) or wait == "bank":
                s.apply_action(GAME.parse_action(s, "bank"))
            else:
                bag = s.players[0].bag
                s.apply_action(GAME.parse_action(s, "draw"))
                cards += 1
                if s.run is None and s.players[0].bag > bag and s.players[0].capability == 0:
                    crashes += 1
        gains.append(s.players[0].capability)
    mean = sum(gains) / runs
    return mean, crashes / runs


def test_exact_values_match_engine_simulation():
    rule = lambda n, p: n >= 3
    exact = odds.run_value(FULL, rule)
    mean, crash = _simulate(rule, 1500)
    # four standard errors (Capability per run has sd < 1.6; a crash share sd <= 0.5)
    assert abs(mean - float(exact["expected"])) < 4 * 1.6 / math.sqrt(1500)
    assert abs(crash - float(exact["p_crash"])) < 4 * 0.5 / math.sqrt(1500)
