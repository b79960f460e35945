"""The conformance kit's contract checks: what every game must do whatever its
rules (the idea of pgx's ``api_test`` and OpenSpiel's ``random_sim_test``).

A refused action changes nothing, the notation round-trips for every legal
action, clones are independent, a seed rebuilds the same game, random games end
within the action limit, ``observe()`` is JSON, the declared options are
complete, sampling a legal action agrees with the listing, the declared
capabilities import and the scenario files load. Each check takes the game and
the kit's budget and returns one line per broken promise."""

from __future__ import annotations

import json

from workbench.core.errors import WorkbenchError
from workbench.core.game import Game, Option
from workbench.core.rng import Rng

from .walks import player_counts, random_walk, restore, snapshot


def check_declarations(game: Game, kit) -> list[str]:
    """Id, name, player counts, version, options with a doc line and a valid
    default, numeric default weights naming weights the game reads, features
    with a default weight each, the game's type record (``game_type()``), the
    words it gives the rules review (``rules_words``: concepts the lexicons leave to
    the games), and every declared capability importable."""
    from workbench.core.game import resolve
    out = []
    if not (game.id and game.name):
        out.append("no id or name")
    if not 1 <= game.min_players <= game.default_players <= game.max_players:
        out.append(f"player counts out of order: {game.min_players}, {game.default_players}, {game.max_players}")
    if not (isinstance(game.version, str) and game.version):
        out.append("no version string")
    for name, spec in game.options.items():
        if not isinstance(spec, Option):
            out.append(f"option {name} is not an Option")
            continue
        if not spec.doc:
            out.append(f"option {name} has no doc line")
        if spec.choices() is not None and spec.default is not None and spec.default not in spec.choices():
            out.append(f"option {name}: default {spec.default!r} is not one of its choices")
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in game.default_weights.values()):
        out.append("a default weight is not a number")
    readable = game.weight_names()
    if readable is not None and not set(game.default_weights) <= set(readable):
        out.append(f"default weights the game never reads: {sorted(set(game.default_weights) - set(readable))}")
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    feats = game.features(state, 0)
    if not isinstance(feats, dict):
        out.append("features() is not a dict")
    elif feats and game.default_weights and not set(feats) <= set(game.default_weights):
        out.append(f"features without a default weight: {sorted(set(feats) - set(game.default_weights))}")
    try:
        kind = game.game_type()
        if kind.information != ("imperfect" if game.hidden_information else "perfect"):
            out.append("game_type() reads another information than hidden_information declares")
    except (ValueError, TypeError) as exc:
        out.append(f"game_type() cannot be built from the declarations: {exc}")
    if game.rules_words:
        from workbench.core.game import rules_words_problems
        out += rules_words_problems(game.rules_words)
    from workbench.core.game import PARTS
    for attr in PARTS:
        ref = getattr(game, attr, None)
        if ref is not None:
            try:
                resolve(ref)
            except Exception as exc:  # noqa: BLE001 - every failure is a finding
                out.append(f"{attr} = {str(ref)!r} does not import: {exc}")
    return out


def check_options(game: Game, kit) -> list[str]:
    """An unknown option is refused, and giving every option its default changes nothing."""
    out = []
    try:
        game.new_initial_state(game.config(game.default_players, seed=1, no_such_option_xyz=1))
        out.append("an unknown option was accepted")
    except WorkbenchError:
        pass
    defaults = {k: o.default for k, o in game.options.items() if o.default is not None}
    plain = game.new_initial_state(game.config(game.default_players, seed=3))
    given = game.new_initial_state(game.config(game.default_players, seed=3, **defaults))
    if game.observe(plain) != game.observe(given) or \
            [str(a) for a in plain.legal_actions()] != [str(a) for a in given.legal_actions()]:
        out.append("giving every option its declared default plays another game")
    return out


def check_seed_rebuilds_the_game(game: Game, kit) -> list[str]:
    """The same seed and actions give the same game, at every player count."""
    out = []
    for players in player_counts(game):
        walk_a, end_a = random_walk(game, players, 5, 120)
        walk_b, end_b = random_walk(game, players, 5, 120)
        if [str(a) for _, a in walk_a] != [str(a) for _, a in walk_b] or snapshot(end_a) != snapshot(end_b):
            out.append(f"{players} players: seed 5 played twice gave two games")
        log = [game.format_action(s, a) for s, a in walk_a]
        again = game.new_initial_state(game.config(players, seed=5))
        for text in log:
            again.apply_action(game.parse_action(again, text))
        if game.observe(again) != game.observe(end_a):
            out.append(f"{players} players: replaying the game's notation gave another position")
    return out


def check_random_games_end(game: Game, kit) -> list[str]:
    """Random games end within the action limit, with a result naming the players."""
    out = []
    for players in player_counts(game):
        for seed in kit.seeds:
            _, end = random_walk(game, players, seed, kit.action_limit)
            if not end.is_terminal():
                out.append(f"{players} players, seed {seed}: not over after {kit.action_limit} actions")
                continue
            result = game.result(end)
            if set(result.scores) != set(end.config.players) or not set(result.winners) <= set(end.config.players):
                out.append(f"{players} players, seed {seed}: the result names other players")
            try:
                json.dumps(game.observe(end))
            except TypeError as exc:
                out.append(f"{players} players, seed {seed}: observe() at the end is not JSON: {exc}")
    return out


def check_player_roles(game: Game, kit) -> list[str]:
    """A name per seat for a game with a ``role_label``, kept from setup to the
    end and rebuilt by the seed; None everywhere otherwise."""
    out = []
    for players in player_counts(game):
        walk, end = random_walk(game, players, 4, 300)
        first = walk[0][0] if walk else end
        roles = [game.player_role(first, s) for s in range(players)]
        if roles != [game.player_role(end, s) for s in range(players)]:
            out.append(f"{players} players: a seat's role changed in play")
        again = game.new_initial_state(game.config(players, seed=4))
        if roles != [game.player_role(again, s) for s in range(players)]:
            out.append(f"{players} players: the seed gave other roles")
        if game.role_label is None and roles != [None] * players:
            out.append("roles without a role_label")
        if game.role_label is not None and not all(isinstance(r, str) and r for r in roles):
            out.append(f"{players} players: a seat without a role: {roles}")
    return out


def check_notation_round_trips(game: Game, kit) -> list[str]:
    """Every legal action's notation parses back to the same action and prints the same."""
    walk, _ = random_walk(game, game.default_players, 1, 60)
    out = []
    for state, _ in walk:
        for action in state.legal_actions():
            text = game.format_action(state, action)
            back = game.parse_action(state, text)
            if back != action or game.format_action(state, back) != text:
                out.append(f"{text!r} parses to {back!r}, not {action!r}")
                if len(out) > 5:
                    return out
    return out


def check_refused_actions_change_nothing(game: Game, kit) -> list[str]:
    """Actions legal elsewhere in the game but not listed now: each one the
    engine refuses is refused with a one-line reason and leaves the state (its
    random stream included) as it was; made-up text is refused the same way."""
    walk, _ = random_walk(game, game.default_players, 2, 80)
    seen = {}
    for state, _ in walk:
        for a in state.legal_actions():
            seen.setdefault(str(a), a)
    out, refused = [], 0
    for state, _ in walk[::4]:
        legal = {str(a) for a in state.legal_actions()}
        before = snapshot(state)
        for text, action in list(seen.items())[:40]:
            if text in legal:
                continue
            try:
                state.apply_action(action)
            except WorkbenchError as exc:
                if not str(exc):
                    out.append(f"refusing {text!r} gave no reason")
                if snapshot(state) != before:
                    out.append(f"refused {text!r} changed the state")
                    return out
                refused += 1
            else:
                state = restore(before)
                before = snapshot(state)
    if walk and not refused:
        out.append("no action from elsewhere in the game was refused (the engine checks nothing)")
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    before = snapshot(state)
    for text in kit.bad_notation:
        try:
            state.apply_action(game.parse_action(state, text))
            out.append(f"the text {text!r} was played")
            break
        except WorkbenchError as exc:
            if not str(exc) or "\n" in str(exc):
                out.append(f"refusing {text!r} is not one line")
        if snapshot(state) != before:
            out.append(f"refusing {text!r} changed the state")
            break
    return out


def check_unlisted_actions_are_listed_ones_in_effect(game: Game, kit) -> list[str]:
    """An engine may accept an action its list leaves out only when that action
    does exactly what a listed one does (same observed position afterwards)."""
    out = []
    for seed in (2, 5):
        walk, _ = random_walk(game, game.default_players, seed, 150)
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
                if json.dumps(game.observe(probe), sort_keys=True) not in results:
                    out.append(f"{game.format_action(state, action)!r} is accepted, not listed, "
                               "and no listed action does the same")
                    return out
    return out


def check_clones_are_independent(game: Game, kit) -> list[str]:
    """A clone shares nothing with its original. Every position of two seeded
    walks: the walk's action and up to two other legal ones, each applied to its
    own clone, leave the original as it was (a list or mapping a move changes in
    place and the clone forgot to copy shows only at the positions where such a
    move is played, so every position is looked at, not a sample); every fifth
    position also checks the random stream and the other direction."""
    for seed in (3, 4):
        walk, _ = random_walk(game, game.default_players, seed, 40)
        for step, (state, action) in enumerate(walk):
            before = snapshot(state)
            legal = state.legal_actions()
            tried = [action] + [a for a in (legal[0], legal[-1]) if a != action]
            for move in dict.fromkeys(tried):
                probe = state.clone()
                try:
                    probe.apply_action(move)
                except WorkbenchError:
                    continue
                if snapshot(state) != before:
                    return [f"applying {game.format_action(state, move)!r} to a clone changed the original"]
            if step % 5:
                continue
            twin = state.clone()
            if snapshot(twin) != before:
                return ["a clone differs from its original"]
            # a stream shared with the copy shows only when the copy draws
            state.clone().rng.random()
            if snapshot(state) != before:
                return ["drawing from a clone's random stream moved the original's"]
            twin.apply_action(action)
            again = state.clone()
            state.apply_action(action)
            if snapshot(again) != before:
                return ["applying to the original changed an earlier clone"]
            if snapshot(twin) != snapshot(state):
                return ["the same action on equal states gave two states"]
    return []


def check_observe_is_json(game: Game, kit) -> list[str]:
    walk, end = random_walk(game, game.default_players, 4, 200)
    for state in [s for s, _ in walk[::20]] + [end]:
        obs = game.observe(state)
        if not isinstance(obs, dict):
            return ["observe() is not a dict"]
        try:
            if json.loads(json.dumps(obs, allow_nan=False)) != json.loads(json.dumps(obs)):
                return ["observe() does not read back equal"]
        except (TypeError, ValueError) as exc:
            return [f"observe() is not JSON: {exc}"]
    return []


def check_sampling_matches_the_listing(game: Game, kit) -> list[str]:
    """``sample_legal_action(rng)`` draws what ``rng.choice(legal_actions())``
    draws; ``legal_action_count()`` and ``legal_action(i)`` agree with the listing."""
    checked = 0
    for players in player_counts(game):
        for seed in kit.seeds:
            walk, _ = random_walk(game, players, seed, kit.sampling_steps, purpose="sampling")
            for state, _ in walk:
                legal = state.legal_actions()
                if state.legal_action_count() != len(legal):
                    return [f"{players} players, seed {seed}: legal_action_count() is not the listing's length"]
                for i in {0, len(legal) // 2, len(legal) - 1}:
                    if state.legal_action(i) != legal[i]:
                        return [f"{players} players, seed {seed}: legal_action({i}) is not the listing's"]
                a, b = Rng(checked), Rng(checked)
                if state.sample_legal_action(a) != (b.choice(legal), len(legal)) or a.state != b.state:
                    return [f"{players} players, seed {seed}: sample_legal_action draws otherwise than the listing"]
                checked += 1
    return []


def check_injected_pool_is_played(game: Game, kit) -> list[str]:
    """``Game(cards=...)`` plays the given pool, never the folder's."""
    pool = game.cards()
    if pool is None:
        return []
    bound = game.with_cards(pool)
    out = []
    if bound.cards() is not pool:
        out.append("with_cards(pool).cards() is another pool")
    if game.card_pool_type is not None and type(pool) is not game.card_pool_type:
        out.append(f"the pool is a {type(pool).__name__}, not the declared {game.card_pool_type.__name__}")
    a = bound.new_initial_state(bound.config(game.default_players, seed=1))
    b = game.new_initial_state(game.config(game.default_players, seed=1))
    if game.observe(a) != game.observe(b):
        out.append("the same pool injected plays another game")
    return out


def check_drawing(game: Game, kit) -> list[str]:
    state = game.new_initial_state(game.config(game.default_players, seed=1))
    fig = game.drawing(state)
    return [] if fig is None or hasattr(fig, "renderers") else [f"drawing() is a {type(fig).__name__}, not a figure"]


def check_scenarios_load(game: Game, kit) -> list[str]:
    """Every scenario file of the game's folder (or the kit's) builds its position."""
    from workbench.core.scenario import CARDS_KEY, load_scenario, scenario_files, stated_pool_game
    files = list(kit.scenario_files) if kit.scenario_files is not None else scenario_files(game.id)
    out = []
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
            if not (data.get("expect_refused") or data.get("expect_error") or "error" in str(data)):
                out.append(f"{path.name}: {exc}")
    return out


def check_fingerprint_walk(game: Game, kit) -> list[str]:
    """The quick walk a plugin's own test ran first: a made-up object is refused
    without changing the position, along ``kit.games`` seeded games."""
    out = []
    for g in range(kit.games):
        state = game.new_initial_state(game.config(game.default_players, seed=kit.seed + g))
        rng = Rng(kit.seed * 1000 + g)
        for _ in range(200):
            if state.is_terminal():
                break
            before = snapshot(state)
            try:
                state.apply_action(_Nothing())
                out.append(f"game {g}: a made-up action was accepted")
            except (WorkbenchError, TypeError, ValueError, AttributeError):
                pass
            if snapshot(state) != before:
                out.append(f"game {g}: a refused action changed the position")
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
    return out


class _Nothing:
    """An object no game's rules accept as an action."""

    def __repr__(self) -> str:
        return "<not an action>"
