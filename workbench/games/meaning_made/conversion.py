"""The optional conversion rule: 2 Energy become 1 Support, once per turn. It
is not one of the turn's two actions (ruling ``conversion-free``; option
``conversion_action`` makes it one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

if TYPE_CHECKING:
    from .state import MMState


def check_convert(state: MMState) -> None:
    if not state.rules.conversion:
        raise IllegalAction("the conversion rule is switched off (option conversion)")
    if "convert" in state.restricted:
        raise IllegalAction("conversion is restricted this round")
    if state.converted:
        raise IllegalAction("you have already converted this turn")
    if state.players[state.seat].E < 2:
        raise IllegalAction("converting needs 2 Energy")


def convert(state: MMState) -> None:
    p = state.players[state.seat]
    p.E -= 2
    p.S += 1
    state.converted = True
