"""What a seat cannot see, re-drawn for a search bot (``Game.determinize``).

Hidden from a seat in Mandate 2038:

* the order of the Training deck (the discard is face up);
* the order of every Headline deck still to be revealed;
* each Era's Mandate card until that Era begins (only the top card of an Era's
  Mandate deck is ever revealed);
* the Core Actions rivals have already picked this cycle: picks stay face down
  until everyone has chosen (selection.py). A sample gives each rival who has
  picked one of its ready Core Actions, drawn by the *rival model* below;
* the future random stream (the risk bag's draws, reshuffles).

Everything else (tracks, the board, the Future Timeline, revealed cards) is on
the table and kept as it is.

The rival model (issue 30). A rival's face-down pick is drawn the way the seat
would guess it: in proportion to the softmax of what each of the rival's ready
Core Actions is worth to the rival by the greedy evaluation (the same rating a
greedy bot compares when it picks: the position with that Action selected,
rated for the rival, evaluation.py's *outlook*), at temperature
:data:`RIVAL_TAU` in standard deviations of those ratings. The ratings are
worked out on the public position only: a copy in which every pick the seat
cannot see is blank, so neither the rival's real pick nor any other rival's
leaks into the weights (``tests/test_hidden_information.py`` checks that two
positions differing only in a rival's pick give the same samples, and that
every sample shows the seat what the real position shows it). The uniform
re-draw this replaces made rivals pick, say, Fund with no Runway to gain as
often as the Action that serves them best, so a search against a greedy field
was planning against players who were not there (docs/playtesting.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.mcts import softmax_prior
from workbench.core.rng import Rng

from .selection import choices

if TYPE_CHECKING:
    from .state import MandateState


#: the rival model's temperature, in standard deviations of the rival's ratings
#: (our draft, not tuned to the ladder): an Action one deviation below the
#: rival's best is guessed e^-2 (0.14) as often, so the guess leans hard on what
#: a sensible rival would pick and still leaves room for the others
RIVAL_TAU = 0.5


def rival_picks(state: MandateState, seat: int) -> dict[int, tuple[list[str], list[float]]]:
    """For each rival whose pick ``seat`` cannot see: its ready Core Actions and
    the probability the rival model gives each (summing to 1). Read from the
    public position only (every hidden pick blanked), so the real picks never
    shape the weights. Kept on the position object (its ``_policy``): a search asks for
    it once per iteration of the same decision."""
    key = (state.era, state.cycle, state.phase, state.sel_index, seat)
    kept = state._policy
    if kept is not None and kept[0] == key and kept[1] is state.events:
        return kept[2]
    from .evaluation import evaluate
    hidden = [r for r, pick in enumerate(state.selections)
              if state.phase == "select" and r != seat and pick is not None]
    out: dict[int, tuple[list[str], list[float]]] = {}
    if hidden:
        public = state.clone()
        for r in hidden:
            public.selections[r] = None
        for r in hidden:
            modes = [m.mode for m in choices(state, r)]
            if not modes:
                continue
            ratings = []
            for mode in modes:
                public.selections[r] = mode
                ratings.append(evaluate(public, r))
            public.selections[r] = None
            out[r] = (modes, softmax_prior(ratings, RIVAL_TAU))
    state._policy = (key, state.events, out)
    return out




def _draw(weights: list[float], rng: Rng) -> int:
    """An index drawn in proportion to ``weights`` (which sum to 1), one draw."""
    u = rng.random()
    acc = 0.0
    for i, w in enumerate(weights):
        acc += w
        if u < acc:
            return i
    return len(weights) - 1


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
    for rival, (modes, weights) in sorted(rival_picks(state, seat).items()):
        new.selections[rival] = modes[_draw(weights, rng)]
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
