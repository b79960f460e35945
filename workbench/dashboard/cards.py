"""The Cards page: a game's card pool in an editable table (a game selector
offers every bundled game; one the live-tweak session cannot edit yet says so).

Each edit goes through the live-tweak session (:class:`workbench.graphs.tweak.TweakSession`):
a bad value is refused with its message and the table keeps the old value; a
good one updates the dependency graph and its analyses at once and says what
changed. A quick paired playtest (old pool against edited pool on the same
seeds) runs off the event loop with progress; the games whose outcome it
flipped are listed and open on the Play page with the pool they were played
on. Undo, redo, save (atomic, refusing a file changed on disk) and export (CSV
or Parquet).

For speed an edit sends only the cells that changed (the edited one is already
in the browser) and the graph's data, never a new table or figure.

:class:`CardsModel` is the plain model; :class:`CardsPage` draws it. Polars
tables become pandas only where Tabulator takes them."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .background import BackgroundWork

#: columns shown first; the rest follow in the session's order
LEADING = ["name", "kind", "layer", "E", "I", "S", "V", "icons", "vitals", "bonus"]


class CardsModel(BackgroundWork, param.Parameterized):
    """One game's card pool being tweaked, the last edit's report and the last
    paired playtest."""

    message = param.String(default="", doc="the last refusal or notice, one line")
    report = param.List(default=[], doc="what the last edit changed, one line each")
    selected = param.String(default="", doc="the card last edited or chosen")
    version = param.Integer(default=0, doc="bumped when the pool changes")
    playtest_games = param.Integer(default=200, bounds=(2, 20_000))
    playtest_players = param.Integer(default=4, bounds=(1, 6))
    playtest_bots = param.String(default="greedy")
    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    playtest_version = param.Integer(default=0, doc="bumped when a playtest finishes")

    def __init__(self, session=None, bench=None, game_id: str | None = None, **params):
        super().__init__(**params)
        self.bench = bench
        if session is None:
            game_id = game_id or (bench.card_game if bench is not None else "meaning-made")
            session = bench.tweak_session(game_id) if bench is not None else _new_session(game_id)
        self.session = session
        self.playtest = None
        self._pools: dict[str, str] = {}
        self._thread: threading.Thread | None = None

    # -- reading ----------------------------------------------------------------
    def table(self):
        """The pool as a polars table, leading columns first."""
        t = self.session.table()
        order = [c for c in LEADING if c in t.columns] + [c for c in t.columns if c not in LEADING]
        return t.select(order)

    @property
    def editable_columns(self) -> list[str]:
        from workbench.graphs.tweak import COLUMNS
        return list(COLUMNS)

    def cell(self, card: str, column: str):
        t = self.session.table()
        row = t.filter(t["name"].str.to_lowercase() == card.lower())
        return row[column][0] if row.height else None

    def card_info(self, card: str | None = None) -> str:
        """One line about a card as the graph sees it: requirement, what it
        needs and what it unlocks."""
        from workbench.graphs.drawing import card_links
        card = card or self.selected
        if not card:
            return ""
        graph = self.session.graph()
        node = next((d for _, d in graph.nodes(data=True)
                     if d["kind"] != "layer" and str(d["name"]).lower() == card.lower()), None)
        if node is None:
            return f"{card}: not in the graph"
        links = card_links(graph, card)
        return (f"{node['name']} (Layer {node['layer']}): requires {node.get('requirement') or 'nothing'}; "
                f"needs {', '.join(links['needs']) or 'nothing'}; "
                f"unlocks {', '.join(links['unlocks']) or 'nothing'}")

    # -- editing --------------------------------------------------------------
    def edit(self, card: str, column: str, value) -> bool:
        """Apply one edit; a refused edit sets :attr:`message` and leaves the pool
        as it was. Returns whether the edit was taken."""
        try:
            report = self.session.edit(card, column, value)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self.message = ""
        self.report = report.lines()
        self.selected = str(value).strip() if column == "name" else report.card or card
        self._changed()
        return True

    def undo(self) -> None:
        self._history(self.session.undo, "undone")

    def redo(self) -> None:
        self._history(self.session.redo, "redone")

    def _history(self, step, word: str) -> None:
        try:
            report = step()
        except WorkbenchError as exc:
            self.message = str(exc)
            return
        self.message = f"{word}: {report.card}.{report.field}"
        self.report = report.lines()
        self._changed()

    def save(self) -> list[Path]:
        try:
            written = self.session.save()
        except WorkbenchError as exc:
            self.message = f"not saved: {exc}"
            return []
        self.message = ("saved " + ", ".join(p.name for p in written)) if written else "nothing to save"
        return written

    def export(self, path: str | Path) -> Path:
        return self.session.export(path)

    def export_bytes(self, suffix: str = ".csv") -> bytes:
        """The table as CSV or Parquet bytes, for a browser download."""
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / f"cards{suffix}"
            self.session.export(target)
            return target.read_bytes()

    def _changed(self) -> None:
        self.version += 1
        if self.bench is not None:
            self.bench.cards_version += 1

    # -- paired playtest ------------------------------------------------------------
    def run_playtest(self) -> None:
        """Old pool against edited pool on the same seeds, here and blocking."""
        self.running, self.done_games = True, 0
        self.total_games = 2 * self.playtest_games
        try:
            # the pools as played, so a flipped game opens with the cards it was played with
            # even after more edits
            self._pools = self._pool_refs()
            self.playtest = self.session.quick_playtest(
                n=self.playtest_games, players=self.playtest_players, bots=self.playtest_bots,
                card=self.selected or None, progress=self._progress, workers=0)
            self.message = (f"paired playtest: {self.playtest.games} games per pool in "
                            f"{self.playtest.elapsed:.1f} s; {len(self.playtest.flipped)} outcomes flipped")
        except WorkbenchError as exc:
            self.message = f"playtest failed: {exc}"
        finally:
            self.running = False
            self.playtest_version += 1

    def start_playtest(self) -> threading.Thread | None:
        return self._start(self.run_playtest, "quick-playtest", "a playtest is already running")

    def _pool_refs(self) -> dict[str, str]:
        """Game references for the old and the edited pool. Until the tweak
        session registers edited pools as session games itself, the ones its
        playtest registers are used."""
        from workbench.graphs import tweak
        register = getattr(tweak, "_register_pool", None)
        if register is None:
            return {}
        return {"old": register(self.session.baseline), "new": register(self.session.cards)}

    def flipped(self) -> list[dict]:
        return list(self.playtest.flipped) if self.playtest is not None else []

    def flipped_rows(self) -> list[dict]:
        """One row per flipped game for the table: seeds as text (64-bit)."""
        from .formats import seed_text
        return [{"game": f["index"], "seed": seed_text(f["seed"]),
                 "old ending": f["a"]["ending"], "old winners": ", ".join(f["a"]["winners"]) or "nobody",
                 "new ending": f["b"]["ending"], "new winners": ", ".join(f["b"]["winners"]) or "nobody"}
                for f in self.flipped()]

    def flipped_match(self, row: int, pool: str = "new") -> tuple[dict, object]:
        """The flipped game ``row`` as played on the ``old`` or ``new`` pool:
        its record (``Match.to_dict`` shape with seats) and the game bound to
        that pool, for :meth:`PlayModel.open_match`."""
        from workbench.core.bots import make_bots
        from workbench.core.game import GameConfig
        from workbench.core.play import play_game
        from workbench.sim import resolve_game

        from .play import seats_from_bots
        if pool not in self._pools:
            raise WorkbenchError("no paired playtest to open a game from")
        flip = self.flipped()[row]
        key = "a" if pool == "old" else "b"
        game = resolve_game(self._pools[pool])
        config = GameConfig.from_dict(flip[f"config_{key}"])
        _, log = play_game(game, config, make_bots(flip[f"bots_{key}"], len(config.players)))
        data = {"game": game.id, "config": config.to_dict(), "actions": log, "cursor": 0,
                "seats": seats_from_bots(flip[f"bots_{key}"], len(config.players))}
        return data, game


def _new_session(game_id: str = "meaning-made"):
    from workbench.graphs.tweak import TweakSession
    return TweakSession(game_id=game_id)


class CardsPage(pn.viewable.Viewer):
    """The game selector and the table on the left; the graph, the edit
    report, the playtest and its flipped games on the right."""

    def __init__(self, bench=None, model: CardsModel | None = None, **params):
        super().__init__(**params)
        from .graph import DependencyView
        from .play import available_games
        self.bench = bench
        self._games_list = pn.widgets.Select(
            label="Game", options=available_games(), width=220, css_classes=["cards-game"],
            value=bench.card_game if bench is not None else "meaning-made")
        self._unavailable = pn.pane.Alert("", alert_type="info", visible=False,
                                          css_classes=["cards-unavailable"])
        self._table = pn.widgets.Tabulator(
            None, show_index=False, height=560, selectable=1, sizing_mode="stretch_width",
            frozen_columns=["name"], layout="fit_data_table", pagination=None,
            header_filters={"name": {"type": "input", "func": "like"},
                            "kind": {"type": "input", "func": "like"}})
        self._table.on_edit(self._on_edit)
        self._table.param.watch(self._on_select, "selection")
        self._message = pn.pane.Alert("", alert_type="danger", visible=False, css_classes=["cards-message"])
        self._notice = pn.pane.Markdown("", css_classes=["cards-notice"])
        self._report = pn.pane.Markdown("", css_classes=["cards-report"])
        self._info = pn.pane.Markdown("", css_classes=["cards-info"])
        self._view = DependencyView(width=760, height=560, on_select=self._on_graph_select)
        self._graph = pn.pane.Bokeh(self._view.figure)
        self._undo = pn.widgets.Button(label="Undo", width=80)
        self._redo = pn.widgets.Button(label="Redo", width=80)
        self._save = pn.widgets.Button(label="Save to card files", color="primary", width=160)
        self._export = pn.widgets.FileDownload(callback=lambda: io.BytesIO(self.model.export_bytes(".csv")),
                                               filename="cards.csv", label="Export CSV", width=120)
        self._export_pq = pn.widgets.FileDownload(
            callback=lambda: io.BytesIO(self.model.export_bytes(".parquet")),
            filename="cards.parquet", label="Export Parquet", width=140)
        self._games = pn.widgets.IntInput(label="Games per pool", value=200, start=2, end=20_000, width=120)
        self._bots = pn.widgets.TextInput(label="Bots", value="greedy", width=120)
        self._run = pn.widgets.Button(label="Quick paired playtest", color="success", width=200)
        self._bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width")
        self._playtest = pn.Column(sizing_mode="stretch_width", css_classes=["cards-playtest"])
        self._flipped = pn.widgets.Tabulator(None, disabled=True, selectable=1, height=200, show_index=False,
                                             sizing_mode="stretch_width", css_classes=["cards-flipped"])
        self._open_old = pn.widgets.Button(label="Open selected game (old pool) in Play", disabled=True)
        self._open_new = pn.widgets.Button(label="Open selected game (new pool) in Play", disabled=True)
        self._flipped_box = pn.Column("#### Games whose outcome flipped", self._flipped,
                                      pn.Row(self._open_old, self._open_new), visible=False,
                                      sizing_mode="stretch_width")
        self._undo.on_click(lambda e: (self.model.undo(), self._reload()))
        self._redo.on_click(lambda e: (self.model.redo(), self._reload()))
        self._save.on_click(lambda e: (self.model.save(), self._show_message()))
        self._run.on_click(self._on_run)
        self._games_list.param.watch(self._on_game, "value")
        self._flipped.param.watch(self._on_flip_select, "selection")
        self._open_old.on_click(lambda e: self._open("old"))
        self._open_new.on_click(lambda e: self._open("new"))
        self._poll = None
        self.model = None
        self._use(model or self._model_for(self._games_list.value))

    # -- choosing a game ---------------------------------------------------------------
    def _model_for(self, game_id: str) -> CardsModel | None:
        try:
            return CardsModel(bench=self.bench, game_id=game_id)
        except WorkbenchError as exc:
            self._unavailable.object = (f"**Card tweaking is not available for {game_id} yet.** {exc}. "
                                        "The Meaning Made pool can be tweaked now.")
            return None

    def _use(self, model: CardsModel | None) -> None:
        self._unavailable.visible = model is None
        for w in (self._table, self._graph, self._run, self._undo, self._redo, self._save,
                  self._export, self._export_pq):
            w.visible = model is not None
        if model is None:
            return
        self.model = m = model
        self._games.value, self._bots.value = m.playtest_games, m.playtest_bots
        frame = m.table().to_pandas()
        self._table.editors = {c: None for c in frame.columns if c not in m.editable_columns}
        self._table.value = frame
        self._playtest.objects, self._flipped_box.visible = [], False
        self._draw_graph()
        self._show_message()

    def _on_game(self, event):
        if self.bench is not None:
            self.bench.card_game = event.new
        self._use(self._model_for(event.new))

    # -- callbacks -----------------------------------------------------------------
    def _on_edit(self, event):
        m = self.model
        column, row = event.column, event.row
        card = event.old if column == "name" else self._table.value.iloc[row]["name"]
        if m.edit(str(card), column, event.value):
            self._reload()
        else:
            # put the old value back in the browser too: nothing the designer had is lost
            self._table.patch({column: [(row, event.old)]})
            self._show_message()

    def _on_select(self, event):
        if event.new:
            self.model.selected = str(self._table.value.iloc[event.new[0]]["name"])
            self._draw_graph()

    def _on_graph_select(self, name: str):
        self.model.selected = name
        self._draw_graph()

    def _reload(self):
        """After an edit, undo or redo: send the cells that differ from what
        the table shows, redraw the graph's data, say what changed."""
        with pn.io.hold():
            patch_table(self._table, self.model.table().to_pandas())
            self._draw_graph()
            self._show_message()

    def _show_message(self):
        m = self.model
        refused = m.message.startswith(("refused", "not saved", "playtest failed", "nothing to", "no paired"))
        self._message.object = m.message
        self._message.visible = bool(m.message) and refused
        self._notice.object = "" if refused else m.message
        self._report.object = ("**What the last edit changed**\n\n" + "\n".join(f"- {line}" for line in m.report)
                               if m.report else "")
        self._info.object = m.card_info()
        self._undo.disabled = not m.session.can_undo
        self._redo.disabled = not m.session.can_redo

    def _draw_graph(self):
        m = self.model
        self._view.update(m.session.graph(), m.session.analyses(), m.selected or None)
        self._info.object = m.card_info()

    def _on_run(self, event=None):
        m = self.model
        m.playtest_games = int(self._games.value)
        m.playtest_bots = self._bots.value.strip() or "greedy"
        if m.start_playtest() is None:
            self._show_message()
            return
        self._run.disabled = True
        self._bar.value, self._bar.visible = 0, True
        self._playtest.objects = [pn.pane.Markdown("playing…")]
        self._poll = pn.state.add_periodic_callback(self._tick, period=300)

    def _tick(self):
        from .formats import paired_table
        m = self.model
        self._bar.value = int(100 * m.progress)
        if m.running:
            return
        if self._poll is not None:
            self._poll.stop()
            self._poll = None
        self._run.disabled = False
        self._bar.visible = False
        self._show_message()
        if m.playtest is not None:
            self._playtest.objects = [
                pn.pane.Markdown(f"**Paired playtest** ({m.playtest.games} games per pool, "
                                 f"{m.playtest.players} players; old = pool as loaded or last saved)"),
                pn.widgets.Tabulator(paired_table(m.playtest.summary), disabled=True, show_index=False,
                                     sizing_mode="stretch_width", layout="fit_data_stretch")]
            rows = m.flipped_rows()
            import pandas as pd
            self._flipped.value = pd.DataFrame(rows) if rows else pd.DataFrame({"game": [], "seed": []})
            self._flipped_box.visible = bool(rows)

    def _on_flip_select(self, event):
        ok = bool(event.new) and self.bench is not None
        self._open_old.disabled = self._open_new.disabled = not ok

    def _open(self, pool: str):
        if not self._flipped.selection or self.bench is None:
            return
        try:
            data, game = self.model.flipped_match(self._flipped.selection[0], pool)
            self.bench.open_in_play(data, game=game, label=f"{pool} pool of the Cards page")
        except WorkbenchError as exc:
            self.model.message = f"refused: {exc}"
            self._show_message()

    def __panel__(self):
        buttons = pn.Row(self._undo, self._redo, self._save, self._export, self._export_pq)
        left = pn.Column(self._games_list, self._unavailable, buttons, self._message, self._notice, self._table,
                         sizing_mode="stretch_width")
        playtest = pn.Column(pn.Row(self._games, self._bots, self._run), self._bar, self._playtest,
                             self._flipped_box, sizing_mode="stretch_width")
        right = pn.Column(self._info, self._graph, self._report, playtest, width=780)
        return pn.Row(left, right, sizing_mode="stretch_width")


def patch_table(table, frame) -> None:
    """Make ``table`` show ``frame`` by patching the cells that differ; a
    change of rows or columns replaces the whole value."""
    old = table.value
    if old is None or list(old.columns) != list(frame.columns) or len(old) != len(frame):
        table.value = frame
        return
    patch: dict[str, list] = {}
    for col in frame.columns:
        a, b = old[col].tolist(), frame[col].tolist()
        changed = [(i, v) for i, (u, v) in enumerate(zip(a, b)) if not _same(u, v)]
        if changed:
            patch[col] = changed
    if patch:
        table.patch(patch, as_index=False)


def _same(a, b) -> bool:
    try:
        return bool(a == b) or (a != a and b != b)  # NaN equals NaN here
    except (TypeError, ValueError):
        return str(a) == str(b)
