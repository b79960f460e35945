"""The shared World Ending, read from two public results.

Recognition: some institution paid for recognized AGI after Era IV Production.
Continuity is Open when the Trust of all players together has grown since setup by
at least the number of players, and the bag still holds fewer black Systemic Risk
cubes than there are players; otherwise it is Closed.

- recognition with Open continuity: The Singularity
- recognition with Closed continuity: The Closed Loop
- no recognition, Open continuity: The Plural Future
- no recognition, Closed continuity: Assured Continuity
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import agi

if TYPE_CHECKING:
    from .state import MandateState

TABLE = {(True, True): "The Singularity", (True, False): "The Closed Loop",
         (False, True): "The Plural Future", (False, False): "Assured Continuity"}


def collective_trust(state: MandateState) -> int:
    return sum(p.trust for p in state.players)


def setup_collective_trust(state: MandateState) -> int:
    return sum(p.start_trust for p in state.players)


def is_open(state: MandateState) -> bool:
    return (collective_trust(state) >= setup_collective_trust(state) + state.n
            and state.bag_black < state.n)


def ending(state: MandateState) -> str:
    return TABLE[(agi.any_recognized(state), is_open(state))]
