"""The fixed one-for-one exchange just before an Action resolves.

The acting player may make one offer to one rival: one Runway for one Compute or
one Compute for one Runway. The rival accepts or rejects; the selected Action
stays committed either way. No gifts, bundles or counteroffers, and no trade may
carry either side over a cap.
"""

from __future__ import annotations

from . import costs
from .notation import Move

OTHER = {"runway": "compute", "compute": "runway"}


def offers(state, seat: int) -> list[Move]:
    p = state.players[seat]
    caps = {"runway": costs.cap_of(state, "runway"), "compute": costs.cap_of(state, "compute")}
    out = []
    for give in ("runway", "compute"):
        get = OTHER[give]
        if getattr(p, give) < 1 or getattr(p, get) >= caps[get]:
            continue
        for rival in range(state.n):
            if rival == seat:
                continue
            r = state.players[rival]
            if getattr(r, get) >= 1 and getattr(r, give) < caps[give]:
                out.append(Move("offer", f"{give} for {get} to {state.player_name(rival)}"))
    return out


def parse_offer(state, move: Move) -> tuple[str, str, int]:
    give, _, get, _, name = move.mode.split()
    return give, get, [n.lower() for n in state.config.players].index(name.lower())


def accept(state) -> None:
    pend = state.pending
    a, b = state.players[pend["from"]], state.players[pend["to"]]
    give, get = pend["give"], pend["get"]
    setattr(a, give, getattr(a, give) - 1)
    setattr(b, get, getattr(b, get) - 1)
    costs.gain(state, pend["from"], get, 1)
    costs.gain(state, pend["to"], give, 1)
