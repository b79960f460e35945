"""Search bots sample what a seat cannot see (``Game.determinize``) and keep what
it can: Pax Transhumanity's deck, Tipping Points and rivals' Secret spheres,
Mandate 2038's decks, unrevealed Mandates and rivals' face-down picks.

Each test checks three things: the table is kept, the hidden part is re-drawn
(different samples differ), and what the seat knows of the hidden part holds in
every sample (a Tipping Point never moves into the deck's upper part; a
rival's sampled pick is one it could make)."""

from __future__ import annotations

import copy

import pytest

from workbench.core.mcts import parse_mcts
from workbench.core.registry import get_game
from workbench.core.rng import Rng
from workbench.games.mandate_2038.selection import choices
from workbench.games.pax_transhumanity.hidden import dealt_cards, lower_part

PAX = get_game("pax-transhumanity")
MANDATE = get_game("mandate-2038")


def _pax_after_setup(players: int = 3, seed: int = 5):
    state = PAX.new_initial_state(PAX.config(players, seed=seed))
    while state.decision is not None and state.decision.get("kind") == "secret":
        state.apply_action(state.legal_actions()[0])
    return state


def _pax_table(state) -> tuple:
    return (copy.deepcopy(state.market), list(state.splay), [list(t) for t in state.think_tank],
            [list(f) for f in state.fin], dict(state.companies), dict(state.problems))


def test_pax_sample_keeps_the_table_and_the_seats_own_knowledge():
    state = _pax_after_setup()
    before_original = (list(state.deck), list(state.set_aside), list(state.secret), _pax_table(state))
    seat = state.current_player()
    for k in range(20):
        sample = PAX.determinize(state, seat, Rng(k))
        assert _pax_table(sample) == _pax_table(state)
        assert sample.secret[seat] == state.secret[seat]
        assert dealt_cards(sample, seat) == dealt_cards(state, seat)
        assert sorted(sample.deck + sample.set_aside) == sorted(state.deck + state.set_aside)
        assert len(sample.deck) == len(state.deck)
        # Plurality stays at the bottom, the Tipping Points in the lower part
        assert sample.deck[0] == PAX.cards().plurality
        zone = range(1, 1 + lower_part(state))
        assert all(i in zone for i, c in enumerate(sample.deck) if c in PAX.cards().tipping_points)
        for rival in range(state.num_players):
            if rival != seat:
                assert sample.secret[rival] in sample.secret_offer[rival]
        assert [str(a) for a in sample.legal_actions()] == [str(a) for a in state.legal_actions()]
    # the original is untouched
    assert (list(state.deck), list(state.set_aside), list(state.secret), _pax_table(state)) == before_original


def test_pax_samples_differ_where_the_seat_cannot_see():
    state = _pax_after_setup()
    seat = state.current_player()
    samples = [PAX.determinize(state, seat, Rng(k)) for k in range(30)]
    tipping = set(PAX.cards().tipping_points)
    assert len({tuple(i for i, c in enumerate(s.deck) if c in tipping) for s in samples}) > 10
    assert len({tuple(s.deck) for s in samples}) == 30
    rival = (seat + 1) % state.num_players
    assert len({s.secret[rival] for s in samples}) > 1
    # the same rng gives the same sample (search bots stay reproducible)
    assert PAX.determinize(state, seat, Rng(3)).deck == PAX.determinize(state, seat, Rng(3)).deck


def _mandate_mid_selection(seed: int = 4):
    """A four-player Mandate game at its first selection, after two seats picked."""
    state = MANDATE.new_initial_state(MANDATE.config(4, seed=seed))
    rng = Rng(seed)
    while not (state.phase == "select" and sum(p is not None for p in state.selections) == 2):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])
    return state


def test_mandate_sample_hides_rivals_picks_and_the_decks():
    state = _mandate_mid_selection()
    seat = state.current_player()
    picked = [s for s, p in enumerate(state.selections) if p is not None]
    before = (list(state.selections), list(state.deck), [list(d) for d in state.headline_decks],
              [list(d) for d in state.mandate_decks])
    samples = [MANDATE.determinize(state, seat, Rng(k)) for k in range(30)]
    for sample in samples:
        assert sorted(sample.deck) == sorted(state.deck) and sample.discard == state.discard
        assert [sorted(d) for d in sample.headline_decks] == [sorted(d) for d in state.headline_decks]
        for era, (pile, known) in enumerate(zip(sample.mandate_decks, state.mandate_decks), start=1):
            if era <= state.era:    # revealed: the Era's Mandate card stays
                assert pile[0] == known[0]
        for rival in picked:
            assert sample.selections[rival] in [m.mode for m in choices(state, rival)]
        assert [str(a) for a in sample.legal_actions()] == [str(a) for a in state.legal_actions()]
    for rival in picked:
        assert len({s.selections[rival] for s in samples}) > 1
    assert len({tuple(s.deck) for s in samples}) > 1
    assert (list(state.selections), list(state.deck), [list(d) for d in state.headline_decks],
            [list(d) for d in state.mandate_decks]) == before


@pytest.mark.parametrize("game", [PAX, MANDATE], ids=lambda g: g.id)
def test_mcts_over_samples_is_reproducible_and_legal(game):
    state = _pax_after_setup() if game is PAX else _mandate_mid_selection()
    bot = parse_mcts("12:d=3")
    first = bot.choose(game, state, Rng(7))
    assert first == bot.choose(game, state, Rng(7))
    assert first in state.legal_actions()


def _mandate_before_and_after_pick(seed: int = 4):
    """A Mandate position where the second seat of the cycle is to pick (one
    rival picked), the position just before that rival picked, and the rival."""
    state = MANDATE.new_initial_state(MANDATE.config(4, seed=seed))
    rng = Rng(seed)
    while True:
        if state.phase == "select" and sum(p is not None for p in state.selections) == 0:
            before = state.clone()
            rival = state.current_player()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
            return before, state, rival
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])


def test_mandate_rival_model_is_the_greedy_rating_softmax():
    """The weight of a rival's face-down pick is the softmax of what the greedy
    bot compared when that rival picked (its one-ply ratings), nothing else."""
    from workbench.core.mcts import softmax_prior
    from workbench.games.mandate_2038.hidden import RIVAL_TAU, rival_picks
    for seed in (4, 9):
        before, state, rival = _mandate_before_and_after_pick(seed)
        legal = before.legal_actions()
        expected = softmax_prior(MANDATE.action_values(before, rival, legal), RIVAL_TAU)
        modes, weights = rival_picks(state, state.current_player())[rival]
        assert modes == [m.mode for m in legal]
        assert weights == pytest.approx(expected)
        assert sum(weights) == pytest.approx(1.0)
        # a real guess, not uniform: the best-rated Action is drawn most often
        seat = state.current_player()
        drawn = [MANDATE.determinize(state, seat, Rng(k)).selections[rival] for k in range(300)]
        counts = [drawn.count(m) for m in modes]
        best = max(range(len(modes)), key=lambda i: weights[i])
        assert counts[best] == max(counts)
        for count, weight in zip(counts, weights):
            assert abs(count / 300 - weight) < 0.1


def test_mandate_samples_never_read_a_rivals_real_pick():
    """Two positions differing only in a rival's face-down pick give the seat the
    same observation and the same samples (the real pick does not leak), and
    every sample shows the seat what the real position shows it."""
    _, state, rival = _mandate_before_and_after_pick()
    seat = state.current_player()
    other = state.clone()
    other.selections[rival] = next(m.mode for m in choices(state, rival) if m.mode != state.selections[rival])
    assert MANDATE.observation(state, seat) == MANDATE.observation(other, seat)
    seen = MANDATE.observation(state, seat)
    for k in range(20):
        a, b = MANDATE.determinize(state, seat, Rng(k)), MANDATE.determinize(other, seat, Rng(k))
        assert a.selections == b.selections and a.deck == b.deck and a.headline_decks == b.headline_decks
        assert MANDATE.observation(a, seat) == seen
