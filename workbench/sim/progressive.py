"""A paired playtest that answers as the games come in, and stops once it knows.

Two settings (arms A and B) play the same games: game ``i`` has the same seed
in both arms, and both arms play the games in the same order, in small chunks
interleaved A, B, A, B across the workers. The comparison is looked at every
``look_every`` games: at ``n = look_every, 2 look_every, ...`` up to the budget,
always on the *first n games of both arms* (a look waits for the whole prefix,
never uses whichever games happened to finish first, since short games finish
first and would bias it). Each look reports, for every watched metric, A, B,
the paired difference B - A and a paired-bootstrap interval of it.

Error control (see docs/playtesting.md, "Progressive paired playtest"): there
are at most ``K = ceil(budget / look_every)`` looks, fixed before the run, and
every interval is computed at level ``1 - alpha / K`` (Bonferroni over the
looks), so for each metric the chance that *any* look shows an interval
excluding a true difference is at most ``alpha``. A metric is *decided* when
its interval excludes 0 (B is higher or lower) or lies inside the stated
indifference margin ``[-m, m]`` (no difference that matters; allowed only from
``min_equivalence`` games on, because a bootstrap over a few identical pairs
is degenerate). The run stops at the first look where every watched metric is
decided, or when the budget is spent.

>>> from workbench.sim import SimSpec
>>> from workbench.sim.progressive import paired_playtest
>>> a = SimSpec("meaning-made", games=200, players=4, bots="greedy", trace=False)
>>> for update in paired_playtest(a, a.with_(variants=("some-switch",))):
...     print(update.games, update.decided, update.table())
"""

from __future__ import annotations

import math
import time
from contextlib import closing
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed

from . import SimResult, SimSpec
from .backends import default_workers, iter_tasks, resolve_backend
from .tables import join_chunks

#: a watched key of this form compares the share of games in which the card was taken
CARD_USE = "card_use:"

#: indifference margins used when the caller states none (our draft: a
#: difference smaller than this is not worth a designer's attention)
DEFAULT_MARGINS = {"completion": 0.05, "no_winner": 0.05, "timeout": 0.05, "balance": 0.05,
                   "duration_rounds": 0.5, "duration_actions": 5.0, "score_spread": 1.0,
                   "decisiveness": 0.05, "lead_change": 0.05, "drama": 0.05}
CARD_USE_MARGIN = 0.05
DEFAULT_WATCH = ("completion", "duration_rounds", "score_spread")

HIGHER, LOWER, SAME, UNDECIDED = "B higher", "B lower", "no difference (within margin)", "undecided"


@dataclass
class PairedUpdate:
    """One look at a progressive paired playtest."""

    games: int                 # games per arm in this look (the first ``games`` indices)
    budget: int                # games per arm at most
    look: int                  # 1, 2, ... (at most ``looks``)
    looks: int
    level: float               # coverage of each interval (Bonferroni over the looks)
    rows: list[dict]           # metric, key, a, b, diff, ci_low, ci_high, margin, verdict
    decided: bool              # every watched metric decided at this look
    done: bool                 # the last update of the run (decided, or budget spent)
    elapsed: float             # seconds since the run started
    a: SimResult = field(repr=False)
    b: SimResult = field(repr=False)
    flipped: list[dict] = field(default_factory=list, repr=False)  # only on the last update

    @property
    def stopped_early(self) -> bool:
        return self.done and self.games < self.budget

    def table(self):
        import polars as pl
        return pl.DataFrame([{k: r[k] for k in ("metric", "a", "b", "diff", "ci_low", "ci_high", "margin",
                                                 "verdict")} for r in self.rows],
                            schema={"metric": pl.Utf8, "a": pl.Float64, "b": pl.Float64, "diff": pl.Float64,
                                    "ci_low": pl.Float64, "ci_high": pl.Float64, "margin": pl.Float64,
                                    "verdict": pl.Utf8})

    def to_dict(self) -> dict:
        return {"games": self.games, "budget": self.budget, "look": self.look, "looks": self.looks,
                "level": self.level, "decided": self.decided, "done": self.done,
                "stopped_early": self.stopped_early, "elapsed": round(self.elapsed, 3),
                "metrics": self.rows, "flipped": len(self.flipped)}


def verdict(lo: float | None, hi: float | None, margin: float | None, equivalence_allowed: bool) -> str:
    """The stopping rule for one metric (see the module docstring)."""
    if lo is None or hi is None:
        return UNDECIDED
    if lo > 0:
        return HIGHER
    if hi < 0:
        return LOWER
    if margin is not None and equivalence_allowed and -margin <= lo and hi <= margin:
        return SAME
    return UNDECIDED


def card_use(result: SimResult, card: str) -> np.ndarray:
    """1.0 for each game (in index order) in which ``card`` was taken, else 0.0."""
    import polars as pl
    n = result.games.height
    out = np.zeros(n)
    cards = result.cards
    if cards.height and "card" in cards.columns:
        taken = cards.filter((pl.col("card") == card) & (pl.col("times_taken") > 0))["index"].to_numpy()
        first = int(result.games["index"][0]) if n else 0
        out[taken - first] = 1.0
    return out


def paired_mean_interval(x: np.ndarray, y: np.ndarray, *, level: float, resamples: int,
                         rng: np.random.Generator) -> tuple[float | None, float | None]:
    """Percentile interval of mean(y - x) from a paired bootstrap (the same
    resampled games in both arms)."""
    d = y - x
    if len(d) < 2:
        return (None, None)
    means = d[rng.integers(0, len(d), (resamples, len(d)))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def _check_pair(spec_a: SimSpec, spec_b: SimSpec) -> None:
    if spec_a.seed != spec_b.seed or spec_a.games != spec_b.games:
        raise WorkbenchError("paired comparison needs the same seed and number of games in both arms")
    if spec_a.games < 1:
        raise WorkbenchError("a paired playtest needs at least one game per arm")


def _validate(spec: SimSpec) -> None:
    """Fail in this process, before any worker starts, on a bad game, seat count or bot."""
    from workbench.core.bots import make_bots
    from .runner import game_config, resolve_game
    game = resolve_game(spec.game)
    first = game_config(spec, 0)
    game.new_initial_state(first)
    make_bots(spec.bots, len(first.players))


def paired_playtest(spec_a: SimSpec, spec_b: SimSpec, *, watch=DEFAULT_WATCH, margins: dict | None = None,
                    alpha: float = 0.05, look_every: int = 20, min_equivalence: int = 40,
                    stop_early: bool = True, workers: int | None = None, backend: str | None = None,
                    resamples: int = 2000, seed: int = 0,
                    on_update: Callable[[PairedUpdate], None] | None = None) -> Iterator[PairedUpdate]:
    """Play both arms (``spec.games`` each, the budget) and yield a
    :class:`PairedUpdate` at every look; the last one has ``done`` set.

    ``watch``: metric keys of :mod:`workbench.sim.metrics` (flattened, e.g.
    ``seat_advantage_seat1``) or ``card_use:NAME``. ``margins``: indifference
    margin per key (defaults in :data:`DEFAULT_MARGINS`; ``None`` for a key
    means only a clear difference decides it). ``on_update`` is called with each
    update too (for a page that listens rather than iterates). Breaking out of
    the loop stops the workers at once."""
    _check_pair(spec_a, spec_b)
    if look_every < 1:
        raise WorkbenchError("look_every must be at least 1")
    if not 0 < alpha < 1:
        raise WorkbenchError("alpha must be between 0 and 1")
    watch = list(watch)
    if not watch:
        raise WorkbenchError("watch at least one metric")
    from .metrics import METRIC_BY_KEY
    for key in watch:
        base = key.partition("_seat")[0]
        if not key.startswith(CARD_USE) and key not in METRIC_BY_KEY and base not in METRIC_BY_KEY:
            from workbench.core.errors import suggest
            raise WorkbenchError(f"unknown metric {key!r}{suggest(key, list(METRIC_BY_KEY))}")
    margin_of = dict(DEFAULT_MARGINS)
    margin_of.update({k: CARD_USE_MARGIN for k in watch if k.startswith(CARD_USE)})
    margin_of.update(margins or {})
    for spec in (spec_a, spec_b):
        _validate(spec)
    return _run(spec_a, spec_b, watch, margin_of, alpha, look_every, min_equivalence, stop_early,
                workers, backend, resamples, seed, on_update)


def _run(spec_a, spec_b, watch, margin_of, alpha, look_every, min_equivalence, stop_early,
         workers, backend, resamples, seed, on_update) -> Iterator[PairedUpdate]:
    start = time.perf_counter()
    budget = spec_a.games
    looks = math.ceil(budget / look_every)
    level = 1 - alpha / looks
    backend = resolve_backend(backend, workers, None, 2 * budget)
    if backend == "dask":
        raise WorkbenchError("the progressive playtest runs in this process or a process pool, not on Dask")
    # chunks never straddle a look point, so every look is a whole number of chunks
    size = max(1, min(look_every, 10))
    parts = []
    for k in range(looks):
        lo, hi = k * look_every, min(budget, (k + 1) * look_every)
        parts += [list(range(s, min(s + size, hi))) for s in range(lo, hi, size)]
    da, db = spec_a.to_dict(), spec_b.to_dict()
    tasks = [t for part in parts for t in ((da, part), (db, part))]  # A, B interleaved, same order
    got: dict[int, object] = {}
    prefix = 0          # chunks finished in both arms, from the first
    look = 0
    stream = iter_tasks(tasks, backend=backend, workers=workers or default_workers())
    with closing(stream):
        for t, chunk in stream:
            got[t] = chunk
            while 2 * prefix + 1 in got and 2 * prefix in got:
                prefix += 1
            n = parts[prefix - 1][-1] + 1 if prefix else 0
            reached = n // look_every if n < budget else looks
            # every look point the prefix has passed, in order (several at
            # once when chunks arrive together), each on exactly its games
            while look < reached:
                look += 1
                upto_games = min(budget, look * look_every)
                upto = sum(1 for part in parts if part[-1] < upto_games)
                last = upto_games >= budget
                a = _result(spec_a, [got[2 * c] for c in range(upto)])
                b = _result(spec_b, [got[2 * c + 1] for c in range(upto)])
                update = _look(a, b, watch, margin_of, level, look, looks, budget, upto_games, min_equivalence,
                               resamples, seed, start, last)
                if stop_early and update.decided and not last:
                    update.done = True
                if update.done:
                    from .compare import flipped_games
                    update.flipped = flipped_games(a, b)
                if on_update:
                    on_update(update)
                yield update
                if update.done:
                    return


def _result(spec: SimSpec, chunks: list) -> SimResult:
    games, players, cards = join_chunks(chunks)
    from .runner import resolve_game
    ideal = getattr(resolve_game(spec.game), "ideal_rounds", None)
    return SimResult(spec.with_(games=games.height), games, players, cards,
                     ideal_rounds=tuple(ideal) if ideal else None)


def _look(a: SimResult, b: SimResult, watch, margin_of, level, look, looks, budget, n, min_equivalence,
          resamples, seed, start, last) -> PairedUpdate:
    from .compare import compare_results
    rng = np.random.default_rng(derive_seed(seed, "progressive", look))
    metric_keys = [k for k in watch if not k.startswith(CARD_USE)]
    rows_by_key = {}
    if metric_keys:
        comp = compare_results(a, b, resamples=resamples, seed=derive_seed(seed, "look", look), level=level,
                               keys=metric_keys, with_flipped=False)
        rows_by_key = {r["key"]: r for r in comp.rows}
    rows = []
    for key in watch:
        if key.startswith(CARD_USE):
            card = key[len(CARD_USE):]
            x, y = card_use(a, card), card_use(b, card)
            lo, hi = paired_mean_interval(x, y, level=level, resamples=resamples, rng=rng)
            row = {"metric": f"games taking {card}", "key": key, "a": float(x.mean()), "b": float(y.mean()),
                   "diff": float((y - x).mean()), "ci_low": lo, "ci_high": hi}
        else:
            row = dict(rows_by_key.get(key) or {"metric": key, "key": key, "a": None, "b": None, "diff": None,
                                                "ci_low": None, "ci_high": None})
        base = key.partition("_seat")[0]
        margin = margin_of.get(key, margin_of.get(base))
        row["margin"] = margin
        row["verdict"] = verdict(row["ci_low"], row["ci_high"], margin, n >= min_equivalence)
        rows.append(row)
    decided = all(r["verdict"] != UNDECIDED for r in rows)
    return PairedUpdate(n, budget, look, looks, level, rows, decided, last, time.perf_counter() - start, a, b)
