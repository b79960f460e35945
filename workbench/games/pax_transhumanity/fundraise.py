"""Fundraise, in its three steps.

1. The player may divest any of their Syndications, Employees (unemployed ones
   too) and Patents; each agent goes to Wealth (a divested Patent is not sold).
2. One agent from Capital and one from Debt move to Wealth, again and again,
   until Capital or Debt is empty.
3. Every agent in Wealth moves to Capital.

Step 1 is a sequence of decisions (``divest ...``), closed by ``raise``, which
performs steps 2 and 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .data import SPHERES
from .finance import CAPITAL, DEBT, WEALTH, divest
from .labour import change_unemployed, employees_of, remove_staff
from .notation import A

if TYPE_CHECKING:
    from .state import PaxState


def fundraise_steps(capital: int, wealth: int, debt: int) -> tuple:
    """Steps 2 and 3 on a finance track; returns the new ``(capital, wealth, debt)``."""
    pairs = min(capital, debt)
    capital, debt, wealth = capital - pairs, debt - pairs, wealth + 2 * pairs
    return capital + wealth, 0, debt


def start(state: PaxState, seat: int) -> None:
    state.act = {"kind": "fundraise", "seat": seat}
    state.decision = {"kind": "fundraise", "seat": seat}


def options(state: PaxState, seat: int) -> list:
    out = [A("raise")]
    out += [A("divest", "syndication", idea) for idea in state.market_ideas() if seat in state.synd.get(idea, ())]
    out += [A("divest", "employee", key) for key in employees_of(state, seat)]
    out += [A("divest", "unemployed", s) for s in SPHERES if state.unemployed[s][seat]]
    out += [A("divest", "patent", c) for c in SPHERES if state.patents[seat].get(c, 0)]
    return out


def answer(state: PaxState, seat: int, action) -> bool:
    """Apply a step-1 divestment or ``raise``; True when the Fundraise is over."""
    if action.kind == "raise":
        f = state.fin[seat]
        f[CAPITAL], f[WEALTH], f[DEBT] = fundraise_steps(*f)
        state.decision = None
        state.bump("fundraises")
        return True
    if action not in options(state, seat):
        raise IllegalAction(f"{state.name(seat)} cannot {action}: nothing of theirs is there; "
                            f"answer with one of: {', '.join(map(str, options(state, seat)))}")
    what, where = action.args
    if what == "syndication":
        owners = list(state.synd[where])
        owners.remove(seat)
        state.synd[where] = tuple(owners)
    elif what == "employee":
        remove_staff(state, where, seat)
    elif what == "unemployed":
        change_unemployed(state, where, seat, -1)
    else:
        state.patents[seat][where] -= 1
    divest(state, seat)
    return False
