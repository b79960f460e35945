"""The Graph page: the Pattern dependency graph drawn with bokeh (hover for a
card's requirement, bonus and provenance), a card to select, and what that card
needs and unlocks.

It draws the live-tweak session the Cards page edits, so an edit there shows
here at once. The graph and its drawing are :mod:`workbench.graphs.dependency`
and :mod:`workbench.graphs.drawing`; this page only chooses and lays out."""

from __future__ import annotations

import panel as pn
import param

from .escape import md

from workbench.core.errors import WorkbenchError


class GraphModel(param.Parameterized):
    """The graph of a tweak session and the card selected in it."""

    selected = param.String(default="", doc="card name, empty for none")
    version = param.Integer(default=0)

    def __init__(self, session=None, bench=None, **params):
        super().__init__(**params)
        if session is None:
            if bench is not None:
                session = bench.tweak_session()
            else:
                from workbench.graphs.tweak import TweakSession
                session = TweakSession()
        self.session = session

    def card_names(self) -> list[str]:
        return self.session.card_names()

    def select(self, card: str) -> None:
        """Select a card by name (case-insensitive); an unknown name is refused
        with the nearest suggestion."""
        card = (card or "").strip()
        if not card:
            self.selected = ""
            return
        self.session.card_links(card)  # raises with a suggestion when unknown
        self.selected = next(n for n in self.card_names() if n.lower() == card.lower())

    def links(self) -> dict[str, list[str]]:
        return self.session.card_links(self.selected) if self.selected else {"needs": [], "unlocks": []}

    def figure(self):
        return self.session.figure(self.selected or None, width=1100, height=700)

    def status_rows(self):
        """The analyses' card summary (polars), for the table under the graph."""
        summary = self.session.analyses().get("card_summary")
        return summary


class GraphPage(pn.viewable.Viewer):
    """The graph with a card picker and the selected card's links."""

    def __init__(self, bench=None, model: GraphModel | None = None, **params):
        super().__init__(**params)
        self.bench = bench
        self.model = m = model or GraphModel(bench=bench)
        self._card = pn.widgets.AutocompleteInput(label="Card", options=m.card_names(), case_sensitive=False,
                                                  search_strategy="includes", placeholder="type a card name",
                                                  width=260, restrict=False)
        self._clear = pn.widgets.Button(label="Clear selection", width=130)
        self._links = pn.pane.Markdown("", css_classes=["graph-links"])
        self._message = pn.pane.Alert("", alert_type="warning", visible=False)
        self._plot = pn.Column(sizing_mode="stretch_width")
        self._summary = pn.Column(sizing_mode="stretch_width")
        self._card.param.watch(self._on_card, "value")
        self._clear.on_click(lambda e: self._on_card(None))
        if bench is not None:
            bench.param.watch(lambda e: self._redraw(), "cards_version")
        self._redraw()

    def _on_card(self, event):
        value = event.new if event is not None else ""
        try:
            self.model.select(value)
            self._message.visible = False
        except WorkbenchError as exc:
            self._message.object, self._message.visible = str(exc), True
            return
        self._redraw()

    def _on_tap(self, attr, old, new):
        # a click on a node in the drawing selects that card
        if new:
            names = self._names
            name = names[new[0]] if new[0] < len(names) else ""
            if name and name != self.model.selected:
                self.model.selected = name
                self._links.object = self._links_text()

    def _links_text(self) -> str:
        m = self.model
        if not m.selected:
            return "*Select a card (type its name, or click it in the graph) to see what it needs and unlocks.*"
        links = m.links()
        return (f"**{md(m.selected)}** needs: {md(', '.join(links['needs']) or 'nothing')} · "
                f"unlocks: {md(', '.join(links['unlocks']) or 'nothing')}")

    def _redraw(self):
        m = self.model
        self._card.options = m.card_names()
        fig = m.figure()
        graph_renderer = next((r for r in fig.renderers if hasattr(r, "node_renderer")), None)
        if graph_renderer is not None:
            source = graph_renderer.node_renderer.data_source
            self._names = list(source.data.get("name", []))
            source.selected.on_change("indices", self._on_tap)
        self._plot.objects = [pn.pane.Bokeh(fig)]
        self._links.object = self._links_text()
        summary = m.status_rows()
        if summary is not None and summary.height:
            self._summary.objects = [pn.widgets.Tabulator(summary.to_pandas(), disabled=True, show_index=False,
                                                          height=300, sizing_mode="stretch_width",
                                                          pagination=None)]

    def __panel__(self):
        return pn.Column(pn.Row(self._card, self._clear), self._message, self._links, self._plot,
                         "#### Card analyses", self._summary, sizing_mode="stretch_width")
