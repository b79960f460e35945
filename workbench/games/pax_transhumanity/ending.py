"""The four ways the game ends.

- A Tipping Point's Game End effect (normal scoring), checked when its
  commercialization is over;
- five or more bands of one colour next to each other in the Splay (singular
  scoring), checked after every commercialization;
- Plurality researched away (plurality scoring); commercializing Plurality ends the
  game too, after every Nuclear Exchange of the Splay is played out (see rulings);
- the Tycoon: a player about to place their fifth Company wins at once.

``timeout`` is our safety stop (option ``round_limit``), not a rule of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import PaxState

ENDINGS = ("tipping-point", "singular", "plurality", "tycoon")


def longest_run(splay) -> int:
    """Longest row of same-colour visible bands in the Splay."""
    best = run = 0
    prev = None
    for _, band, _ in splay:
        run = run + 1 if band == prev else 1
        prev = band
        best = max(best, run)
    return best


def is_singular(state: PaxState) -> bool:
    return longest_run(state.splay) >= state.content.settings["singular_run"]


def check_after_commercialize(state: PaxState) -> None:
    if state.ending is not None:
        return
    if is_singular(state):
        state.ending = "singular"
    elif state.game_end_flag:
        plurality = state.act and state.act.get("idea") == state.content.plurality
        if plurality and state.options.get("plurality_commercialized", "plurality") == "plurality":
            state.ending = "plurality"
        else:
            state.ending = "tipping-point"


def check_round_limit(state: PaxState) -> None:
    limit = state.options.get("round_limit", state.content.settings["round_limit"])
    if limit and state.round > int(limit):
        state.ending = "timeout"
