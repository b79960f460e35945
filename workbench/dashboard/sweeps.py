"""The Sweeps page: play a batch of bot games (optionally two settings on the
same seeds), watch its progress, and read the design metrics as plots:
endings, duration histogram, seat balance, faction (role) balance where
seats play factions, and card use, under a headline that fits the game (the
survival rate first where the table can lose together, then the spread of win
rates across seats). Games whose outcome flipped between
the two settings can be opened on the Play page with their bots; the games
played export as CSV or Parquet.

The batch itself is :func:`workbench.sim.simulate` and the paired comparison
:func:`workbench.sim.compare.compare_results`; this module only runs them off
the event loop and draws what they return."""

from __future__ import annotations

import io
import threading

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .background import BackgroundWork, ProgressPoll
from .escape import md
from .names import game_name
from .progress import ProgressLine


ARMS = ("A", "B")
ARM_COLOURS = {"A": "#4a7bd0", "B": "#e08a00"}


class SweepsModel(BackgroundWork, param.Parameterized):
    """Settings of one batch (A) and an optional second setting (B) played on
    the same seeds, the run's progress, and its results."""

    game_id = param.Selector(objects=[], doc="game id (or module:ATTR for a test game)")
    players = param.Integer(default=4, bounds=(1, 8))
    games = param.Integer(default=200, bounds=(1, 100_000))
    seed = param.Integer(default=1, bounds=(0, None))
    workers = param.Integer(default=0, bounds=(0, 64),
                            doc="0 plays in this process; more uses a process pool")
    bots_a = param.String(default="greedy")
    variants_a = param.ListSelector(default=[], objects=[])
    compare = param.Boolean(default=False, doc="also play setting B on the same seeds")
    bots_b = param.String(default="random")
    variants_b = param.ListSelector(default=[], objects=[])

    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    message = param.String(default="")

    def __init__(self, games: list[str] | None = None, **params):
        from .play import available_games
        games = games if games is not None else available_games()
        super().__init__(**params)
        self.param.game_id.objects = list(games)
        self.results: dict[str, object] = {}
        self.comparison = None
        self._thread: threading.Thread | None = None
        if games:
            self.choose_game(params.get("game_id") or games[0])

    def _game(self):
        from workbench.sim import resolve_game
        return resolve_game(self.game_id)

    def choose_game(self, game_id: str) -> None:
        self.game_id = game_id
        game = self._game()
        self.param.players.bounds = (game.min_players, game.max_players)
        self.players = game.default_players
        for name in ("variants_a", "variants_b"):
            self.param[name].objects = list(game.variants)
            setattr(self, name, [])

    # -- running ---------------------------------------------------------------
    def spec(self, arm: str = "A"):
        from workbench.sim import SimSpec
        bots = self.bots_a if arm == "A" else self.bots_b
        variants = self.variants_a if arm == "A" else self.variants_b
        return SimSpec(self.game_id, games=self.games, players=self.players, bots=bots,
                       seed=self.seed, variants=tuple(variants))

    def run(self) -> None:
        """Play the batch (both arms when comparing) here, blocking; errors
        become :attr:`message`, never an exception."""
        from workbench.sim import simulate
        from workbench.sim.compare import compare_results
        arms = ARMS if self.compare else ARMS[:1]
        self.running, self.done_games, self.total_games = True, 0, self.games * len(arms)
        self.message = ""
        try:
            results = {}
            for arm in arms:
                results[arm] = simulate(self.spec(arm), workers=self.workers, progress=self._progress)
            self.comparison = compare_results(results["A"], results["B"]) if self.compare else None
            self.results = results
            seconds = sum(r.elapsed for r in results.values())
            self.message = f"played {self.total_games} games in {seconds:.1f} s"
        except WorkbenchError as exc:
            self.message = f"cannot run: {exc}"
        finally:
            self.running = False

    def start(self) -> threading.Thread | None:
        """Run the batch on a background thread so the page stays responsive."""
        return self._start(self.run, "sweep", "a batch is already running")

    # -- results as tables -----------------------------------------------------------
    def metrics_table(self):
        """polars: metric and value per arm (with the paired difference and its
        95% interval when comparing)."""
        import polars as pl
        if self.comparison is not None:
            return self.comparison.table().rename({"a": "A", "b": "B"})
        if "A" in self.results:
            return self.results["A"].metrics_table().rename({"value": "A"})
        return pl.DataFrame()

    def endings(self):
        """polars: arm, ending, games, share."""
        import polars as pl
        frames = []
        for arm, res in self.results.items():
            n = res.games.height
            frames.append(res.games.group_by("ending").len("games").sort("ending")
                          .with_columns(pl.lit(arm).alias("arm"), (pl.col("games") / n).alias("share")))
        return pl.concat(frames).select("arm", "ending", "games", "share") if frames else pl.DataFrame()

    def survival(self) -> dict[str, float]:
        """Share of games each arm ended with a winner: the ``completion`` metric
        (a cooperative game's survival rate)."""
        return {arm: res.metrics()["completion"] for arm, res in self.results.items()}

    def group_fate(self) -> bool:
        """Whether the table can lose together, as the game declares it
        (``Game.group_fate``); never guessed from the games played, so the
        headline does not change kind when the bots change."""
        return bool(getattr(self._game(), "group_fate", False))

    def completion_label(self) -> str:
        """What the game calls its completion rate ("survival rate")."""
        return str(getattr(self._game(), "completion_label", "games with a winner"))

    def headline(self) -> str:
        """The one figure a designer reads first. Every game: the spread of win
        rates across seats (largest minus smallest ``seat_win_rate``, the metric
        the Balance view reads). A game whose table can lose together leads with
        its completion rate under the game's own name for it (survival rate)."""
        from .formats import sig3
        if not self.results:
            return ""
        balance = self.seat_balance()
        parts = []
        for arm in self.results:
            rates = balance.filter(balance["arm"] == arm)["win_rate"] if balance.height else []
            parts.append(f"{arm} {sig3(rates.max() - rates.min())}" if len(rates) else f"{arm} —")
        spread = "Win-rate spread across seats (0 is even): " + ", ".join(parts)
        if self.group_fate():
            rates = ", ".join(f"{arm} {v:.1%}" for arm, v in self.survival().items())
            return f"{self.completion_label().capitalize()}: {rates}. {spread}"
        return spread

    def games_table(self):
        """polars: every game played, with its setting in ``arm``; nested
        columns become text so CSV can hold them."""
        import polars as pl
        frames = [res.games.with_columns(pl.lit(arm).alias("arm")) for arm, res in self.results.items()]
        if not frames:
            return pl.DataFrame()
        table = pl.concat(frames, how="diagonal_relaxed")
        nested = [c for c, t in table.schema.items() if t.is_nested()]
        table = table.with_columns([pl.col(c).cast(pl.Utf8, strict=False) if not table.schema[c].is_nested()
                                    else pl.col(c).map_elements(str, return_dtype=pl.Utf8) for c in nested])
        return table.select(["arm"] + [c for c in table.columns if c != "arm"])

    def export_bytes(self, suffix: str = ".csv") -> bytes:
        """The games played as CSV or Parquet bytes, for a browser download."""
        import io
        table = self.games_table()
        buf = io.BytesIO()
        if suffix == ".parquet":
            table.write_parquet(buf)
        else:
            table.write_csv(buf)
        return buf.getvalue()

    def durations(self):
        """polars: arm, turns, games (the duration histogram)."""
        import polars as pl
        frames = [res.games.group_by("turns").len("games").sort("turns")
                  .with_columns(pl.lit(arm).alias("arm")) for arm, res in self.results.items()]
        return pl.concat(frames).select("arm", "turns", "games") if frames else pl.DataFrame()

    def seat_balance(self):
        """polars: arm, seat (1-based), win_rate: the ``seat_win_rate`` metric of
        :mod:`workbench.sim.metrics` (the same number the Balance view reads; a
        shared win counts in full for every winner)."""
        import polars as pl
        rows = [{"arm": arm, "seat": seat, "win_rate": rate}
                for arm, res in self.results.items()
                for seat, rate in (res.metrics().get("seat_win_rate") or {}).items()]
        return (pl.DataFrame(rows, schema={"arm": pl.Utf8, "seat": pl.Int64, "win_rate": pl.Float64})
                if rows else pl.DataFrame())

    def role_balance(self):
        """polars: arm, role, win_rate: the ``role_win_rate`` metric (each
        role's win rate over the games it was dealt in); empty for a
        game whose seats play no roles."""
        import polars as pl
        rows = [{"arm": arm, "role": role, "win_rate": rate}
                for arm, res in self.results.items()
                for role, rate in (res.metrics().get("role_win_rate") or {}).items()]
        return (pl.DataFrame(rows, schema={"arm": pl.Utf8, "role": pl.Utf8, "win_rate": pl.Float64})
                if rows else pl.DataFrame())

    def card_use(self, top: int = 25):
        """polars: arm, card, pick_rate for the most picked cards of arm A."""
        import polars as pl
        if not self.results:
            return pl.DataFrame()
        frames = []
        for arm, res in self.results.items():
            summary = res.card_summary()
            if summary.height:
                frames.append(summary.select("card", "pick_rate").with_columns(pl.lit(arm).alias("arm")))
        if not frames:
            return pl.DataFrame()
        table = pl.concat(frames)
        order = (table.filter(pl.col("arm") == "A").sort(["pick_rate", "card"], descending=[True, False])
                 .head(top)["card"].to_list())
        return table.filter(pl.col("card").is_in(order)).select("arm", "card", "pick_rate"), order

    def flipped(self) -> list[dict]:
        return list(self.comparison.flipped) if self.comparison is not None else []

    def flipped_match(self, row: int, arm: str = "A") -> dict:
        """The flipped game ``row`` as played in setting ``arm``, in the
        ``Match.to_dict`` shape the Play page opens (replayed from its config
        and bots with the same streams as the batch). Its seats keep the
        setting's bots, so the Play page goes on with the same players."""
        from workbench.core.bots import make_bots
        from workbench.core.game import GameConfig
        from workbench.core.play import play_game
        flip = self.flipped()[row]
        key = arm.lower()
        game = self._game()
        config = GameConfig.from_dict(flip[f"config_{key}"])
        _, log = play_game(game, config, make_bots(flip[f"bots_{key}"], len(config.players)))
        from .play import seats_from_bots
        return {"game": game.id, "config": config.to_dict(), "actions": log, "cursor": 0,
                "seats": seats_from_bots(flip[f"bots_{key}"], len(config.players))}


# -- drawing --------------------------------------------------------------------------

def _bar(title: str, categories: list[str], series: dict[str, list[float]], y_label: str,
         horizontal: bool = False):
    """Grouped bars, one group per category, one bar per arm."""
    from bokeh.models import ColumnDataSource, FactorRange, HoverTool
    from bokeh.plotting import figure
    single = len(series) == 1
    # one setting: plain categories; two: a (category, setting) pair per bar
    factors = [c if single else (c, arm) for c in categories for arm in series]
    values = [series[arm][i] for i, _ in enumerate(categories) for arm in series]
    colours = [ARM_COLOURS[arm] for _ in categories for arm in series]
    source = ColumnDataSource({"x": factors, "v": values, "colour": colours,
                               "label": [f if single else f"{f[0]} ({f[1]})" for f in factors]})
    if horizontal:
        fig = figure(y_range=FactorRange(*reversed(factors)), title=title,
                     height=max(250, 22 * len(factors) + 60), sizing_mode="stretch_width",
                     toolbar_location=None)
        fig.hbar(y="x", right="v", height=0.8, color="colour", source=source)
        fig.xaxis.axis_label = y_label
    else:
        fig = figure(x_range=FactorRange(*factors), title=title, height=280,
                     sizing_mode="stretch_width", toolbar_location=None)
        fig.vbar(x="x", top="v", width=0.8, color="colour", source=source)
        fig.yaxis.axis_label = y_label
        fig.y_range.start = 0
    fig.add_tools(HoverTool(tooltips=[("", "@label"), (y_label, "@v{0.000}")]))
    return fig


def survival_figure(model: SweepsModel):
    """The endings as shares of games (how games end; where the table can lose
    together, the title carries the survival rate)."""
    endings = model.endings()
    names = sorted(set(endings["ending"].to_list()))
    series = {arm: [] for arm in model.results}
    for arm in series:
        sub = dict(endings.filter(endings["arm"] == arm).select("ending", "share").rows())
        series[arm] = [sub.get(e, 0.0) for e in names]
    if model.group_fate():
        rates = ", ".join(f"{arm} {v:.1%}" for arm, v in model.survival().items())
        title = f"Endings ({model.completion_label()}: {rates})"
    else:
        title = "Endings (share of games)"
    return _bar(title, names, series, "share of games")


def duration_figure(model: SweepsModel):
    from bokeh.models import ColumnDataSource, HoverTool
    from bokeh.plotting import figure
    fig = figure(title="Duration (rounds played)", height=280, sizing_mode="stretch_width",
                 toolbar_location=None)
    table = model.durations()
    offset = {"A": -0.2, "B": 0.2} if len(model.results) > 1 else {"A": 0.0}
    for arm in model.results:
        sub = table.filter(table["arm"] == arm)
        source = ColumnDataSource({"x": [t + offset[arm] for t in sub["turns"].to_list()],
                                   "turns": sub["turns"].to_list(), "games": sub["games"].to_list()})
        fig.vbar(x="x", top="games", width=0.4 if len(model.results) > 1 else 0.8,
                 color=ARM_COLOURS[arm], legend_label=arm, source=source)
    fig.add_tools(HoverTool(tooltips=[("rounds", "@turns"), ("games", "@games")]))
    fig.xaxis.axis_label, fig.yaxis.axis_label = "rounds", "games"
    fig.y_range.start = 0
    return fig


def seat_figure(model: SweepsModel):
    table = model.seat_balance()
    seats = sorted(set(table["seat"].to_list()))
    series = {arm: [dict(table.filter(table["arm"] == arm).select("seat", "win_rate").rows()).get(s, 0.0)
                    for s in seats] for arm in model.results}
    return _bar("Seat balance (win rate by seat)", [f"seat {s}" for s in seats], series, "win rate")


def role_figure(model: SweepsModel):
    """Win rate by role (faction), or None for a game without roles."""
    table = model.role_balance()
    if not table.height:
        return None
    label = model._game().role_label or "role"
    roles = sorted(set(table["role"].to_list()))
    series = {arm: [dict(table.filter(table["arm"] == arm).select("role", "win_rate").rows()).get(r, 0.0)
                    for r in roles] for arm in model.results}
    return _bar(f"{label.capitalize()} balance (win rate by {label}, over the games it was dealt in)",
                roles, series, "win rate", horizontal=True)


def card_figure(model: SweepsModel):
    out = model.card_use()
    if not isinstance(out, tuple):
        return pn.pane.Markdown("*This game records no card use.*")
    table, order = out
    series = {arm: [dict(table.filter(table["arm"] == arm).select("card", "pick_rate").rows()).get(c, 0.0)
                    for c in order] for arm in model.results}
    return _bar("Card use (share of games the card was taken)", order, series, "pick rate",
                horizontal=True)


class SweepsPage(pn.viewable.Viewer):
    """Settings, a Run button with a progress bar, then the plots and tables."""

    def __init__(self, bench=None, model: SweepsModel | None = None, **params):
        super().__init__(**params)
        self.bench = bench
        self.model = m = model or SweepsModel()
        # every input stretches to the settings column (a fixed default width
        # overflowed it once results widened the page)
        fit = {"sizing_mode": "stretch_width"}
        self._game = pn.widgets.Select(label="Game", options=m.param.game_id.objects, value=m.game_id,
                                       css_classes=["sweeps-game"], **fit)
        self._players = pn.widgets.IntInput(label="Players", value=m.players, **fit)
        self._games = pn.widgets.IntInput(label="Games", value=m.games, start=1, end=100_000, **fit)
        self._seed = pn.widgets.IntInput(label="Master seed", value=m.seed, start=0, **fit)
        from workbench.sim.backends import default_workers as cores
        # no more processes than cores from the page (the command line has --many-workers)
        self._workers = pn.widgets.IntInput(label="Worker processes (0 = here)", value=min(m.workers, cores()),
                                            start=0, end=min(64, cores()), **fit)
        self._bots_a = pn.widgets.TextInput(label="Bots, setting A", value=m.bots_a, **fit)
        self._var_a = pn.widgets.MultiChoice(label="Variants, setting A",
                                             options=list(m.param.variants_a.objects), **fit)
        self._compare = pn.widgets.Checkbox(label="Compare with setting B (same seeds)", value=m.compare, **fit)
        self._bots_b = pn.widgets.TextInput(label="Bots, setting B", value=m.bots_b, **fit)
        self._var_b = pn.widgets.MultiChoice(label="Variants, setting B",
                                             options=list(m.param.variants_b.objects), **fit)
        self._run = pn.widgets.Button(label="Run batch", color="primary", **fit)
        self._headline = pn.pane.Markdown("", css_classes=["sweeps-headline"])
        self._export = pn.widgets.FileDownload(callback=lambda: io.BytesIO(m.export_bytes(".csv")),
                                               filename="games.csv", label="Export games (CSV)",
                                               visible=False, width=180)
        self._export_pq = pn.widgets.FileDownload(callback=lambda: io.BytesIO(m.export_bytes(".parquet")),
                                                  filename="games.parquet", label="Export games (Parquet)",
                                                  visible=False, width=200)
        self._bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width")
        self._status = pn.pane.Markdown("", css_classes=["sweeps-status"])
        self._doing = ProgressLine("sweeps")
        self._plots = pn.Column(sizing_mode="stretch_width")
        self._flipped = pn.widgets.Tabulator(pd_empty(), disabled=True, selectable=1, height=220,
                                             sizing_mode="stretch_width", show_index=False)
        self._open_a = pn.widgets.Button(label="Open selected game (A) in Play", disabled=True)
        self._open_b = pn.widgets.Button(label="Open selected game (B) in Play", disabled=True)
        self._game.param.watch(self._on_game, "value")
        self._run.on_click(self._on_run)
        # bound coroutine methods: Panel awaits them (a lambda's coroutine would never run)
        self._open_a.on_click(self._open_in_a)
        self._open_b.on_click(self._open_in_b)
        self._flipped.param.watch(self._on_select, "selection")
        self._poll = None
        self._shown_results = None  # the batch the plots and tables show (each run makes a new one)
        from .people import PeopleBesideBots
        self.people = PeopleBesideBots(lambda: self._game.value, lambda: self._bots_a.value,
                                       lambda: self._games.value)

    async def _on_game(self, event):
        # the first time, a game's package is imported and its cards read: seconds
        def choose():
            self.model.choose_game(event.new)
            self._players.value = self.model.players
            self._var_a.options = self._var_b.options = list(self.model.param.variants_a.objects)
        await self._doing.run(f"Loading {game_name(event.new)}: its seats, bots and variants…", choose,
                              disable=(self._game, self._run))

    def _on_run(self, event=None):
        m = self.model
        if getattr(self.bench, "read_only", False):
            self._status.object = "**Refused:** this dashboard is read-only (workbench serve --read-only)"
            return
        try:
            m.param.update(players=int(self._players.value), games=int(self._games.value),
                           seed=int(self._seed.value), workers=int(self._workers.value),
                           bots_a=self._bots_a.value, variants_a=list(self._var_a.value),
                           compare=bool(self._compare.value), bots_b=self._bots_b.value,
                           variants_b=list(self._var_b.value))
        except ValueError as exc:
            self._status.object = f"**Refused:** {md(exc)}"
            return
        if m.start() is None:
            self._status.object = md(m.message)
            return
        self._status.object = ""
        self._show_running()
        # the batch runs on a thread; the poll, on the event loop, shows its progress
        self._poll = ProgressPoll(m, self._bar, self._run, on_done=self._show, on_running=self._show_running)
        self._poll.start()

    def _show_running(self):
        m = self.model
        self._doing.show(f"Playing {game_name(m.game_id)} with the bots of setting "
                         f"{'A and B' if m.compare else 'A'}: {m.done_games} of "
                         f"{m.total_games or m.games * (2 if m.compare else 1)} games…")

    def _show(self):
        m = self.model
        self._doing.hide()
        self._status.object = md(m.message)
        if not m.results or self._shown_results is m.results:
            return
        self._shown_results = m.results
        from .formats import paired_table, seed_text, value_table
        raw = m.metrics_table()
        metrics = paired_table(raw, "A", "B") if m.comparison is not None else value_table(raw)
        self._headline.object = f"### {m.headline()}"
        self._export.visible = self._export_pq.visible = True
        self._plots.objects = [
            pn.Row(_pane(survival_figure(m)), _pane(duration_figure(m))),
            pn.Row(_pane(seat_figure(m)), _pane(card_figure(m))),
            *([pn.Row(_pane(roles))] if (roles := role_figure(m)) is not None else []),
            "#### Design metrics",
            pn.widgets.Tabulator(metrics, disabled=True, show_index=False, sizing_mode="stretch_width",
                                 layout="fit_data_stretch", css_classes=["sweeps-metrics"]),
        ]
        flips = m.flipped()
        import pandas as pd
        self._flipped.value = pd.DataFrame([{
            "game": f["index"], "seed": seed_text(f["seed"]),
            "A ending": f["a"]["ending"], "A winners": ", ".join(f["a"]["winners"]),
            "B ending": f["b"]["ending"], "B winners": ", ".join(f["b"]["winners"])} for f in flips],
            columns=FLIPPED_COLUMNS)

    def _on_select(self, event):
        ok = bool(event.new) and self.bench is not None
        self._open_a.disabled = self._open_b.disabled = not ok

    async def _open_in_a(self, event=None):
        await self._open("A")

    async def _open_in_b(self, event=None):
        await self._open("B")

    async def _open(self, arm: str):
        if not self._flipped.selection or self.bench is None:
            return
        row = self._flipped.selection[0]
        try:
            # the game is played again from its seed with its setting's bots
            await self._doing.run(f"Replaying that game as setting {arm} played it…",
                                  lambda match: self.bench.open_in_play(match),
                                  off_loop=lambda: self.model.flipped_match(row, arm),
                                  disable=(self._open_a, self._open_b))
        except WorkbenchError as exc:
            self._status.object = f"**Cannot open:** {md(exc)}"

    def __panel__(self):
        settings = pn.Column("### Batch", self._game, self._players, self._games, self._seed,
                             self._workers, self._bots_a, self._var_a, self._compare, self._bots_b,
                             self._var_b, self._run, width=290, css_classes=["sweeps-settings"])
        flipped = pn.Column("#### Games whose outcome flipped between A and B", self._flipped,
                            pn.Row(self._open_a, self._open_b), sizing_mode="stretch_width")
        results = pn.Column(self._doing.pane, self._status, self._bar, self._headline, pn.Row(self._export, self._export_pq),
                            self._plots, flipped, self.people, sizing_mode="stretch_width")
        return pn.Row(settings, results, sizing_mode="stretch_width")


def _pane(obj):
    return obj if isinstance(obj, pn.viewable.Viewable) else pn.pane.Bokeh(obj, sizing_mode="stretch_width")


#: the flipped-games table's columns, empty or not: a Tabulator whose columns change
#: while it is still being built in the browser throws there (Tabulator's setColumns)
FLIPPED_COLUMNS = ["game", "seed", "A ending", "A winners", "B ending", "B winners"]


def pd_empty():
    import pandas as pd
    return pd.DataFrame(columns=FLIPPED_COLUMNS)
