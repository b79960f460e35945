"""How a Pax Transhumanity position is rated for greedy bots and the design
metrics: weighted features (``DEFAULT_WEIGHTS`` names them), money and Patents
held counting less as the game goes on, and what a finished game is worth to a
seat (:func:`ending_value`)."""

from __future__ import annotations

from typing import Mapping

from . import scoring
from .commercialize import WAYS, cost as commercialize_cost, feasible
from .data import SPHERES
from .effects import companies_of
from .finance import can_pay, patent_value, track_money
from .labour import employees_of, labour_places
from .research import lowest_card
from .state import PaxState

DEFAULT_WEIGHTS = {
    "score": 2.0,           # points under the scoring that would apply now
    "commercialized": 5.0,  # ideas this player has commercialized (the game's aim)
    "companies": 2.0,
    "solved": 1.5,
    "patents": 1.2,         # Patent agents held
    "patent_value": 0.1,    # their total sale value
    "syndications": 0.3,    # (counted up to 3)
    "feasible": 0.5,        # own Syndications that are feasible now (any of the three ways)
    "progress": 1.5,        # best own Syndication's readiness: feasible + Maker labour + affordable (0-3)
    "thinkers": 1.0,        # spheres with a card to research where the player has Thinker labour
    "employees": 0.5,       # (counted up to 4)
    "money": 0.1,           # what the player could pay, Patent sales included (counted up to $6:
                            # money kept beyond two Hires' worth does nothing, so bots spend it)
    "broke": -1.5,          # 1 when the finance track alone pays less than $3 (a Hire): Patents
                            # sold in a payment pay little, so a broke player should Fundraise them
    "debt": -0.4,           # agents in Debt (only Capital pairs them off in a Fundraise)
    "agents": 0.4,          # agents on the finance track, free to install
    "future_shock": 0.4,
    "think_tank": 0.3,
    "clock": 2.0,           # cards drawn, researched away or commercialized: bots move the game on
    "imports": -0.05,       # Imports made by anyone: moving cards is no progress in itself
    "tipping_points": 2.0,  # 1 with an own Syndication on a Tipping Point in the Market (the way to end
                            # the game); more would only tie up agents
    "tipping_ready": 1.0,   # ... of them, those at the bottom of their column (researchable now)
    "cash": 0.2,            # what the finance track alone pays (up to $6): a Fundraise needs track agents
    "tycoon": 1.0,          # Companies counted again, squared over the fifth: the closer to Tycoon the better
    # how a finished game is valued: the features of the final position plus these
    "win": 50.0,            # the player wins (alone or shared)
    "loss": -10.0,          # a loss, scaled by rank: last place gets all of it, second of four a third
    "margin": 2.0,          # per point ahead of (or behind) the best rival under the final scoring
    "stall": 0.5,           # per round played, charged to unfinished positions only, so a dragging
                            # game makes finishing (even second) worth more than going on
    "spend_by": 30.0,       # round by which money and Patents held are worth nothing (their weights
                            # shrink linearly to 0): scoring never counts money, so bots spend it
}

#: keys that are not features: how endings, long games and held money are valued
ENDING_KEYS = ("win", "loss", "margin", "stall", "spend_by")
#: features whose weight shrinks toward ``spend_by``
HOLDINGS = ("money", "cash", "broke", "agents", "debt", "patents", "patent_value")


def features(state: PaxState, seat: int) -> dict:
    # what the player could pay now: the finance track plus selling every Patent
    held = state.patents[seat]
    value_of = {c: patent_value(state, c) for c in held}   # each colour's sale value, once
    liquid = track_money(state, seat) + sum((value_of[c] + 1) * n for c, n in held.items())
    feasible_count, best_progress = syndication_outlook(state, seat)
    tipping = list(held_tipping_points(state, seat))
    return {
        "score": scoring.score(state, seat),
        "companies": len(companies_of(state, seat)),
        "solved": sum(state.solved[seat].values()),
        "patents": sum(state.patents[seat].values()),
        "patent_value": sum(value_of[c] * n for c, n in held.items()),
        "syndications": min(3, sum(1 for owners in state.synd.values() if seat in owners)),
        "feasible": feasible_count,
        "progress": best_progress,
        "commercialized": state.stats.get(f"commercialized_by_{seat}", 0),
        "thinkers": sum(1 for sp in SPHERES if any(state.market[sp]) and labour_places(state, seat, sp, "T")),
        "employees": min(4, len(employees_of(state, seat))),
        "money": min(6, liquid),
        "broke": 1 if track_money(state, seat) < 3 else 0,
        "agents": sum(state.fin[seat]),
        "debt": state.fin[seat][2],
        "imports": state.stats.get("imports", 0),
        "clock": len(state.splay) + len(state.out_of_game) - len(state.deck),
        "future_shock": scoring.singular_score(state, seat),
        "think_tank": len(state.think_tank[seat]),
        "tipping_points": min(1, len(tipping)),
        "tipping_ready": sum(1 for tp in tipping if is_lowest(state, tp)),
        "cash": min(6, track_money(state, seat)),
        "tycoon": tycoon_progress(len(companies_of(state, seat)), state.content.settings),
    }


def evaluate(state: PaxState, seat: int, weights=None) -> float:
    """Weighted features (see ``DEFAULT_WEIGHTS``; money and Patents held count
    less and less until round ``spend_by``). A finished game adds the
    ending's worth for ``seat`` (:func:`ending_value`); an unfinished one pays
    ``stall`` per round, so the longer a game drags on the more an ending the
    player would not win beats going on. The safety stop (``timeout``) is
    valued like any unfinished position."""
    if weights:
        w = dict(DEFAULT_WEIGHTS)
        w.update(weights)
    else:
        w = DEFAULT_WEIGHTS  # only read
    f = features(state, seat)
    keep = max(0.0, 1.0 - state.round / w["spend_by"]) if w["spend_by"] > 0 else 1.0
    # the same products summed by sum() in the same order as always (a loop
    # of += would differ from sum() on Python versions that compensate)
    get = w.get
    value = sum([get(k, 0.0) * v * (keep if k in HOLDINGS else 1.0) for k, v in f.items()])
    if state.is_terminal() and state.ending != "timeout":
        return value + ending_value(state, seat, w)
    return value - w["stall"] * state.round


def ending_value(state: PaxState, seat: int, w: Mapping) -> float:
    """What a finished game is worth to ``seat`` on top of its features: ``win``
    for a winner, else ``loss`` scaled by rank (last place all of it), plus
    ``margin`` per point ahead of (behind) the best rival. Solo: the margin is
    measured against the solo target."""
    pts = scoring.scores(state)
    won = seat in scoring.winners(state)
    n = state.num_players
    if n == 1:
        target = int(state.options.get("solo_target", state.content.settings["solo_target"]))
        return (w["win"] if won else w["loss"]) + w["margin"] * (pts[0] - target)
    best_rival = max(pts[s] for s in range(n) if s != seat)
    margin = pts[seat] - best_rival
    if won:
        return w["win"] + w["margin"] * margin
    # rank 1 = second place; everyone with strictly more points (or the winners) is ahead
    ahead = sum(1 for s in range(n) if s != seat and (pts[s] > pts[seat] or s in scoring.winners(state)))
    rank = max(1, ahead)
    return w["loss"] * rank / (n - 1) + w["margin"] * margin


def held_tipping_points(state: PaxState, seat: int):
    """Tipping Points in the Market the player has a Syndication on."""
    for idea in state.market_ideas():
        if seat in state.synd.get(idea, ()) and state.idea(idea).kind == "tipping point":
            yield idea


def is_lowest(state: PaxState, idea: str) -> bool:
    where = state.where_in_market(idea)
    if where is None:
        return False
    low = lowest_card(state, where[0])
    return low is not None and low[1] == idea


def tycoon_progress(companies: int, settings) -> float:
    """Companies on the way to the fifth (the Tycoon): grows with the square, so
    the fourth Company is worth more than the first."""
    need = int(settings["tycoon_company"])
    return (min(companies, need) ** 2) / need


def syndication_outlook(state: PaxState, seat: int) -> tuple:
    """``(feasible, progress)`` of the player's Syndications: how many are feasible
    now, and how close the best one is to being commercialized (one point each for
    being feasible, for Maker labour in its sphere, and for the money: 0-3)."""
    count = best = 0
    for sphere in SPHERES:
        places = None
        for idea in state.market[sphere]:
            if idea is None or seat not in state.synd.get(idea, ()):
                continue
            ok = any(feasible(state, seat, idea, w) for w in WAYS)
            count += ok
            if places is None:
                places = labour_places(state, seat, sphere, "M")
            points = int(ok)
            if places:
                points += 1 + (1 if any(can_pay(state, seat, commercialize_cost(state, idea, k)) for k in places) else 0)
            best = max(best, points)
    return count, best
