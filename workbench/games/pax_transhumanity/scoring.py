"""Scoring for each ending, and the tie-breaks.

- Normal (a Tipping Point ended it): with a dominant sphere (the Regime is neither
  Globalization nor Paradigm Shift) each Company and solved problem in that sphere is
  worth 2, in the player's Secret sphere 1, and 3 when the two are the same sphere.
  Under Globalization, the Companies and solved problems in the Secret sphere count
  one each. Under Paradigm Shift the scoring is singular.
- Singular: the number of own Future Shock agents.
- Plurality: 1 for each solved problem, and 1 more for each one in the Secret sphere.
- Tycoon: the Tycoon wins outright (the scores shown are the normal ones).

Ties go to the most Capital, then the most Wealth; a tie on all three shares the win.
Solo: the lone player wins as Tycoon or by reaching the solo target (see rulings).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import SPHERES
from .regime import dominant_sphere

if TYPE_CHECKING:
    from .state import PaxState


def mode(state: PaxState) -> str:
    """Which scoring applies: normal, singular or plurality."""
    if state.ending == "singular":
        return "singular"
    if state.ending == "plurality":
        return "plurality"
    return "singular" if state.regime == "Paradigm Shift" else "normal"


def holdings(state: PaxState, seat: int, sphere: str) -> int:
    companies = sum(1 for k, s in state.companies.items() if s == seat and state.content.places[k].sphere == sphere)
    return companies + state.solved[seat].get(sphere, 0)


#: "the seat's own Secret sphere" (a bot estimating a rival's score names one instead)
OWN = object()


def normal_score(state: PaxState, seat: int, secret=OWN) -> int:
    dom = dominant_sphere(state.regime)
    secret = state.secret[seat] if secret is OWN else secret
    if dom is None:
        return holdings(state, seat, secret) if secret else 0
    total = 0
    for sphere in SPHERES:
        value = (2 if sphere == dom else 0) + (1 if sphere == secret else 0)
        total += value * holdings(state, seat, sphere)
    return total


def singular_score(state: PaxState, seat: int) -> int:
    return sum(1 for _, _, owners in state.splay for o in owners if o == seat)


def plurality_score(state: PaxState, seat: int, secret=OWN) -> int:
    solved = state.solved[seat]
    return sum(solved.values()) + solved.get(state.secret[seat] if secret is OWN else secret, 0)


def score(state: PaxState, seat: int, secret=OWN) -> int:
    """``seat``'s score under the scoring that applies now; ``secret``: score as
    if this were the player's Secret sphere (default: their own)."""
    m = mode(state)
    if m == "singular":
        return singular_score(state, seat)
    if m == "plurality":
        return plurality_score(state, seat, secret)
    return normal_score(state, seat, secret)


def scores(state: PaxState) -> list:
    return [score(state, s) for s in range(state.num_players)]


def winners(state: PaxState) -> list:
    """Seats that win a finished game (tie-breaks: Capital, then Wealth)."""
    if state.ending is None or state.ending == "timeout":
        return []
    if state.ending == "tycoon":
        return [state.tycoon]
    pts = scores(state)
    if state.num_players == 1:
        target = state.options.get("solo_target", state.content.settings["solo_target"])
        return [0] if pts[0] >= int(target) else []
    key = [(pts[s], state.fin[s][0], state.fin[s][1]) for s in range(state.num_players)]
    best = max(key)
    return [s for s in range(state.num_players) if key[s] == best]
