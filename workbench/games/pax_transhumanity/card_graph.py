"""The Pax Transhumanity card graph and its analyses, and the card catalogue the
Cards page edits.

Nodes: the four spheres and the six Regimes are hubs; the cards are the ideas
(plain ideas, Tipping Points, Plurality) and the spheres' infrastructure
boards. Edges:

- ``sphere -> idea`` (``discipline``)  the idea's band in that sphere: where it
  is dealt, researched and commercialized
- ``idea -> sphere`` (``arrow``)       a Surge Arrow of that colour
- ``idea -> sphere`` (``effect``)      an effect acting on that sphere (solve,
  found, nuclear)
- ``board -> sphere``                  the sphere's places (Barriers, Company
  sites, Utilities)
- ``sphere -> regime``                 two bands of the colour on the Cutting
  Edge set the Regime (three alike: Paradigm Shift)

An idea's cost is its Heat squares: a Syndication puts an agent on every white
one (and may cover the black ones), so ``heat`` is the column a designer tunes.

Analyses (polars tables): ``card_status`` (dead effects and arrows, never
reachable, dominated by), ``bottlenecks`` (each sphere: the ideas that need it
against the places labour can use, and its betweenness) and ``regimes`` (which
Regimes the deck can ever set).
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import polars as pl

from workbench.core.counting import plural
from workbench.graphs.pool_edit import CardKind, Catalogue

SPHERES = ("yellow", "green", "blue", "orange")
REGIME_BY_PAIR = {"yellow": "Transbiology", "green": "Group Dynamics", "blue": "Computing", "orange": "Assembly"}
REGIMES = ("Globalization", "Transbiology", "Group Dynamics", "Computing", "Assembly", "Paradigm Shift")
KIND_ROW = {"idea": 1, "tipping point": 2, "plurality": 3}

CATALOGUE = Catalogue("pax-transhumanity", (
    CardKind("idea", "ideas.yaml", ("ideas",),
             {"type": "kind", "heat": "heat", "spheres": "disciplines", "arrows": "arrows", "effects": "effects",
              "provenance": "provenance"}, played=True, phrases=("effects",)),
    CardKind("board", "boards.yaml", ("spheres",),
             {"problem": "problem", "problem_tokens": "problem_tokens", "developing_world": "developing_world",
              "rows": "rows", "provenance": "provenance"}, name_key=None, name_format="{} board"),
    CardKind("setting", "settings.yaml", (), {"value": "value", "provenance": "provenance"}, name_key=None),
), column_docs={
    "type": "idea, tipping point or plurality",
    "heat": "the idea's cost: its Heat squares (white ones take an agent on Syndication), e.g. 'white black'",
    "spheres": "the idea's two disciplines (bands), e.g. 'green blue'",
    "arrows": "Surge Arrow colours",
    "effects": "effects when commercialized, e.g. 'growth; solve yellow'",
    "problem": "the sphere's problem",
    "problem_tokens": "problem tokens above the board at the start",
    "developing_world": "true if the sphere is in the Developing World",
    "rows": "the board layout, top row first: [{T: barrier, M: company}, ...]",
    "value": "a setting's value (start values, costs, limits)",
    "provenance": "seed or draft",
})


def _effect_spheres(term: str) -> list[tuple[str, str]]:
    """(verb, sphere) pairs an effect term acts on ("solve yellow or found green maker")."""
    out = []
    for part in term.lower().split(" or "):
        words = part.split()
        if len(words) >= 2 and words[0] in ("solve", "found", "nuclear") and words[1] in SPHERES:
            out.append((words[0], words[1]))
    return out


#: the fill of each kind of card, and of each sphere hub, in the drawing of this graph
GRAPH_COLOURS = {"idea": "#80b1d3", "tipping_point": "#fb8072", "plurality": "#fdb462", "board": "#bebada",
                 "regime": "#ffed6f", "sphere:yellow": "#ffd92f", "sphere:green": "#66c2a5",
                 "sphere:blue": "#8da0cb", "sphere:orange": "#fc8d62"}


def build_graph(content) -> nx.DiGraph:
    """The graph of a loaded :class:`~workbench.games.pax_transhumanity.data.Content`."""
    g = nx.DiGraph(colours=GRAPH_COLOURS)
    for i, s in enumerate(SPHERES):
        g.add_node(f"sphere:{s}", kind="sphere", name=s.capitalize(), layer=0, hub=True, requirement="",
                   bonus="", provenance="")
    for regime in REGIMES:
        g.add_node(f"regime:{regime}", kind="regime", name=regime, layer=4, hub=True, requirement="", bonus="",
                   provenance="")
    for colour, regime in REGIME_BY_PAIR.items():
        g.add_edge(f"sphere:{colour}", f"regime:{regime}", kind="sets")
    for name, idea in content.ideas.items():
        nid = f"idea:{name}"
        g.add_node(nid, kind=idea.kind.replace(" ", "_"), name=name, layer=KIND_ROW[idea.kind],
                   requirement="heat " + (" ".join(idea.heat) or "none"), bonus="; ".join(idea.effects),
                   provenance=idea.provenance, heat=Counter(idea.heat), disciplines=tuple(idea.disciplines),
                   arrows=tuple(idea.arrows), effects=tuple(idea.effects), card_kind=idea.kind)
        for d in dict.fromkeys(idea.disciplines):
            g.add_edge(f"sphere:{d}", nid, kind="discipline")
        for a in idea.arrows:
            g.add_edge(nid, f"sphere:{a}", kind="arrow")
        for term in idea.effects:
            for verb, sphere in _effect_spheres(term):
                g.add_edge(nid, f"sphere:{sphere}", kind="effect", verb=verb)
    for sphere, board in content.boards.items():
        nid = f"board:{sphere}"
        kinds = Counter(getattr(row, side) for row in board.rows for side in ("T", "M"))
        sites = {side: sum(1 for row in board.rows if getattr(row, side) == "company") for side in ("T", "M")}
        g.add_node(nid, kind="board", name=f"{sphere} board", layer=0,
                   requirement=f"{board.problem_tokens} {board.problem} {plural(board.problem_tokens, 'token')}",
                   bonus=", ".join(f"{n} {k}" for k, n in sorted(kinds.items())), provenance=board.provenance,
                   places=dict(kinds), sites=sites, problem_tokens=board.problem_tokens)
        g.add_edge(nid, f"sphere:{sphere}", kind="places")
    _group(g)
    return g


#: the drawing's groups "by kind", in the order drawn (kind -> title)
KIND_GROUPS = {"sphere": "Spheres", "regime": "Regimes", "idea": "Ideas", "tipping_point": "Tipping Points",
               "plurality": "Plurality", "board": "Sphere boards"}


def _group(g: nx.DiGraph) -> None:
    """How the drawing may group the cards (``groups`` of each node, ``groupings``
    of the graph): by kind, or by sphere (an idea by the sphere of its first band,
    a board and a sphere by their own, the Regimes apart)."""
    for n, d in g.nodes(data=True):
        kind = str(d["kind"])
        if kind == "regime":
            sphere = "Regimes"
        elif n.startswith(("sphere:", "board:")):
            sphere = n.split(":", 1)[1].capitalize()
        else:
            sphere = str(d["disciplines"][0]).capitalize() if d.get("disciplines") else "No sphere"
        d["groups"] = {"kind": KIND_GROUPS[kind], "sphere": sphere}
    g.graph["groupings"] = {"kind": list(KIND_GROUPS.values()),
                            "sphere": [s.capitalize() for s in SPHERES] + ["No sphere", "Regimes"]}


def _dominates(a: dict, b: dict) -> bool:
    """Idea ``a`` is as good as ``b`` everywhere and better somewhere: the same
    kind and disciplines, no more Heat of either colour, and every effect and
    arrow of ``b``."""
    if a["card_kind"] != b["card_kind"] or sorted(a["disciplines"]) != sorted(b["disciplines"]):
        return False
    heat_ok = all(a["heat"].get(c, 0) <= b["heat"].get(c, 0) for c in ("white", "black"))
    more = Counter(a["effects"]) >= Counter(b["effects"]) and Counter(a["arrows"]) >= Counter(b["arrows"])
    strict = (any(a["heat"].get(c, 0) < b["heat"].get(c, 0) for c in ("white", "black"))
              or Counter(a["effects"]) != Counter(b["effects"]) or Counter(a["arrows"]) != Counter(b["arrows"]))
    return heat_ok and more and strict


def regimes(content) -> pl.DataFrame:
    """Which Regimes the deck can set: a colour's Regime needs two cards with a
    band of that colour, Paradigm Shift three; Globalization is always there."""
    bands = Counter(c for idea in content.ideas.values() for c in set(idea.disciplines))
    rows = [{"regime": "Globalization", "needs": "anything else", "cards": len(content.ideas), "reachable": True}]
    for colour, regime in REGIME_BY_PAIR.items():
        rows.append({"regime": regime, "needs": f"two {colour} bands", "cards": bands[colour],
                     "reachable": bands[colour] >= 2})
    rows.append({"regime": "Paradigm Shift", "needs": "three bands alike", "cards": max(bands.values(), default=0),
                 "reachable": max(bands.values(), default=0) >= 3})
    return pl.DataFrame(rows)


def card_status(content, graph: nx.DiGraph) -> pl.DataFrame:
    """One row per idea and board: dead effects and arrows (with the reason),
    never reachable, dominated by."""
    ideas = {n: d for n, d in graph.nodes(data=True) if d["kind"] in ("idea", "tipping_point", "plurality")}
    boards = {d["name"].split()[0]: d for _, d in graph.nodes(data=True) if d["kind"] == "board"}
    bands = Counter(c for d in ideas.values() for c in set(d["disciplines"]))
    rows = []
    for nid, d in ideas.items():
        reasons = []
        for term in d["effects"]:
            for part in term.lower().split(" or "):
                words = part.split()
                if words[:1] == ["found"] and len(words) >= 3 and words[1] in boards:
                    side = "T" if words[2] == "thinker" else "M"
                    if not boards[words[1]]["sites"].get(side):
                        reasons.append(f"'{part}': the {words[1]} board has no {words[2]} Company site")
                if words[:1] == ["solve"] and len(words) == 2 and words[1] in boards \
                        and not boards[words[1]]["problem_tokens"]:
                    reasons.append(f"'{part}': the {words[1]} sphere has no problem tokens")
        for a in d["arrows"]:
            others = sum(1 for m, o in ideas.items() if m != nid and a in o["disciplines"])
            if not others:
                reasons.append(f"arrow {a}: no other idea has a {a} band")
        better = sorted(o["name"] for m, o in ideas.items() if m != nid and _dominates(o, d))
        rows.append({"card": d["name"], "kind": d["card_kind"], "dead": bool(reasons and len(reasons) >= max(
            1, len(d["effects"]) + len(d["arrows"]))), "dead_reason": "; ".join(reasons),
            "never_reachable": False, "dominated_by": ", ".join(better), "cost": d["requirement"],
            "gives": d["bonus"]})
    for sphere, d in boards.items():
        unreachable = "" if bands[sphere] else f"no idea has a {sphere} band, so nothing is ever dealt there"
        rows.append({"card": d["name"], "kind": "board", "dead": bool(unreachable), "dead_reason": unreachable,
                     "never_reachable": bool(unreachable), "dominated_by": "", "cost": d["requirement"],
                     "gives": d["bonus"]})
    return pl.DataFrame(rows)


def bottlenecks(content, graph: nx.DiGraph) -> pl.DataFrame:
    """Each sphere: ideas with a band there (each needs its labour to be
    researched or commercialized), the places labour can use (Company sites and
    Utilities; Barriers must be covered first), ideas per place and the
    sphere's betweenness. The highest ratio is the bottleneck."""
    central = nx.betweenness_centrality(graph)
    rows = []
    for s in SPHERES:
        nid = f"sphere:{s}"
        ideas = sum(1 for _, _, e in graph.out_edges(nid, data=True) if e["kind"] == "discipline")
        places = graph.nodes[f"board:{s}"]["places"]
        usable = places.get("company", 0) + places.get("utility", 0)
        rows.append({"sphere": s, "ideas": ideas, "labour_places": usable, "barriers": places.get("barrier", 0),
                     "effects_on_it": sum(1 for _, _, e in graph.in_edges(nid, data=True) if e["kind"] == "effect"),
                     "arrows_into_it": sum(1 for _, _, e in graph.in_edges(nid, data=True) if e["kind"] == "arrow"),
                     "ratio": round(ideas / usable, 3) if usable else float("inf"),
                     "betweenness": round(central.get(nid, 0.0), 4)})
    table = pl.DataFrame(rows)
    top = table.sort(["ratio", "betweenness"], descending=True)["sphere"][0]
    return table.with_columns((pl.col("sphere") == top).alias("bottleneck"))


def analyses(content, graph: nx.DiGraph | None = None) -> dict[str, pl.DataFrame]:
    g = graph if graph is not None else build_graph(content)
    status = card_status(content, g)
    reach = regimes(content)
    unreachable = reach.filter(~pl.col("reachable"))
    if unreachable.height:
        status = pl.concat([status, pl.DataFrame([
            {"card": r["regime"], "kind": "regime", "dead": True, "dead_reason": f"needs {r['needs']}",
             "never_reachable": True, "dominated_by": "", "cost": "", "gives": ""}
            for r in unreachable.iter_rows(named=True)])])
    return {"card_status": status, "bottlenecks": bottlenecks(content, g), "regimes": reach,
            "card_summary": status}
