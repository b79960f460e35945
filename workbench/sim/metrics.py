"""Design metrics of a batch of games (after the Ludii set), each defined once.

Every metric is a class with its definition, range and formula in the
docstring, registered in :data:`METRICS` (the one place that lists them). A
metric reads a :class:`MetricData` (the per-game columns of a batch as numpy
arrays plus a games x seats matrix of wins) and returns a number, ``None``
when it does not apply (no game had a winner, no target duration...), or for
per-seat metrics a dict keyed by seat (per-kind and per-role ones by name).

Notation: ``G`` games, ``g`` one game, ``S`` seats, ``W_g`` the winners of
game ``g`` (possibly empty; a game cut off at the action limit has none),
``won[g, s]`` 1 if seat ``s`` is in ``W_g``. Evaluation samples ``e_t[s]`` are
``Game.evaluate(state, s)`` taken once per round and at the end (see
:mod:`workbench.sim.runner`); the per-game trace values are computed there,
by the formulas given here.

Card statistics (how often and how early a card is taken, win rate when
taken, and each game's own per-card figures such as how many players
contributed to a card) are in :func:`card_summary`; the per-card pick rate is also a
metric (:class:`CardUsage`, kept out of the default table because it has a row
per card).

The balancing questions (issue 15) read these same classes: who wins by seat
(:class:`SeatWinRate`, the one definition the Sweeps page and the Balance view
share) and by role where seats play asymmetric roles (a faction, a character)
(:class:`RoleWinRate`, :class:`RoleGap`), how often a tie-break
decides (:class:`TieBreakShare`), how many players end at a score cap
(:class:`CapSaturation`), which actions are chosen (:class:`ActionUsage`),
and which cards are used (:class:`CardUsage`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class MetricData:
    cols: dict[str, np.ndarray]
    won: np.ndarray            # shape (G, S), 1.0 where the seat won
    ideal_rounds: tuple[int, int] | None = None
    #: shape (G, S), each seat's final score (None when the batch has no players table)
    scores: np.ndarray | None = None
    #: card -> per-game times taken, shape (G,) (from the cards table)
    card_counts: dict[str, np.ndarray] = field(default_factory=dict)
    #: the game's action kinds that are also card names (actions chosen by playing a card);
    #: empty when the game does not name its action kinds
    action_kinds: tuple[str, ...] = ()
    #: shape (G, S), the role (e.g. a faction) each seat played as an index
    #: into ``role_names`` (-1: none), from the players table's ``role``
    #: column; None when the game deals no roles. Whole numbers, so that the
    #: bootstrap's resamples compare them fast
    roles: np.ndarray | None = None
    role_names: tuple[str, ...] = ()
    #: action kind -> per-game times chosen, shape (G,), from the game's
    #: ``Game.action_kind_counts`` columns (empty: the kinds are counted as cards)
    action_counts: dict[str, np.ndarray] = field(default_factory=dict)

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
        scores = (players["score"].cast(float).to_numpy().reshape(games.height, n_seats)
                  if n_seats and "score" in players.columns else None)
        card_counts: dict[str, np.ndarray] = {}
        cards = result.cards
        if hasattr(cards, "collect"):  # a lazily read (streamed) table
            try:
                cards = cards.select("card", "index", "times_taken").collect()
            except Exception:  # its part files are gone or hold no card rows: no card metrics
                cards = pl.DataFrame()
        if cards.height and "card" in cards.columns and "times_taken" in cards.columns:
            position = {idx: k for k, idx in enumerate(games["index"].to_list())}
            taken = (cards.filter(pl.col("times_taken") > 0)
                     .group_by("card", "index").agg(pl.col("times_taken").sum()))
            for card, idx, times in taken.iter_rows():
                arr = card_counts.get(card)
                if arr is None:
                    arr = card_counts[card] = np.zeros(games.height)
                arr[position[idx]] += times
        # per-game columns derived from the players table (no new column in the
        # simulate tables): a paired comparison resamples them in one step
        if scores is not None and scores.shape[1]:
            cols["mean_score"] = scores.mean(axis=1)
        if "players_at_cap" in cols and "players" in cols:
            with np.errstate(invalid="ignore", divide="ignore"):
                cols["cap_share"] = cols["players_at_cap"] / cols["players"]
        roles, role_names = None, ()
        if n_seats and "role" in players.columns and players["role"].null_count() < players.height:
            played = players["role"].to_list()
            role_names = tuple(sorted({r for r in played if r is not None}))
            code = {name: k for k, name in enumerate(role_names)}
            roles = np.array([code.get(r, -1) for r in played]).reshape(games.height, n_seats)
        kinds, counted = (), {}
        try:
            from .runner import resolve_game
            game = resolve_game(result.spec.game)
            kinds = tuple(getattr(game, "action_kinds", ()) or ())
            counted = dict(getattr(game, "action_kind_counts", None) or {})
        except Exception:  # a hand-made table for an unknown game: no action kinds
            kinds, counted = (), {}
        # a count the game writes only when it is not 0 is missing (NaN) elsewhere: 0 times
        action_counts = {kind: np.nan_to_num(cols[col]) if col in cols else np.zeros(games.height)
                         for kind, col in counted.items()}
        if action_counts:
            kinds = tuple(action_counts)
        return cls(cols, won, ideal_rounds, scores, card_counts, kinds, roles, role_names, action_counts)

    @property
    def n(self) -> int:
        return len(self.won)

    def take(self, idx: np.ndarray) -> "MetricData":
        """The same batch resampled at game positions ``idx`` (for bootstrap intervals)."""
        return MetricData({k: v[idx] for k, v in self.cols.items()}, self.won[idx], self.ideal_rounds,
                          None if self.scores is None else self.scores[idx],
                          {k: v[idx] for k, v in self.card_counts.items()}, self.action_kinds,
                          None if self.roles is None else self.roles[idx], self.role_names,
                          {k: v[idx] for k, v in self.action_counts.items()})


def _mean(values: np.ndarray) -> float | None:
    values = values[~np.isnan(values)]
    return float(values.mean()) if len(values) else None


class Metric:
    key = ""
    label = ""
    range = (0.0, 1.0)
    #: the value is the mean of one per-game column (paired differences are exact)
    column: str | None = None
    #: a dict-valued metric says what its keys are ("seat", "kind", "card")
    per: str | None = None
    #: +1 when higher is better, -1 when lower is better, 0 when neither is
    #: (a verdict then says "higher"/"lower"); a game may declare its own
    #: (``Game.metric_goals``)
    goal = 0
    #: the equivalence margin used when the game declares none (our draft)
    margin: float | None = None

    def compute(self, d: MetricData):
        if not d.n or self.column not in d.cols:
            return None
        return _mean(d.cols[self.column])


class Completion(Metric):
    """Completion: share of games that end with at least one winner.

    ``completion = #{g : |W_g| > 0} / G``, range [0, 1]. For a cooperative game this
    is the survival rate (a collapse has no winner)."""

    key, label, column = "completion", "Completion (games with a winner)", "completed"
    margin = 0.05


class NoWinner(Metric):
    """No-winner rate: share of games that end by the rules with nobody winning
    (a cooperative game's collapse). ``#{g : ended, |W_g| = 0} / G``, range [0, 1].
    Completion + no-winner + timeout = 1."""

    key, label, column = "no_winner", "No winner (collapse)", "no_winner"
    margin = 0.05


class Timeout(Metric):
    """Timeout rate: share of games cut off before the rules ended them, at the
    runner's action limit or by the game's own safety stop (a
    round limit ending ``timeout``). ``#{g : timed out} / G``, range [0, 1].
    A timed-out game has no winner."""

    key, label, column = "timeout", "Timeout (action limit)", "timeout"
    goal, margin = -1, 0.05


class TrackLow(Metric):
    """Lowest track: the lowest value the group's shared track reached (a
    cooperative game's common score), read before every action and at the end
    (``Game.group_track``). ``mean_g min_t track_g(t)``, range [collapse, top].
    The margin by which the table survives: survival may sit at its ceiling
    while this still moves. Not computed for a game without a shared track."""

    key, label, range, column = "track_low", "Lowest shared track reached (mean)", (0, None), "track_low"
    goal, margin = 1, 0.5


class NearCollapse(Metric):
    """Near collapse: share of games in which the shared track came within one
    step of collapse (``min_t track_g(t) <= collapse + 1``; a collapse counts),
    range [0, 1]. Not computed for a game without a shared track."""

    key, label, column = "near_collapse", "Games within one step of collapse", "near_collapse"
    goal, margin = -1, 0.03


class DangerRounds(Metric):
    """Rounds in danger: the number of rounds in which the shared track was at
    or below the game's danger value (``Game.group_track_danger``, e.g. 2)
    at some reading, mean over games, range [0, inf)."""

    key, label, range, column = ("track_danger_rounds", "Rounds spent in danger (mean)", (0, None),
                                 "track_danger_rounds")
    goal, margin = -1, 0.5


class RoundsToSpare(Metric):
    """Rounds to spare: in games the group won, the rounds left before the
    round limit when it ended (``round_limit - rounds``, from the game's
    ``game_stats`` column ``rounds_to_spare``), mean over those games, range
    [0, round limit]. Not computed for a game that reports no such column."""

    key, label, range, column = "rounds_to_spare", "Rounds to spare before the limit (mean)", (0, None), \
        "rounds_to_spare"
    goal, margin = 1, 0.5


class Balance(Metric):
    """Balance: how evenly the seats win.

    ``r_s = mean_g won[g, s]`` (win rate of seat ``s``);
    ``balance = 1 - (max_s r_s - min_s r_s)``, range [0, 1], 1 = every seat wins
    equally often. A one-seat game is perfectly balanced by definition."""

    key, label = "balance", "Balance (1 - largest seat gap)"
    goal, margin = 1, 0.05

    def compute(self, d: MetricData):
        if not d.n or d.won.shape[1] == 0:
            return None
        rates = d.won.mean(axis=0)
        return float(1.0 - (rates.max() - rates.min()))


class SeatAdvantage(Metric):
    """Seat advantage: each seat's win rate minus the mean seat win rate.

    ``adv_s = r_s - (1/S) sum_s' r_s'``, range [-1, 1]; positive favours the seat
    (seat 1 moves first). Returns ``{seat: adv_s}``."""

    key, label, range, per = "seat_advantage", "Seat advantage", (-1.0, 1.0), "seat"

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
    margin = 0.5


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
    margin = 5.0


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
    margin = 1.0


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
    margin = 0.05


class LeadChange(Metric):
    """Lead change: how often the leader changes.

    The leader at sample ``t`` is the seat with the strictly highest ``e_t``
    (none on a tie); per game ``changes / (T - 1)`` where a change is a leader
    different from the previous leader. Mean over games, range [0, 1]."""

    key, label, column = "lead_change", "Lead change", "lead_change"
    margin = 0.05


class Drama(Metric):
    """Drama: how far behind the eventual winner was along the way.

    Per sample ``(max_s e_t[s] - max_{w in W} e_t[w]) / (max_s e_t[s] - min_s e_t[s])``
    (0 when the winner leads or all are level); per game the mean over samples;
    the metric is the mean over games with a winner, range [0, 1]."""

    key, label, column = "drama", "Drama", "drama"
    margin = 0.05


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


class SeatWinRate(Metric):
    """Seat win rate: how often each seat is among the winners.

    ``r_s = mean_g won[g, s]``, range [0, 1]; returns ``{seat: r_s}`` (seat 1
    moves first). A shared win counts in full for every winner, so in a
    cooperative game (everyone wins when the world survives) every seat's win
    rate is the survival rate. The fair rate is the mean over seats; the
    Balance and Seat advantage metrics are built on the same ``r_s``."""

    key, label, per = "seat_win_rate", "Win rate", "seat"

    def compute(self, d: MetricData):
        if not d.n or d.won.shape[1] == 0:
            return None
        return {s + 1: float(r) for s, r in enumerate(d.won.mean(axis=0))}


class SeatGap(Metric):
    """Seat gap: the largest distance of a seat's win rate from the fair rate.

    ``max_s |r_s - (1/S) sum_s' r_s'|`` with ``r_s`` as in Seat win rate,
    range [0, 1]; 0 = every seat wins equally often. "Every seat within 10
    points of fair" is ``seat_gap <= 0.1``."""

    key, label = "seat_gap", "Seat gap (largest distance from fair)"

    def compute(self, d: MetricData):
        if not d.n or d.won.shape[1] == 0:
            return None
        rates = d.won.mean(axis=0)
        return float(np.abs(rates - rates.mean()).max())


def role_rates(d: MetricData) -> dict[str, tuple[int, float, float]]:
    """``{role: (n_r, r_r, fair_r)}`` over the player-games of each role (see
    :class:`RoleWinRate` and :class:`RoleGap`), roles in name order; empty when
    the batch has no roles."""
    if d.roles is None or not d.n or d.won.shape[1] == 0:
        return {}
    # the fair share of one player-game: the game's wins spread evenly over its seats
    fair_each = np.repeat((d.won.sum(axis=1) / d.won.shape[1])[:, None], d.won.shape[1], axis=1)
    codes = d.roles.ravel()
    played = codes >= 0
    codes, size = codes[played], len(d.role_names)
    n = np.bincount(codes, minlength=size)
    wins = np.bincount(codes, weights=d.won.ravel()[played], minlength=size)
    fair = np.bincount(codes, weights=fair_each.ravel()[played], minlength=size)
    # a role a resample left out has no rate
    return {role: (int(n[k]), float(wins[k] / n[k]), float(fair[k] / n[k]))
            for k, role in enumerate(d.role_names) if n[k]}


def role_summary(d: MetricData) -> list[dict]:
    """One row per role played in the batch, for reports: ``role``,
    ``player_games`` (n_f), ``wins``, ``win_rate`` (r_f), its 95 % Wilson
    interval ``ci_low``/``ci_high`` (scipy's ``binomtest``; sound at 0 and
    at n_f) and ``fair`` (fair_f, as in :class:`RoleGap`). Empty without roles."""
    from scipy.stats import binomtest
    rows = []
    for role, (n, rate, fair) in role_rates(d).items():
        wins = int(round(rate * n))
        ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
        rows.append({"role": role, "player_games": n, "wins": wins, "win_rate": rate,
                     "ci_low": float(ci.low), "ci_high": float(ci.high), "fair": fair})
    return rows


class RoleWinRate(Metric):
    """Role win rate: how often a player of each role (e.g. a faction)
    is among the winners.

    Over the player-games ``(g, s)`` in which role ``f`` was played (``n_f`` of
    them; a role not dealt in a game is simply not counted there),
    ``r_f = sum won[g, s] / n_f``, range [0, 1]; returns ``{role: r_f}`` for
    the roles played in the batch. A shared win counts in full, as in Seat win
    rate. Null for games whose seats play no roles (``Game.player_role``)."""

    key, label, per = "role_win_rate", "Win rate by role", "role"

    def compute(self, d: MetricData):
        rates = role_rates(d)
        return {role: rate for role, (_, rate, _) in rates.items()} or None


class RoleGap(Metric):
    """Role gap: the largest distance of a role's win rate from its fair rate.

    A player-game's fair share is what it would win if the game's wins were
    spread evenly over its seats, ``|W_g| / S`` (1/S when the game has one
    winner, 0 when nobody won); a role's fair rate ``fair_f`` is the mean of
    that share over the player-games it was played in. So a role dealt in only
    some games is measured against the games it was in: with one winner a game
    and every game finished, ``fair_f = 1/S`` whichever games dealt it, and a
    role that sits out the games nobody won is not held to their zero.
    ``role_gap = max_f |r_f - fair_f|`` (``r_f`` as in Role win rate), range
    [0, 1]; "every faction within 10 points of fair" is ``role_gap <= 0.1``
    (alias ``faction_gap``). Null for games without roles."""

    key, label = "role_gap", "Role gap (largest distance from fair)"

    def compute(self, d: MetricData):
        rates = role_rates(d)
        return max(abs(rate - fair) for _, rate, fair in rates.values()) if rates else None


class TieBreakShare(Metric):
    """Tie-break share: share of games with a winner in which the score did not
    decide alone.

    A game counts when at least two seats share the top final score (the win
    then went to a tie-break such as coins left, or was shared):
    ``#{g : |W_g| > 0, #{s : score_g[s] = max score_g} >= 2} / #{g : |W_g| > 0}``,
    range [0, 1]. Not computed for one-seat batches or batches without a winner.
    Games without a winner (a ``timeout`` at the safety limit, a collapse) are
    left out of both counts, so this share says nothing about them: read it
    with Timeout, or read Decided by score, which counts every game.
    In cooperative play every score ties by construction of the win, so read it
    for competitive games."""

    key, label = "tie_break_share", "Decided by tie-break (top score shared)"

    def compute(self, d: MetricData):
        if d.scores is None or not d.n or d.scores.shape[1] < 2:
            return None
        has_winner = d.won.sum(axis=1) > 0
        if not has_winner.any():
            return None
        top = d.scores.max(axis=1, keepdims=True)
        tied = (d.scores == top).sum(axis=1) >= 2
        return float(tied[has_winner].mean())


class DecidedByScore(Metric):
    """Decided by score: share of all games that some seat won with the top
    score to itself.

    ``#{g : |W_g| > 0, #{s : score_g[s] = max score_g} = 1} / G``, range [0, 1].
    Unlike Tie-break share, every game is in the denominator: a game stopped at
    the safety limit (``timeout``) or ending with no winner counts as *not*
    decided by score, so ``decided_by_score = completion x (1 - tie_break_share)``.
    "At least 80 % of games decided by score" is ``decided_by_score >= 0.8``.
    Not computed for one-seat batches."""

    key, label = "decided_by_score", "Decided by score (all games, timeouts included)"

    def compute(self, d: MetricData):
        if d.scores is None or not d.n or d.scores.shape[1] < 2:
            return None
        has_winner = d.won.sum(axis=1) > 0
        top = d.scores.max(axis=1, keepdims=True)
        alone = (d.scores == top).sum(axis=1) == 1
        return float((has_winner & alone).mean())


class CapSaturation(Metric):
    """Cap saturation: share of player-games that end at the score track's cap.

    ``sum_g at_cap_g / sum_g players_g`` where ``at_cap_g`` is the game's
    ``players_at_cap`` column (a score track at its maximum), range
    [0, 1]. Not computed for games that report no cap. A paired comparison
    (one player count, so every ``players_g`` is the same) resamples the
    per-game share ``at_cap_g / players_g`` (column ``cap_share``), whose mean
    is then the same number. Where a score is capped, a larger reward shows
    here rather than in the score spread, which the cap squeezes."""

    key, label, column = "cap_saturation", "Players ending at the score cap", "cap_share"
    margin = 0.03

    def compute(self, d: MetricData):
        at_cap = d.cols.get("players_at_cap")
        if at_cap is None or not d.n:
            return None
        total = d.cols["players"].sum()
        return float(np.nansum(at_cap) / total) if total else None


class ScoreMean(Metric):
    """Mean score: the mean final score of a player.

    Per game ``(1/S) sum_s score_g[s]`` (column ``mean_score``, from the
    players table); the metric is the mean over games, range [0, inf). What a
    larger reward changes for certain where the score is a sum of rewards:
    more is handed out, so players end higher, even where a cap keeps the
    spread from widening."""

    key, label, range, column = "score_mean", "Mean final score", (0, None), "mean_score"
    margin = 1.0

    def compute(self, d: MetricData):
        if d.scores is None or not d.n or d.scores.shape[1] == 0:
            return None
        return float(d.scores.mean())


class SeatMargin(Metric):
    """Seat margin: by how much each seat wins or trails.

    Per game and seat ``m_g[s] = score_g[s] - max_{s' != s} score_g[s']``:
    positive by the margin the seat won by, negative by how far it trailed
    the best other seat (0 on a tie at the top). The metric is
    ``{seat: mean_g m_g[s]}``, range (-inf, inf) (seat 1 moves first); a
    seat that wins by little, or loses by much, shows here where its win rate
    alone cannot. Needs at least two seats; at a cooperative table read it
    as the distance between the seats' end scores."""

    key, label, range, per = "seat_margin", "Seat margin (score minus best other)", (None, None), "seat"

    def compute(self, d: MetricData):
        if d.scores is None or not d.n or d.scores.shape[1] < 2:
            return None
        s = d.scores
        out = {}
        for seat in range(s.shape[1]):
            others = np.delete(s, seat, axis=1).max(axis=1)
            out[seat + 1] = float((s[:, seat] - others).mean())
        return out


class ActionUsage(Metric):
    """Action usage: each action kind's share of all choices among the kinds.

    For the game's action kinds, ``u_k = sum_g times_g[k] / sum_g sum_k' times_g[k']``,
    range [0, 1]; returns ``{kind: u_k}`` (a kind never chosen is 0). The
    times come from the game's per-game counts where it declares them
    (``Game.action_kind_counts``: the game's own ``game_stats`` counts; or the runner's tally through
    ``Game.action_kind``, which says which actions are counted, e.g. a turn's
    main actions and not the answers asked in between), else from the cards
    table for ``action_kinds`` that are card names (actions chosen by playing
    a card, recorded once per selection). Not computed for games that name no action
    kinds."""

    key, label, per = "action_usage", "Action usage", "kind"

    def compute(self, d: MetricData):
        if not d.action_kinds or not d.n:
            return None
        counts = d.action_counts or d.card_counts
        totals = {k: float(counts[k].sum()) if k in counts else 0.0 for k in d.action_kinds}
        grand = sum(totals.values())
        return {k: (v / grand if grand else 0.0) for k, v in totals.items()}


class ActionUsageMin(Metric):
    """Least-used action: the smallest action-usage share, ``min_k u_k``, range
    [0, 1] ("every action chosen in at least 5 % of selections" is
    ``action_usage_min >= 0.05``)."""

    key, label = "action_usage_min", "Least-used action share"

    def compute(self, d: MetricData):
        usage = ActionUsage().compute(d)
        return min(usage.values()) if usage else None


class CardUsage(Metric):
    """Card usage: share of games in which each card was taken at least once.

    ``p_c = #{g : times_g[c] > 0} / G``, range [0, 1]; returns ``{card: p_c}``
    for the cards taken in some game (the same pick rate as :func:`card_summary`)."""

    key, label, per = "card_usage", "Card pick rate", "card"

    def compute(self, d: MetricData):
        if not d.n:
            return None
        return {c: float((v > 0).mean()) for c, v in sorted(d.card_counts.items())}


#: every metric, in display order: the one place they are registered
METRICS: list[Metric] = [
    Completion(), NoWinner(), Timeout(), TrackLow(), NearCollapse(), DangerRounds(), RoundsToSpare(),
    Balance(), SeatAdvantage(), SeatWinRate(), SeatGap(),
    RoleWinRate(), RoleGap(), Drawishness(),
    TieBreakShare(), DecidedByScore(), CapSaturation(), ScoreMean(), SeatMargin(), ActionUsage(), ActionUsageMin(),
    DurationRounds(), DurationRoundsSpread(), DurationActions(), DurationActionsSpread(),
    IdealDuration(), ScoreSpread(), Decisiveness(), LeadChange(), Drama(), DecisionMoves(), BranchingFactor(),
]
#: metrics with one value per card: computed on request (``compute(data, key)``),
#: kept out of the default tables
CARD_METRICS: list[Metric] = [CardUsage()]
METRIC_BY_KEY = {m.key: m for m in METRICS + CARD_METRICS}

#: simpler names for targets (``survival=0.55..0.8``) -> metric keys
ALIASES = {"survival": "completion", "legacy_cap_share": "cap_saturation", "cap_share": "cap_saturation",
           "tie_break": "tie_break_share", "win_rate": "seat_win_rate",
           "faction_gap": "role_gap", "faction_win_rate": "role_win_rate"}


def resolve_alias(name: str) -> str:
    """The metric key ``name`` stands for: an alias (``faction_gap`` is
    ``role_gap``), or one entry of an aliased dict-valued metric
    (``faction_win_rate_mirevanta`` is ``role_win_rate_mirevanta``); other
    names are returned as they are."""
    if name in ALIASES:
        return ALIASES[name]
    for alias, key in ALIASES.items():
        if name.startswith(alias + "_") and METRIC_BY_KEY[key].per:
            return key + name[len(alias):]
    return name


def compute(d: MetricData, key: str):
    """One metric by key or alias (``survival`` is ``completion``), or one entry
    of a dict-valued metric by its flat key (``seat_win_rate_seat2``)."""
    key = resolve_alias(key)
    if key in METRIC_BY_KEY:
        return METRIC_BY_KEY[key].compute(d)
    for base, metric in METRIC_BY_KEY.items():
        if metric.per and key.startswith(base + "_"):
            values = metric.compute(d) or {}
            return {flat_key(base, sub): v for sub, v in values.items()}.get(key)
    raise KeyError(key)


def flat_key(key: str, sub) -> str:
    """The flat name of one entry of a dict-valued metric: ``seat_win_rate_seat2``,
    ``action_usage_organize``."""
    return f"{key}_seat{sub}" if isinstance(sub, int) else f"{key}_{str(sub).lower().replace(' ', '_')}"


def flat_label(key: str, sub) -> str:
    label = METRIC_BY_KEY[key].label
    return f"{label}, seat {sub}" if isinstance(sub, int) else f"{label}, {sub}"


def compute_all(d: MetricData) -> dict:
    """``{key: value}`` for every registered metric."""
    return {m.key: m.compute(d) for m in METRICS}


def flatten(values: dict) -> dict:
    """Dict-valued metrics spread into ``key_seatN`` / ``key_name`` entries (for tables and JSON)."""
    out = {}
    for key, value in values.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                out[flat_key(key, sub)] = v
        else:
            out[key] = value
    return out


def flat_labels(values: dict) -> dict:
    """``{flat key: label}`` for the entries :func:`flatten` makes of ``values``."""
    out = {}
    for key, value in values.items():
        if isinstance(value, dict):
            for sub in value:
                out[flat_key(key, sub)] = flat_label(key, sub)
        else:
            out[key] = METRIC_BY_KEY[key].label
    return out


def card_summary(result):
    """One row per card over the batch (polars DataFrame, most taken first):

    * ``pick_rate``: share of games in which the card was taken at least once;
    * ``mean_times``: mean times taken in those games;
    * ``mean_first_round`` / ``mean_first_fraction``: how early it is first
      taken (round, and share of the game's actions elapsed);
    * ``win_rate_when_taken``: mean share of its takers who won the game;
    * the mean of every other numeric per-card column a game reports through
      ``Game.card_stats`` (e.g. how many players contributed to a card).
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
            "first_round", "first_seat", "taker_won", "taker_win_share", "taker_score", "others_win_share",
            "taker_win_edge", "taker_score_edge", "taker_margin", "taker_soon_edge", "stat_rows"}
    taken = pl.col("times_taken") > 0
    # (output column, source column, counted only in games where the card was taken)
    means = [("mean_times", "times_taken", True)]
    means += [(alias, name, True) for name, alias in (("first_round", "mean_first_round"),
                                                       ("first_fraction", "mean_first_fraction"),
                                                       ("taker_win_share", "win_rate_when_taken"),
                                                       ("taker_win_edge", "taker_win_edge"),
                                                       ("taker_score_edge", "taker_score_edge"),
                                                       ("taker_margin", "taker_margin"),
                                                       ("taker_soon_edge", "taker_soon_edge"))
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


# -- one card's metrics in a paired comparison -----------------------------------
# Per game, each of these is one number (NaN where it does not apply: a card
# never taken has no first round); a paired comparison averages the games in
# which both arms have a value. Asked for as ``KEY:CARD`` (``card_times:Shell``).

@dataclass(frozen=True)
class CardMetric:
    """One per-card quantity, per game, from the cards table."""

    key: str
    label: str          # with {card}
    doc: str
    goal: int = 0
    margin: float | None = None


CARD_SERIES: dict[str, CardMetric] = {m.key: m for m in (
    CardMetric("card_use", "games taking {card}",
               "1 when the card was taken (loaded, contributed to, bought, played) at least once "
               "in the game, else 0; the mean is the share of games that take it, range [0, 1]",
               margin=0.05),
    CardMetric("card_times", "times {card} is taken per game",
               "``times_g[c]``, the times the card was taken in the game (0 when never), "
               "mean over games, range [0, inf)", margin=0.1),
    CardMetric("card_first_round", "round {card} is first taken",
               "the round in which the card was first taken, over the games that take it "
               "(NaN otherwise), range [1, inf)", margin=0.5),
    CardMetric("card_takers", "share of players taking {card}",
               "the share of the game's seats that took the card at least once, range [0, 1]",
               margin=0.05),
    CardMetric("card_win_when_taken", "win share of {card}'s takers",
               "the share of the card's takers who won (survived, at a cooperative table), over "
               "the games that take it (NaN otherwise), range [0, 1]", margin=0.05),
    # what the taker gains: each game's takers against the other seats of the
    # same game, so the table's own luck (a long game, a harsh draw) cancels
    # and what is left is the card's power (NaN where the card was not taken,
    # or every seat took it)
    CardMetric("card_taker_win", "{card}'s takers' win share over the other seats'",
               "the share of the card's takers who won minus the share of the other seats who won "
               "(at a cooperative table the survivors' winners), range [-1, 1]", margin=0.05),
    CardMetric("card_taker_score", "{card}'s takers' score over the other seats'",
               "the takers' mean final score minus the other seats' mean final score, range (-inf, inf)",
               margin=1.0),
    CardMetric("card_taker_margin", "{card}'s takers' margin over the best other seat",
               "per taker, its final score minus the highest final score of any other seat, mean over "
               "the takers, range (-inf, inf)", margin=1.0),
    # the same gain read soon after the take: what the card gives shows in
    # the next rounds, before the rest of the game adds its spread (written
    # when the batch asks for it: SimSpec.taker_horizon, Game.taker_horizon)
    CardMetric("card_taker_soon", "{card}'s taker's gain over the other seats in the rounds after taking it",
               "the first taker's score minus the other seats' mean score, ``Game.taker_horizon`` rounds "
               "after the round of the take (or at the end), less the same at the start of that round, "
               "range (-inf, inf)", margin=1.0),
    # what the take itself gave its taker, read from each game's first take
    # alone: what a card gives at once, before any later choice spreads the
    # scores (a game offers it when its takes can score at once:
    # Game.take_scores; written with card_taker_soon)
    CardMetric("card_taker_take", "{card}'s taker's gain over the other seats from the take itself",
               "the first taker's score minus the other seats' mean score just after the action that "
               "took the card, less the same just before it, range (-inf, inf)", margin=1.0),
    # what taking the card would give wherever it is offered, whoever takes
    # it: a bot that passes a weakened card where the loss bites leaves only
    # the takes where it costs nothing to the readings above (written with
    # card_taker_take; runner._offer_gains)
    CardMetric("card_taker_offer", "what taking {card} would give the seat on turn where it is offered",
               "per round in which a take of the card is legal, at the first such decision: the seat on "
               "turn's score minus the other seats' mean score after its best legal take of the card, less "
               "the same before it (read on a copy: whether or not anyone took it), mean over the game's "
               "offers (NaN when never offered), range (-inf, inf)", margin=1.0),
)}

#: card metric -> the cards table's column it reads (per game, NaN where absent)
_CARD_COLUMNS = {"card_first_round": "first_round", "card_win_when_taken": "taker_win_share",
                 "card_taker_win": "taker_win_edge", "card_taker_score": "taker_score_edge",
                 "card_taker_margin": "taker_margin", "card_taker_soon": "taker_soon_edge",
                 "card_taker_take": "taker_take_edge", "card_taker_offer": "taker_offer_edge"}
#: card metrics read in every game that has a value, taken or not
_UNTAKEN_READ = frozenset({"card_taker_offer"})


def is_card_key(key: str) -> bool:
    """Whether ``key`` names one card's metric (``card_times:Shell``)."""
    head, sep, card = key.partition(":")
    return bool(sep and card) and head in CARD_SERIES


def card_series(result, key: str) -> np.ndarray:
    """Per game (index order) the value of card metric ``key`` (``card_times:Shell``;
    definitions in :data:`CARD_SERIES`)."""
    import polars as pl
    head, _, card = key.partition(":")
    n = result.games.height
    fill = np.nan if head in _CARD_COLUMNS else 0.0
    out = np.full(n, fill)
    cards = result.cards
    if not n or not cards.height or "card" not in cards.columns:
        return out
    rows = cards.filter((pl.col("card") == card)
                        & ((pl.col("times_taken") > 0) | pl.lit(head in _UNTAKEN_READ)))
    if not rows.height:
        return out
    position = {idx: k for k, idx in enumerate(result.games["index"].to_list())}
    at = np.array([position[i] for i in rows["index"].to_list()])
    if head == "card_use":
        out[at] = 1.0
    elif head == "card_times":
        out[at] = rows["times_taken"].cast(pl.Float64).to_numpy()
    elif head == "card_takers":
        seats = result.games["players"].cast(pl.Float64).to_numpy()
        out[at] = rows["takers"].cast(pl.Float64).to_numpy() / seats[at]
    elif _CARD_COLUMNS[head] in rows.columns:   # (a table written before the column existed: NaN)
        out[at] = rows[_CARD_COLUMNS[head]].cast(pl.Float64).fill_null(np.nan).to_numpy()
    return out


def _score_looks(text) -> list[tuple[int, list[float]]]:
    """The games table's ``score_looks`` of one game: (round, every seat's score)."""
    out = []
    for part in (text or "").split(";"):
        if part:
            r, _, values = part.partition(":")
            out.append((int(r), [float(v) for v in values.split(",")]))
    return out


def paired_soon(a, b, card: str, card_b: str | None = None, horizon: int = 2):
    """``(x, y)``: per game (index order) what the seat that took ``card`` gained
    over the other seats in the ``horizon`` rounds from its take, in the old
    pool ``a`` and the edited pool ``b`` (``card_b``: its name there), for
    ``card_taker_soon`` in a paired comparison. The seat and the round are
    those of the take in ``a`` (in ``b`` where only ``b`` takes the card), and
    both pools are read for that seat, whether or not it takes the card in
    the other: a weaker card that the bots now pass by costs the seat that
    took it before its best move, and a stronger one taken where it was not
    gains the new taker, so the comparison is never only over the games
    whose bots still choose alike. Where the two games had already played
    differently before that round (``play_digests``, a digest of the actions
    played at each look: a rename that deals other games), that seat is no
    one in particular in the other game, and each pool reads its own first
    taker instead. From the games tables' ``score_looks``
    (every seat's score once per round, when the batch asked for them):
    the seat's score minus the other seats' mean at the first look
    ``horizon`` rounds after the take's round (the end when sooner), less
    the same at the last look before that round. NaN where neither pool
    takes the card; None when the tables hold no looks."""
    import polars as pl
    if "score_looks" not in a.games.columns or "score_looks" not in b.games.columns:
        return None
    n = a.games.height
    x, y = np.full(n, np.nan), np.full(n, np.nan)
    position = {idx: k for k, idx in enumerate(a.games["index"].to_list())}

    def takes(res, name):
        rows = res.cards.filter((pl.col("card") == name) & (pl.col("times_taken") > 0)) if res.cards.height else None
        if rows is None or not rows.height:
            return {}
        return {i: (s, r) for i, s, r in zip(rows["index"].to_list(), rows["first_seat"].to_list(),
                                                rows["first_round"].to_list())}

    ta, tb = takes(a, card), takes(b, card_b or card)
    looks_a, looks_b = a.games["score_looks"].to_list(), b.games["score_looks"].to_list()
    digests_a, digests_b = _digests(a), _digests(b)

    def gain(text, seat, rnd):
        looks = _score_looks(text)
        if not looks or len(looks[0][1]) < 2:
            return np.nan, None
        before = [j for j, (r, _) in enumerate(looks) if r < rnd] or [0]
        end = next(sc for r, sc in looks if r >= rnd + horizon)   # the end look always is
        return _seat_edge(end, seat) - _seat_edge(looks[before[-1]][1], seat), before[-1]

    for i in set(ta) | set(tb):
        k = position.get(i)
        if k is None or k >= b.games.height:
            continue
        seat, rnd = ta.get(i) or tb[i]
        x[k], at = gain(looks_a[k], seat, rnd)
        y[k], _ = gain(looks_b[k], seat, rnd)
        if at is not None and _parted(digests_a[k], digests_b[k], at):
            # the pools' games parted before the take (a rename that deals
            # other games): the seat that took it in one pool is no one in
            # particular in the other, so each pool reads its own first taker
            x[k] = gain(looks_a[k], *ta[i])[0] if i in ta else np.nan
            y[k] = gain(looks_b[k], *tb[i])[0] if i in tb else np.nan
    return x, y


def _digests(res) -> list:
    """The games table's ``play_digests`` split per game (None without the column)."""
    if "play_digests" not in res.games.columns:
        return [None] * res.games.height
    return [text.split(";") if text else None for text in res.games["play_digests"].to_list()]


def _parted(da, db, at: int) -> bool:
    """Whether two pools' games had played differently by look ``at`` (their
    digests of the actions played differ there; unknown counts as parted)."""
    return da is None or db is None or at >= len(da) or at >= len(db) or da[at] != db[at]


def _seat_edge(scores: list[float], seat: int) -> float:
    others = [v for i, v in enumerate(scores) if i != seat]
    return scores[seat] - sum(others) / len(others)


def card_label(key: str) -> str:
    head, _, card = key.partition(":")
    return CARD_SERIES[head].label.format(card=card)


# -- a number the game reports per game ------------------------------------------
#: ``stat:COLUMN`` is the mean over games of a column the game writes through
#: ``Game.game_stats`` (``cards_bought``, ``sets_laid``...); its meaning is the
#: game's, its goal and margin come from ``Game.metric_goals`` / ``Game.equivalence_margins``
STAT = "stat:"


def is_series_key(key: str) -> bool:
    """Whether ``key`` names a per-game series compared as a paired mean: a
    card's metric (``card_times:Shell``) or a game's own column (``stat:NAME``)."""
    return is_card_key(key) or (key.startswith(STAT) and len(key) > len(STAT))


def series(result, key: str) -> np.ndarray:
    """Per game (index order) the values of series ``key`` (NaN where it does not apply)."""
    if is_card_key(key):
        return card_series(result, key)
    import polars as pl
    column = key[len(STAT):]
    games = result.games.sort("index")
    if column not in games.columns or not games[column].dtype.is_numeric() and games[column].dtype != pl.Boolean:
        return np.full(games.height, np.nan)
    return games[column].cast(pl.Float64).to_numpy()


def series_label(key: str) -> str:
    if is_card_key(key):
        return card_label(key)
    column = key[len(STAT):]
    # a game's counters are often named n_THING (n_sales): the label says THING
    column = column[2:] if column.startswith("n_") and len(column) > 2 else column
    return column.replace("_", " ") + " (mean per game)"


def bot_summary(result) -> list[dict]:
    """One row per bot spec seated in the batch (a skill level such as
    ``skill:casual:greedy`` is its own bot), for reading a mixed table per
    level: ``bot``, ``seats`` (player-games), ``win_rate`` (share of its
    player-games among the winners; a shared win counts in full) and
    ``mean_score``."""
    import polars as pl
    players = result.players
    if not players.height or "bot" not in players.columns:
        return []
    table = (players.group_by("bot", maintain_order=True)
             .agg(pl.len().alias("seats"), pl.col("won").cast(pl.Float64).mean().alias("win_rate"),
                  pl.col("score").cast(pl.Float64).mean().alias("mean_score"))
             .sort("bot"))
    return table.to_dicts()
