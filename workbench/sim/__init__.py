"""Batch playtesting: many bot games, on all cores or a Dask cluster, as polars tables.

>>> from workbench.sim import SimSpec, simulate
>>> result = simulate(SimSpec("my-game", games=2000, players=4, bots="greedy"))
>>> result.metrics()["completion"]          # games with a winner
>>> result.games, result.players, result.cards   # one row per game / player / card per game

Game ``i`` is seeded ``derive_seed(spec.seed, "game", i)``, so the tables are
identical for any backend and worker count, and any game can be reopened with
:meth:`SimResult.game_config` (or ``workbench play GAME --seed <seed> --bots ...``).
Paired comparisons of two settings on the same seeds live in
:mod:`workbench.sim.compare` (all games, then one comparison) and
:mod:`workbench.sim.progressive` (looks as games finish, early stop); batches
streamed to disk (what ``workbench simulate`` runs) in :mod:`workbench.sim.sweep`;
the metrics in :mod:`workbench.sim.metrics`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .backends import default_workers, resolve_backend, run_backend
from .runner import SimSpec, game_config, play_one, resolve_game
from .tables import tables_from_records


@dataclass
class SimResult:
    """The tables of one batch (polars DataFrames sorted by game index)."""

    spec: SimSpec
    games: object            # pl.DataFrame, one row per game
    players: object          # pl.DataFrame, one row per player per game
    cards: object            # pl.DataFrame, one row per card per game
    elapsed: float = 0.0     # wall-clock seconds (not part of the results proper)
    backend: str = ""
    ideal_rounds: tuple[int, int] | None = None
    _metrics: dict | None = field(default=None, repr=False)
    _card_summary: object = field(default=None, repr=False)
    _metric_data: object = field(default=None, repr=False)

    def metric_data(self):
        """The batch as :class:`~workbench.sim.metrics.MetricData` (made once: a
        streamed sweep's card rows are only readable while its parts exist)."""
        if self._metric_data is None:
            from .metrics import MetricData
            self._metric_data = MetricData.from_result(self, self.ideal_rounds)
        return self._metric_data

    def metrics(self) -> dict:
        """Every registered metric, ``{key: value}`` (see :mod:`workbench.sim.metrics`)."""
        if self._metrics is None:
            from .metrics import compute_all
            self._metrics = compute_all(self.metric_data())
        return self._metrics

    def metrics_table(self):
        """The metrics as a two-column polars table (label, value)."""
        import polars as pl
        from .metrics import METRICS, flat_label
        from .verdicts import leading_first
        values = self.metrics()
        labels, numbers = [], []
        try:
            from .runner import resolve_game
            game = resolve_game(self.spec.game)
        except Exception:  # a hand-made table of an unknown game: the registry's order
            game = None
        # the game's leading metrics first (Game.leading_metrics)
        for m in leading_first(METRICS, game):
            v = values[m.key]
            if isinstance(v, dict):
                for sub, x in v.items():
                    labels.append(flat_label(m.key, sub))
                    numbers.append(x)
            else:
                labels.append(m.label)
                numbers.append(v)
        return pl.DataFrame({"metric": labels, "value": numbers}, schema={"metric": pl.Utf8, "value": pl.Float64})

    def role_summary(self) -> list[dict]:
        """Per role (e.g. a faction) played: player-games, wins, win rate with
        its 95 % interval and the fair rate (see :func:`workbench.sim.metrics.role_summary`);
        empty for a game without roles."""
        from .metrics import role_summary
        return role_summary(self.metric_data())

    def game_stats_summary(self) -> dict:
        """Mean of every numeric column the game adds through ``Game.game_stats``
        (e.g. the cards of some kind completed), ``{column: mean}``."""
        import polars as pl
        from .runner import GAME_COLUMNS
        out = {}
        for name, dtype in self.games.schema.items():
            if name not in GAME_COLUMNS and (dtype.is_numeric() or dtype == pl.Boolean):
                value = self.games[name].cast(pl.Float64).mean()
                out[name] = float(value) if value is not None else None
        return out

    def card_summary(self):
        """One row per card over the batch (see :func:`workbench.sim.metrics.card_summary`)."""
        if self._card_summary is None:
            from .metrics import card_summary
            self._card_summary = card_summary(self)
        return self._card_summary

    def game_config(self, index: int):
        """The config that replays game ``index`` (with the bots in ``spec.bots``)."""
        return game_config(self.spec, index)

    def write_parquet(self, path) -> list[str]:
        """Games to ``path``; players and cards beside it as ``<stem>.players.parquet``
        and ``<stem>.cards.parquet``. Returns the paths written."""
        from pathlib import Path
        path = Path(path)
        stem = path.name[:-len(".parquet")] if path.name.endswith(".parquet") else path.name
        out = [path, path.with_name(f"{stem}.players.parquet"), path.with_name(f"{stem}.cards.parquet")]
        import io

        from workbench.core import storage
        for table, target in zip((self.games, self.players, self.cards), out):
            buf = io.BytesIO()
            table.write_parquet(buf)
            storage.write_bytes(target, buf.getvalue(), "--out")
        return [str(p) for p in out]


def simulate(spec: SimSpec, *, backend: str | None = None, workers: int | None = None,
             scheduler: str | None = None, progress=None, ideal_rounds=None) -> SimResult:
    """Play ``spec.games`` games and return their tables.

    ``backend``: ``serial``, ``pool`` or ``dask`` (default: Dask when a
    ``scheduler`` is given, serial for ``workers=0``, else the pool).
    ``progress(k)`` is called as chunks of ``k`` games finish."""
    from workbench.core.bots import make_bots
    game = resolve_game(spec.game)  # fail fast, in this process, on a bad id
    first = game_config(spec, 0)
    game.new_initial_state(first)  # ... or bad players, variants or options
    make_bots(spec.bots, len(first.players))  # ... or a bad bot spec
    start = time.perf_counter()
    games, players, cards = run_backend(spec, backend=backend, workers=workers, scheduler=scheduler,
                                        progress=progress)
    elapsed = time.perf_counter() - start
    if ideal_rounds is None:
        ideal_rounds = game.ideal_rounds
    used = resolve_backend(backend, workers, scheduler, spec.games)
    return SimResult(spec, games, players, cards, elapsed, used, tuple(ideal_rounds) if ideal_rounds else None)


__all__ = ["SimSpec", "SimResult", "simulate", "play_one", "game_config", "resolve_game",
           "default_workers", "tables_from_records"]
