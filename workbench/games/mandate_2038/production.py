"""Era Production, in its order; each step runs for every player (Initiative
order) before the next:

0. permanent faction Production abilities (Northwind's Reserved Capacity);
1. one Scrutiny for each emergency Generator serving at least one Facility;
2. each connected Facility produces its district's output, then Customer income
   (one Runway each), then connected personal projects (Mega-Cluster, Quantum);
3. active Joint Ventures in ascending pair number: each partner gains one of the
   contract icon of the other host's district.

Caps apply after each gain. A producing Talent Facility lets its owner reassign one
Agent; those decisions are taken right after Production (nothing in Production
reads presence). Compute produced counts printed output before caps for the Era
Mandate; a Headline's immediate production does not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import audit, board, costs, influence

if TYPE_CHECKING:
    from .state import MandateState


def produce_facility(state: MandateState, seat: int, f: int, *, count: bool) -> None:
    p = state.players[seat]
    kind = state.tiles[p.facilities[f]]
    for track, amount in state.content.tile_kinds[kind].yield_.items():
        costs.gain(state, seat, track, amount)
        if count and track == "compute":
            p.record("compute_produced", p.rec.get("compute_produced", 0) + amount)
    if kind == "talent" and any(a is not None for a in p.agents):
        state.queue = state.queue + [seat]


def facilities_of_kind(state: MandateState, seat: int, kind: str) -> None:
    """A Headline's immediate production: only connected Facilities on that kind."""
    p = state.players[seat]
    for f, pos in enumerate(p.facilities):
        if pos is not None and state.tiles[pos] == kind and board.is_connected(state, seat, f):
            produce_facility(state, seat, f, count=False)


def run(state: MandateState) -> None:
    order = state.initiative_order()
    for seat in order:
        if state.players[seat].ability == "reserved_capacity":
            costs.gain(state, seat, "compute", 1)
    for seat in order:
        p = state.players[seat]
        if p.generator is not None:
            gen = state.content.generators[state.tiles[p.generator]]
            if gen["productionScrutiny"] and board.generator_serves(state, seat):
                audit.add_scrutiny(state, seat, gen["productionScrutiny"])
    for seat in order:
        p = state.players[seat]
        for f in board.connected_facilities(state, seat):
            produce_facility(state, seat, f, count=True)
        costs.gain(state, seat, "runway", p.customers)
        for pid, host in sorted(p.projects.items()):
            if board.is_connected(state, seat, host):
                for track, amount in state.content.projects[pid].produces.items():
                    costs.gain(state, seat, track, amount)
                    if track == "compute":
                        p.record("compute_produced", p.rec.get("compute_produced", 0) + amount)
    for v in sorted(state.ventures, key=lambda v: v["pair"]):
        if not influence.active(state, v):
            continue
        for me, my_fac, other, other_fac in ((v["a"], v["a_fac"], v["b"], v["b_fac"]),
                                             (v["b"], v["b_fac"], v["a"], v["a_fac"])):
            icon = influence.contract_of(state, other, other_fac)
            if icon:
                costs.gain(state, me, icon, 1)
                if icon == "compute":
                    q = state.players[me]
                    q.record("compute_produced", q.rec.get("compute_produced", 0) + 1)
