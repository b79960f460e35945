"""Setting up a game for 1-4 players.

Player boards by count (2: blue, red; 3: blue, pink, red; 4: blue, black, pink,
red), seats in board order blue, black, pink, red. Each player: nine agents, eight
on the finance track of their board and one on the Human Progress card, plus their
agents in the pool. The four spheres' boards (yellow, green, blue, orange) with their
problem tokens; the Regime deck with Globalization on top. The Tipping Points and
Plurality are put aside; 38 of the remaining ideas form the Draw Deck and the rest are
set aside. The Market gets 6, 6, 1 and 1 cards (yellow, green, blue, orange) from
the Draw Deck, lowest slot first; the Tipping Points are shuffled into the lower half
of the remaining 24 and Plurality goes to the very bottom. The top card starts the
Splay under the Human Progress card, its left band showing. Each player is dealt two
set-aside cards and picks a Secret sphere among their bands (the ``secret``
decisions, in seat order); those cards go back to the set-aside pile, out of play.
"""

from __future__ import annotations

from workbench.core.errors import IllegalAction, WorkbenchError, suggest
from workbench.core.rng import Rng

from .data import SPHERES
from .state import PaxState

OPTIONS = {
    "labour_move": ("next-below", "unemployment"),
    "subsidy_rule": ("both", "either"),     # first value is the default
    "surge_reach": ("any", "adjacent"),
    "plurality_commercialized": ("plurality", "normal"),
    "round_limit": None,
    "solo_target": None,
}
#: what each option does (ruling ids in cards/pax_transhumanity/rulings.yaml)
OPTION_DOCS = {
    "labour_move": "where displaced labour goes: the next place below, or unemployment (ruling labour-move)",
    "subsidy_rule": "a Subsidy on either the labour or the act halves the cost, or only both (ruling subsidy-doubling)",
    "surge_reach": "a Surge reaches any higher idea in the column, or only the adjacent one (ruling surge-reach)",
    "plurality_commercialized": "scoring when Plurality is commercialized: its own, or the normal one",
    "round_limit": "safety stop after this many rounds, a whole number from 1 (default from settings.yaml)",
    "solo_target": "solo: points needed to win (default from settings.yaml)",
}


def check_options(options) -> dict:
    out = {}
    for key, value in options.items():
        if key not in OPTIONS:
            raise WorkbenchError(f"unknown Pax Transhumanity option {key!r}{suggest(key, OPTIONS)}; "
                                 f"known: {', '.join(OPTIONS)}")
        allowed = OPTIONS[key]
        if allowed is not None and value not in allowed:
            raise WorkbenchError(f"option {key} must be one of {', '.join(allowed)}, not {value!r}")
        if allowed is None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise WorkbenchError(f"option {key} must be a whole number from 1, not {value!r}")
        out[key] = value
    return out


def empty_state(config, content) -> PaxState:
    """Players' boards and the spheres in place, no cards dealt."""
    n = len(config.players)
    colours = content.settings["player_colours"].get(n)
    if colours is None:
        raise WorkbenchError(f"Pax Transhumanity is for 1 to 4 players, not {n}")
    if config.variants:
        raise WorkbenchError(f"Pax Transhumanity has no variants (got {', '.join(config.variants)}); "
                             "its ruling alternatives are options, e.g. --option subsidy_rule=both")
    state = PaxState(config, content, Rng(config.seed))
    state.options = check_options(config.options)
    state.colours = tuple(colours)
    start = content.settings["finance_start"]
    state.fin = [[start["capital"], start["wealth"], start["debt"]] for _ in range(n)]
    state.pool = [content.settings["agents_in_pool"]] * n
    state.marker = [content.settings["agents_in_play"] - sum(start.values())] * n
    state.patents = [{} for _ in range(n)]
    state.solved = [{} for _ in range(n)]
    state.think_tank = [[] for _ in range(n)]
    state.secret = [None] * n
    state.secret_offer = [()] * n
    state.unemployed = {s: (0,) * n for s in SPHERES}
    state.problems = {s: content.boards[s].problem_tokens for s in SPHERES}
    size = content.settings["market_slots"]
    state.market = {s: [None] * size for s in SPHERES}
    return state


def new_game(config, content) -> PaxState:
    state = empty_state(config, content)
    rng = state.rng
    ideas = list(content.plain_ideas)
    rng.shuffle(ideas)
    size = content.settings["draw_deck"]
    draw, state.set_aside = ideas[:size], ideas[size:]      # draw: top first
    pos = 0
    for sphere in SPHERES:
        for slot in range(content.settings["market_deal"][sphere]):
            card = draw[pos]
            pos += 1
            state.market[sphere][slot] = card
            state.heat[card] = (None,) * len(content.ideas[card].heat)
    rest = draw[pos:]
    half = len(rest) // 2
    lower = rest[half:] + list(content.tipping_points)
    rng.shuffle(lower)
    top_first = rest[:half] + lower + [content.plurality]
    state.deck = top_first[::-1]                            # top at the end
    first = state.deck.pop()
    state.splay = [(first, content.ideas[first].disciplines[0], (None,) * len(content.ideas[first].heat))]
    for seat in range(len(config.players)):
        k = content.settings["secret_cards"]
        dealt = state.set_aside[len(state.set_aside) - k * (seat + 1):len(state.set_aside) - k * seat]
        bands = [c for card in dealt for c in content.ideas[card].disciplines]
        state.secret_offer[seat] = tuple(dict.fromkeys(sorted(bands, key=SPHERES.index)))
    state.decision = {"kind": "secret", "seat": 0}
    return state


def choose_secret(state: PaxState, seat: int, colour: str) -> None:
    if colour not in state.secret_offer[seat]:
        raise IllegalAction(f"{state.name(seat)}'s dealt cards show {', '.join(state.secret_offer[seat])}, "
                            f"not {colour}")
    state.secret[seat] = colour
    nxt = seat + 1
    state.decision = {"kind": "secret", "seat": nxt} if nxt < state.num_players else None
