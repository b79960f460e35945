"""The fixed one-for-one exchange just before an Action resolves.

The acting player may make one offer to one rival: one Runway for one Compute or
one Compute for one Runway. The rival accepts or rejects; the selected Action
stays committed either way. No gifts, bundles or counteroffers, and no trade may
carry either side over a cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import costs
from .notation import Move

if TYPE_CHECKING:
    from .state import MandateState

OTHER = {"runway": "compute", "compute": "runway"}


_OFFER_MOVES: dict = {}


def _offer_move(state: MandateState, give: str, rival: int) -> Move:
    """The offer's Move, built once per seat names (its text names the rival)."""
    key = (state.config.players, give, rival)
    move = _OFFER_MOVES.get(key)
    if move is None:
        move = _OFFER_MOVES[key] = Move("offer", f"{give} for {OTHER[give]} to {state.player_name(rival)}")
    return move


def offers(state: MandateState, seat: int) -> list[Move]:
    p = state.players[seat]
    caps = {"runway": costs.cap_of(state, "runway"), "compute": costs.cap_of(state, "compute")}
    out = []
    for give in ("runway", "compute"):
        get = OTHER[give]
        if getattr(p, give) < 1 or getattr(p, get) >= caps[get]:
            continue
        for rival, r in enumerate(state.players):
            if rival != seat and getattr(r, get) >= 1 and getattr(r, give) < caps[give]:
                out.append(_offer_move(state, give, rival))
    return out


def parse_offer(state: MandateState, move: Move) -> tuple[str, str, int]:
    give, _, get, _, name = move.mode.split()
    return give, get, [n.lower() for n in state.config.players].index(name.lower())


def accept(state: MandateState) -> None:
    pend = state.pending
    a, b = state.players[pend["from"]], state.players[pend["to"]]
    give, get = pend["give"], pend["get"]
    setattr(a, give, getattr(a, give) - 1)
    setattr(b, get, getattr(b, get) - 1)
    costs.gain(state, pend["from"], get, 1)
    costs.gain(state, pend["to"], give, 1)
