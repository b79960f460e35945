"""The Hunt section of the Balance page: ``workbench hunt`` in the dashboard.

A game, its players, bots, budget and time bound in; the hunt
(:func:`workbench.hunt.run_hunt`) runs on a background thread with its
progress lines; out come its findings (each with its effect, interval, the
card, seat or rule it involves and its witness game, saved where the Play
page's *Load* opens it), the leads not confirmed on fresh games, and how much
was spent. The hunt plays the game's live pool as the Cards page holds it
(unsaved edits included, as ``workbench hunt --edit`` plays them) when the
dashboard gives one, else the saved cards.

:class:`HuntModel` holds what the section shows and runs the hunt; the
section (:class:`HuntSection`) only draws it, so the model is what the tests
drive."""

from __future__ import annotations

import threading

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .background import BackgroundWork, ProgressPoll
from .escape import md
from .names import game_name


def hunt_games() -> list[str]:
    """Every registered game: a hunt needs nothing a game must declare."""
    from workbench.core.registry import game_ids
    return sorted(game_ids())


class HuntModel(BackgroundWork, param.Parameterized):
    """A hunt's settings and its report (see :mod:`workbench.hunt`)."""

    # not checked against the list on set: a test (or a notebook) may hunt a
    # session game's reference (``module:ATTR``)
    game_id = param.Selector(default=None, objects=[], check_on_set=False, doc="the game hunted")
    players = param.Integer(default=0, bounds=(0, 16), doc="0: the game's default")
    bots = param.String(default="greedy", doc="the base bot at every seat")
    seed = param.Integer(default=1, bounds=(0, None))
    budget = param.Integer(default=600, bounds=(1, 1_000_000), doc="games at most, every arm and stage counted")
    seconds = param.Number(default=300.0, bounds=(1.0, None), doc="time bound, checked between rounds")
    workers = param.Integer(default=0, bounds=(0, 64), doc="pool processes (0 plays in this process)")
    out = param.String(default="out/hunt", doc="the folder the witness games are saved in")

    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    message = param.String(default="")

    def __init__(self, open_pool=None, **params):
        """``open_pool(game_id)``: the dashboard's live pool of a game (its
        edited cards are hunted); without it the saved cards are."""
        self._open_pool = open_pool
        games = hunt_games()
        type(self).param.game_id.objects = games
        params.setdefault("game_id", games[0] if games else None)
        super().__init__(**params)
        self.report: dict | None = None
        self.lines: list[str] = []

    def _ref(self) -> tuple[str, bool]:
        """The game reference hunted, and whether it is the live pool's
        unsaved cards (a witness of those replays on them, not the saved ones)."""
        if self._open_pool is None or ":" in (self.game_id or ""):
            return self.game_id, False
        pool = self._open_pool(self.game_id)
        return (pool.pool_refs()[1], True) if pool.dirty else (self.game_id, False)

    def run(self) -> None:
        """Hunt; errors become :attr:`message`, never an exception."""
        from workbench.core.bots import check_specs
        from workbench.hunt import run_hunt
        from workbench.sim.runner import resolve_game
        self.running, self.report, self.lines = True, None, []
        self.done_games, self.total_games = 0, self.budget
        try:
            if not self.game_id:
                raise WorkbenchError("choose a game to hunt")
            game = resolve_game(self.game_id)
            bots = (self.bots or "").strip() or "greedy"
            check_specs(game, bots)  # a misspelt bot is refused before any game is played
            ref, unsaved = self._ref()
            self.message = f"hunting {game.name}…"

            def progress(line: str) -> None:
                self.lines.append(line)
                self.message = line.strip()

            self.report = run_hunt(ref, players=self.players or None, bots=bots, seed=self.seed,
                                   workers=self.workers, out=self.out or None, progress=progress,
                                   extra={"edits": [], "unsaved_edits": unsaved}, budget=self.budget,
                                   seconds=self.seconds)
            r = self.report
            self.done_games = min(self.total_games, r["games"])
            self.message = (("the Cards page's unsaved cards: " if unsaved else "")
                            + f"{r['games']} games in {r['elapsed']:.0f} s ({r['stopped']}): "
                            f"{len(r['findings'])} findings, {len(r['not_confirmed'])} not confirmed, "
                            f"{r['open']} questions still open")
        except WorkbenchError as exc:
            self.message = f"cannot hunt: {exc}"
        finally:
            self.running = False

    def start(self) -> threading.Thread | None:
        return self._start(self.run, "hunt", "a hunt is already running")

    def findings_table(self):
        """One row per finding: what it is, its effect and interval, the card,
        seat or rule it involves, and its witness game."""
        import pandas as pd
        rows = []
        for f in (self.report or {}).get("findings", []):
            w = f.get("witness") or {}
            rows.append({"finding": f["title"], "kind": f["kind"], "effect": _round(f["effect"]),
                         "interval": _interval(f["low"], f["high"]), "fresh games": f["games"],
                         "margin": f["margin"],
                         "involves": ", ".join(f"{k} {v}" for k, v in (f.get("involves") or {}).items()),
                         "witness": w.get("file") or "(not saved)",
                         "replays": "yes" if w.get("replays") else "no"})
        return pd.DataFrame(rows)

    def leads_table(self):
        """The candidates the fresh games did not confirm: never findings."""
        import pandas as pd
        return pd.DataFrame([{"kind": c["kind"], "subject": c["subject"],
                              "screen": _round(c["screen"].get("mean")), "screen games": c["screen"].get("n"),
                              "confirm": _round(c["confirm"].get("mean")), "confirm games": c["confirm"].get("n")}
                             for c in (self.report or {}).get("not_confirmed", [])])


def _round(v):
    # three places, as the command line prints an effect
    return None if v is None else round(float(v), 3)


def _interval(lo, hi) -> str:
    return "too few games" if lo is None or hi is None else f"[{lo:+.3f}, {hi:+.3f}]"


class HuntSection(pn.viewable.Viewer):
    """The settings, a Hunt button with progress, then the findings and the
    leads not confirmed. The settings widgets are bound to the model's params."""

    model = param.ClassSelector(class_=HuntModel)

    def __init__(self, bench=None, model: HuntModel | None = None, **params):
        self.bench = bench
        if model is None:
            model = HuntModel(open_pool=getattr(bench, "tweak_session", None))
        super().__init__(model=model, **params)
        m, W = model, pn.widgets
        self._game = W.Select.from_param(m.param.game_id, label="Game", options=list(m.param.game_id.objects))
        self._players = W.IntInput.from_param(m.param.players, label="Players (0 = the game's default)")
        self._bots = W.TextInput.from_param(m.param.bots, label="Base bot")
        self._seed = W.IntInput.from_param(m.param.seed, label="Seed")
        self._budget = W.IntInput.from_param(m.param.budget, label="Games at most")
        self._seconds = W.FloatInput.from_param(m.param.seconds, label="Seconds at most")
        self._workers = W.IntInput.from_param(m.param.workers, label="Worker processes (0 = here)")
        self._out = W.TextInput.from_param(m.param.out, label="Witness games folder")
        self._run = W.Button(label="Hunt", color="primary")
        self._bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width",
                                           css_classes=["hunt-progress"])
        self._status = pn.pane.Markdown("", css_classes=["hunt-status"])
        self._results = pn.Column(sizing_mode="stretch_width", css_classes=["hunt-results"])
        self._run.on_click(self._on_run)

    def _on_run(self, event=None) -> None:
        if getattr(self.bench, "read_only", False):
            self._status.object = "**Refused:** this dashboard is read-only (workbench serve --read-only)"
            return
        m = self.model
        if m.start() is None:
            self._status.object = md(m.message)
            return
        self._status.object = md(f"Hunting {game_name(m.game_id)}…")
        ProgressPoll(m, self._bar, self._run, on_done=self._show, period=1000,
                     on_running=lambda: setattr(self._status, "object", md(m.message))).start()

    def _show(self) -> None:
        m = self.model
        self._status.object = md(m.message)
        if m.report is None:
            self._results.objects = []
            return
        findings, leads = m.findings_table(), m.leads_table()
        self._results.objects = [
            "#### Findings (decided on fresh games; open a witness on the Play page with *Load*)",
            pn.widgets.Tabulator(findings, disabled=True, show_index=False, sizing_mode="stretch_width")
            if not findings.empty else pn.pane.Markdown(
                "No finding decided. A hunt that finds nothing has not shown that nothing is broken: "
                f"{m.report['open']} questions were still open when it stopped."),
            *(["#### Leads not confirmed (never findings)",
               pn.widgets.Tabulator(leads, disabled=True, show_index=False, sizing_mode="stretch_width")]
              if not leads.empty else []),
        ]

    def __panel__(self):
        settings = pn.Column("### Hunt: what nobody asked", self._game, self._players, self._bots, self._seed,
                             self._budget, self._seconds, self._workers, self._out, self._run, width=300)
        return pn.Row(settings, pn.Column(self._status, self._bar, self._results, sizing_mode="stretch_width"),
                      sizing_mode="stretch_width")
