"""What a paired comparison says about one metric, in a designer's words.

A look of :mod:`workbench.sim.progressive` decides each metric from its
interval: the interval excludes 0 (the new setting is *higher* or *lower*), or
lies inside the metric's equivalence margin ``[-m, m]`` (*no meaningful
change*), or neither (*cannot tell yet*). This module turns that into the
verdict a page prints:

* ``better`` / ``worse`` when the metric has a goal (higher is better, or lower
  is: the metric's own ``goal``, or the game's ``Game.metric_goals``);
  ``higher`` / ``lower`` for a metric without one (game length, a card's pick
  rate), so the direction is always named;
* ``no meaningful change``: only ever for an interval inside the margin, never
  for an interval that is merely wide ("no difference" is not a verdict);
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
VERDICTS = (BETTER, WORSE, HIGHER, LOWER, SAME, UNDECIDED)
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
    """The verdict for a decided direction (``higher``/``lower``) given the goal."""
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
#: often, how early (a dearer card is taken less or later)
EDITED_CARD_METRICS = ("card_times", "card_use", "card_first_round")


def leading_watch(game, cards=()) -> list[str]:
    """What a paired comparison of an edit watches: the game's leading metrics
    (``Game.leading_metrics``), then each edited card's metrics
    (:data:`EDITED_CARD_METRICS`), without repeats."""
    keys = list(getattr(game, "leading_metrics", None) or ("completion", "duration_rounds", "score_spread"))
    for card in cards:
        keys += [f"{m}:{card}" for m in EDITED_CARD_METRICS]
    return list(dict.fromkeys(keys))


def verdict_rows(update) -> list[dict]:
    """One look's rows in the shape ``workbench compare --json`` prints
    (DESIGN 3.1): metric, key, old, new, diff, low, high, margin, verdict,
    direction, games_needed and games per arm."""
    return [{"metric": r["metric"], "key": r["key"], "old": r["a"], "new": r["b"], "diff": r["diff"],
             "low": r["ci_low"], "high": r["ci_high"], "margin": r.get("margin"), "verdict": r["verdict"],
             "direction": r.get("direction"), "games_needed": r.get("games_needed"),
             "games": {"old": update.games, "new": update.games}} for r in update.rows]


def leading_first(metrics, game) -> list:
    """``metrics`` (objects with a ``key``) with the game's leading ones first,
    in the order the game declares them, the rest in their own order: the
    Sweeps tables and a comparison's rows lead with what decides the verdict."""
    lead = {k: i for i, k in enumerate(getattr(game, "leading_metrics", None) or ())}
    return sorted(metrics, key=lambda m: lead.get(m.key, len(lead)))
