"""Bokeh drawing of the card dependency graph, shared by notebooks and the dashboard.

Layout is by Layer, 1 at the bottom and 10 at the top, cards of a Layer spread
left to right in name order, so the same pool always draws the same picture.
Hover shows a card's requirement, bonus and provenance; clicking a card selects
it together with its links (what it needs and what it unlocks). Dead cards have a
red outline, dominated ones an orange one.
"""

from __future__ import annotations

import networkx as nx

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
    :func:`workbench.graphs.dependency.analyses`) marks dead and dominated cards;
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


def _hub(data: dict) -> bool:
    """Nodes that link cards (Layers; Eras, tracks, spheres, Regimes of the other games)."""
    return data["kind"] == "layer" or bool(data.get("hub"))


def card_links(graph: nx.DiGraph, card: str) -> dict[str, list[str]]:
    """What a card needs and what it unlocks, by name (for a selection panel);
    a hub (a Layer, an Era, a track, a sphere) is looked through to the cards
    beyond it on the unlocking side."""
    node = next((n for n, d in graph.nodes(data=True)
                 if not _hub(d) and str(d["name"]).lower() == card.lower()), None)
    if node is None:
        from workbench.core.errors import WorkbenchError, suggest
        names = [str(d["name"]) for _, d in graph.nodes(data=True) if not _hub(d)]
        raise WorkbenchError(f"no card named {card!r}{suggest(card, names)}")
    needs = sorted(str(graph.nodes[u]["name"]) for u in graph.predecessors(node))
    unlocks = sorted({str(graph.nodes[w]["name"]) for v in graph.successors(node)
                      for w in ([v] if not _hub(graph.nodes[v]) else graph.successors(v)) if w != node})
    return {"needs": needs, "unlocks": unlocks}


KIND_COLOURS = {
    "tile": "#8dd3c7", "facility": "#bebada", "generator": "#fb8072", "project": "#80b1d3", "agi": "#fdb462",
    "headline": "#b3de69", "mandate": "#fccde5", "faction": "#d9d9d9", "training": "#bc80bd",
    "era": "#ffed6f", "track": "#ccebc5", "idea": "#80b1d3", "tipping_point": "#fb8072",
    "plurality": "#fdb462", "board": "#bebada", "regime": "#ffed6f",
    "sphere:yellow": "#ffd92f", "sphere:green": "#66c2a5", "sphere:blue": "#8da0cb", "sphere:orange": "#fc8d62",
}


def pool_layout(graph: nx.DiGraph, width: float = 10.0) -> dict[str, tuple[float, float]]:
    """Deterministic positions for a card graph with hubs: hubs in a column at
    the left (in id order), cards in rows by their ``layer`` attribute (an Era,
    a kind's row), spread left to right by kind and then name."""
    pos: dict[str, tuple[float, float]] = {}
    hubs = sorted(n for n, d in graph.nodes(data=True) if _hub(d))
    for i, n in enumerate(hubs):
        pos[n] = (-1.0, (i + 0.5) * 10.0 / max(1, len(hubs)))
    rows: dict[int, list[str]] = {}
    for n, d in graph.nodes(data=True):
        if not _hub(d):
            rows.setdefault(int(d.get("layer", 0)), []).append(n)
    levels = sorted(rows)
    for j, level in enumerate(levels):
        nodes = sorted(rows[level], key=lambda n: (graph.nodes[n]["kind"], str(graph.nodes[n]["name"]).lower()))
        step = width / max(1, len(nodes))
        y = (j + 0.5) * 10.0 / max(1, len(levels))
        for i, n in enumerate(nodes):
            # alternate a little up and down so long rows keep their labels apart
            pos[n] = (step * (i + 0.5), y + (0.18 if i % 2 else -0.18))
    return pos


def pool_figure(graph: nx.DiGraph, status=None, selected: str | None = None, *, width: int = 1100,
                height: int = 700, title: str = "Card graph"):
    """A bokeh figure of a card graph with hubs (Mandate 2038, Pax
    Transhumanity). ``status`` is the analyses' ``card_status`` table: dead cards
    get a red outline, dominated ones an orange one; ``selected`` starts selected."""
    from bokeh.models import (Circle, ColumnDataSource, HoverTool, LabelSet, MultiLine, NodesAndLinkedEdges,
                              Range1d, TapTool)
    from bokeh.plotting import figure, from_networkx

    marks: dict[str, str] = {}
    if status is not None:
        for r in status.iter_rows(named=True):
            if r["dead"]:
                marks[r["card"]] = "dead: " + r["dead_reason"]
            elif r["dominated_by"]:
                marks[r["card"]] = "dominated by " + r["dominated_by"]
    pos = pool_layout(graph)
    clean = nx.DiGraph()
    for n, d in graph.nodes(data=True):
        note = marks.get(str(d["name"]), "")
        outline = "#d62728" if note.startswith("dead") else "#ff7f0e" if note else "#333333"
        colour = KIND_COLOURS.get(n if n.startswith("sphere:") else d["kind"], "#dddddd")
        clean.add_node(n, name=str(d["name"]), kind=str(d["kind"]).replace("_", " "),
                       requirement=str(d.get("requirement", "")), bonus=str(d.get("bonus", "")),
                       provenance=str(d.get("provenance", "")), status=note, colour=colour, outline=outline,
                       size=0.16 if _hub(d) else 0.11)
    for u, v, d in graph.edges(data=True):
        clean.add_edge(u, v, kind=d["kind"], colour=EDGE_COLOURS.get(d["kind"], "#999999"))
    fig = figure(width=width, height=height, title=title, x_range=Range1d(-1.6, 10.4),
                 y_range=Range1d(-0.3, 10.3), tools="pan,wheel_zoom,box_zoom,reset,save",
                 toolbar_location="above")
    fig.xaxis.visible = fig.yaxis.visible = False
    fig.grid.visible = False
    rend = from_networkx(clean, pos)
    rend.node_renderer.glyph = Circle(radius="size", fill_color="colour", line_color="outline", line_width=2)
    rend.node_renderer.selection_glyph = Circle(radius="size", fill_color="colour", line_color="#000000",
                                                line_width=4)
    rend.node_renderer.nonselection_glyph = Circle(radius="size", fill_color="colour", fill_alpha=0.25,
                                                   line_color="outline", line_alpha=0.3)
    rend.edge_renderer.glyph = MultiLine(line_color="colour", line_alpha=0.3, line_width=1)
    rend.edge_renderer.selection_glyph = MultiLine(line_color="colour", line_alpha=1.0, line_width=3)
    rend.edge_renderer.nonselection_glyph = MultiLine(line_color="colour", line_alpha=0.06, line_width=1)
    rend.selection_policy = NodesAndLinkedEdges()
    rend.inspection_policy = NodesAndLinkedEdges()
    fig.renderers.append(rend)
    fig.add_tools(HoverTool(renderers=[rend.node_renderer], tooltips=[
        ("card", "@name"), ("kind", "@kind"), ("costs", "@requirement"), ("gives", "@bonus"),
        ("provenance", "@provenance"), ("status", "@status")]), TapTool(renderers=[rend.node_renderer]))
    names = list(rend.node_renderer.data_source.data["index"])
    labels = ColumnDataSource({"x": [pos[n][0] for n in names], "y": [pos[n][1] - 0.2 for n in names],
                               "text": [clean.nodes[n]["name"] for n in names]})
    fig.add_layout(LabelSet(x="x", y="y", text="text", source=labels, text_font_size="6pt",
                            text_align="center", text_color="#333333"))
    if selected is not None:
        rend.node_renderer.data_source.selected.indices = [
            i for i, n in enumerate(names) if clean.nodes[n]["name"].lower() == selected.lower()]
    return fig
