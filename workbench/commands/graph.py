"""``workbench graph``: the card dependency graph and its analyses."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("graph", help="card dependency graph and its analyses",
                       description="Build a game's card dependency graph and print its analyses: cheapest "
                                   "loads, dead and dominated cards, bottleneck Layers, Initiative feasibility "
                                   "by player count, cycles and a per-card summary.")
    p.add_argument("game", help="game id (mandate-2038 gives its hex adjacency graph unless --card-graph)")
    p.add_argument("--card-graph", action="store_true",
                   help="mandate-2038: the card graph (projects, Facilities, Generators, Eras) instead of the board")
    p.add_argument("--seed", type=int, default=1, help="board seed (mandate-2038)")
    p.add_argument("--html", metavar="FILE", help="also write the bokeh drawing to an HTML file "
                   "(missing folders on the way are created)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def run(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.core.registry import get_game

    from . import validate

    get_game(args.game)  # a clear message for an unknown id
    validate.seed(args.seed)
    validate.out_path(args.html, "--html", (".html", ".htm"))  # before the work, not after
    if args.game == "mandate-2038" and not args.card_graph:
        return _board_graph(args)
    if args.game in ("mandate-2038", "pax-transhumanity"):
        return _pool_graph(args)
    if args.game != "meaning-made":
        raise WorkbenchError(f"{args.game} has no card dependency graph; try meaning-made, mandate-2038 "
                             "or pax-transhumanity")
    from workbench.games.meaning_made.data import load_cards
    from workbench.graphs import dependency

    cards = load_cards()
    graph = dependency.build_graph(cards)
    tables = dependency.analyses(cards, graph)
    if args.html:
        _write_html(args.html, graph, tables)
    if args.json:
        emit_json({"game": args.game, **dependency.graph_json(graph),
                   "analyses": {k: v.to_dicts() for k, v in tables.items()}})
        return 0
    import polars as pl
    with pl.Config(tbl_rows=80, tbl_cols=12, tbl_width_chars=160, fmt_str_lengths=60):
        print(f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
        for name in ("layer_bottlenecks", "pattern_viability", "cycles"):
            table = tables[name]
            if name == "pattern_viability":
                table = table.filter(pl.col("dead") | (pl.col("dominated_by") != ""))
                name = "dead or dominated Patterns"
            print(f"\n{name}:")
            print(table)
        feas = tables["initiative_feasibility"].filter(~pl.col("feasible"))
        print("\nInitiatives infeasible at some player count:")
        print(feas)
    return 0


def _write_html(path, graph, tables) -> None:
    from bokeh.io import save
    from bokeh.resources import INLINE

    from workbench.core.errors import WorkbenchError
    from workbench.graphs.drawing import dependency_figure
    try:
        save(dependency_figure(graph, tables), filename=path, resources=INLINE, title="Card dependency graph")
    except OSError as exc:
        raise WorkbenchError(f"--html {path!r}: cannot write ({exc.strerror or exc})") from None


def _pool_graph(args) -> int:
    """The card graph of Mandate 2038 or Pax Transhumanity and its analyses:
    dead, never reachable and dominated cards, the bottleneck."""
    import polars as pl

    from workbench.core.registry import get_game
    from workbench.graphs import dependency
    from workbench.graphs.pool_tweak import graph_module

    mod = graph_module(args.game)
    pool = get_game(args.game).cards()
    graph = mod.build_graph(pool)
    tables = mod.analyses(pool, graph)
    if args.html:
        from bokeh.io import save
        from bokeh.resources import INLINE

        from workbench.graphs.drawing import pool_figure
        save(pool_figure(graph, tables["card_status"], title=f"{args.game}: card graph"), filename=args.html,
             resources=INLINE, title="Card graph")
    if args.json:
        emit_json({"game": args.game, **dependency.graph_json(_plain(graph)),
                   "analyses": {k: v.to_dicts() for k, v in tables.items() if k != "card_summary"}})
        return 0
    with pl.Config(tbl_rows=80, tbl_cols=12, tbl_width_chars=160, fmt_str_lengths=60):
        print(f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
        status = tables["card_status"]
        print("\ndead, never reachable or dominated cards:")
        print(status.filter(pl.col("dead") | (pl.col("dominated_by") != "")).select(
            "card", "kind", "dead_reason", "dominated_by"))
        print("\nbottlenecks:")
        print(tables["bottlenecks"])
    return 0


def _plain(graph):
    """A copy whose attributes are JSON values (counters and tuples become plain)."""
    import networkx as nx
    out = nx.DiGraph()
    for n, d in graph.nodes(data=True):
        out.add_node(n, **{k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, tuple) else v)
                           for k, v in d.items()})
    out.add_edges_from(graph.edges(data=True))
    return out


def _board_graph(args) -> int:
    """Mandate 2038 has no card graph; its graph is the hex adjacency of the board
    the seed lays out, with each tile's degree and its inner/outer contacts."""
    from workbench.core.registry import get_game
    from workbench.games.mandate_2038 import board

    from .board import board_document

    game = get_game("mandate-2038")
    state = game.new_initial_state(game.config(4, seed=args.seed))
    doc = board_document(state)
    g = board.graph(state)
    rings = {state.tile_ids[i]: board.RINGS[i] for i in g.nodes}
    degree = []
    for i in sorted(g.nodes):
        tid = state.tile_ids[i]
        near = [state.tile_ids[j] for j in g.neighbors(i)]
        degree.append({"tile": tid, "ring": rings[tid], "degree": len(near),
                       "inner_neighbours": sum(rings[n] == 1 for n in near),
                       "outer_neighbours": sum(rings[n] == 2 for n in near)})
    doc["analyses"] = {"degree": degree}
    if args.json:
        emit_json(doc)
        return 0
    print(f"{len(doc['tiles'])} tiles, {doc['edges']} adjacencies (seed {args.seed})")
    for row in degree:
        print(f"  {row['tile']:<14} ring {row['ring']}  degree {row['degree']}  "
              f"inner {row['inner_neighbours']}  outer {row['outer_neighbours']}")
    return 0
