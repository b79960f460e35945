"""Who may do what now, and applying an action: the dispatcher between the
phases and the action modules. Every action is validated in full (raising
:class:`IllegalAction` with the reason) before anything changes."""

from __future__ import annotations

from typing import Any

from workbench.core.errors import IllegalAction

from . import notation as N
from .contribute import check_completions, contribute, contribution_options, plan_contribute
from .conversion import check_convert, convert
from .gather import gather
from .load_pattern import affordable_loads, load_pattern, plan_load
from .recycle import check_recycle, has_unstarted, recycle
from .flow import action_done, next_donor
from .stability_window import can_donate, check_donation, donation
from .state import PHASE_OVER, PHASE_STABILITY, PHASE_TOUCHPOINT, PHASE_TURNS, MMState
from .touchpoint import answer, check_answer, exchange_possible, plan_touchpoint, propose

_RECYCLE_PRISM, _RECYCLE_INDEX = N.Recycle("prism"), N.Recycle("index")


def touchpoint_options(state: MMState, seat: int) -> list:
    """Touchpoints ``seat`` may propose: give a kind they hold, or request a
    kind the other player holds, to or from each other player in seat order.
    The list depends only on who holds which kinds, so it is kept per
    (seat, holdings) on the game's Rules (shared, never changed by callers)."""
    players = state.players
    holds = [seat]
    for op in players:
        holds.append((op.E > 0) | (op.I > 0) << 1 | (op.S > 0) << 2)
    key = tuple(holds)
    cache = state.rules.touchpoint_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    out = []
    made = state.rules.touchpoint_actions
    me = players[seat]
    mine = (me.E, me.I, me.S)
    for other, op in enumerate(players):
        if other == seat:
            continue
        theirs = (op.E, op.I, op.S)
        for k, (give, request) in enumerate(made[other]):
            if mine[k] > 0:
                out.append(give)
            if theirs[k] > 0:
                out.append(request)
    if len(cache) > 100_000:
        cache.clear()
    cache[key] = out
    return out


def legal_actions(state: MMState) -> list:
    phase = state.phase
    if phase == PHASE_TURNS:
        out: list[Any] = list(N.GATHERS)
        out.extend(affordable_loads(state))
        out.extend(contribution_options(state))
        seat = state.seat
        rules = state.rules
        restricted = state.restricted
        if not rules.solo and not state.touch_used[seat] and "touchpoint" not in restricted:
            out.extend(touchpoint_options(state, seat))
        if "recycle" not in restricted and not (
                rules.limited_recycle and (any(state.recycled) if rules.options["limited_recycle_scope"] == "table"
                                           else state.recycled[seat])):
            if any(state.prism):
                out.append(_RECYCLE_PRISM)
            if has_unstarted(state):
                out.append(_RECYCLE_INDEX)
        if rules.conversion and not state.converted and state.players[seat].E >= 2 \
                and "convert" not in restricted:
            out.append(N.CONVERT)
        return out
    if phase == PHASE_TOUCHPOINT:
        return [N.ACCEPT, N.DECLINE] if exchange_possible(state) is None else [N.DECLINE]
    if phase == PHASE_STABILITY:
        return [N.DONATE, N.PASS] if can_donate(state, state.decider) is None else [N.PASS]
    return []


def apply_action(state: MMState, action) -> None:
    if type(action) is str:
        action = N.parse(action, state.cards, state.config.players)
    phase = state.phase
    if phase == PHASE_TURNS:
        turn = _TURN_ACTIONS.get(type(action))
        if turn is None:
            if isinstance(action, (N.Answer, N.Donate)):
                raise IllegalAction(f"'{action}' is not an action of a player's turn"
                                    + (" (no Touchpoint is waiting for an answer)" if isinstance(action, N.Answer)
                                       else " (the Stability Window is not open)"))
            raise IllegalAction(f"unknown action {action!r}")
        if turn(state, action):  # the action used one of the turn's two
            state.actions_taken += 1
            state.actions_left -= 1
            action_done(state)
        return
    if phase == PHASE_OVER:
        raise IllegalAction("the game is over")
    if phase == PHASE_TOUCHPOINT:
        if type(action) is not N.Answer:
            frm = state.player_name(state.pending[0])
            raise IllegalAction(f"{state.player_name(state.decider)} must answer {frm}'s Touchpoint: accept or decline")
        check_answer(state, action.accept)
        answer(state, action.accept)
        state.actions_taken += 1
        action_done(state)
        return
    if phase == PHASE_STABILITY:
        if type(action) is not N.Donate:
            raise IllegalAction("the Stability Window is open: donate or pass")
        check_donation(state, action.donate)
        state.actions_taken += 1
        donation(state, action.donate)
        next_donor(state)
        return
    raise IllegalAction(f"unknown phase {phase!r}")


# Phase B, one function per action: validate in full, then apply. Each returns
# True when the action used one of the turn's two actions and the turn moves on;
# False when it handled the bookkeeping itself (a Touchpoint waits for its answer;
# a free conversion).

def _gather(state: MMState, action) -> bool:
    t = action.tokens
    if t[2] or t[3] or t[0] + t[1] != 2:
        raise IllegalAction("gather takes exactly 2 tokens, Energy and/or Insight")
    gather(state, action)
    return True


def _load(state: MMState, action) -> bool:
    seat = state.seat
    plan = plan_load(state, action)
    load_pattern(state, plan)
    inits = state.cards.initiatives
    check_completions(state, seat, [n for n, prog in state.progress.items()
                                     if seat in prog.markers or inits[n].requirement.patterns_in_play])
    return True


def _contribute(state: MMState, action) -> bool:
    plan = plan_contribute(state, action)
    contribute(state, plan)
    check_completions(state, state.seat, (action.initiative,))
    return True


def _touchpoint(state: MMState, action) -> bool:
    other = plan_touchpoint(state, action)
    propose(state, action, other)
    state.actions_taken += 1
    return False


def _recycle(state: MMState, action) -> bool:
    check_recycle(state, action.area)
    recycle(state, action.area)
    return True


def _convert(state: MMState, action) -> bool:
    check_convert(state)
    convert(state)
    if state.rules.options["conversion_action"]:
        return True
    state.actions_taken += 1
    return False


_TURN_ACTIONS = {N.Gather: _gather, N.Load: _load, N.Contribute: _contribute, N.Touchpoint: _touchpoint,
                 N.Recycle: _recycle, N.Convert: _convert}
