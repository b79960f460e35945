"""Exact odds of a Training run, by dynamic programming over the deck's composition.

A run's future depends only on how many cards of each kind remain, which domains
this run has seen, and the provisional Capability so far; drawing is uniform over
the remaining cards. From that we compute, with exact fractions:

- the chance that the next draw crashes, and at each draw of a run that never stops;
- the expected banked Capability of a stopping rule (stop after k cards, stop once
  provisional Capability reaches t, or the best rule);
- the best decision (bank or draw) for every position of a run.

A Curated Corpus is resolved as the unseen domain with the fewest copies left in
the deck (the choice that keeps the rest of the run safest), which is what the
best rule would pick. Scrutiny and Trust side effects are reported alongside
but not folded into the banked Capability unless ``scrutiny_cost`` asks for it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache

from .data import DOMAINS

SPECIALS = ("Curated Corpus", "Benchmark Leak", "Human Evaluation")
KINDS = DOMAINS + SPECIALS


def composition_of(content, cards) -> tuple[int, ...]:
    """Counts per kind (seven domains, then the three specials) of ``cards``."""
    c = Counter(cards)
    return tuple(c.get(k, 0) for k in KINDS)


def full_deck(content=None) -> tuple[int, ...]:
    if content is None:
        return (4,) * 7 + (4, 4, 4)
    return composition_of(content, content.training_deck())


def remaining_after(deck: tuple[int, ...], drawn) -> tuple[int, ...]:
    """The composition once the named cards are out (a partly drawn deck)."""
    left = list(deck)
    for card in drawn:
        i = KINDS.index(card)
        if left[i] == 0:
            raise ValueError(f"no {card} left to remove")
        left[i] -= 1
    return tuple(left)


def _outcomes(comp, seen: frozenset, prov: int):
    """For one draw: list of (probability, kind, new_comp, new_seen, new_prov) where
    kind is 'crash', 'bank' (Human Evaluation) or 'go'."""
    total = sum(comp)
    out = []
    for i, count in enumerate(comp):
        if count == 0:
            continue
        p = Fraction(count, total)
        nc = comp[:i] + (count - 1,) + comp[i + 1:]
        name = KINDS[i]
        if i < 7:
            if i in seen:
                out.append((p, "crash", nc, seen, 0))
            else:
                out.append((p, "go", nc, seen | {i}, prov + 1))
        elif name == "Curated Corpus":
            unseen = [d for d in range(7) if d not in seen]
            if not unseen:
                out.append((p, "crash", nc, seen, 0))
            else:
                pick = min(unseen, key=lambda d: (nc[d], d))
                out.append((p, "go", nc, seen | {pick}, prov + 1))
        elif name == "Benchmark Leak":
            out.append((p, "go", nc, seen, prov + 2))
        else:
            out.append((p, "bank", nc, seen, prov))
    return out


def one_draw(comp, seen, prov: int) -> dict:
    """Expected results of exactly one more draw (floats, for bots): the chance to
    crash, provisional Capability afterwards (zero on a crash; banked on Human
    Evaluation counts too), expected Scrutiny and Human Evaluation chance."""
    seen_idx = frozenset(DOMAINS.index(d) if isinstance(d, str) else d for d in seen)
    if sum(comp) == 0:
        return {"p_crash": 0.0, "expected_prov": float(prov), "expected_scrutiny": 0.0, "p_human_eval": 0.0}
    crash = exp = scr = he = Fraction(0)
    comp = tuple(comp)
    for p, kind, nc, ns, np_ in _outcomes(comp, seen_idx, prov):
        if kind == "crash":
            crash += p
            scr += p
        else:
            exp += p * np_
            if kind == "bank":
                he += p
    leak = KINDS.index("Benchmark Leak")
    scr += Fraction(comp[leak], sum(comp))
    return {"p_crash": float(crash), "expected_prov": float(exp), "expected_scrutiny": float(scr),
            "p_human_eval": float(he)}


@lru_cache(maxsize=None)
def best_value(comp: tuple, seen: frozenset, prov: int, scrutiny_cost: Fraction = Fraction(0),
               bonus: int = 0) -> Fraction:
    """Expected banked Capability (minus ``scrutiny_cost`` per crash) under the best
    rule, standing after a non-duplicate card with ``prov`` provisional."""
    bank_now = Fraction(prov + bonus)
    return max(bank_now, draw_value(comp, seen, prov, scrutiny_cost, bonus))


@lru_cache(maxsize=None)
def draw_value(comp: tuple, seen: frozenset, prov: int, scrutiny_cost: Fraction = Fraction(0),
               bonus: int = 0) -> Fraction:
    """Expected result of drawing once more, then playing on optimally."""
    if sum(comp) == 0:
        return Fraction(prov + bonus)
    total = Fraction(0)
    for p, kind, nc, ns, np_ in _outcomes(comp, seen, prov):
        if kind == "crash":
            total += p * (-scrutiny_cost)
        elif kind == "bank":
            total += p * (np_ + bonus)
        else:
            total += p * best_value(nc, ns, np_, scrutiny_cost, bonus)
    return total


def should_draw(comp, seen, prov: int, bonus: int = 0) -> bool:
    seen_idx = frozenset(DOMAINS.index(d) if isinstance(d, str) else d for d in seen)
    return draw_value(tuple(comp), seen_idx, prov, Fraction(0), bonus) > prov + bonus


def _policy(comp: tuple, stop, bonus: int) -> dict:
    """Expected banked Capability and crash chance of a run from ``comp`` when the
    player stops as soon as ``stop(comp, seen, prov, cards_drawn)`` says so (asked
    after every non-duplicate card). Memoised over run positions."""
    memo: dict = {}

    def draw_from(c, seen, prov, n):
        key = (c, seen, prov, n)
        if key in memo:
            return memo[key]
        if sum(c) == 0:
            out = (Fraction(prov + bonus), Fraction(0))
        else:
            ev = crash = Fraction(0)
            for q, kind, nc, ns, np_ in _outcomes(c, seen, prov):
                if kind == "crash":
                    crash += q
                elif kind == "bank":
                    ev += q * (np_ + bonus)
                elif stop(nc, ns, np_, n + 1):
                    ev += q * (np_ + bonus)
                else:
                    e2, c2 = draw_from(nc, ns, np_, n + 1)
                    ev += q * e2
                    crash += q * c2
            out = (ev, crash)
        memo[key] = out
        return out

    ev, crash = draw_from(tuple(comp), frozenset(), 0, 0)
    return {"expected": ev, "p_crash": crash}


def run_value(comp: tuple, rule, bonus: int = 0) -> dict:
    """Exact expected banked Capability and crash chance of a whole run from ``comp``
    under ``rule(cards_drawn, prov) -> stop?`` (asked after every non-duplicate card)."""
    return _policy(comp, lambda c, seen, prov, n: rule(n, prov), bonus)


def optimal_run(comp: tuple, bonus: int = 0) -> dict:
    """The best rule's expected banked Capability and its crash chance: stop exactly
    when drawing once more (and playing on well) is not worth more than banking."""
    def stop(c, seen, prov, n):
        return not draw_value(c, seen, prov, Fraction(0), bonus) > prov + bonus
    return _policy(comp, stop, bonus)


def crash_by_draw(comp: tuple, max_draws: int = 12) -> list[dict]:
    """Drawing until a crash or the end: for the k-th draw, the chance to reach it and
    the chance it crashes given it is reached."""
    layer = {(tuple(comp), frozenset()): Fraction(1)}
    rows = []
    for k in range(1, max_draws + 1):
        reach = sum(layer.values(), Fraction(0))
        if reach == 0:
            break
        crash = Fraction(0)
        nxt: dict = {}
        for (c, seen), p in layer.items():
            if sum(c) == 0:
                continue
            for q, kind, nc, ns, _ in _outcomes(c, seen, 0):
                if kind == "crash":
                    crash += p * q
                elif kind == "go":
                    nxt[(nc, ns)] = nxt.get((nc, ns), Fraction(0)) + p * q
        rows.append({"draw": k, "p_reach": reach, "p_crash_here": crash / reach, "p_crash_total": crash})
        layer = nxt
    return rows
