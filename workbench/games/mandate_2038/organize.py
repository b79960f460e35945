"""Organize: Recruit (two Runway, one less on Talent: an Agent from supply joins
the acting Agent's district; at most four Agents) or Relocate (free: one of your
Facilities on the acting district moves to an adjacent non-Frontier district with
an open Facility space, keeping its chips; Power is re-read at once)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import board, costs
from .tables import split_table as _split_table

if TYPE_CHECKING:
    from .state import MandateState


def recruit_cost(state: MandateState, pos: int) -> int:
    r = state.content.rules
    discount = r["talentRecruitDiscount"] if state.tiles[pos] == "talent" else 0
    return costs.modified_cost(r["recruitCost"], discounts=discount)


#: the only district kind Recruit tells apart (its discount); see fund.KINDS_READ
RECRUIT_KINDS_READ = frozenset({"talent"})


def recruit_effects(state: MandateState, seat: int, pos: int) -> list[str]:
    """Recruit's part: it depends on the district only through its kind."""
    p = state.players[seat]
    return ["recruit"] if None in p.agents and p.runway >= recruit_cost(state, pos) else []


def relocate_effects(state: MandateState, seat: int, pos: int) -> list[str]:
    """Relocate's part: only where one of the seat's Facilities stands."""
    p = state.players[seat]
    out = []
    for f, fpos in enumerate(p.facilities):
        if fpos != pos:
            continue
        for dest in board.ADJ[pos]:
            if board.open_facility_space(state, dest):
                out.append(f"relocate facility {f + 1} to {state.tile_ids[dest]}")
    return out


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return recruit_effects(state, seat, pos) + relocate_effects(state, seat, pos)


def effects_by_tile(state: MandateState, seat: int) -> list[list[str]]:
    """:func:`effects` for every district: Recruit asked once per district kind,
    Relocate only where the seat has a Facility."""
    return _split_table(state, seat, recruit_effects, relocate_effects, RECRUIT_KINDS_READ)


_RELOCATE = re.compile(r"^relocate facility (\d) to (\S+)$")


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    p = state.players[seat]
    if mode == "recruit":
        p.runway -= recruit_cost(state, pos)
        p.agents[p.agents.index(None)] = pos
        state.note(f"{state.player_name(seat)} recruits an Agent on {state.tile_ids[pos]}")
        return
    m = _RELOCATE.match(mode)
    assert m is not None  # the mode was listed as legal, so it matches
    f, dest = int(m.group(1)) - 1, state.tile_ids.index(m.group(2))
    p.facilities[f] = dest
    state.note(f"{state.player_name(seat)} relocates Facility {f + 1} to {state.tile_ids[dest]}")
