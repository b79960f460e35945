"""Fit a greedy bot's weights to a card pool by self-play, bounded in time.

:func:`tune` searches multipliers of the game's default weights
(``Game.default_weights``; each between a quarter and four times its default,
on a log scale) with Optuna's seeded TPE sampler, one trial at a time so the
search is the same on every machine. A trial plays ``games`` seeded games of
the pool:

* in a game whose table shares one fate (``Game.group_fate``) every seat plays
  the candidate, and the trial scores the share of games the table completes
  (a game the table loses together has no winner) plus a thousandth of the mean score as a
  tie-break;
* otherwise one seat plays the candidate against plain greedy bots, the seat
  rotated through every seat (the same number of games in each), and the trial
  scores that seat's win credit (a shared win counts its share).

The plain greedy bot is trial 0 (every multiplier 1), so the result is never
worse than the defaults on the tuning games. The search stops after
``trials`` trials or ``seconds`` of wall time, whichever comes first; the
result is cached by the pool's key (the caller's: ``compare --adapt`` uses the
pool version and the edits), the settings and the seed, in memory and, with a
``cache_dir``, as one JSON file per key written through the safety module, so
a second run on the same pool reuses it.

The tuned bot is the bot spec :attr:`Tuned.bot`
(``greedy:key=value;...``), usable wherever a bot is named.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: the range of each weight's multiplier (log-uniform)
LOW, HIGH = 0.25, 4.0

_MEMO: dict[str, "Tuned"] = {}


@dataclass
class Tuned:
    """A tuned bot: its weights (only those that moved), the self-play score of
    the best trial and of the plain greedy bot (trial 0) on the same games."""

    weights: dict[str, float]
    score: float
    baseline: float
    trials: int
    games: int
    players: int
    seconds: float
    key: str
    cached: bool = False
    history: list[float] = field(default_factory=list)

    @property
    def bot(self) -> str:
        """The bot spec that plays these weights (plain ``greedy`` when none moved)."""
        if not self.weights:
            return "greedy"
        return "greedy:" + ";".join(f"{k}={v:.6g}" for k, v in sorted(self.weights.items()))


def _defaults(game) -> dict[str, float]:
    from workbench.core.errors import WorkbenchError
    weights = getattr(game, "default_weights", None)
    if not weights:
        raise WorkbenchError(f"{game.name} gives no default bot weights to tune")
    return dict(weights)


def _spec(weights: dict[str, float]) -> str:
    return "greedy:" + ";".join(f"{k}={v:.6g}" for k, v in sorted(weights.items())) if weights else "greedy"


def self_play_score(game_ref: str, players: int, bot: str, games: int, seed: int, *, workers=None,
                    variants=(), options=None) -> float:
    """The self-play score of ``bot`` on ``games`` seeded games (see the module docstring)."""
    from workbench.sim import SimSpec, simulate
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_ref)
    base = dict(players=players, seed=seed, trace=False, variants=tuple(variants), options=dict(options or {}))
    if getattr(game, "group_fate", False):
        res = simulate(SimSpec(game_ref, games=games, bots=",".join([bot] * players), **base), workers=workers)
        done = res.games["completed"].cast(float).mean() or 0.0
        score = res.players["score"].mean() or 0.0
        return float(done) + float(score) / 1000
    per_seat = max(1, games // players)
    credit = 0.0
    for seat in range(players):
        bots = ",".join(bot if s == seat else "greedy" for s in range(players))
        res = simulate(SimSpec(game_ref, games=per_seat, bots=bots, **{**base, "seed": seed + seat}),
                       workers=workers)
        mine = res.players.filter(res.players["seat"] == seat)
        credit += float(mine["win_credit"].sum())
    return credit / (per_seat * players)


def cache_key(pool_key: str, players: int, trials: int, games: int, seed: int, keys, variants=(),
              options=None) -> str:
    text = json.dumps([pool_key, players, trials, games, seed, sorted(keys or []), list(variants),
                       sorted((options or {}).items())], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def tune(game_ref: str, *, players: int, pool_key: str, trials: int = 12, games: int = 24, seed: int = 0,
         seconds: float | None = 300.0, keys=None, workers=None, cache_dir: str | Path | None = None,
         variants=(), options=None) -> Tuned:
    """Tune the greedy bot's weights to the pool ``game_ref`` plays (a registry
    id or a pool reference) by self-play; ``keys`` the weights to move (default
    every weight the game gives a nonzero default)."""
    import optuna

    from workbench.core import storage
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_ref)
    defaults = _defaults(game)
    keys = sorted(keys or [k for k, v in defaults.items() if v])
    key = cache_key(pool_key, players, trials, games, seed, keys, variants, options)
    if key in _MEMO:
        return _MEMO[key]
    path = Path(cache_dir) / f"tuned-{key}.json" if cache_dir else None
    if path is not None and path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        out = Tuned(**{**data, "cached": True})
        _MEMO[key] = out
        return out
    start = time.perf_counter()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial({k: 1.0 for k in keys})      # trial 0: the plain greedy bot

    def objective(trial) -> float:
        factors = {k: trial.suggest_float(k, LOW, HIGH, log=True) for k in keys}
        weights = {k: defaults[k] * f for k, f in factors.items() if not math.isclose(f, 1.0)}
        return self_play_score(game_ref, players, _spec(weights), games, seed, workers=workers,
                               variants=variants, options=options)

    for _ in range(max(1, trials)):
        study.optimize(objective, n_trials=1)
        if seconds is not None and time.perf_counter() - start > seconds:
            break
    done = [t for t in study.trials if t.value is not None]
    baseline = done[0].value
    best = max(done, key=lambda t: (t.value, -t.number))
    weights = {k: defaults[k] * f for k, f in best.params.items() if not math.isclose(f, 1.0)}
    out = Tuned(weights=weights, score=float(best.value), baseline=float(baseline), trials=len(done), games=games,
                players=players, seconds=round(time.perf_counter() - start, 2), key=key,
                history=[float(t.value) for t in done])
    _MEMO[key] = out
    if path is not None:
        storage.make_folder(path.parent, "tuned bots")
        data = asdict(out)
        data.pop("cached")
        storage.write_text(path, json.dumps(data, indent=1, sort_keys=True), "tuned bot")
    return out
