"""The game contract, checked on every registered game and the toy template.

What every game must do whatever its rules (the idea of pgx's ``api_test`` and
OpenSpiel's ``random_sim_test``): a refused action changes nothing, the notation
round-trips for every legal action, clones are independent, a seed rebuilds the
same game, random games end within the action limit, ``observe()`` is JSON, the
declared options are complete and the scenario files load. A fourth game added
to the registry is checked here without a new line of test code.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from workbench.core.errors import WorkbenchError
from workbench.core.game import Game, Option
from workbench.core.registry import game_ids, get_game
from workbench.core.rng import Rng, derive_seed
from workbench.core.scenario import CARDS_KEY, load_scenario, scenario_files, stated_pool_game
from workbench.games.pebble_race import GAME as TOY

TOY_SCENARIO = Path(__file__).parent / "data" / "pebble-race-market.yaml"
GAMES = {gid: get_game(gid) for gid in game_ids()}
GAMES[TOY.id] = TOY
IDS = list(GAMES)

#: actions before a random game counts as never ending (well above any real game)
ACTION_LIMIT = 20_000
SEEDS = (1, 2)


def _players(game: Game) -> list[int]:
    return sorted({game.min_players, game.default_players, game.max_players})


def _snapshot(state) -> bytes:
    """Everything the state holds, its random stream included, as bytes."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def walk_state_restore(data: bytes):
    """A state back from its snapshot (after an accepted probe)."""
    return pickle.loads(data)


def _random_walk(game: Game, players: int, seed: int, steps: int):
    """Positions of a seeded random game, at most ``steps`` actions long:
    ``(state, chosen action)`` pairs, the state before the action."""
    state = game.new_initial_state(game.config(players, seed=seed))
    rng = Rng(derive_seed(seed, "contract"))
    out = []
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        out.append((state.clone(), action))
        state.apply_action(action)
    return out, state


@pytest.fixture(params=IDS)
def game(request) -> Game:
    return GAMES[request.param]


def test_declares_the_contract(game):
    assert game.id and game.name
    assert 1 <= game.min_players <= game.default_players <= game.max_players
    assert isinstance(game.version, str) and game.version
    for name, spec in game.options.items():
        assert isinstance(spec, Option), name
        assert spec.doc, f"option {name} has no doc"
        if spec.choices() is not None:
            assert spec.default in spec.choices() or spec.default is None, name
    # the default weights are numbers, each named as a weight the game reads
    assert all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in game.default_weights.values())
    readable = game.weight_names()
    if readable is not None:
        assert set(game.default_weights) <= set(readable), set(game.default_weights) - set(readable)
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    feats = game.features(state, 0)
    assert isinstance(feats, dict)
    if feats and game.default_weights:
        assert set(feats) <= set(game.default_weights), "every feature has a default weight"


def test_unknown_option_is_refused(game):
    with pytest.raises(WorkbenchError):
        game.new_initial_state(game.config(game.default_players, seed=1, no_such_option_xyz=1))


def test_option_defaults_play_like_no_options(game):
    """Giving every option its declared default changes nothing."""
    defaults = {k: o.default for k, o in game.options.items() if o.default is not None}
    plain = game.new_initial_state(game.config(game.default_players, seed=3))
    given = game.new_initial_state(game.config(game.default_players, seed=3, **defaults))
    assert game.observe(plain) == game.observe(given)
    assert [str(a) for a in plain.legal_actions()] == [str(a) for a in given.legal_actions()]


@pytest.mark.parametrize("players_index", [0, 1, 2])
def test_seed_rebuilds_the_same_game(game, players_index):
    counts = _players(game)
    players = counts[min(players_index, len(counts) - 1)]
    walk_a, end_a = _random_walk(game, players, 5, 120)
    walk_b, end_b = _random_walk(game, players, 5, 120)
    assert [str(a) for _, a in walk_a] == [str(a) for _, a in walk_b]
    assert _snapshot(end_a) == _snapshot(end_b)
    assert game.observe(end_a) == game.observe(end_b)


def test_random_games_end_within_the_limit(game):
    for players in _players(game):
        for seed in SEEDS:
            walk, end = _random_walk(game, players, seed, ACTION_LIMIT)
            assert end.is_terminal(), f"{players} players, seed {seed}: not over after {ACTION_LIMIT} actions"
            result = game.result(end)
            assert set(result.scores) == set(end.config.players)
            assert set(result.winners) <= set(end.config.players)
            json.dumps(game.observe(end))


def test_player_roles_are_declared_and_fixed_for_the_game(game):
    """``player_role``: a name per seat for a game with a ``role_label``, kept
    from setup to the end and rebuilt by the seed; None everywhere otherwise."""
    for players in _players(game):
        walk, end = _random_walk(game, players, 4, 300)
        first = walk[0][0] if walk else end
        roles = [game.player_role(first, s) for s in range(players)]
        assert roles == [game.player_role(end, s) for s in range(players)], "a seat's role changed in play"
        again = game.new_initial_state(game.config(players, seed=4))
        assert roles == [game.player_role(again, s) for s in range(players)]
        if game.role_label is None:
            assert roles == [None] * players
        else:
            assert isinstance(game.role_label, str) and game.role_label
            assert all(isinstance(r, str) and r for r in roles), roles


def test_notation_round_trips_for_every_legal_action(game):
    walk, _ = _random_walk(game, game.default_players, 1, 60)
    for state, _ in walk:
        for action in state.legal_actions():
            text = game.format_action(state, action)
            back = game.parse_action(state, text)
            assert back == action, f"{text!r} parses to {back!r}, not {action!r}"
            assert game.format_action(state, back) == text


def test_refused_action_changes_nothing(game):
    """Actions legal elsewhere in the game but not listed now: each one the engine
    refuses is refused with a reason and leaves the state (its random stream
    included) as it was. (An engine may accept an unlisted action that is
    equivalent to a listed one, e.g. Meaning Made lists one of several
    contributions that have the same effect.)"""
    walk, _ = _random_walk(game, game.default_players, 2, 80)
    seen = {}
    for state, _ in walk:
        for a in state.legal_actions():
            seen.setdefault(str(a), a)
    refused = 0
    for state, _ in walk[::4]:
        legal = {str(a) for a in state.legal_actions()}
        before = _snapshot(state)
        for text, action in list(seen.items())[:40]:
            if text in legal:
                continue
            try:
                state.apply_action(action)
            except WorkbenchError as exc:
                assert str(exc), "a refusal says why"
                assert _snapshot(state) == before, f"refused {text!r} changed the state"
                refused += 1
            else:
                state = walk_state_restore(before)
                before = _snapshot(state)
    assert refused > 0


def test_an_accepted_unlisted_action_is_a_listed_one_in_effect(game):
    """An engine may accept an action its list leaves out only when that action
    does exactly what a listed one does (same observed position afterwards);
    anything else is a rule the legal list and the engine disagree on."""
    for seed in (2, 5):
        walk, _ = _random_walk(game, game.default_players, seed, 150)
        seen = {}
        for state, _ in walk:
            for a in state.legal_actions():
                seen.setdefault(str(a), a)
        for state, _ in walk[::3]:
            legal = state.legal_actions()
            listed = {str(a) for a in legal}
            results = None
            for text, action in seen.items():
                if text in listed:
                    continue
                probe = state.clone()
                try:
                    probe.apply_action(action)
                except WorkbenchError:
                    continue
                if results is None:
                    results = set()
                    for a in legal:
                        after = state.clone()
                        after.apply_action(a)
                        results.add(json.dumps(game.observe(after), sort_keys=True))
                assert json.dumps(game.observe(probe), sort_keys=True) in results, \
                    f"{game.format_action(state, action)!r} is accepted, not listed, and no listed action does the same"


def test_clones_are_independent(game):
    walk, _ = _random_walk(game, game.default_players, 3, 40)
    for state, action in walk[::5]:
        before = _snapshot(state)
        twin = state.clone()
        assert _snapshot(twin) == before
        twin.apply_action(action)
        assert _snapshot(state) == before, "applying to a clone changed the original"
        again = state.clone()
        state.apply_action(action)
        assert _snapshot(again) == before, "applying to the original changed an earlier clone"
        assert _snapshot(twin) == _snapshot(state), "the same action on equal states differs"


def test_observe_is_json(game):
    walk, end = _random_walk(game, game.default_players, 4, 200)
    for state, _ in walk[::20] + [(end, None)]:
        obs = game.observe(state)
        assert isinstance(obs, dict)
        assert json.loads(json.dumps(obs, allow_nan=False)) == json.loads(json.dumps(obs))


def test_determinize_keeps_what_the_seat_sees(game):
    walk, _ = _random_walk(game, game.default_players, 6, 30)
    state = walk[-1][0]
    seat = state.current_player()
    sample = game.determinize(state, seat, Rng(9))
    assert sample is not state
    assert [str(a) for a in sample.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_scenario_files_load(game):
    files = [TOY_SCENARIO] if game is TOY else scenario_files(game.id)
    assert files
    for path in files:
        data = load_scenario(path)
        if data.get("game") not in (None, game.id):
            continue
        setup = dict(data.get("setup") or {})
        stated = setup.pop(CARDS_KEY, None)  # the card values it relies on: a pool, not a position
        try:
            played = game if stated is None else stated_pool_game(game, stated)
            played.scenario_state(setup)
        except WorkbenchError as exc:  # a scenario that checks a refusal of its own setup
            assert data.get("expect_refused") or data.get("expect_error") or "error" in str(data), \
                f"{path.name}: {exc}"


def test_drawing_is_a_figure_or_none(game):
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    fig = game.drawing(state)
    assert fig is None or hasattr(fig, "renderers")


def test_toy_scenario_runs():
    from workbench.core.scenario import run_file
    assert run_file(TOY_SCENARIO, game=TOY).passed


def test_injected_pool_is_the_one_played(game):
    """``Game(cards=...)`` plays the given pool, never the folder's."""
    pool = game.cards()
    if pool is None:
        pytest.skip("no card data")
    bound = game.with_cards(pool)
    assert bound.cards() is pool
    assert type(pool) is game.card_pool_type
    a = bound.new_initial_state(bound.config(game.default_players, seed=1))
    b = game.new_initial_state(game.config(game.default_players, seed=1))
    assert game.observe(a) == game.observe(b)


@pytest.mark.parametrize("text", ["", "xyzzy", "take", "123 456 789", "contribute Nowhere with Q"])
def test_bad_notation_is_one_clear_refusal(game, text):
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    before = _snapshot(state)
    with pytest.raises(WorkbenchError) as err:
        state.apply_action(game.parse_action(state, text))
    assert str(err.value) and "\n" not in str(err.value)
    assert _snapshot(state) == before
