"""Rename every card of a game and play it: a name the rules still read somewhere
shows as a refused edit (one clear line: fine) or as a game that raises (a bug).

For each card of the game's tweak table, a fresh session renames it to a two-word
name (``Zq <name> Xv``, so a name read word by word is caught too) and plays two
greedy games with the edited pool. It prints each refusal and each crash, then the
list of crashes; exit 1 if there is any. It reads a copy of the card folder it is
given (``--cards``, default the bundled cards) and writes nothing.

    WORKBENCH_PURE=1 python analyses/rename_every_card.py mandate-2038 [--cards DIR] [--seeds 1,2]
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--cards", help="card folder to copy (default: the bundled cards)")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--players", type=int)
    args = ap.parse_args(argv)
    from workbench.core.data import cards_root
    from workbench.core.storage import copy_tree, remove_scratch, scratch_folder
    work = scratch_folder("rename-every-card-")
    try:
        cards = copy_tree(args.cards or cards_root(), work / "cards", "the card folder's copy")
        os.environ["WORKBENCH_CARDS"] = str(cards)
        return _sweep(args.game, [int(s) for s in args.seeds.split(",")], args.players)
    finally:
        remove_scratch(work)


def _sweep(game_id: str, seeds: list[int], players: int | None) -> int:
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    from workbench.core.registry import get_game
    from workbench.tweak import open_session
    table = open_session(game_id=game_id).table()
    names = list(table["name"]) if "name" in table.columns else []
    n = players or get_game(game_id).default_players
    crashes = []
    for name in names:
        session = open_session(game_id=game_id)
        try:
            session.edit(name, "name", f"Zq {name} Xv")
        except Exception as exc:  # noqa: BLE001 - a refusal is an answer; print it
            print(f"refused  {name}: {str(exc).splitlines()[0][:160]}")
            continue
        game = get_game(session.session_game())
        for seed in seeds:
            try:
                play_game(game, game.config(n, seed=seed), make_bots("greedy", n))
            except Exception as exc:  # noqa: BLE001 - the finding this script looks for
                crashes.append(name)
                print(f"CRASH    {name}: seed {seed}: {type(exc).__name__}: {exc}")
                break
        else:
            print(f"plays    {name}")
    print(f"{game_id}: {len(names)} cards, {len(crashes)} crash: {', '.join(crashes) or 'none'}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
