"""Property tests over random Pax Transhumanity games: every agent is in exactly one
place at every step, every legal action is accepted, and every game ends."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from workbench.core.rng import Rng
from workbench.games.pax_transhumanity import GAME
from workbench.games.pax_transhumanity.data import SPHERES
from workbench.games.pax_transhumanity.ending import ENDINGS
from workbench.games.pax_transhumanity.scenario import agent_total


def _places_are_exclusive(state):
    """No place holds two Employees unless it is a Utility (and then one per player)."""
    for key, seats in state.staff.items():
        kind = state.content.places[key].kind
        assert len(set(seats)) == len(seats), key
        if kind != "utility":
            assert len(seats) == 1, key
    for sphere in SPHERES:
        cards = [c for c in state.market[sphere] if c is not None]
        assert len(cards) == len(set(cards))
    everywhere = (state.market_ideas() + [c for c, _, _ in state.splay] + state.deck
                  + [c for tank in state.think_tank for c in tank])
    assert len(everywhere) == len(set(everywhere)), "a card is in two places"


def _nonnegative(state):
    for s in range(state.num_players):
        assert min(state.fin[s]) >= 0 and state.pool[s] >= 0
        assert all(v >= 0 for v in state.patents[s].values())
        assert all(state.unemployed[sp][s] >= 0 for sp in SPHERES)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), bot_seed=st.integers(0, 10_000))
def test_random_games_keep_agents_and_end(seed, players, bot_seed):
    state = GAME.new_initial_state(GAME.config(players, seed=seed, round_limit=25))
    totals = [agent_total(state, s) for s in range(players)]
    rng = Rng(bot_seed)
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, "a live game must offer an action"
        state.apply_action(rng.choice(actions))
        steps += 1
        assert [agent_total(state, s) for s in range(players)] == totals
        _nonnegative(state)
        assert steps < 20_000
    _places_are_exclusive(state)
    assert state.ending in ENDINGS + ("timeout",)
    res = GAME.result(state)
    assert set(res.scores) == set(state.config.players)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), cut=st.integers(5, 120))
def test_clone_is_independent(seed, cut):
    state = GAME.new_initial_state(GAME.config(3, seed=seed, round_limit=10))
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
    before = GAME.observe(state)
    copy = state.clone()
    for _ in range(30):
        if copy.is_terminal():
            break
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert GAME.observe(state) == before


def test_field_by_field_copy_is_the_clone():
    """The compiled build's copy (``state._copy_by_field``, which the mutation score leaves
    out because the interpreted build never runs it) gives the same fields as ``clone()``,
    with each copied container its own, for a full clone and for each action kind's."""
    from workbench.games.pax_transhumanity.state import _COPY, WRITES, _copy_by_field, fields
    state = GAME.new_initial_state(GAME.config(3, seed=11, round_limit=10))
    rng = Rng(11)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for containers in [tuple(_COPY), *WRITES.values()]:
        new = _copy_by_field(state, containers)
        old_f, new_f = fields(state), fields(new)
        assert new_f.keys() == old_f.keys()
        for name, value in old_f.items():
            if name == "rng":
                assert new.rng.copy().random() == state.rng.copy().random() and new.rng is not state.rng
                continue
            assert new_f[name] == value, name
            if name in containers:
                assert new_f[name] is not value, name
                if name in ("fin", "patents", "solved", "think_tank"):
                    assert all(a is not b for a, b in zip(new_f[name], value)), name
                if name == "market":
                    assert all(new_f[name][s] is not value[s] for s in value), name
            else:
                assert new_f[name] is value, name
