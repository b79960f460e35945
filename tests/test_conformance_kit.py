"""The shipped conformance kit is not blind: planted defects of each kind, on the
tests' toy game, each fail the check that covers them (and only a broken game
fails: the toy itself passes every check, tests/test_game_contract.py)."""

from __future__ import annotations

import pytest

from workbench.core.game import Option
from workbench.games.pebble_race import GAME as TOY
from workbench.testing import CHECKS, Kit, conformance_problems, run_check

QUICK = Kit(seeds=(1,), action_limit=2_000, observation_steps=60, sampling_steps=40, games=2)


def _planted(kind: str):
    base = type(TOY)

    class Broken(base):
        pass

    if kind == "option without a doc line":
        Broken.options = {**base.options, "speed": Option(1, int, "")}
    elif kind == "notation that does not round-trip":
        Broken.parse_action = lambda self, state, text: state.legal_actions()[0]
    elif kind == "observation showing the deck":
        def observation(self, state, seat):
            obs = base.observation(self, state, seat)
            obs["table"]["deck"] = list(state.deck)
            return obs
        Broken.observation = observation
    elif kind == "hidden information not declared":
        Broken.hidden_information = False
    elif kind == "a game that never ends":
        state_type = type(TOY.new_initial_state(TOY.config(2, seed=1)))

        class Endless(state_type):
            # only passing is offered once the first move is made: nobody ever scores
            def legal_actions(self):
                legal = super().legal_actions()
                return [a for a in legal if "pass" in str(a).lower()] or legal

        def new_initial_state(self, config):
            state = base.new_initial_state(self, config)
            state.__class__ = Endless
            state.round_limit = 10 ** 9
            return state
        Broken.new_initial_state = new_initial_state
    elif kind == "a determinize that keeps the real deck order and hands back the state":
        Broken.determinize = lambda self, state, seat, rng: state
    return Broken()


#: planted defect -> the check that must fail on it
PLANTED = {
    "option without a doc line": "declarations",
    "notation that does not round-trip": "notation-round-trips",
    "observation showing the deck": "observation-leaks",
    "hidden information not declared": "hidden-information-declared",
    "a game that never ends": "random-games-end",
    "a determinize that keeps the real deck order and hands back the state": "determinize-keeps-the-seat's-view",
}


@pytest.mark.parametrize("kind", list(PLANTED))
def test_a_planted_defect_fails_its_check(kind):
    assert run_check(_planted(kind), PLANTED[kind], QUICK)


def test_every_check_has_a_doc_and_the_flat_list_names_it():
    assert all(c.doc for c in CHECKS.values())
    lines = conformance_problems(_planted("option without a doc line"), kit=QUICK)
    assert any(line.startswith("declarations: option speed") for line in lines)


def test_a_crashing_game_is_a_finding_not_a_crash():
    class Crashing(type(TOY)):
        def observation(self, state, seat):
            raise RuntimeError("boom")

    assert run_check(Crashing(), "observation-leaks", QUICK) == ["crashed: RuntimeError: boom"]


def test_a_clone_sharing_what_only_some_moves_change_fails(scaffolded, monkeypatch):
    """The scaffold's clone copies each seat's discounts, which only a purchase
    changes (in place). With that copy dropped, the clone check must fail: it looks
    at every position of its walks, not every fifth (where no purchase happened to
    fall, and the planted change survived the mutation score)."""
    import sys

    from workbench.core import registry
    monkeypatch.syspath_prepend(str(scaffolded))
    registry.refresh()
    try:
        from tiny_market import GAME
        from tiny_market.state import TinyMarketState
        assert run_check(GAME, "clones-are-independent", Kit()) == []
        real = TinyMarketState.clone

        def sharing(self):
            new = real(self)
            new.discounts = self.discounts
            return new
        monkeypatch.setattr(TinyMarketState, "clone", sharing)
        problems = run_check(GAME, "clones-are-independent", Kit())
        assert problems and "to a clone changed the original" in problems[0], problems
    finally:
        for name in [m for m in sys.modules if m == "tiny_market" or m.startswith("tiny_market.")]:
            sys.modules.pop(name)
        monkeypatch.undo()
        registry.refresh()
