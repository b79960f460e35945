"""Setup and the shared displays: shuffle the three decks, reveal the 6-card
Pattern Prism and the 3-slot Initiative Index, place the End Initiative, set
Meaning, give each player Vitals, Legacy, tokens and 4 markers, choose the
starting player, and refill the displays during play.
"""

from __future__ import annotations

from .state import MMState, Player, Progress


def new_state(config, rules, cards) -> MMState:
    """Everything laid out for round 1 (decks shuffled, slots dealt, players'
    starting values); the game's flow then starts the round."""
    from workbench.core.rng import Rng
    state = MMState(config, rules, cards, Rng(config.seed))
    rng = state.rng
    # every deck keeps its top card at index 0; the decks are laid out in the
    # cards' order in their files before the seeded shuffle, not by name, so a
    # renamed card is dealt where it was (a card's identity is its place in
    # its file: rulings.yaml, deck-order-before-shuffle)
    state.pattern_deck = list(cards.patterns)
    rng.shuffle(state.pattern_deck)
    state.end = rules.end_initiative
    state.init_deck = [n for n in cards.initiatives if n != rules.end_initiative]
    rng.shuffle(state.init_deck)
    state.event_deck = list(cards.events)
    rng.shuffle(state.event_deck)
    state.prism = [None] * rules.prism_size
    for slot in range(rules.prism_size):
        refill_prism_slot(state, slot)
    state.index = [None] * rules.index_size
    for slot in range(rules.index_size):
        refill_index_slot(state, slot)
    state.players = [Player(E=rules.start_tokens["E"], I=rules.start_tokens["I"], S=rules.start_tokens["S"],
                            vitals=rules.start_vitals, legacy=rules.start_legacy, markers=rules.markers)
                     for _ in config.players]
    for p in state.players:
        p.fragile = p.vitals == 0
    return state


def draw(state: MMState, deck: str, discard: str):
    """Top card of the pile ``state.<deck>``. An empty deck is replaced by its
    shuffled discard pile, as the rulebook says for the Event, Pattern and
    Initiative decks alike (for Initiatives by ruling ``initiative-refill-reshuffle``);
    None when both are empty."""
    # piles are shared between clones (MMState.clone): replaced, never changed in place
    pile = getattr(state, deck)
    if not pile:
        spent = getattr(state, discard)
        if not spent:
            return None
        pile = spent[:]
        setattr(state, discard, [])
        state.rng.shuffle(pile)
    setattr(state, deck, pile[1:])
    return pile[0]


def draw_pattern(state: MMState):
    return draw(state, "pattern_deck", "pattern_discard")


def refill_prism_slot(state: MMState, slot: int) -> None:
    state.prism[slot] = draw_pattern(state)


def draw_initiative(state: MMState):
    return draw(state, "init_deck", "init_discard")


def refill_index_slot(state: MMState, slot: int, *, after_completion: bool = False) -> None:
    """Refill an Index space. After a completion, option ``initiative_refill: empty``
    plays the Index section literally: an empty deck leaves the space empty even
    when recycled Initiatives wait in the discard pile (ruling initiative-refill-reshuffle)."""
    if after_completion and state.rules.options["initiative_refill"] == "empty":
        deck = state.init_deck  # shared with clones (MMState.clone): replaced, not changed
        name = deck[0] if deck else None
        if deck:
            state.init_deck = deck[1:]
    else:
        name = draw_initiative(state)
    state.index[slot] = name
    if name is not None:
        state.progress.pop(name, None)


def progress_of(state: MMState, name: str) -> Progress:
    """The progress on ``name``, ready to be changed. Clones share Progress
    entries (see ``MMState.clone``), so every change goes through here and gets
    a fresh copy first: copy on write, paid once per contribution instead of
    once per clone."""
    prog = state.progress.get(name)
    prog = state.progress[name] = Progress() if prog is None else prog.copy()
    return prog
