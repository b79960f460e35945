"""Intervals that stay honest at small samples, for every number the workbench
prints with a range.

A percentile bootstrap of eight games that all ended the same way gives the
interval ``[1.00, 1.00]``: width 0, as if eight games proved the rate exactly.
These helpers choose an interval that widens as the sample shrinks, and refuse
to give one where the sample cannot support any:

- a **proportion** (a share of games: survival, timeouts, a seat's wins) gets
  the Wilson score interval (:func:`proportion`), which never has width 0 for a
  finite sample and stays inside [0, 1] (eight games out of eight: [0.68, 1.00]);
- a **mean** of a per-game value (rounds, score) gets Student's t interval
  (:func:`mean`), which widens with few games through the t quantile;
- any other metric (a gap between seats, a balance figure) is bootstrapped
  (:func:`from_resamples`);
- below :data:`MIN_GAMES` games, or where a sample under :data:`SMALL_SAMPLE`
  games shows no spread at all (so neither t nor a bootstrap can bound it), the
  answer is "too few games" (no interval) rather than a range of width 0.

:func:`metric_interval` picks the right one for a design metric of a batch
(:mod:`workbench.sim.metrics`). An :class:`Interval` says which method made it,
so a JSON reader and a page can both tell.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

#: fewest games for any interval at all
MIN_GAMES = 5
#: below this many games, an interval that shows no spread is not printed
SMALL_SAMPLE = 30
TOO_FEW = "too few games"


@dataclass(frozen=True)
class Interval:
    """``low``/``high`` (None when there is none), the games it rests on, the
    method (``wilson``, ``t``, ``bootstrap``, ``exact``) and, when there is no
    interval, why (``too few games ...``)."""

    low: float | None
    high: float | None
    n: int
    method: str
    note: str = ""

    @property
    def known(self) -> bool:
        return self.low is not None and self.high is not None

    def pair(self) -> tuple[float | None, float | None]:
        return self.low, self.high

    def to_dict(self) -> dict:
        return asdict(self)

    def text(self, digits: int = 2) -> str:
        """``[0.68, 1.00]``, or the reason there is none."""
        if not self.known:
            return f"({self.note or TOO_FEW})"
        return f"[{self.low:.{digits}f}, {self.high:.{digits}f}]"


def too_few(n: int, why: str = "") -> Interval:
    note = why or f"{TOO_FEW}: {n} of at least {MIN_GAMES}"
    return Interval(None, None, int(n), "none", note)


def _z(level: float) -> float:
    from scipy.stats import norm
    return float(norm.ppf(0.5 + level / 2))


def proportion(successes: float, n: int, level: float = 0.95) -> Interval:
    """Wilson score interval of ``successes`` out of ``n``."""
    n = int(n)
    if n < MIN_GAMES:
        return too_few(n)
    p = successes / n
    z = _z(level)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the bounds at 0 and n are exact; the formula's rounding would put them a hair inside
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Interval(low, high, n, "wilson")


def _clean(values) -> np.ndarray:
    arr = np.asarray([v for v in values if v is not None], dtype=float)
    return arr[~np.isnan(arr)]


def is_binary(values) -> bool:
    arr = _clean(values)
    return bool(len(arr)) and bool(np.all((arr == 0) | (arr == 1)))


def mean(values, level: float = 0.95) -> Interval:
    """Student's t interval of the mean of ``values`` (per-game values); a 0/1
    column is a proportion and gets :func:`proportion`."""
    arr = _clean(values)
    n = len(arr)
    if n < MIN_GAMES:
        return too_few(n)
    if is_binary(arr):
        return proportion(float(arr.sum()), n, level)
    sd = float(arr.std(ddof=1))
    if sd == 0.0:
        if n < SMALL_SAMPLE:
            return too_few(n, f"{TOO_FEW}: all {n} games gave {arr[0]:g}, no spread to bound")
        return Interval(float(arr[0]), float(arr[0]), n, "exact")
    from scipy.stats import t
    half = float(t.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    m = float(arr.mean())
    return Interval(m - half, m + half, n, "t")


def from_resamples(samples, n: int, level: float = 0.95) -> Interval:
    """Percentile interval of bootstrap ``samples`` of a statistic over ``n`` games."""
    if n < MIN_GAMES:
        return too_few(n)
    arr = _clean(samples)
    if len(arr) < 2:
        return too_few(n, f"{TOO_FEW}: the metric has no value in most resamples of {n} games")
    tail = (1 - level) / 2 * 100
    lo, hi = (float(q) for q in np.percentile(arr, [tail, 100 - tail]))
    if hi - lo <= 0.0 and n < SMALL_SAMPLE:
        return too_few(n, f"{TOO_FEW}: every resample of {n} games gave {lo:g}, no spread to bound")
    return Interval(lo, hi, n, "bootstrap")


def plain_column(data, key: str):
    """The per-game column whose mean the metric ``key`` is, or None (a metric
    computed otherwise: a gap, a per-seat dict)."""
    from workbench.sim.metrics import METRIC_BY_KEY, Metric, resolve_alias
    metric = METRIC_BY_KEY.get(resolve_alias(key))
    if metric is not None and metric.column and metric.column in data.cols and not metric.per \
            and type(metric).compute is Metric.compute:
        return data.cols[metric.column]
    return None


def interval_of(data, key: str, samples, level: float = 0.95) -> Interval:
    """The interval of metric ``key`` over ``data``, given bootstrap ``samples``
    of it already drawn: a plain column's mean gets :func:`mean` (Wilson for a
    share of games), anything else :func:`from_resamples`."""
    column = plain_column(data, key)
    if column is not None:
        return mean(column, level)
    return from_resamples(samples, int(data.n), level)


def metric_interval(data, key: str, *, resamples: int = 300, seed: int = 0, level: float = 0.95) -> Interval:
    """The interval of one design metric (a key or alias of
    :mod:`workbench.sim.metrics`, or one entry of a per-seat one) over a batch
    ``data`` (a ``MetricData``): Wilson for a share of games, t for the mean of a
    per-game value, a bootstrap otherwise."""
    from workbench.core.rng import derive_seed
    from workbench.sim.metrics import compute
    n = int(data.n)
    if n < MIN_GAMES:
        return too_few(n)
    column = plain_column(data, key)
    if column is not None:
        return mean(column, level)
    rng = np.random.default_rng(derive_seed(seed, "interval", key))
    samples = []
    for _ in range(resamples):
        v = compute(data.take(rng.integers(0, n, n)), key)
        if v is not None and not isinstance(v, dict):
            samples.append(v)
    return from_resamples(samples, n, level)
