"""The Cards page: a game's card pool (any bundled game, chosen above the
table) in an editable table.

Each edit goes through the live-tweak session (:class:`workbench.tweak.session.TweakSession`):
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

:class:`~.cards_model.CardsModel` (in :mod:`.cards_model`) is the plain model;
:class:`CardsPage` here draws it and only draws it. Polars tables become pandas
only where Tabulator takes them (:mod:`.tables`)."""

from __future__ import annotations

import io

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .background import ProgressPoll
from .cards_model import CardsModel, card_games
from .escape import md
from .graph import OwnView
from .pool import update_figure
from .progress import ProgressLine
from .tables import patch_table, table_frame

__all__ = ["CardsModel", "CardsPage", "TABLE_MIN_WIDTH", "card_games"]

def _pane(fig):
    return pn.pane.Bokeh(fig, sizing_mode="stretch_width")


#: the narrowest the card table gets beside the graph (pixels); narrower, the graph goes below
TABLE_MIN_WIDTH = 640


class CardsPage(pn.viewable.Viewer):
    """The game selector and the table on the left; on the right the playtest
    (its verdict at the top, beside the edit) and its flipped games, the edit
    report and the graph. The page depends
    on the model: its pool's snapshot (table and graph), the selected card
    (graph) and the texts (message, report, undo/redo)."""

    model = param.ClassSelector(class_=CardsModel)

    def __init__(self, bench=None, model: CardsModel | None = None, **params):
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
        self._doing = ProgressLine("cards")
        # a layout the game's session draws itself is redrawn in place (its data
        # only); a grouped card graph comes from the session as a new figure
        self._own = OwnView(width=760, height=560, on_select=self._on_graph_select)
        self._pool_pane: pn.pane.Bokeh | None = None  # another game's graph, updated in place
        from .pool_history import PoolHistoryView
        self._versions = PoolHistoryView(lambda: self.model.pool.game, lambda: self.model.pool.folder)
        self._pool_game = ""
        self._graph = pn.Column(sizing_mode="stretch_width")
        # a new card from the game's blank of a kind, a copy of the selected card, its delete
        self._add_kind = pn.widgets.Select(options=m.blank_kinds, width=130, css_classes=["cards-add-kind"],
                                           disabled=m.read_only or not m.blank_kinds)
        self._add = pn.widgets.Button(label="Add card", width=100, css_classes=["cards-add"],
                                      disabled=m.read_only or not m.blank_kinds)
        self._duplicate = pn.widgets.Button(label="Duplicate", width=100, css_classes=["cards-duplicate"])
        self._delete = pn.widgets.Button(label="Delete", width=90, color="danger", variant="outline",
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
        self._flipped = pn.widgets.Tabulator(flipped_frame([]), disabled=True, selectable=1, height=200, show_index=False,
                                             sizing_mode="stretch_width", css_classes=["cards-flipped"])
        self._open_old = pn.widgets.Button(label="Open selected game (old pool) in Play", disabled=True)
        self._open_new = pn.widgets.Button(label="Open selected game (new pool) in Play", disabled=True)
        self._flipped_box = pn.Column("#### Games whose outcome flipped", self._flipped,
                                      pn.Row(self._open_old, self._open_new), visible=False,
                                      sizing_mode="stretch_width")
        # why the change happened, and per-card impact: model.why, model.impact
        self._why = pn.pane.Markdown("", css_classes=["cards-why"], sizing_mode="stretch_width")
        self._shares = pn.widgets.Button(label="Each edit's share (plays more games)", width=260)
        self._ban = pn.widgets.Button(label="Ban the selected card", width=200)
        self._ban_text = pn.pane.Markdown("", css_classes=["cards-ban"], sizing_mode="stretch_width")
        self._impact = pn.widgets.Tabulator(impact_frame([]), disabled=True, height=220, show_index=False,
                                            sizing_mode="stretch_width", css_classes=["cards-impact"])
        self._impact_box = pn.Column("#### Card impact (edited pool's games; takers may win because leaders "
                                     "take the card: a ban is the causal test)", self._impact,
                                     pn.Row(self._shares, self._ban), self._ban_text, visible=False,
                                     sizing_mode="stretch_width")
        self._shares.on_click(lambda e: self._start_extra(self.model.start_shares))
        self._ban.on_click(lambda e: self._start_extra(self.model.start_ban))
        self._undo.on_click(lambda e: self._held(self.model.undo))
        self._redo.on_click(lambda e: self._held(self.model.redo))
        self._save.on_click(self._on_save)
        self._reload_button.on_click(self._on_reload)
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
    def _open_pool(self, game_id: str):
        # on a thread (ProgressLine.run): a pool is read, validated and graphed once
        # per game, which takes seconds; the dashboard keeps it for the next switch
        if self.bench is not None:
            return self.bench.tweak_session(game_id)
        return None

    async def _on_game(self, event):
        from .names import game_name
        m = self.model
        if event.new == m.pool.game_id:
            return

        def show(_pool):
            with pn.io.hold():
                m.choose_game(event.new)
        try:
            await self._doing.run(f"Loading {game_name(event.new)}'s cards and their graph…", show,
                                  off_loop=lambda: self._open_pool(event.new))
        except WorkbenchError as exc:
            m.message = f"refused: {exc}"
            self._game.value = m.pool.game_id  # the selector shows the game still shown

    async def _on_save(self, event=None):
        await self._doing.run("Saving the card files…", lambda: self._held(self._save_version))

    async def _on_reload(self, event=None):
        await self._doing.run("Reading the card files again from disk…", lambda: self._held(self.model.reload))

    def _on_edit(self, event):
        m = self.model
        column, row = event.column, event.row
        card = event.old if column == "name" else self._table.value.iloc[row]["name"]
        with pn.io.hold():
            if not m.edit(str(card), column, event.value):
                # put the old value back in the browser too: nothing the designer had is lost
                self._table.patch({column: [(row, event.old)]})
                self._show_message()

    async def _on_import(self, event):
        if event.new:
            name = self._import_sheet.filename or "upload.xlsx"
            await self._doing.run(f"Reading the spreadsheet {name}…",
                                  lambda: self._held(lambda: self.model.import_sheet(event.new, name)))
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
        if m.pool.layout != "grouped":
            pane = self._own.show(m.session, m.selected or None)
            if self._graph.objects != [pane]:
                self._graph.objects = [pane]
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
                # the verdict column is narrow and wraps: a long verdict ("higher, size not yet
                # clear") must not push the answer past the window's right edge
                pn.widgets.Tabulator(paired_table(m.playtest.summary), disabled=True, show_index=False,
                                     sizing_mode="stretch_width", layout="fit_data_stretch",
                                     widths={"verdict": 220}, formatters={"verdict": {"type": "textarea"}})]
            rows = m.flipped_rows()
            self._flipped.value = flipped_frame(rows)
            self._flipped_box.visible = bool(rows)
        self._draw_why()

    def _draw_why(self):
        m = self.model
        self._why.object = "\n\n".join(md(line.strip()) for line in m.why)
        if m.why and self._why not in self._playtest.objects:
            self._playtest.append(self._why)
        self._impact.value = impact_frame(m.impact_rows())
        self._impact_box.visible = bool(m.impact)
        self._ban_text.object = md(m.ban_line())

    def _start_extra(self, start):
        # the edits' shares or a ban: games in the background, drawn when done
        if start() is None:
            self._show_message()
            return
        self._poll = ProgressPoll(self.model, self._bar, self._run, on_done=self._after_extra)
        self._poll.start()

    def _after_extra(self):
        self._show_message()
        self._draw_why()

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
                         cards, sheets, self._doing.pane, self._message, self._notice, self._table, sizing_mode="stretch_width",
                         min_width=TABLE_MIN_WIDTH, styles={"flex": f"1 1 {TABLE_MIN_WIDTH}px"})
        playtest = pn.Column(pn.Row(self._games, self._bots, self._run), self._bar, self._playtest,
                             self._flipped_box, self._impact_box, sizing_mode="stretch_width")
        # the playtest first: its verdict sits beside the edit, in view without
        # scrolling as soon as it exists (the graph is 560 px tall; below it the
        # verdict was under the fold)
        right = pn.Column(self._info, playtest, self._report, self._graph, self._versions, width=780,
                          styles={"flex": "0 0 780px"})
        return pn.FlexBox(left, right, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")


#: the flipped-games table's columns, empty or not: a Tabulator whose columns change
#: while the browser is still building it (hidden, or just shown) throws in setColumns
FLIPPED_COLUMNS = ["game", "seed", "old ending", "old winners", "new ending", "new winners"]


def flipped_frame(rows: list[dict]):
    """The flipped games as the table's frame, with every column even when empty."""
    import pandas as pd
    return pd.DataFrame(rows, columns=FLIPPED_COLUMNS)


#: the card-impact table's columns, empty or not (as the flipped games')
IMPACT_COLUMNS = ["card", "games taken", "taker's win share", "edge over the other seats"]


def impact_frame(rows: list[dict]):
    """The card-impact rows as the table's frame, with every column even when empty."""
    import pandas as pd
    return pd.DataFrame(rows, columns=IMPACT_COLUMNS)
