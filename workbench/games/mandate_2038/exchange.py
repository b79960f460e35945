"""The fixed one-for-one exchange just before an Action resolves.

The acting player may make one offer to one rival: one Runway for one Compute or
one Compute for one Runway. The rival accepts or rejects; the selected Action
stays committed either way. No gifts, bundles or counteroffers, and no trade may
carry either side over a cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from . import costs
from .notation import Move

if TYPE_CHECKING:
    from .state import MandateState, Player

OTHER: Final = {"runway": "compute", "compute": "runway"}


#: the two offers in the listed order: Runway for Compute, then Compute for Runway
GIVES: Final = ("runway", "compute")

#: per seating (the players' names): per give (``GIVES`` order), per rival seat,
#: the offer's Move (its text names the rival), built once
_OFFER_MOVES: Final[dict[tuple, list[list[Move]]]] = {}


def _offer_moves(state: MandateState) -> list[list[Move]]:
    names = state.config.players
    table = _OFFER_MOVES.get(names)
    if table is None:
        table = _OFFER_MOVES[names] = [[Move("offer", f"{give} for {OTHER[give]} to {state.player_name(rival)}")
                                        for rival in range(len(names))] for give in GIVES]
    return table


def _holdings(p: Player) -> list[int]:
    """The two tradable tracks in ``GIVES`` order (typed field reads, not getattr)."""
    return [p.runway, p.compute]


def offers(state: MandateState, seat: int) -> list[Move]:
    players: list[Player] = state.players
    # the caps are always numbers for the two tradable tracks
    caps: list[int] = [cast(int, costs.cap_of(state, track)) for track in GIVES]
    held = [_holdings(p) for p in players]
    moves = _offer_moves(state)
    out: list[Move] = []
    # track indices into GIVES: ``give`` leaves the offerer, ``get`` reaches it
    for give in range(2):
        get = 1 - give
        mine = held[seat]
        if mine[give] < 1 or mine[get] >= caps[get]:
            continue
        row = moves[give]
        for rival in range(len(players)):
            theirs = held[rival]
            if rival != seat and theirs[get] >= 1 and theirs[give] < caps[give]:
                out.append(row[rival])
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
