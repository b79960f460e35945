"""Headlines: one revealed at the start of every action cycle from the current
Era's deck, resolved completely before selection, then kept in the Future Timeline
with no lasting effect.

A Headline's effects come from ``cards/mandate_2038/headlines.yaml``: who they hit
(everyone, the highest or lowest in a measure under the universal tie rule, or
everyone with at least a value) and what happens (gains, losses, Scrutiny added or
removed, Systemic Risk cubes, or the immediate production of connected Facilities
on one district kind, which is not Production and counts for no Mandate).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import audit, costs, production, ties

if TYPE_CHECKING:
    from .state import MandateState


def measure(state: MandateState, seat: int, name: str) -> int:
    p = state.players[seat]
    return p.bag if name == "scrutiny" else getattr(p, name)


def targets(state: MandateState, effect) -> list[int]:
    if effect.who is None:
        return []
    if effect.who == "all":
        return state.initiative_order()
    values = [measure(state, s, effect.measure) for s in range(state.n)]
    if effect.who == "at_least":
        return [s for s in state.initiative_order() if values[s] >= effect.value]
    return [ties.pick_extreme(state, values, highest=effect.who == "highest")]


def resolve(state: MandateState, name: str) -> None:
    card = state.content.headline_by_name[name.lower()]
    state.note(f"Headline: {card.name}")
    for effect in card.effects:
        for seat in targets(state, effect):
            costs.apply_all(state, seat, effect.gain, effect.lose)
            if effect.scrutiny:
                audit.add_scrutiny(state, seat, effect.scrutiny)
            if effect.remove_scrutiny:
                audit.remove_scrutiny(state, seat, effect.remove_scrutiny)
        if effect.systemic_risk:
            audit.add_systemic_risk(state, effect.systemic_risk)
        if effect.produce:
            for seat in state.initiative_order():
                production.facilities_of_kind(state, seat, effect.produce)
    state.timeline = state.timeline + [card.name]


def reveal(state: MandateState) -> str | None:
    deck = state.headline_decks[state.era - 1]
    if not deck:
        return None
    name = deck[0]
    # the decks are shared between clones: replaced, never changed in place
    decks = list(state.headline_decks)
    decks[state.era - 1] = deck[1:]
    state.headline_decks = decks
    state.headline = name
    resolve(state, name)
    return name
