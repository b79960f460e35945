"""Build: up to one Facility, then up to one unlocked project, both on the acting
Agent's district, as one Action.

Facility: two Runway (Chip and faction discounts apply after any surcharge), the
lowest-numbered unbuilt Facility, on a district with an open Facility space
(never Frontier). Projects: from Era II an ordinary Generator on an Energy district
(Grid: Emergency Infrastructure for one Runway; Renewable: Clean Infrastructure for
two Runway and one Trust on arrival), one per player, three shared slots per Energy
district; or a personal project chip (Mega-Cluster II, Fusion III, Quantum IV) on a
connected Facility of yours there, each once per institution. A Facility built in
this Build may host its project. Either step may be skipped, but if any
construction is possible at the chosen district, at least one is made.
"""

from __future__ import annotations

import re

from . import board, costs

PROJECT_WORDS = {"mega-cluster": "mega_cluster", "fusion": "fusion_demonstrator", "quantum": "quantum"}
WORD_OF = {v: k for k, v in PROJECT_WORDS.items()}
GENERATOR_ERA = 2


def facility_cost(state, seat: int, pos: int) -> int:
    discounts = (1 if state.tiles[pos] == "chip" else 0) + \
        (1 if state.players[seat].ability == "utility_permits" else 0)
    return costs.modified_cost(state.content.rules["facilityCost"], discounts=discounts)


def next_facility(p) -> int | None:
    """Facilities are built in number order: the lowest-numbered unbuilt one."""
    return p.facilities.index(None) if None in p.facilities else None


def can_build_facility(state, seat: int, pos: int) -> bool:
    p = state.players[seat]
    return (next_facility(p) is not None and board.open_facility_space(state, pos)
            and p.runway >= facility_cost(state, seat, pos))


def generator_cost(state, pos: int) -> int:
    return state.content.generators[state.tiles[pos]]["cost"]


def project_options(state, seat: int, pos: int, runway: int, compute: int, new_fac: int | None) -> list[str]:
    """Projects buildable with the given resources; ``new_fac`` is a Facility placed
    on ``pos`` earlier in this same Build."""
    p = state.players[seat]
    out = []
    if (state.era >= GENERATOR_ERA and board.is_energy(state, pos) and p.generator is None
            and board.generators_on(state, pos) < state.content.generator_slots
            and runway >= generator_cost(state, pos)):
        out.append("generator")
    hosts = [f for f, fpos in enumerate(p.facilities) if fpos == pos]
    if new_fac is not None:
        hosts.append(new_fac)
    hosts.sort()
    for pid, proj in state.content.projects.items():
        if state.era < proj.era or pid in p.projects:
            continue
        if runway < proj.cost.get("runway", 0) or compute < proj.cost.get("compute", 0):
            continue
        for h in hosts:
            if board.would_be_connected(state, seat, h, pos):
                out.append(f"{WORD_OF[pid]} on facility {h + 1}")
    return out


def effects(state, seat: int, pos: int) -> list[str]:
    p = state.players[seat]
    out = []
    if can_build_facility(state, seat, pos):
        out.append("facility")
        cost = facility_cost(state, seat, pos)
        for proj in project_options(state, seat, pos, p.runway - cost, p.compute, next_facility(p)):
            out.append(f"facility + {proj}")
    out.extend(project_options(state, seat, pos, p.runway, p.compute, None))
    return out


def effects_by_tile(state, seat: int) -> list[list[str]]:
    """:func:`effects` for every district at once, sharing the work that does not
    depend on the district (the long legal-action lists of a Build turn)."""
    p = state.players[seat]
    content = state.content
    spaces = [0] * len(state.tiles)
    for q in state.players:
        for pos in q.facilities:
            if pos is not None:
                spaces[pos] += 1
    nxt = next_facility(p)
    project_ok = bool(p.generator is None and state.era >= GENERATOR_ERA) or any(
        state.era >= proj.era and pid not in p.projects for pid, proj in content.projects.items())
    out = []
    for pos in range(len(state.tiles)):
        can_fac = (nxt is not None and pos != board.FRONTIER_POS and spaces[pos] < content.facility_spaces
                   and p.runway >= facility_cost(state, seat, pos))
        if not can_fac and not (project_ok and (pos in p.facilities or board.is_energy(state, pos))):
            out.append([])
            continue
        out.append(effects(state, seat, pos))
    return out


_PROJECT = re.compile(r"^(mega-cluster|fusion|quantum) on facility (\d)$")


def resolve(state, seat: int, pos: int, mode: str) -> None:
    p = state.players[seat]
    name = state.player_name(seat)
    parts = mode.split(" + ")
    if parts[0] == "facility":
        f = next_facility(p)
        p.runway -= facility_cost(state, seat, pos)
        p.facilities[f] = pos
        state.note(f"{name} builds Facility {f + 1} on {state.tile_ids[pos]}")
        parts = parts[1:]
    if not parts:
        return
    step = parts[0]
    if step == "generator":
        gen = state.content.generators[state.tiles[pos]]
        p.runway -= gen["cost"]
        p.generator = pos
        if gen["trustOnBuild"]:
            costs.gain(state, seat, "trust", gen["trustOnBuild"])
        state.note(f"{name} builds a {gen['kind']} Generator on {state.tile_ids[pos]}")
        return
    m = _PROJECT.match(step)
    pid, host = PROJECT_WORDS[m.group(1)], int(m.group(2)) - 1
    proj = state.content.projects[pid]
    p.runway -= proj.cost.get("runway", 0)
    p.compute -= proj.cost.get("compute", 0)
    p.projects = {**p.projects, pid: host}
    state.note(f"{name} attaches {proj.name} to Facility {host + 1}")
