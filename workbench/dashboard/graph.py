"""The Graph page: the card dependency graph drawn with bokeh (hover for a
card's requirement, bonus and provenance), a card to select, and what that card
needs and unlocks, highlighted in the drawing.

It has its own game selector and names the game in its title; it draws that
game's live pool (the one the Cards page edits for the same game) and depends on
its snapshot, so an edit there, or a proposal applied on the Balance page,
shows here. Choosing another game clears the card chosen, so a card of one game
is never shown above another game's graph. The graph and its analyses are
the game's card graph module; a session with a layout of its own hands the page
the view it draws in (its ``live_view``, see :class:`OwnView`), every other
graph is grouped by :class:`workbench.graphs.drawing.PoolView`; either is
updated in place (patched data sources) rather than rebuilt."""

from __future__ import annotations

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .escape import md
from .pool import LivePool, live, patch_source
from .tables import patch_table


class GraphModel(param.Parameterized):
    """The graph of a live card pool and the card selected in it. With a
    dashboard the pool is the dashboard's live pool of :attr:`game_id` (the one
    the Cards page edits when it shows the same game)."""

    game_id = param.Selector(default=None, objects=[], doc="the game whose card graph is drawn")
    selected = param.String(default="", doc="card name, empty for none")
    group_by = param.String(default="kind", doc="how a grouped card graph is grouped (its graph's groupings)")
    show = param.List(default=[], item_type=str, doc="the groups a grouped card graph shows; empty: all")
    pool = param.ClassSelector(class_=LivePool, doc="the live pool drawn")

    def __init__(self, session=None, bench=None, **params):
        self._bench = bench
        if session is not None:
            pool = live(session)
        elif bench is not None:
            pool = bench.tweak_session(params.pop("game_id", None) or bench.card_game)
        else:
            from workbench.tweak import open_session
            pool = live(open_session(game_id=params.pop("game_id", None)))
        params.pop("game_id", None)
        super().__init__(pool=pool, **params)
        from workbench.core.registry import providing
        games = list(providing("card_graph"))
        self.param.game_id.objects = games if pool.game_id in games else [*games, pool.game_id]
        with param.parameterized.discard_events(self):
            self.game_id = pool.game_id

    @param.depends("game_id", watch=True)
    def _follow_game(self) -> None:
        if self.pool.game_id == self.game_id:
            return
        # the card chosen belongs to the old game: cleared before the new pool is drawn
        self.param.update(selected="", show=[])
        if self._bench is not None:
            self.pool = self._bench.tweak_session(self.game_id)
        else:
            from workbench.tweak import open_session
            self.pool = live(open_session(game_id=self.game_id))

    @property
    def session(self) -> LivePool:
        return self.pool

    @param.depends("pool", "pool.raw", watch=True)
    def _keep_selection_valid(self) -> None:
        # another game, or the selected card renamed: nothing stays selected
        if self.selected and self.selected not in self.card_names():
            self.selected = ""

    def card_names(self) -> list[str]:
        return self.pool.card_names()

    def select(self, card: str) -> None:
        """Select a card by name (case-insensitive); an unknown name is refused
        with the nearest suggestion."""
        card = (card or "").strip()
        if not card:
            self.selected = ""
            return
        self.pool.card_links(card)  # raises with a suggestion when unknown
        self.selected = next(n for n in self.card_names() if n.lower() == card.lower())

    def links(self) -> dict[str, list[str]]:
        return self.pool.card_links(self.selected) if self.selected else {"needs": [], "unlocks": []}

    def figure(self):
        return self.pool.figure(self.selected or None, width=1100, height=700)

    def status_rows(self):
        """The analyses' card summary (polars), for the table under the graph."""
        return self.pool.analyses().get("card_summary")


class GraphPage(pn.viewable.Viewer):
    """The graph with a card picker and the selected card's links. The page
    depends on the model's pool snapshot and selection; while it is hidden a
    change (an edit on the Cards page) waits, and it catches up when shown."""

    model = param.ClassSelector(class_=GraphModel)

    def __init__(self, bench=None, model: GraphModel | None = None, **params):
        self.bench = bench
        super().__init__(model=model or GraphModel(bench=bench), **params)
        self._game = pn.widgets.Select(label="Game", options=list(self.model.param.game_id.objects),
                                       value=self.model.game_id, width=220, css_classes=["graph-game"])
        self._game.param.watch(self._on_game, "value")
        self._card = pn.widgets.AutocompleteInput(label="Card", options=[], case_sensitive=False,
                                                  search_strategy="includes", placeholder="type a card name",
                                                  width=260, restrict=False)
        self._clear = pn.widgets.Button(label="Clear selection", width=130)
        self._links = pn.pane.Markdown("", css_classes=["graph-links"])
        from .progress import ProgressLine
        self._doing = ProgressLine("graph")
        self._message = pn.pane.Alert("", alert_type="warning", visible=False)
        # a layout the game's session draws itself (its live_view), made once per game
        self._own = OwnView(on_select=self._on_tap)
        # every other card graph: grouped by kind or the graph's other groupings, filterable
        from workbench.graphs.drawing import PoolView
        self._pool_view = PoolView(on_select=self._on_tap)
        self._pool_pane = pn.pane.Bokeh(self._pool_view.figure)
        self._group_by = pn.widgets.RadioButtonGroup(name="Group by", options=["kind"], value="kind",
                                                     button_type="default", width=200)
        self._show = pn.widgets.MultiChoice(name="Show only these groups", options=[], value=[],
                                            placeholder="every group", width=520)
        self._grouping = pn.Row(pn.pane.Markdown("Group by", margin=(12, 4, 0, 10)), self._group_by,
                                self._show, visible=False)
        self._group_by.param.watch(self._on_group_by, "value")
        self._show.param.watch(lambda e: setattr(self.model, "show", list(e.new)), "value")
        self._plot = pn.Column(sizing_mode="stretch_width")
        self._summary = pn.widgets.Tabulator(None, disabled=True, show_index=False, height=300,
                                             sizing_mode="stretch_width", pagination=None)
        self._card.param.watch(self._on_card, "value")
        self._clear.on_click(lambda e: self._on_card(None))
        self._redraw()

    def _when_shown(self, redraw) -> None:
        if self.bench is None:
            redraw()
        else:
            self.bench.when_shown("Graph", redraw)

    @param.depends("model.pool.raw", watch=True)
    def _on_pool(self) -> None:
        self._when_shown(self._redraw)

    async def _on_game(self, event) -> None:
        # the card box is emptied first: it never holds a card of another game
        self._card.value = ""
        if event.new == self.model.game_id:
            return
        from .names import game_name

        def show(_pool):
            self.model.game_id = event.new
            self._redraw()
        # a pool not opened yet is read and graphed on a thread (seconds), the line saying so
        opening = (lambda: self.bench.tweak_session(event.new)) if self.bench is not None else None
        await self._doing.run(f"Loading {game_name(event.new)}'s cards and drawing their graph…", show,
                              off_loop=opening or (lambda: None), disable=(self._game,))

    @param.depends("model.selected", "model.show", "model.group_by", watch=True)
    def _on_selected(self) -> None:
        self._when_shown(self._draw_selection)

    def _on_group_by(self, event) -> None:
        # the groups of one grouping mean nothing in another: the filter starts empty
        with pn.io.hold():
            self.model.param.update(group_by=event.new, show=[])
            self._show.value = []

    def _on_card(self, event):
        value = event.new if event is not None else ""
        try:
            self.model.select(value)
            self._message.visible = False
        except WorkbenchError as exc:
            self._message.object, self._message.visible = md(str(exc)), True

    def _on_tap(self, name: str):
        # a click on a node in the drawing selects that card
        if name and name != self.model.selected and name in self.model.card_names():
            self.model.selected = name

    def _links_text(self) -> str:
        m = self.model
        if not m.selected:
            return "*Select a card (type its name, or click it in the graph) to see what it needs and unlocks.*"
        links = m.links()
        return (f"**{md(m.selected)}** needs: {md(', '.join(links['needs']) or 'nothing')} · "
                f"unlocks: {md(', '.join(links['unlocks']) or 'nothing')}")

    def _draw_graph(self) -> None:
        m = self.model
        if m.pool.layout != "grouped":
            pane = self._own.show(m.pool, m.selected or None)
            self._grouping.visible = False
            if self._plot.objects != [pane]:
                self._plot.objects = [pane]
            return
        from workbench.graphs.drawing import groupings
        graph = m.pool.graph()
        ways = groupings(graph)
        by = m.group_by if m.group_by in ways else next(iter(ways))
        if self._group_by.options != list(ways):
            self._group_by.options = list(ways)
        self._group_by.value = by
        self._show.options = ways[by]
        self._show.value = [g for g in m.show if g in ways[by]]
        self._grouping.visible = True
        self._pool_view.update(graph, m.pool.analyses().get("card_status"), m.selected or None, by=by,
                               show=self._show.value)
        if self._plot.objects != [self._pool_pane]:
            self._plot.objects = [self._pool_pane]

    def _draw_selection(self):
        with pn.io.hold():
            self._draw_graph()
            self._links.object = self._links_text()

    def _redraw(self):
        m = self.model
        with pn.io.hold():
            if self._game.value != m.pool.game_id:
                self._game.value = m.pool.game_id
            names = m.card_names()
            self._card.options = names
            if self._card.value and self._card.value not in names:
                self._card.value = ""
            self._draw_graph()
            self._links.object = self._links_text()
            summary = m.status_rows()
            if summary is not None and summary.height:
                patch_table(self._summary, summary.to_pandas())

    def __panel__(self):
        return pn.Column(pn.Row(self._game, self._card, self._clear), self._doing.pane, self._grouping,
                         self._message,
                         self._links, self._plot,
                         "#### Card analyses", self._summary, sizing_mode="stretch_width")


# -- the drawing ---------------------------------------------------------------------------

class OwnView:
    """The drawing of a session whose :attr:`~workbench.tweak.session.TweakSession.layout`
    is its own: the session's ``live_view`` (made once per game and kept, so an
    edit patches its data and never rebuilds the figure) in a bokeh pane."""

    def __init__(self, on_select=None, **size):
        self.on_select, self.size = on_select, size
        self.game_id: str | None = None
        self.view = self.pane = None

    def show(self, pool, selected: str | None = None) -> pn.pane.Bokeh:
        """The pane with ``pool``'s graph and ``selected`` drawn in it."""
        if self.view is None or self.game_id != pool.game_id:
            self.view = pool.live_view(on_select=self.on_select, **self.size)
            self.pane, self.game_id = pn.pane.Bokeh(self.view.figure), pool.game_id
        self.view.update(pool.graph(), pool.analyses(), selected)
        return self.pane
