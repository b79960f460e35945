"""How pages name a game: by the name its package gives it, never by its id
alone, so a page's title and its game selector read the same."""

from __future__ import annotations


def game_name(game_id: str) -> str:
    """The game's name (``Meaning Made``), or the id of one that is not registered."""
    from workbench.core.registry import load_all
    game = load_all().get(game_id)
    return getattr(game, "name", None) or game_id


def game_options(game_ids) -> dict[str, str]:
    """``{name: id}`` for a selector: people read names, the page keeps ids."""
    return {game_name(g): g for g in game_ids}
