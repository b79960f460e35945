"""What a paired comparison says about one metric, in a designer's words.

A look of :mod:`workbench.sim.progressive` decides each metric from its
interval of the paired difference and the metric's equivalence margin
``[-m, m]``. This module holds the words, and which numbers earn each:

* ``better`` / ``worse`` (a metric with a goal: the metric's own ``goal``, or
  the game's ``Game.metric_goals``), ``higher`` / ``lower`` (a metric without
  one: game length, a card's pick rate): only when the whole interval lies
  beyond the margin (``low > m`` or ``high < -m``; beyond 0 for a metric with
  no margin), so a direction word always names a change that matters;
* ``slightly higher (inside the margin)`` / ``slightly lower ...``: the
  interval excludes 0 but lies inside the margin: a change, decided, and
  smaller than what the margin calls worth a look;
* ``higher, size not yet clear`` / ``lower, ...``: the interval excludes 0 and
  straddles the margin: a change in that direction, decided, of a size the
  games cannot place yet;
* ``no meaningful change``: the interval lies inside the margin and holds 0;
  never for an interval that is merely wide ("no difference" is not a verdict),
  and never for identical pairs;
* ``the bots never chose differently``: every paired game gave the same value
  in both arms (nothing the bots did differed on this metric), so there is no
  spread to measure and no interval to judge;
* ``not measurable: ...``: a per-game metric with a value in both arms in
  fewer than two games (a card's first round when one pool never takes it),
  from 40 games on: no interval can be had, so it does not hold the run;
* ``cannot tell yet``, with the number of games per arm that would decide it
  at the spread seen so far (:func:`games_to_decide`).

Margins and goals come, in this order, from the caller (``--margin KEY=M``),
the game (``Game.equivalence_margins`` / ``Game.metric_goals``), the metric's
class (``Metric.margin`` / ``Metric.goal``), a card metric's
(:data:`workbench.sim.metrics.CARD_SERIES`).
"""

from __future__ import annotations

import math
from typing import Mapping

HIGHER, LOWER = "higher", "lower"
BETTER, WORSE = "better", "worse"
SAME, UNDECIDED = "no meaningful change", "cannot tell yet"
#: a decided change inside the margin, by direction
SLIGHT = {HIGHER: "slightly higher (inside the margin)", LOWER: "slightly lower (inside the margin)"}
#: a decided change whose interval straddles the margin, by direction
UNCLEAR_SIZE = {HIGHER: "higher, size not yet clear", LOWER: "lower, size not yet clear"}
IDENTICAL = "the bots never chose differently"
#: a per-game metric with a value in both arms in fewer than two games (a
#: card's first round when one pool never takes it): no interval, ever
UNMEASURED = "not measurable: fewer than 2 games have it in both pools"
#: the words that name a direction on their own: only for an interval beyond the margin
DIRECTION_WORDS = (BETTER, WORSE, HIGHER, LOWER)
VERDICTS = (BETTER, WORSE, HIGHER, LOWER, *SLIGHT.values(), *UNCLEAR_SIZE.values(), SAME, IDENTICAL, UNMEASURED,
            UNDECIDED)
#: what a preview on too few games to show an interval says instead of one
TOO_FEW = "too few games"


def _metric(key: str):
    from .metrics import CARD_SERIES, METRIC_BY_KEY, STAT, is_card_key
    if key.startswith(STAT):
        return None
    if is_card_key(key):
        return CARD_SERIES[key.partition(":")[0]]
    return METRIC_BY_KEY.get(key) or METRIC_BY_KEY.get(key.partition("_seat")[0])


def goal_of(key: str, game=None) -> int:
    """+1 (higher is better), -1 (lower is better) or 0 (no goal) for ``key``."""
    goals = getattr(game, "metric_goals", None) or {}
    if key in goals:
        return int(goals[key])
    metric = _metric(key)
    return int(getattr(metric, "goal", 0) or 0)


def margin_of(key: str, game=None, margins: Mapping[str, float] | None = None) -> float | None:
    """The equivalence margin of ``key`` (None: only a clear difference decides it)."""
    for source in (margins or {}, getattr(game, "equivalence_margins", None) or {}):
        if key in source:
            return source[key]
        head = key.partition(":")[0] if ":" in key else key.partition("_seat")[0]
        if head in source:
            return source[head]
    return getattr(_metric(key), "margin", None)


def name(direction: str, goal: int) -> str:
    """The verdict for a decided direction beyond the margin (``higher``/``lower``)
    given the goal; any other verdict is returned as it is."""
    if direction not in (HIGHER, LOWER) or not goal:
        return direction
    return BETTER if (direction == HIGHER) == (goal > 0) else WORSE


def games_to_decide(n: int, lo: float | None, hi: float | None, margin: float | None) -> int | None:
    """Games per arm that would decide a metric at the spread seen so far.

    The interval's half-width shrinks as ``1 / sqrt(n)``: with half-width ``h``
    around the difference ``d`` at ``n`` games, excluding 0 needs
    ``n * (h / |d|)^2`` games and fitting inside ``[-m, m]`` needs
    ``n * (h / (m - |d|))^2`` (when ``|d| < m``); the smaller is returned
    (rounded up), None when neither can happen (``d = 0`` and no margin). An
    estimate at the observed spread, not a promise: the spread itself moves."""
    if lo is None or hi is None or n < 1:
        return None
    d, h = abs((lo + hi) / 2), (hi - lo) / 2
    if h <= 0:
        return n
    options = []
    if d > 0:
        options.append(n * (h / d) ** 2)
    if margin is not None and d < margin:
        options.append(n * (h / (margin - d)) ** 2)
    return max(n + 1, math.ceil(round(min(options), 9))) if options else None


#: the card metrics a comparison adds for each edited card: is it taken, how
#: often, how early (a dearer card is taken less or later), and what its taker
#: gains over the other seats of the same game (a stronger card wins its taker
#: more, whether or not the bots take it differently)
EDITED_CARD_METRICS = ("card_times", "card_use", "card_first_round", "card_taker_win", "card_taker_score",
                       "card_taker_margin", "card_taker_soon")
#: what the take itself gave its taker: watched besides, for a game whose
#: takes can score at once (``Game.take_scores``)
TAKE_METRIC = "card_taker_take"
#: what taking the card would give the seat on turn wherever it is offered,
#: whoever takes it: watched with :data:`TAKE_METRIC` (a bot that passes a
#: weakened card where it bites leaves the takes where it costs nothing)
OFFER_METRIC = "card_taker_offer"
#: the taker metrics, read for "the card is dead"
TAKER_METRICS = ("card_taker_win", "card_taker_score", "card_taker_margin", "card_taker_soon", TAKE_METRIC,
                 OFFER_METRIC)


def leading_watch(game, cards=()) -> list[str]:
    """What a paired comparison of an edit watches: the game's leading metrics
    (``Game.leading_metrics``), then each edited card's metrics
    (:data:`EDITED_CARD_METRICS`), without repeats."""
    keys = list(getattr(game, "leading_metrics", None) or ("completion", "duration_rounds", "score_spread"))
    heads = EDITED_CARD_METRICS + ((TAKE_METRIC, OFFER_METRIC) if getattr(game, "take_scores", False) else ())
    for card in cards:
        keys += [f"{m}:{card}" for m in heads]
    return list(dict.fromkeys(keys))


def verdict_rows(update) -> list[dict]:
    """One look's rows in the shape ``workbench compare --json`` prints
    (docs/reference/json-output.md): metric, key, old, new (the means over the games paired in
    both arms), diff, low, high, margin, verdict, direction (``higher`` /
    ``lower`` for any decided change, inside the margin or not), size
    (``beyond margin``, ``inside margin``, ``unclear`` or None), identical
    (every pair equal), pairs (games with a value in both arms), paired
    (False for a taker metric read from each pool's own takers, when the pools
    take the card in different games: then old and new are each pool's
    takers' means and pairs the fewer games with a taker), games_needed and
    games per arm."""
    return [{"metric": r["metric"], "key": r["key"], "old": r["a"], "new": r["b"], "diff": r["diff"],
             "low": r["ci_low"], "high": r["ci_high"], "margin": r.get("margin"), "verdict": r["verdict"],
             "direction": r.get("direction"), "size": r.get("size"), "identical": bool(r.get("identical")),
             "pairs": r.get("pairs"), "paired": r.get("paired", True), "games_needed": r.get("games_needed"),
             "games": {"old": update.games, "new": update.games}} for r in update.rows]


def earned(row: dict) -> bool:
    """Whether a verdict row's words are earned by its numbers: a direction word
    only with an interval beyond the margin, "no meaningful change" never from
    identical pairs (a zero-width interval at 0). The test over ``compare
    --json`` and the planted-edit runs check every row with it."""
    v, lo, hi, m = row["verdict"], row.get("low"), row.get("high"), row.get("margin") or 0.0
    if v in DIRECTION_WORDS:
        return lo is not None and hi is not None and (lo > m or hi < -m)
    if v == SAME:
        return not row.get("identical") and lo is not None and not (lo == 0 == hi)
    return True


#: the part of a run's alpha the edited cards' taker metrics share when they
#: are watched: the question an edit of a card asks first ("is it stronger?")
#: is not diluted by the number of other metrics looked at (weighted
#: Bonferroni: the shares add up to 1, so the run's error stays at alpha)
TAKER_SHARE = 0.5


#: the weight of each taker metric within :data:`TAKER_SHARE`: the gain soon
#: after the take, the least noisy reading of what a card gives (docs/verdicts.md,
#: "Soon after the take"), weighs as much as the three final-score readings together
TAKER_WEIGHTS = {"card_taker_soon": 3.0, "card_taker_win": 1.0, "card_taker_score": 1.0, "card_taker_margin": 1.0,
                 # what the take itself gave: no later choice spreads it, so it is read as
                 # the soon gain is (where a game watches it, Game.take_scores)
                 TAKE_METRIC: 3.0,
                 # what a take would give where the card is offered: read in every game
                 # that offers it, whoever takes it, so as the take's own reading
                 OFFER_METRIC: 3.0}


def alpha_shares(watch) -> dict[str, float]:
    """Each watched key's share of the run's alpha (adding up to 1): the
    taker metrics share :data:`TAKER_SHARE` by :data:`TAKER_WEIGHTS`, the
    other keys the rest equally; without taker metrics every key gets ``1 / M``.
    The weights are fixed before any game is played, so the run's error stays
    at alpha (weighted Bonferroni)."""
    watch = list(dict.fromkeys(watch))
    takers = [k for k in watch if k.partition(":")[0] in TAKER_METRICS and ":" in k]
    rest = [k for k in watch if k not in takers]
    if not takers or not rest:
        return {k: 1 / len(watch) for k in watch}
    weight = {k: TAKER_WEIGHTS.get(k.partition(":")[0], 1.0) for k in takers}
    total = sum(weight.values())
    return {k: (TAKER_SHARE * weight[k] / total if k in takers else (1 - TAKER_SHARE) / len(rest)) for k in watch}


def card_notes(rows: list[dict], cards, renames: Mapping[str, str] | None = None) -> list[str]:
    """Plain sentences about each edited card (``cards``: names in the old pool)
    from a look's rows (the shape of :func:`verdict_rows`): *the card is dead*
    when no seat of the new pool takes it in a game where the old pool's did,
    or when its takers, who gained over the other seats before, gain nothing
    now (a taker metric decided lower, and the new pool's takers at or below
    the other seats)."""
    by_key = {r["key"]: r for r in rows}
    out = []
    for card in cards:
        shown = card if not renames or card not in renames else f"{card} (now {renames[card]})"
        use = by_key.get(f"card_use:{card}")
        if use and use.get("old") and use.get("new") == 0 and use.get("pairs"):
            out.append(f"{shown}: the card is dead: no seat takes it in the new pool "
                       f"(taken in {use['old']:.0%} of the same games before)")
            continue
        for head in TAKER_METRICS:
            r = by_key.get(f"{head}:{card}")
            if (r and r.get("direction") == LOWER and r.get("old") is not None and r["old"] > 0
                    and r.get("new") is not None and r["new"] <= 0):
                out.append(f"{shown}: the card is dead: its takers gain nothing over the other seats now "
                           f"({r['metric']} {r['old']:+.3g} -> {r['new']:+.3g})")
                break
    return out


def leading_first(metrics, game) -> list:
    """``metrics`` (objects with a ``key``) with the game's leading ones first,
    in the order the game declares them, the rest in their own order: the
    Sweeps tables and a comparison's rows lead with what decides the verdict."""
    lead = {k: i for i, k in enumerate(getattr(game, "leading_metrics", None) or ())}
    return sorted(metrics, key=lambda m: lead.get(m.key, len(lead)))
