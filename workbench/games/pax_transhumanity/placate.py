"""Placate Heat: the player divests one of their own Heat agents from a Market
idea (no money, no labour)."""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .finance import divest
from .notation import A
from .state import PaxState, SPHERE_ORDER, seated


def colours_held(owners: tuple, at: tuple, seat: int) -> tuple[bool, bool]:
    """``(white, black)``: does ``seat`` cover a white, a black Heat square of the
    idea (``at``: its Content.heat_squares entry; the squares' colours come from
    the card data's index lists, not by comparing names)?"""
    held: tuple[int | None, ...] = owners
    whites_at: tuple[int, ...] = at[0]
    blacks_at: tuple[int, ...] = at[1]
    white = black = False
    for i in whites_at:
        if held[i] == seat:
            white = True
            break
    for i in blacks_at:
        if held[i] == seat:
            black = True
            break
    return white, black


def legal(state: PaxState, seat: int, count_only: bool = False):
    """Every legal Placate (one per colour of Heat square the player's agents
    cover on a Market idea); with ``count_only`` just how many (nothing built)."""
    heat: dict = state.heat
    squares: dict = state.content.heat_squares
    if count_only:
        # the count needs no order: the Heat table walked directly (it holds
        # exactly the Market's ideas, see state.py), no look-up per idea
        n = 0
        for idea, owners in heat.items():
            if seated(owners, seat):
                white, black = colours_held(owners, squares[idea], seat)
                n += int(white) + int(black)
        return n
    out = []
    market: dict = state.market
    spheres = SPHERE_ORDER
    for sphere in spheres:          # the Market in its order (state.market_ideas)
        col: list = market[sphere]
        for idea in col:
            if idea is None:
                continue
            on_idea: tuple = heat[idea]
            if not seated(on_idea, seat):
                continue
            white, black = colours_held(on_idea, squares[idea], seat)
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
