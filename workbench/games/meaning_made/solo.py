"""Solo mode: the Community. Four Community markers only block Contribution
Order spaces. At the end of each round one goes to the rightmost face-up
Initiative that has an open space and a Layer above the World Layer, unless the
Community is already there; a Fragile player with a marker on that card gains
+2 Vitals. Solo difficulty (starting values) is read in :mod:`.variants`."""

from __future__ import annotations

from .setup import progress_of
from .state import COMMUNITY, MMState
from .consequences import change_vitals


def community_target(state: MMState):
    """The Initiative the Community would land on now, or None."""
    if state.community <= 0:
        return None
    slots: list[str] = [n for n in state.index if n is not None]
    if state.rules.options["solo_end_slot"] and state.end is not None:
        slots.append(state.end)
    for name in reversed(slots):
        card = state.cards.initiatives[name]
        prog = state.progress.get(name)
        markers = prog.markers if prog else []
        if card.layer <= state.world_layer or len(markers) >= card.order_spaces:
            continue
        if COMMUNITY in markers:
            # ruling solo-community-rightmost: the rightmost eligible card is the only
            # candidate, unless option solo_community is next_left
            if state.rules.options["solo_community"] == "next_left":
                continue
            return None
        return name
    return None


def community_placement(state: MMState) -> None:
    name = community_target(state)
    if name is None:
        return
    progress_of(state, name).markers.append(COMMUNITY)
    state.community -= 1
    for seat, p in enumerate(state.players):
        if p.fragile and seat in state.progress[name].markers:
            change_vitals(state, seat, 2)
