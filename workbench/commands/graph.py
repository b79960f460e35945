"""``workbench graph``: the card dependency graph and its analyses."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("graph", help="card dependency graph and its analyses",
                       description="Build a game's card dependency graph and print its analyses: cheapest "
                                   "loads, dead and dominated cards, bottlenecks, goal feasibility "
                                   "by player count, cycles and a per-card summary.")
    p.add_argument("game", help="game id (a game with a board gives its board's adjacency graph unless "
                                "--card-graph)")
    p.add_argument("--card-graph", action="store_true",
                   help="a game with a board and a card graph: the card graph instead of the board")
    p.add_argument("--seed", type=int, default=1, help="board seed (games with a board)")
    p.add_argument("--html", metavar="FILE", help="also write the bokeh drawing to an HTML file "
                   "(missing folders on the way are created)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def run(args) -> int:
    from workbench.core import registry

    from . import validate

    game = registry.get_game(args.game)  # a clear message for an unknown id
    validate.seed(args.seed)
    validate.out_path(args.html, "--html", (".html", ".htm"))  # before the work, not after
    if game.provides("board") and not (args.card_graph and game.provides("card_graph")):
        return _board_graph(args, game)
    registry.require(args.game, "card_graph", "card graph")
    return _card_graph(args, game)


def _card_graph(args, game) -> int:
    """The game's card graph and its analyses: the module its ``Game.card_graph``
    names (or the generic graph from ``Game.card_fields``). The module may say
    which tables the text report shows (``report(tables)``), how it is drawn
    (``figure(graph, tables, title)``) and which tables JSON leaves out
    (``JSON_SKIP``); without them: dead, never reachable and dominated cards and
    the bottleneck, the generic pool drawing, every table but ``card_summary``."""
    import polars as pl

    from workbench.graphs.generic import graph_json
    from workbench.tweak.pool_session import graph_module

    mod = graph_module(args.game)
    pool = game.cards()
    graph = mod.build_graph(pool)
    tables = mod.analyses(pool, graph)
    if args.html:
        _write_html(args.html, mod, graph, tables, title=f"{game.name}: card graph")
    if args.json:
        skip = getattr(mod, "JSON_SKIP", ("card_summary",))
        emit_json({"game": args.game, **graph_json(_plain(graph)),
                   "analyses": {k: v.to_dicts() for k, v in tables.items() if k not in skip}})
        return 0
    report = getattr(mod, "report", None)
    sections = report(tables) if report else _default_report(tables)
    with pl.Config(tbl_rows=80, tbl_cols=12, tbl_width_chars=160, fmt_str_lengths=60):
        print(f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
        for title, table in sections:
            print(f"\n{title}:")
            print(table)
    return 0


def _default_report(tables) -> list:
    import polars as pl
    status = tables["card_status"]
    return [("dead, never reachable or dominated cards",
             status.filter(pl.col("dead") | (pl.col("dominated_by") != "")).select(
                 "card", "kind", "dead_reason", "dominated_by")),
            ("bottlenecks", tables["bottlenecks"])]


def _write_html(path, mod, graph, tables, *, title: str) -> None:
    from bokeh.embed import file_html
    from bokeh.resources import INLINE

    from workbench.core import storage

    from workbench.core.errors import WorkbenchError
    draw = getattr(mod, "figure", None)
    if draw is not None:
        fig = draw(graph, tables, title=title)
    else:
        from workbench.graphs.drawing import pool_figure
        fig = pool_figure(graph, tables["card_status"], title=title)
    try:
        storage.write_text(path, file_html(fig, resources=INLINE, title=title), "--html")
    except OSError as exc:
        raise WorkbenchError(f"--html {path!r}: cannot write ({exc.strerror or exc})") from None


def _plain(graph):
    """A copy whose attributes are JSON values (counters and tuples become plain)."""
    import networkx as nx
    out = nx.DiGraph()
    for n, d in graph.nodes(data=True):
        out.add_node(n, **{k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, tuple) else v)
                           for k, v in d.items()})
    out.add_edges_from(graph.edges(data=True))
    return out


def _board_graph(args, game) -> int:
    """A game with a board: the adjacency graph of the board the seed lays out,
    with the analyses its board module gives (``analyses(state)``)."""
    from workbench.core.game import resolve

    from .board import board_document

    board = resolve(game.board)
    state = game.new_initial_state(game.config(game.default_players, seed=args.seed))
    doc = board_document(game, state)
    doc["analyses"] = board.analyses(state)
    if args.json:
        emit_json(doc)
        return 0
    print(f"{len(doc['tiles'])} tiles, {doc['edges']} adjacencies (seed {args.seed})")
    for line in board.analysis_lines(doc["analyses"]):
        print(f"  {line}")
    return 0
