"""The Cards page: a game's card pool (any bundled game, chosen above the
table) in an editable table.

Each edit goes through the live-tweak session (:class:`workbench.graphs.tweak.TweakSession`):
a bad value is refused with its message and the table keeps the old value; a
good one updates the dependency graph and its analyses at once and says what
changed. A quick paired playtest (old pool against edited pool on the same
seeds) runs off the event loop with progress; the games whose outcome it
flipped are listed and open on the Play page with the pool they were played
on. Undo, redo, save (through :mod:`workbench.core.cardfile`: only the edited
lines change, a file changed on disk is refused), Reload from disk and export
(CSV or Parquet). Every text shown is escaped (:mod:`.escape`); a read-only
dashboard (``serve --read-only``) takes no edits and saves nothing.

The pool is the dashboard's shared :class:`~workbench.dashboard.pool.LivePool`
(the Graph and Balance pages edit and draw the same one): the page depends on
its snapshot (``model.pool.raw``), so an edit here, an undo, or a proposal
applied on the Balance page redraws it the same way; while the page is hidden
the redraw waits until it is shown. For speed a redraw sends only the cells
that changed (an edited one is already in the browser) and the graph's
changed data, never a new table or figure.

:class:`CardsModel` is the plain model; :class:`CardsPage` draws it. Polars
tables become pandas only where Tabulator takes them."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import panel as pn
import param

from workbench.core.errors import WorkbenchError
from workbench.sim.verdicts import UNDECIDED

from .background import BackgroundWork, ProgressPoll
from .escape import md
from .pool import LivePool, live, update_figure

#: columns shown first; then the session's editable columns in its order, then the rest
LEADING = ["name", "kind"]


class CardsModel(BackgroundWork, param.Parameterized):
    """One game's card pool being tweaked, the last edit's report and the last
    paired playtest."""

    message = param.String(default="", doc="the last refusal or notice, one line")
    report = param.List(default=[], doc="what the last edit changed, one line each")
    selected = param.String(default="", doc="the card last edited or chosen")
    pool = param.ClassSelector(class_=LivePool, allow_refs=True,
                               doc="the live pool tweaked (with a dashboard: the one of its card_game)")
    playtest_games = param.Integer(default=200, bounds=(2, 20_000))
    playtest_players = param.Integer(default=4, bounds=(1, 6))
    playtest_bots = param.String(default="greedy")
    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    playtest_state = param.String(default="", doc="what the playtest shown is: a preview, a look, the end")

    def __init__(self, session=None, bench=None, game_id: str | None = None, **params):
        self.bench = bench
        self.playtest = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()  # set by an edit or a new game: the running playtest is stale
        game_id = game_id or (bench.card_game if bench is not None else card_games()[0])
        if session is not None:
            pool = live(session)
        elif bench is not None:
            bench.card_game = game_id
            bench.card_pool()
            pool = bench.param.pool  # follows the dashboard's card game
        else:
            pool = live(_session_for(None, game_id))
        super().__init__(pool=pool, **params)
        self._use_pool()

    @property
    def session(self) -> LivePool:
        """The pool being tweaked: the session's API, its changes published."""
        return self.pool

    @param.depends("pool", watch=True)
    def _use_pool(self) -> None:
        # a new game: its player counts, nothing selected or played yet
        game = self.pool.game
        self._stop.set()
        self.param.playtest_players.bounds = (game.min_players, game.max_players)
        self.playtest_players = game.default_players
        self.playtest, self.selected, self.report, self.message = None, "", [], ""

    def use_session(self, session) -> None:
        """Tweak ``session``'s pool from now on."""
        self.pool = live(session)

    def choose_game(self, game_id: str) -> None:
        """Switch to ``game_id``'s pool (its session is kept per game; with a
        dashboard, the Graph page follows)."""
        if game_id == self.pool.game_id:
            return
        if self.bench is not None:
            self.bench.tweak_session(game_id)  # an unknown game is refused before anything changes
            self.bench.card_game = game_id
        else:
            self.use_session(_session_for(None, game_id))

    # -- reading ----------------------------------------------------------------
    def table(self):
        """The pool as a polars table, leading columns first."""
        t = self.session.table()
        order = [c for c in LEADING if c in t.columns]
        order += [c for c in self.session.columns if c in t.columns and c not in order]
        return t.select(order + [c for c in t.columns if c not in order])

    @property
    def editable_columns(self) -> list[str]:
        return list(self.session.columns)

    def cell(self, card: str, column: str):
        t = self.session.table()
        row = t.filter(t["name"].str.to_lowercase() == card.lower())
        return row[column][0] if row.height else None

    def card_info(self, card: str | None = None) -> str:
        """One line about a card as the graph sees it: requirement, what it
        needs and what it unlocks."""
        return self.session.card_info(card or self.selected)

    # -- editing --------------------------------------------------------------
    def edit(self, card: str, column: str, value) -> bool:
        """Apply one edit; a refused edit sets :attr:`message` and leaves the pool
        as it was. Returns whether the edit was taken."""
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        try:
            report = self.session.edit(card, column, value)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        self.param.update(message="", report=report.lines(),
                          selected=str(value).strip() if column == "name" else report.card or card)
        return True

    # -- adding, duplicating, deleting cards (workbench.graphs.card_ops) -----------------
    @property
    def blank_kinds(self) -> list[str]:
        """The card kinds the game lets a designer add (``Game.card_blanks``)."""
        return self.session.blank_kinds

    def add_card(self, kind: str, name: str | None = None) -> bool:
        """A new card of ``kind`` from the game's blank; it becomes the selected card."""
        return self._grow("add_card", kind, name)

    def duplicate_card(self, card: str | None = None, name: str | None = None) -> bool:
        """A copy of ``card`` (default: the selected one) right after it."""
        return self._grow("duplicate_card", card or self.selected, name)

    def delete_card(self, card: str | None = None) -> bool:
        """Delete ``card`` (default: the selected one); refused, with who names
        it, while another card, a setting or a scenario names it."""
        return self._grow("delete_card", card or self.selected)

    def _grow(self, operation: str, *args) -> bool:
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        if not args[0]:
            self.message = "refused: choose a card in the table first"
            return False
        try:
            report = getattr(self.session, operation)(*args)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        kept = report.field != "deleted"
        self.param.update(message=report.notes[0] if report.notes else "", report=report.lines(),
                          selected=report.card if kept else "")
        return True

    def undo(self) -> None:
        self._history(self.session.undo, "undone")

    def redo(self) -> None:
        self._history(self.session.redo, "redone")

    def _history(self, step, word: str) -> None:
        try:
            report = step()
            self._stop.set()
        except WorkbenchError as exc:
            self.message = str(exc)
            return
        what = (f"{report.field} {report.card}" if report.field in ("added", "duplicated", "deleted")
                else f"{report.card}.{report.field}")
        self.param.update(message=f"{word}: {what}", report=report.lines())

    @property
    def read_only(self) -> bool:
        return bool(getattr(self.bench, "read_only", False))

    def reload(self) -> None:
        """Reload from disk: drop unsaved edits and read the card files again."""
        try:
            report = self.session.reload()
        except WorkbenchError as exc:
            self.message = f"not reloaded: {exc}"
            return
        self.param.update(message="reloaded from disk", report=report.lines())

    def save(self, note: str | None = None) -> list[Path]:
        """Save the pool; the save is a version of its history, with ``note``."""
        if self.read_only:
            self.message = "not saved: this dashboard is read-only (workbench serve --read-only)"
            return []
        try:
            written = self.session.save(note=note)
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

    def sheet_bytes(self, fmt: str = "xlsx") -> bytes:
        """The pool as a spreadsheet, one sheet per card kind (workbench.interop.card_sheets)."""
        from workbench.interop.card_sheets import export_bytes
        return export_bytes(self.session, fmt)

    def import_sheet(self, data: bytes, filename: str) -> bool:
        """Take an edited spreadsheet into the pool as one edit (all or none, one
        Undo); a refusal names the sheet, row and column. Nothing is saved."""
        from workbench.interop.card_sheets import import_bytes
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        try:
            result = import_bytes(self.session, data, filename)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        self.param.update(message=f"imported {filename}: {len(result.changes)} value(s) changed, not saved yet "
                                  "(Undo takes them all back)", report=result.lines())
        return True

    # -- paired playtest ------------------------------------------------------------
    def run_playtest(self) -> None:
        """Old pool against edited pool on the same seeds, streamed
        (:meth:`TweakSession.stream_playtest`): :attr:`playtest` is replaced at
        every update, a preview after about a second and then the looks that may
        decide, until every watched metric is decided or the budget is spent.
        An edit or another game meanwhile stops it (its pools are no longer the
        ones on screen)."""
        from contextlib import closing
        self.running, self.done_games = True, 0
        self.total_games = 2 * self.playtest_games
        self._stop.clear()
        self.playtest, self.playtest_state = None, ""
        try:
            stream = self.session.stream_playtest(n=self.playtest_games, players=self.playtest_players,
                                                  bots=self.playtest_bots, card=self.selected or None,
                                                  workers=None)
            with closing(stream):
                for update in stream:
                    result = self.session.paired_result(update)
                    self.done_games = min(self.total_games, 2 * update.games)
                    self.playtest_state = playtest_state(update)
                    self.playtest = result
                    if self._stop.is_set():
                        self.message = (f"playtest stopped at {update.games} games per pool: "
                                        "the pool changed while it ran")
                        return
            self.message = (f"paired playtest: {self.playtest.games} games per pool in "
                            f"{self.playtest.elapsed:.1f} s ({self.playtest_state}); "
                            f"{len(self.playtest.flipped)} outcomes flipped")
        except WorkbenchError as exc:
            self.message = f"playtest failed: {exc}"
        finally:
            self.running = False

    def open_flipped(self, row: int, arm: str = "new") -> dict:
        """Flipped game ``row`` of the last playtest, on the pool it was played
        with (a session game), handed to the Play page when there is one."""
        if self.playtest is None:
            raise WorkbenchError("run a paired playtest first")
        data, game = self.flipped_match(row, arm)
        if self.bench is not None:
            self.bench.open_in_play(data, game=game, label=f"{arm} pool of the Cards page")
        return data

    def start_playtest(self) -> threading.Thread | None:
        return self._start(self.run_playtest, "quick-playtest", "a playtest is already running")

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
        from workbench.core.registry import get_game

        from .play import seats_from_bots
        if self.playtest is None:
            raise WorkbenchError("no paired playtest to open a game from")
        data = self.session.flipped_match(self.playtest, row, pool)
        flip = self.playtest.flipped[row]
        key = "a" if pool == "old" else "b"
        data["seats"] = seats_from_bots(flip[f"bots_{key}"], len(data["config"]["players"]))
        return data, get_game(data["game"])


def playtest_state(update) -> str:
    """One line saying what a streamed playtest update is."""
    if update.preview:
        return f"preview at {update.games} games per pool: an estimate, nothing decided yet"
    decided = sum(1 for r in update.rows if r["verdict"] != UNDECIDED)
    if update.done:
        why = "every metric decided" if update.decided else "game budget spent"
        return f"final at {update.games} games per pool: {why}"
    return (f"look {update.look} of {update.looks} at {update.games} games per pool: "
            f"{decided} of {len(update.rows)} metrics decided")


def card_games() -> list[str]:
    """The games whose cards the page can tweak (a card graph declared or generic)."""
    from workbench.core.registry import providing
    return providing("card_graph")


def _session_for(bench, game_id: str):
    if bench is not None:
        return bench.tweak_session(game_id)
    from workbench.graphs.tweak import TweakSession
    return TweakSession(game_id=game_id)


def _pane(fig):
    return pn.pane.Bokeh(fig, sizing_mode="stretch_width")


class CardsPage(pn.viewable.Viewer):
    """The game selector and the table on the left; the graph, the edit
    report, the playtest and its flipped games on the right. The page depends
    on the model: its pool's snapshot (table and graph), the selected card
    (graph) and the texts (message, report, undo/redo)."""

    model = param.ClassSelector(class_=CardsModel)

    def __init__(self, bench=None, model: CardsModel | None = None, **params):
        from .graph import DependencyView
        self.bench = bench
        self._drawn: tuple | None = None   # (pool snapshot, (game, selection)) the graph shows
        self._shown_game: str | None = None
        m = model or CardsModel(bench=bench)
        super().__init__(model=m, **params)
        self._game = pn.widgets.Select(label="Game", options=card_games(), value=m.session.game_id, width=200,
                                       css_classes=["cards-game"])
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
        # Meaning Made's graph is redrawn in place (its data only); the other
        # games' card graphs come from the session as a new figure
        self._view = DependencyView(width=760, height=560, on_select=self._on_graph_select)
        self._view_pane = pn.pane.Bokeh(self._view.figure)
        self._pool_pane: pn.pane.Bokeh | None = None  # another game's graph, updated in place
        from .pool_history import PoolHistoryView
        self._versions = PoolHistoryView(lambda: self.model.pool.game, lambda: self.model.pool.folder)
        self._pool_game = ""
        self._graph = pn.Column(self._view_pane, sizing_mode="stretch_width")
        # a new card from the game's blank of a kind, a copy of the selected card, its delete
        self._add_kind = pn.widgets.Select(options=m.blank_kinds, width=130, css_classes=["cards-add-kind"],
                                           disabled=m.read_only or not m.blank_kinds)
        self._add = pn.widgets.Button(label="Add card", width=100, css_classes=["cards-add"],
                                      disabled=m.read_only or not m.blank_kinds)
        self._duplicate = pn.widgets.Button(label="Duplicate", width=100, css_classes=["cards-duplicate"])
        self._delete = pn.widgets.Button(label="Delete", width=90, button_type="danger", button_style="outline",
                                         css_classes=["cards-delete"])
        self._add.on_click(lambda e: self._held(lambda: self.model.add_card(self._add_kind.value)))
        self._duplicate.on_click(lambda e: self._held(self.model.duplicate_card))
        self._delete.on_click(lambda e: self._held(self.model.delete_card))
        self._undo = pn.widgets.Button(label="Undo", width=80)
        self._redo = pn.widgets.Button(label="Redo", width=80)
        self._save = pn.widgets.Button(label="Save to card files", color="primary", width=160,
                                       disabled=m.read_only)
        self._reload_button = pn.widgets.Button(label="Reload from disk", width=140)
        self._export = pn.widgets.FileDownload(callback=lambda: io.BytesIO(self.model.export_bytes(".csv")),
                                               filename="cards.csv", label="Export CSV", width=120)
        self._export_pq = pn.widgets.FileDownload(
            callback=lambda: io.BytesIO(self.model.export_bytes(".parquet")),
            filename="cards.parquet", label="Export Parquet", width=140)
        self._export_sheet = pn.widgets.FileDownload(
            callback=lambda: io.BytesIO(self.model.sheet_bytes("xlsx")),
            filename="cards.xlsx", label="Export spreadsheet", width=150)
        self._import_sheet = pn.widgets.FileInput(accept=".xlsx,.ods,.csv", multiple=False, width=200,
                                                  disabled=m.read_only, css_classes=["cards-import"])
        self._games = pn.widgets.IntInput(label="Games per pool", value=m.playtest_games, start=2,
                                          end=20_000, width=120)
        self._bots = pn.widgets.TextInput(label="Bots", value=m.playtest_bots, width=120)
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
        self._undo.on_click(lambda e: self._held(self.model.undo))
        self._redo.on_click(lambda e: self._held(self.model.redo))
        self._save.on_click(lambda e: self._held(self._save_version))
        self._reload_button.on_click(lambda e: self._held(self.model.reload))
        self._run.on_click(self._on_run)
        self._import_sheet.param.watch(self._on_import, "value")
        self._game.param.watch(self._on_game, "value")
        self._flipped.param.watch(self._on_flip_select, "selection")
        self._open_old.on_click(lambda e: self._open("old"))
        self._open_new.on_click(lambda e: self._open("new"))
        self._poll = None
        self._show_pool()

    # -- reacting to the model ------------------------------------------------------------
    def _when_shown(self, redraw) -> None:
        if self.bench is None:
            redraw()
        else:
            self.bench.when_shown("Cards", redraw)

    @param.depends("model.pool.raw", watch=True)
    def _on_pool(self) -> None:
        self._when_shown(self._refresh)

    @param.depends("model.selected", watch=True)
    def _on_selected(self) -> None:
        self._when_shown(self._draw_graph)

    @param.depends("model.message", "model.report", "model.selected", "model.pool.can_undo", "model.pool.can_redo",
                   watch=True)
    def _on_texts(self) -> None:
        self._when_shown(self._show_message)

    def _refresh(self) -> None:
        """Show the pool as it is now: another game gets a new table (its columns
        differ); the same game gets the cells that differ and the graph's new data."""
        with pn.io.hold():
            if self._shown_game != self.model.pool.game_id:
                self._show_pool()
                return
            patch_table(self._table, table_frame(self.model.table()))
            self._draw_graph()
            self._show_message()

    def _save_version(self) -> None:
        """Save with the note typed for it; the history box shows the new version."""
        written = self.model.save(note=self._versions.note.value.strip() or None)
        if written:
            self._versions.note.value = ""
        self._versions.refresh()

    def _show_pool(self) -> None:
        """Show the model's current game: a new table, its graph, no playtest yet."""
        m = self.model
        self._versions.refresh()
        frame = table_frame(m.table())
        self._shown_game = m.pool.game_id
        self._table.editors = {c: None for c in frame.columns if m.read_only or c not in m.editable_columns}
        self._table.value = frame
        kinds = m.blank_kinds
        self._add_kind.options = kinds
        self._add_kind.value = kinds[0] if kinds else None
        self._add_kind.disabled = self._add.disabled = m.read_only or not kinds
        if self._game.value != m.pool.game_id:
            self._game.value = m.pool.game_id
        self._games.value, self._bots.value = m.playtest_games, m.playtest_bots
        self._playtest.objects, self._flipped_box.visible = [], False
        self._draw_graph()
        self._show_message()

    def _held(self, action) -> None:
        # the redraws the model's change sets off reach the browser as one update
        with pn.io.hold():
            action()

    # -- callbacks -----------------------------------------------------------------
    def _on_game(self, event):
        m = self.model
        try:
            with pn.io.hold():
                m.choose_game(event.new)
        except WorkbenchError as exc:
            m.message = f"refused: {exc}"
            self._game.value = m.pool.game_id  # the selector shows the game still shown

    def _on_edit(self, event):
        m = self.model
        column, row = event.column, event.row
        card = event.old if column == "name" else self._table.value.iloc[row]["name"]
        with pn.io.hold():
            if not m.edit(str(card), column, event.value):
                # put the old value back in the browser too: nothing the designer had is lost
                self._table.patch({column: [(row, event.old)]})
                self._show_message()

    def _on_import(self, event):
        if event.new:
            self._held(lambda: self.model.import_sheet(event.new, self._import_sheet.filename or "upload.xlsx"))
            self._show_message()

    def _on_select(self, event):
        if event.new:
            name = str(self._table.value.iloc[event.new[0]]["name"])
            # Panel hands a table's selection over outside the document lock, and the
            # graph redraw patches bokeh data: run it where the lock is held
            pn.state.execute(lambda: setattr(self.model, "selected", name), schedule=True)

    def _on_graph_select(self, name: str):
        self.model.selected = name

    def _show_message(self):
        m = self.model
        refused = m.message.startswith(("refused", "not saved", "not reloaded", "playtest failed",
                                        "nothing to", "no paired"))
        # every text here can hold card names or file paths: escaped, never markup
        self._message.object = md(m.message)
        self._message.visible = bool(m.message) and refused
        self._notice.object = "" if refused else md(m.message)
        self._report.object = ("**What the last edit changed**\n\n" + "\n".join(f"- {md(line)}" for line in m.report)
                               if m.report else "")
        self._info.object = md(m.card_info())
        self._undo.disabled = m.read_only or not m.session.can_undo
        self._redo.disabled = m.read_only or not m.session.can_redo
        # duplicate and delete act on the selected card, of a kind the game lets grow
        growable = not m.read_only and self._selected_kind() in m.blank_kinds
        self._duplicate.disabled = self._delete.disabled = not growable

    def _selected_kind(self) -> str | None:
        frame, name = self._table.value, self.model.selected
        if frame is None or not name or "kind" not in frame:
            return None
        hit = frame[frame["name"] == name]
        return str(hit["kind"].iloc[0]) if len(hit) else None

    def _draw_graph(self):
        m = self.model
        drawn = self._drawn
        if drawn is not None and drawn[0] is m.pool.raw and drawn[1] == (m.pool.game_id, m.selected):
            return  # this snapshot and selection are on screen already
        self._drawn = (m.pool.raw, (m.pool.game_id, m.selected))
        if m.pool.layered:
            self._view.update(m.session.graph(), m.session.analyses(), m.selected or None)
            if self._graph.objects != [self._view_pane]:
                self._graph.objects = [self._view_pane]
        else:
            fig = m.session.figure(m.selected or None, width=760, height=520)
            shown = self._pool_pane
            if shown is None or self._pool_game != m.pool.game_id or not update_figure(shown.object, fig):
                self._pool_pane, self._pool_game = _pane(fig), m.pool.game_id
            if self._graph.objects != [self._pool_pane]:
                self._graph.objects = [self._pool_pane]
        self._info.object = md(m.card_info())

    def _on_run(self, event=None):
        m = self.model
        m.playtest_games = int(self._games.value)
        m.playtest_bots = self._bots.value.strip() or "greedy"
        if m.start_playtest() is None:
            self._show_message()
            return
        self._playtest.objects = [pn.pane.Markdown("playing…")]
        self._shown_playtest = None
        self._poll = ProgressPoll(m, self._bar, self._run, on_done=self._show_playtest,
                                  on_running=self._show_update)
        self._poll.start()

    def _show_update(self):
        # while it runs: draw each new update of the streamed playtest once
        if self.model.playtest is not None and self.model.playtest is not self._shown_playtest:
            self._draw_playtest()

    def _show_playtest(self):
        self._show_message()
        if self.model.playtest is not None:
            self._draw_playtest()

    def _draw_playtest(self):
        from .formats import paired_table
        m = self.model
        self._shown_playtest = m.playtest
        if m.playtest is not None:
            self._playtest.objects = [
                pn.pane.Markdown(f"**Paired playtest** ({m.playtest.games} games per pool, "
                                 f"{m.playtest.players} players; old = pool as loaded or last saved) — "
                                 f"{m.playtest_state}"),
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
            self.model.open_flipped(self._flipped.selection[0], pool)
        except WorkbenchError as exc:
            self.model.message = f"refused: {exc}"
            self._show_message()

    def __panel__(self):
        # two rows: one would run under the graph's column
        buttons = pn.Row(self._undo, self._redo, self._save, self._reload_button)
        cards = pn.Row(self._add_kind, self._add, self._duplicate, self._delete, css_classes=["cards-grow"])
        exports = pn.Row(self._export, self._export_pq, align="end")
        # the spreadsheet pair on a row of its own: beside the others it ran under the graph
        sheets = pn.Row(self._export_sheet, pn.pane.Markdown("Import spreadsheet:", margin=(12, 5, 0, 20)),
                        self._import_sheet)
        # The table takes the room left of the graph column, at least TABLE_MIN_WIDTH;
        # where there is less (a notebook's output, a narrow window) the graph column
        # wraps below the table instead of squeezing it to a few columns and running
        # its text over the buttons.
        left = pn.Column(pn.FlexBox(self._game, exports, flex_wrap="wrap", align_items="flex-end"), buttons,
                         cards, sheets, self._message, self._notice, self._table, sizing_mode="stretch_width",
                         min_width=TABLE_MIN_WIDTH, styles={"flex": f"1 1 {TABLE_MIN_WIDTH}px"})
        playtest = pn.Column(pn.Row(self._games, self._bots, self._run), self._bar, self._playtest,
                             self._flipped_box, sizing_mode="stretch_width")
        right = pn.Column(self._info, self._graph, self._report, playtest, self._versions, width=780,
                          styles={"flex": "0 0 780px"})
        return pn.FlexBox(left, right, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")


#: the narrowest the card table gets beside the graph (pixels); narrower, the graph goes below
TABLE_MIN_WIDTH = 640


def table_frame(table):
    """The polars card table as the pandas frame Tabulator shows. An integer
    column with gaps (a field only some kinds of card have) stays whole numbers
    and blanks: pandas would make it floats, and the page would print 2.0 and NaN."""
    import pandas as pd
    frame = table.to_pandas()
    for name, dtype in zip(table.columns, table.dtypes):
        if dtype.is_integer() and table[name].null_count():
            frame[name] = pd.Series(table[name].to_list(), dtype=object)
    return frame


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
