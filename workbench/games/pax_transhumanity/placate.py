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


def legal(state: PaxState, seat: int, count_only: bool = False):
    """Every legal Placate (one per colour of Heat square the player's agents
    cover on a Market idea); with ``count_only`` just how many (nothing built)."""
    out = []
    n = 0
    # the Market walked here in its order (state.market_ideas), without a helper
    # call per idea: this runs in every position, and most ideas carry none of
    # the player's Heat. The squares' colours come from the card data's index
    # lists (Content.heat_squares), not by comparing colour names.
    heat: dict = state.heat
    squares: dict = state.content.heat_squares
    market: dict = state.market
    spheres: tuple[str, ...] = SPHERES
    for sphere in spheres:
        col: list = market[sphere]
        for idea in col:
            if idea is None:
                continue
            # seats compared as machine integers (a typed walk, not ``in``)
            owners: tuple[int | None, ...] = heat[idea]
            for o in owners:
                if o is not None and o == seat:
                    break
            else:
                continue
            at: tuple = squares[idea]
            whites_at: tuple[int, ...] = at[0]
            blacks_at: tuple[int, ...] = at[1]
            white = black = False           # the player's agent on a square of that colour
            for i in whites_at:
                if owners[i] == seat:
                    white = True
                    break
            for i in blacks_at:
                if owners[i] == seat:
                    black = True
                    break
            if count_only:
                n += int(white) + int(black)
                continue
            if white:
                out.append(A("placate", idea, "white"))
            if black:
                out.append(A("placate", idea, "black"))
    return n if count_only else out


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
