"""Pebble Race's flow: what the player to move may do, applying one action, and
what follows it: the turn passes clockwise, a round ends after the last seat,
an empty market ends the game (highest score wins, ties share) and the round
limit ends it with nobody winning."""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .actions import RULES
from .notation import GAMBLE, PASS, Take
from .state import PebbleState, finish


def legal_actions(state: PebbleState) -> list:
    if state.over:
        return []
    seen, out = set(), []
    for card in state.market:
        if card not in seen:
            seen.add(card)
            out.append(Take(card))
    out.append(GAMBLE)
    out.append(PASS)
    return out


def apply_action(state: PebbleState, action) -> None:
    if state.over:
        raise IllegalAction("the game is over")
    rule = RULES.get(type(action))
    if rule is None:
        raise IllegalAction(f"{action!r} is not a Pebble Race action")
    seat = state.turn
    rule(state, seat, action)
    state.actions += 1
    if state.over:
        return
    if not state.market:
        best = max(state.scores)
        finish(state, "exhausted", [i for i, s in enumerate(state.scores) if s == best])
        return
    state.turn = (seat + 1) % len(state.scores)
    if state.turn == 0:
        state.round += 1
        if state.round > state.round_limit:
            state.round -= 1
            finish(state, "collapsed", [])
