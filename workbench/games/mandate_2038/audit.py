"""Scrutiny, the Audit bag and the Public Audit at the end of each Era.

Each player owns ten Scrutiny cubes. Adding Scrutiny moves cubes into the bag;
once all ten are inside, every further cube costs one Runway instead, or one
Trust when no Runway is left, or nothing. The bag also holds black Systemic Risk
cubes. The Audit draws ``round(base × players ÷ 4)`` cubes (halves up, at least
one; bases 2, 3, 4, 5 for Eras I–IV): a player cube costs its owner one Runway
(else one Trust) and goes home; a black cube gives every player with three or more
Customers the Era's penalty and goes back to supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board, costs

if TYPE_CHECKING:
    from .state import MandateState


def draws_for(base: int, players: int) -> int:
    """Audit draw count: round(base × players ÷ 4) with halves rounded up, minimum one."""
    # in whole numbers: floor(base × players ÷ 4 + ½) = (base × players + 2) // 4
    # (Fraction, interpreted, cost a whole Era's worth of rule calls)
    whole = (base * players + 2) // 4
    return max(1, whole)


def audit_table(bases=(2, 3, 4, 5), counts=(2, 3, 4, 5)) -> dict[int, list[int]]:
    """Player count -> draws in Eras I..IV."""
    return {n: [draws_for(b, n) for b in bases] for n in counts}


def pay_penalty_cube(state: MandateState, seat: int) -> None:
    """One Runway, else one Trust, else nothing: the price of a cube that cannot go
    into the bag and of a drawn cube alike."""
    if costs.lose(state, seat, "runway", 1) == 0:
        costs.lose(state, seat, "trust", 1)


def add_scrutiny(state: MandateState, seat: int, amount: int = 1) -> None:
    p = state.players[seat]
    cubes = state.content.supply["scrutinyCubes"]
    for _ in range(amount):
        if p.bag < cubes:
            p.bag += 1
        else:
            pay_penalty_cube(state, seat)


def remove_scrutiny(state: MandateState, seat: int, amount: int = 1) -> int:
    """Return up to ``amount`` of the seat's cubes from the bag; returns how many."""
    p = state.players[seat]
    taken = min(p.bag, max(0, amount))
    p.bag -= taken
    return taken


def add_systemic_risk(state: MandateState, amount: int = 1) -> None:
    """Black cubes enter the bag from the shared supply while any remain."""
    moved = min(amount, state.black_supply)
    state.black_supply -= moved
    state.bag_black += moved


def era_penalty(state: MandateState) -> dict:
    return dict(state.content.rules["eraPenalties"][state.era - 1])


def media_removals(state: MandateState) -> None:
    """Before the draw each connected Facility on a Media district takes one of its
    owner's cubes out of the bag (ruling media-audit)."""
    for seat in state.initiative_order():
        p = state.players[seat]
        for f, pos in enumerate(p.facilities):
            if pos is not None and state.tiles[pos] == "media" and board.is_connected(state, seat, f):
                if remove_scrutiny(state, seat, 1):
                    state.note(f"{state.player_name(seat)}'s Media Facility removes a cube before the Audit")


def public_audit(state: MandateState) -> None:
    media_removals(state)
    base = state.content.rules["auditBaseDraws"][state.era - 1]
    count = draws_for(base, state.n)
    for _ in range(count):
        total = sum(p.bag for p in state.players) + state.bag_black
        if total == 0:
            break
        pick = state.rng.randbelow(total)
        for seat, p in enumerate(state.players):
            if pick < p.bag:
                p.bag -= 1
                pay_penalty_cube(state, seat)
                state.note(f"Audit draws {state.player_name(seat)}'s cube")
                break
            pick -= p.bag
        else:
            state.bag_black -= 1
            state.black_supply += 1
            penalty = era_penalty(state)
            hit = [s for s, p in enumerate(state.players) if p.customers >= 3]
            for seat in hit:
                costs.apply_all(state, seat, losses=penalty)
            state.note(f"Audit draws Systemic Risk: penalty for {', '.join(state.player_name(s) for s in hit) or 'nobody'}")
