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


def _holding(p: Player, track: str) -> int:
    """A tradable track read by its name (a typed field read, not getattr)."""
    return p.runway if track == "runway" else p.compute


def offers(state: MandateState, seat: int) -> list[Move]:
    players: list[Player] = state.players
    p = players[seat]
    # the caps are always numbers for the two tradable tracks
    caps: list[int] = [cast(int, costs.cap_of(state, track)) for track in GIVES]
    moves = _offer_moves(state)
    out: list[Move] = []
    for g in range(2):
        give, get = GIVES[g], GIVES[1 - g]
        if _holding(p, give) < 1 or _holding(p, get) >= caps[1 - g]:
            continue
        row = moves[g]
        for rival in range(len(players)):
            r = players[rival]
            if rival != seat and _holding(r, get) >= 1 and _holding(r, give) < caps[g]:
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
