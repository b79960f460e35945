"""``Game.observation``: the shipped kit's leak check (:mod:`workbench.testing.observation`,
run on every game by tests/test_game_contract.py) is not blind: a planted leak
(a game whose observation shows a rival's hidden value) must fail it."""

from __future__ import annotations

import json

import pytest

from workbench.core.registry import game_ids, get_game
from workbench.testing import Kit, leaks, run_check
from workbench.testing.walks import positions

GAMES = {gid: get_game(gid) for gid in game_ids()}

#: planted leaks: a game's observation with one hidden value added back
PLANTED = {
    "pax secret": ("pax-transhumanity", lambda state: {"secrets": list(state.secret)}),
    "pax deck order": ("pax-transhumanity", lambda state: {"deck": list(state.deck)}),
    "mandate face-down picks": ("mandate-2038", lambda state: {"picks": list(state.selections)}),
    "mandate unrevealed mandates": ("mandate-2038", lambda state: {"mandates": [list(p) for p in state.mandate_decks]}),
    "meaning made deck order": ("meaning-made", lambda state: {"patterns": list(state.pattern_deck)}),
}


@pytest.mark.parametrize("leak", list(PLANTED))
def test_a_planted_leak_is_caught(leak):
    gid, extra = PLANTED[leak]
    base = GAMES[gid]

    class Leaky(type(base)):
        def observation(self, state, seat):
            obs = super().observation(state, seat)
            obs["table"].update(json.loads(json.dumps(extra(state))))
            return obs

    leaky = Leaky()
    caught = 0
    for state in positions(leaky, leaky.default_players, 1, steps=240, every=7):
        seat = (state.current_player() + 1) % state.num_players if not state.is_terminal() else 0
        caught += any("differently" in p for p in leaks(leaky, state, seat))
    assert caught, leak


def test_the_kit_reports_a_planted_leak_as_a_failed_check():
    """The same leak, through the kit's check (what ``workbench check`` reports)."""
    base = GAMES["pax-transhumanity"]

    class Leaky(type(base)):
        def observation(self, state, seat):
            obs = super().observation(state, seat)
            obs["table"]["secrets"] = json.loads(json.dumps(list(state.secret)))
            return obs

    problems = run_check(Leaky(), "observation-leaks", Kit(seeds=(1,)))
    assert problems and "reads differently" in problems[0]
