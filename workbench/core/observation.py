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


def _meet(values: list) -> Any:
    """What every one of ``values`` (the same place in each seat's view) agrees
    on: the value itself where all are equal; a mapping or same-length list
    place by place (keys some view lacks are left out); :data:`HIDDEN` otherwise."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: _meet([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [_meet([v[i] for v in values]) for i in range(len(first))]
    return HIDDEN


def public_observation(game, state) -> dict:
    """What every seat knows: the observation of a spectator. Its table is the
    *meet* of all seats' tables (a value shown only where every seat is shown
    the same value), so it can hold nothing some seat may not see, whatever the
    game masks and however; it has no legal moves. With one seat it is that
    seat's view."""
    views = [game.observation(state, seat)["table"] for seat in range(state.num_players)]
    current = None if state.is_terminal() else state.player_name(state.current_player())
    return {"seat": None, "seat_index": None, "players": list(state.config.players), "to_move": False,
            "acting": current, "over": state.is_terminal(), "legal": [], "table": _meet(views)}
