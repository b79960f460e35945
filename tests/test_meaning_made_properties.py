"""Property tests: random legal play of Meaning Made (and games with greedy
seats mixed in), over every player count (1-6) and every variant and
combination of variants, never breaks the game's invariants. About two thousand
games per run.

After every action:
- no token pile is negative, and each track stays in its range (Meaning 0-12,
  World Layer 1-10 and never lower than before, Vitals 0-10, Legacy 0-30);
- every card is in exactly one place (deck, discard, Prism, Index, End slot,
  palette, completed; Events in deck, discard or in play);
- a player's markers out on Initiatives plus those in supply are four; the
  Community's likewise; Fragile exactly when Vitals are 0;
- the game ends within its round limit.

Also: a refused action leaves the state exactly as it was; every legal action's
notation parses back to the same action; a clone is independent; the same seed
and the same actions give the same game.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from workbench.core.bots import GreedyBot, RandomBot
from workbench.core.errors import WorkbenchError
from workbench.core.registry import get_game
from workbench.core.rng import Rng, derive_seed
from workbench.games.meaning_made.state import COMMUNITY, PLAYER_FIELDS, fields

GAME = get_game("meaning-made")
VARIANTS = sorted(GAME.variants)
ROUND_LIMIT = 12
MAX_ACTIONS = 5000

PROPS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

players_st = st.integers(min_value=1, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
# cooperative + competitive is refused (ruling variants-contradictory), so never drawn together
CONTRADICTORY = {"cooperative", "competitive"}
variants_st = st.lists(st.sampled_from(VARIANTS), unique=True, max_size=4).filter(
    lambda vs: not CONTRADICTORY <= set(vs))


def new_game(players: int, seed: int, variants=(), **options):
    options.setdefault("round_limit", ROUND_LIMIT)
    return GAME.new_initial_state(GAME.config(players, seed=seed, variants=variants, **options))


def snapshot(state) -> dict:
    out = {}
    for key, value in fields(state).items():
        if key in ("config", "rules", "cards"):
            continue
        if key == "rng":
            out[key] = value.state
        elif key == "players":
            out[key] = [tuple(list(v) if isinstance(v, list) else v
                              for v in (getattr(p, s) for s in PLAYER_FIELDS)) for p in value]
        elif key == "progress":
            out[key] = sorted((k, tuple(sorted(v.filled.items())), tuple(v.markers)) for k, v in value.items())
        elif isinstance(value, list):
            out[key] = list(value)
        else:
            out[key] = value
    return out


def check_invariants(state, previous_world_layer: int, round_limit: int = ROUND_LIMIT) -> None:
    cards = state.cards
    assert 0 <= state.meaning <= 12, state.meaning
    assert 1 <= state.world_layer <= 10, state.world_layer
    assert state.world_layer >= previous_world_layer, "the World Layer moved backward"
    assert state.round <= round_limit
    for seat, p in enumerate(state.players):
        who = state.player_name(seat)
        assert p.E >= 0 and p.I >= 0 and p.S >= 0, (who, p.E, p.I, p.S)
        assert 0 <= p.vitals <= 10, (who, p.vitals)
        assert 0 <= p.legacy <= 30, (who, p.legacy)
        assert p.fragile == (p.vitals == 0), (who, p.vitals, p.fragile)
        out = sum(prog.markers.count(seat) for prog in state.progress.values())
        assert 0 <= p.markers <= 4 and out + p.markers == 4, (who, out, p.markers)
        for prog in state.progress.values():
            assert prog.markers.count(seat) <= 1, "two markers of one player on one Initiative"
    community_out = sum(prog.markers.count(COMMUNITY) for prog in state.progress.values())
    if len(state.players) == 1:
        assert community_out + state.community == 4
    else:
        assert community_out == 0
    for name, prog in state.progress.items():
        assert name in state.face_up_initiatives(), f"progress on {name}, which is not face up"
        assert len(prog.markers) <= cards.initiatives[name].order_spaces
        assert all(v >= 0 for v in prog.filled.values())

    # Every card in exactly one place.
    expected = _all_cards(cards)
    patterns = state.pattern_deck + state.pattern_discard + [n for n in state.prism if n is not None]
    for p in state.players:
        patterns += p.palette
    if sorted(patterns) != expected[0]:
        diff = (Counter(patterns) - Counter(expected[0])) + (Counter(expected[0]) - Counter(patterns))
        raise AssertionError(f"Patterns missing or in two places: {dict(diff)}")
    initiatives = state.init_deck + state.init_discard + state.completed + [
        n for n in state.index if n is not None] + ([state.end] if state.end is not None else [])
    if sorted(initiatives) != expected[1]:
        diff = (Counter(initiatives) - Counter(expected[1])) + (Counter(expected[1]) - Counter(initiatives))
        raise AssertionError(f"Initiatives missing or in two places: {dict(diff)}")
    events = state.event_deck + state.event_discard + state.events
    assert sorted(events) == expected[2], sorted(events)

    if state.is_terminal():
        assert state.legal_actions() == []
        assert GAME.result(state).ending in ("survived", "collapsed", "timeout")


_EXPECTED: dict = {}


def _all_cards(cards):
    key = id(cards)
    if key not in _EXPECTED:
        _EXPECTED[key] = (sorted(cards.patterns), sorted(cards.initiatives), sorted(cards.events))
    return _EXPECTED[key]


def play_random(state, seed: int, check=True, on_state=None):
    """Random legal play to the end; returns the actions taken."""
    rng = Rng(derive_seed(seed, "property-bot"))
    log = []
    layer = state.world_layer
    while not state.is_terminal():
        assert len(log) < MAX_ACTIONS, "the game did not end"
        legal = state.legal_actions()
        assert legal, "a live game with no legal action"
        action = rng.choice(legal)
        if on_state is not None:
            on_state(state, action, rng)
        state.apply_action(action)
        log.append(action)
        if check:
            check_invariants(state, layer)
            layer = state.world_layer
    return log


# ---------------------------------------------------------------- invariants

@settings(PROPS, max_examples=800)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_random_games_keep_every_invariant(players, seed, variants):
    # Two games per example (the seed and its neighbour): more games for the
    # same shrinking cost.
    for game_seed in (seed, seed ^ 1):
        state = new_game(players, game_seed, variants)
        check_invariants(state, 1)
        play_random(state, game_seed)
        assert state.is_terminal()
        assert state.round <= ROUND_LIMIT


@settings(PROPS, max_examples=200)
@given(players=players_st, seed=seed_st, variant=st.sampled_from(VARIANTS))
def test_every_variant_alone_keeps_every_invariant(players, seed, variant):
    state = new_game(players, seed, [variant])
    play_random(state, seed)
    assert state.is_terminal()


@settings(PROPS, max_examples=15)
@given(seed=seed_st, difficulty=st.sampled_from(["easy", "standard", "hard"]))
def test_solo_difficulties_keep_every_invariant(seed, difficulty):
    state = new_game(1, seed, (), difficulty=difficulty)
    play_random(state, seed)


@settings(PROPS, max_examples=8)
@given(players=st.integers(min_value=2, max_value=6), seed=seed_st)
def test_games_end_within_the_default_round_limit(players, seed):
    state = GAME.new_initial_state(GAME.config(players, seed=seed))
    limit = state.rules.round_limit
    play_random(state, seed, check=False)
    assert state.is_terminal() and state.round <= limit


@settings(PROPS, max_examples=24)
@given(players=players_st, seed=seed_st, variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=2).filter(
           lambda vs: not CONTRADICTORY <= set(vs)),
       greedy=st.lists(st.booleans(), min_size=6, max_size=6))
def test_greedy_and_mixed_games_keep_every_invariant(players, seed, variants, greedy):
    """Random play rarely completes an Initiative; greedy seats do, so these
    games reach completions, the End Initiative and survival as well."""
    state = GAME.new_initial_state(GAME.config(players, seed=seed, variants=variants))
    bots = [GreedyBot() if g else RandomBot() for g in greedy[:players]]
    rngs = [Rng(derive_seed(seed, "bot", seat)) for seat in range(players)]
    layer, steps = 1, 0
    while not state.is_terminal():
        steps += 1
        assert steps < MAX_ACTIONS, "the game did not end"
        seat = state.current_player()
        state.apply_action(bots[seat].choose(GAME, state, rngs[seat]))
        check_invariants(state, layer, round_limit=state.rules.round_limit)
        layer = state.world_layer


# ---------------------------------------------------------------- refusals

CANDIDATES = [
    "gather 2E", "gather E I", "gather 2S", "gather 3E",
    "load Shell", "load Pulse with E", "load Scaffold with 2E", "load Valence Tag",
    "contribute Listening Circle", "contribute Stewardship with 3E", "contribute Trade Standard with S",
    "touchpoint give E to Alex", "touchpoint give S to Brooke", "touchpoint request I from Casey",
    "accept", "decline", "donate", "pass", "convert", "recycle prism", "recycle index",
]


@settings(PROPS, max_examples=25)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_refused_actions_change_nothing_and_legal_ones_never_fail(players, seed, variants):
    state = new_game(players, seed, variants)
    checked = [0]

    def probe(s, chosen, rng):
        # At the start and then every few steps, throw a handful of texts at the position.
        if checked[0] and rng.randbelow(4):
            return
        for text in CANDIDATES:
            try:
                action = GAME.parse_action(s, text)
            except WorkbenchError:
                continue
            trial = s.clone()
            before = snapshot(trial)
            try:
                trial.apply_action(action)
            except WorkbenchError as exc:
                assert str(exc), text
                assert snapshot(trial) == before, f"refused {text!r} changed the state"
                checked[0] += 1
        # A listed action always applies.
        trial = s.clone()
        trial.apply_action(chosen)

    play_random(state, seed, check=False, on_state=probe)
    assert checked[0] > 0


# ---------------------------------------------------------------- notation, clones, determinism

@settings(PROPS, max_examples=25)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_every_legal_action_round_trips_through_notation(players, seed, variants):
    state = new_game(players, seed, variants)

    def round_trip(s, chosen, rng):
        for action in s.legal_actions():
            text = GAME.format_action(s, action)
            again = GAME.parse_action(s, text)
            assert again == action, (text, action, again)
            assert GAME.format_action(s, again) == text

    play_random(state, seed, check=False, on_state=round_trip)


@settings(PROPS, max_examples=25)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_clones_are_independent(players, seed, variants):
    state = new_game(players, seed, variants)

    def fork(s, chosen, rng):
        if rng.randbelow(3):
            return
        before = snapshot(s)
        twin = s.clone()
        assert snapshot(twin) == before
        # Play the clone on; the original must not move.
        twin.apply_action(chosen)
        while not twin.is_terminal() and rng.randbelow(5):
            twin.apply_action(rng.choice(twin.legal_actions()))
        assert snapshot(s) == before, "playing a clone changed the original"

    play_random(state, seed, check=False, on_state=fork)


@settings(PROPS, max_examples=25)
@given(players=players_st, seed=seed_st, variants=variants_st)
def test_same_seed_and_actions_give_the_same_game(players, seed, variants):
    first = new_game(players, seed, variants)
    log = play_random(first, seed, check=False)
    second = new_game(players, seed, variants)
    for action in log:
        second.apply_action(GAME.parse_action(second, GAME.format_action(second, action)))
    assert snapshot(second) == snapshot(first)
    assert GAME.result(second) == GAME.result(first)


def test_different_seeds_deal_different_games():
    a = new_game(4, 1)
    b = new_game(4, 2)
    assert (a.prism, a.index, a.event_deck) != (b.prism, b.index, b.event_deck)
