"""The shared World Ending: two public results read into a 2×2 table.

Recognized AGI: someone paid for recognition after Era IV Production. Open
continuity: final Collective Trust is at least Setup Collective Trust plus the
number of players AND fewer Systemic Risk cubes than players remain in the bag.

=================  ===============  ====================
                   Open             Closed
AGI recognized     The Singularity  The Closed Loop
No AGI recognized  The Plural Future  Assured Continuity
=================  ===============  ====================
"""

from __future__ import annotations

from . import agi

TABLE = {(True, True): "The Singularity", (True, False): "The Closed Loop",
         (False, True): "The Plural Future", (False, False): "Assured Continuity"}


def collective_trust(state) -> int:
    return sum(p.trust for p in state.players)


def setup_collective_trust(state) -> int:
    return sum(p.start_trust for p in state.players)


def is_open(state) -> bool:
    return (collective_trust(state) >= setup_collective_trust(state) + state.n
            and state.bag_black < state.n)


def ending(state) -> str:
    return TABLE[(agi.any_recognized(state), is_open(state))]
