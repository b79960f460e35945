"""Organize: Recruit (two Runway, one less on Talent: an Agent from supply joins
the acting Agent's district; at most four Agents) or Relocate (free: one of your
Facilities on the acting district moves to an adjacent non-Frontier district with
an open Facility space, keeping its chips; Power is re-read at once)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import board, costs

if TYPE_CHECKING:
    from .state import MandateState


def recruit_cost(state: MandateState, pos: int) -> int:
    r = state.content.rules
    discount = r["talentRecruitDiscount"] if state.tiles[pos] == "talent" else 0
    return costs.modified_cost(r["recruitCost"], discounts=discount)


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    p = state.players[seat]
    out = []
    if None in p.agents and p.runway >= recruit_cost(state, pos):
        out.append("recruit")
    for f, fpos in enumerate(p.facilities):
        if fpos != pos:
            continue
        for dest in board.ADJ[pos]:
            if board.open_facility_space(state, dest):
                out.append(f"relocate facility {f + 1} to {state.tile_ids[dest]}")
    return out


_RELOCATE = re.compile(r"^relocate facility (\d) to (\S+)$")


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    p = state.players[seat]
    if mode == "recruit":
        p.runway -= recruit_cost(state, pos)
        p.agents[p.agents.index(None)] = pos
        state.note(f"{state.player_name(seat)} recruits an Agent on {state.tile_ids[pos]}")
        return
    m = _RELOCATE.match(mode)
    f, dest = int(m.group(1)) - 1, state.tile_ids.index(m.group(2))
    p.facilities[f] = dest
    state.note(f"{state.player_name(seat)} relocates Facility {f + 1} to {state.tile_ids[dest]}")
