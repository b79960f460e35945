"""The Mandate 2038 card graph and its analyses, and the card catalogue the
Cards page edits.

Nodes: Eras (``era:N``) and tracks (``track:runway`` ...) are hubs; the cards
are district tiles, the Facility, the Generators, the projects, the AGI
thresholds, Headlines, Mandate cards, factions and Training cards. Edges say
what needs and what gives what:

- ``era:N -> project|headline|mandate``   the card comes into play in Era N
- ``track:T -> card``     the card costs T (Facility, Generator, project, AGI)
- ``card -> track:T``     the card gives T (tile production, project output,
  faction start, Headline gain, Mandate card, AGI award)
- ``facility -> tile``    a tile produces only for a Facility on it
- ``tile -> generator``   a Generator stands on an energy tile
- ``generator -> facility`` a Generator powers (connects) Facilities
- ``facility -> project|agi`` a project attaches to, AGI counts, connected Facilities
- ``track:T -> agi`` (``threshold``) the AGI needs T reached, not spent

Analyses (polars tables): ``card_status`` (dead with the reason, never
reachable, dominated by), ``bottlenecks`` (each track's demand against the
board's supply, and how central it is in the graph) and ``card_summary``.
"""

from __future__ import annotations

import networkx as nx
import polars as pl

from workbench.core.counting import counted
from workbench.graphs.pool_edit import CardKind, Catalogue

TRACKS = ("runway", "compute", "capability", "customers", "trust", "mandate")


def deck_sheets(raw: dict) -> dict[str, tuple[list[str], list[list]]]:
    """The deck that has no card list of its own, for a spreadsheet: the Core Action
    cards, each faction's six (made from the faction and the action: the sheet shows
    them so a designer sees every deck, and edits the factions' sheet to change them)."""
    from workbench.games.mandate_2038.data import CORE_ACTIONS
    factions = [str(f.get("name")) for f in (raw.get("factions.yaml") or {}).get("factions") or []]
    rows = [[f"{f}: {a}", f, a] for f in factions for a in CORE_ACTIONS]
    return {"action": (["name", "faction", "action"], rows)}


def deck_edit(kind: str, name: str, column: str, value) -> tuple:
    from workbench.core.errors import WorkbenchError
    raise WorkbenchError("a Core Action card is its faction's and its action's: rename or change the faction "
                         "on the faction sheet (the six actions are the rules')")


def follow_edit(kind: str, card: dict, path: str) -> None:
    """After an edit of a tile's yield, rewrite its production text to say the
    new amounts (the loader refuses a tile whose text and yield disagree)."""
    if kind == "tile" and path.startswith("yield"):
        from workbench.games.mandate_2038.data import production_text
        card["production"] = production_text(str(card.get("production") or "None"), dict(card.get("yield") or {}))

CATALOGUE = Catalogue("mandate-2038", (
    CardKind("tile", "game.yaml", ("content", "gameConfig", "board", "tiles"),
             {"runway": "yield.runway", "compute": "yield.compute", "production": "production",
              "visit": "visit", "contract": "contract", "provenance": "provenance"}),
    CardKind("facility", "game.yaml", ("content", "rules"), {"runway": "facilityCost"}, single="Facility"),
    CardKind("generator", "game.yaml", ("content", "generators"),
             {"runway": "cost", "trust": "trustOnBuild", "scrutiny": "productionScrutiny", "type": "kind"},
             name_key=None, name_format="{} generator"),
    CardKind("project", "game.yaml", ("content", "projects", "byId"),
             {"era": "era", "runway": "cost.runway", "compute": "cost.compute", "produces": "produces",
              "text": "backText"}),
    CardKind("agi", "game.yaml", ("content", "gameConfig", "agiAchievement"),
             {"capability": "capability", "facilities": "poweredFacilities", "trust": "trust",
              "compute": "computeCost", "mandate": "mandate", "scrutiny": "scrutiny",
              "provenance": "provenance"}, single="AGI"),
    CardKind("headline", "headlines.yaml", ("cards",), {"era": "era", "text": "text", "effects": "effects"}),
    CardKind("mandate", "mandates.yaml", ("cards",),
             {"era": "era", "criterion": "criterion", "minimum": "minimum", "text": "text"}),
    CardKind("faction", "factions.yaml", ("factions",),
             {**{t: f"start.{t}" for t in TRACKS}, "ability": "ability_name", "provenance": "provenance"}),
    CardKind("training", "training.yaml", ("cards",), {"copies": "copies", "type": "kind"}),
), column_docs={
    "runway": "Runway: a tile's production, a cost (Facility, Generator, project) or a faction's start",
    "compute": "Compute: a tile's production, a project's cost, the AGI payment or a faction's start",
    "capability": "Capability: the AGI threshold or a faction's start",
    "customers": "Customers at the start (faction)",
    "trust": "Trust: the AGI threshold, a clean Generator's gain or a faction's start",
    "mandate": "Mandate: the AGI award or a faction's start",
    "scrutiny": "Scrutiny: the AGI cubes or an emergency Generator's per Production",
    "facilities": "connected Facilities the AGI needs",
    "production": "the tile's production as printed (text)",
    "visit": "what an Agent on the tile gets (text)",
    "contract": "runway or compute: the tile's contract kind",
    "era": "the Era the card belongs to (1-4)",
    "produces": "what a project produces at Production, e.g. {compute: 2}",
    "effects": "a Headline's effects (YAML list)",
    "criterion": "what a Mandate card measures",
    "minimum": "the least a player needs to qualify for a Mandate card",
    "copies": "copies in the Training deck",
    "type": "a Generator's kind (emergency, clean) or a Training card's (domain, ...)",
    "ability": "the faction ability's name",
    "text": "the card's text",
    "provenance": "seed or draft",
})


def _node(g: nx.DiGraph, nid: str, kind: str, name: str, row: int, **attrs) -> None:
    g.add_node(nid, kind=kind, name=name, layer=row, requirement=attrs.pop("requirement", ""),
               bonus=attrs.pop("bonus", ""), provenance=attrs.pop("provenance", ""), **attrs)


def _amounts(d: dict) -> str:
    return ", ".join(f"{v} {k}" for k, v in d.items() if v) or "nothing"


#: the fill of each kind of card and hub in the drawing of this graph
GRAPH_COLOURS = {"tile": "#8dd3c7", "facility": "#bebada", "generator": "#fb8072", "project": "#80b1d3",
                 "agi": "#fdb462", "headline": "#b3de69", "mandate": "#fccde5", "faction": "#d9d9d9",
                 "training": "#bc80bd", "era": "#ffed6f", "track": "#ccebc5"}


def build_graph(content) -> nx.DiGraph:
    """The graph of a loaded :class:`~workbench.games.mandate_2038.data.Content`."""
    g = nx.DiGraph(colours=GRAPH_COLOURS)
    r = content.rules
    for era in range(1, r["eras"] + 1):
        _node(g, f"era:{era}", "era", f"Era {era}", era, hub=True)
    for t in TRACKS:
        _node(g, f"track:{t}", "track", t.capitalize(), 0, hub=True)
    in_pools = {}
    for pool in content.pools.values():
        for key in pool:
            in_pools[key] = in_pools.get(key, 0) + 1
    _node(g, "facility", "facility", "Facility", 1, requirement=f"{r['facilityCost']} runway",
          cost={"runway": r["facilityCost"]})
    g.add_edge("track:runway", "facility", kind="requires", amount=r["facilityCost"])
    for key, tile in content.tile_kinds.items():
        nid = f"tile:{key}"
        _node(g, nid, "tile", tile.name, 1, bonus=_amounts(tile.yield_), provenance=tile.provenance,
              yields=dict(tile.yield_), contract=tile.contract or "", copies=in_pools.get(key, 0))
        g.add_edge("facility", nid, kind="enables")
        for track, amount in tile.yield_.items():
            if amount:
                g.add_edge(nid, f"track:{track}", kind="supplies", amount=amount)
    for key, gen in content.generators.items():
        nid = f"generator:{key}"
        name = f"{key} generator"
        _node(g, nid, "generator", name, 1, requirement=f"{gen['cost']} runway",
              bonus=f"powers Facilities; {gen.get('trustOnBuild', 0)} trust",
              cost={"runway": gen["cost"]}, trust=gen.get("trustOnBuild", 0),
              scrutiny=gen.get("productionScrutiny", 0), tile=key)
        g.add_edge("track:runway", nid, kind="requires", amount=gen["cost"])
        if f"tile:{key}" in g:
            g.add_edge(f"tile:{key}", nid, kind="hosts")
        g.add_edge(nid, "facility", kind="powers")
        if gen.get("trustOnBuild"):
            g.add_edge(nid, "track:trust", kind="supplies", amount=gen["trustOnBuild"])
    for pid, proj in content.projects.items():
        nid = f"project:{pid}"
        _node(g, nid, "project", proj.name, proj.era, requirement=_amounts(proj.cost),
              bonus=_amounts(proj.produces), cost=dict(proj.cost), produces=dict(proj.produces), era=proj.era)
        if f"era:{proj.era}" in g:
            g.add_edge(f"era:{proj.era}", nid, kind="unlocks")
        g.add_edge("facility", nid, kind="hosts")
        for track, amount in proj.cost.items():
            g.add_edge(f"track:{track}", nid, kind="requires", amount=amount)
        for track, amount in proj.produces.items():
            if amount:
                g.add_edge(nid, f"track:{track}", kind="supplies", amount=amount)
    agi = content.agi
    _node(g, "agi", "agi", "AGI", r["eras"], requirement=(
        f"capability {agi['capability']}, {agi['poweredFacilities']} connected Facilities, "
        f"trust {agi['trust']}, pay {agi['computeCost']} compute"),
        bonus=f"{agi['mandate']} mandate, {agi['scrutiny']} scrutiny", thresholds=dict(agi))
    for track, key in (("capability", "capability"), ("trust", "trust")):
        g.add_edge(f"track:{track}", "agi", kind="threshold", amount=agi[key])
    g.add_edge("track:compute", "agi", kind="requires", amount=agi["computeCost"])
    g.add_edge("facility", "agi", kind="threshold", amount=agi["poweredFacilities"])
    g.add_edge("agi", "track:mandate", kind="supplies", amount=agi["mandate"])
    for h in content.headlines:
        nid = f"headline:{h.name}"
        gains: dict[str, int] = {}
        for e in h.effects:
            for t, v in e.gain.items():
                gains[t] = gains.get(t, 0) + v
        _node(g, nid, "headline", h.name, h.era, bonus=h.text, era=h.era)
        if f"era:{h.era}" in g:
            g.add_edge(f"era:{h.era}", nid, kind="unlocks")
        for t, v in gains.items():
            g.add_edge(nid, f"track:{t}", kind="supplies", amount=v)
        for e in h.effects:
            if e.produce and f"tile:{e.produce}" in g:
                g.add_edge(nid, f"tile:{e.produce}", kind="triggers")
    for m in content.mandates:
        nid = f"mandate:{m.name}"
        _node(g, nid, "mandate", m.name, m.era, requirement=f"{m.criterion} >= {m.minimum}",
              bonus=f"{r['eraMandateLeader']} mandate", criterion=m.criterion, minimum=m.minimum, era=m.era)
        if f"era:{m.era}" in g:
            g.add_edge(f"era:{m.era}", nid, kind="unlocks")
        g.add_edge(nid, "track:mandate", kind="supplies", amount=r["eraMandateLeader"])
    for f in content.factions:
        nid = f"faction:{f.name}"
        start = f.start.model_dump()
        _node(g, nid, "faction", f.name, 0, bonus=_amounts(start), provenance=f.provenance, start=start)
        for t, v in start.items():
            if v:
                g.add_edge(nid, f"track:{t}", kind="supplies", amount=v)
    for c in content.training:
        nid = f"training:{c.name}"
        _node(g, nid, "training", c.name, 0, bonus=f"{counted(c.copies, 'copy', 'copies')} ({c.kind})", copies=c.copies)
        g.add_edge(nid, "track:capability", kind="supplies", amount=c.copies)
    _group(g, r["eras"])
    return g


#: the drawing's groups "by kind", in the order drawn (kind -> title)
KIND_GROUPS = {"era": "Eras", "track": "Tracks", "tile": "District tiles", "generator": "Generators",
               "facility": "Facility", "project": "Projects", "agi": "AGI", "headline": "Headlines",
               "mandate": "Era Mandates", "faction": "Factions", "training": "Training deck"}


def _group(g: nx.DiGraph, eras: int) -> None:
    """How the drawing may group the cards (``groups`` of each node, ``groupings``
    of the graph): by kind, or by the Era a card belongs to (tracks apart; tiles,
    generators, factions and the Training deck belong to every Era)."""
    by_era = ["Tracks"] + [f"Era {e}" for e in range(1, eras + 1)] + ["Every Era"]
    for _, d in g.nodes(data=True):
        era = d.get("era") or (d["layer"] if d["kind"] == "era" else None)
        d["groups"] = {"kind": KIND_GROUPS[d["kind"]],
                       "era": "Tracks" if d["kind"] == "track" else f"Era {era}" if era else "Every Era"}
    g.graph["groupings"] = {"kind": list(KIND_GROUPS.values()), "era": by_era}


def _dominates(a: dict, b: dict, better_low: tuple[str, ...], better_high: tuple[str, ...]) -> bool:
    """True if ``a`` is at least as good as ``b`` everywhere and better somewhere."""
    ge = all(a.get(k, 0) <= b.get(k, 0) for k in better_low) and \
        all(a.get(k, 0) >= b.get(k, 0) for k in better_high)
    gt = any(a.get(k, 0) < b.get(k, 0) for k in better_low) or \
        any(a.get(k, 0) > b.get(k, 0) for k in better_high)
    return ge and gt


def card_status(content, graph: nx.DiGraph) -> pl.DataFrame:
    """One row per card: ``dead`` (can never do anything) with the reason,
    ``never_reachable`` (never comes into play) and ``dominated_by``."""
    r = content.rules
    caps = {"runway": r["runwayCap"], "compute": r["computeCap"], "trust": r["trustMax"],
            "customers": len(content.customer_table)}
    rows = []

    def add(nid, dead="", unreachable="", dominated=""):
        d = graph.nodes[nid]
        rows.append({"card": d["name"], "kind": d["kind"], "dead": bool(dead or unreachable),
                     "dead_reason": dead or unreachable, "never_reachable": bool(unreachable),
                     "dominated_by": dominated, "cost": d.get("requirement", ""), "gives": d.get("bonus", "")})

    def over_caps(cost: dict) -> str:
        return "; ".join(f"costs {v} {t}, more than the {caps[t]} a player can hold"
                         for t, v in cost.items() if t in caps and v > caps[t])

    tiles = {n: d for n, d in graph.nodes(data=True) if d["kind"] == "tile"}
    for nid, d in tiles.items():
        unreachable = "" if d["copies"] else "in no tile pool, so never on the board"
        dead = ""
        # no dominance between tiles: each has its own visit effect, which the graph cannot weigh
        add(nid, dead, unreachable)
    add("facility", over_caps({"runway": r["facilityCost"]}))
    gens = {n: d for n, d in graph.nodes(data=True) if d["kind"] == "generator"}
    for nid, d in gens.items():
        unreachable = "" if graph.nodes.get(f"tile:{d['tile']}", {}).get("copies") else "its tile is never on the board"
        vec = {"cost": d["cost"]["runway"], "scrutiny": d["scrutiny"], "trust": d["trust"]}
        better = [o["name"] for m, o in gens.items() if m != nid and _dominates(
            {"cost": o["cost"]["runway"], "scrutiny": o["scrutiny"], "trust": o["trust"]}, vec,
            ("cost", "scrutiny"), ("trust",))]
        add(nid, over_caps(d["cost"]), unreachable, ", ".join(sorted(better)))
    projects = {n: d for n, d in graph.nodes(data=True) if d["kind"] == "project"}
    for nid, d in projects.items():
        unreachable = f"Era {d['era']} never comes (the game has {r['eras']})" if d["era"] > r["eras"] else ""
        better = [o["name"] for m, o in projects.items() if m != nid and o["era"] <= d["era"]
                  and _dominates({**{f"c_{k}": v for k, v in o["cost"].items()}, **o["produces"]},
                                 {**{f"c_{k}": v for k, v in d["cost"].items()}, **d["produces"]},
                                 ("c_runway", "c_compute"), ("runway", "compute", "capability"))]
        add(nid, over_caps(d["cost"]), unreachable, ", ".join(sorted(better)))
    agi = content.agi
    agi_dead = "; ".join(filter(None, [
        over_caps({"compute": agi["computeCost"], "trust": agi["trust"]}),
        f"needs {counted(agi['poweredFacilities'], 'Facility', 'Facilities')}, a player has {content.supply['facilities']}"
        if agi["poweredFacilities"] > content.supply["facilities"] else ""]))
    add("agi", agi_dead)
    for kind in ("headline", "mandate"):
        for nid, d in graph.nodes(data=True):
            if d["kind"] != kind:
                continue
            unreachable = f"Era {d['era']} never comes (the game has {r['eras']})" if d["era"] > r["eras"] else ""
            dead = ""
            if kind == "mandate" and d["criterion"] in caps and d["minimum"] > caps[d["criterion"]]:
                dead = f"needs {d['minimum']} {d['criterion']}, more than the {caps[d['criterion']]} possible"
            add(nid, dead, unreachable)
    for nid, d in graph.nodes(data=True):
        if d["kind"] in ("faction", "training"):
            add(nid)
    return pl.DataFrame(rows)


def bottlenecks(content, graph: nx.DiGraph) -> pl.DataFrame:
    """Each track: what the cards spend of it (costs, not thresholds), what the
    board's tiles supply per Production (summed over the tile pools), the ratio,
    and the track's betweenness in the graph. The spent track with the highest
    ratio is the bottleneck."""
    central = nx.betweenness_centrality(graph)
    rows = []
    for t in TRACKS:
        nid = f"track:{t}"
        demand = sum(d.get("amount", 0) for _, _, d in graph.out_edges(nid, data=True) if d["kind"] == "requires")
        supply = sum(d.get("amount", 0) * graph.nodes[u].get("copies", 1)
                     for u, _, d in graph.in_edges(nid, data=True)
                     if d["kind"] == "supplies" and graph.nodes[u]["kind"] == "tile")
        rows.append({"track": t, "demand": demand, "tile_supply": supply,
                     "ratio": round(demand / supply, 3) if supply else (float("inf") if demand else 0.0),
                     "betweenness": round(central.get(nid, 0.0), 4)})
    table = pl.DataFrame(rows)
    spent = table.filter(pl.col("demand") > 0)
    top = spent.sort(["ratio", "betweenness"], descending=True)["track"][0] if spent.height else None
    return table.with_columns((pl.col("track") == top).alias("bottleneck"))


def analyses(content, graph: nx.DiGraph | None = None) -> dict[str, pl.DataFrame]:
    g = graph if graph is not None else build_graph(content)
    status = card_status(content, g)
    return {"card_status": status, "bottlenecks": bottlenecks(content, g), "card_summary": status}
