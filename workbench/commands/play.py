"""``workbench play``: play a whole game with bots and print it."""

from __future__ import annotations

from workbench.core.counting import counted

from .common import add_game_options, emit_json, game_setup


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a whole game with bots",
                       description="Play one game with bots in every seat and print the result.")
    p.add_argument("game", help="a registered game id (an unknown one is answered with the list)")
    add_game_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game, result_json
    from workbench.core.registry import get_game

    game = get_game(args.game)
    players, seed, options, specs = game_setup(args, game)
    players = players or game.default_players
    config = game.config(players, seed=seed, variants=args.variant, **options)
    bots = make_bots(specs, len(config.players))
    state, log = play_game(game, config, bots)
    doc = result_json(game, config, state, log, bots)
    # which cards were played: the folder read and the pool's version (a hash of its
    # values), added after the other keys so the rest of the document is unchanged
    where = played_pool(game)
    # the JSON stays the same on every machine (docs/reference/json-output.md): the bundled folder is
    # named "bundled", not by the path it happens to have here
    doc.update({**where, "cards": where["cards"] if args.workspace.cards is not None else "bundled"}
               if where else {})
    if args.json:
        emit_json(doc)
        return 0
    print(f"{game.name}: {counted(len(config.players), 'player')}, seed {config.seed}, "
          f"{counted(doc['turns'], 'round')}, {counted(len(log), 'action')}")
    if where:
        print(f"cards: {where['cards']} (pool {where['pool']})")
    for p in doc["players"]:
        print(f"  {p['name']:<10} {p.get('bot', ''):<10} {p['score']}")
    print(f"ending: {doc['ending']}; winners: {', '.join(doc['winners']) or 'nobody'}")
    return 0


def played_pool(game) -> dict:
    """``{"cards": folder, "pool": version}`` of the pool a game is played with;
    empty for a game without card files."""
    if game.pool_spec is None:
        return {}
    from workbench.core.versions import game_folder, pool_version
    return {"cards": str(game_folder(game)), "pool": pool_version(game)}
