"""Hexagonal boards in axial coordinates and their adjacency graph (networkx).

Geometry only: which positions a radius-``r`` hexagon has, which ring each lies
on, and which share an edge. Games lay their tiles on these positions; the
dashboard and analyses draw and measure the resulting graph.
"""

from __future__ import annotations

import networkx as nx

#: the six axial neighbour offsets, counter-clockwise from "east"
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(radius: int) -> list[tuple[int, int]]:
    """Positions at ``radius`` from the centre, walking once around."""
    if radius == 0:
        return [(0, 0)]
    q, r = DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius
    out = []
    for d in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]
    return out


def positions(radius: int) -> list[tuple[int, int]]:
    """Every position of a radius-``radius`` hexagon, centre first, then ring by ring."""
    out: list[tuple[int, int]] = []
    for k in range(radius + 1):
        out.extend(ring(k))
    return out


def adjacency(coords: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """For each position index, the indices of positions sharing an edge with it."""
    index = {c: i for i, c in enumerate(coords)}
    return [tuple(index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index)
            for q, r in coords]


def hex_graph(coords: list[tuple[int, int]], labels: list[dict] | None = None) -> nx.Graph:
    """The adjacency graph: one node per position index with ``q``, ``r``, ``ring``
    and any extra attributes from ``labels`` (one dict per position)."""
    g = nx.Graph()
    for i, (q, r) in enumerate(coords):
        attrs = {"q": q, "r": r, "ring": hex_distance((q, r), (0, 0))}
        if labels is not None:
            attrs.update(labels[i])
        g.add_node(i, **attrs)
    for i, nbrs in enumerate(adjacency(coords)):
        for j in nbrs:
            if i < j:
                g.add_edge(i, j)
    return g


def pixel(q: int, r: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex for drawing (y grows upward)."""
    x = size * (3 ** 0.5) * (q + r / 2)
    y = -size * 1.5 * r
    return x, y
