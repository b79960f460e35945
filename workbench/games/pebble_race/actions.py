"""Pebble Race's three actions, each checked in full before it changes anything:
``take`` (a market card, refilled from the deck; the third Shell costs points),
``gamble`` (a die: 5-6 gains 2, 1 loses 1) and ``pass``."""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .data import SHELL_PENALTY, SHELL_PENALTY_AT
from .notation import Gamble, Pass, Take
from .state import PebbleState, add_points


def take(state: PebbleState, seat: int, action: Take) -> None:
    if action.card not in state.market:
        raise IllegalAction(f"{action.card} is not in the market")
    state.market = list(state.market)
    state.market.remove(action.card)
    if state.deck:
        state.deck = list(state.deck)
        state.market.append(state.deck.pop())
    hand = state.hands[seat] = state.hands[seat] + [action.card]
    gain = state.pool.points[action.card]
    if action.card == "Shell" and hand.count("Shell") == SHELL_PENALTY_AT:
        gain -= SHELL_PENALTY
    add_points(state, seat, gain)


def gamble(state: PebbleState, seat: int, action: Gamble) -> None:
    roll = state.rng.randint(1, 6)
    state.gambles += 1
    add_points(state, seat, 2 if roll >= 5 else (-1 if roll == 1 else 0))


def pass_(state: PebbleState, seat: int, action: Pass) -> None:
    """Nothing happens: the turn passes."""


RULES = {Take: take, Gamble: gamble, Pass: pass_}
