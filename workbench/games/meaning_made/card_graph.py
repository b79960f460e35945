"""The Meaning Made card dependency graph and the analyses a designer reads off it.

Nodes are ``layer:N`` (Layers 1-10), ``pattern:<name>`` and ``initiative:<name>``.
Edges say what needs what:

- ``layer:L -> pattern:P``       P's requirement shows the Layer L icon (``count`` times)
- ``pattern:P -> layer:L``       P supplies Layer L once loaded
- ``layer:L -> initiative:I``    the contributing group must show Layer L
- ``initiative:I -> layer:L``    completing I reaches Layer L (7-10)
- ``initiative:A -> initiative:B``  B requires a completed Initiative of A's Layer

Every node carries its card's costs, bonus and provenance as attributes, so the
drawing and the dashboard read them from the graph. Each analysis is a function
returning a polars table; :func:`analyses` runs them all.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Iterable

import networkx as nx
import polars as pl

PATTERN_LAYERS = range(1, 7)
ALL_LAYERS = range(1, 11)
TOKENS = ("E", "I", "S")


def node_id(kind: str, name) -> str:
    return f"{kind}:{name}"


def _effect_text(effect) -> str:
    if effect is None:
        return ""
    parts = []
    for key in ("meaning", "vitals", "legacy", "E", "I", "S"):
        value = getattr(effect, key, 0)
        if value:
            parts.append(f"{key}{value:+d}")
    if getattr(effect, "lose_tokens", 0):
        parts.append(f"lose {effect.lose_tokens} token(s)")
    if getattr(effect, "restrict", None):
        parts.append(f"no {effect.restrict} this round")
    target = getattr(effect, "target", "affected")
    return " ".join(parts) + (f" ({target})" if parts and target != "affected" else "")


def _requirement_text(tokens: dict, layers: Iterable[int], vitals: int = 0, extra: str = "") -> str:
    parts = [f"{n}{k}" for k, n in tokens.items() if n]
    parts += [f"L{layer}" for layer in layers]
    if vitals:
        parts.append(f"{vitals} Vitals")
    if extra:
        parts.append(extra)
    return " + ".join(parts) or "nothing"


def build_graph(cards) -> nx.DiGraph:
    """The dependency graph of a layered card set (Patterns on Layers, Initiatives;
    the ``CardSet`` of the game that names this module as its card graph)."""
    g = nx.DiGraph()
    for layer in ALL_LAYERS:
        g.add_node(node_id("layer", layer), kind="layer", hub=True, layer=layer, name=f"Layer {layer}",
                   requirement="", bonus="", provenance="seed")
    for p in cards.patterns.values():
        tokens = p.requirement.tokens.as_dict()
        n = node_id("pattern", p.name)
        g.add_node(n, kind="pattern", name=p.name, layer=p.layer, tokens=tokens,
                   layers=list(p.requirement.layers), vitals=p.requirement.vitals,
                   bonus=_effect_text(p.bonus),
                   consequence=f"{p.consequence.table} {p.consequence.code}" if p.consequence else "",
                   requirement=_requirement_text(tokens, p.requirement.layers, p.requirement.vitals),
                   provenance=p.provenance, draft_fields=list(p.draft_fields))
        for layer, count in _counts(p.requirement.layers).items():
            g.add_edge(node_id("layer", layer), n, kind="requires", count=count)
        g.add_edge(n, node_id("layer", p.layer), kind="supplies", count=1)
    for i in cards.initiatives.values():
        req = i.requirement
        n = node_id("initiative", i.name)
        extra = []
        if req.contributors > 1:
            extra.append(f"{req.contributors} contributors")
        if req.completed:
            extra.append("completed " + ", ".join(f"L{c}" for c in req.completed))
        if req.patterns_in_play:
            extra.append(f"{req.patterns_in_play} Patterns in play")
        g.add_node(n, kind="initiative", name=i.name, layer=i.layer, tokens=dict(req.tokens),
                   layers=list(req.layers), contributors=req.contributors, completed=list(req.completed),
                   patterns_in_play=req.patterns_in_play, meaning=i.meaning,
                   order_spaces=i.order_spaces, bonus=_effect_text(i.bonus),
                   penalty=f"{i.penalty.table} {i.penalty.code}" if i.penalty else "",
                   requirement=_requirement_text(dict(req.tokens), req.layers, 0, "; ".join(extra)),
                   provenance=i.provenance, draft_fields=list(i.draft_fields))
        for layer, count in _counts(req.layers).items():
            g.add_edge(node_id("layer", layer), n, kind="requires", count=count)
        g.add_edge(n, node_id("layer", i.layer), kind="supplies", count=1)
    for b in cards.initiatives.values():
        for needed in b.requirement.completed:
            for a in cards.initiatives.values():
                if a.layer == needed and a.name != b.name:
                    g.add_edge(node_id("initiative", a.name), node_id("initiative", b.name),
                               kind="prerequisite", count=1)
    return g


def _counts(layers: Iterable[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for layer in layers:
        out[layer] = out.get(layer, 0) + 1
    return out


# ---------------------------------------------------------------------------
# Cheapest way to load each Pattern: a shortest path over palettes.

def _load_profile(pattern) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """What :func:`_load_cost` reads of ``pattern``: its Layer icons as
    (palette index, count), its printed tokens and its Support (worked out once
    per Pattern: the search below prices tens of thousands of loads)."""
    tokens = pattern.requirement.tokens
    need = tuple((layer - 1, n) for layer, n in _counts(pattern.requirement.layers).items())
    return need, tokens.E + tokens.I + tokens.S, tokens.S


def _load_cost(pattern, palette: tuple[int, ...], profile=None) -> tuple[int, int]:
    """(tokens committed, Support among them) to load ``pattern`` onto ``palette``
    (a count of Patterns per Layer 1-6): the printed tokens plus one token for
    every Layer icon the palette does not cover. ``profile``: the Pattern's
    :func:`_load_profile`, when the caller has it."""
    need, printed, support = profile or _load_profile(pattern)
    unmet = 0
    for i, n in need:
        if n > palette[i]:
            unmet += n - palette[i]
    return printed + unmet, support


def _plan_key(plan: tuple, objective: str = "actions") -> tuple:
    """Order plans. ``actions``: by actions counted in half-actions (a load is two, a
    token one, since a Gather brings two), then net tokens. ``tokens``: by net tokens
    (bonuses can make a detour through other cards cheaper), then loads. Card names
    break the last tie so the result is deterministic."""
    net, loads, names = plan[0], plan[4], plan[5]
    if objective == "tokens":
        return (net, loads, names)
    return (2 * loads + max(0, net), net, names)


def _bonus_tokens(pattern) -> int:
    b = pattern.bonus
    return (b.E + b.I + b.S) if b is not None else 0


def cheapest_loads(cards, objective: str = "actions") -> pl.DataFrame:
    """For each Pattern, the cheapest way to have it loaded starting from an empty palette.

    A position is a palette, counted per Layer (capped at the most icons of one Layer
    any card shows, beyond which more copies change nothing). Loading a Pattern moves
    to the palette with one more card of its Layer and costs the tokens committed
    (printed tokens + one per unmet icon) minus the tokens its bonus returns. With
    ``objective="actions"`` (the default) a plan is priced in actions: each load is one
    action and every two net tokens one Gather; with ``objective="tokens"`` it is priced
    in net tokens, which shows where loading cheap cards for their bonuses first pays. Palettes are settled in order of size (every load adds a
    card, so this is a DAG order), keeping the cheapest plan to each; the plan for a
    Pattern is the cheapest settled plan plus the Pattern itself. A plan never uses the
    same card twice.

    Columns: ``pattern, layer, tokens`` (net tokens spent before the target's own bonus),
    ``net_after_bonus``, ``gross_tokens`` (committed, bonuses ignored), ``support``
    (Support committed, which Gather cannot provide), ``vitals`` (Vitals paid),
    ``loads``, ``actions`` (loads + the Gathers that supply the net tokens, two per
    Gather), ``direct_tokens`` (loading it first, on an empty palette) and ``plan``.

    Keeping one plan per palette is a heuristic where two plans reach the same palette
    with different cards; it is exact for pools whose cards of a Layer share a profile.
    """
    if objective not in ("actions", "tokens"):
        raise ValueError("objective is 'actions' or 'tokens'")
    patterns = list(cards.patterns.values())
    cap = max([1] + [n for p in patterns for n in _counts(p.requirement.layers).values()])
    start = (0,) * 6
    # Dijkstra keyed by (net tokens, loads); net edge costs can be negative (a bonus
    # that returns more than it costs), but every load adds a card to the palette, so
    # positions only grow: settle them in order of total cards, which is a DAG order.
    best: dict[tuple, tuple] = {start: (0, 0, 0, 0, 0, ())}
    profiles = {p.name: _load_profile(p) for p in patterns}
    bonuses = {p.name: _bonus_tokens(p) for p in patterns}
    frontier = [start]
    for _ in range(6 * cap):
        nxt_frontier = set()
        for pal in frontier:
            net, gross, support, vitals, loads, plan = best[pal]
            for p in patterns:
                if p.name in plan:
                    continue
                layer_i = p.layer - 1
                if pal[layer_i] >= cap:
                    continue
                cost, sup = _load_cost(p, pal, profiles[p.name])
                new = list(pal)
                new[layer_i] += 1
                new = tuple(new)
                cand = (net + cost - bonuses[p.name], gross + cost, support + sup,
                        vitals + p.requirement.vitals, loads + 1, plan + (p.name,))
                if new not in best or _plan_key(cand, objective) < _plan_key(best[new], objective):
                    best[new] = cand
                    nxt_frontier.add(new)
        frontier = sorted(nxt_frontier)
        if not frontier:
            break
    rows = []
    for p in patterns:
        direct, _ = _load_cost(p, start)
        choice = None
        for pal, (net, gross, support, vitals, loads, plan) in best.items():
            if p.name in plan:
                continue
            cost, sup = _load_cost(p, pal, profiles[p.name])
            cand = (net + cost, gross + cost, support + sup, vitals + p.requirement.vitals, loads + 1, plan)
            if choice is None or _plan_key(cand, objective) < _plan_key(choice, objective):
                choice = cand
        total, gross, support, vitals, loads, plan = choice
        net_after_bonus = total - _bonus_tokens(p)
        rows.append({
            "pattern": p.name, "layer": p.layer, "tokens": total, "net_after_bonus": net_after_bonus,
            "gross_tokens": gross, "support": support, "vitals": vitals, "loads": loads,
            "actions": loads + math.ceil(max(0, total) / 2), "direct_tokens": direct,
            "plan": " > ".join(plan + (p.name,)),
        })
    return pl.DataFrame(rows).sort(["layer", "tokens", "pattern"])


# ---------------------------------------------------------------------------
# Dead, dominated and dominant cards.

def _pattern_vector(p) -> dict:
    t = p.requirement.tokens
    b = p.bonus
    return {
        "cost": (t.E, t.I, t.S, p.requirement.vitals),
        "icons": _counts(p.requirement.layers),
        "gain": ((b.E, b.I, b.S, b.vitals, b.meaning, b.legacy) if b is not None else (0,) * 6),
        "consequence": p.consequence is not None,
    }


def _weakly_better(a: dict, b: dict) -> bool:
    """True when card ``a`` is at least as good as ``b`` in every respect."""
    if any(x > y for x, y in zip(a["cost"], b["cost"])):
        return False
    if any(n > b["icons"].get(layer, 0) for layer, n in a["icons"].items()):
        return False
    if any(x < y for x, y in zip(a["gain"], b["gain"])):
        return False
    return not (a["consequence"] and not b["consequence"])


def pattern_viability(cards, vitals_max: int | None = None) -> pl.DataFrame:
    """Patterns that can never be loaded, or are never worth loading.

    - ``dead``: the requirement cannot be met in any game: its Vitals cost is at least
      the Vitals track's top (a player could never pay it and stay above 0... the
      rules let Vitals reach 0, so the cost must not exceed the track's maximum).
    - ``dominated_by``: another Pattern of the same Layer that costs no more of any
      token, Vitals or icon, gives at least as much, and has no Consequence where this
      one has none; with a strict edge somewhere. A dominated card is never worth
      loading while its dominator is in the Prism.
    - ``dominates``: how many Patterns this one dominates (a high count flags a
      dominant card).
    """
    top = vitals_max if vitals_max is not None else cards.settings.tracks["vitals"][1]
    pats = list(cards.patterns.values())
    vec = {p.name: _pattern_vector(p) for p in pats}
    dominated_by: dict[str, list[str]] = {p.name: [] for p in pats}
    for a, b in itertools.permutations(pats, 2):
        if a.layer != b.layer:
            continue
        va, vb = vec[a.name], vec[b.name]
        if _weakly_better(va, vb) and not _weakly_better(vb, va):
            dominated_by[b.name].append(a.name)
    rows = []
    for p in pats:
        dead_reason = ""
        if p.requirement.vitals > top:
            dead_reason = f"costs {p.requirement.vitals} Vitals; the track tops out at {top}"
        rows.append({
            "pattern": p.name, "layer": p.layer, "dead": bool(dead_reason), "dead_reason": dead_reason,
            "dominated_by": ", ".join(sorted(dominated_by[p.name])),
            "dominates": sum(p.name in v for v in dominated_by.values()),
        })
    return pl.DataFrame(rows).sort(["layer", "pattern"])


# ---------------------------------------------------------------------------
# Bottleneck Layers.

def layer_bottlenecks(cards, graph: nx.DiGraph | None = None) -> pl.DataFrame:
    """How much of the pool hangs on each Layer.

    ``suppliers``: cards that supply the Layer; ``direct``: cards whose requirement shows
    it (for Layers 7-10, Initiatives that need one of that Layer completed); ``downstream``: cards reachable from it in the graph (everything that needs it
    directly or through a chain); ``betweenness``: its normalised betweenness centrality
    in the dependency graph (0-1; high means many requirement chains pass through it);
    ``per_supplier``: direct dependents per supplying card.
    """
    g = graph if graph is not None else build_graph(cards)
    between = nx.betweenness_centrality(g, normalized=True)
    rows = []
    for layer in ALL_LAYERS:
        n = node_id("layer", layer)
        suppliers = [u for u in g.predecessors(n) if g.edges[u, n]["kind"] == "supplies"]
        direct = {v for v in g.successors(n) if g.edges[n, v]["kind"] == "requires"}
        # an Initiative Layer is needed through "requires a completed Layer N" links
        direct |= {v for u in suppliers for v in g.successors(u) if g.edges[u, v]["kind"] == "prerequisite"}
        downstream = set(nx.descendants(g, n))
        for u in suppliers:
            if g.nodes[u]["kind"] == "initiative":
                downstream |= {v for v in nx.descendants(g, u) if v != n}
        downstream = [v for v in downstream - set(suppliers) if g.nodes[v]["kind"] != "layer"]
        rows.append({
            "layer": layer, "suppliers": len(suppliers), "direct": len(direct),
            "downstream": len(downstream), "betweenness": round(between[n], 6),
            "per_supplier": round(len(direct) / len(suppliers), 3) if suppliers else None,
        })
    return pl.DataFrame(rows)


# ---------------------------------------------------------------------------
# Initiative feasibility by player count.

def initiative_feasibility(cards, players: Iterable[int] = range(1, 7), dead: set[str] | None = None,
                           contributors_override: dict[str, int] | None = None) -> pl.DataFrame:
    """Which Initiatives can complete at each player count, and why not.

    An Initiative is infeasible at ``n`` players when it needs more contributors than
    ``n``; when a Layer the group must show has no loadable Pattern; when it needs a
    completed Initiative of a Layer none of whose Initiatives is itself feasible at
    ``n``; or when it needs more Patterns in play than the pool holds.
    ``contributors_override`` lets a switch (e.g. a scaled End Initiative) be tested.
    """
    dead = dead or set()
    live_layers = {p.layer for p in cards.patterns.values() if p.name not in dead}
    pool_size = len(cards.patterns) - len(dead)
    overrides = contributors_override or {}
    rows = []
    for n in players:
        feasible: dict[str, str] = {}
        for init in sorted(cards.initiatives.values(), key=lambda i: (i.layer, i.name)):
            req = init.requirement
            need = overrides.get(init.name, req.contributors)
            reasons = []
            if need > n:
                reasons.append(f"needs {need} contributors")
            missing = [layer for layer in req.layers if layer not in live_layers]
            if missing:
                reasons.append("no loadable Pattern of Layer " + ", ".join(map(str, missing)))
            for layer in req.completed:
                ok = [name for name, why in feasible.items()
                      if cards.initiatives[name].layer == layer and not why]
                if not ok:
                    reasons.append(f"no feasible Layer {layer} Initiative to complete first")
            if req.patterns_in_play > pool_size:
                reasons.append(f"needs {req.patterns_in_play} Patterns in play; the pool has {pool_size}")
            feasible[init.name] = "; ".join(reasons)
        for name, why in feasible.items():
            rows.append({"initiative": name, "layer": cards.initiatives[name].layer, "players": n,
                         "feasible": not why, "reason": why})
    return pl.DataFrame(rows)


def cycles(graph: nx.DiGraph) -> pl.DataFrame:
    """Requirement cycles (a card that, through a chain, requires itself): each row one
    cycle as the node list. A valid pool has none; an edit can introduce one."""
    found = [" > ".join(c) for c in nx.simple_cycles(graph)]
    return pl.DataFrame({"cycle": sorted(found)}, schema={"cycle": pl.Utf8})


# ---------------------------------------------------------------------------

def card_summary(cards, graph: nx.DiGraph | None = None, *, loads: pl.DataFrame | None = None,
                 viability: pl.DataFrame | None = None, feasibility: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per card (Patterns and Initiatives) for a designer to sort: costs,
    bonus, provenance, cheapest load, dependents, dead/dominated flags and the player
    counts at which an Initiative can complete."""
    g = graph if graph is not None else build_graph(cards)
    loads = loads if loads is not None else cheapest_loads(cards)
    viability = viability if viability is not None else pattern_viability(cards)
    feasibility = feasibility if feasibility is not None else initiative_feasibility(cards)
    by_load = {r["pattern"]: r for r in loads.iter_rows(named=True)}
    by_viab = {r["pattern"]: r for r in viability.iter_rows(named=True)}
    ok_counts: dict[str, list[int]] = {}
    for r in feasibility.iter_rows(named=True):
        if r["feasible"]:
            ok_counts.setdefault(r["initiative"], []).append(r["players"])
    rows = []
    for n, data in g.nodes(data=True):
        if data["kind"] == "layer":
            continue
        layer_node = node_id("layer", data["layer"])
        dependents = len([v for v in g.successors(layer_node) if g.edges[layer_node, v]["kind"] == "requires"])
        tokens = data.get("tokens", {})
        row = {
            "card": data["name"], "kind": data["kind"], "layer": data["layer"],
            "E": tokens.get("E", 0), "I": tokens.get("I", 0), "S": tokens.get("S", 0), "V": tokens.get("V", 0),
            "icons": " ".join(str(x) for x in data.get("layers", [])),
            "vitals": data.get("vitals", 0), "requirement": data["requirement"], "bonus": data["bonus"],
            "provenance": data["provenance"], "layer_dependents": dependents,
            "cheapest_tokens": None, "cheapest_actions": None, "dead": False, "dominated_by": "",
            "dominates": 0, "feasible_players": "",
        }
        if data["kind"] == "pattern":
            lo, vi = by_load[data["name"]], by_viab[data["name"]]
            row.update(cheapest_tokens=lo["tokens"], cheapest_actions=lo["actions"], dead=vi["dead"],
                       dominated_by=vi["dominated_by"], dominates=vi["dominates"])
        else:
            ok = ok_counts.get(data["name"], [])
            row["feasible_players"] = ",".join(map(str, ok))
            row["dead"] = not ok
        rows.append(row)
    return pl.DataFrame(rows).sort(["layer", "card"])


def analyses(cards, graph: nx.DiGraph | None = None) -> dict[str, pl.DataFrame]:
    """Every analysis, by name."""
    g = graph if graph is not None else build_graph(cards)
    loads = cheapest_loads(cards)
    viability = pattern_viability(cards)
    dead = set(viability.filter(pl.col("dead"))["pattern"].to_list())
    feasibility = initiative_feasibility(cards, dead=dead)
    return {
        "cheapest_loads": loads,
        "pattern_viability": viability,
        "layer_bottlenecks": layer_bottlenecks(cards, g),
        "initiative_feasibility": feasibility,
        "cycles": cycles(g),
        "card_summary": card_summary(cards, g, loads=loads, viability=viability, feasibility=feasibility),
    }


# -- what `workbench graph` shows of this graph (see commands/graph.py) ---------
#: every analysis goes into ``--json``
JSON_SKIP: tuple[str, ...] = ()


def report(tables: dict[str, pl.DataFrame]) -> list[tuple[str, pl.DataFrame]]:
    """The text report's sections: bottleneck Layers, dead or dominated
    Patterns, cycles, Initiatives infeasible at some player count."""
    viability = tables["pattern_viability"]
    return [("layer_bottlenecks", tables["layer_bottlenecks"]),
            ("dead or dominated Patterns", viability.filter(pl.col("dead") | (pl.col("dominated_by") != ""))),
            ("cycles", tables["cycles"]),
            ("Initiatives infeasible at some player count",
             tables["initiative_feasibility"].filter(~pl.col("feasible")))]


def figure(graph: nx.DiGraph, tables: dict, *, title: str = ""):
    """The layered drawing of the graph with the analyses marked."""
    from .graph_view import dependency_figure
    return dependency_figure(graph, tables)
