"""What the workbench shows of Mandate 2038's hex board (``Game.board``): the
layout a seed gives as plain data, its adjacency analyses, the tables and the
drawing of the Board page. Reads positions through :mod:`.board`; no rule here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board

if TYPE_CHECKING:
    from .state import MandateState


def document(state: MandateState) -> dict:
    """Every district with its axial coordinates, kind, ring, contract and
    controller, the adjacency list and the number of adjacencies (JSON values)."""
    g = board.graph(state)
    content = state.content
    tiles = []
    for i, kind in enumerate(state.tiles):
        owner = board.controller(state, i)
        tiles.append({"id": state.tile_ids[i], "kind": kind, "name": content.tile_kinds[kind].name,
                      "q": board.COORDS[i][0], "r": board.COORDS[i][1], "ring": board.RINGS[i],
                      "contract": content.tile_kinds[kind].contract,
                      "control": None if owner is None else state.player_name(owner)})
    adjacency = {state.tile_ids[i]: sorted(state.tile_ids[j] for j in g.neighbors(i)) for i in g.nodes}
    return {"tiles": tiles, "adjacency": adjacency, "edges": g.number_of_edges()}


def tile_line(tile: dict, neighbours: list[str]) -> str:
    """One district as ``workbench board`` prints it."""
    return (f"{tile['id']:<12} ({tile['q']:>2},{tile['r']:>2}) ring {tile['ring']}  "
            f"control {tile['control'] or '-':<7} next to {', '.join(neighbours)}")


def analyses(state: MandateState) -> dict:
    """``degree``: each district's number of neighbours and how many of them lie
    on the inner and the outer ring."""
    g = board.graph(state)
    rings = {state.tile_ids[i]: board.RINGS[i] for i in g.nodes}
    degree = []
    for i in sorted(g.nodes):
        tid = state.tile_ids[i]
        near = [state.tile_ids[j] for j in g.neighbors(i)]
        degree.append({"tile": tid, "ring": rings[tid], "degree": len(near),
                       "inner_neighbours": sum(rings[n] == 1 for n in near),
                       "outer_neighbours": sum(rings[n] == 2 for n in near)})
    return {"degree": degree}


def analysis_lines(result: dict) -> list[str]:
    return [f"{row['tile']:<14} ring {row['ring']}  degree {row['degree']}  "
            f"inner {row['inner_neighbours']}  outer {row['outer_neighbours']}" for row in result["degree"]]


def tables(state: MandateState) -> dict:
    """The Board page's tables (title -> polars): the districts with kind, ring,
    control, energy and neighbours, and each player's local Power."""
    import polars as pl
    doc = document(state)
    rows = []
    for i, t in enumerate(doc["tiles"]):
        rows.append({"tile": t["id"], "kind": t["name"], "q": t["q"], "r": t["r"], "ring": t["ring"],
                     "energy": board.is_energy(state, i), "control": t["control"] or "",
                     "neighbours": ", ".join(doc["adjacency"][t["id"]]),
                     "degree": len(doc["adjacency"][t["id"]])})
    power = []
    ids = state.tile_ids
    for seat in range(len(state.players)):
        facilities = state.players[seat].facilities
        power.append({
            "player": state.player_name(seat),
            "power sources": ", ".join(ids[p] for p in board.power_sources(state, seat)) or "none",
            "connected": ", ".join(f"F{f + 1}@{ids[facilities[f]]}"
                                   for f in board.connected_facilities(state, seat)) or "none",
            "offline": ", ".join(f"F{f + 1}@{ids[facilities[f]]}"
                                 for f in board.offline_facilities(state, seat)) or "none"})
    return {"Districts and adjacency": pl.DataFrame(rows), "Local Power": pl.DataFrame(power)}


def caption(state: MandateState) -> str:
    """What the Board page says under its controls (after the game, seed and seats)."""
    districts = tables(state)["Districts and adjacency"]
    energy = districts.filter(districts["energy"])["tile"].to_list()
    return (f"{districts.height} districts, {districts['degree'].sum() // 2} adjacencies; "
            f"energy districts {', '.join(energy) or 'none'}")


def figure(state: MandateState, title: str):
    from .drawing import board_figure
    return board_figure(state, title=title)
