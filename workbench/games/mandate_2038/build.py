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
from typing import TYPE_CHECKING, Final

from . import board, costs

if TYPE_CHECKING:
    from .state import MandateState, Player

PROJECT_WORDS = {"mega-cluster": "mega_cluster", "fusion": "fusion_demonstrator", "quantum": "quantum"}
WORD_OF: Final = {v: k for k, v in PROJECT_WORDS.items()}
GENERATOR_ERA: Final = 2


def facility_cost(state: MandateState, seat: int, pos: int) -> int:
    tiles: list[str] = state.tiles
    p: Player = state.players[seat]
    return facility_cost_of(state.content.rules["facilityCost"], tiles[pos], p.ability)


def facility_cost_of(base: int, kind: str, ability) -> int:
    """:func:`facility_cost` from the rule's base cost, the district kind and the
    builder's ability (a Build's plan reads the first and the last once)."""
    discounts = (1 if kind == "chip" else 0) + (1 if ability == "utility_permits" else 0)
    return costs.modified_cost(base, discounts=discounts)


def next_facility(p) -> int | None:
    """Facilities are built in number order: the lowest-numbered unbuilt one."""
    return p.facilities.index(None) if None in p.facilities else None


def generator_cost(state: MandateState, pos: int) -> int:
    return state.content.generators[state.tiles[pos]]["cost"]


class _Plan:
    """What a Build by ``seat`` can do anywhere this turn, worked out once: the
    Facility to place next, the projects still open to it (unlocked, unbuilt),
    the districts its own Power sources reach and its own Facilities by district.
    Every district's options read it (typed fields: the compiled build reads
    them directly instead of looking names up)."""

    __slots__ = ("seat", "p", "tiles", "next_fac", "generator_ok", "energy_tiles", "generator_slots",
                 "facility_spaces", "projects", "reach", "own", "spaces", "gens", "fac_base", "fac_cost")

    def __init__(self, state: MandateState, seat: int) -> None:
        p: Player = state.players[seat]
        content = state.content
        self.p = p
        self.seat = seat
        self.tiles: list[str] = state.tiles
        self.next_fac: int | None = next_facility(p)
        self.generator_ok: bool = state.era >= GENERATOR_ERA and p.generator is None
        self.energy_tiles: tuple = content.energy_tiles
        self.generator_slots: int = content.generator_slots
        self.facility_spaces: int = content.facility_spaces
        # (word, Runway, Compute) of each project still open to the seat
        self.projects: list[tuple[str, int, int]] = [
            (WORD_OF[pid], proj.cost.get("runway", 0), proj.cost.get("compute", 0))
            for pid, proj in content.projects.items() if state.era >= proj.era and pid not in p.projects]
        reach: set[int] = set()
        for src in board.power_sources(state, seat):
            reach.add(src)
            reach.update(board.ADJ[src])
        self.reach = reach
        own: dict[int, list[int]] = {}    # district -> the seat's Facilities there, in number order
        for f, fpos in enumerate(p.facilities):
            if fpos is not None:
                own.setdefault(fpos, []).append(f)
        self.own = own
        spaces = [0] * len(state.tiles)
        gens = [0] * len(state.tiles)
        players: list[Player] = state.players
        for q in players:
            for fpos in q.facilities:
                if fpos is not None:
                    at: int = fpos
                    spaces[at] += 1
            g = q.generator
            if g is not None:
                gat: int = g
                gens[gat] += 1
        self.spaces: list[int] = spaces
        self.gens: list[int] = gens       # the Generators on each district
        self.fac_base: int = content.rules["facilityCost"]
        self.fac_cost: dict[str, int] = {}  # district kind -> facility_cost (it reads only the kind)

    def facility_cost(self, pos: int) -> int:
        kind = self.tiles[pos]
        cost = self.fac_cost.get(kind)
        if cost is None:
            cost = self.fac_cost[kind] = facility_cost_of(self.fac_base, kind, self.p.ability)
        return cost


def _host_connected(plan: _Plan, facility: int, pos: int) -> bool:
    """Whether Facility ``facility`` + 1 would be connected standing on ``pos``: Facility 1
    always is, another one within reach of a power source (read from the plan)."""
    return facility == 0 or pos in plan.reach


#: per project word, its "<project> on facility <n>" texts by Facility index,
#: each formatted once (the Build listing names them on every turn)
_ON_FACILITY: Final[dict[str, list[str]]] = {}


def _on_facility(word: str, host: int) -> str:
    texts = _ON_FACILITY.get(word)
    if texts is None:
        texts = _ON_FACILITY[word] = []
    while len(texts) <= host:
        texts.append(f"{word} on facility {len(texts) + 1}")
    return texts[host]


def _projects_at(state: MandateState, plan: _Plan, pos: int, runway: int, compute: int,
                 new_fac: int | None) -> list[str]:
    out: list[str] = []
    if (plan.generator_ok and plan.tiles[pos] in plan.energy_tiles
            and plan.gens[pos] < plan.generator_slots
            and runway >= generator_cost(state, pos)):
        out.append("generator")
    if not plan.projects:
        return out
    own = plan.own.get(pos)
    if new_fac is None:
        if own is None:
            return out
        hosts = own
    else:
        hosts = [new_fac] if own is None else sorted(own + [new_fac])
    hosts = [h for h in hosts if _host_connected(plan, h, pos)]
    if not hosts:
        return out
    for word, need_runway, need_compute in plan.projects:
        if runway >= need_runway and compute >= need_compute:
            for h in hosts:
                out.append(_on_facility(word, h))
    return out


def project_options(state: MandateState, seat: int, pos: int, runway: int, compute: int, new_fac: int | None) -> list[str]:
    """Projects buildable with the given resources; ``new_fac`` is a Facility placed
    on ``pos`` earlier in this same Build (recheck after placing it)."""
    return _projects_at(state, _Plan(state, seat), pos, runway, compute, new_fac)


def _effects_at(state: MandateState, plan: _Plan, pos: int) -> list[str]:
    p = plan.p
    out: list[str] = []
    next_fac = plan.next_fac
    if (next_fac is not None and pos != board.FRONTIER_POS
            and plan.spaces[pos] < plan.facility_spaces):
        cost = plan.facility_cost(pos)
        if p.runway >= cost:
            out.append("facility")
            for proj in _projects_at(state, plan, pos, p.runway - cost, p.compute, next_fac):
                out.append("facility + " + proj)
    # a Generator, or a project on a Facility already here (_projects_at checks both)
    out.extend(_projects_at(state, plan, pos, p.runway, p.compute, None))
    return out


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return _effects_at(state, _Plan(state, seat), pos)


def effects_by_tile(state: MandateState, seat: int) -> list[list[str]]:
    """:func:`effects` for every district at once, sharing the work that does not
    depend on the district (the long legal-action lists of a Build turn)."""
    plan = _Plan(state, seat)
    return [_effects_at(state, plan, pos) for pos in range(len(plan.tiles))]


_PROJECT = re.compile(r"^(mega-cluster|fusion|quantum) on facility (\d)$")
#: the bundled projects' card names (``ban:``/``force:`` check a name against them)
PROJECT_NAMES: Final = ("Mega-Cluster", "Fusion Demonstrator", "Quantum")


def project_of(mode: str) -> str | None:
    """The project id a Build's mode attaches (``facility + quantum on facility 2``),
    or None when it attaches none."""
    if "on facility" not in mode:
        return None
    m = _PROJECT.match(mode.rpartition(" + ")[2])
    return PROJECT_WORDS[m.group(1)] if m else None


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    p = state.players[seat]
    name = state.player_name(seat)
    parts = mode.split(" + ")
    if parts[0] == "facility":
        f = next_facility(p)
        assert f is not None  # a legal build has a Facility left
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
    assert m is not None  # the step was listed as legal, so it matches
    pid, host = PROJECT_WORDS[m.group(1)], int(m.group(2)) - 1
    proj = state.content.projects[pid]
    p.runway -= proj.cost.get("runway", 0)
    p.compute -= proj.cost.get("compute", 0)
    p.projects = {**p.projects, pid: host}
    state.note(f"{name} attaches {proj.name} to Facility {host + 1}")
