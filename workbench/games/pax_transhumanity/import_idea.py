"""Import: move a Market idea that carries no rival agent to another empty slot of
the Market (any sphere's column). No money, no labour."""

from __future__ import annotations

from typing import Final

from workbench.core.errors import IllegalAction

from .data import SPHERES
from .notation import new_action
from .state import PaxState, SPHERE_ORDER


def movable(state: PaxState, seat: int, idea: str) -> bool:
    """No rival Syndication or rival Heat agent on the idea."""
    owners: tuple[int, ...] = state.synd.get(idea, ())
    for s in owners:
        if s != seat:
            return False
    squares: tuple[int | None, ...] = state.heat.get(idea, ())
    for h in squares:
        if h is not None and h != seat:
            return False
    return True


def empty_slots(state: PaxState) -> list:
    return [(s, i) for s in SPHERES for i, c in enumerate(state.market[s]) if c is None]


def legal(state: PaxState, seat: int) -> list:
    return expand(*legal_product(state, seat))


#: per sphere (in SPHERES order), the ``(sphere, slot)`` pair of every slot of a
#: six-slot column, built once
_SLOT_PAIRS: Final = tuple(tuple((sphere, i) for i in range(6)) for sphere in SPHERES)


def legal_product(state: PaxState, seat: int) -> tuple:
    """``(ideas, slots)``: every legal Import is one idea of ``ideas`` to one
    slot of ``slots`` (all pairs; listed idea by idea)."""
    # empty_slots() and movable(), inlined in one walk of the Market: this runs
    # for every Market slot in every position
    # (the containers' types written out: the compiled build walks them directly)
    synd: dict = state.synd
    heat: dict = state.heat
    market: dict = state.market
    slots: list = []
    ideas: list = []
    spheres = SPHERE_ORDER
    for j in range(len(spheres)):
        sphere = spheres[j]
        col: list = market[sphere]
        pairs: tuple = _SLOT_PAIRS[j]
        for i in range(len(col)):
            idea = col[i]
            if idea is None:
                slots.append(pairs[i] if i < len(pairs) else (sphere, i))
                continue
            # element types written out: seats compared as machine integers
            owners: tuple[int, ...] = synd.get(idea, ())
            for s in owners:
                if s != seat:
                    break
            else:
                squares: tuple[int | None, ...] = heat.get(idea, ())
                for h in squares:
                    if h is not None and h != seat:
                        break
                else:
                    ideas.append(idea)
    if not slots:
        return (), ()
    return ideas, slots


def expand(ideas, slots) -> list:
    # Imports are most of the legal moves in a typical position (every movable idea
    # times every empty slot): each is built directly (notation.new_action), not
    # parsed or validated.
    out = []
    for idea in ideas:
        out += [new_action("import", (idea, s, i)) for s, i in slots]
    return out


def nth(ideas: list | tuple, slots: list | tuple, index: int):
    """The ``index``-th Import of :func:`expand` (without building the others)."""
    slot: tuple = slots[index % len(slots)]
    return new_action("import", (ideas[index // len(slots)], slot[0], slot[1]))


def apply(state: PaxState, seat: int, action) -> None:
    # the arguments typed (the parser and the listing build them so): read
    # natively by the compiled build, as every other Import is
    args: tuple = action.args
    idea: str = args[0]
    sphere: str = args[1]
    slot: int = args[2]
    where: tuple | None = state.where_in_market(idea)
    if where is None:
        raise IllegalAction(f"{idea} is not in the Market")
    if not movable(state, seat, idea):
        raise IllegalAction(f"{idea} carries another player's agent and cannot be imported")
    market: dict = state.market
    col: list = market[sphere]
    if not 0 <= slot < len(col):
        raise IllegalAction(f"the Market has slots 0 to {len(col) - 1}")
    if col[slot] is not None:
        raise IllegalAction(f"slot {slot} of the {sphere} column is not empty")
    source: list = market[where[0]]
    at: int = where[1]
    source[at] = None
    col[slot] = idea
    state.bump("imports")
