"""Setup and the shared displays: shuffle the three decks, reveal the 6-card
Pattern Prism and the 3-slot Initiative Index, place the End Initiative, set
Meaning, give each player Vitals, Legacy, tokens and 4 markers, choose the
starting player, and refill the displays during play.
"""

from __future__ import annotations

from .state import MMState, Player, Progress


def new_state(config, rules, cards, start_round: bool = True) -> MMState:
    from workbench.core.rng import Rng
    state = MMState(config, rules, cards, Rng(config.seed))
    rng = state.rng
    # every deck keeps its top card at index 0
    state.pattern_deck = sorted(cards.patterns)
    rng.shuffle(state.pattern_deck)
    state.end = rules.end_initiative
    state.init_deck = sorted(n for n in cards.initiatives if n != rules.end_initiative)
    rng.shuffle(state.init_deck)
    state.event_deck = sorted(cards.events)
    rng.shuffle(state.event_deck)
    state.prism = [None] * rules.prism_size
    for slot in range(rules.prism_size):
        refill_prism_slot(state, slot)
    state.index = [None] * rules.index_size
    for slot in range(rules.index_size):
        refill_index_slot(state, slot)
    state.meaning = rules.start_meaning
    state.world_layer = 1
    state.players = [Player(E=rules.start_tokens["E"], I=rules.start_tokens["I"], S=rules.start_tokens["S"],
                            vitals=rules.start_vitals, legacy=rules.start_legacy, markers=rules.markers)
                     for _ in config.players]
    for p in state.players:
        p.fragile = p.vitals == 0
    state.community = rules.community_markers
    state.first = rules.first_player
    if start_round:
        from .rounds import start_round as begin
        begin(state, 1)
    return state


def draw_pattern(state):
    """Top Pattern; an empty deck is replaced by the shuffled discard pile; None
    when both are empty."""
    if not state.pattern_deck:
        if not state.pattern_discard:
            return None
        state.pattern_deck = state.pattern_discard
        state.pattern_discard = []
        state.rng.shuffle(state.pattern_deck)
    return state.pattern_deck.pop(0)


def refill_prism_slot(state, slot: int) -> None:
    state.prism[slot] = draw_pattern(state)


def draw_initiative(state):
    """Top Initiative; an empty deck is replaced by the shuffled discard pile
    (ruling ``initiative-refill-reshuffle``); None when both are empty."""
    if not state.init_deck:
        if not state.init_discard:
            return None
        state.init_deck = state.init_discard
        state.init_discard = []
        state.rng.shuffle(state.init_deck)
    return state.init_deck.pop(0)


def refill_index_slot(state, slot: int) -> None:
    name = draw_initiative(state)
    state.index[slot] = name
    if name is not None:
        state.progress.pop(name, None)


def progress_of(state, name: str) -> Progress:
    """The progress on ``name``, ready to be changed. Clones share Progress
    entries (see ``MMState.clone``), so every change goes through here and gets
    a fresh copy first: copy on write, paid once per contribution instead of
    once per clone."""
    prog = state.progress.get(name)
    prog = state.progress[name] = Progress() if prog is None else prog.copy()
    return prog
