"""Pax Transhumanity bot evaluation: how endings and long games are valued, and
that the leaner legal-move lists still list exactly the legal moves."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bots
from workbench.core.play import play_game
from workbench.games.pax_transhumanity import GAME
from workbench.games.pax_transhumanity import scoring
from workbench.games.pax_transhumanity.data import SPHERES
from workbench.games.pax_transhumanity.evaluation import (DEFAULT_WEIGHTS, FEATURE_ORDER, ending_value,
                                                         tycoon_progress)


def _finished(solved_counts):
    """A fresh 3-player game declared over by Plurality with the given number of
    problems solved per seat in a sphere nobody holds as Secret."""
    state = GAME.new_initial_state(GAME.config(3, seed=5))
    while state.decision is not None:          # the Secret sphere choices
        state.apply_action(state.legal_actions()[0])
    secrets = set(state.secret)
    sphere = next(s for s in ("yellow", "green", "blue", "orange") if s not in secrets)
    for seat, n in enumerate(solved_counts):
        state.solved[seat] = {sphere: n} if n else {}
    state.ending = "plurality"
    return state


def test_ending_value_follows_rank_and_margin():
    """Rivals' Secret spheres are hidden from the seat valuing the ending: a
    rival's score is the mean over the four spheres its Secret could be
    (Plurality: every solved problem, one more in the Secret sphere)."""
    state = _finished([3, 1, 0])
    assert scoring.scores(state) == [3, 1, 0]
    w = DEFAULT_WEIGHTS
    assert ending_value(state, 0, w) == w["win"] + w["margin"] * (3 - 1.25)
    # seat 1 sees itself at 1 and seat 0 at 3.75: second of three
    assert ending_value(state, 1, w) == w["loss"] / 2 + w["margin"] * (1 - 3.75)
    assert ending_value(state, 2, w) == w["loss"] + w["margin"] * (0 - 3.75)
    # with spend_by off every feature keeps its full weight
    values = [GAME.evaluate(state, s, {"spend_by": 0}) - sum(DEFAULT_WEIGHTS.get(k, 0) * v
                                                             for k, v in GAME.features(state, s).items())
              for s in range(3)]
    assert values == [ending_value(state, s, w) for s in range(3)]


def test_a_win_on_the_tie_break_alone_is_worth_less_than_a_win_on_points():
    state = _finished([0, 0, 0])
    state.fin[0][0], state.fin[1][0] = 5, 1
    assert scoring.winners(state) == [0]
    w = DEFAULT_WEIGHTS
    assert ending_value(state, 0, w) == w["tiebreak_win"] < w["win"]
    assert ending_value(state, 1, w) == w["loss"] / 2      # second place, level on points


def test_the_ending_value_reads_no_rival_secret():
    """Whatever the rivals' Secret spheres are, a seat values every ending the
    same (it cannot see them); its own Secret counts."""
    state = _finished([2, 2, 1])
    state.solved[0] = {"yellow": 1, "green": 1}
    before = [ending_value(state, 0, DEFAULT_WEIGHTS)]
    for secret in ("yellow", "green", "blue", "orange"):
        other = state.clone()
        other.secret[1] = other.secret[2] = secret
        before.append(ending_value(other, 0, DEFAULT_WEIGHTS))
    assert len(set(before)) == 1
    own = state.clone()
    # a Secret sphere with a solved problem in it against one without
    own.secret[0] = "orange" if state.secret[0] in ("yellow", "green") else "yellow"
    assert ending_value(own, 0, DEFAULT_WEIGHTS) != before[0]


def test_greedy_choices_read_no_rival_secret():
    """Along greedy games, the mover's action values do not change when the
    rivals' Secret spheres are swapped for others (look-aheads that end the
    game included)."""
    from workbench.core.rng import Rng
    compared = 0
    for seed in range(3):
        state = GAME.new_initial_state(GAME.config(3, seed=40 + seed))
        bots = make_bots("greedy", 3)
        rng = Rng(seed)
        while not state.is_terminal() and state.round <= 40:
            seat = state.current_player()
            if state.decision is None and all(state.secret):
                actions = state.legal_actions()
                values = GAME.action_values(state, seat, actions)
                other = state.clone()
                for s in range(3):
                    if s != seat:
                        other.secret[s] = SPHERES[(SPHERES.index(other.secret[s]) + 1 + s) % 4]
                assert GAME.action_values(other, seat, actions) == values
                compared += 1
            state.apply_action(bots[seat].choose(GAME, state, rng))
    assert compared > 50


def test_unfinished_positions_pay_the_stall_charge_per_round():
    state = GAME.new_initial_state(GAME.config(3, seed=2))
    w = {"spend_by": 0}                         # holdings at full weight, so only the stall charge moves
    early = GAME.evaluate(state, 0, w)
    state.round += 10
    assert GAME.evaluate(state, 0, w) == pytest.approx(early - 10 * DEFAULT_WEIGHTS["stall"])
    assert GAME.evaluate(state, 0, {"spend_by": 0, "stall": 0.0}) == pytest.approx(early + DEFAULT_WEIGHTS["stall"])
    state.ending = "timeout"                    # the safety stop is no ending: still charged
    assert GAME.evaluate(state, 0, w) == pytest.approx(early - 10 * DEFAULT_WEIGHTS["stall"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_turn_moves_the_evaluation_clock_by_the_same_step(players):
    """The stall charge and the shrinking holdings read the time in turns, so
    passing the turn costs every seat alike. With the round number alone only
    the last seat's turn ended a round: its look-ahead charged every move that
    did not end the game a round more than the other seats' did, and the last
    seat won most often at every player count (issue 15)."""
    from workbench.games.pax_transhumanity.flow import next_turn
    state = GAME.new_initial_state(GAME.config(players, seed=2))
    while state.decision is not None:          # the Secret sphere choices
        state.apply_action(state.legal_actions()[0])
    w = {"spend_by": 0}                        # holdings at full weight: only the stall charge moves
    steps = []
    for _ in range(2 * players):
        seat = state.turn
        before = GAME.evaluate(state, seat, w)
        next_turn(state)
        steps.append(before - GAME.evaluate(state, seat, w))
    assert steps == pytest.approx([DEFAULT_WEIGHTS["stall"] / players] * (2 * players))
    assert state.round == 3
    # turn_clock=0 (the evaluation before the fix): only the last seat's turn costs, a whole round
    old = {"spend_by": 0, "turn_clock": 0}
    steps = []
    for _ in range(players):
        seat = state.turn
        before = GAME.evaluate(state, seat, old)
        next_turn(state)
        steps.append(before - GAME.evaluate(state, seat, old))
    assert steps == pytest.approx([0.0] * (players - 1) + [DEFAULT_WEIGHTS["stall"]])
    # the holdings shrink by the same step on every turn too
    rich = state.clone()
    rich.fin[0][0] += 2
    gains = []
    for _ in range(players):
        gains.append(GAME.evaluate(rich, 0, {"stall": 0.0}) - GAME.evaluate(state, 0, {"stall": 0.0}))
        next_turn(state)
        next_turn(rich)
    diffs = [a - b for a, b in zip(gains, gains[1:])]
    assert diffs == pytest.approx([diffs[0]] * len(diffs)) and diffs[0] > 0


def test_money_held_is_worth_nothing_by_spend_by():
    state = GAME.new_initial_state(GAME.config(3, seed=2))
    state.round = 30
    rich = state.clone()
    rich.fin[0][0] += 4                        # four more agents in Capital
    w = {"spend_by": 30}
    assert GAME.evaluate(rich, 0, w) == pytest.approx(GAME.evaluate(state, 0, w))
    state.round = rich.round = 10
    assert GAME.evaluate(rich, 0, w) > GAME.evaluate(state, 0, w)


def test_tycoon_progress_grows_faster_near_the_fifth_company():
    settings = {"tycoon_company": 5}
    steps = [tycoon_progress(n + 1, settings) - tycoon_progress(n, settings) for n in range(4)]
    assert steps == sorted(steps) and steps[0] < steps[-1]


@pytest.mark.parametrize("seed", [3, 12])
def test_greedy_games_that_used_to_stall_now_end_by_the_rules(seed):
    # seed 12 (3 players) reached the round limit under the old flat -1000 evaluation,
    # seed 3 under a draft of this one that still valued hoarded money
    state, _ = play_game(GAME, GAME.config(3, seed=seed), make_bots("greedy", 3))
    assert state.ending in ("tipping-point", "singular", "plurality", "tycoon")


def test_listed_moves_are_exactly_the_legal_ones_along_a_random_game():
    """Every listed move applies; a sample of unlisted Imports and Syndicates is refused."""
    from workbench.core.errors import IllegalAction
    from workbench.core.rng import Rng
    from workbench.games.pax_transhumanity.notation import A
    state = GAME.new_initial_state(GAME.config(3, seed=9))
    rng = Rng(4)
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for action in legal:
            state.clone().apply_action(action)        # raises if a listed move is illegal
        if state.decision is None and state.actions_left > 0:
            listed = set(legal)
            for idea in state.market_ideas():
                for cand in (A("syndicate", idea, False), A("import", idea, "blue", 0)):
                    if cand not in listed:
                        with pytest.raises(IllegalAction):
                            state.clone().apply_action(cand)
        state.apply_action(rng.choice(legal))


# -- the greedy look-ahead's shortcuts give exactly what plain look-ahead gives --

def _positions(seeds=range(6), steps=160, every=3):
    """Positions of random and greedy games at every player count."""
    from workbench.core.rng import Rng
    out = []
    for seed in seeds:
        n = 1 + seed % 4
        state = GAME.new_initial_state(GAME.config(n, seed=seed))
        bots = make_bots("greedy" if seed % 2 else "random", n)
        rng = Rng(seed)
        for i in range(steps):
            if state.is_terminal():
                break
            if i % every == 0:
                out.append(state.clone())
            state.apply_action(bots[state.current_player()].choose(GAME, state, rng))
        out.append(state)
    return out


def _reference_features(state, seat):
    """The features worked out with the rule functions, one call per idea/colour."""
    from workbench.games.pax_transhumanity.commercialize import WAYS, feasible
    from workbench.games.pax_transhumanity.commercialize import cost as commercialize_cost
    from workbench.games.pax_transhumanity.data import SPHERES
    from workbench.games.pax_transhumanity.effects import companies_of
    from workbench.games.pax_transhumanity.evaluation import held_tipping_points, is_lowest
    from workbench.games.pax_transhumanity.finance import can_pay, patent_value, track_money
    from workbench.games.pax_transhumanity.labour import employees_of, labour_places
    held = state.patents[seat]
    liquid = track_money(state, seat) + sum((patent_value(state, c) + 1) * n for c, n in held.items())
    count = best = 0
    for sphere in SPHERES:
        for idea in state.market[sphere]:
            if idea is None or seat not in state.synd.get(idea, ()):
                continue
            ok = any(feasible(state, seat, idea, w) for w in WAYS)
            count += ok
            places = labour_places(state, seat, sphere, "M")
            points = int(ok) + ((1 + any(can_pay(state, seat, commercialize_cost(state, idea, k)) for k in places))
                                if places else 0)
            best = max(best, points)
    tipping = list(held_tipping_points(state, seat))
    return {
        "score": scoring.score(state, seat), "companies": len(companies_of(state, seat)),
        "solved": sum(state.solved[seat].values()), "patents": sum(held.values()),
        "patent_value": sum(patent_value(state, c) * n for c, n in held.items()),
        "syndications": min(3, sum(1 for o in state.synd.values() if seat in o)),
        "feasible": count, "progress": best,
        "commercialized": state.stats.get(f"commercialized_by_{seat}", 0),
        "thinkers": sum(1 for sp in SPHERES if any(state.market[sp]) and labour_places(state, seat, sp, "T")),
        "employees": min(4, len(employees_of(state, seat))), "money": min(6, liquid),
        "broke": int(track_money(state, seat) < 3), "agents": sum(state.fin[seat]), "debt": state.fin[seat][2],
        "imports": state.stats.get("imports", 0),
        "clock": len(state.splay) + len(state.out_of_game) - len(state.deck),
        "future_shock": scoring.singular_score(state, seat), "think_tank": len(state.think_tank[seat]),
        "tipping_points": min(1, len(tipping)), "tipping_ready": sum(1 for t in tipping if is_lowest(state, t)),
        "cash": min(6, track_money(state, seat)),
        "tycoon": tycoon_progress(len(companies_of(state, seat)), state.content.settings),
    }


def test_features_equal_the_rule_functions():
    """The evaluation works each fact out once per position; the numbers are
    those of the rule functions (same keys, same order, same values)."""
    checked = 0
    for state in _positions():
        for seat in range(state.num_players):
            got = GAME.features(state, seat)
            want = _reference_features(state, seat)
            assert list(got) == list(want) == list(FEATURE_ORDER)
            assert got == want, (state.round, seat)
            checked += 1
    assert checked > 300


def test_a_syndicates_market_scan_is_the_scan_after_it():
    """A Syndicate is rated with the position's one Market scan and its idea
    added (``_MarketScan.joining``): that reads what a fresh scan of the
    position after the Syndicate reads (the seat's ideas per sphere, its
    Tipping Points and those lowest in their column, its Syndications)."""
    from workbench.games.pax_transhumanity.evaluation import _MarketScan

    def read(scan, state, joined=None, sphere=None):
        tipping, ready, mine = scan.joining(state, joined, sphere)
        return tipping, ready, [(sp, sorted(own)) for sp, own in mine], scan.nonempty

    compared = 0
    for state in _positions(seeds=(0, 2, 6), every=2):
        if state.is_terminal() or state.decision is not None:
            continue
        seat = state.current_player()
        scan = _MarketScan(state, seat)
        for action in state.legal_actions():
            if action.kind != "syndicate":
                continue
            idea = action.args[0]
            sphere = next(sp for sp in SPHERES if idea in state.market[sp])
            after = state.clone()
            after.apply_action(action)
            fresh = _MarketScan(after, seat)
            assert read(scan, state, idea, sphere) == read(fresh, after), (state.round, action)
            assert scan.syndications + (seat not in state.synd.get(idea, ())) == fresh.syndications
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("weights", [None, {"tipping_ready": 3.3, "thinkers": 1.7, "progress": 0.9,
                                            "feasible": 2.1, "employees": 0.7, "spend_by": 12}])
def test_action_values_equal_plain_lookahead(weights):
    """``PaxGame.action_values`` (keys for look-aheads that must give equal
    values, copies of only what an action changes, static features taken from
    the position looked ahead from) gives exactly, float for float, the values
    of cloning, applying and evaluating every action."""
    from workbench.core.game import Game
    compared = 0
    for state in _positions(every=2):
        if state.is_terminal():
            continue
        seat = state.current_player()
        actions = state.legal_actions()
        assert GAME.action_values(state, seat, actions, weights) == \
            Game.action_values(GAME, state, seat, actions, weights)
        compared += len(actions)
    assert compared > 10000


@pytest.mark.parametrize("options", [{"surge_reach": "adjacent", "round_limit": 5},
                                     {"subsidy_rule": "either", "labour_move": "unemployment"}])
def test_actions_rated_in_place_equal_plain_lookahead_under_the_switches(options):
    """Syndicates, Imports and Hires are rated from the position itself (their
    payment replayed, a card moved or a place staffed and put back): under the
    rulings' switches that change what they do (how far a Surge reaches, the
    round limit's stop, the subsidy and labour rules) the values are still
    exactly those of plain look-ahead, and the position is left as it was."""
    import pickle
    from workbench.core.game import Game
    from workbench.core.rng import Rng
    from workbench.games.pax_transhumanity.state import fields

    def position(state):        # every field but the card data (it keeps caches of its own)
        return pickle.dumps({k: v for k, v in fields(state).items() if k != "content"})

    compared = 0
    for seed, n, bots in ((21, 3, "random"), (22, 2, "greedy")):
        state = GAME.new_initial_state(GAME.config(n, seed=seed, **options))
        seats, rng = make_bots(bots, n), Rng(seed)
        for step in range(90):
            if state.is_terminal():
                break
            seat, actions = state.current_player(), state.legal_actions()
            if step % 3 == 0:
                before = position(state)
                assert GAME.action_values(state, seat, actions) == Game.action_values(GAME, state, seat, actions)
                assert position(state) == before
                compared += len(actions)
            state.apply_action(seats[seat].choose(GAME, state, rng))
    assert compared > 1000


def test_fundraise_answers_rated_in_place_equal_plain_lookahead():
    """A Fundraise opened in positions of random and greedy games, its seat
    holding Patents or unemployed Employees or neither: ``raise`` and the
    divestments rated from the position (``fundraise_step_value``) give
    exactly the values of plain look-ahead, under the default weights and
    others, at the round limit too, and leave the position as it was."""
    import pickle
    from workbench.core.game import Game
    from workbench.games.pax_transhumanity.notation import A
    from workbench.games.pax_transhumanity.state import fields

    kinds: set = set()
    for state in _positions(seeds=range(2, 6), every=5):
        if state.is_terminal() or state.decision is not None or state.actions_left <= 0:
            continue
        for limit in (None, state.round):
            opened = state.clone()
            if limit is not None:
                opened.options = {**opened.options, "round_limit": limit}
            opened.apply_action(A("fundraise"))
            seat, actions = opened.current_player(), opened.legal_actions()
            before = pickle.dumps({k: v for k, v in fields(opened).items() if k != "content"})
            for weights in (None, {"spend_by": 9, "money": 0.7, "broke": -3.0}):
                assert GAME.action_values(opened, seat, actions, weights) == \
                    Game.action_values(GAME, opened, seat, actions, weights)
            assert pickle.dumps({k: v for k, v in fields(opened).items() if k != "content"}) == before
            kinds |= {a.kind if a.kind == "raise" else a.args[0] for a in actions}
    assert {"raise", "patent", "unemployed"} <= kinds


def test_clone_for_copies_what_the_action_changes():
    """Applying an action to ``clone_for(kind)`` leaves the original untouched
    and gives the same position as applying it to a full clone."""
    import pickle
    from workbench.games.pax_transhumanity.state import WRITES, fields

    def snap(st):
        d = {k: v for k, v in fields(st).items() if k not in ("content", "config", "rng")}
        return pickle.dumps((d, st.rng.state))

    tried = set()
    for state in _positions(seeds=range(4), every=4):
        before = snap(state)
        for action in state.legal_actions():
            if action.kind in WRITES:
                light, full = state.clone_for(action.kind), state.clone()
                light.apply_action(action)
                full.apply_action(action)
                assert snap(light) == snap(full), action
                tried.add(action.kind)
        assert snap(state) == before
    assert tried == set(WRITES)


def test_state_fields_are_listed_once_for_copy_and_pickle():
    """``STATE_FIELDS`` (pickling, ``fields``) and ``_share_fields`` (the compiled
    clone) name every field ``PaxState.__init__`` sets: a field added to one and
    not the others would be silently dropped by a copy or a save."""
    import ast
    from pathlib import Path

    import workbench.games.pax_transhumanity as package
    from workbench.games.pax_transhumanity import state as module

    # the source file itself: the compiled build's module carries no source
    tree = ast.parse((Path(package.__file__).parent / "state.py").read_text(encoding="utf-8"))

    def assigned(func_name: str, target: str) -> list[str]:
        func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == func_name)
        names = []
        for node in ast.walk(func):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            for t in targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id == target:
                        names.append(el.attr)
        return names

    init = assigned("__init__", "self")
    assert tuple(init) == module.STATE_FIELDS
    assert sorted(assigned("_share_fields", "new")) == sorted(set(init) - {"config", "content", "rng"})
