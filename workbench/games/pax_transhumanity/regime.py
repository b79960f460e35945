"""The Cutting Edge and the Regime it sets, and what each Regime changes.

The Cutting Edge is the newest three cards of the Splay (two when the Splay holds
only two; with one card there is no pair, so Globalization). The table, checked in
this order: exactly two yellow bands give Transbiology, two green Group Dynamics,
two blue Computing, two orange Assembly; three alike give Paradigm Shift; anything
else gives Globalization.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import PaxState

REGIME_BY_PAIR = {"yellow": "Transbiology", "green": "Group Dynamics",
                  "blue": "Computing", "orange": "Assembly"}
DOMINANT = {regime: colour for colour, regime in REGIME_BY_PAIR.items()}
REGIMES = ("Globalization", "Transbiology", "Group Dynamics", "Computing", "Assembly", "Paradigm Shift")


def cutting_edge(splay) -> list:
    """Visible colours of the Cutting Edge (the newest three Splay cards)."""
    return [band for _, band, _ in splay[-3:]]


def regime_for(bands) -> str:
    """The Regime a Cutting Edge (a list of band colours) sets."""
    bands = list(bands)
    if len(bands) >= 2:
        for colour, regime in REGIME_BY_PAIR.items():
            if bands.count(colour) == 2:
                return regime
        if len(bands) == 3 and len(set(bands)) == 1:
            return "Paradigm Shift"
    return "Globalization"


def dominant_sphere(regime: str):
    """The sphere a Regime favours (None under Globalization and Paradigm Shift)."""
    return DOMINANT.get(regime)


def update_regime(state: PaxState) -> None:
    new = regime_for(cutting_edge(state.splay))
    if new != state.regime:
        state.regime = new
        state.bump("regime_changes")


# -- what each Regime does --------------------------------------------------
def surge_colours(state: PaxState, idea) -> tuple:
    """Transbiology: every idea has Surge Arrows in both of its disciplines."""
    if state.regime == "Transbiology":
        return tuple(dict.fromkeys(idea.disciplines))
    return idea.arrows


def hire_is_free(state: PaxState) -> bool:
    """Group Dynamics: hiring costs nothing."""
    return state.regime == "Group Dynamics"


def research_is_free(state: PaxState) -> bool:
    """Computing: research costs nothing."""
    return state.regime == "Computing"


#: the Regime under which syndicating costs nothing
FREE_SYNDICATION = "Paradigm Shift"


def syndication_is_free(state: PaxState) -> bool:
    """Paradigm Shift: syndicating costs nothing."""
    return state.regime == FREE_SYNDICATION


def developing_world(state: PaxState, sphere: str) -> bool:
    return sphere in state.content.developing_spheres


def commercialize_subsidized(state: PaxState, sphere: str) -> bool:
    """Assembly subsidizes every commercialization; Globalization those in the
    Developing World."""
    return state.regime == "Assembly" or (state.regime == "Globalization" and developing_world(state, sphere))


def research_subsidized(state: PaxState, sphere: str) -> bool:
    """Globalization subsidizes research in the Developing World."""
    return state.regime == "Globalization" and developing_world(state, sphere)
