"""Small helpers shared by the sub-commands (standard library only)."""

from __future__ import annotations

import json
import sys


def emit_json(doc) -> None:
    """Print one JSON document on stdout: keys in insertion order, UTF-8 kept."""
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


def add_game_options(p, *, json_flag: bool = True) -> None:
    p.add_argument("--players", type=int, default=None, help="number of players (game default if omitted)")
    p.add_argument("--seed", type=int, default=1, help="seed of the game's random stream (default 1)")
    p.add_argument("--bots", default=None, help="bot per seat, e.g. greedy,random or mcts:200,greedy")
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help="switch a variant or ruling alternative on (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. round_limit=40 (repeatable)")
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON document")


def parse_options(pairs) -> dict:
    """``key=value`` pairs to a dict; values are numbers, true/false, null or plain
    words (never YAML: no tags, anchors or collections)."""
    from workbench.core.options import options
    return options(pairs)


def game_setup(args, game, *, default_bots: str = "greedy"):
    """The validated ``(players, seed, options, bots)`` of a command's game
    options, checked before any work starts: players within the game's range,
    seed in range, options safe, bot specs naming real cards and weights."""
    from workbench.core.bots import check_specs

    from . import validate
    players = validate.players(game, args.players)
    seed = validate.seed(args.seed)
    options = parse_options(args.option)
    bots = args.bots if args.bots is not None else default_bots
    check_specs(game, bots)
    return players, seed, options, bots
