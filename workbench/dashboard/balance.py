"""The Balance page: targets and variables in, an Optuna search with progress,
the proposal (edits, card-file diff, before/after on fresh seeds) out, and an
Apply / Undo pair that writes it through the shared tweak session.

:class:`BalanceModel` holds everything the page shows and runs the search
(:mod:`workbench.balance`) on a background thread; the page only draws it, so
the model is what the tests drive."""

from __future__ import annotations

import threading

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .background import BackgroundWork, ProgressPoll
from .escape import md

DEFAULT_TARGETS = "survival=0.55..0.8 @players=2..5\nlegacy_cap_share<=0.1 @players=2..5"
DEFAULT_VARY = "initiatives.*.cost\ninitiatives.*.order_spaces"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class BalanceModel(BackgroundWork, param.Parameterized):
    """A balance run's settings and results (see :mod:`workbench.balance`)."""

    game_id = param.String(default="meaning-made")
    targets = param.String(default=DEFAULT_TARGETS, doc="one target per line")
    vary = param.String(default=DEFAULT_VARY, doc="one vary pattern per line")
    trials = param.Integer(default=12, bounds=(1, 10_000))
    games_per_trial = param.Integer(default=8, bounds=(1, 100_000))
    fresh_games = param.Integer(default=16, bounds=(1, 100_000))
    seed = param.Integer(default=1, bounds=(0, None))
    workers = param.Integer(default=0, bounds=(0, 64), doc="pool processes (0 plays in this process)")
    study = param.String(default="", doc="SQLite file to keep (and resume) the study in; empty: in memory")
    allow_seed = param.Boolean(default=False)

    running = param.Boolean(default=False)
    done_games = param.Integer(default=0, doc="trials done (the progress bar counts trials)")
    total_games = param.Integer(default=0)
    message = param.String(default="")
    version = param.Integer(default=0, doc="bumped when new results arrive")

    def __init__(self, session=None, on_change=None, **params):
        super().__init__(**params)
        self._session = session
        self._on_change = on_change      # called after Apply / Undo (the Cards page reloads)
        self.result = None
        self.edits: list[dict] = []
        self.diff = ""
        self.rows: list[dict] = []
        self.applied = False

    def session(self):
        if self._session is None:
            from workbench.balance.search import open_session
            self._session = open_session(self.game_id)
        return self._session

    def spec(self):
        from pathlib import Path

        from workbench.balance.search import BalanceSpec
        from workbench.balance.targets import parse_target
        return BalanceSpec(self.game_id, [parse_target(t) for t in _lines(self.targets)], _lines(self.vary),
                           trials=self.trials, games_per_trial=self.games_per_trial, seed=self.seed,
                           allow_seed=self.allow_seed, workers=self.workers,
                           study_path=Path(self.study) if self.study.strip() else None)

    def run(self) -> None:
        """Search, then check the proposal on fresh seeds; errors become :attr:`message`."""
        from workbench.balance.report import card_diff, fresh_check, proposal_raw
        from workbench.balance.search import run_study
        self.running, self.done_games, self.total_games, self.message = True, 0, self.trials, ""
        try:
            spec = self.spec()
            if not spec.targets or not spec.vary:
                raise WorkbenchError("give at least one target and one vary pattern")
            session = self.session()

            def progress(done, total, best):
                self.done_games = done
                self.message = f"trial {done} of {total}" + (f", best loss {best:.3f}" if best is not None else "")

            self.result = run_study(spec, session=session, progress=progress)
            raw_after = proposal_raw(session, self.result.edits, self.result.variables)
            self.edits = self.result.edits
            self.diff = card_diff(session, raw_after)
            self.message = "checking the proposal on fresh seeds…"
            self.rows = fresh_check(spec, session, raw_after, games=self.fresh_games)
            self.applied = False
            met = sum(1 for r in self.rows if r["met_after"])
            self.message = (f"{len(self.result.trials)} trials; proposal: {len(self.edits)} edits; "
                            f"{met} of {len(self.rows)} targets met on fresh seeds")
        except WorkbenchError as exc:
            self.message = f"cannot run: {exc}"
        finally:
            self.running = False
            self.version += 1

    def start(self) -> threading.Thread | None:
        return self._start(self.run, "balance", "a balance search is already running")

    def apply(self) -> None:
        """Write the proposal into the card files through the tweak session."""
        from workbench.balance.report import apply_edits
        try:
            written = apply_edits(self.session(), self.edits)
            self.applied = bool(written)
            self.message = f"applied: wrote {', '.join(p.name for p in written)}" if written else "nothing to apply"
            if self._on_change:
                self._on_change()
        except WorkbenchError as exc:
            self.message = f"cannot apply: {exc}"
        self.version += 1

    def undo(self) -> None:
        from workbench.balance.report import undo_edits
        try:
            written = undo_edits(self.session(), self.edits)
            self.applied = False
            self.message = f"undone: wrote {', '.join(p.name for p in written)}" if written else "nothing to undo"
            if self._on_change:
                self._on_change()
        except WorkbenchError as exc:
            self.message = f"cannot undo: {exc}"
        self.version += 1

    def trials_table(self):
        import pandas as pd
        if self.result is None:
            return pd.DataFrame()
        return pd.DataFrame([{"trial": t["number"], "state": t["state"], "loss": t["loss"],
                              "miss": t["miss"], **t["metrics"]} for t in self.result.trials])

    def check_table(self):
        import pandas as pd
        return pd.DataFrame([{"target": r["target"], "players": r["players"],
                              "before": r["before"], "before CI": _ci(r, "before"),
                              "after": r["after"], "after CI": _ci(r, "after"),
                              "met": "yes" if r["met_after"] else "no"} for r in self.rows])


def _ci(row: dict, arm: str) -> str:
    lo, hi = row.get(f"{arm}_low"), row.get(f"{arm}_high")
    return "-" if lo is None else f"[{lo:.2f}, {hi:.2f}]"


def search_figure(model: BalanceModel):
    from bokeh.plotting import figure
    trials = [t for t in (model.result.trials if model.result else []) if t["state"] == "COMPLETE"]
    xs, ys = [t["number"] for t in trials], [t["loss"] for t in trials]
    best, running = [], None
    for y in ys:
        running = y if running is None else min(running, y)
        best.append(running)
    fig = figure(title="Search: loss per trial (0 = the cards as they are)", height=260,
                 sizing_mode="stretch_width", x_axis_label="trial", y_axis_label="loss", tools="save")
    fig.scatter(xs, ys, size=7, legend_label="trial")
    fig.step(xs, best, mode="after", line_width=2, color="firebrick", legend_label="best so far")
    return fig


class BalancePage(pn.viewable.Viewer):
    """Targets and variables, Run with progress, then the proposal with Apply / Undo."""

    def __init__(self, bench=None, model: BalanceModel | None = None, **params):
        super().__init__(**params)
        self.bench = bench
        if model is None:
            session = bench.tweak_session("meaning-made") if bench is not None else None
            model = BalanceModel(session=session, on_change=self._cards_changed)
        self.model = m = model
        self._targets = pn.widgets.TextAreaInput(label="Targets (one per line)", value=m.targets, height=90)
        self._vary = pn.widgets.TextAreaInput(label="Vary (one pattern per line)", value=m.vary, height=90)
        self._trials = pn.widgets.IntInput(label="Trials", value=m.trials, start=1)
        self._games = pn.widgets.IntInput(label="Games per trial and player count", value=m.games_per_trial, start=1)
        self._fresh = pn.widgets.IntInput(label="Games for the fresh check", value=m.fresh_games, start=1)
        self._seed = pn.widgets.IntInput(label="Seed", value=m.seed, start=0)
        self._workers = pn.widgets.IntInput(label="Worker processes (0 = here)", value=m.workers, start=0, end=64)
        self._study = pn.widgets.TextInput(label="Study file (SQLite; resumes)", value=m.study)
        self._allow = pn.widgets.Checkbox(label="Also vary seed values", value=m.allow_seed)
        self._run = pn.widgets.Button(label="Search", color="primary")
        self._apply = pn.widgets.Button(label="Apply proposal", disabled=True)
        self._undo = pn.widgets.Button(label="Undo", disabled=True)
        self._bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width")
        self._status = pn.pane.Markdown("")
        self._results = pn.Column(sizing_mode="stretch_width")
        self._run.on_click(self._on_run)
        self._apply.on_click(lambda e: self._guarded(self.model.apply))
        self._undo.on_click(lambda e: self._guarded(self.model.undo))
        self._poll = None

    def _read_only(self) -> bool:
        if getattr(self.bench, "read_only", False):
            self._status.object = "**Refused:** this dashboard is read-only (workbench serve --read-only)"
            return True
        return False

    def _guarded(self, action) -> None:
        if not self._read_only():
            action()
            self._show()

    def _cards_changed(self):
        if self.bench is not None:
            self.bench.cards_version += 1

    def _on_run(self, event=None):
        m = self.model
        if self._read_only():
            return
        try:
            m.param.update(targets=self._targets.value, vary=self._vary.value, trials=int(self._trials.value),
                           games_per_trial=int(self._games.value), fresh_games=int(self._fresh.value),
                           seed=int(self._seed.value), workers=int(self._workers.value),
                           study=self._study.value or "", allow_seed=bool(self._allow.value))
        except ValueError as exc:
            self._status.object = f"**Refused:** {md(exc)}"
            return
        if m.start() is None:
            self._status.object = md(m.message)
            return
        self._poll = ProgressPoll(m, self._bar, self._run, on_done=self._show, period=500,
                                  on_running=lambda: setattr(self._status, "object", md(m.message)))
        self._poll.start()

    def _show(self):
        m = self.model
        self._status.object = md(m.message)
        self._apply.disabled = not m.edits or m.applied
        self._undo.disabled = not m.applied
        if m.result is None:
            return
        edits = "\n".join(f"* {md(e['card'])} {md(e['field'])}: {md(e['old'])} → {md(e['new'])}"
                          for e in m.edits) or \
            "The cards as they are fit best: no edits."
        self._results.objects = [
            pn.pane.Bokeh(search_figure(m), sizing_mode="stretch_width"),
            "#### Proposal", pn.pane.Markdown(edits),
            pn.pane.Str(m.diff or "", styles={"font-family": "monospace"}),  # shown as typed, never as markup
            "#### Before and after, fresh seeds (95% intervals)",
            pn.widgets.Tabulator(m.check_table(), disabled=True, show_index=False, sizing_mode="stretch_width"),
            "#### Trials",
            pn.widgets.Tabulator(m.trials_table(), disabled=True, show_index=False, height=240,
                                 sizing_mode="stretch_width"),
        ]

    def __panel__(self):
        settings = pn.Column("### Balance", self._targets, self._vary, self._trials, self._games, self._fresh,
                             self._seed, self._workers, self._study, self._allow, self._run,
                             pn.Row(self._apply, self._undo), width=300)
        return pn.Row(settings, pn.Column(self._status, self._bar, self._results, sizing_mode="stretch_width"),
                      sizing_mode="stretch_width")
