"""Paired comparisons: two settings played on the same seeds.

Two batches that differ in one thing (a card pool, a variant, one seat's bot,
an option) but share the master seed play game ``i`` from the same shuffle,
so most of the chance noise cancels in the difference. For each metric the
comparison gives A, B, the difference B - A and a 95% confidence interval of
that difference from a paired bootstrap (the same resampled game indices in
both arms, percentile interval, seeded so reports are reproducible). It also
lists the games whose outcome flipped (winners or ending differ); each comes
with both configs, so it can be opened and stepped through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed

from . import SimResult, SimSpec, simulate
from .intervals import SMALL_SAMPLE
from .metrics import METRICS, compute_all, flat_labels, flatten


@dataclass
class Comparison:
    a: SimResult
    b: SimResult
    rows: list[dict]                 # metric (label), key, a, b, diff, ci_low, ci_high
    flipped: list[dict] = field(default_factory=list)
    #: key -> standard deviation of the bootstrap's resampled differences (the
    #: difference's standard error), None with fewer than two resamples
    se: dict = field(default_factory=dict)

    def table(self):
        """The rows as a polars table, labelled for people (the ``key`` column left out)."""
        import polars as pl
        rows = [{k: v for k, v in r.items() if k != "key"} for r in self.rows]
        return pl.DataFrame(rows, schema={"metric": pl.Utf8, "a": pl.Float64, "b": pl.Float64,
                                               "diff": pl.Float64, "ci_low": pl.Float64,
                                               "ci_high": pl.Float64})

    def to_dict(self) -> dict:
        return {"a": self.a.spec.to_dict(), "b": self.b.spec.to_dict(), "metrics": self.rows,
                "flipped": self.flipped}


def compare_results(a: SimResult, b: SimResult, *, resamples: int = 300, seed: int = 0,
                    level: float = 0.95, keys: list[str] | None = None,
                    with_flipped: bool = True) -> Comparison:
    """Compare two batches played on the same seeds (same master seed and count).

    ``level`` is the interval's coverage (0.95: the 2.5% and 97.5% percentiles);
    ``keys`` limits the rows to these metric keys (flattened, e.g.
    ``seat_advantage_seat1``; the bootstrap then skips the others);
    ``with_flipped=False`` leaves the flipped games out (a quick interim look)."""
    if a.games.height != b.games.height or a.games["seed"].to_list() != b.games["seed"].to_list():
        raise WorkbenchError("paired comparison needs both batches on the same seeds "
                             "(same --seed and --games)")
    da, db = a.metric_data(), b.metric_data()
    n = da.n
    rng = np.random.default_rng(derive_seed(seed, "bootstrap"))
    samples = [rng.integers(0, n, n) for _ in range(resamples)] if n > 1 else []
    raw_a = compute_all(da)
    va, vb = flatten(raw_a), flatten(compute_all(db))
    labels = flat_labels(raw_a)
    if keys is not None:
        wanted = set(keys)
        va = {k: v for k, v in va.items() if k in wanted}
    diffs: dict[str, list[float]] = {k: [] for k in va}
    # a metric that is the mean of one per-game column is resampled in one
    # vectorised step (over the games where both arms have a value: drama and
    # decisiveness exist only in games with a winner); the others are
    # recomputed on each resample
    def watched(m) -> bool:
        return keys is None or any(k == m.key or k.startswith(f"{m.key}_") for k in va)

    # (a column the game does not report, such as a shared track, has no rows)
    by_column = [m for m in METRICS if m.column and watched(m) and m.column in da.cols and m.column in db.cols]
    others = [m for m in METRICS if not m.column and watched(m)]
    if samples:
        matrix = np.stack(samples)
        for m in by_column:
            x, y = da.cols[m.column][matrix], db.cols[m.column][matrix]
            both = ~(np.isnan(x) | np.isnan(y))
            with np.errstate(invalid="ignore"):
                mx = np.where(both, x, 0).sum(axis=1) / both.sum(axis=1)
                my = np.where(both, y, 0).sum(axis=1) / both.sum(axis=1)
            diffs[m.key] = [float(v) for v in (my - mx) if not np.isnan(v)]
    # (skipped when every metric asked for was resampled above: taking the
    # resampled tables costs more than all the rest of a look)
    for idx in samples if others else ():
        ta, tb = da.take(idx), db.take(idx)
        ra = flatten({m.key: m.compute(ta) for m in others})
        rb = flatten({m.key: m.compute(tb) for m in others})
        for k, x in ra.items():
            y = rb.get(k)
            if k in diffs and x is not None and y is not None:
                diffs[k].append(y - x)
    se = {k: (float(np.std(v, ddof=1)) if len(v) > 1 else None) for k, v in diffs.items()}
    rows = []
    # the game's leading metrics first (Game.leading_metrics), as the Sweeps page shows them
    from .runner import resolve_game
    try:
        lead = tuple(getattr(resolve_game(a.spec.game), "leading_metrics", ()) or ())
    except WorkbenchError:
        lead = ()
    rank = {key: i for i, key in enumerate(lead)}
    va = dict(sorted(va.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    for k, x in va.items():
        label = labels[k]
        y = vb.get(k)
        lo = hi = None
        if diffs[k]:
            tail = (1 - level) / 2 * 100
            lo, hi = (float(q) for q in np.percentile(diffs[k], [tail, 100 - tail]))
            if hi - lo <= 0.0 and n < SMALL_SAMPLE:
                lo = hi = None   # every resample alike on too few games: no interval of width 0
        rows.append({"metric": label, "key": k, "a": x, "b": y,
                     "diff": (y - x) if x is not None and y is not None else None,
                     "ci_low": lo, "ci_high": hi})
    return Comparison(a, b, rows, flipped_games(a, b) if with_flipped else [], se)


def flipped_games(a: SimResult, b: SimResult) -> list[dict]:
    """Games whose winners or ending differ between the two batches."""
    out = []
    ga = a.games.select("index", "seed", "winners", "ending").rows()
    gb = b.games.select("index", "seed", "winners", "ending").rows()
    for (index, seed, wa, ea), (_, _, wb, eb) in zip(ga, gb):
        if wa != wb or ea != eb:
            out.append({"index": index, "seed": seed,
                        "a": {"winners": wa.split(",") if wa else [], "ending": ea},
                        "b": {"winners": wb.split(",") if wb else [], "ending": eb},
                        "config_a": a.game_config(index).to_dict(), "bots_a": a.spec.bots,
                        "config_b": b.game_config(index).to_dict(), "bots_b": b.spec.bots})
    return out


def compare(spec_a: SimSpec, spec_b: SimSpec, **run) -> Comparison:
    """Play both settings on the same seeds and compare them (``run`` goes to
    :func:`workbench.sim.simulate`, e.g. ``workers=2``)."""
    if spec_a.seed != spec_b.seed or spec_a.games != spec_b.games:
        raise WorkbenchError("paired comparison needs the same seed and number of games in both arms")
    return compare_results(simulate(spec_a, **run), simulate(spec_b, **run))
