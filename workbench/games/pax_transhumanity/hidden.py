"""What a seat cannot see, re-drawn for a search bot (``Game.determinize``).

Hidden from a seat in Pax Transhumanity (setup.py says how each came to be):

* the order of the Draw Deck, and which plain ideas are in it at all: the deck
  and the set-aside pile were cut from one shuffled pile, so a plain idea still
  in the deck could as well be one set aside;
* where the four Tipping Points lie: somewhere in the deck's lower part (they
  were shuffled into the lower half of what the Market left), never in the
  upper part, with Plurality at the very bottom;
* each rival's two dealt cards and the Secret sphere chosen from their bands
  (the seat's own dealt cards and Secret it knows);
* the future random stream.

A sample keeps everything on the table (Market, Splay, Think Tanks, boards,
money) and what the seat knows of the deck's structure, so a search that draws
from it never learns where an ending lies or what a rival scores on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.rng import Rng

from .data import SPHERES

if TYPE_CHECKING:
    from .state import PaxState


def dealt_cards(state: PaxState, seat: int) -> list[str]:
    """The set-aside cards ``seat`` was dealt for its Secret sphere (setup.py
    deals them from the end of the pile, seat 0 first)."""
    k = state.content.settings["secret_cards"]
    pile = state.set_aside
    return pile[len(pile) - k * (seat + 1):len(pile) - k * seat]


def lower_part(state: PaxState) -> int:
    """How many cards above Plurality were the deck's lower part at setup (the
    part the Tipping Points were shuffled into)."""
    settings = state.content.settings
    rest = settings["draw_deck"] - sum(settings["market_deal"].values())
    return rest - rest // 2 + len(state.content.tipping_points)


def determinize(state: PaxState, seat: int, rng: Rng) -> PaxState:
    """A clone of ``state`` with what ``seat`` cannot see re-drawn from ``rng``."""
    new = state.clone()
    content = state.content
    tipping = set(content.tipping_points)
    own = set(dealt_cards(state, seat))
    deck = list(new.deck)                      # top at the end
    plain_at = [i for i, card in enumerate(deck) if card not in tipping and card != content.plurality]
    set_aside_at = [i for i, card in enumerate(new.set_aside) if card not in own]
    unknown = [deck[i] for i in plain_at] + [new.set_aside[i] for i in set_aside_at]
    rng.shuffle(unknown)
    for i, card in zip(plain_at, unknown):
        deck[i] = card
    pile = list(new.set_aside)
    for i, card in zip(set_aside_at, unknown[len(plain_at):]):
        pile[i] = card
    # the Tipping Points: anywhere in what is left of the lower part (the deck as
    # set up has Plurality at index 0 and the lower part just above it); a deck a
    # scenario laid out otherwise is shuffled whole, Plurality included, since
    # nothing then says where anything lies
    if deck and deck[0] == content.plurality:
        zone = list(range(1, min(1 + lower_part(state), len(deck))))
        if not all(i in zone for i, card in enumerate(deck) if card in tipping):
            zone = list(range(len(deck)))
    else:
        zone = list(range(len(deck)))
    cards = [deck[i] for i in zone]
    rng.shuffle(cards)
    for i, card in zip(zone, cards):
        deck[i] = card
    new.deck, new.set_aside = deck, pile
    # rivals' Secret spheres: a band of the two cards the sample deals them
    new.secret_offer = list(new.secret_offer)  # shared with the original by clone()
    for rival in range(state.num_players):
        if rival == seat:
            continue
        bands = [c for card in dealt_cards(new, rival) for c in content.ideas[card].disciplines]
        offer = tuple(dict.fromkeys(sorted(bands, key=SPHERES.index))) or SPHERES
        new.secret_offer[rival] = offer
        if state.secret[rival] is not None:
            new.secret[rival] = offer[rng.randbelow(len(offer))]
    new.rng = Rng(rng.next64())
    return new


def observation(game, state: PaxState, seat: int) -> dict:
    """What ``seat`` sees of the table (``Game.observation``): the scenario view
    with each rival's Secret sphere masked (only whether one is chosen shows)
    and the seat's own Secret offer and dealt cards added; the deck shows its
    size only. Rivals' scores leave out their Secret bonus until the game ends."""
    from workbench.core.observation import HIDDEN, seat_observation
    from .scenario import observe
    view = observe(game, state)
    view.pop("legal", None)          # the acting seat's moves: seat_observation adds them for that seat only
    names = state.config.players
    over = state.is_terminal()
    for rival, name in enumerate(names):
        row = view["players"][name]
        if rival == seat:
            row["secret_offer"] = list(state.secret_offer[rival]) if state.secret_offer else []
            row["dealt"] = list(dealt_cards(state, rival))
        elif not over:
            row["secret"] = None if state.secret[rival] is None else HIDDEN
    return seat_observation(game, state, seat, view)
