"""Fund: Conservative funding (+2 Runway) or Venture funding (+4 Runway, +2
Scrutiny); acting on Capital adds one Runway."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import audit, costs

if TYPE_CHECKING:
    from .state import MandateState

MODES = ("conservative", "venture")


#: the district kinds the effects and their resolution tell apart; every other
#: district (Frontier included) is treated alike. The listing asks :func:`effects`
#: once per class of district (flow.effect_table) and the greedy evaluation
#: rates one district per class (evaluation._alike_by_kind); keep this in step
#: with the kind tests below (tests compare both with asking every district)
KINDS_READ = frozenset({"capital"})


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return list(MODES)


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    r = state.content.rules
    p = state.players[seat]
    amount = r["fundConservative"] if mode == "conservative" else r["fundVenture"]
    if state.tiles[pos] == "capital":
        amount += r["capitalFundBonus"]
    costs.gain(state, seat, "runway", amount)
    if mode == "venture":
        cubes = r["fundVentureScrutiny"]
        if p.ability == "patient_capital":
            cubes -= 1
        audit.add_scrutiny(state, seat, cubes)
