"""Design metrics of a batch of games (after the Ludii set), each defined once.

Every metric is a class with its definition, range and formula in the
docstring, registered in :data:`METRICS` (the one place that lists them). A
metric reads a :class:`MetricData` (the per-game columns of a batch as numpy
arrays plus a games x seats matrix of wins) and returns a number, ``None``
when it does not apply (no game had a winner, no target duration...), or for
per-seat metrics a dict keyed by seat.

Notation: ``G`` games, ``g`` one game, ``S`` seats, ``W_g`` the winners of
game ``g`` (possibly empty; a game cut off at the action limit has none),
``won[g, s]`` 1 if seat ``s`` is in ``W_g``. Evaluation samples ``e_t[s]`` are
``Game.evaluate(state, s)`` taken once per round and at the end (see
:mod:`workbench.sim.runner`); the per-game trace values are computed there,
by the formulas given here.

Card statistics (how often and how early a card is taken, win rate when
taken, and each game's own per-card figures such as an Initiative's
contributors) are in :func:`card_summary`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class MetricData:
    cols: dict[str, np.ndarray]
    won: np.ndarray            # shape (G, S), 1.0 where the seat won
    ideal_rounds: tuple[int, int] | None = None

    @classmethod
    def from_result(cls, result, ideal_rounds=None) -> "MetricData":
        games = result.games.sort("index")
        import polars as pl
        cols = {}
        for name in games.columns:
            series = games[name]
            if series.dtype.is_numeric() or series.dtype in (pl.Boolean, pl.Null):
                cols[name] = series.cast(pl.Float64).to_numpy()  # nulls become NaN
        players = result.players.sort(["index", "seat"])
        n_seats = int(players["seat"].max()) + 1 if players.height else 0
        won = players["won"].cast(float).to_numpy().reshape(games.height, n_seats) if n_seats else \
            np.zeros((games.height, 0))
        return cls(cols, won, ideal_rounds)

    @property
    def n(self) -> int:
        return len(self.won)

    def take(self, idx: np.ndarray) -> "MetricData":
        """The same batch resampled at game positions ``idx`` (for bootstrap intervals)."""
        return MetricData({k: v[idx] for k, v in self.cols.items()}, self.won[idx], self.ideal_rounds)


def _mean(values: np.ndarray) -> float | None:
    values = values[~np.isnan(values)]
    return float(values.mean()) if len(values) else None


class Metric:
    key = ""
    label = ""
    range = (0.0, 1.0)
    #: the value is the mean of one per-game column (paired differences are exact)
    column: str | None = None

    def compute(self, d: MetricData):
        return _mean(d.cols[self.column]) if d.n else None


class Completion(Metric):
    """Completion: share of games that end with at least one winner.

    ``completion = #{g : |W_g| > 0} / G``, range [0, 1]. For Meaning Made this
    is the survival rate (a collapse has no winner)."""

    key, label, column = "completion", "Completion (games with a winner)", "completed"


class NoWinner(Metric):
    """No-winner rate: share of games that end by the rules with nobody winning
    (Meaning Made: collapse). ``#{g : ended, |W_g| = 0} / G``, range [0, 1].
    Completion + no-winner + timeout = 1."""

    key, label, column = "no_winner", "No winner (collapse)", "no_winner"


class Timeout(Metric):
    """Timeout rate: share of games cut off at the action limit before the rules
    ended them. ``#{g : actions_g = limit} / G``, range [0, 1]."""

    key, label, column = "timeout", "Timeout (action limit)", "timeout"


class Balance(Metric):
    """Balance: how evenly the seats win.

    ``r_s = mean_g won[g, s]`` (win rate of seat ``s``);
    ``balance = 1 - (max_s r_s - min_s r_s)``, range [0, 1], 1 = every seat wins
    equally often. A one-seat game is perfectly balanced by definition."""

    key, label = "balance", "Balance (1 - largest seat gap)"

    def compute(self, d: MetricData):
        if not d.n or d.won.shape[1] == 0:
            return None
        rates = d.won.mean(axis=0)
        return float(1.0 - (rates.max() - rates.min()))


class SeatAdvantage(Metric):
    """Seat advantage: each seat's win rate minus the mean seat win rate.

    ``adv_s = r_s - (1/S) sum_s' r_s'``, range [-1, 1]; positive favours the seat
    (seat 1 moves first). Returns ``{seat: adv_s}``."""

    key, label, range = "seat_advantage", "Seat advantage", (-1.0, 1.0)

    def compute(self, d: MetricData):
        if not d.n or d.won.shape[1] == 0:
            return None
        rates = d.won.mean(axis=0)
        return {s + 1: float(r - rates.mean()) for s, r in enumerate(rates)}


class Drawishness(Metric):
    """Drawishness: share of games whose victory is shared.

    ``#{g : |W_g| > 1} / G``, range [0, 1]."""

    key, label = "drawishness", "Drawishness (shared wins)"

    def compute(self, d: MetricData):
        return float((d.cols["n_winners"] > 1).mean()) if d.n else None


class DurationRounds(Metric):
    """Duration in rounds: mean number of rounds (the game's ``turns``) played.

    ``mean_g turns_g``, range [0, inf)."""

    key, label, range, column = "duration_rounds", "Duration, rounds (mean)", (0, None), "turns"


class DurationRoundsSpread(Metric):
    """Spread of the duration in rounds: sample standard deviation.

    ``sqrt(sum_g (turns_g - mean)^2 / (G - 1))``, range [0, inf)."""

    key, label, range = "duration_rounds_sd", "Duration, rounds (std dev)", (0, None)

    def compute(self, d: MetricData):
        return float(np.std(d.cols["turns"], ddof=1)) if d.n > 1 else None


class DurationActions(Metric):
    """Duration in actions: mean number of actions (every seat's decisions).

    ``mean_g actions_g``, range [0, inf)."""

    key, label, range, column = "duration_actions", "Duration, actions (mean)", (0, None), "actions"


class DurationActionsSpread(Metric):
    """Spread of the duration in actions: sample standard deviation of ``actions_g``,
    range [0, inf)."""

    key, label, range = "duration_actions_sd", "Duration, actions (std dev)", (0, None)

    def compute(self, d: MetricData):
        return float(np.std(d.cols["actions"], ddof=1)) if d.n > 1 else None


class ScoreSpread(Metric):
    """Score spread: how far apart the final scores lie.

    Per game ``max_s score_g[s] - min_s score_g[s]`` (0 with one seat); the
    metric is the mean over games, range [0, inf). Small spreads with a clear
    winner mean close games; large ones, runaway leaders."""

    key, label, range, column = "score_spread", "Score spread (max - min, mean)", (0, None), "score_spread"


class IdealDuration(Metric):
    """Ideal duration: how well game length fits a target range of rounds [lo, hi].

    Per game ``1`` inside the range, else ``max(0, 1 - dist / (hi - lo + 1))``
    with ``dist`` the rounds outside it; the metric is the mean, range [0, 1].
    The target comes from ``--ideal-rounds LO-HI`` or the game's
    ``ideal_rounds`` attribute; without one the metric is not computed."""

    key, label = "ideal_duration", "Ideal duration score"

    def compute(self, d: MetricData):
        if not d.n or not d.ideal_rounds:
            return None
        lo, hi = d.ideal_rounds
        turns = d.cols["turns"]
        dist = np.where(turns < lo, lo - turns, np.where(turns > hi, turns - hi, 0.0))
        return float(np.clip(1.0 - dist / (hi - lo + 1), 0.0, 1.0).mean())


class Decisiveness(Metric):
    """Decisiveness: how early the eventual winner takes a lead it keeps.

    Over the evaluation samples ``t = 0..T-1`` of a game with winners, let ``k``
    be the last sample where no winner is alone in the lead; per game
    ``1 - (k + 1) / T`` (0 if the winner only leads at the very end, near 1 if
    they lead from the start). The metric is the mean over games with a
    winner, range [0, 1]."""

    key, label, column = "decisiveness", "Decisiveness", "decisiveness"


class LeadChange(Metric):
    """Lead change: how often the leader changes.

    The leader at sample ``t`` is the seat with the strictly highest ``e_t``
    (none on a tie); per game ``changes / (T - 1)`` where a change is a leader
    different from the previous leader. Mean over games, range [0, 1]."""

    key, label, column = "lead_change", "Lead change", "lead_change"


class Drama(Metric):
    """Drama: how far behind the eventual winner was along the way.

    Per sample ``(max_s e_t[s] - max_{w in W} e_t[w]) / (max_s e_t[s] - min_s e_t[s])``
    (0 when the winner leads or all are level); per game the mean over samples;
    the metric is the mean over games with a winner, range [0, 1]."""

    key, label, column = "drama", "Drama", "drama"


class DecisionMoves(Metric):
    """Decision moves: share of decisions with more than one legal option.

    ``sum_g multi_g / sum_g decisions_g``, range [0, 1]."""

    key, label = "decision_moves", "Decision moves"

    def compute(self, d: MetricData):
        total = d.cols["decisions"].sum()
        return float(d.cols["multi_option_decisions"].sum() / total) if total else None


class BranchingFactor(Metric):
    """Branching factor: mean number of legal options per decision.

    ``sum_g options_g / sum_g decisions_g``, range [1, inf)."""

    key, label, range = "branching_factor", "Branching factor", (1, None)

    def compute(self, d: MetricData):
        total = d.cols["decisions"].sum()
        return float(d.cols["options_total"].sum() / total) if total else None


#: every metric, in display order: the one place they are registered
METRICS: list[Metric] = [
    Completion(), NoWinner(), Timeout(), Balance(), SeatAdvantage(), Drawishness(),
    DurationRounds(), DurationRoundsSpread(), DurationActions(), DurationActionsSpread(),
    IdealDuration(), ScoreSpread(), Decisiveness(), LeadChange(), Drama(), DecisionMoves(), BranchingFactor(),
]
METRIC_BY_KEY = {m.key: m for m in METRICS}


def compute_all(d: MetricData) -> dict:
    """``{key: value}`` for every registered metric."""
    return {m.key: m.compute(d) for m in METRICS}


def flatten(values: dict) -> dict:
    """Per-seat metrics spread into ``key_seatN`` entries (for tables and JSON)."""
    out = {}
    for key, value in values.items():
        if isinstance(value, dict):
            for seat, v in value.items():
                out[f"{key}_seat{seat}"] = v
        else:
            out[key] = value
    return out


def card_summary(result):
    """One row per card over the batch (polars DataFrame, most taken first):

    * ``pick_rate``: share of games in which the card was taken at least once;
    * ``mean_times``: mean times taken in those games;
    * ``mean_first_round`` / ``mean_first_fraction``: how early it is first
      taken (round, and share of the game's actions elapsed);
    * ``win_rate_when_taken``: mean share of its takers who won the game;
    * the mean of every other numeric per-card column a game reports through
      ``Game.card_stats`` (e.g. Meaning Made's Initiative contributors).
    """
    import polars as pl

    cards = result.cards
    n_games = result.games.height
    # a sweep passes its cards file as a lazy scan: it is read a block of games
    # at a time (by game index, so the sums are added in the same order
    # however the batch was chunked), the summary built from per-block sums
    lazy = isinstance(cards, pl.LazyFrame)
    schema = cards.collect_schema() if lazy else cards.schema
    if lazy and n_games:
        lo, hi = int(result.games["index"].min()), int(result.games["index"].max())
        blocks = (cards.filter(pl.col("index").is_between(s, s + CARD_BLOCK - 1)).collect()
                  for s in range(lo, hi + 1, CARD_BLOCK))
    else:
        blocks = [cards] if not lazy else []
    base = {"index", "seed", "card", "times_taken", "takers", "first_action", "first_fraction",
            "first_round", "first_seat", "taker_won", "taker_win_share", "stat_rows"}
    taken = pl.col("times_taken") > 0
    # (output column, source column, counted only in games where the card was taken)
    means = [("mean_times", "times_taken", True)]
    means += [(alias, name, True) for name, alias in (("first_round", "mean_first_round"),
                                                       ("first_fraction", "mean_first_fraction"),
                                                       ("taker_win_share", "win_rate_when_taken"))
              if name in schema]
    means += [(f"mean_{name}", name, False) for name, dtype in schema.items()
              if name not in base and (dtype.is_numeric() or dtype == pl.Boolean)]
    sums = [taken.sum().cast(pl.Float64).alias("n_taken")]
    for alias, name, only_taken in means:
        col = pl.col(name).cast(pl.Float64)
        col = col.filter(taken) if only_taken else col
        sums += [col.sum().alias(f"{alias}__sum"), col.count().cast(pl.Float64).alias(f"{alias}__n")]
    partials = [b.group_by("card", maintain_order=True).agg(sums) for b in blocks if b.height]
    if not partials:
        return pl.DataFrame({"card": [], "pick_rate": []}, schema={"card": pl.Utf8, "pick_rate": pl.Float64})
    totals = pl.concat(partials).group_by("card", maintain_order=True).agg(pl.all().sum())
    out = totals.select(
        "card", (pl.col("n_taken") / n_games).alias("pick_rate"),
        *[pl.when(pl.col(f"{alias}__n") > 0).then(pl.col(f"{alias}__sum") / pl.col(f"{alias}__n"))
          .otherwise(None).alias(alias) for alias, _, _ in means])
    return out.sort(["pick_rate", "card"], descending=[True, False])


#: games per block when a card summary reads a sweep's cards file
CARD_BLOCK = 2000
