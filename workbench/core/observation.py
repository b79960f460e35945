"""What one seat may know of a position, as plain JSON (``Game.observation``).

OpenSpiel gives each player its own observation and boardgame.io strips a
state to a ``playerView`` before sending it; this module is the shared part of
ours: every game builds the *table view* it may show a seat (its
``observation`` override masks what the seat cannot see), and
:func:`seat_observation` wraps it with who the seat is and, when it must act,
the moves it may make. Playtest rooms send a seat nothing but this dict, so
everything in it must be safe for that seat to read.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

HIDDEN = "hidden"
"""What a masked value reads as: the seat knows something is there, not what."""


def json_ready(value: Any) -> Any:
    """``value`` as JSON types only: tuples and sets become lists, mapping keys
    strings, non-finite floats None (so the dict survives ``json.dumps`` with
    ``allow_nan=False`` and reads back equal)."""
    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((json_ready(v) for v in value), key=repr)
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return str(value)


def seat_observation(game, state, seat: int, table: Mapping) -> dict:
    """The observation of ``seat``: its name, whether it must act, its legal
    moves in the game's notation (empty when another seat is to act: a rival's
    options can tell what the rival holds), and ``table``, the game's view of
    the position for this seat (already masked)."""
    to_move = not state.is_terminal() and state.current_player() == seat
    legal = [game.format_action(state, a) for a in state.legal_actions()] if to_move else []
    current = state.current_player()
    return {
        "seat": state.player_name(seat), "seat_index": seat,
        "players": list(state.config.players),
        "to_move": to_move,
        "acting": None if state.is_terminal() else state.player_name(current),
        "over": state.is_terminal(),
        "legal": legal,
        "table": json_ready(table),
    }
