"""``workbench board mandate-2038``: the hex board a seed lays out, with each
tile's axial coordinates, kind and ring, the adjacency list and control."""

from __future__ import annotations

from .common import emit_json

BOARD_GAMES = ("mandate-2038",)


def add_parser(sub) -> None:
    p = sub.add_parser("board", help="show the hex board of a game",
                       description="Lay out the board for a seed and print tiles, adjacency and control.")
    p.add_argument("game", help="game id (mandate-2038)")
    p.add_argument("--seed", type=int, default=1, help="seed of the layout (default 1)")
    p.add_argument("--players", type=int, default=None, help="number of players (default 4)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def board_document(state) -> dict:
    from workbench.games.mandate_2038 import board

    g = board.graph(state)
    content = state.content
    tiles = []
    for i, kind in enumerate(state.tiles):
        owner = board.controller(state, i)
        tiles.append({"id": state.tile_ids[i], "kind": kind, "name": content.tile_kinds[kind].name,
                      "q": board.COORDS[i][0], "r": board.COORDS[i][1], "ring": board.RINGS[i],
                      "contract": content.tile_kinds[kind].contract,
                      "control": None if owner is None else state.player_name(owner)})
    adjacency = {state.tile_ids[i]: sorted(state.tile_ids[j] for j in g.neighbors(i)) for i in g.nodes}
    return {"game": "mandate-2038", "seed": state.config.seed, "tiles": tiles, "adjacency": adjacency,
            "edges": g.number_of_edges()}


def run(args) -> int:
    from workbench.core.errors import WorkbenchError, suggest
    from workbench.core.registry import get_game

    if args.game not in BOARD_GAMES:
        get_game(args.game)  # unknown ids get the registry's suggestion
        raise WorkbenchError(f"{args.game} has no hex board; boards exist for {', '.join(BOARD_GAMES)}"
                             f"{suggest(args.game, BOARD_GAMES)}")
    from . import validate
    game = get_game(args.game)
    players = validate.players(game, args.players) or game.default_players
    state = game.new_initial_state(game.config(players, seed=validate.seed(args.seed)))
    doc = board_document(state)
    if args.json:
        emit_json(doc)
        return 0
    print(f"Mandate 2038 board, seed {args.seed}: {len(doc['tiles'])} tiles, {doc['edges']} adjacencies")
    for t in doc["tiles"]:
        nbrs = ", ".join(doc["adjacency"][t["id"]])
        print(f"  {t['id']:<12} ({t['q']:>2},{t['r']:>2}) ring {t['ring']}  "
              f"control {t['control'] or '-':<7} next to {nbrs}")
    return 0
