"""The jurisdiction: nineteen district tiles on a radius-two hexagon, and the board
rules that read it: presence and control, Facility spaces, Generator slots and
local Power.

Positions are fixed (``COORDS``, centre first, then the inner and outer rings);
a game's ``state.tiles`` says which district kind lies on each position. Tile ids
are the district name plus a copy number where the kind repeats (``Research1``),
numbered in position order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from workbench.core.rng import Rng
from workbench.graphs import hexboard

from . import costs

if TYPE_CHECKING:
    from .state import MandateState, Player

RADIUS = 2
COORDS: list[tuple[int, int]] = hexboard.positions(RADIUS)
RINGS: list[int] = [hexboard.hex_distance(c, (0, 0)) for c in COORDS]
ADJ: Final[list[tuple[int, ...]]] = hexboard.adjacency(COORDS)
ADJ_SETS: Final[list[frozenset]] = [frozenset(a) for a in ADJ]
INNER = [i for i, r in enumerate(RINGS) if r == 1]
OUTER = [i for i, r in enumerate(RINGS) if r == 2]
FRONTIER_POS: Final = 0  # Final: the compiled rules read it as a constant


def lay_out(content, rng: Rng) -> list[str]:
    """Setup step 1: Frontier in the centre, each ring's pool shuffled within its ring."""
    inner = list(content.pools["operational"])
    outer = list(content.pools["public"])
    rng.shuffle(inner)
    rng.shuffle(outer)
    return list(content.pools["center"]) + inner + outer


def tile_ids(tiles: list[str], content) -> list[str]:
    counts: dict[str, int] = {}
    for k in tiles:
        counts[k] = counts.get(k, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for k in tiles:
        name = content.tile_kinds[k].name
        if counts[k] > 1:
            seen[k] = seen.get(k, 0) + 1
            name = f"{name}{seen[k]}"
        out.append(name)
    return out


def graph(state: MandateState):
    """The board as a networkx graph (node = position index) with tile attributes."""
    labels = [{"id": state.tile_ids[i], "kind": k} for i, k in enumerate(state.tiles)]
    return hexboard.hex_graph(COORDS, labels)


# -- presence and control -------------------------------------------------------

def presence(state: MandateState, pos: int) -> list[int]:
    """Presence per seat on ``pos``: one per Agent, one per Facility."""
    return [p.agents.count(pos) + p.facilities.count(pos) for p in state.players]


def leader(counts: list[int]) -> int | None:
    """The seat with strictly the most presence in ``counts``; a tie or nobody: None."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def controller(state: MandateState, pos: int) -> int | None:
    """The seat with strictly the most presence; ties and Frontier: nobody."""
    if pos == FRONTIER_POS:
        return None
    return leader(presence(state, pos))


def pieces_at(p) -> dict[int, int]:
    """One player's presence by position (Agents and Facilities on the board)."""
    out: dict[int, int] = {}
    for pos in p.agents:
        if pos is not None:
            out[pos] = out.get(pos, 0) + 1
    for pos in p.facilities:
        if pos is not None:
            out[pos] = out.get(pos, 0) + 1
    return out


def presence_map(state: MandateState) -> dict[int, list[int]]:
    """:func:`presence` of every occupied position, in one pass over the pieces."""
    n = len(state.players)
    counts: dict[int, list[int]] = {}
    for seat, p in enumerate(state.players):
        for pos, k in pieces_at(p).items():
            c = counts.get(pos)
            if c is None:
                c = counts[pos] = [0] * n
            c[seat] = k
    return counts


def control_map(state: MandateState, presence_by_pos: dict[int, list[int]] | None = None) -> list[int | None]:
    """The :func:`controller` of every position, from one :func:`presence_map`: a
    criterion that reads control for every seat asks for this once instead of
    counting presence district by district."""
    if presence_by_pos is None:
        presence_by_pos = presence_map(state)
    out: list[int | None] = [None] * len(COORDS)
    for pos, c in presence_by_pos.items():
        if pos != FRONTIER_POS:
            out[pos] = leader(c)
    return out


# -- Frontier ------------------------------------------------------------------

def frontier_runway(state: MandateState, seat: int, pos: int) -> None:
    """Frontier's visit bonus: one Runway after the Action (blocked ones included),
    once for the acting player whose Agent was assigned there. It modifies no
    Action and is no production. Optional in the rulebook; taken always (ruling
    frontier-bonus-taken: the cap returns any excess, so declining never helps)."""
    if pos == FRONTIER_POS:
        costs.gain(state, seat, "runway", state.content.rules["frontierRunway"])


# -- spaces and slots ------------------------------------------------------------

def facilities_on(state: MandateState, pos: int) -> int:
    # plain loops over typed lists: the compiled build compares machine integers
    # (sum(... for ...) made a generator object, list.count a method call per player)
    n = 0
    players: list[Player] = state.players
    for p in players:
        for at in p.facilities:
            if at is not None and at == pos:
                n += 1
    return n


def open_facility_space(state: MandateState, pos: int) -> bool:
    """Frontier has no Facility spaces; every other district has two, shared."""
    return pos != FRONTIER_POS and facilities_on(state, pos) < state.content.facility_spaces


def is_energy(state: MandateState, pos: int) -> bool:
    return state.tiles[pos] in state.content.energy_tiles


# -- local Power -----------------------------------------------------------------

def power_sources(state: MandateState, seat: int) -> list[int]:
    """Positions of the seat's own Power sources: its Generator and its Fusion host."""
    p = state.players[seat]
    out = []
    if p.generator is not None:
        out.append(p.generator)
    host = p.projects.get("fusion_demonstrator")
    if host is not None and p.facilities[host] is not None:
        out.append(p.facilities[host])
    return out


def is_connected(state: MandateState, seat: int, facility: int) -> bool:
    """Facility 1 (index 0) always; any other while an own source stands on its
    district or an adjacent one. Read from the current board every time."""
    p = state.players[seat]
    pos = p.facilities[facility]
    if pos is None:
        return False
    if facility == 0:
        return True
    for src in power_sources(state, seat):
        if src == pos or src in ADJ_SETS[pos]:
            return True
    return False


def connected_facilities(state: MandateState, seat: int) -> list[int]:
    """The seat's connected Facilities (the rule of :func:`is_connected`, with the
    Power sources read once for all of them)."""
    p = state.players[seat]
    sources = None
    out = []
    for f, pos in enumerate(p.facilities):
        if pos is None:
            continue
        if f == 0:
            out.append(f)
            continue
        if sources is None:
            sources = power_sources(state, seat)
        adj = ADJ_SETS[pos]
        for src in sources:
            if src == pos or src in adj:
                out.append(f)
                break
    return out


def offline_facilities(state: MandateState, seat: int) -> list[int]:
    p = state.players[seat]
    return [f for f in range(len(p.facilities)) if p.facilities[f] is not None and not is_connected(state, seat, f)]


def generator_serves(state: MandateState, seat: int) -> bool:
    """True when at least one of the seat's Facilities (Facility 1 included) lies
    within its Generator's reach: the Generator is then 'serving' (ruling
    generator-serving)."""
    p = state.players[seat]
    g = p.generator
    if g is None:
        return False
    for pos in p.facilities:
        if pos is not None and (pos == g or pos in ADJ_SETS[g]):
            return True
    return False
