"""The games a hunt has played, kept as the few numbers its questions read,
and each question's per-game values.

Games are played through the batch backends (:func:`workbench.sim.backends.iter_tasks`:
in this process, a process pool, or Dask) in two stages with their own master
seeds: *screen* games steer the search, *confirm* games, fresh seeds never
looked at while searching, decide a finding. Game ``i`` of an arm in a stage
is paired with game ``i`` of the baseline in that stage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from workbench.core.rng import derive_seed
from workbench.sim.backends import chunks, iter_tasks
from workbench.sim.runner import SimSpec

from .space import BASELINE, Arm

STAGES = ("screen", "confirm")


@dataclass
class GameRow:
    """What a hunt keeps of one game."""

    credit: list[float]                 # per seat: win credit (1/number of winners)
    timeout: bool
    roles: list[str | None]
    taker_edge: dict[str, float] = field(default_factory=dict)   # card -> takers' win edge
    score: list[float] = field(default_factory=list)             # per seat: final score
    taker_score: dict[str, float] = field(default_factory=dict)  # card -> takers' score edge


class Played:
    """Every game played so far: ``rows[stage][arm key][index]``."""

    def __init__(self, game_ref: str, players: int, base_bots: str, seed: int, *, variants=(), options=None,
                 max_actions: int = 20000):
        self.game_ref, self.players, self.base_bots = game_ref, players, base_bots
        self.seed, self.variants, self.options = seed, tuple(variants), dict(options or {})
        self.max_actions = max_actions
        self.rows: dict[str, dict[str, dict[int, GameRow]]] = {s: {} for s in STAGES}
        self.games = 0
        # the spread of the seats' final scores in the first baseline games: the
        # unit of the score questions, so one margin fits every game's scale
        # (None: no spread to measure by, and no score question is asked)
        self.score_scale: float | None = None

    def fix_score_scale(self) -> float | None:
        """Set :attr:`score_scale` from the screen baseline games played so far
        (once: later values stay comparable with the first)."""
        if self.score_scale is None:
            # by game index: the same spread however the games came back from the workers
            rows = self.rows["screen"].get(BASELINE, {})
            xs = [v for i in sorted(rows) for v in rows[i].score]
            sd = float(np.std(xs, ddof=1)) if len(xs) > 1 else 0.0
            self.score_scale = sd if sd > 1e-9 else None
        return self.score_scale

    def master_seed(self, stage: str) -> int:
        return derive_seed(self.seed, "hunt", stage)

    def spec(self, arm: Arm, stage: str, seat: int) -> SimSpec:
        """The batch spec of ``arm``'s games whose restricted seat is ``seat``."""
        return SimSpec(self.game_ref, games=1, players=self.players, bots=arm.seat_bots(self.base_bots, self.players, seat),
                       seed=self.master_seed(stage), variants=self.variants, options=self.options,
                       max_actions=self.max_actions, trace=False)

    def have(self, stage: str, arm: str) -> int:
        return len(self.rows[stage].get(arm, {}))

    def play(self, wanted: list[tuple[Arm, str, int]], *, backend: str, workers: int, scheduler=None) -> int:
        """Play, for each ``(arm, stage, n)``, that arm's games up to ``n`` in
        that stage (those not yet played); returns the games played."""
        tasks, owners = [], []
        for arm, stage, n in wanted:
            have = self.rows[stage].setdefault(arm.key, {})
            todo = [i for i in range(n) if i not in have]
            if not todo:
                continue
            by_seat: dict[int, list[int]] = {}
            for i in todo:
                by_seat.setdefault(i % self.players, []).append(i)
            for seat, indices in by_seat.items():
                d = self.spec(arm, stage, seat).to_dict()
                for part in chunks(indices, max(1, workers), max_size=16):
                    tasks.append((d, part))
                    owners.append((arm.key, stage))
        if not tasks:
            return 0
        played = 0
        for t, chunk in iter_tasks(tasks, backend=backend, workers=workers, scheduler=scheduler):
            arm_key, stage = owners[t]
            for i, row in _rows(chunk, self.players).items():
                self.rows[stage][arm_key][i] = row
                played += 1
        self.games += played
        return played


def _rows(chunk, players: int) -> dict[int, GameRow]:
    """A finished chunk's games as :class:`GameRow` objects by index."""
    g, p, c = chunk.games, chunk.players, chunk.cards
    out = {i: GameRow([0.0] * players, bool(t), [None] * players, score=[0.0] * players)
           for i, t in zip(g["index"], g["timeout"])}
    none = [None] * len(p["index"])
    for i, seat, credit, role, score in zip(p["index"], p["seat"], p["win_credit"], p.get("role", none),
                                            p.get("score", none)):
        out[i].credit[seat] = float(credit)
        out[i].roles[seat] = role
        out[i].score[seat] = float(score or 0.0)
    if c:
        blank = [None] * len(c["index"])
        for i, card, edge, score_edge in zip(c["index"], c["card"], c.get("taker_win_edge", blank),
                                             c.get("taker_score_edge", blank)):
            if _known(edge):
                out[i].taker_edge[card] = float(edge)
            if _known(score_edge):
                out[i].taker_score[card] = float(score_edge)
    return out


def _known(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def values(played: Played, stage: str, kind: str, arm: str, subject: str) -> np.ndarray:
    """The per-game values of one question in one stage (see :mod:`.space`)."""
    base = played.rows[stage].get(BASELINE, {})
    n = played.players
    scale = played.score_scale
    if kind in ("beats-field", "stalls", "ban-costs"):
        rows = played.rows[stage].get(arm, {})
        out = []
        for i in sorted(rows):   # by game index: sums in the same order however the games came back
            row = rows[i]
            b = base.get(i)
            if b is None:
                continue
            seat = i % n
            if kind == "beats-field":
                out.append(row.credit[seat] - b.credit[seat])
            elif kind == "ban-costs":
                # what the same seat scored in the paired game where it could take the card
                out.append((b.score[seat] - row.score[seat]) / scale if scale else 0.0)
            else:
                out.append(float(row.timeout) - float(b.timeout))
        return np.asarray(out, dtype=float)
    rows = [base[i] for i in sorted(base)]   # by game index, as above
    if kind == "seat-advantage":
        s = int(subject)
        return np.asarray([r.credit[s] - sum(r.credit) / n for r in rows], dtype=float)
    if kind == "role-advantage":
        out = []
        for r in rows:
            mine = [r.credit[s] for s in range(n) if r.roles[s] == subject]
            if mine:
                out.append(sum(mine) / len(mine) - sum(r.credit) / n)
        return np.asarray(out, dtype=float)
    if kind == "taker-wins":
        return np.asarray([r.taker_edge[subject] for r in rows if subject in r.taker_edge], dtype=float)
    if kind == "taker-scores":
        if not scale:
            return np.asarray([], dtype=float)
        return np.asarray([r.taker_score[subject] / scale for r in rows if subject in r.taker_score], dtype=float)
    if kind == "timeouts":
        return np.asarray([float(r.timeout) for r in rows], dtype=float)
    raise ValueError(f"unknown question kind {kind!r}")


def summary(x: np.ndarray, z: float, *, sd_floor: float = 0.0) -> dict:
    """Mean, standard error and the interval mean ± z·se of per-game values
    (``sd_floor``: the smallest spread assumed, so a few alike games are not
    taken as certainty)."""
    n = len(x)
    if not n:
        return {"n": 0, "mean": None, "se": None, "low": None, "high": None}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    se = max(sd, sd_floor) / math.sqrt(n)
    return {"n": n, "mean": mean, "se": se, "low": mean - z * se, "high": mean + z * se}


def t_interval(x: np.ndarray, level: float) -> dict:
    """The confirm stage's interval of the mean at ``level`` (two-sided), as
    every interval the workbench prints (:func:`workbench.sim.intervals.mean`):
    Wilson for a share of games (values 0 and 1: timeouts), Student's t
    otherwise; None bounds with too few games or no spread to bound, never an
    interval of width 0 from a handful of games."""
    from workbench.sim.intervals import mean
    iv = mean(x, level)
    n = len(x)
    return {"n": n, "mean": float(x.mean()) if n else None, "low": iv.low, "high": iv.high, "level": level,
            "method": iv.method}
