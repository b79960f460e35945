"""Influence: lobbying on the civic districts (Media, Government, Capital: gain one
Trust or remove one Scrutiny; Media removes one more, Government gives one more
Trust) and, from Era III, Joint Ventures: propose one between your Facility on the
acting district and an adjacent rival Facility (the rival answers; refusal spends
the Action), or end one you share.

A venture holds one numbered pair from the shared supply (six pairs), lowest free
number first. At Production, while both hosts are connected and still adjacent, each
partner gains one of the resource shown by the contract icon of the other host's
district.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from . import audit, board, costs
from .tables import split_table as _split_table

if TYPE_CHECKING:
    from .state import MandateState

JV_ERA: Final = 3


def lobby_effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return ["trust", "scrutiny"] if state.tiles[pos] in state.content.civic_tiles else []


def free_pair(state: MandateState) -> int | None:
    used = {v["pair"] for v in state.ventures}
    for k in range(1, state.content.shared["jointVenturePairs"] + 1):
        if k not in used:
            return k
    return None


def hosts_adjacent(state: MandateState, a: int, b: int) -> bool:
    """Joint Venture range: hexes sharing an edge; co-located hosts count only under
    the ``jv_colocated`` option (ruling jv-colocated)."""
    if a == b:
        return bool(state.options.get("jv_colocated", False))
    return b in board.ADJ_SETS[a]


def venture_effects(state: MandateState, seat: int, pos: int) -> list[str]:
    if state.era < JV_ERA:
        return []
    p = state.players[seat]
    mine = [f for f, fpos in enumerate(p.facilities) if fpos == pos]
    if not mine:
        return []
    out = []
    if free_pair(state) is not None:
        for f in mine:
            for rival in range(state.n):
                if rival == seat:
                    continue
                for g, gpos in enumerate(state.players[rival].facilities):
                    if gpos is not None and hosts_adjacent(state, pos, gpos):
                        out.append(f"venture facility {f + 1} + {state.player_name(rival)} facility {g + 1}")
    for v in state.ventures:
        if seat in (v["a"], v["b"]):
            out.append(f"end venture {v['pair']}")
    return out


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return lobby_effects(state, seat, pos) + venture_effects(state, seat, pos)


def effects_by_tile(state: MandateState, seat: int) -> list[list[str]]:
    """:func:`effects` for every district: lobbying asked once per district kind,
    Joint Ventures only where the seat has a Facility (the only hosts)."""
    return _split_table(state, seat, lobby_effects, venture_effects)


_VENTURE = re.compile(r"^venture facility (\d) \+ (\S+) facility (\d)$")


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> bool:
    """Apply the effect; returns True when a proposal now waits for the partner."""
    p = state.players[seat]
    kind = state.tiles[pos]
    if mode in ("trust", "scrutiny"):
        # Ruling influence-district-extra: by default each district's extra follows
        # the matching choice; the switch reads "Media removes one additional
        # Scrutiny; Government gains one additional Trust" as coming with either.
        any_mode = bool(state.options.get("district_extra_any_mode", False))
        trust = (1 if mode == "trust" else 0) + (1 if kind == "government" and (any_mode or mode == "trust") else 0)
        cubes = (1 if mode == "scrutiny" else 0) + (1 if kind == "media" and (any_mode or mode == "scrutiny") else 0)
        if trust:
            costs.gain(state, seat, "trust", trust + (1 if mode == "trust" and p.ability == "public_charter" else 0))
        if cubes:
            audit.remove_scrutiny(state, seat, cubes)
        return False
    if mode.startswith("end venture"):
        pair = int(mode.split()[-1])
        state.ventures = [v for v in state.ventures if v["pair"] != pair]
        state.note(f"{state.player_name(seat)} ends Joint Venture {pair}")
        return False
    m = _VENTURE.match(mode)
    assert m is not None  # the mode was listed as legal, so it matches
    rival = [n.lower() for n in state.config.players].index(m.group(2).lower())
    state.pending = {"kind": "venture", "from": seat, "to": rival,
                     "a_fac": int(m.group(1)) - 1, "b_fac": int(m.group(3)) - 1}
    return True


def accept(state: MandateState) -> None:
    pend = state.pending
    pair = free_pair(state)
    state.ventures = state.ventures + [{"pair": pair, "a": pend["from"], "a_fac": pend["a_fac"],
                                        "b": pend["to"], "b_fac": pend["b_fac"], "era": state.era}]
    state.ventures.sort(key=lambda v: v["pair"])
    state.note(f"Joint Venture {pair} between {state.player_name(pend['from'])} and {state.player_name(pend['to'])}")


def in_range(state: MandateState, v: dict) -> bool:
    """Whether a venture's two hosts still stand in Joint Venture range (adjacent, or
    co-located under ``jv_colocated``). Hosts move with Organize's Relocate."""
    a = state.players[v["a"]].facilities[v["a_fac"]]
    b = state.players[v["b"]].facilities[v["b_fac"]]
    return a is not None and b is not None and hosts_adjacent(state, a, b)


def active(state: MandateState, v: dict) -> bool:
    """A contract stays owned but is active only while its hosts meet its
    requirements: both connected and, unless ``jv_range_checked_once`` is set, still
    in range of each other (ruling jv-range-kept: Relocate rechecks contracts)."""
    if not (board.is_connected(state, v["a"], v["a_fac"]) and board.is_connected(state, v["b"], v["b_fac"])):
        return False
    return bool(state.options.get("jv_range_checked_once", False)) or in_range(state, v)


def contract_of(state: MandateState, seat: int, fac: int) -> str | None:
    pos = state.players[seat].facilities[fac]
    return None if pos is None else state.content.tile_kinds[state.tiles[pos]].contract
