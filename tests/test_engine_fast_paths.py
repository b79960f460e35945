"""The engines' fast paths give exactly what the plain paths give.

- ``sample_legal_action(rng)`` draws what ``rng.choice(legal_actions())`` draws
  and picks the same action; ``legal_action_count()`` and ``legal_action(i)``
  agree with the listing (every game, every player count, along random games);
- Meaning Made's ``action_values`` (look-aheads shared by Touchpoints and by
  Gathers the evaluation cannot tell apart) equals one look-ahead per action,
  for the mover and for every other seat, with and without the conversion.
"""

from __future__ import annotations

import pytest

from workbench.core.game import Game
from workbench.core.registry import get_game
from workbench.core.rng import Rng


def _walk(game, players: int, seed: int, steps: int, **options):
    """Positions along a random game (the state itself, advanced in place)."""
    state = game.new_initial_state(game.config(players, seed=seed, **options))
    rng = Rng(seed + 1000)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize("options", [{}, {"conversion": False}, {"conversion_action": True}])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_meaning_made_action_values_equal_one_look_ahead_per_action(players, options):
    game = get_game("meaning-made")
    checked = 0
    for seed in (3, 4, 5):   # three seeds: a random solo game may end early
        for state in _walk(game, players, seed, 120, **options):
            actions = state.legal_actions()
            for seat in range(players):
                assert game.action_values(state, seat, actions) == Game.action_values(game, state, seat, actions)
            checked += 1
    assert checked > 40


def test_mandate_player_copy_copies_every_slot():
    """``Player.copy`` writes each slot out by hand: a new slot must be added there.
    Only the slots named in ``SHARED_SLOTS`` (replaced, never changed in place) are shared."""
    game = get_game("mandate-2038")
    state = game.new_initial_state(game.config(4, seed=2))
    from workbench.games.mandate_2038.state import PLAYER_FIELDS, Player
    shared = set(type(state.players[0]).SHARED_SLOTS)
    if hasattr(Player, "__slots__"):  # the interpreted class (a compiled one has fixed fields, no __slots__)
        assert tuple(Player.__slots__) == PLAYER_FIELDS
    for p in state.players:
        c = p.copy()
        for name in PLAYER_FIELDS:
            assert getattr(c, name) == getattr(p, name), name
            if isinstance(getattr(p, name), (list, dict)) and name not in shared:
                assert getattr(c, name) is not getattr(p, name), f"{name} is shared, not copied"


def test_mandate_clones_keep_their_players_shared_parts():
    """A clone taken at any point keeps the projects, milestones and Era records
    it had then, after the original plays on (they are shared between copies)."""
    game = get_game("mandate-2038")
    names = type(game.new_initial_state(game.config(2, seed=1)).players[0]).SHARED_SLOTS
    kept = []
    for seed in range(1, 7):
        for state in _walk(game, 3, seed, 400):
            twin = state.clone()
            kept.append((twin, [repr([getattr(p, n) for n in names]) for p in twin.players]))
    assert len(kept) > 300
    for twin, before in kept:
        assert [repr([getattr(p, n) for n in names]) for p in twin.players] == before


def _mandate_snapshot(state) -> str:
    """Everything a look-ahead could disturb in a Mandate position, as text."""
    from workbench.games.mandate_2038.state import PLAYER_FIELDS
    players = [[getattr(p, n) for n in PLAYER_FIELDS] for p in state.players]
    return repr((players, state.deck, state.discard, state.rng.state, state.ventures, state.pending, state.run,
                 state.events, state.phase, state.decider, state.bag_black, state.black_supply, state.selections))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_mandate_action_values_equal_one_look_ahead_per_action(players):
    """Mandate's ``action_values`` (one look-ahead shared by all exchange offers)
    equals one full look-ahead per action, for the mover and for every other seat."""
    from workbench.core.bots import make_bots
    game = get_game("mandate-2038")
    checked = offers = 0
    resolved = set()
    for seed, bots in ((3, "greedy"), (4, "random")):
        state = game.new_initial_state(game.config(players, seed=seed))
        bots, rng = make_bots(bots, players), Rng(seed)
        for _ in range(170):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            offers += sum(1 for a in actions if a.verb == "offer")
            if state.phase == "act":
                resolved.add(state.selections[state.decider])
            for seat in range(players):
                before = _mandate_snapshot(state)
                fast = game.action_values(state, seat, actions)
                assert _mandate_snapshot(state) == before, "a look-ahead changed the position"
                assert fast == Game.action_values(game, state, seat, actions)
            checked += 1
            state.apply_action(bots[state.current_player()].choose(game, state, rng))
    assert checked > 100 and offers > 10
    assert resolved == {"fund", "research", "build", "organize", "deploy", "influence"}


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038"])
def test_earlier_clones_never_see_later_play(game_id):
    """Clones share piles that play replaces instead of changing in place (Meaning
    Made's decks, discards, Events and completions; Mandate 2038's decks,
    timeline and results): a clone taken at any point still holds the piles it
    had then, after the original plays on (draws, reshuffles, recycles)."""
    from workbench.games.meaning_made.state import SHARED_PILES
    game = get_game(game_id)
    names = SHARED_PILES if game_id == "meaning-made" else (
        "deck", "discard", "headline_decks", "timeline", "mandate_decks", "mandate_results")
    kept = []
    for seed in range(1, 9):
        for state in _walk(game, 3, seed, 400):
            twin = state.clone()
            kept.append((twin, {n: repr(getattr(twin, n)) for n in names}))
    assert len(kept) > 300
    for twin, piles in kept:
        assert {n: repr(getattr(twin, n)) for n in names} == piles


def test_meaning_made_scenario_steps_edit_their_own_piles():
    """A scenario step that reorders the Event deck leaves an earlier clone alone."""
    game = get_game("meaning-made")
    state = game.new_initial_state(game.config(2, seed=4, events="scripted"))
    twin = state.clone()
    before = (list(twin.event_deck), list(twin.events), list(twin.event_discard))
    letter = state.event_deck[-1]
    game.scenario_step(state, {"event": {"id": letter}})
    assert (twin.event_deck, twin.events, twin.event_discard) == before
    assert state.events[-1] == letter


def test_pax_sampling_reaches_every_block_of_the_list():
    """Pax builds only the drawn action where it can (Syndicates only counted,
    Imports indexed): every index of the list, drawn by many streams, is the
    listed action, whichever block (Fundraise, Syndicate, the rest, Import, end)
    it falls in."""
    game = get_game("pax-transhumanity")
    kinds = set()
    for players in (2, 3):
        for state in _walk(game, players, 5, 120):
            legal = state.legal_actions()
            for r in range(12):
                a, b = Rng(1000 * r + len(legal)), Rng(1000 * r + len(legal))
                action, k = state.sample_legal_action(a)
                assert (action, k) == (b.choice(legal), len(legal))
                kinds.add(action.kind)
    assert {"fundraise", "syndicate", "import", "end"} <= kinds


def test_pax_sampling_matches_the_listing_in_every_part_of_it():
    """Many draws per position, so that every stretch of the listing the sample
    only counts (Syndicates, Placates, Imports) is drawn from, not just built."""
    game = get_game("pax-transhumanity")
    kinds: set = set()
    for players in (2, 3, 4):
        for state in _walk(game, players, 5, 400):
            # Placate counts by walking the Heat table: it holds the Market's ideas
            assert sorted(state.heat) == sorted(state.market_ideas())
            legal = state.legal_actions()
            for j in range(12):
                a, b = Rng(j), Rng(j)
                action, k = state.sample_legal_action(a)
                assert (action, k) == (b.choice(legal), len(legal))
                assert a.state == b.state
                kinds.add(action.kind)
    assert {"syndicate", "placate", "import", "hire", "fundraise", "end"} <= kinds
