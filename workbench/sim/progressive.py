"""A paired playtest that answers as the games come in, and stops once it knows.

Two settings (arms A and B) play the same games: game ``i`` has the same seed
in both arms, and both arms play the games in the same order, in small chunks
interleaved A, B, A, B across the workers. Every update is computed on the
*first n games of both arms* (it waits for the whole prefix, never uses
whichever games happened to finish first, since short games finish first and
would bias it) and reports, for every watched metric, A, B, the paired
difference B - A and a paired-bootstrap interval of it.

Two kinds of update:

* *Looks*, on a schedule of game counts ``n_1 < ... < n_K = budget`` fixed
  before the run (:func:`look_schedule`): ``first_look`` games (20), then
  doubling in steps of at most ``max_step`` (40), the budget last; 200 games
  look at 20, 40, 80, 120, 160, 200. ``look_every=`` gives a fixed grid
  instead. Only looks decide, and only looks stop the run.
* *Previews*, by the clock: ``first_preview`` seconds after the start (0.5 s)
  and then every ``preview_every`` seconds (1 s) between the looks, on the
  games in by then (at least 2 per arm). A preview shows the estimate and a
  plain ``1 - alpha`` interval for orientation, always says 'undecided', and
  spends no alpha; so the first answer is on screen within about a second and
  a half whatever a game costs (two games' time on a slow game), and the
  clock deciding *when* previews come, which depends on how long games take,
  cannot bias a decision.

Error control (see docs/playtesting.md, "Progressive paired playtest"): the
run's ``alpha`` is first shared among the ``M`` watched metrics (weighted
Bonferroni, :func:`workbench.sim.verdicts.alpha_shares`: an edited card's
four taker metrics share half of it, the other metrics the other half
equally; without taker metrics each gets ``alpha / M``), then each metric's
share ``a`` among its looks by an alpha-spending schedule with the power
spending function ``a(t) = a * t^2`` (:data:`SPENDING_RHO`; ``t = n / budget``,
the share of the budget played; Kim and DeMets' power family). Look k spends
``a_k = a * (t_k^2 - t_{k-1}^2)`` (the first look that may decide spends
``a * t_k^2``; looks before the floors below spend nothing) and its
intervals claim coverage ``1 - a_k``; the shares add up to ``alpha``, so by
the union bound the chance that *any* look of *any* watched metric shows an
interval excluding the true difference is at most ``alpha``, whatever the
correlation between looks and metrics.

The intervals: a metric that is the mean of a per-game quantity (every
leading metric but a seat or faction gap, and every card metric) gets
Student's t interval of the mean paired difference over the games with a
value in both arms (:func:`paired_t_interval`; the games are independent, and
a t interval holds in the far tails a corrected look reads, where a
bootstrap's percentiles run out of resamples); a metric of the whole batch
gets its difference plus or minus the t quantile times the paired bootstrap's
standard error. The old and new values shown are the means over the same
paired games as the difference. A metric on which every paired game is equal
in both arms has no spread: it is reported as *the bots never chose
differently*, never as an equivalence.

A metric is *decided* when its interval excludes 0 (B is higher or lower) or
lies inside the stated indifference margin ``[-m, m]`` (no difference that
matters). Floors: a difference is called only from ``min_difference`` games
(20) on, and never before ``1 + log2(1 / alpha_k)`` games
(:func:`difference_floor`: n pairs all differing the same way, which a
bootstrap interval always calls a difference, have probability ``2^(1-n)``
under a symmetric null); an equivalence only from ``min_equivalence`` games
(40) on, because a bootstrap over a few identical pairs is degenerate. The run
stops at the first look where every watched metric is decided, or when the
budget is spent.

Prefix rule: an update at ``n`` games uses the first ``n`` games of both arms
and a bootstrap seeded by ``(seed, n)``; the tables are the same whatever the
schedule, the previews' timing, the backend, the worker count or the chunks,
and so is the interval at the same level.

>>> from workbench.sim import SimSpec
>>> from workbench.sim.progressive import paired_playtest
>>> a = SimSpec("my-game", games=200, players=4, bots="greedy", trace=False)
>>> for update in paired_playtest(a, a.with_(variants=("some-switch",))):
...     print(update.games, update.preview, update.decided, update.table())
"""

from __future__ import annotations

import math
import time
from contextlib import closing
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed

from . import SimResult, SimSpec
from .backends import MAX_CHUNK, default_workers, iter_tasks, resolve_backend
from .metrics import CARD_SERIES, METRICS, is_series_key, series, series_label
from .tables import concat_frames
from .verdicts import (HIGHER, IDENTICAL, LOWER, SAME, SLIGHT, UNCLEAR_SIZE, UNDECIDED, UNMEASURED, alpha_shares,
                       TAKER_METRICS, games_to_decide, goal_of)
from .verdicts import margin_of as _margin_of
from .verdicts import name as _verdict_name

#: a watched key of this form compares the share of games in which the card was taken
#: (one of the card metrics, ``card_times:NAME`` and the others of
#: :data:`workbench.sim.metrics.CARD_SERIES`)
CARD_USE = "card_use:"

#: indifference margins of the metrics that declare one (``Metric.margin``, our
#: drafts: a difference smaller than this is not worth a designer's attention);
#: a game's ``equivalence_margins`` and the caller's ``margins`` come first
DEFAULT_MARGINS = {m.key: m.margin for m in METRICS if m.margin is not None}
CARD_USE_MARGIN = CARD_SERIES["card_use"].margin
DEFAULT_WATCH = ("completion", "duration_rounds", "score_spread")

#: the spending function's power in a run (``alpha * t^2``): the early looks
#: spend little (a change they call must be large), the budget's last looks
#: most, so a change of the size a designer asks about is not lost to the
#: early looks' share (linear spending left the last look of 200 games a fifth
#: of alpha, quadratic leaves it 0.36)
SPENDING_RHO = 2.0
#: the first scheduled look and the largest step between two (games per arm)
FIRST_LOOK, MAX_STEP = 20, 40
#: seconds after the start when the first preview is shown, and between two
#: updates: half a second to the first, so a designer sees the first numbers
#: within the second issue 30 asks for, whatever the game's pace (a preview
#: decides nothing, so its timing cannot bias a verdict)
FIRST_PREVIEW, PREVIEW_EVERY = 0.5, 1.0
#: games per chunk: one at a time at first (a preview or a look never waits
#: for games beyond its own), growing to 10 (sending a chunk costs nothing then)
CHUNK_GROWTH, MAX_CHUNK_GAMES = 10, 10


def look_schedule(budget: int, first: int, *, max_step: int = MAX_STEP) -> list[int]:
    """Games per arm at each look: ``first``, then doubling with steps of at
    most ``max_step``, the budget last."""
    if budget < 1 or first < 1 or max_step < 1:
        raise WorkbenchError("a look schedule needs a budget, a first look and a step of at least 1")
    sizes, n = [], min(first, budget)
    while n < budget:
        sizes.append(n)
        n += min(n, max_step)
    return sizes + [budget]


def grid_schedule(budget: int, look_every: int) -> list[int]:
    """A look every ``look_every`` games per arm, and at the budget."""
    return [min(budget, k * look_every) for k in range(1, math.ceil(budget / look_every) + 1)]


def spending(schedule: Sequence[int], alpha: float, *, start: int = 0, rho: float = 1.0) -> list[float]:
    """The alpha each look spends under the power spending function
    ``alpha(t) = alpha * t^rho`` (Kim and DeMets; ``rho = 1`` linear, the
    default here; a run uses :data:`SPENDING_RHO`):
    ``alpha * ((n_k / budget)^rho - (n_{k-1} / budget)^rho)``, where looks
    before ``start`` games (previews, which decide nothing) spend nothing and
    the first look from ``start`` on spends ``alpha * (n_k / budget)^rho``.
    They add up to at most ``alpha`` (the union bound over the looks)."""
    budget, out, prev = schedule[-1], [], 0
    for n in schedule:
        if n < start:
            out.append(0.0)
            continue
        out.append(alpha * ((n / budget) ** rho - (prev / budget) ** rho))
        prev = n
    return out


def difference_floor(alpha_k: float) -> int:
    """The fewest games per arm at which a look spending ``alpha_k`` may call a
    difference: ``n`` pairs all differing the same way have probability
    ``2^(1-n)`` under a symmetric null, and a bootstrap interval always calls
    them a difference, so ``2^(1-n) <= alpha_k`` is needed."""
    return math.ceil(1 + math.log2(1 / alpha_k) - 1e-9)


def expanded_level(level: float, n: int) -> float:
    """The percentile level that gives a bootstrap interval of ``n`` paired games
    the coverage ``level``: Hesterberg's expanded percentile interval, which
    widens the interval by ``sqrt(n / (n - 1))`` times Student's t quantile over
    the normal one (the plain percentile interval covers less than it says on
    few games, the more so the higher the level)."""
    if n < 2:
        return level
    from scipy.special import ndtr, stdtrit  # imported only for a look that may decide
    q = math.sqrt(n / (n - 1)) * float(stdtrit(n - 1, 1 - (1 - level) / 2))
    return float(2 * ndtr(q) - 1)


def chunk_plan(schedule: Sequence[int]) -> list[list[int]]:
    """Game indices in chunks that never straddle a scheduled look: one game
    each for the first 10, then a game more for every 10 games in, at most
    :data:`MAX_CHUNK_GAMES`. Chunking changes no result (every look is a
    prefix of the games); small early chunks let previews and the first looks
    come as soon as their games are in."""
    parts: list[list[int]] = []
    for lo, hi in zip([0, *schedule[:-1]], schedule):
        i = lo
        while i < hi:
            size = max(1, min(MAX_CHUNK_GAMES, MAX_CHUNK, i // CHUNK_GROWTH + 1, hi - i))
            parts.append(list(range(i, i + size)))
            i += size
    return parts


@dataclass
class PairedUpdate:
    """One look at a progressive paired playtest."""

    games: int                 # games per arm in this look (the first ``games`` indices)
    budget: int                # games per arm at most
    look: int                  # 1, 2, ... (at most ``looks``); a preview: the looks passed
    looks: int
    level: float               # coverage of each interval: 1 - the alpha this look spends (a preview: 1 - alpha)
    rows: list[dict]           # metric, key, a, b, diff, ci_low, ci_high, margin, verdict
    decided: bool              # every watched metric decided at this look
    done: bool                 # the last update of the run (decided, or budget spent)
    elapsed: float             # seconds since the run started
    a: SimResult = field(repr=False)
    b: SimResult = field(repr=False)
    flipped: list[dict] = field(default_factory=list, repr=False)  # only on the last update
    schedule: list[int] = field(default_factory=list)  # games per arm at every look of the run
    difference_from: int = 0   # games per arm from which this look's level may call a difference
    preview: bool = False      # not a scheduled look: the games in so far, deciding nothing
    bootstrap_level: float = 0.0  # the percentile level the intervals were read at (expanded_level)

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
                "level": self.level, "preview": self.preview, "decided": self.decided, "done": self.done,
                "stopped_early": self.stopped_early, "elapsed": round(self.elapsed, 3),
                "schedule": list(self.schedule), "difference_from": self.difference_from,
                "metrics": self.rows, "flipped": len(self.flipped)}


def verdict(lo: float | None, hi: float | None, margin: float | None, equivalence_allowed: bool,
            difference_allowed: bool = True) -> str:
    """The stopping rule for one metric (see the module docstring): ``higher``
    / ``lower`` for an interval beyond the margin (beyond 0 without one), the
    slight and size-unclear words of :mod:`workbench.sim.verdicts` for one that
    excludes 0 inside or across the margin, ``no meaningful change`` for one
    inside the margin that holds 0, else ``cannot tell yet``."""
    if lo is None or hi is None:
        return UNDECIDED
    if difference_allowed and (lo > 0 or hi < 0):
        direction = HIGHER if lo > 0 else LOWER
        if margin is None:
            return direction
        near, far = (lo, hi) if direction == HIGHER else (-hi, -lo)
        if near > margin:
            return direction
        return SLIGHT[direction] if far <= margin else UNCLEAR_SIZE[direction]
    if margin is not None and equivalence_allowed and -margin <= lo and hi <= margin:
        return SAME
    return UNDECIDED


def direction_of(word: str) -> str | None:
    """``higher`` / ``lower`` for any verdict that decided a change, else None."""
    for direction in (HIGHER, LOWER):
        if word in (direction, SLIGHT[direction], UNCLEAR_SIZE[direction]):
            return direction
    return None


def size_of(word: str) -> str | None:
    if word in (HIGHER, LOWER):
        return "beyond margin"
    if word in SLIGHT.values():
        return "inside margin"
    if word in UNCLEAR_SIZE.values():
        return "unclear"
    return None


def card_use(result: SimResult, card: str) -> np.ndarray:
    """1.0 for each game (in index order) in which ``card`` was taken, else 0.0
    (the ``card_use`` series of :mod:`workbench.sim.metrics`)."""
    return series(result, f"{CARD_USE}{card}")


def paired_mean_interval(x: np.ndarray, y: np.ndarray, *, level: float, resamples: int,
                         rng: np.random.Generator) -> tuple[float | None, float | None]:
    """Percentile interval of mean(y - x) from a paired bootstrap (the same
    resampled games in both arms), over the games where both arms have a value."""
    d = y - x
    d = d[~np.isnan(d)]
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
    """Fail in this process, before any worker starts, on a bad game, seat count
    or bot. Then, unless every seat plays at random, value the first decision's
    moves as a greedy bot does: tables a game builds once per process for its
    evaluation (e.g. the odds of a push-your-luck deck, 0.19 s) are then built
    here, once, and every worker forked afterwards starts with them."""
    from workbench.core.bots import make_bots
    from .runner import game_config, resolve_game
    game = resolve_game(spec.game)
    first = game_config(spec, 0)
    state = game.new_initial_state(first)
    make_bots(spec.bots, len(first.players))
    if spec.bots != "random" and not state.is_terminal():
        seat = state.current_player()
        if seat is not None and seat >= 0:
            game.action_values(state, seat, state.legal_actions())


def paired_playtest(spec_a: SimSpec, spec_b: SimSpec, *, watch=DEFAULT_WATCH, margins: dict | None = None,
                    alpha: float = 0.05, first_look: int = FIRST_LOOK, look_every: int | None = None,
                    max_step: int = MAX_STEP, first_preview: float | None = FIRST_PREVIEW,
                    preview_every: float | None = PREVIEW_EVERY, min_difference: int = 20,
                    min_equivalence: int = 40, stop_early: bool = True, workers: int | None = None,
                    backend: str | None = None, resamples: int = 2000, seed: int = 0,
                    on_update: Callable[[PairedUpdate], None] | None = None,
                    renames: dict[str, str] | None = None) -> Iterator[PairedUpdate]:
    """Play both arms (``spec.games`` each, the budget) and yield a
    :class:`PairedUpdate` at every look and preview; the last one has ``done`` set.

    ``watch``: metric keys of :mod:`workbench.sim.metrics` (flattened, e.g.
    ``seat_advantage_seat1``) or ``card_use:NAME``. ``margins``: indifference
    margin per key (defaults in :data:`DEFAULT_MARGINS`; ``None`` for a key
    means only a clear difference decides it). The looks: ``look_every`` (a
    fixed grid), else ``first_look`` games then doubling in steps of at most
    ``max_step``. Previews: the games in so far, ``first_preview`` seconds after
    the start (``None``: none) and then every ``preview_every`` seconds
    (``None``: only the first).
    ``on_update`` is called with each update too (for a page that listens
    rather than iterates). ``renames``: a card's name in arm A -> its name in
    arm B, for a card renamed by the edit (its card metrics are watched under
    the old name and read under the new one in arm B). Breaking out of the
    loop stops the workers at once.

    ``alpha`` is the error level of the whole run: it is shared among the
    watched metrics (:func:`workbench.sim.verdicts.alpha_shares`), then among
    the looks by the spending function, so the chance that any look of any
    watched metric calls a difference that is not there is at most ``alpha``."""
    start = time.perf_counter()
    _check_pair(spec_a, spec_b)
    if look_every is not None and look_every < 1:
        raise WorkbenchError("look_every must be at least 1")
    if not isinstance(first_look, int) or first_look < 1:
        raise WorkbenchError(f"first_look is a number of games, at least 1, not {first_look!r}")
    if max_step < 1:
        raise WorkbenchError("max_step must be at least 1")
    if not 0 < alpha < 1:
        raise WorkbenchError("alpha must be between 0 and 1")
    for name, value in (("first_preview", first_preview), ("preview_every", preview_every)):
        if value is not None and not value >= 0:
            raise WorkbenchError(f"{name} is a number of seconds (0 or more) or None")
    if min_difference < 2 or min_equivalence < 2:
        raise WorkbenchError("min_difference and min_equivalence must be at least 2 (an interval needs two games)")
    watch = list(watch)
    if not watch:
        raise WorkbenchError("watch at least one metric")
    from .metrics import METRIC_BY_KEY
    for key in watch:
        base = key.partition("_seat")[0]
        if not is_series_key(key) and key not in METRIC_BY_KEY and base not in METRIC_BY_KEY:
            from workbench.core.errors import suggest
            raise WorkbenchError(f"unknown metric {key!r}{suggest(key, list(METRIC_BY_KEY))}")
    from .runner import resolve_game
    game = resolve_game(spec_a.game)
    margin_of = {k: _margin_of(k, game, margins) for k in watch}
    goals = {k: goal_of(k, game) for k in watch}
    for spec in (spec_a, spec_b):
        _validate(spec)
    backend = resolve_backend(backend, workers, None, 2 * spec_a.games)
    if backend == "dask":
        raise WorkbenchError("the progressive playtest runs in this process or a process pool, not on Dask")
    budget = spec_a.games
    schedule = (grid_schedule(budget, look_every) if look_every is not None
                else look_schedule(budget, first_look, max_step=max_step))
    previews = (first_preview, preview_every) if first_preview is not None else None
    return _run(spec_a, spec_b, watch, (margin_of, goals), alpha, schedule, previews,
                (min_difference, min_equivalence), stop_early, workers, backend, resamples, seed, on_update, start,
                dict(renames or {}))


def _run(spec_a, spec_b, watch, margin_of, alpha, schedule, previews, floors, stop_early,
         workers, backend, resamples, seed, on_update, start, renames=None) -> Iterator[PairedUpdate]:
    budget = spec_a.games
    # looks before either floor decide nothing: they spend no alpha; each
    # watched metric's looks share its part of alpha (verdicts.alpha_shares;
    # a preview still shows 1 - alpha)
    alphas = spending(schedule, alpha, start=min(floors), rho=SPENDING_RHO)
    looks = len(schedule)
    parts = chunk_plan(schedule)
    da, db = spec_a.to_dict(), spec_b.to_dict()
    tasks = [t for part in parts for t in ((da, part), (db, part))]  # A, B interleaved, same order
    # chunks ending each look: the look at schedule[k] is chunks [0, ends[k])
    ends = [sum(1 for part in parts if part[-1] < n) for n in schedule]
    frames: dict[int, tuple] = {}   # each chunk's tables, built once
    prefix = 0          # chunks finished in both arms, from the first
    look = 0
    shown = 0           # games in the last update
    due = start + previews[0] if previews else math.inf   # the next preview

    def update_at(upto: int, n: int, alpha_k: float, last: bool) -> PairedUpdate:
        a = _result(spec_a, [frames[2 * c] for c in range(upto)])
        b = _result(spec_b, [frames[2 * c + 1] for c in range(upto)])
        update = _look(a, b, watch, margin_of, alpha, alpha_k, look, looks, budget, n, floors, resamples,
                       seed, start, last, renames)
        update.schedule = list(schedule)
        return update

    stream = iter_tasks(tasks, backend=backend, workers=workers or default_workers())
    warm = not any(alphas)   # the intervals of a look that may decide need scipy
    with closing(stream):
        for t, chunk in stream:
            frames[t] = chunk.frames()
            if not warm:
                # imported now, while the workers play and no update can be
                # due yet (one chunk is in), not later on the first look's path
                expanded_level(0.95, 20)
                warm = True
            while 2 * prefix + 1 in frames and 2 * prefix in frames:
                prefix += 1
            pending = []   # (chunks, games, alpha spent, last, scheduled) of each update due now
            # every scheduled look the prefix has passed, in order (several at
            # once when chunks arrive together), each on exactly its games
            while look + len(pending) < looks and ends[look + len(pending)] <= prefix:
                k = look + len(pending)
                pending.append((ends[k], schedule[k], alphas[k], schedule[k] >= budget, True))
            n = sum(len(parts[c]) for c in range(prefix))
            if not pending and time.perf_counter() >= due and n >= 2 and n > shown:
                pending.append((prefix, n, 0.0, False, False))   # a preview: decides nothing
            for upto, n, alpha_k, last, scheduled in pending:
                look += scheduled
                update = update_at(upto, n, alpha_k, last)
                update.preview = not scheduled
                shown = update.games
                due = time.perf_counter() + previews[1] if previews and previews[1] is not None else math.inf
                if stop_early and update.decided and not update.done:
                    update.done = True
                if update.done:
                    from .compare import flipped_games
                    update.flipped = flipped_games(update.a, update.b)
                if on_update:
                    on_update(update)
                yield update
                if update.done:
                    return


def _result(spec: SimSpec, framed: list) -> SimResult:
    games, players, cards = (concat_frames([f[k] for f in framed]) for k in range(3))
    from .runner import resolve_game
    ideal = getattr(resolve_game(spec.game), "ideal_rounds", None)
    return SimResult(spec.with_(games=games.height), games, players, cards,
                     ideal_rounds=tuple(ideal) if ideal else None)


@dataclass(frozen=True)
class LookRule:
    """How one look reads its intervals and what it may decide."""

    decides: bool          # False: spends no alpha, decides nothing (a preview, or a look before the floors)
    level: float           # the coverage its intervals claim
    bootstrap_level: float  # the percentile level that gives it (expanded_level)
    difference_from: int   # games per arm from which it may call a difference
    equivalence_from: int  # ... and an equivalence

    def may_differ(self, n: int) -> bool:
        return self.decides and n >= self.difference_from

    def may_equal(self, n: int) -> bool:
        return self.decides and n >= self.equivalence_from


def look_rule(n: int, alpha: float, alpha_k: float, min_difference: int = 20,
              min_equivalence: int = 40) -> LookRule:
    """The rule of a look at ``n`` games spending ``alpha_k`` (0: it decides
    nothing and shows a plain ``1 - alpha`` interval for orientation)."""
    if alpha_k == 0:
        return LookRule(False, 1 - alpha, 1 - alpha, min_difference, min_equivalence)
    return LookRule(True, 1 - alpha_k, expanded_level(1 - alpha_k, n),
                    max(min_difference, difference_floor(alpha_k)), min_equivalence)


def paired_t_interval(d: np.ndarray, level: float) -> tuple[float | None, float | None]:
    """Student's t interval of the mean of the paired differences ``d`` (NaN
    dropped) at coverage ``level``; (None, None) with fewer than two pairs. The
    differences of a per-game quantity are independent across games, so the
    interval holds at any level a look asks for, where a bootstrap's
    percentiles would run out of resamples in the far tails a corrected level
    reads. Under :data:`~workbench.sim.intervals.SMALL_SAMPLE` pairs that all
    differ by the same amount (identical pairs: by 0) there is no spread to
    bound and no interval either: never one of width 0."""
    from .intervals import SMALL_SAMPLE
    d = d[~np.isnan(d)]
    if len(d) < 2:
        return (None, None)
    sd = float(d.std(ddof=1))
    if sd == 0.0 and len(d) < SMALL_SAMPLE:
        return (None, None)
    from scipy.special import stdtrit
    mean = float(d.mean())
    half = float(stdtrit(len(d) - 1, 1 - (1 - level) / 2)) * sd / math.sqrt(len(d))
    return mean - half, mean + half


def welch_t_interval(x: np.ndarray, y: np.ndarray, level: float) -> tuple[float | None, float | None]:
    """Welch's t interval of ``mean(y) - mean(x)`` (NaN dropped in each) at
    coverage ``level``; (None, None) with fewer than two values in either.
    Used for what a card's takers gain when the pools take the card in
    different games (:func:`_unpaired`): it treats the arms as independent,
    and the paired seeds make them positively correlated if anything, so the
    interval is wider than the difference's own (conservative)."""
    x, y = x[~np.isnan(x)], y[~np.isnan(y)]
    if len(x) < 2 or len(y) < 2:
        return (None, None)
    from scipy.special import stdtrit
    vx, vy = float(x.var(ddof=1)) / len(x), float(y.var(ddof=1)) / len(y)
    var = vx + vy
    diff = float(y.mean() - x.mean())
    if var == 0:
        # every taker of both pools had one value: no spread to judge, and a
        # zero-width interval would read as certain (never "no meaningful change")
        return (None, None)
    df = var * var / ((vx * vx / (len(x) - 1) if vx else 0.0) + (vy * vy / (len(y) - 1) if vy else 0.0))
    half = float(stdtrit(df, 1 - (1 - level) / 2)) * math.sqrt(var)
    return diff - half, diff + half


#: the share of the games taking a card (in either pool) that must take it in
#: both for a taker metric to be read from the pairs (our draft: half)
PAIRED_TAKES = 0.5


def _unpaired(key: str, x: np.ndarray, y: np.ndarray) -> bool:
    """Whether ``key`` is read from each pool's own games rather than from the
    games paired in both: a taker metric (what a card's takers gain) when the
    pools take the card in different games. A bot that values what a card
    gives takes a stronger card in more games and a weaker one in fewer, and
    the games taking it in both pools then dwindle to a handful (a weaker
    card of the cooperative worked example: 3 to 5 pairs of 200 games); the gain of each pool's
    takers is what a designer asks about ("is this card too strong?"). Chosen
    by which games take the card, never by the values compared: each pool's
    own takers when the games taking it in both pools are fewer than
    :data:`PAIRED_TAKES` of the games taking it in either; else the pairs,
    which keep what the paired seeds share (the scores before the take, the
    deal), so their interval is the narrower (a card planted weaker at 4
    players, 150 greedy games: 38 games took it in both pools, 58 in either;
    the gain soon after the take -1.5 points, paired t -2.9, Welch -2.3)."""
    if key.partition(":")[0] not in TAKER_METRICS:
        return False
    hx, hy = ~np.isnan(x), ~np.isnan(y)
    either = int((hx | hy).sum())
    return bool(either) and int((hx & hy).sum()) < PAIRED_TAKES * either


def _renamed(key: str, renames: dict | None) -> str:
    """``key`` as the new arm names it: a card metric of a renamed card reads
    the card's new name there (a card is the same card through a rename)."""
    if renames and ":" in key:
        head, _, card = key.partition(":")
        if card in renames and is_series_key(key):
            return f"{head}:{renames[card]}"
    return key


def _per_game(a: SimResult, b: SimResult, key: str, renames: dict | None):
    """``(x, y)``: the per-game values of ``key`` in each arm, for a metric that
    is the mean of one per-game quantity (a card's, a game's own column, or a
    metric's column); None for a metric computed over the whole batch."""
    if key.startswith("card_taker_soon:"):
        # the seat that took the card, read in both pools (metrics.paired_soon)
        from .metrics import paired_soon
        pair = paired_soon(a, b, key.partition(":")[2], _renamed(key, renames).partition(":")[2],
                           a.spec.taker_horizon or 2)
        if pair is not None:
            return pair
    if is_series_key(key):
        return series(a, key), series(b, _renamed(key, renames))
    from .metrics import METRIC_BY_KEY
    metric = METRIC_BY_KEY.get(key)
    if metric is None or not metric.column:
        return None
    da, db = a.metric_data(), b.metric_data()
    if metric.column not in da.cols or metric.column not in db.cols:
        return None
    return da.cols[metric.column], db.cols[metric.column]


def _same_games(a: SimResult, b: SimResult) -> bool:
    """Whether every game's columns, winners and scores are equal in both arms
    (then every metric computed from them is too)."""
    da, db = a.metric_data(), b.metric_data()
    if set(da.cols) != set(db.cols) or not np.array_equal(da.won, db.won):
        return False
    if (da.scores is None) != (db.scores is None) or (
            da.scores is not None and not np.array_equal(da.scores, db.scores, equal_nan=True)):
        return False
    return all(np.array_equal(da.cols[k], db.cols[k], equal_nan=True) for k in da.cols)


def _look(a: SimResult, b: SimResult, watch, margin_of, alpha, alpha_k, look, looks, budget, n, floors,
          resamples, seed, start, last, renames=None) -> PairedUpdate:
    from scipy.special import stdtrit

    from .compare import compare_results
    shares = alpha_shares(watch)
    rules = {k: look_rule(n, alpha, alpha_k * shares[k], *floors) for k in watch}
    rule = look_rule(n, alpha, alpha_k, *floors)   # the run's own: reported on the update
    margin_of, goals = margin_of
    per_game = {k: _per_game(a, b, k, renames) for k in watch}
    batch_keys = [k for k in watch if per_game[k] is None and not is_series_key(k)]
    rows_by_key, se = {}, {}
    if batch_keys:
        # a metric of the whole batch (a seat gap, a faction gap): the paired
        # bootstrap's standard error, read at the look's level through t
        comp = compare_results(a, b, resamples=resamples, seed=derive_seed(seed, "look", n),
                               keys=batch_keys, with_flipped=False)
        rows_by_key = {r["key"]: r for r in comp.rows}
        se = comp.se
    same_games = None
    rows = []
    for key in watch:
        rule_k = rules[key]
        level = rule_k.level
        pair = per_game[key]
        if pair is not None and _unpaired(key, *pair):
            x, y = pair
            xs, ys = x[~np.isnan(x)], y[~np.isnan(y)]
            lo, hi = welch_t_interval(x, y, level)
            row = {"metric": series_label(key), "key": key,
                   # each pool's own takers: the means the interval compares
                   "a": float(xs.mean()) if len(xs) else None, "b": float(ys.mean()) if len(ys) else None,
                   "diff": float(ys.mean() - xs.mean()) if len(xs) and len(ys) else None,
                   "ci_low": lo, "ci_high": hi, "pairs": int(min(len(xs), len(ys))), "paired": False,
                   "identical": False}
        elif pair is not None:
            x, y = pair
            both = ~(np.isnan(x) | np.isnan(y))
            d = (y - x)[both]
            lo, hi = paired_t_interval(d, level)
            row = {"metric": series_label(key) if is_series_key(key) else _label_of(key), "key": key,
                   # the means of the games paired in both arms: the difference is theirs
                   "a": float(x[both].mean()) if both.any() else None,
                   "b": float(y[both].mean()) if both.any() else None,
                   "diff": float(d.mean()) if both.any() else None, "ci_low": lo, "ci_high": hi,
                   "pairs": int(both.sum()),
                   # every game alike in both arms, a value or none (a card never taken: no pairs at all)
                   # (or every pair that has a value equal: no spread to judge either)
                   # (or every pair that has a value equal, the same games having one: no
                   # spread to judge either; a card taken in other games was chosen differently)
                   "identical": bool(n >= 2 and (np.array_equal(x, y, equal_nan=True)
                                                 or (both.any() and not d.any()
                                                     and np.array_equal(np.isnan(x), np.isnan(y)))))}
        else:
            row = dict(rows_by_key.get(key) or {"metric": key, "key": key, "a": None, "b": None, "diff": None,
                                                "ci_low": None, "ci_high": None})
            row["pairs"] = n
            if same_games is None:
                same_games = _same_games(a, b)
            row["identical"] = bool(same_games and n >= 2)
            spread = se.get(key)
            from .intervals import SMALL_SAMPLE
            if spread == 0.0 and n < SMALL_SAMPLE:
                spread = None   # no spread across the resamples: no interval of width 0
            if row["diff"] is not None and spread is not None and n > 1:
                q = float(stdtrit(n - 1, 1 - (1 - level) / 2))
                row["ci_low"], row["ci_high"] = row["diff"] - q * spread, row["diff"] + q * spread
            else:
                row["ci_low"] = row["ci_high"] = None
        if renames and is_series_key(key) and _renamed(key, renames) != key:
            row["metric"] += f" (named {_renamed(key, renames).partition(':')[2]} in the new pool)"
        margin = margin_of.get(key)
        row["margin"] = margin
        row["level"] = level
        if row["identical"] and rule_k.decides:
            # nothing differed: no spread, no interval to judge; a fact, not an
            # equivalence, decided once as many pairs as an equivalence needs are in
            word = IDENTICAL
            row["decided"] = rule_k.may_equal(n)
        elif pair is not None and row["pairs"] < 2 and rule_k.may_equal(n):
            # fewer than two games with a value in both arms (a card taken in
            # one pool's games only): no interval can ever be had; said, and
            # not left to hold the run to its budget
            word = UNMEASURED
            row["decided"] = True
        else:
            word = verdict(row["ci_low"], row["ci_high"], margin, rule_k.may_equal(n), rule_k.may_differ(n))
            row["decided"] = word != UNDECIDED
        row["direction"] = direction_of(word)
        row["size"] = size_of(word)
        row["verdict"] = _verdict_name(word, goals.get(key, 0))
        need = (games_to_decide(n, row["ci_low"], row["ci_high"], margin)
                if word == UNDECIDED else None)
        if word == UNDECIDED and row["ci_low"] is None and (row["pairs"] or 0) >= 2:
            # pairs with no spread under SMALL_SAMPLE: an interval needs that many at least
            from .intervals import SMALL_SAMPLE
            need = SMALL_SAMPLE
        if need is not None and row["ci_low"] is not None and row["ci_low"] <= 0 <= row["ci_high"]:
            # an interval around 0 decides only as an equivalence: not before its floor
            need = max(need, rule_k.equivalence_from)
        row["games_needed"] = need
        rows.append(row)
    decided = all(r["decided"] for r in rows)
    return PairedUpdate(n, budget, look, looks, rule.level, rows, decided, last, time.perf_counter() - start, a, b,
                        difference_from=min(r.difference_from for r in rules.values()),
                        bootstrap_level=rule.level)


def _label_of(key: str) -> str:
    from .metrics import METRIC_BY_KEY
    metric = METRIC_BY_KEY.get(key)
    return metric.label if metric is not None else key
