"""Events, Consequences and the three Resolution Tables.

An Event card shows a letter and a Consequence Code. Phase A looks the letter up
in the Event Resolution Table; a Consequence (from an Event's code, a Pattern, a
Completion Penalty or Vitals reaching 0) looks its code up in the Group or the
Individual Consequence Table. Every lookup uses the column of the current
highest Layer. Outcomes are :class:`~.cards.Effect` objects applied here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .setup import draw
from .tracks import change_legacy, change_meaning, gain_tokens, highest_layer, lose_tokens

if TYPE_CHECKING:
    from .state import MMState


def targets(state: MMState, target: str, affected, contributors) -> list[int]:
    if target == "all":
        return list(range(len(state.players)))
    if target == "first":
        return [state.first]
    if target == "contributors":
        return list(contributors) if contributors else ([affected] if affected is not None else [])
    return [affected] if affected is not None else []


def apply_effect(state: MMState, effect, affected=None, contributors=(), depth: int = 0) -> None:
    """Apply one outcome: Meaning first, then each targeted player's tokens and
    Legacy, then Vitals (which may make someone Fragile and chain a
    Consequence), then any restriction for the rest of the round, then any
    further Consequence the outcome calls for (with the round's code)."""
    if effect is None:
        return
    if effect.meaning:
        change_meaning(state, effect.meaning)
    if effect.E or effect.I or effect.S or effect.lose_tokens or effect.legacy or effect.vitals:
        seats = targets(state, effect.target, affected, contributors)
        for seat in seats:
            if effect.E or effect.I or effect.S:
                gain_tokens(state, seat, effect.E, effect.I, effect.S)
            if effect.lose_tokens:
                lose_tokens(state, seat, effect.lose_tokens)
            if effect.legacy:
                change_legacy(state, seat, effect.legacy)
        if effect.vitals:
            for seat in seats:
                change_vitals(state, seat, effect.vitals, depth)
    if effect.restrict and effect.restrict not in state.restricted:
        state.restricted.append(effect.restrict)
    if effect.consequence and state.code is not None and depth < 8:
        # an Event that "triggers additional Consequences": the round's code on that table
        resolve_consequence(state, effect.consequence, state.code, affected, contributors, depth + 1)


def resolve_consequence(state: MMState, table: str, code: int, affected=None, contributors=(), depth: int = 0) -> None:
    """Look ``code`` up in the Group or Individual Consequence Table at the
    current highest Layer and apply it."""
    effect = state.cards.outcome(table, code, highest_layer(state))
    apply_effect(state, effect, affected, contributors, depth)


def event_phase(state: MMState) -> None:
    """Phase A: reveal the top Event (reshuffling the discard into a new deck
    when the deck is empty), make its code the round's Consequence Code and
    resolve it from the Event Resolution Table. High Instability reveals two;
    the later one's code stands. In scripted mode (worked examples) the card
    is revealed but its outcome comes from the scenario's ``event`` step."""
    state.events = []
    for _ in range(state.rules.events_per_round):
        letter = draw_event(state)
        if letter is None:
            return
        state.events = state.events + [letter]  # shared with clones: replaced
        state.code = state.cards.events[letter].code
        if state.rules.scripted_events:
            continue
        resolve_event(state, letter)


def resolve_event(state: MMState, letter: str, effect=None) -> None:
    """Apply an Event: its table outcome (or ``effect`` when a scenario states
    it), plus Hard Mode's extra Meaning loss for table outcomes. An Event's
    personal target 'affected' is the round's first player."""
    if effect is None:
        effect = state.cards.outcome("event", letter, highest_layer(state))
        if state.rules.event_extra_meaning:
            change_meaning(state, -state.rules.event_extra_meaning)
    apply_effect(state, effect, affected=state.first)


def draw_event(state: MMState):
    return draw(state, "event_deck", "event_discard")


def discard_events(state: MMState) -> None:
    """End of round: the revealed Event(s) go to the discard pile."""
    state.event_discard = state.event_discard + state.events  # shared with clones: replaced
    state.events = []


def change_vitals(state: MMState, seat: int, delta: int, depth: int = 0) -> None:
    """Vitals move by ``delta`` within 0-10. Reaching 0 from above makes the player
    Fragile and resolves an Individual Consequence with the round's Consequence
    Code (rulings ``fragile-consequence-table``, ``fragile-repeat``, options
    ``fragile_table`` and ``fragile_repeat``); rising above 0 ends the Fragile state."""
    p = state.players[seat]
    before = p.vitals
    p.vitals = max(0, min(state.rules.vitals_max, before + delta))
    if p.vitals > 0:
        p.fragile = False
        return
    p.fragile = True
    opts = state.rules.options
    again = before == 0 and delta < 0 and opts["fragile_repeat"]
    if (before > 0 or again) and state.code is not None and depth < 8:
        resolve_consequence(state, opts["fragile_table"], state.code, affected=seat, depth=depth + 1)
