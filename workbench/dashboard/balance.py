"""The Balance page: a game (any the balance search covers), targets and
variables in, an Optuna search with progress, the proposal (edits, card-file
diff, before/after on fresh seeds) out, and an Apply / Undo pair that writes it
through the game's shared live pool.

Choosing a game fills in its targets and variables as docs/balancing.md runs
them; the session is opened as ``workbench balance`` opens it
(:func:`workbench.balance.search.open_session`) and, in the dashboard, it is
the same live pool the Cards and Graph pages show (:class:`~.pool.LivePool`),
so an applied proposal shows there too, and can be undone here or edit by
edit on the Cards page.

The bots are any bot list, a mixed table of skill levels included
(``skill:casual,skill:casual,greedy,greedy``); every trial and the fresh check
play it, and the fresh check's per-skill rows (each level's win rate and mean
score before and after the proposal, :func:`workbench.balance.report.by_skill`)
are shown under its table, as ``workbench balance`` prints them.

:class:`BalanceModel` holds everything the page shows and runs the search
(:mod:`workbench.balance`) on a background thread; the page only draws it, so
the model is what the tests drive. The settings widgets are bound to the
model's params (``from_param``).

Below it, the Hunt section (:mod:`.hunt`) looks for what nobody asked:
broken strategies, seat advantages, stalls."""

from __future__ import annotations

import threading

import panel as pn
import param

from workbench.core.errors import WorkbenchError
from workbench.balance.verdict import MIN_FRESH_GAMES

from .background import BackgroundWork, ProgressPoll
from .escape import md
from .names import game_name
from .progress import ProgressLine
from .pool import live

#: how the page's advice names the settings it changes: its own fields, never
#: the command line's options (:func:`workbench.balance.verdict.judge`)
PAGE_NAMES = {"trials": "*Trials* {n}", "fresh": "*Games for the fresh check* {n}",
              "per_trial": "*Games per trial and player count* {n}",
              "vary": "a wider range in *Vary*", "margin": "*Margin inside each band*"}

def balance_games() -> list[str]:
    """The games the balance search covers (those declaring ``Game.balance``)."""
    from workbench.core.registry import providing
    return providing("balance")


def game_defaults(game_id: str) -> dict:
    """A game's starting point, as its ``Game.balance`` declares it (the targets,
    variables and sizes of docs/balancing.md's commands), as the page's params."""
    from workbench.core.registry import get_game
    b = get_game(game_id).balance or {}
    sizes = {k: int(b[k]) for k in ("trials", "games_per_trial", "fresh_games") if k in b}
    # a game's quick command-line size may sit under the verdict's minimum; the
    # page starts where Apply can be enabled (a designer may still lower it,
    # and the verdict then says why it cannot tell)
    if "fresh_games" in sizes:
        sizes["fresh_games"] = max(sizes["fresh_games"], MIN_FRESH_GAMES)
    return dict(targets="\n".join(b.get("targets", ())), vary="\n".join(b.get("vary", ())), **sizes)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class BalanceModel(BackgroundWork, param.Parameterized):
    """A balance run's settings and results (see :mod:`workbench.balance`)."""

    game_id = param.Selector(default=None, objects=[],
                             doc="the game balanced; choosing one fills in its targets and variables")
    targets = param.String(default="", doc="one target per line")
    vary = param.String(default="", doc="one vary pattern per line")
    trials = param.Integer(default=16, bounds=(1, 10_000))
    games_per_trial = param.Integer(default=10, bounds=(1, 100_000))
    # the verdict's minimum (workbench.balance.verdict), so Apply can be enabled with defaults
    fresh_games = param.Integer(default=MIN_FRESH_GAMES, bounds=(1, 100_000))
    seed = param.Integer(default=1, bounds=(0, None))
    bots = param.String(default="greedy", doc="the bots of every trial and of the fresh check, one per seat "
                                              "or one for all (a mix of skill levels: "
                                              "'skill:casual,skill:casual,greedy,greedy')")
    workers = param.Integer(default=0, bounds=(0, 64), doc="pool processes (0 plays in this process)")
    study = param.String(default="", doc="SQLite file to keep (and resume) the study in; empty: in memory")
    allow_seed = param.Boolean(default=False)
    margin = param.Number(default=0.0, bounds=(0.0, 0.99),
                          doc="aim this far inside every band, so the proposal does not land on the line")

    running = param.Boolean(default=False)
    done_games = param.Integer(default=0, doc="trials done (the progress bar counts trials)")
    total_games = param.Integer(default=0)
    message = param.String(default="")
    applied = param.Boolean(default=False, doc="the proposal is written to the card files")

    def __init__(self, session=None, open_pool=None, **params):
        """``session``: the pool to balance (its game becomes :attr:`game_id`);
        ``open_pool(game_id)``: where another game's live pool comes from (the
        dashboard's shared pools), else it is opened here like ``workbench balance``."""
        if session is not None:
            params.setdefault("game_id", session.game_id)
        self._open_pool = open_pool
        self._pools: dict[str, object] = {}
        if session is not None:
            self._pools[session.game_id] = live(session)
        games = balance_games()
        type(self).param.game_id.objects = games
        params.setdefault("game_id", games[0] if games else None)
        # the game's own targets, variables and sizes, where not given
        super().__init__(**{**game_defaults(params["game_id"]), **params})
        self._clear()

    def _clear(self) -> None:
        self.result = None
        self.edits: list[dict] = []
        self.diff = ""
        self.rows: list[dict] = []
        self.verdict: dict | None = None
        self.applied = False

    @param.depends("game_id", watch=True)
    def _defaults(self) -> None:
        """A game chosen: its own targets, variables and sizes; no proposal yet."""
        self._clear()
        self.param.update(message="", **game_defaults(self.game_id))

    def session(self):
        """The live pool of :attr:`game_id`."""
        game = self.game_id
        if game not in self._pools:
            if self._open_pool is not None:
                self._pools[game] = self._open_pool(game)
            else:
                from workbench.balance.search import open_session
                self._pools[game] = live(open_session(game))
        return self._pools[game]

    def spec(self):
        from pathlib import Path

        from workbench.balance.search import BalanceSpec
        from workbench.balance.targets import parse_target
        return BalanceSpec(self.game_id, [parse_target(t) for t in _lines(self.targets)], _lines(self.vary),
                           trials=self.trials, games_per_trial=self.games_per_trial, seed=self.seed,
                           bots=(self.bots or "").strip() or "greedy", allow_seed=self.allow_seed, margin=self.margin, workers=self.workers,
                           study_path=Path(self.study) if self.study.strip() else None)

    def run(self) -> None:
        """Search, prune, then check the proposal on fresh seeds
        (:func:`workbench.balance.verdict.propose`); errors become :attr:`message`."""
        from workbench.balance.verdict import propose, record_balance_run, summary_line
        self.running, self.done_games, self.total_games, self.message = True, 0, self.trials, ""
        try:
            spec = self.spec()
            if not spec.targets or not spec.vary:
                raise WorkbenchError("give at least one target and one vary pattern")
            self.message = f"opening {game_name(self.game_id)}'s card pool…"
            session = self.session()
            self.message = f"playing trial 1 of {spec.trials}: the cards as they are…"
            from workbench.core.bots import check_specs
            check_specs(session.game, spec.bots)  # a misspelt bot is refused before any game is played

            def progress(done, total, best):
                self.done_games = done
                self.message = f"trial {done} of {total}" + (f", best loss {best:.3f}" if best is not None else "")

            def fresh():
                self.message = "checking the proposal on fresh seeds…"

            run = propose(spec, session, fresh_games=self.fresh_games, progress=progress, on_fresh=fresh,
                          names=PAGE_NAMES)
            self.result, self.verdict = run["result"], run["verdict"]
            self.edits, self.diff, self.rows = self.result.edits, run["diff"], run["rows"]
            self.applied = False
            record_balance_run(self.game_id, session.folder, spec, self.rows, self.edits, self.verdict,
                               applied=False)
            met = sum(1 for r in self.rows if r["met_after"])
            pruned = f" (pruned from {run['searched']})" if run["searched"] > len(self.edits) else ""
            self.message = (f"{len(self.result.trials)} trials; proposal: {len(self.edits)} edits{pruned}; "
                            f"{met} of {len(self.rows)} targets met on fresh seeds. "
                            f"{summary_line(self.verdict, len(self.edits), PAGE_NAMES)}")
        except WorkbenchError as exc:
            self.message = f"cannot run: {exc}"
        finally:
            self.running = False

    def start(self) -> threading.Thread | None:
        return self._start(self.run, "balance", "a balance search is already running")

    @property
    def offered(self) -> bool:
        """The proposal may be applied: the fresh check vouches for it
        (:func:`workbench.balance.verdict.judge`)."""
        return bool(self.edits) and bool(self.verdict and self.verdict["offered"])

    def apply(self) -> None:
        """Write the proposal into the card files through the tweak session."""
        from workbench.balance.report import apply_edits
        try:
            self._refuse_unsaved()
            if not self.offered:
                raise WorkbenchError("the fresh check does not vouch for this proposal: "
                                     + "; ".join((self.verdict or {}).get("reasons") or ["no proposal"]))
            # the live pool's edit and save: Cards and Graph follow its snapshot
            written = apply_edits(self.session(), self.edits, note="balance proposal (Balance page)")
            self.applied = bool(written)
            self.message = f"applied: wrote {', '.join(p.name for p in written)}" if written else "nothing to apply"
        except WorkbenchError as exc:
            self.message = f"cannot apply: {exc}"

    def undo(self) -> None:
        from workbench.balance.report import undo_edits
        try:
            self._refuse_unsaved()
            written = undo_edits(self.session(), self.edits)
            self.applied = False
            self.message = f"undone: wrote {', '.join(p.name for p in written)}" if written else "nothing to undo"
        except WorkbenchError as exc:
            self.message = f"cannot undo: {exc}"

    def _refuse_unsaved(self) -> None:
        # applying saves the pool: edits made on the Cards page would be written with it unseen
        if self.session().dirty:
            raise WorkbenchError("the card pool has edits not saved yet (Cards page): save or reload "
                                 "them there first")

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

    def skill_table(self):
        """The fresh check read per bot seated (a mixed table's skill levels),
        once per player count: win rate and mean score before and after the
        proposal. Empty when every seat plays the same bot."""
        import pandas as pd
        out, shown = [], set()
        for r in self.rows:
            if not r.get("by_bot") or r["players"] in shown:
                continue
            shown.add(r["players"])
            out.extend({"players": r["players"], "bot": b["bot"], "seats": b["seats"],
                        "win rate before": b["win_rate_before"], "win rate after": b["win_rate_after"],
                        "mean score before": b["mean_score_before"], "mean score after": b["mean_score_after"]}
                       for b in r["by_bot"])
        return pd.DataFrame(out)


def _ci(row: dict, arm: str) -> str:
    lo, hi = row.get(f"{arm}_low"), row.get(f"{arm}_high")
    if lo is None or hi is None:
        return row.get(f"{arm}_note") or "too few games"
    return f"[{lo:.2f}, {hi:.2f}]"


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
    fig.xaxis[0].ticker.min_interval = 1  # trials are whole numbers
    fig.scatter(xs, ys, size=7, legend_label="trial")
    fig.step(xs, best, mode="after", line_width=2, color="firebrick", legend_label="best so far")
    return fig


class BalancePage(pn.viewable.Viewer):
    """A game, its targets and variables, Run with progress, then the proposal
    with Apply / Undo. The settings widgets are bound to the model's params."""

    model = param.ClassSelector(class_=BalanceModel)

    def __init__(self, bench=None, model: BalanceModel | None = None, **params):
        self.bench = bench
        if model is None:
            model = BalanceModel(open_pool=bench.tweak_session if bench is not None else None)
        super().__init__(model=model, **params)
        m = model
        W = pn.widgets
        # not bound to the model: a choice first says what it loads, then sets the model
        self._game = W.Select(label="Game", options=list(m.param.game_id.objects), value=m.game_id,
                              css_classes=["balance-game"])
        self._game.param.watch(self._choose, "value")
        self._targets = W.TextAreaInput.from_param(m.param.targets, label="Targets (one per line)", height=90)
        self._vary = W.TextAreaInput.from_param(m.param.vary, label="Vary (one pattern per line)", height=110)
        self._trials = W.IntInput.from_param(m.param.trials, label="Trials")
        self._games = W.IntInput.from_param(m.param.games_per_trial, label="Games per trial and player count")
        self._fresh = W.IntInput.from_param(m.param.fresh_games, label="Games for the fresh check")
        self._seed = W.IntInput.from_param(m.param.seed, label="Seed")
        self._bots = W.TextInput.from_param(m.param.bots, label="Bots (one, or one per seat: a skill mix)")
        self._workers = W.IntInput.from_param(m.param.workers, label="Worker processes (0 = here)")
        self._study = W.TextInput.from_param(m.param.study, label="Study file (SQLite; resumes)")
        self._allow = W.Checkbox.from_param(m.param.allow_seed, label="Also vary seed values")
        self._margin = W.FloatInput.from_param(m.param.margin, label="Margin inside each band", step=0.01)
        self._run = W.Button(label="Search", color="primary")
        self._apply = W.Button(label="Apply proposal", disabled=True)
        self._undo = W.Button(label="Undo", disabled=True)
        self._bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width",
                                           css_classes=["balance-progress"])
        self._status = pn.pane.Markdown("", css_classes=["balance-status"])
        self._doing = ProgressLine("balance")
        self._results = pn.Column(sizing_mode="stretch_width", css_classes=["balance-results"])
        self._run.on_click(self._on_run)
        self._apply.on_click(lambda e: self._guarded(self.model.apply))
        self._undo.on_click(lambda e: self._guarded(self.model.undo))
        self._poll = None
        from .hunt import HuntSection
        self._hunt = HuntSection(bench=bench)  # what nobody asked: its own game, settings and run

    def _read_only(self) -> bool:
        if getattr(self.bench, "read_only", False):
            self._status.object = "**Refused:** this dashboard is read-only (workbench serve --read-only)"
            return True
        return False

    def _guarded(self, action) -> None:
        if not self._read_only():
            with pn.io.hold():
                action()  # Apply / Undo: the Cards and Graph pages follow the pool by themselves
                self._show_buttons()
                self._status.object = md(self.model.message)

    async def _choose(self, event) -> None:
        if event.new == self.model.game_id:
            return
        await self._doing.run(f"Reading {game_name(event.new)}'s balance targets and variables…",
                              lambda: setattr(self.model, "game_id", event.new), disable=(self._game, self._run))

    @param.depends("model.game_id", watch=True)
    def _on_game(self) -> None:
        if self._game.value != self.model.game_id:
            self._game.value = self.model.game_id
        self._show()

    def _on_run(self, event=None):
        m = self.model
        if self._read_only():
            return
        if m.start() is None:
            self._status.object = md(m.message)
            return
        self._game.disabled = True  # the run's results belong to the game it started on
        self._status.object = ""
        searching = f"Searching {game_name(m.game_id)}'s cards…"
        self._doing.show(searching)
        self._poll = ProgressPoll(m, self._bar, self._run, on_done=self._done, period=500,
                                  on_running=lambda: self._doing.show(m.message or searching))
        self._poll.start()

    def _done(self) -> None:
        self._doing.hide()
        self._game.disabled = False
        self._show()

    def _show_buttons(self) -> None:
        m = self.model
        self._apply.disabled = not m.offered or m.applied
        self._undo.disabled = not m.applied

    def _show(self):
        m = self.model
        self._status.object = md(m.message)
        self._show_buttons()
        if m.result is None:
            self._results.objects = []
            return
        edits = "\n".join(f"* {md(e['card'])} {md(e['field'])}: {md(e['old'])} → {md(e['new'])}"
                          for e in m.edits) or \
            "The cards as they are fit best: no edits."
        if m.edits and m.verdict and not m.verdict["offered"]:
            edits += "\n\n**Not offered** (Apply stays off):\n" + "\n".join(f"* {md(r)}" for r in m.verdict["reasons"])
        self._results.objects = [
            pn.pane.Bokeh(search_figure(m), sizing_mode="stretch_width"),
            "#### Proposal", pn.pane.Markdown(edits, css_classes=["balance-edits"]),
            # shown as typed, never as markup
            pn.pane.Str(m.diff or "", styles={"font-family": "monospace"}, css_classes=["balance-diff"]),
            "#### Before and after, fresh seeds (95% intervals)",
            pn.widgets.Tabulator(m.check_table(), disabled=True, show_index=False, sizing_mode="stretch_width"),
            *self._skill_rows(),
            "#### Trials",
            pn.widgets.Tabulator(m.trials_table(), disabled=True, show_index=False, height=240,
                                 sizing_mode="stretch_width"),
        ]

    def _skill_rows(self) -> list:
        """The per-skill rows of the fresh check, when a mix of bots is seated."""
        table = self.model.skill_table()
        if table.empty:
            return []
        return ["#### Per skill level, fresh seeds (before → after)",
                pn.widgets.Tabulator(table, disabled=True, show_index=False, sizing_mode="stretch_width",
                                     css_classes=["balance-skills"])]

    def __panel__(self):
        settings = pn.Column("### Balance", self._game, self._targets, self._vary, self._trials, self._games,
                             self._fresh, self._seed, self._bots, self._workers, self._study, self._margin, self._allow, self._run,
                             pn.Row(self._apply, self._undo), width=300)
        balance = pn.Row(settings, pn.Column(self._doing.pane, self._status, self._bar, self._results,
                                             sizing_mode="stretch_width"), sizing_mode="stretch_width")
        return pn.Column(balance, pn.layout.Divider(), self._hunt, sizing_mode="stretch_width")
