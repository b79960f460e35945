"""Per-district effect tables of the Core Actions, worked out with as few rule
calls as the rules allow: an effect that depends on the district only through
its kind is asked once per kind, and an effect that needs one of the seat's own
Facilities on the district is asked only where one stands. The rules themselves
stay in each Action's module (``effects(state, seat, pos)``); this only decides
how often they are asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final

if TYPE_CHECKING:
    from .state import MandateState

Effects = Callable[["MandateState", int, int], list]


def by_kind(state: MandateState, seat: int, effects: Effects,
            kinds_read: frozenset[str] | None = None) -> list[list[str]]:
    """``effects`` for every district, asked once per district kind (the caller
    vouches that the district matters only through its kind), or, with
    ``kinds_read``, once per kind named there and once for all other kinds.
    Districts asked once share the list: the table is only read."""
    firsts, classes = kind_classes(state.tiles, kinds_read)
    asked = [effects(state, seat, pos) for pos in firsts]
    return [asked[c] for c in classes]


#: the last :func:`kind_classes` worked out per set of kinds read: (the board it
#: was for, firsts, classes). A game's board never changes and the listing asks
#: for its classes on most turns; another board is worked out afresh
_CLASSES: Final[dict[frozenset[str] | None, tuple[list[str], list[int], list[int]]]] = {}


def kind_classes(tiles: list[str], kinds_read: frozenset[str] | None = None) -> tuple[list[int], list[int]]:
    """The districts' classes for :func:`by_kind`: ``(firsts, classes)``, the first
    district of each class in board order, and each district's class (an index
    into ``firsts``). A class is a district kind, or, with ``kinds_read``, a kind
    named there or "every other kind"."""
    last = _CLASSES.get(kinds_read)
    if last is not None and last[0] == tiles:
        return last[1], last[2]
    index: dict[str, int] = {}
    firsts: list[int] = []
    classes: list[int] = []
    for pos, kind in enumerate(tiles):
        if kinds_read is not None and kind not in kinds_read:
            kind = ""
        c = index.get(kind)
        if c is None:
            c = index[kind] = len(firsts)
            firsts.append(pos)
        classes.append(c)
    _CLASSES[kinds_read] = (list(tiles), firsts, classes)
    return firsts, classes


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
