"""What a seat cannot see, re-drawn for a search bot (``Game.determinize``).

Hidden from a seat in Mandate 2038:

* the order of the Training deck (the discard is face up);
* the order of every Headline deck still to be revealed;
* each Era's Mandate card until that Era begins (only the top card of an Era's
  Mandate deck is ever revealed);
* the Core Actions rivals have already picked this cycle: picks stay face down
  until everyone has chosen (selection.py), so a sample gives each rival who
  has picked a ready Core Action of its own at random;
* the future random stream (the risk bag's draws, reshuffles).

Everything else (tracks, the board, the Future Timeline, revealed cards) is on
the table and kept as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.rng import Rng

from .selection import choices

if TYPE_CHECKING:
    from .state import MandateState


def determinize(state: MandateState, seat: int, rng: Rng) -> MandateState:
    """A clone of ``state`` with what ``seat`` cannot see re-drawn from ``rng``."""
    new = state.clone()
    # the decks are shared between clones and replaced, never changed in place
    # (research.draw, headlines.reveal): shuffle fresh lists
    deck = list(new.deck)
    rng.shuffle(deck)
    new.deck = deck
    headline_decks = []
    for pile in new.headline_decks:
        pile = list(pile)
        rng.shuffle(pile)
        headline_decks.append(pile)
    new.headline_decks = headline_decks
    mandate_decks = []
    for index, pile in enumerate(new.mandate_decks):
        pile = list(pile)
        if index + 1 > state.era:   # this Era's Mandate is not revealed yet
            rng.shuffle(pile)
        mandate_decks.append(pile)
    new.mandate_decks = mandate_decks
    if state.phase == "select":
        for rival, pick in enumerate(state.selections):
            if rival != seat and pick is not None:
                ready = choices(state, rival)
                new.selections[rival] = ready[rng.randbelow(len(ready))].mode if ready else pick
    new.rng = Rng(rng.next64())
    new.forget_listing()  # the position changed by hand: its cached listing no longer holds
    return new


def observation(game, state: MandateState, seat: int) -> dict:
    """What ``seat`` sees of the table (``Game.observation``): the scenario view,
    in which every pick made this cycle reads ``hidden`` until all have chosen
    (selection.visible), with the seat's own pick shown to it; the decks show
    their sizes and the Mandate in play only (the scenario view never lists
    deck orders or unrevealed Mandates)."""
    from workbench.core.observation import seat_observation
    from .scenario import observe
    view = observe(game, state)
    view["players"][state.player_name(seat)]["selected"] = state.selections[seat]
    return seat_observation(game, state, seat, view)
