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


#: games registered for this session (an edited pool bound to a game)
SESSION_GAMES: dict = {}


def game_ids() -> list[str]:
    return list(GAMES)


def session_game_ids() -> list[str]:
    """Ids of the games registered for this session, oldest first."""
    return list(SESSION_GAMES)


def register_session_game(game, label: str = "edited") -> str:
    """Register ``game`` (a bundled game bound to an edited card pool, see
    ``Game.with_cards``) for this session and return its id,
    ``<game id>@<label>-<n>``: :func:`get_game` finds it, so a saved or handed-
    over match of it (the Play page, ``Match.from_dict``) replays on that pool.
    The same game object registered twice keeps its first id."""
    if game.session_id is not None and SESSION_GAMES.get(game.session_id) is game:
        return game.session_id
    if game.id not in GAMES:
        raise WorkbenchError(f"unknown game {game.id!r}; only bundled games take a session pool")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in label.strip().lower()) or "edited"
    sid = f"{game.id}@{safe}-{sum(1 for k in SESSION_GAMES if k.startswith(game.id + '@')) + 1}"
    game.session_id = sid
    SESSION_GAMES[sid] = game
    return sid


def get_game(game_id: str):
    """The :class:`~workbench.core.game.Game` for ``game_id`` (a bundled id, or
    one :func:`register_session_game` gave)."""
    if game_id in SESSION_GAMES:
        return SESSION_GAMES[game_id]
    if game_id not in GAMES:
        raise WorkbenchError(f"unknown game {game_id!r}{suggest(game_id, GAMES)}; "
                             f"choose one of {', '.join(GAMES)}")
    return importlib.import_module(GAMES[game_id]).GAME


def data_package(game_id: str) -> str:
    """Folder name under ``cards/`` for a game id (hyphens become underscores)."""
    return game_id.replace("-", "_")
