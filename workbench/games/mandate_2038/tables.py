"""Per-district effect tables of the Core Actions, worked out with as few rule
calls as the rules allow: an effect that depends on the district only through
its kind is asked once per kind, and an effect that needs one of the seat's own
Facilities on the district is asked only where one stands. The rules themselves
stay in each Action's module (``effects(state, seat, pos)``); this only decides
how often they are asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .state import MandateState

Effects = Callable[["MandateState", int, int], list]


def by_kind(state: MandateState, seat: int, effects: Effects, kinds_read: frozenset[str] | None = None) -> list[list[str]]:
    """``effects`` for every district, asked once per district kind (the caller
    vouches that the district matters only through its kind), or, with
    ``kinds_read``, once per kind named there and once for all other kinds.
    Districts asked once share the list: the table is only read."""
    # typed locals: the compiled build walks them natively
    tiles: list[str] = state.tiles
    read: frozenset[str] | None = kinds_read
    memo: dict[str, list[str]] = {}
    out: list[list[str]] = []
    for pos in range(len(tiles)):
        kind = tiles[pos]
        if read is not None and kind not in read:
            kind = ""
        modes = memo.get(kind)
        if modes is None:
            modes = memo[kind] = effects(state, seat, pos)
        out.append(modes)
    return out


def split_table(state: MandateState, seat: int, kind_part: Effects, facility_part: Effects,
                kinds_read: frozenset[str] | None = None) -> list[list[str]]:
    """``kind_part + facility_part`` for every district: the first depends on the
    district only through its kind (see :func:`by_kind`), the second is empty
    wherever the seat has no Facility."""
    table = by_kind(state, seat, kind_part, kinds_read)
    hosts: set[int] = {pos for pos in state.players[seat].facilities if pos is not None}
    for pos in hosts:
        table[pos] = table[pos] + facility_part(state, seat, pos)
    return table
