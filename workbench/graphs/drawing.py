"""Bokeh drawing of a card graph, shared by notebooks, ``workbench graph --html``
and the dashboard.

:func:`grouped_layout` stands the cards in columns of groups (the ``groupings``
a graph declares: kind, or any field its nodes carry), names beside the dots, so
no two labels overlap; :class:`PoolView` draws them, hover shows a card's
requirement, bonus and provenance, clicking a card selects it together with its
links (what it needs and what it unlocks). Dead cards have a red outline,
dominated ones an orange one: :func:`add_legend` is the one legend of every card
graph, a game's own layout (drawn in its package) included.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

def _hub(data: dict) -> bool:
    """Nodes that link cards rather than being cards (a card graph marks them ``hub``)."""
    return bool(data.get("hub"))


def card_links(graph: nx.DiGraph, card: str) -> dict[str, list[str]]:
    """What a card needs and what it unlocks, by name (for a selection panel);
    a hub (a node that links cards: ``hub=True``) is looked through to the cards
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


#: fills for the kinds of a graph that names no colours of its own, given out in
#: the order of the kinds' names (so the same pool always gets the same colours)
PALETTE = ("#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9",
           "#bc80bd", "#ccebc5", "#ffed6f")


def fill_of(graph: nx.DiGraph, node: str) -> str:
    """A node's fill: the colour its graph declares for the node or its kind
    (``graph.graph["colours"]``, a card graph module's choice), else the
    palette's colour of its kind."""
    kind = str(graph.nodes[node]["kind"])
    declared = graph.graph.get("colours") or {}
    if node in declared or kind in declared:
        return declared.get(node) or declared[kind]
    kinds = sorted({str(d["kind"]) for _, d in graph.nodes(data=True)})
    return PALETTE[kinds.index(kind) % len(PALETTE)]


#: outline of a card by its analysis status, and the colours of a selection: the
#: one legend every card graph shows (the grouped ones and any layout a game draws itself)
OUTLINES = {"dead": "#c62828", "dominated": "#e65100", "ok": "#37474f"}
ROLES = {"selected": "#000000", "needs": "#1b7837", "unlocks": "#6a3d9a"}


def add_legend(fig) -> None:
    """The legend under a card graph: the outlines (dead, dominated) and the
    selection colours (selected, what it needs, what it unlocks)."""
    from bokeh.models import Legend, LegendItem
    items = []
    for label, colour, width_ in (("dead or infeasible (outline)", OUTLINES["dead"], 3),
                                  ("dominated (outline)", OUTLINES["dominated"], 3),
                                  ("selected", ROLES["selected"], 4),
                                  ("needs", ROLES["needs"], 4), ("unlocks", ROLES["unlocks"], 4)):
        # one point outside the view: a renderer without data draws no legend swatch
        r = fig.scatter([-1000], [-1000], marker="circle", size=12, fill_color="#ffffff", line_color=colour,
                        line_width=width_)
        items.append(LegendItem(label=label, renderers=[r]))
    fig.add_layout(Legend(items=items, orientation="horizontal", location="center",
                          label_text_font_size="9pt", click_policy="none"), "below")


# -- grouped layout ---------------------------------------------------------------------
#
# The cards stand in columns, one group (a kind, or another of the graph
# module's ``groupings``) after another under its title, each card's name to the
# right of its dot. Coordinates are screen pixels of the plot frame, so a label's
# box follows from its length and the font size and the layout can keep them apart.

FRAME = (1100, 600)      # plot frame, pixels
ROW = 19                 # pixels per row
LABEL_PT = 7.5           # card names
TITLE_PT = 8.5           # group titles
CHAR_EM = 0.62           # width of a character, in ems (DejaVu/Helvetica average, generous)
DOT = 10                 # dot diameter, pixels
GAP = 6                  # dot to label, pixels
COLUMN_GAP = 22          # between columns, pixels


def text_width(text: str, pt: float) -> float:
    """A label's width in pixels (96 dpi): its characters times an average width."""
    return len(text) * pt * 96 / 72 * CHAR_EM


@dataclass
class GroupedLayout:
    """Where each node, label and group title goes, in frame pixels."""
    pos: dict[str, tuple[float, float]]             # node -> dot centre
    labels: dict[str, tuple[float, float, str]]      # node -> label's left-middle point and text
    titles: list[tuple[float, float, str]]           # group titles: left-middle point and text
    width: float
    height: float

    def boxes(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """Every label's and title's box (x0, y0, x1, y1), as drawn."""
        out = []
        for n, (x, y, text) in self.labels.items():
            h = LABEL_PT * 96 / 72
            out.append((text, (x, y - h / 2, x + text_width(text, LABEL_PT), y + h / 2)))
        for x, y, text in self.titles:
            h = TITLE_PT * 96 / 72
            out.append((text, (x, y - h / 2, x + text_width(text, TITLE_PT), y + h / 2)))
        return out


def groupings(graph: nx.DiGraph) -> dict[str, list[str]]:
    """How the graph's cards may be grouped (``{"kind": [titles...], ...}``), as its
    game's graph module declares them; a graph without any groups by kind."""
    declared = graph.graph.get("groupings")
    if declared:
        return {k: list(v) for k, v in declared.items()}
    return {"kind": sorted({str(d["kind"]) for _, d in graph.nodes(data=True)})}


def group_of(data: dict, by: str) -> str:
    return str((data.get("groups") or {}).get(by, data["kind"]))


def grouped_layout(graph: nx.DiGraph, by: str = "kind", show=None, *,
                   frame: tuple[int, int] = FRAME) -> GroupedLayout:
    """Columns of groups: ``by`` names one of :func:`groupings`; ``show`` (group
    titles) keeps only those groups, None or empty all. A group that does not fit
    under the previous one starts a new column; a long one runs on into the next."""
    order = groupings(graph).get(by)
    if order is None:
        from workbench.core.errors import WorkbenchError
        raise WorkbenchError(f"cannot group this graph by {by!r}; choose {' or '.join(groupings(graph))}")
    members: dict[str, list[str]] = {t: [] for t in order}
    for n, d in graph.nodes(data=True):
        members.setdefault(group_of(d, by), []).append(n)
    wanted = set(show or ()) or set(members)
    per_column = int(frame[1] // ROW) - 1
    columns: list[list[tuple[str, str]]] = [[]]          # rows: ("title", text) or ("node", id)
    for title, nodes in members.items():
        if title not in wanted or not nodes:
            continue
        # a group's hub first, then its cards by kind and name
        nodes.sort(key=lambda n: (not _hub(graph.nodes[n]), str(graph.nodes[n]["kind"]),
                                  str(graph.nodes[n]["name"]).lower()))
        col = columns[-1]
        if col and len(col) + 2 > per_column or (col and len(col) + 1 + len(nodes) > per_column
                                                 and len(nodes) < per_column):
            columns.append([])
        columns[-1].append(("title", title))
        for n in nodes:
            if len(columns[-1]) >= per_column:
                columns.append([])
            columns[-1].append(("node", n))
    pos, labels, titles = {}, {}, []
    x0 = 4.0
    for col in columns:
        widest = 0.0
        for row, (what, value) in enumerate(col):
            y = frame[1] - ROW * (row + 0.75)
            if what == "title":
                titles.append((x0, y, value))
                widest = max(widest, text_width(value, TITLE_PT))
            else:
                name = str(graph.nodes[value]["name"])
                pos[value] = (x0 + DOT / 2, y)
                labels[value] = (x0 + DOT + GAP, y, name)
                widest = max(widest, DOT + GAP + text_width(name, LABEL_PT))
        x0 += widest + COLUMN_GAP
    return GroupedLayout(pos, labels, titles, x0 - COLUMN_GAP, float(frame[1]))


def patch_source(source, data: dict) -> None:
    """Make the ColumnDataSource ``source`` hold ``data``: when the columns and
    their length are the same, only the changed cells go to the browser
    (``ColumnDataSource.patch``); otherwise the data is replaced."""
    old = source.data
    if set(old) != set(data) or any(len(old[k]) != len(data[k]) for k in data):
        source.data = data
        return
    patch = {}
    for key, values in data.items():
        before = list(old[key])
        changed = [(i, v) for i, (u, v) in enumerate(zip(before, values)) if not _same(u, v)]
        if changed:
            patch[key] = changed
    if patch:
        source.patch(patch)


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays and the like
        return str(a) == str(b)


def pool_links(graph: nx.DiGraph, node: str) -> tuple[set[str], set[str], list[tuple[str, str]]]:
    """What ``node`` needs (its predecessors), what it unlocks (its successors and,
    through a hub, the cards beyond it) and the edges between them, as node ids."""
    needs = set(graph.predecessors(node))
    unlocks: set[str] = set()
    edges = [(u, node) for u in needs]
    for v in graph.successors(node):
        edges.append((node, v))
        unlocks.add(v)
        if _hub(graph.nodes[v]):
            for w in graph.successors(v):
                if w != node:
                    unlocks.add(w)
                    edges.append((v, w))
    return needs, unlocks, edges


def _status_marks(status) -> dict[str, str]:
    marks: dict[str, str] = {}
    if status is not None:
        for r in status.iter_rows(named=True):
            if r["dead"]:
                marks[r["card"]] = "dead: " + r["dead_reason"]
            elif r["dominated_by"]:
                marks[r["card"]] = "dominated by " + r["dominated_by"]
    return marks


class TapSelect:
    """What every live card-graph view shares: a click on a card of ``nodes``
    (a ColumnDataSource whose rows follow ``names``) calls ``on_select(name)``
    and clears bokeh's own selection (the view marks the selection itself)."""

    names: list[str]
    on_select = None

    def _on_tap(self, attr, old, new):
        if new and self.on_select is not None and new[0] < len(self.names):
            name = self.names[new[0]]
            self.nodes.selected.indices = []
            self.on_select(name)


class PoolView(TapSelect):
    """A grouped card graph as one bokeh figure built once and updated in place:
    edges only for the selected card (what it needs in green, what it unlocks in
    purple), the rest faded, the common legend. A click on a card calls
    ``on_select(name)``."""

    def __init__(self, frame: tuple[int, int] = FRAME, on_select=None, title: str = "Card graph"):
        from bokeh.models import ColumnDataSource, HoverTool, LabelSet, Range1d, TapTool
        from bokeh.plotting import figure
        self.frame, self.on_select, self.base_title = frame, on_select, title
        self.names: list[str] = []
        self.nodes = ColumnDataSource({k: [] for k in (
            "x", "y", "name", "kind", "group", "requirement", "bonus", "provenance", "status", "fill",
            "outline", "width", "alpha", "role")})
        self.edges = ColumnDataSource({"xs": [], "ys": [], "colour": []})
        self.labels = ColumnDataSource({"x": [], "y": [], "text": [], "alpha": []})
        self.titles = ColumnDataSource({"x": [], "y": [], "text": []})
        # frame pixels are data units, so the layout's label boxes are what is drawn
        fig = figure(frame_width=frame[0], frame_height=frame[1], x_range=Range1d(0, frame[0]),
                     y_range=Range1d(0, frame[1]), tools="pan,wheel_zoom,box_zoom,reset,save",
                     toolbar_location="above", title=title)
        fig.xaxis.visible = fig.yaxis.visible = False
        fig.grid.visible = False
        fig.multi_line("xs", "ys", line_color="colour", line_width=2, line_alpha=0.7, source=self.edges)
        nodes = fig.scatter("x", "y", size=DOT, fill_color="fill", fill_alpha="alpha", line_color="outline",
                            line_width="width", line_alpha="alpha", source=self.nodes)
        nodes.selection_glyph = nodes.glyph
        nodes.nonselection_glyph = nodes.glyph
        fig.add_layout(LabelSet(x="x", y="y", text="text", source=self.labels, text_font_size=f"{LABEL_PT}pt",
                                text_align="left", text_baseline="middle", text_color="#222222",
                                text_alpha="alpha"))
        fig.add_layout(LabelSet(x="x", y="y", text="text", source=self.titles, text_font_size=f"{TITLE_PT}pt",
                                text_font_style="bold", text_align="left", text_baseline="middle",
                                text_color="#37474f"))
        fig.add_tools(HoverTool(renderers=[nodes], tooltips=[
            ("card", "@name"), ("kind", "@kind"), ("group", "@group"), ("costs", "@requirement"),
            ("gives", "@bonus"), ("provenance", "@provenance"), ("status", "@status")]),
            TapTool(renderers=[nodes]))
        add_legend(fig)
        self.figure = fig
        self.layout: GroupedLayout | None = None
        if on_select is not None:   # a Python callback only where a server runs it
            self.nodes.selected.on_change("indices", self._on_tap)

    def update(self, graph: nx.DiGraph, status=None, selected: str | None = None, *, by: str = "kind",
               show=None) -> None:
        """Show ``graph`` grouped ``by`` (only the groups ``show`` names, if any),
        ``status`` (the analyses' ``card_status``) as outlines, ``selected`` and its links."""
        lay = grouped_layout(graph, by, show, frame=self.frame)
        self.layout = lay
        marks = _status_marks(status)
        node = next((n for n in lay.pos if selected and not _hub(graph.nodes[n])
                     and str(graph.nodes[n]["name"]).lower() == selected.lower()), None)
        needs, unlocks, edges = pool_links(graph, node) if node is not None else (set(), set(), [])
        data = {k: [] for k in self.nodes.data}
        labels = {"x": [], "y": [], "text": [], "alpha": []}
        for n, (x, y) in lay.pos.items():
            d = graph.nodes[n]
            note = marks.get(str(d["name"]), "")
            role = "selected" if n == node else "needs" if n in needs else "unlocks" if n in unlocks else ""
            faded = node is not None and not role
            outline = OUTLINES["dead" if note.startswith("dead") else "dominated" if note else "ok"]
            for key, value in (("x", x), ("y", y), ("name", str(d["name"])),
                               ("kind", str(d["kind"]).replace("_", " ")), ("group", group_of(d, by)),
                               ("requirement", str(d.get("requirement", ""))), ("bonus", str(d.get("bonus", ""))),
                               ("provenance", str(d.get("provenance", ""))), ("status", note),
                               ("fill", fill_of(graph, n)),
                               ("outline", ROLES[role] if role else outline), ("width", 3 if role else 1.5),
                               ("alpha", 0.25 if faded else 1.0), ("role", role)):
                data[key].append(value)
            lx, ly, text = lay.labels[n]
            for key, value in (("x", lx), ("y", ly), ("text", text), ("alpha", 0.35 if faded else 1.0)):
                labels[key].append(value)
        self.names = list(data["name"])
        patch_source(self.nodes, data)
        patch_source(self.labels, labels)
        patch_source(self.titles, {"x": [t[0] for t in lay.titles], "y": [t[1] for t in lay.titles],
                                   "text": [t[2] for t in lay.titles]})
        shown = [(u, v) for u, v in edges if u in lay.pos and v in lay.pos]
        patch_source(self.edges, {"xs": [[lay.pos[u][0], lay.pos[v][0]] for u, v in shown],
                                  "ys": [[lay.pos[u][1], lay.pos[v][1]] for u, v in shown],
                                  "colour": [ROLES["needs"] if v == node else ROLES["unlocks"] for u, v in shown]})
        self.figure.title.text = (f"{selected}: needs in green, unlocks in purple" if node is not None
                                  else f"{self.base_title}: grouped by {by}; select a card to see what it "
                                       "needs and unlocks")


def pool_figure(graph: nx.DiGraph, status=None, selected: str | None = None, *, by: str = "kind", show=None,
                width: int = FRAME[0], height: int = FRAME[1], title: str = "Card graph"):
    """A bokeh figure of a card graph with hubs, grouped ``by`` one of :func:`groupings` and filtered to the
    groups ``show`` names (None: all). ``status`` is the analyses' ``card_status``
    table: dead cards get a red outline, dominated ones an orange one;
    ``selected`` is highlighted with what it needs and unlocks."""
    view = PoolView((width, height), title=title)
    view.update(graph, status, selected, by=by, show=show)
    return view.figure
