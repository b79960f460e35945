"""Deploy: gain the next Customer when Capability meets its requirement (2, 4, 6,
8, 10), paying one Compute (waived on Consumer). Every Deploy adds one Scrutiny.
Customers #1–3 score two Mandate on arrival, #4–5 one each.

Our draft rule (ruling systemic-risk-entry): a Deploy that brings its player to
three or more Customers also adds one Systemic Risk cube to the bag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import audit, costs

if TYPE_CHECKING:
    from .state import MandateState


def next_customer(state: MandateState, seat: int) -> dict | None:
    table = state.content.customer_table
    c = state.players[seat].customers
    return table[c] if c < len(table) else None


def compute_cost(state: MandateState, pos: int) -> int:
    return costs.modified_cost(state.content.rules["deployCompute"], waived=state.tiles[pos] == "consumer")


#: the district kinds the effects and their resolution tell apart; every other
#: district (Frontier included) is treated alike. The listing asks :func:`effects`
#: once per class of district (flow.effect_table) and the greedy evaluation
#: rates one district per class (evaluation._alike_by_kind); keep this in step
#: with the kind tests below (tests compare both with asking every district)
KINDS_READ = frozenset({"consumer"})


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    row = next_customer(state, seat)
    p = state.players[seat]
    if row is None or p.capability < row["capability"] or p.compute < compute_cost(state, pos):
        return []
    return [""]


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    r = state.content.rules
    row = next_customer(state, seat)
    assert row is not None  # a legal Deploy has a Customer row left
    p = state.players[seat]
    p.compute -= compute_cost(state, pos)
    p.customers += 1
    p.mandate += row["mandate"]
    audit.add_scrutiny(state, seat, r["deployScrutiny"])
    if state.options.get("systemic_risk_on_customer", True) and p.customers >= r["systemicRiskOnCustomer"]:
        audit.add_systemic_risk(state, 1)
    state.note(f"{state.player_name(seat)} gains Customer #{p.customers} (+{row['mandate']} Mandate)")
