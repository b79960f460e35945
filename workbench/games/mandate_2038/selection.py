"""Reason: the secret selection of a Core Action at the start of each cycle.

Every player picks one ready (not yet exhausted this Era) Core Action; picks are
revealed together. The engine takes the picks one seat at a time in Initiative
order and keeps each hidden (``observe`` shows ``hidden``) until the last player
has chosen. Only availability is checked here: costs and targets are checked when
the Action resolves, where a pick may turn out blocked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .data import CORE_ACTIONS
from .notation import Move

if TYPE_CHECKING:
    from .state import MandateState


#: one Move per Core Action, built once (moves are immutable tuples)
SELECT_MOVES = {a: Move("select", a) for a in CORE_ACTIONS}
#: the same, in ``CORE_ACTIONS`` order (a player's ``ready`` flags follow it)
_SELECT_IN_ORDER: Final[list[Move]] = [SELECT_MOVES[a] for a in CORE_ACTIONS]


def choices(state: MandateState, seat: int) -> list[Move]:
    ready: list = state.players[seat].ready
    return [_SELECT_IN_ORDER[i] for i in range(len(_SELECT_IN_ORDER)) if ready[i]]


def start(state: MandateState) -> None:
    state.phase = "select"
    state.selections = [None] * state.n
    state.order = state.initiative_order()
    state.sel_index = 0
    state.decider = state.order[0]


def choose(state: MandateState, seat: int, action: str) -> bool:
    """Record a pick; True once every player has chosen (the picks are revealed)."""
    state.selections[seat] = action
    state.sel_index += 1
    if state.sel_index < state.n:
        state.decider = state.order[state.sel_index]
        return False
    state.note("Selections revealed: " + ", ".join(
        f"{state.player_name(s)} {state.selections[s]}" for s in state.order))
    return True


def visible(state: MandateState, seat: int):
    """What the table sees of a seat's pick: hidden until everyone has chosen."""
    pick = state.selections[seat]
    return "hidden" if state.phase == "select" and pick is not None else pick
