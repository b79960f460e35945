"""``workbench board GAME``: the board a seed lays out (games that declare one,
``Game.board``), with each tile's coordinates, kind and ring, the adjacency
list and control."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("board", help="show the board of a game",
                       description="Lay out the board for a seed and print tiles, adjacency and control.")
    p.add_argument("game", help="game id (a game with a board: see `workbench board --help`)")
    p.add_argument("--seed", type=int, default=1, help="seed of the layout (default 1)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def board_document(game, state) -> dict:
    """The board module's document of ``state``, headed by the game and the seed."""
    from workbench.core.game import resolve
    return {"game": game.id, "seed": state.config.seed, **resolve(game.board).document(state)}


def run(args) -> int:
    from workbench.core import registry
    from workbench.core.game import resolve

    game = registry.require(args.game, "board", "board")
    from . import validate
    players = validate.players(game, args.players) or game.default_players
    state = game.new_initial_state(game.config(players, seed=validate.seed(args.seed)))
    doc = board_document(game, state)
    if args.json:
        emit_json(doc)
        return 0
    print(f"{game.name} board, seed {args.seed}: {len(doc['tiles'])} tiles, {doc['edges']} adjacencies")
    view = resolve(game.board)
    for t in doc["tiles"]:
        print("  " + view.tile_line(t, doc["adjacency"][t["id"]]))
    return 0
