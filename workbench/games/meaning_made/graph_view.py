"""Meaning Made's card graph drawn on its Layers, 1 at the bottom and 10 at the top,
cards of a Layer spread left to right in name order, so the same pool always
draws the same picture; Layer hubs stand in a column at the left.

:func:`dependency_figure` is the whole drawing (notebooks, ``workbench graph
--html``, the session's ``figure``); :class:`DependencyView` is the one the Cards
and Graph pages keep and update in place (the session's ``live_view``): an edit
or a new selection changes its data sources, never the figure. Both use the
legend every card graph shows (:func:`workbench.graphs.drawing.add_legend`).
"""

from __future__ import annotations

import networkx as nx

from workbench.graphs.drawing import OUTLINES, ROLES, TapSelect, add_legend, patch_source

LAYER_COLOURS = {
    1: "#8dd3c7", 2: "#bebada", 3: "#fb8072", 4: "#80b1d3", 5: "#fdb462",
    6: "#b3de69", 7: "#fccde5", 8: "#bc80bd", 9: "#ccebc5", 10: "#ffed6f",
}
EDGE_COLOURS = {"requires": "#7f7f7f", "supplies": "#2c7fb8", "prerequisite": "#d95f0e"}


def layered_layout(graph: nx.DiGraph, width: float = 10.0) -> dict[str, tuple[float, float]]:
    """Deterministic positions: y is the Layer, x spreads a Layer's cards evenly;
    Layer nodes sit in a column at the left."""
    rows: dict[int, list[str]] = {}
    pos: dict[str, tuple[float, float]] = {}
    for n, data in graph.nodes(data=True):
        if data["kind"] == "layer":
            pos[n] = (-1.0, float(data["layer"]))
        else:
            rows.setdefault(data["layer"], []).append(n)
    for layer, nodes in rows.items():
        nodes.sort(key=lambda n: graph.nodes[n]["name"].lower())
        step = width / max(1, len(nodes))
        for i, n in enumerate(nodes):
            pos[n] = (step * (i + 0.5), float(layer))
    return pos


def _status(name: str, kind: str, analyses) -> str:
    if not analyses:
        return ""
    if kind == "pattern":
        via = analyses["pattern_viability"]
        row = via.filter(via["pattern"] == name)
        if row.height and row["dead"][0]:
            return "dead: " + row["dead_reason"][0]
        if row.height and row["dominated_by"][0]:
            return "dominated by " + row["dominated_by"][0]
    if kind == "initiative":
        feas = analyses["initiative_feasibility"]
        ok = feas.filter((feas["initiative"] == name) & feas["feasible"])["players"].to_list()
        return f"feasible at {','.join(map(str, ok))} players" if ok else "infeasible at every player count"
    return ""


def dependency_figure(graph: nx.DiGraph, analyses: dict | None = None, selected: str | None = None,
                      *, width: int = 1100, height: int = 700, title: str = "Card dependency graph"):
    """A bokeh figure of the dependency graph. ``analyses`` (from
    :func:`.card_graph.analyses`) marks dead and dominated cards;
    ``selected`` (a card name) starts selected."""
    from bokeh.models import (Circle, HoverTool, LabelSet, MultiLine, NodesAndLinkedEdges, Range1d,
                              TapTool, ColumnDataSource)
    from bokeh.plotting import figure, from_networkx

    pos = layered_layout(graph)
    clean = nx.DiGraph()
    for n, d in graph.nodes(data=True):
        status = _status(d["name"], d["kind"], analyses)
        outline = "#d62728" if status.startswith(("dead", "infeasible")) else (
            "#ff7f0e" if status.startswith("dominated") else "#333333")
        clean.add_node(n, name=str(d["name"]), kind=d["kind"], layer=int(d["layer"]),
                       requirement=str(d.get("requirement", "")), bonus=str(d.get("bonus", "")),
                       provenance=str(d.get("provenance", "")), status=status,
                       colour=LAYER_COLOURS.get(int(d["layer"]), "#dddddd"), outline=outline,
                       size=0.16 if d["kind"] == "layer" else 0.11)
    for u, v, d in graph.edges(data=True):
        clean.add_edge(u, v, kind=d["kind"], colour=EDGE_COLOURS.get(d["kind"], "#999999"))

    fig = figure(width=width, height=height, title=title, x_range=Range1d(-1.6, 10.4),
                 y_range=Range1d(0.3, 10.7), tools="pan,wheel_zoom,box_zoom,reset,save",
                 toolbar_location="above")
    fig.xaxis.visible = False
    fig.yaxis.axis_label = "Layer"
    fig.grid.visible = False
    rend = from_networkx(clean, pos)
    rend.node_renderer.glyph = Circle(radius="size", fill_color="colour", line_color="outline", line_width=2)
    rend.node_renderer.selection_glyph = Circle(radius="size", fill_color="colour", line_color="#000000",
                                                line_width=4)
    rend.node_renderer.nonselection_glyph = Circle(radius="size", fill_color="colour", fill_alpha=0.25,
                                                   line_color="outline", line_alpha=0.3)
    rend.edge_renderer.glyph = MultiLine(line_color="colour", line_alpha=0.35, line_width=1)
    rend.edge_renderer.selection_glyph = MultiLine(line_color="colour", line_alpha=1.0, line_width=3)
    rend.edge_renderer.nonselection_glyph = MultiLine(line_color="colour", line_alpha=0.08, line_width=1)
    rend.selection_policy = NodesAndLinkedEdges()
    rend.inspection_policy = NodesAndLinkedEdges()
    fig.renderers.append(rend)
    fig.add_tools(HoverTool(renderers=[rend.node_renderer], tooltips=[
        ("card", "@name"), ("Layer", "@layer"), ("requirement", "@requirement"), ("bonus", "@bonus"),
        ("provenance", "@provenance"), ("status", "@status")]), TapTool(renderers=[rend.node_renderer]))

    names = list(rend.node_renderer.data_source.data["index"])
    labels = ColumnDataSource({
        "x": [pos[n][0] for n in names], "y": [pos[n][1] - 0.22 for n in names],
        "text": [clean.nodes[n]["name"] for n in names]})
    fig.add_layout(LabelSet(x="x", y="y", text="text", source=labels, text_font_size="7pt",
                            text_align="center", text_color="#333333"))
    if selected is not None:
        target = [i for i, n in enumerate(names) if clean.nodes[n]["name"].lower() == selected.lower()]
        rend.node_renderer.data_source.selected.indices = target
    return fig


# -- the view the pages keep ------------------------------------------------------------

#: label offsets below/above a node, cycled along a Layer so neighbours' names do not collide
LABEL_OFFSETS = (-0.2, 0.19, -0.33)


def _outline_kind(status: str) -> str:
    if status.startswith(("dead", "infeasible")):
        return "dead"
    return "dominated" if status.startswith("dominated") else "ok"


def link_nodes(graph, node: str) -> tuple[set[str], set[str], list[tuple[str, str]]]:
    """What ``node`` needs, what it unlocks (through Layer hubs) and the
    graph's edges between them, as node ids."""
    needs = set(graph.predecessors(node))
    unlocks: set[str] = set()
    edges = [(u, node) for u in needs]
    for v in graph.successors(node):
        edges.append((node, v))
        if graph.nodes[v]["kind"] == "layer":
            for w in graph.successors(v):
                unlocks.add(w)
                edges.append((v, w))
        unlocks.add(v)
    return needs, unlocks, edges


class DependencyView(TapSelect):
    """The dependency graph as one bokeh figure built once and updated in
    place: an edit or a new selection changes its data sources, never the
    figure. Edges are drawn only for the selected card (what it needs, in
    green; what it unlocks, in purple), so the 80-odd cards stay readable; the
    legend names the outlines (dead, dominated) and the selection colours.
    A click on a card calls ``on_select(name)``."""

    def __init__(self, width: int = 1100, height: int = 680, on_select=None):
        from bokeh.models import (ColumnDataSource, HoverTool, LabelSet, Range1d,
                                  TapTool)
        from bokeh.plotting import figure
        self.on_select = on_select
        self.names: list[str] = []
        self.nodes = ColumnDataSource({k: [] for k in (
            "x", "y", "name", "kind", "layer", "requirement", "bonus", "provenance", "status", "fill",
            "outline", "width", "alpha", "radius", "role")})
        self.edges = ColumnDataSource({"xs": [], "ys": [], "colour": []})
        self.labels = ColumnDataSource({"x": [], "y": [], "text": [], "alpha": []})
        fig = figure(width=width, height=height, x_range=Range1d(-1.6, 10.4), y_range=Range1d(0.4, 10.7),
                     tools="pan,wheel_zoom,box_zoom,reset,save", toolbar_location="above",
                     title="Card dependency graph: select a card to see what it needs and unlocks")
        fig.xaxis.visible = False
        fig.yaxis.axis_label = "Layer"
        fig.grid.visible = False
        fig.multi_line("xs", "ys", line_color="colour", line_width=2, line_alpha=0.8, source=self.edges)
        nodes = fig.circle("x", "y", radius="radius", fill_color="fill", fill_alpha="alpha",
                           line_color="outline", line_width="width", line_alpha="alpha", source=self.nodes)
        # bokeh's own selection look would fade the cards we mean to highlight: the
        # roles in the data do the highlighting
        nodes.selection_glyph = nodes.glyph
        nodes.nonselection_glyph = nodes.glyph
        fig.add_layout(LabelSet(x="x", y="y", text="text", source=self.labels, text_font_size="7pt",
                                text_align="center", text_baseline="middle", text_color="#222222",
                                text_alpha="alpha"))
        fig.add_tools(HoverTool(renderers=[nodes], tooltips=[
            ("card", "@name"), ("Layer", "@layer"), ("requirement", "@requirement"), ("bonus", "@bonus"),
            ("provenance", "@provenance"), ("status", "@status")]), TapTool(renderers=[nodes]))
        add_legend(fig)
        self.figure = fig
        self.nodes.selected.on_change("indices", self._on_tap)

    def update(self, graph, analyses, selected: str | None = None) -> None:
        """Show ``graph`` with ``selected`` (a card name) and its links."""
        pos = layered_layout(graph)
        node = next((n for n, d in graph.nodes(data=True) if selected and d["kind"] != "layer"
                     and str(d["name"]).lower() == selected.lower()), None)
        needs, unlocks, edges = link_nodes(graph, node) if node is not None else (set(), set(), [])
        data = {k: [] for k in self.nodes.data}
        labels = {"x": [], "y": [], "text": [], "alpha": []}
        # a card's place along its Layer, left to right, picks its label offset
        rank = {n: i for row in _rows(pos, graph) for i, n in enumerate(row)}
        for n, d in graph.nodes(data=True):
            x, y = pos[n]
            status = _status(str(d["name"]), d["kind"], analyses)
            role = "selected" if n == node else "needs" if n in needs else "unlocks" if n in unlocks else ""
            hub = d["kind"] == "layer"
            faded = node is not None and not role
            for key, value in (("x", x), ("y", y), ("name", str(d["name"])), ("kind", d["kind"]),
                               ("layer", int(d["layer"])), ("requirement", str(d.get("requirement", ""))),
                               ("bonus", str(d.get("bonus", ""))), ("provenance", str(d.get("provenance", ""))),
                               ("status", status), ("fill", LAYER_COLOURS.get(int(d["layer"]), "#dddddd")),
                               ("outline", ROLES[role] if role else OUTLINES[_outline_kind(status)]),
                               ("width", 4 if role else 2), ("alpha", 0.25 if faded else 1.0),
                               ("radius", 0.16 if hub else 0.11), ("role", role)):
                data[key].append(value)
            if hub:
                labels["x"].append(x - 0.32)
                labels["y"].append(y)
                labels["text"].append(f"L{d['layer']}")
            else:
                labels["x"].append(x)
                labels["y"].append(y + LABEL_OFFSETS[rank[n] % len(LABEL_OFFSETS)])
                labels["text"].append(str(d["name"]))
            labels["alpha"].append(0.3 if faded else 1.0)
        self.names = list(data["name"])
        # an edit changes a few cells (a requirement, a status, an outline): only those are sent
        patch_source(self.nodes, data)
        patch_source(self.labels, labels)
        patch_source(self.edges, {
            "xs": [[pos[u][0], pos[v][0]] for u, v in edges],
            "ys": [[pos[u][1], pos[v][1]] for u, v in edges],
            "colour": [ROLES["needs"] if v == node else ROLES["unlocks"] for u, v in edges]})
        self.figure.title.text = (f"{selected}: needs in green, unlocks in purple" if node is not None
                                  else "Card dependency graph: select a card to see what it needs and unlocks")


def _rows(pos, graph) -> list[list[str]]:
    rows: dict[float, list[str]] = {}
    for n, d in graph.nodes(data=True):
        if d["kind"] != "layer":
            rows.setdefault(pos[n][1], []).append(n)
    return [sorted(r, key=lambda n: pos[n][0]) for r in rows.values()]
