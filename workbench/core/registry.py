"""Where game ids map to their engines. Imports are lazy so that the command
line stays fast and a broken game does not stop the others from loading."""

from __future__ import annotations

import importlib

from .errors import WorkbenchError, suggest

GAMES: dict[str, str] = {
    "meaning-made": "workbench.games.meaning_made",
    "mandate-2038": "workbench.games.mandate_2038",
    "pax-transhumanity": "workbench.games.pax_transhumanity",
}


def game_ids() -> list[str]:
    return list(GAMES)


def get_game(game_id: str):
    """The :class:`~workbench.core.game.Game` for ``game_id``."""
    if game_id not in GAMES:
        raise WorkbenchError(f"unknown game {game_id!r}{suggest(game_id, GAMES)}; "
                             f"choose one of {', '.join(GAMES)}")
    return importlib.import_module(GAMES[game_id]).GAME


def data_package(game_id: str) -> str:
    """Folder name under ``cards/`` for a game id (hyphens become underscores)."""
    return game_id.replace("-", "_")
