"""How pages name a game: by the name its package gives it (a page's title, a
progress line), where a selector lists ids."""

from __future__ import annotations


def game_name(game_id: str) -> str:
    """The game's name (``Game.name``), or the id of one that is not registered."""
    from workbench.core.registry import load_all
    game = load_all().get(game_id)
    return getattr(game, "name", None) or game_id

