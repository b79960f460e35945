"""The round: Phase A (Event), Phase B (player turns, clockwise, two actions
each), Phase C (Stability Window), then the end of the round: discard the
Event, the solo Community placement, the collapse check and the round limits.

"This round" effects (restrictions) and once-per-round limits (Touchpoint,
Limited Recycle) are cleared when the next round starts.
"""

from __future__ import annotations

from .consequences import discard_events, event_phase
from .solo import community_placement
from .stability_window import can_donate
from .state import PHASE_OVER, PHASE_STABILITY, PHASE_TURNS, MMState, finish

ACTIONS_PER_TURN = 2


def start_round(state: MMState, number: int, reveal: bool = True) -> None:
    n = len(state.players)
    if number > state.round and state.rules.options["first_player_rotates"]:
        state.first = (state.first + number - state.round) % n
    state.round = number
    state.restricted = []
    state.touch_used = [False] * n
    state.recycled = [False] * n
    state.donations = 0
    state.stab_next = 0
    state.pending = None
    if reveal:
        event_phase(state)
    begin_turn(state, state.first)


def begin_turn(state: MMState, seat: int) -> None:
    state.phase = PHASE_TURNS
    state.seat = state.decider = seat
    state.actions_left = ACTIONS_PER_TURN
    state.converted = False


def action_done(state: MMState) -> None:
    """After a Phase B action (or a Touchpoint answer): the turn goes on, passes
    clockwise, or Phase B ends and the Stability Window opens."""
    if state.phase == PHASE_OVER:
        return
    if state.actions_left > 0:
        state.phase = PHASE_TURNS
        state.decider = state.seat
        return
    nxt = (state.seat + 1) % len(state.players)
    if nxt == state.first:
        open_stability_window(state)
    else:
        begin_turn(state, nxt)


def open_stability_window(state: MMState, start_offset: int = 0) -> None:
    state.phase = PHASE_STABILITY
    state.stab_next = start_offset
    next_donor(state)


def next_donor(state: MMState) -> None:
    """Hand the Stability Window's decision to the next player in order who can
    donate, or end the round when nobody is left."""
    n = len(state.players)
    while state.stab_next < n:
        seat = (state.first + state.stab_next) % n
        if can_donate(state, seat) is None:
            state.decider = seat
            return
        state.stab_next += 1
    end_round(state)


def end_round(state: MMState) -> None:
    """Discard the Event; solo Community placement; then collapse (Meaning 0),
    the Competitive round count, or the round limit may end the game."""
    discard_events(state)
    if state.rules.solo:
        community_placement(state)
    if state.meaning <= 0 and not state.rules.competitive:
        finish(state, "collapsed")
        return
    if state.rules.competitive and state.round >= state.rules.rounds:
        finish(state, "survived")
        return
    if state.round >= state.rules.round_limit:
        finish(state, "timeout")
        return
    start_round(state, state.round + 1)

