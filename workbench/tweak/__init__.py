"""Live tweaking of a game's card pool: the sessions behind the Cards, Graph and
Balance pages, ``workbench cards`` and the balance search.

A session holds the designer's card files as plain data; each edit is validated
as the file on disk would be, the card graph's analyses are compared, and the
pool can be undone, saved the round-trip way and playtested against the pool as
loaded (:mod:`workbench.sim`). Which session a game gets is decided here, once:
the class its ``Game.tweak_session`` names, else
:class:`~.pool_session.PoolTweakSession` over its card graph.

* :mod:`.session`: :class:`~.session.TweakSession`, what every session shares
  (a game with a pool no catalogue describes subclasses it in its own package);
* :mod:`.pool_session`: the session of a game with a card catalogue;
* :mod:`.variables`: the card values a ``--vary`` pattern or a balance variable
  names (the balance search varies them, a session sets them);
* :mod:`.planted`: planted edits of known direction, applied through a session,
  that measure the verdicts.

Place in the import order: above :mod:`workbench.graphs` and :mod:`workbench.sim` (a session draws
the card graph and runs paired playtests), below :mod:`workbench.balance`
(which applies its proposals through a session) and the pages.
"""

from __future__ import annotations

from pathlib import Path

from .pool_session import PoolTweakSession, graph_module
from .session import TweakSession, _first_card_game


def open_session(game_id: str | None = None, folder: str | Path | None = None) -> TweakSession:
    """The tweak session of ``game_id`` (no id: the first game with a card
    graph) over ``folder`` (default: the game's card folder): the session class
    its ``Game.tweak_session`` names, else a :class:`PoolTweakSession`. An
    unknown id, or a game with no card graph, is refused in one line."""
    from workbench.core.game import resolve
    from workbench.core.registry import get_game
    game_id = game_id or _first_card_game()
    game = get_game(game_id)  # an unknown id is refused with the known ones
    if game.tweak_session is not None:
        return resolve(game.tweak_session)(game_id, folder)
    graph_module(game_id)  # a game without a card graph is refused here
    return PoolTweakSession(game_id, folder)


__all__ = ["open_session", "TweakSession", "PoolTweakSession"]
