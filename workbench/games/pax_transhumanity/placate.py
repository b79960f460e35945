"""Placate Heat: the player divests one of their own Heat agents from a Market
idea (no money, no labour)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .data import SPHERES
from .finance import divest
from .notation import A

if TYPE_CHECKING:
    from .state import PaxState


def legal(state: PaxState, seat: int) -> list:
    out = []
    # the Market walked here in its order (state.market_ideas), without a helper
    # call per idea: this runs in every position, and most ideas carry none of
    # the player's Heat
    heat: dict = state.heat
    ideas: dict = state.content.ideas
    for sphere in SPHERES:
        col: list = state.market[sphere]
        for idea in col:
            if idea is None:
                continue
            owners: tuple = heat[idea]
            if seat not in owners:
                continue
            squares: tuple = ideas[idea].heat
            white = black = False           # the player's agent on a square of that colour
            for i in range(len(squares)):
                if owners[i] == seat:
                    c = squares[i]
                    if c == "white":
                        white = True
                    elif c == "black":
                        black = True
            if white:
                out.append(A("placate", idea, "white"))
            if black:
                out.append(A("placate", idea, "black"))
    return out


def apply(state: PaxState, seat: int, action) -> None:
    idea, colour = action.args
    if state.where_in_market(idea) is None:
        raise IllegalAction(f"{idea} is not in the Market")
    squares = state.idea(idea).heat
    owners = list(state.heat[idea])
    mine = [i for i, c in enumerate(squares) if c == colour and owners[i] == seat]
    if not mine:
        raise IllegalAction(f"{state.name(seat)} has no Heat agent on a {colour} square of {idea}")
    owners[mine[0]] = None
    state.heat[idea] = tuple(owners)
    divest(state, seat)
    state.bump("placations")
