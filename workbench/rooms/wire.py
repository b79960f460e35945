"""Reading a message from a seat's websocket or a body of the designer's API.

Whatever arrives is untrusted: it must be one JSON object, at most
:data:`MAX_DEPTH` levels deep (a frame of 16,000 ``[`` would otherwise end in a
``RecursionError`` deep inside the JSON decoder). Anything else is refused with
one line (:class:`~workbench.rooms.room.RoomError`) and changes nothing.
"""

from __future__ import annotations

import json

from .room import RoomError

MAX_DEPTH = 6      # the deepest message the pages send is {"answers": {"moments": {...}}}


def _depth(value, limit: int) -> int:
    """Nesting depth of ``value``, stopping once it passes ``limit``."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def read_message(text, what: str = "message") -> dict:
    """``text`` (str or bytes) as a JSON object, or :class:`RoomError` in one line."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise RoomError(f"not a {what} this server reads: nested too deeply") from None
    except (ValueError, TypeError):
        raise RoomError(f"not a {what} this server reads: not JSON") from None
    if not isinstance(data, dict):
        raise RoomError(f"not a {what} this server reads: not a JSON object")
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise RoomError(f"not a {what} this server reads: nested more than {MAX_DEPTH} levels")
    return data
