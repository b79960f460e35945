"""Verdicts a designer can trust (issue 25): the margin metrics, the card and
game series, the verdict words, the games that would decide, ``workbench
compare`` and the planted-edit machinery (on a few games; the figures come
from analyses/planted_edits.py)."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import polars as pl
import pytest

from workbench.core.registry import game_ids, get_game
from workbench.sim import SimSpec, simulate
from workbench.sim.metrics import (CARD_SERIES, METRIC_BY_KEY, MetricData, compute, is_series_key, series)
from workbench.tweak.planted import PlantedEdit, classify, kinds_of, planted_module
from workbench.sim.verdicts import (BETTER, HIGHER, IDENTICAL, LOWER, SAME, SLIGHT, UNDECIDED, VERDICTS, WORSE,
                                    earned, games_to_decide, goal_of,
                                    leading_watch, margin_of, name)

pytestmark = pytest.mark.usefixtures("no_history")  # not the checkout's card history


def test_verdict_names_the_goal_or_the_direction():
    assert name(HIGHER, 1) == BETTER and name(LOWER, 1) == WORSE
    assert name(HIGHER, -1) == WORSE and name(LOWER, -1) == BETTER
    assert name(HIGHER, 0) == HIGHER and name(LOWER, 0) == LOWER   # no goal: the direction itself
    assert name(SAME, 1) == SAME and name(UNDECIDED, -1) == UNDECIDED


def test_games_to_decide_grows_with_the_spread():
    # a difference of 0.1 with half-width 0.2 at 40 games: (0.2/0.1)^2 * 40 = 160 games exclude 0
    assert games_to_decide(40, -0.1, 0.3, None) == 160
    # inside a margin of 0.5 with |d| = 0.1: (0.2 / 0.4)^2 * 40 = 10, but never fewer than played
    assert games_to_decide(40, -0.1, 0.3, 0.5) == 41
    assert games_to_decide(40, -0.2, 0.2, None) is None      # nothing seen, no margin: cannot decide
    assert games_to_decide(40, None, None, 0.1) is None
    wide, narrow = games_to_decide(40, -0.05, 0.45, None), games_to_decide(40, 0.1, 0.3, None)
    assert wide > narrow


def test_every_game_declares_leading_metrics_that_exist():
    for gid in game_ids():
        game = get_game(gid)
        assert game.leading_metrics, gid
        for key in game.leading_metrics:
            assert key in METRIC_BY_KEY or is_series_key(key), (gid, key)
        for key, m in game.equivalence_margins.items():
            assert m >= 0 and margin_of(key, game) == m
        assert margin_of("track_low", game, {"track_low": 2.0}) == 2.0   # the designer's margin wins


def test_group_track_metrics_come_from_the_game():
    game = get_game("meaning-made")
    assert goal_of("track_low", game) == 1 and goal_of("near_collapse", game) == -1
    res = simulate(SimSpec("meaning-made", games=6, players=3, bots="random", seed=4, trace=False), workers=0)
    g = res.games
    for col in ("track_low", "track_danger_rounds", "near_collapse", "rounds_to_spare"):
        assert col in g.columns
    # a collapsed world reached 0, which is within one step of collapse
    for row in g.iter_rows(named=True):
        assert row["track_low"] <= row["final_meaning"]
        if row["ending"] == "collapsed":
            assert row["track_low"] == 0 and row["near_collapse"]
        assert (row["rounds_to_spare"] is None) == (row["ending"] != "survived")
    d = MetricData.from_result(res)
    assert compute(d, "track_low") == pytest.approx(float(np.mean(g["track_low"].to_numpy())))
    # a game without a shared track writes none of these columns and has no such metric
    other = simulate(SimSpec("workbench.games.pebble_race:GAME", games=3, bots="random", seed=1), workers=0)
    assert "track_low" not in other.games.columns
    assert compute(MetricData.from_result(other), "track_low") is None


def test_card_series_per_game():
    res = simulate(SimSpec("meaning-made", games=8, players=4, bots="greedy", seed=2, trace=False), workers=0)
    cards = res.cards.filter(res.cards["times_taken"] > 0)
    card = cards["card"][0]
    times = series(res, f"card_times:{card}")
    use = series(res, f"card_use:{card}")
    first = series(res, f"card_first_round:{card}")
    assert len(times) == 8 and set(np.unique(use)) <= {0.0, 1.0}
    assert (times > 0).sum() == use.sum()
    assert np.isnan(first[use == 0]).all() and (first[use == 1] >= 1).all()
    takers = series(res, f"card_takers:{card}")
    assert ((takers >= 0) & (takers <= 1)).all()
    assert series(res, "stat:initiatives_completed").shape == (8,)
    assert set(CARD_SERIES) >= {"card_use", "card_times", "card_first_round", "card_takers", "card_win_when_taken"}


def test_leading_watch_adds_the_edited_cards():
    game = get_game("meaning-made")
    keys = leading_watch(game, ["Shell"])
    assert keys[:len(game.leading_metrics)] == list(game.leading_metrics)
    assert "card_times:Shell" in keys and "card_first_round:Shell" in keys
    # a Pattern's Bonus can score at once, so what the take gave is watched; not where takes score later
    assert "card_taker_take:Shell" in keys and game.take_scores
    assert "card_taker_offer:Shell" in keys
    from types import SimpleNamespace
    later = SimpleNamespace(leading_metrics=("score_spread",), take_scores=False)
    assert leading_watch(later, ["X"])[0] == "score_spread"
    assert not any(k.startswith("card_taker_take:") for k in leading_watch(later, ["X"]))


def test_classify_planted_outcomes():
    p = PlantedEdit("dearer-card", [("Shell", "E", 4)], 4, [("card_times:Shell", "lower")])
    row = lambda d: [{"key": "card_times:Shell", "direction": d}]   # noqa: E731
    assert classify(p, row(LOWER)) == "hit"
    assert classify(p, row(HIGHER)) == "wrong"
    assert classify(p, row(None)) == "missed"
    noop = PlantedEdit("no-op", [("Shell", "flavour", "x")], 4)
    assert classify(noop, row(None)) == "quiet" and classify(noop, row(LOWER)) == "false call"
    renamed = PlantedEdit("rename", [("Shell", "name", "Husk")], 4)
    assert classify(renamed, row(None)) == "quiet" and classify(renamed, row(HIGHER)) == "false call"


def test_what_the_taker_gains_is_read_against_the_other_seats_of_the_same_game():
    """card_taker_win / _score / _margin per game from the cards and players
    tables: the takers' win share, mean score and margin over the best other
    seat, against the seats that did not take the card."""
    import numpy as np
    res = simulate(SimSpec("meaning-made", games=6, players=3, bots="random", seed=4, trace=False), workers=0)
    cards = res.cards.filter(res.cards["times_taken"] > 0)
    assert {"taker_win_edge", "taker_score_edge", "taker_margin"} <= set(cards.columns)
    players = {(r["index"], r["seat"]): r for r in res.players.iter_rows(named=True)}
    checked = 0
    for r in cards.iter_rows(named=True):
        if r["taker_score_edge"] is None:
            continue
        scores = [players[(r["index"], s)]["score"] for s in range(3)]
        best_other = [max(scores[:s] + scores[s + 1:]) for s in range(3)]
        # the takers' mean score minus the others': only one partition of seats fits both numbers
        fits = [t for t in ({0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2})
                if abs(np.mean([scores[s] for s in t]) - np.mean([scores[s] for s in range(3) if s not in t])
                       - r["taker_score_edge"]) < 1e-9
                and abs(np.mean([scores[s] - best_other[s] for s in t]) - r["taker_margin"]) < 1e-9
                and len(t) == r["takers"]]
        assert fits, r
        checked += 1
    assert checked > 5
    key = f"card_taker_score:{cards['card'][0]}"
    values = series(res, key)
    assert np.isnan(values).sum() < len(values)


def test_what_the_taker_gains_soon_after_the_take_is_its_score_edge_h_rounds_later_less_before():
    """card_taker_soon per game: the first taker's score minus the other seats'
    mean, ``taker_horizon`` rounds after the take's round (at the end when the
    game ends sooner), less the same just before the take; card_taker_take the
    same just after the action that took it; replayed here move by move with
    the same seeds and bots. Without a horizon the cards table has no such
    column (``simulate``'s tables are unchanged)."""
    from workbench.core.play import bot_rngs
    from workbench.sim.runner import game_config, resolve_game
    plain = simulate(SimSpec("meaning-made", games=2, players=3, bots="random", seed=5, trace=False), workers=0)
    assert "taker_soon_edge" not in plain.cards.columns and "taker_take_edge" not in plain.cards.columns
    spec = SimSpec("meaning-made", games=2, players=3, bots="random", seed=5, trace=False, taker_horizon=2)
    res = simulate(spec, workers=0)
    game = resolve_game(spec.game)

    def edge(scores, seat):
        return scores[seat] - np.mean([v for i, v in enumerate(scores) if i != seat])

    checked = moved = 0
    after = {}
    for index in range(2):
        config = game_config(spec, index)
        names, rngs = list(config.players), bot_rngs(config)
        state, looks, first, actions = game.new_initial_state(config), [], {}, 0
        while not state.is_terminal():
            scores = [game.result(state).scores[m] for m in names]
            # the runner looks once per round, at the first multiple of 3 actions in it
            if actions % 3 == 0 and (not looks or looks[-1][0] != game.turn_count(state)):
                looks.append((game.turn_count(state), scores))
            seat = state.current_player()
            action = state.sample_legal_action(rngs[seat])[0]
            new = [c for c in game.action_cards(state, action) if c not in first]
            for card in new:
                first[card] = (game.turn_count(state), seat, scores)
            state.apply_action(action)
            actions += 1
            for card in new:
                # what the take itself gave: the scores just after the action that took it
                after[(index, card)] = [game.result(state).scores[m] for m in names]
        final = [game.result(state).scores[m] for m in names]
        rows = res.cards.filter((pl.col("index") == index) & (pl.col("times_taken") > 0))
        for r in rows.iter_rows(named=True):
            rnd, seat, before = first[r["card"]]
            later = next((sc for t, sc in looks if t >= rnd + 2), final)
            assert r["first_seat"] == seat and r["first_round"] == rnd
            assert r["taker_soon_edge"] == pytest.approx(edge(later, seat) - edge(before, seat)), r["card"]
            took = edge(after[(index, r["card"])], seat) - edge(before, seat)
            assert r["taker_take_edge"] == pytest.approx(took), r["card"]
            moved += took != 0
            checked += 1
    assert checked > 5
    # some take scored at once (a Bonus with Legacy, the World Layer's Legacy): the reading is not all zeros
    assert moved
    assert not np.isnan(series(res, f"card_taker_soon:{rows['card'][0]}")).all()
    assert not np.isnan(series(res, f"card_taker_take:{rows['card'][0]}")).all()


def test_what_a_card_would_give_where_it_is_offered_is_read_taken_or_not():
    """card_taker_offer per game: once per round per card, at the first
    decision at which a take of it is legal, the seat on turn's score edge
    after its best legal take of the card (played on a copy) less before;
    the mean over the game's offers, for every card offered, taken or not.
    Replayed here move by move with the same seeds and bots."""
    from workbench.core.play import bot_rngs
    from workbench.sim.runner import game_config, resolve_game
    spec = SimSpec("meaning-made", games=1, players=3, bots="random", seed=11, trace=False, taker_horizon=2)
    res = simulate(spec, workers=0)
    game = resolve_game(spec.game)

    def edge(scores, seat):
        return scores[seat] - np.mean([v for i, v in enumerate(scores) if i != seat])

    config = game_config(spec, 0)
    names, rngs = list(config.players), bot_rngs(config)
    state, offers, seen = game.new_initial_state(config), {}, {}
    while not state.is_terminal():
        seat, rnd = state.current_player(), game.turn_count(state)
        before = edge([game.result(state).scores[m] for m in names], seat)
        best = {}
        for action in state.legal_actions():
            for card in game.action_cards(state, action):
                if seen.get(card) == rnd:
                    continue
                copy = state.clone()
                copy.apply_action(action)
                gain = edge([game.result(copy).scores[m] for m in names], seat) - before
                best[card] = max(best.get(card, gain), gain)
        for card, gain in best.items():
            offers.setdefault(card, []).append(gain)
            seen[card] = rnd
        state.apply_action(state.sample_legal_action(rngs[seat])[0])
    rows = {r["card"]: r for r in res.cards.iter_rows(named=True)}
    assert len(offers) > 5
    assert any(rows[c]["times_taken"] == 0 for c in offers)       # read where no one took it too
    assert any(np.mean(v) != 0 for v in offers.values())
    for card, gains in offers.items():
        assert rows[card]["taker_offer_edge"] == pytest.approx(np.mean(gains)), card
        assert series(res, f"card_taker_offer:{card}")[0] == pytest.approx(np.mean(gains))


def test_what_a_pax_commercialization_gave_is_read_once_its_effects_are_resolved():
    """In Pax Transhumanity an Idea's effects act only when it is
    Commercialized (``PaxGame.scoring_take``), and a ``solve any`` waits for
    its player's choice (``PaxGame.take_settled``): card_taker_take reads the
    first Commercialization of each Idea, from just before it to the first
    position with no task or choice pending, and is empty for an Idea only
    syndicated, placated or researched. One greedy game (random bots never
    Commercialize), its actions replayed here move by move."""
    from workbench.core.bots import make_bots
    from workbench.core.play import bot_rngs
    from workbench.sim.runner import game_record
    game = get_game("pax-transhumanity")
    config = game.config(2, seed=4)
    bots, rngs, played = make_bots("greedy", 2), bot_rngs(config), []

    def decide(state, seat):
        played.append(bots[seat].choose(game, state, rngs[seat]))
        return played[-1], state.legal_action_count()

    record = game_record(game, config, 0, decide, ["greedy"] * 2, False, 20_000, horizon=2)
    names = list(config.players)

    def scores(state):
        return [game.result(state).scores[m] for m in names]

    def edge(sc, seat):
        return sc[seat] - np.mean([v for i, v in enumerate(sc) if i != seat])

    state, took, waiting = game.new_initial_state(config), {}, []
    for action in played:
        seat = state.current_player()
        if game.coerce_action(state, action).kind == "commercialize":
            for card in game.action_cards(state, action):
                if card not in took:
                    took[card] = [seat, scores(state), None]
                    waiting.append(card)
        state.apply_action(action)
        if waiting and (state.is_terminal() or (state.decision is None and not state.tasks)):
            for card in waiting:
                took[card][2] = scores(state)
            waiting = []
    checked = empty = 0
    for r in record["cards"]:
        if not r.get("times_taken"):
            continue
        if r["card"] not in took:
            assert r["taker_take_edge"] is None, r["card"]
            empty += 1
            continue
        seat, before, after = took[r["card"]]
        assert r["taker_take_edge"] == pytest.approx(edge(after, seat) - edge(before, seat)), r["card"]
        checked += 1
    assert checked and empty


def test_a_renamed_card_is_the_same_card(capsys):
    """A renamed card is watched under its old name and read under its new
    one in the edited pool, and a rename plays the very same games (Meaning
    Made lays its decks out in the files' order before the seeded shuffle,
    ruling deck-order-before-shuffle): every metric with pairs reads "the bots
    never chose differently" and the run stops at its first deciding look."""
    code, out = _compare(capsys, "meaning-made", "--edit", "Shell.name=Husk", "--games", "60", "--players", "3",
                         "--bots", "random", "--workers", "0", "--json")
    assert code == 0, out.err
    doc = json.loads(out.out)
    assert doc["renamed"] == {"Shell": "Husk"} and doc["decided"] and doc["games"] == 40
    rows = {m["key"]: m for m in doc["metrics"]}
    assert "card_use:Shell" in rows and "card_taker_score:Shell" in rows
    assert not any("Husk" in k for k in rows) and "named Husk in the new pool" in rows["card_use:Shell"]["metric"]
    assert rows["card_use:Shell"]["verdict"] == IDENTICAL
    assert all(m["verdict"] in (IDENTICAL, UNDECIDED) and not m["direction"] for m in doc["metrics"])
    assert all(earned(m) for m in doc["metrics"])


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_every_game_plants_valid_edits_of_each_kind(game_id):
    from workbench.tweak import open_session
    game = get_game(game_id)
    module = planted_module(game)
    assert module is not None and "no-op" in kinds_of(game) and len(kinds_of(game)) >= 3
    session = open_session(game_id)
    rng = random.Random(5)
    for kind in kinds_of(game):
        edits = module.planted_edits(session, rng, kind, 4)
        assert len(edits) == 4
        for planted in edits:
            fresh = open_session(game_id)
            # the session's checks are what is asked here, not the graph's analyses
            # of each edit (a betweenness over every card; tested on their own)
            fresh.analysing = False
            for card, column, value in planted.edits:
                fresh.edit(card, column, value)      # every planted edit passes the session's checks
            for key, want in planted.expect:
                assert want in (HIGHER, LOWER)
                assert key in METRIC_BY_KEY or is_series_key(key)
        # the variations differ (not one edit repeated)
        assert len({json.dumps([p.edits, p.players]) for p in edits}) > 1 or kind == "no-op"




@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_planted_edits_expect_a_leading_metric(game_id):
    """What a planted edit must move is among what ``compare`` watches for
    it: the game's leading metrics, or the edited card's own."""
    from workbench.tweak import open_session as TweakSession
    game = get_game(game_id)
    session = TweakSession(game_id)
    for kind in kinds_of(game):
        for planted in planted_module(game).planted_edits(session, random.Random(9), kind, 6):
            watched = leading_watch(game, [c for c, _, _ in planted.edits if not session._is_cell(c)])
            assert not planted.expect or any(k in watched for k, _ in planted.expect), (kind, planted.note)


def test_generators_plant_only_on_what_baseline_games_reach():
    """A dearer AGI payment is planted only where baseline games declare AGI
    (pick_rates' ``stat:`` entries), as dearer cards only on cards games
    take; a dearer Pax End makes every End dearer at once (whichever way
    baseline games end: one End dearer alone, games end by another)."""
    from workbench.tweak import open_session as TweakSession
    mandate, pax = get_game("mandate-2038"), get_game("pax-transhumanity")
    never = {"stat:agi_declarations": 0.0, "stat:facilities_built": 3.0, "stat:generators_built": 1.0}
    edits = planted_module(mandate).planted_edits(TweakSession("mandate-2038"), random.Random(1), "dearer-card",
                                                  12, pick_rates=lambda n: never)
    assert {e.expect[0][0] for e in edits} <= {"stat:facilities_built", "stat:generators_built"}
    session = TweakSession("pax-transhumanity")
    for rates in ({"ending:singular": 0.9, "ending:tipping-point": 0.1}, None):
        edits = planted_module(pax).planted_edits(session, random.Random(1), "dearer-end", 4,
                                                  pick_rates=rates and (lambda n: rates))
        for e in edits:
            fields = [(card, f) for card, f, _ in e.edits]
            assert sum(f == "heat" for _, f in fields) == 5            # the four Tipping Points and Plurality
            assert {c for c, f in fields if f == "value"} == {"singular_run", "tycoon_company"}
            assert all(new > session.value_of(c, "value") for c, f, new in e.edits if f == "value")


def test_planted_dearer_ideas_get_white_heat_and_rewards_need_room_under_the_cap():
    """A dearer Pax Idea gets only white Heat squares (a Syndication must cover
    those; a black one it may leave), for a dearer card and a dearer End alike;
    a larger Meaning Made reward is planted only at player counts whose
    baseline games leave players below the Legacy cap."""
    from workbench.tweak import open_session as TweakSession
    pax, mm = get_game("pax-transhumanity"), get_game("meaning-made")
    session = TweakSession("pax-transhumanity")
    ideas = session.table().filter(pl.col("kind") == "idea")
    heat = {name: (h or "").split() for name, h in ideas.select("name", "heat").iter_rows()}
    for kind, rates in (("dearer-card", None), ("dearer-end", {"ending:tipping-point": 0.8})):
        for planted in planted_module(pax).planted_edits(session, random.Random(3), kind, 8,
                                                         pick_rates=rates and (lambda n: rates)):
            for card, field, value in planted.edits:
                if field == "heat":
                    old, new = heat[card], value.split()
                    assert new[:len(old)] == old and len(new) > len(old), planted.note
                    assert set(new[len(old):]) == {"white"}, planted.note
    at_cap = lambda n: {"stat:players_at_cap": 0.96 * n if n == 2 else 0.3 * n}   # noqa: E731
    edits = planted_module(mm).planted_edits(TweakSession("meaning-made"), random.Random(1), "larger-rewards",
                                             12, pick_rates=at_cap)
    assert {e.players for e in edits} and 2 not in {e.players for e in edits}


def test_meaning_made_power_plants_bite_by_the_rules(monkeypatch):
    """A weaker Meaning Made card (a Legacy loss) is planted only on a Pattern
    whose takers hold at least that much Legacy when they load it (Legacy
    stops at 0: a loss taken while holding none costs nothing), and a
    stronger one always gains Legacy (score at once, where tokens are score
    only through later loads). ``legacy_at_take`` reads what takers hold
    from greedy games."""
    from workbench.tweak import open_session as TweakSession
    planted = planted_module(get_game("meaning-made"))
    session = TweakSession("meaning-made")
    held = planted.legacy_at_take(session, 3, games=1)
    assert held and set(held) <= set(session.cards.patterns) and all(v >= 0 for v in held.values())
    taken = sorted(session.cards.patterns)[:12]
    rich = {c: (8.0 if i % 3 == 0 else 0.0) for i, c in enumerate(taken)}
    monkeypatch.setattr(planted, "legacy_at_take", lambda s, n: rich)
    rates = lambda n: {**{c: 0.5 for c in taken}, "stat:players_at_cap": 0.3 * n}   # noqa: E731
    for e in planted.planted_edits(session, random.Random(2), "weaker-card", 8, pick_rates=rates):
        (card, field, value), = e.edits
        assert field == "bonus" and rich[card] >= 3 and int(value.split("legacy")[1]) >= -rich[card], e.note
    for e in planted.planted_edits(session, random.Random(2), "stronger-card", 8, pick_rates=rates):
        (card, _, value), = e.edits
        gained = {k: int(v) for k, v in re.findall(r"(\w+?)([+-]\d+)", value)}
        assert gained.get("legacy", 0) >= (session.value_of(card, "bonus") or {}).get("legacy", 0) + 2, e.note


def test_pax_power_plants_only_on_ideas_whose_effects_act(monkeypatch):
    """A Pax Idea is planted stronger or weaker only where baseline games
    Commercialize it (its effects act only then), and weaker only where it has
    effects to remove; ``commercialized_share`` reads that from greedy games."""
    from workbench.tweak import open_session as TweakSession
    planted = planted_module(get_game("pax-transhumanity"))
    session = TweakSession("pax-transhumanity")
    share = planted.commercialized_share(session, 2, games=1)
    assert all(0 < v <= 1 for v in share.values()) and set(share) <= set(session.game.card_names())
    ideas = session.table().filter(pl.col("kind") == "idea")
    plain = sorted(ideas.filter(pl.col("type").is_null()
                                & ~pl.col("effects").fill_null("").str.contains("game end", literal=True))["name"])
    acts = {c: (0.5 if i % 4 == 0 else 0.05) for i, c in enumerate(plain)}
    monkeypatch.setattr(planted, "commercialized_share", lambda s, n: acts)
    rates = lambda n: {c: 0.6 for c in plain}   # noqa: E731   every plain Idea taken
    for kind in ("stronger-card", "weaker-card"):
        for e in planted.planted_edits(session, random.Random(4), kind, 6, pick_rates=rates):
            (card, _, _), = e.edits
            assert acts[card] >= planted.ACTS_SHARE, e.note
            assert kind == "stronger-card" or session.value_of(card, "effects"), e.note


def test_action_kind_share_from_the_games_own_counts():
    """Pax Transhumanity counts its main actions per game
    (``Game.action_kind_counts``): their shares of the choices add up to 1 and
    are the columns' sums over their total."""
    game = get_game("pax-transhumanity")
    res = simulate(SimSpec("pax-transhumanity", games=3, players=2, bots="random", seed=3, trace=False),
                   workers=0)
    usage = compute(MetricData.from_result(res), "action_usage")
    assert list(usage) == list(game.action_kind_counts)
    assert sum(usage.values()) == pytest.approx(1.0)
    sums = {k: float(res.games[c].fill_null(0).sum()) if c in res.games.columns else 0.0
            for k, c in game.action_kind_counts.items()}
    assert usage == pytest.approx({k: v / sum(sums.values()) for k, v in sums.items()})


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_every_game_reports_its_share_of_choices_per_action_kind(game_id):
    """Issue 25's "per action kind: share of choices": every bundled game names
    its action kinds, and a batch gives each kind's share, adding up to 1."""
    res = simulate(SimSpec(game_id, games=2, players=get_game(game_id).min_players, bots="random", seed=4,
                           trace=False), workers=0)
    usage = compute(MetricData.from_result(res), "action_usage")
    assert usage and sum(usage.values()) == pytest.approx(1.0) and all(0 <= v <= 1 for v in usage.values())


def test_meaning_made_counts_every_turn_action_it_plays():
    """Meaning Made's kinds are tallied by the runner (``Game.action_kind``):
    each column holds the times its turn action was played, answers to a
    Touchpoint and Stability Window donations left out."""
    from collections import Counter

    from workbench.core.rng import Rng
    from workbench.sim.runner import game_record
    game = get_game("meaning-made")
    config = game.config(3, seed=11)
    rng, played = Rng(5), Counter()

    def decide(state, seat):
        action, k = state.sample_legal_action(rng)
        played[type(action).__name__] += 1
        return action, k

    row = game_record(game, config, 0, decide, ["random"] * 3, False, 5000)["game"]
    columns = {"Gather": "n_gathers", "Load": "n_loads", "Contribute": "n_contributions",
               "Touchpoint": "n_touchpoints", "Recycle": "n_recycles", "Convert": "n_conversions"}
    assert {c: row[c] for c in columns.values()} == {c: played[t] for t, c in columns.items()}
    assert played["Gather"] and played["Answer"] + played["Donate"]  # replies were played, and not counted
    assert sum(row[c] for c in columns.values()) == row["actions"] - played["Answer"] - played["Donate"]


def _compare(capsys, *argv):
    from workbench.cli import main
    code = main(["compare", *argv])
    return code, capsys.readouterr()


def test_compare_json_names_each_metric(capsys):
    code, out = _compare(capsys, "meaning-made", "--edit", "Shell.E=4", "--games", "20", "--players", "3",
                         "--bots", "random", "--workers", "0", "--json")
    assert code == 0, out.err
    doc = json.loads(out.out)
    assert doc["edits"][0]["card"] == "Shell" and doc["edits"][0]["old"] == 1
    assert len(doc["seeds"]) == doc["games"] <= 20
    keys = [m["key"] for m in doc["metrics"]]
    assert keys[0] == get_game("meaning-made").leading_metrics[0] and "card_times:Shell" in keys
    for m in doc["metrics"]:
        assert set(m) >= {"metric", "old", "new", "diff", "low", "high", "verdict", "games", "identical", "pairs"}
        assert m["verdict"] in VERDICTS and earned(m)
        assert m["games"] == {"old": doc["games"], "new": doc["games"]}
        if m["verdict"] == SAME:                   # only ever for an interval inside the margin
            assert -m["margin"] <= m["low"] <= m["high"] <= m["margin"]
        if m["verdict"] == UNDECIDED:
            assert m["low"] is None or m["low"] <= 0 <= m["high"] or m["games"]["old"] < 20


def test_compare_on_a_no_op_edit_is_quiet(capsys):
    code, out = _compare(capsys, "meaning-made", "--edit", "Shell.flavour=Other words.", "--games", "40",
                         "--players", "2", "--bots", "random", "--workers", "0", "--json")
    assert code == 0
    doc = json.loads(out.out)
    # the same games in both pools: nothing to measure, said as such (never
    # "no meaningful change" over a zero-width interval)
    assert all(m["verdict"] in (IDENTICAL, UNDECIDED) for m in doc["metrics"])
    assert any(m["verdict"] == IDENTICAL for m in doc["metrics"]) and doc["decided"]
    assert all(m["diff"] in (0, None) for m in doc["metrics"])


@pytest.mark.parametrize("margin, words", [
    ("1000", {SLIGHT[HIGHER], SLIGHT[LOWER]}),       # a decided change (a longer game), far inside a huge margin
    ("0", {HIGHER, LOWER, BETTER, WORSE}),           # no room: beyond 0 is beyond the margin
])
def test_compare_json_gives_direction_words_only_beyond_the_margin(capsys, margin, words):
    """The words a verdict prints are earned by its numbers, over ``compare
    --json``: an edit that moves the games (Shell dearer, random players) with
    every margin set by hand; a decided change inside the margin is a slight
    change, never a direction word, and every row passes :func:`earned`."""
    argv = ["meaning-made", "--edit", "settings.meaning=9", "--games", "40", "--players", "3", "--bots", "random",
            "--workers", "0", "--json", "--no-stop"]
    for key in get_game("meaning-made").leading_metrics:
        argv += ["--margin", f"{key}={margin}"]
    code, out = _compare(capsys, *argv)
    assert code == 0, out.err
    rows = json.loads(out.out)["metrics"]
    assert all(earned(m) for m in rows)
    decided = [m for m in rows if m["direction"]]
    assert decided and all(m["verdict"] in words for m in decided)


@pytest.mark.parametrize("argv, words", [
    (["meaning-made", "--edit", "Shell.E"], "CARD.FIELD=VALUE"),
    (["meaning-made", "--edit", "Nowhere.E=4"], "Nowhere"),
    (["meaning-made", "--edit", "Shell.E=-3"], "Shell"),
    (["meaning-made"], "at least one --edit"),
    (["meaning-made", "--edit", "Shell.E=4", "--margin", "track_low=x"], "--margin"),
    (["no-such-game", "--edit", "Shell.E=4"], "no-such-game"),
    (["meaning-made", "--edit", "Shell.E=4", "--variant", "no-such-variant"], "no-such-variant"),
    (["meaning-made", "--edit", "Shell.E=4", "--option", "no_such_option=3"], "no_such_option"),
])
def test_compare_refuses_bad_input_in_one_line(capsys, argv, words):
    code, out = _compare(capsys, *argv)
    assert code == 1
    lines = [x for x in out.err.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in out.err


def test_skill_levels_are_bots_and_strong_plays_as_the_bot_itself():
    from workbench.core.bots import check_specs, make_bots
    from workbench.core.errors import WorkbenchError
    from workbench.core.skill import LEVELS
    game = get_game("meaning-made")
    bots = make_bots("skill:casual,skill:novice:random,greedy", 4)
    assert [repr(b) for b in bots] == ["skill:casual:greedy", "skill:novice:random", "greedy", "greedy"]
    for bad in ("skill", "skill:pro", "skill:blunder=2", "skill:casual:skill:novice", "skill:casual:ban:Nope"):
        with pytest.raises(WorkbenchError):
            check_specs(game, bad)
    assert set(LEVELS) == {"strong", "steady", "casual", "novice"}
    strong = simulate(SimSpec("meaning-made", games=4, players=3, bots="skill:strong", seed=5, trace=False),
                      workers=0)
    plain = simulate(SimSpec("meaning-made", games=4, players=3, bots="greedy", seed=5, trace=False), workers=0)
    assert strong.games.drop("index").equals(plain.games.drop("index"))
    novice = simulate(SimSpec("meaning-made", games=4, players=3, bots="skill:novice", seed=5, trace=False),
                      workers=0)
    assert not novice.games["actions"].equals(plain.games["actions"])   # the dial changes play


def test_softmax_pick_follows_the_temperature():
    from workbench.core.rng import Rng
    from workbench.core.skill import softmax_pick
    rng = Rng(3)
    values = [0.0, 1.0, 0.5]
    assert softmax_pick(values, 0, rng) == 1
    cold = [softmax_pick(values, 0.05, rng) for _ in range(400)]
    hot = [softmax_pick(values, 50, rng) for _ in range(400)]
    assert cold.count(1) > 390
    assert min(hot.count(i) for i in range(3)) > 90     # near uniform


def test_compare_prints_the_change_and_decided_verdicts(capsys):
    code, out = _compare(capsys, "meaning-made", "--edit", "settings.meaning=1", "--games", "40",
                         "--players", "4", "--bots", "random", "--workers", "0")
    assert code == 0
    text = out.out
    assert "settings meaning 5 -> 1" in text.splitlines()[0]
    assert "final at" in text
    assert "no difference" not in text
    # the explanation follows the verdict, never holds it back
    assert "why (" in text and text.index("final at") < text.index("why (")


def test_compare_plays_variants_and_options_and_enters_the_pool_history(cards_copy, monkeypatch, capsys):
    """--variant and --option are played on both pools (as simulate plays them),
    and the comparison is a run of the pool's version in ``workbench history``."""
    monkeypatch.delenv("WORKBENCH_NO_HISTORY")
    argv = ["meaning-made", "--edit", "Shell.E=4", "--games", "20", "--players", "3", "--bots", "random",
            "--workers", "0", "--no-stop", "--json"]
    plain = json.loads(_compare(capsys, *argv)[1].out)
    code, out = _compare(capsys, *argv, "--variant", "high-instability", "--option", "round_limit=30")
    assert code == 0, out.err
    doc = json.loads(out.out)
    assert doc["variants"] == ["high-instability"] and doc["options"] == {"round_limit": 30}
    old = {m["key"]: m["old"] for m in doc["metrics"]}
    # the world starts at Meaning 4 with two Events a round: the old pool's games are others
    assert old["duration_rounds"] != {m["key"]: m["old"] for m in plain["metrics"]}["duration_rounds"]
    from workbench.cli import main
    assert main(["history", "meaning-made", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["versions"][0]["runs"]
    compares = [r for r in runs if r["kind"] == "compare"]
    assert len(compares) == 2
    assert compares[-1]["params"]["variants"] == ["high-instability"]
    assert compares[-1]["params"]["edits"] == [{"card": "Shell", "field": "E", "old": 1, "new": 4}]
    row = compares[-1]["metrics"]["duration_rounds"]
    assert row["before"] == old["duration_rounds"] and row["verdict"] in (BETTER, WORSE, HIGHER, LOWER, SAME, UNDECIDED)
    assert main(["history", "meaning-made"]) == 0
    assert "compare  20 games of Shell E: 1 -> 4" in capsys.readouterr().out


def test_the_taker_metrics_share_half_the_alpha_by_fixed_weights():
    """Weighted Bonferroni: the shares add up to 1, the taker metrics hold
    TAKER_SHARE, the gain soon after the take as much as the other three."""
    from workbench.sim.verdicts import TAKER_METRICS, TAKER_SHARE, alpha_shares
    watch = ["score_mean", "duration_rounds", "card_use:Shell"] + [f"{m}:Shell" for m in TAKER_METRICS]
    shares = alpha_shares(watch)
    assert sum(shares.values()) == pytest.approx(1.0)
    assert sum(shares[f"{m}:Shell"] for m in TAKER_METRICS) == pytest.approx(TAKER_SHARE)
    assert shares["card_taker_soon:Shell"] == pytest.approx(3 * shares["card_taker_score:Shell"])
    assert shares["card_taker_take:Shell"] == pytest.approx(shares["card_taker_soon:Shell"])
    assert shares["score_mean"] == pytest.approx((1 - TAKER_SHARE) / 3)
    assert alpha_shares(["score_mean", "duration_rounds"]) == {"score_mean": 0.5, "duration_rounds": 0.5}


def test_the_gain_soon_after_a_take_reads_the_seat_that_took_it_in_both_pools():
    """paired_soon: the seat and round of the old pool's take (the new pool's
    where only it takes the card) read in both pools, whether or not that seat
    takes the card there: from the last look before the take's round to the
    first look ``horizon`` rounds later (the end when sooner)."""
    from types import SimpleNamespace

    from workbench.sim.metrics import paired_soon

    def pool(looks, takes, digests=("1;2;3;4;5", "1;2;3", "1;2;3")):
        games = pl.DataFrame({"index": [0, 1, 2], "score_looks": looks, "play_digests": list(digests)})
        cards = pl.DataFrame({"index": [i for i, _, _ in takes], "card": ["Shell"] * len(takes),
                              "times_taken": [1] * len(takes), "first_seat": [s for _, s, _ in takes],
                              "first_round": [r for _, _, r in takes]},
                             schema={"index": pl.Int64, "card": pl.Utf8, "times_taken": pl.Int64,
                                     "first_seat": pl.Int64, "first_round": pl.Int64})
        return SimpleNamespace(games=games, cards=cards)

    old = pool(["1:0,0,0;2:1,1,1;3:2,1,0;4:4,1,1;1000000:9,3,3",     # seat 0 takes it in round 2
                "1:0,0,0;2:0,0,0;1000000:1,1,1",                      # nobody takes it
                "1:0,0,0;2:1,2,3;1000000:5,5,5"], [(0, 0, 2), (2, 2, 2)])
    new = pool(["1:0,0,0;2:1,1,1;3:1,2,0;4:1,3,2;1000000:3,6,6",     # seat 0 passes it by
                "1:0,0,0;2:0,2,0;1000000:2,4,0",                      # seat 1 takes it in round 2
                "1:0,0,0;2:1,2,3;1000000:4,4,7"], [(1, 1, 2), (2, 2, 1)])
    x, y = paired_soon(old, new, "Shell", horizon=2)
    # game 0: from the round-1 look (0,0,0) to the round-4 look: seat 0's edge 4 - 1 = 3, then 1 - 2.5
    assert x[0] == pytest.approx(3.0) and y[0] == pytest.approx(-1.5)
    # game 1: only the new pool takes it (seat 1, round 2): the end look is the final one
    assert x[1] == pytest.approx(0.0) and y[1] == pytest.approx(4 - 1)
    # game 2: the old pool's take (seat 2, round 2) decides, though the new took it in round 1
    assert x[2] == pytest.approx(0.0) and y[2] == pytest.approx(7 - 4)
    assert paired_soon(SimpleNamespace(games=pl.DataFrame({"index": [0]}), cards=old.cards), new, "Shell") is None
    # game 2 played differently from its first look on (other deals): each pool reads its own first taker
    parted = pool(new.games["score_looks"].to_list(), [(1, 1, 2), (2, 2, 1)], ("1;2;3;4;5", "1;2;3", "9;9;9"))
    parted = SimpleNamespace(games=parted.games, cards=new.cards)
    x, y = paired_soon(old, parted, "Shell", horizon=2)
    assert x[2] == pytest.approx(0.0)                       # the old pool's own taker, seat 2 from round 2
    assert y[2] == pytest.approx(7 - 4)                     # the new pool's, seat 2 from round 1: to the end
    assert x[0] == pytest.approx(3.0) and y[0] == pytest.approx(-1.5)   # game 0 still alike until its take
