"""The progressive paired playtest: a look schedule declared before the run,
looks on the first n games of both arms, alpha spent over the looks, early stop
once every watched metric is decided."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed
from workbench.sim import SimSpec, simulate
from workbench.sim import progressive
from workbench.sim.compare import compare_results
from workbench.sim.verdicts import IDENTICAL
from workbench.sim.progressive import (HIGHER, LOWER, SAME, UNDECIDED, chunk_plan,
                                       difference_floor, grid_schedule, look_schedule, paired_mean_interval,
                                       paired_playtest, spending, verdict)

TOY = "workbench.games.pebble_race:GAME"


def test_the_stopping_rule_for_one_metric():
    assert verdict(0.1, 0.3, 0.05, True) == HIGHER
    assert verdict(-0.3, -0.1, 0.05, True) == LOWER
    assert verdict(-0.01, 0.02, 0.05, True) == SAME
    assert verdict(-0.01, 0.02, 0.05, False) == UNDECIDED   # too few games to call it equal
    assert verdict(-0.01, 0.02, None, True) == UNDECIDED    # no margin stated: only a difference decides
    assert verdict(-0.2, 0.3, 0.05, True) == UNDECIDED
    assert verdict(None, None, 0.05, True) == UNDECIDED
    assert verdict(0.1, 0.3, 0.05, True, False) == UNDECIDED   # too few games to call a difference
    assert verdict(-0.01, 0.02, 0.05, True, False) == SAME     # equivalence has its own floor


#: updates only at the scheduled looks (previews come by the clock)
LOOKS_ONLY = dict(first_preview=None)


# -- the schedule and its error control -------------------------------------------------------
def test_looks_double_from_the_first_in_bounded_steps_and_end_at_the_budget():
    assert look_schedule(200, 5) == [5, 10, 20, 40, 80, 120, 160, 200]
    assert look_schedule(200, 3) == [3, 6, 12, 24, 48, 88, 128, 168, 200]
    assert look_schedule(200, 10, max_step=25) == [10, 20, 40, 65, 90, 115, 140, 165, 190, 200]
    assert look_schedule(7, 10) == [7]
    assert grid_schedule(50, 20) == [20, 40, 50]


@pytest.mark.parametrize("schedule", [look_schedule(200, 2), look_schedule(200, 10), look_schedule(37, 3),
                                      grid_schedule(200, 20), [200]])
def test_the_looks_spend_alpha_in_proportion_to_their_games_and_no_more_in_all(schedule):
    shares = spending(schedule, 0.05)
    assert len(shares) == len(schedule) and all(a > 0 for a in shares)
    assert sum(shares) == pytest.approx(0.05)            # the union bound over the looks: at most alpha
    steps = np.diff([0, *schedule])
    assert np.allclose(np.array(shares) / steps, 0.05 / schedule[-1])   # linear spending


def test_previews_spend_nothing_and_the_first_deciding_look_spends_all_before_it():
    shares = spending(look_schedule(200, 3), 0.05, start=20)    # 3, 6, 12, 24, 48, 88, ...
    assert shares[:3] == [0.0, 0.0, 0.0]
    assert shares[3] == pytest.approx(0.05 * 24 / 200) and shares[4] == pytest.approx(0.05 * 24 / 200)
    assert sum(shares) == pytest.approx(0.05)
    assert spending([5, 10], 0.05, start=20) == [0.0, 0.0]       # a budget below the floor decides nothing


@settings(max_examples=200, deadline=None)
@given(budget=st.integers(1, 3000), first=st.integers(1, 200), max_step=st.integers(1, 200),
       start=st.integers(0, 100))
def test_every_schedule_ends_at_the_budget_and_spends_at_most_alpha(budget, first, max_step, start):
    schedule = look_schedule(budget, first, max_step=max_step)
    assert schedule[0] == min(first, budget) and schedule[-1] == budget
    steps = np.diff(schedule)
    assert (steps > 0).all()
    assert all(b - a <= min(a, max_step) for a, b in zip(schedule, schedule[1:]))   # doubling, bounded
    shares = spending(schedule, 0.05, start=start)
    assert all(x >= 0 for x in shares)
    assert sum(shares) == pytest.approx(0.05 if budget >= start else 0.0)
    assert all(x == 0 for n, x in zip(schedule, shares) if n < start)
    parts = chunk_plan(schedule)
    assert [i for p in parts for i in p] == list(range(budget))
    assert set(schedule) <= {p[-1] + 1 for p in parts}


def test_an_equal_grid_spends_like_bonferroni():
    assert spending(grid_schedule(200, 20), 0.05) == pytest.approx([0.005] * 10)


@pytest.mark.parametrize("alpha_k", [0.05, 0.01, 0.005, 0.0025, 0.00075, 1 / 64])
def test_a_difference_needs_enough_games_for_a_same_sign_run_to_be_rare(alpha_k):
    n = difference_floor(alpha_k)
    assert 2.0 ** (1 - n) <= alpha_k < 2.0 ** (2 - n)     # the fewest games for which it holds
    assert difference_floor(1 / 64) == 7


def test_chunks_never_straddle_a_look_and_cover_the_games_in_order():
    for schedule in (look_schedule(200, 3), look_schedule(200, 20), grid_schedule(45, 7)):
        parts = chunk_plan(schedule)
        assert [i for p in parts for i in p] == list(range(schedule[-1]))
        assert set(schedule) <= {p[-1] + 1 for p in parts}
    parts = chunk_plan(look_schedule(200, 20))
    assert {len(p) for p in parts[:10]} == {1}            # one game at a time at first
    assert max(len(p) for p in parts) == 10


def test_under_no_difference_the_looks_seldom_call_one():
    """Null runs of paired differences through the schedule, the look rule and
    the intervals: the share of runs in which any look calls a difference stays
    within alpha (4% here). Plain percentile intervals at ``1 - alpha_k`` that
    may decide from the first look on call one in 30% of these same runs."""
    rng = np.random.default_rng(5)
    schedule = look_schedule(200, 3)
    shares = spending(schedule, 0.05, start=20)
    wrong, runs = 0, 300
    for _ in range(runs):
        d = rng.normal(size=200)
        for n, a_k in zip(schedule, shares):
            rule = progressive.look_rule(n, 0.05, a_k)
            lo, hi = paired_mean_interval(np.zeros(n), d[:n], level=rule.bootstrap_level, resamples=2000, rng=rng)
            if verdict(lo, hi, None, rule.may_equal(n), rule.may_differ(n)) in (HIGHER, LOWER):
                wrong += 1
                break
    assert wrong / runs <= 0.05


def test_a_look_that_may_decide_reads_wider_percentiles_on_few_games():
    rule = progressive.look_rule(20, 0.05, 0.005)
    assert rule.decides and rule.level == pytest.approx(0.995)
    assert rule.bootstrap_level > 0.998 and rule.difference_from == 20 and rule.equivalence_from == 40
    assert progressive.expanded_level(0.995, 2000) == pytest.approx(0.995, abs=2e-4)  # many games: no change
    preview = progressive.look_rule(5, 0.05, 0.0)
    assert not preview.decides and preview.level == preview.bootstrap_level == 0.95
    assert not preview.may_differ(5) and not preview.may_equal(5)


# -- the run -------------------------------------------------------------------------------------
def test_every_look_uses_the_first_games_of_both_arms_on_the_same_seeds():
    spec = SimSpec(TOY, games=60, players=2, bots="greedy", seed=3)
    updates = list(paired_playtest(spec, spec.with_(bots="ban:Gem:greedy,greedy"), watch=["completion"],
                                   stop_early=False, workers=0, look_every=20, **LOOKS_ONLY))
    assert [u.games for u in updates] == [20, 40, 60]
    assert [u.look for u in updates] == [1, 2, 3] and {u.looks for u in updates} == {3}
    assert [u.done for u in updates] == [False, False, True]
    from workbench.sim.progressive import SPENDING_RHO
    for u, spent in zip(updates, spending([20, 40, 60], 0.05, start=20, rho=SPENDING_RHO)):
        assert u.level == pytest.approx(1 - spent)
        assert u.schedule == [20, 40, 60]
        assert u.a.games["index"].to_list() == list(range(u.games))
        assert u.a.games["seed"].to_list() == u.b.games["seed"].to_list()


def test_a_look_agrees_with_the_batch_comparison_at_its_level():
    spec = SimSpec(TOY, games=40, players=2, bots="greedy", seed=5)
    other = spec.with_(bots="ban:Gem:greedy,greedy")
    *_, last = paired_playtest(spec, other, watch=["seat_advantage_seat1", "duration_actions"],
                               stop_early=False, workers=0, look_every=40, seed=7, **LOOKS_ONLY)
    got = {r["key"]: (r["diff"], r["ci_low"], r["ci_high"]) for r in last.rows}
    assert got == _intervals_at_level(last, 7, ["seat_advantage_seat1", "duration_actions"])


def _intervals_at_level(update, seed, keys):
    """What a look's intervals must be at its level: Student's t over the
    per-game paired differences for a metric of one column, the difference
    plus or minus t times the paired bootstrap's standard error for a metric
    of the whole batch."""
    import numpy as np
    from scipy.special import stdtrit

    from workbench.sim.metrics import METRIC_BY_KEY
    from workbench.sim.progressive import paired_t_interval
    n = update.games
    # each metric's level: its share of the look's alpha (verdicts.alpha_shares)
    level = {r["key"]: r["level"] for r in update.rows}
    batch = compare_results(update.a, update.b, resamples=2000, seed=derive_seed(seed, "look", n), keys=keys)
    out = {}
    for r in batch.rows:
        metric = METRIC_BY_KEY.get(r["key"])
        q = float(stdtrit(n - 1, 1 - (1 - level[r["key"]]) / 2))
        if metric is not None and metric.column:
            x, y = update.a.metric_data().cols[metric.column], update.b.metric_data().cols[metric.column]
            out[r["key"]] = (float(np.mean(y - x)), *paired_t_interval(y - x, level[r["key"]]))
        else:
            out[r["key"]] = (r["diff"], r["diff"] - q * batch.se[r["key"]], r["diff"] + q * batch.se[r["key"]])
    return out


def test_a_clear_difference_stops_the_run_early():
    spec = SimSpec(TOY, games=400, players=2, bots="greedy", seed=3)
    updates = list(paired_playtest(spec, spec.with_(bots="ban:Gem:greedy,greedy"),
                                   watch=["seat_advantage_seat1"], workers=0, first_look=2, **LOOKS_ONLY))
    last = updates[-1]
    assert [u.games for u in updates] == look_schedule(400, 2)[:len(updates)]
    for u in updates:   # a small look shows its interval but calls no difference
        assert u.games >= u.difference_from or u.rows[0]["verdict"] == UNDECIDED
    assert updates[0].difference_from > 2
    assert last.done and last.decided and last.stopped_early and last.games < 400
    assert last.rows[0]["verdict"] == LOWER      # losing the best card costs seat 1 wins
    assert all(not u.done for u in updates[:-1])
    assert last.flipped                           # the games whose outcome changed, for opening


def test_identical_arms_are_never_called_equal_and_stop_once_enough_games_are_in():
    """Identical pairs have no spread: "the bots never chose differently", a
    fact stated from the first look, deciding from the equivalence floor on;
    never "no meaningful change" with its zero-width interval."""
    spec = SimSpec(TOY, games=200, players=3, bots="random", seed=2)
    updates = list(paired_playtest(spec, spec, watch=["completion", "duration_rounds"], workers=0,
                                   min_equivalence=40, look_every=20, **LOOKS_ONLY))
    assert [u.games for u in updates] == [20, 40]
    assert {r["verdict"] for r in updates[0].rows} == {IDENTICAL} and not updates[0].decided
    assert {r["verdict"] for r in updates[-1].rows} == {IDENTICAL} and updates[-1].decided
    assert all(r["identical"] and r["direction"] is None for r in updates[-1].rows)


def test_a_card_no_game_takes_does_not_hold_the_run():
    """A card metric with no value in any game (a card never taken in either
    arm) is identical in every game, and decides like one: the run stops."""
    spec = SimSpec(TOY, games=200, players=2, bots="random", seed=2)
    updates = list(paired_playtest(spec, spec, watch=["completion", "card_first_round:NoSuchCard"], workers=0,
                                   look_every=20, **LOOKS_ONLY))
    assert updates[-1].games == 40 and updates[-1].decided
    assert {r["verdict"] for r in updates[-1].rows} == {IDENTICAL}


def test_a_small_difference_is_not_given_a_direction_word():
    """An interval that excludes 0 but lies inside the margin is a slight
    change; one that straddles the margin is a change of unclear size; only one
    beyond the margin earns higher / lower (better / worse)."""
    from workbench.sim.verdicts import SLIGHT, UNCLEAR_SIZE
    assert verdict(0.1, 0.3, 0.5, True) == SLIGHT[HIGHER]
    assert verdict(-0.3, -0.1, 0.5, True) == SLIGHT[LOWER]
    assert verdict(0.1, 0.7, 0.5, True) == UNCLEAR_SIZE[HIGHER]
    assert verdict(0.6, 0.9, 0.5, True) == HIGHER
    assert verdict(0.1, 0.3, None, True) == HIGHER   # no margin: beyond 0 is beyond it


def test_pool_and_serial_give_the_same_looks():
    spec = SimSpec(TOY, games=60, players=2, bots="greedy", seed=11)
    other = spec.with_(options={"target": 10})
    kwargs = dict(watch=["completion", "duration_actions", "card_use:Gem"], stop_early=False, first_look=4,
                  **LOOKS_ONLY)
    serial = [u.to_dict() for u in paired_playtest(spec, other, workers=0, **kwargs)]
    pooled = [u.to_dict() for u in paired_playtest(spec, other, workers=2, **kwargs)]
    for d in serial + pooled:
        d.pop("elapsed")
    assert serial == pooled


def test_previews_on_the_pool_are_prefixes_of_the_same_games():
    spec = SimSpec(TOY, games=30, players=2, bots="greedy", seed=11)
    other = spec.with_(bots="ban:Gem:greedy,greedy")
    updates = list(paired_playtest(spec, other, watch=["duration_actions"], workers=2, first_look=20,
                                   stop_early=False, first_preview=0.0, preview_every=0.0))
    assert [u.games for u in updates if not u.preview] == [20, 30]
    previews = [u for u in updates if u.preview]
    assert previews and all(2 <= u.games < 20 or 20 < u.games < 30 for u in previews)
    batch_a, batch_b = simulate(spec, workers=0), simulate(other, workers=0)
    for u in updates:
        assert u.a.games.equals(batch_a.games.head(u.games)) and u.b.games.equals(batch_b.games.head(u.games))


def test_leaving_the_loop_stops_the_workers():
    spec = SimSpec(TOY, games=2000, players=2, bots="greedy", seed=1)
    stream = paired_playtest(spec, spec.with_(bots="random"), watch=["completion"], workers=2,
                             stop_early=False, first_look=20, **LOOKS_ONLY)
    first = next(stream)
    assert first.games == 20
    stream.close()
    assert multiprocessing.active_children() == []


def test_on_update_sees_every_update():
    spec = SimSpec(TOY, games=40, players=2, seed=1)
    seen = []
    updates = list(paired_playtest(spec, spec, watch=["completion"], workers=0, stop_early=False,
                                   on_update=seen.append, first_preview=0.0, preview_every=0.0))
    assert seen == updates


@pytest.mark.parametrize("kwargs, message", [
    (dict(watch=["complet"]), "unknown metric"),
    (dict(watch=[]), "at least one"),
    (dict(look_every=0), "look_every"),
    (dict(first_look=0), "first_look"),
    (dict(first_look="soon"), "first_look"),
    (dict(max_step=0), "max_step"),
    (dict(first_preview=-1), "first_preview"),
    (dict(min_difference=1), "min_difference"),
    (dict(alpha=1.5), "alpha"),
])
def test_bad_settings_are_refused(kwargs, message):
    spec = SimSpec(TOY, games=10, players=2)
    with pytest.raises(WorkbenchError, match=message):
        paired_playtest(spec, spec, **kwargs)


def test_arms_on_different_seeds_are_refused():
    with pytest.raises(WorkbenchError, match="same seed"):
        paired_playtest(SimSpec(TOY, games=10, seed=1), SimSpec(TOY, games=10, seed=2))


def test_tweak_session_streams_its_playtest(cards_copy):
    from workbench.tweak import open_session
    s = open_session()
    s.edit("Pulse", "I", 1)
    updates = list(s.stream_playtest(n=20, players=4, seed=3, bots="random", workers=0, look_every=10,
                                     stop_early=False, **LOOKS_ONLY))
    assert [u.games for u in updates] == [10, 20]
    keys = [r["key"] for r in updates[-1].rows]
    # the game's leading metrics, then the edited card's own (issue 25)
    from workbench.sim.verdicts import leading_watch
    assert keys == leading_watch(s.game, ["Pulse"])
    # (what the take itself gave too, and what a take would give where it is
    # offered: a Pattern's Bonus can score at once, Game.take_scores)
    assert keys[-9:] == ["card_times:Pulse", "card_use:Pulse", "card_first_round:Pulse", "card_taker_win:Pulse",
                         "card_taker_score:Pulse", "card_taker_margin:Pulse", "card_taker_soon:Pulse",
                         "card_taker_take:Pulse", "card_taker_offer:Pulse"]
    assert updates[-1].done
    from workbench.tweak.session import update_summary
    summary = update_summary(updates[-1])
    names = summary["metric"].to_list()
    assert "survival rate" in names and "game length (rounds)" in names and "games taking Pulse" in names


def test_a_streamed_update_opens_its_flipped_games_like_a_quick_playtest(cards_copy):
    from workbench.tweak import open_session
    s = open_session()
    s.edit("Pulse", "I", 3)
    *_, last = s.stream_playtest(n=12, players=4, seed=2, bots="random", workers=0, look_every=12,
                                 **LOOKS_ONLY)
    result = s.paired_result(last)
    assert result.games == 12 and result.card == "Pulse" and result.players == 4
    assert result.pools == (s.baseline, s.cards)
    assert "verdict" in result.summary.columns
    assert result.flipped == last.flipped and result.flipped   # the costlier Pulse changes an outcome
    match = s.flipped_match(result, 0, "new")
    assert match["game"] == s.session_game("edited", pool=s.cards)
    assert match["config"] == result.flipped[0]["config_b"]


def test_streamed_playtest_plays_the_sessions_own_game(cards_copy, monkeypatch):
    """A Pax session's streamed playtest plays Pax with the edited pool (not
    Meaning Made with Pax's cards)."""
    from workbench.tweak import open_session
    from workbench.tweak import session as tweak

    played = []
    real = tweak._register_pool

    def spy(cards, game_id):
        played.append(game_id)
        return real(cards, game_id)

    monkeypatch.setattr(tweak, "_register_pool", spy)
    s = open_session(game_id="pax-transhumanity")
    s.edit("Gene Drive", "heat", "white white black")
    updates = list(s.stream_playtest(n=6, seed=2, bots="random", workers=0, look_every=3, stop_early=False,
                                     **LOOKS_ONLY,
                                     watch=("duration_actions",)))
    assert updates and updates[-1].games == 6
    assert played == ["pax-transhumanity", "pax-transhumanity"]


def test_the_same_games_give_the_same_look_whatever_the_schedule():
    """The prefix rule: a look at n games is the first n games of a batch of the
    same seed, whatever the schedule or the chunks, and its interval is that of
    those games at its level."""
    spec = SimSpec(TOY, games=24, players=2, bots="greedy", seed=4)
    other = spec.with_(bots="ban:Gem:greedy,greedy")
    watch = ["seat_advantage_seat1", "duration_actions"]
    doubling = {u.games: u for u in paired_playtest(spec, other, watch=watch, first_look=3, stop_early=False,
                                                     workers=0, seed=9, **LOOKS_ONLY)}
    grid = {u.games: u for u in paired_playtest(spec, other, watch=watch, look_every=6, stop_early=False,
                                                 workers=0, seed=9, **LOOKS_ONLY)}
    assert sorted(doubling) == [3, 6, 12, 24] and sorted(grid) == [6, 12, 18, 24]
    batch_a, batch_b = simulate(spec, workers=0), simulate(other, workers=0)
    for n in (6, 12, 24):
        x, y = doubling[n], grid[n]
        assert x.a.games.equals(y.a.games) and x.b.cards.equals(y.b.cards)
        assert x.a.games.equals(batch_a.games.head(n)) and x.b.games.equals(batch_b.games.head(n))
        assert [r["diff"] for r in x.rows] == [r["diff"] for r in y.rows]
        for u in (x, y):
            want = _intervals_at_level(u, 9, watch)
            assert [(r["ci_low"], r["ci_high"]) for r in u.rows] == [want[k][1:] for k in watch]


def test_updates_stream_before_the_games_are_all_played(monkeypatch):
    from workbench.sim import backends
    played = []
    real = backends.run_chunk
    monkeypatch.setattr(backends, "run_chunk", lambda spec, part: played.append(part) or real(spec, part))
    spec = SimSpec(TOY, games=40, players=2, bots="greedy", seed=1)
    seen = []
    stream = paired_playtest(spec, spec.with_(bots="random"), watch=["completion"], workers=0, first_look=5,
                             stop_early=False, **LOOKS_ONLY)
    for update in stream:
        seen.append((update.games, sum(len(p) for p in played)))
    assert [n for n, _ in seen] == [5, 10, 20, 40]
    # each look came as soon as its games were in, while the later ones were still to play
    assert [games for _, games in seen] == [10, 20, 40, 80]


def test_previews_show_the_games_in_so_far_and_decide_nothing(monkeypatch):
    """With previews due at once, every chunk that lengthens the prefix of
    both arms gives a preview between the scheduled looks; a preview is the
    first n games like a look, spends no alpha, never decides nor stops."""
    spec = SimSpec(TOY, games=30, players=2, bots="greedy", seed=3)
    other = spec.with_(bots="ban:Gem:greedy,greedy")
    watch = ["duration_actions", "completion"]
    updates = list(paired_playtest(spec, other, watch=watch, workers=0, first_look=20, stop_early=False,
                                   first_preview=0.0, preview_every=0.0))
    looks = [u for u in updates if not u.preview]
    previews = [u for u in updates if u.preview]
    assert [u.games for u in looks] == [20, 30]
    ends = [part[-1] + 1 for part in chunk_plan([20, 30])]
    assert [u.games for u in previews] == [n for n in ends if n >= 2 and n not in (20, 30)]
    sizes = [u.games for u in updates]
    assert sizes == sorted(set(sizes))     # each update has more games than the one before
    for u in previews:
        assert u.level == 0.95 and not u.decided and not u.done
        assert {r["verdict"] for r in u.rows} == {UNDECIDED}
        assert u.a.games["index"].to_list() == list(range(u.games))
    # the looks are those of a run without previews
    plain = [u.to_dict() for u in paired_playtest(spec, other, watch=watch, workers=0, first_look=20,
                                                     stop_early=False, **LOOKS_ONLY)]
    for d in plain:
        d.pop("elapsed")
    again = [u.to_dict() for u in looks]
    for d in again:
        d.pop("elapsed")
    assert again == plain


def test_one_preview_only_without_preview_every():
    spec = SimSpec(TOY, games=30, players=2, bots="greedy", seed=3)
    updates = list(paired_playtest(spec, spec, watch=["completion"], workers=0, first_look=20, stop_early=False,
                                   first_preview=0.0, preview_every=None))
    assert [(u.games, u.preview) for u in updates] == [(2, True), (20, False), (30, False)]


def test_previews_wait_for_the_clock():
    spec = SimSpec(TOY, games=40, players=2, bots="greedy", seed=3)
    # neither the first preview nor the ones between looks are due within the run (a
    # loaded machine took over preview_every's 1 s from the look at 20 to the one at 40)
    updates = list(paired_playtest(spec, spec, watch=["completion"], workers=0, first_look=20, stop_early=False,
                                   first_preview=3600.0, preview_every=3600.0))
    assert [u.games for u in updates] == [20, 40] and not any(u.preview for u in updates)


@pytest.mark.parametrize("game_id", ["meaning-made", "mandate-2038", "pax-transhumanity"])
def test_the_benchmarks_edit_is_a_draft_value_of_the_games_card_session(game_id):
    from workbench.tweak import open_session
    from workbench.core.registry import get_game
    variables, _ = open_session(game_id).variables([get_game(game_id).bench_edit])
    assert variables and variables[0].provenance == "draft"


def test_the_bench_measures_a_game_without_a_card_session(capsys):
    from workbench.cli import main
    assert main(["bench", "--game", TOY, "--quick", "--only", "paired", "--json"]) == 0
    import json
    (figure,) = json.loads(capsys.readouterr().out)["games"][0]["figures"]
    assert figure["name"] == "paired" and figure["first_update_games"] >= 2


def test_the_main_process_values_a_first_move_before_forking_unless_bots_play_at_random(monkeypatch):
    """So tables a game builds once per process for its evaluation are built
    before the workers are forked, and inherited by all of them."""
    from workbench.sim.runner import resolve_game
    game = resolve_game(TOY)
    calls = []
    real = type(game).action_values
    monkeypatch.setattr(type(game), "action_values",
                        lambda self, state, seat, actions, weights=None: calls.append(seat) or
                        real(self, state, seat, actions, weights))
    progressive._validate(SimSpec(TOY, games=10, players=2, bots="greedy"))
    assert calls == [0]
    progressive._validate(SimSpec(TOY, games=10, players=2, bots="random"))
    assert calls == [0]


def test_a_preview_on_too_few_games_shows_no_interval(cards_copy):
    """A preview before any look may decide (``difference_from``) says "too few
    games" where the difference and its interval would be: on a handful of
    paired games they can all be 0 and "+0 [+0, +0]" reads as certain. A look
    shows its interval as ever."""
    import dataclasses
    from workbench.dashboard.formats import paired_table
    from workbench.sim.verdicts import TOO_FEW
    from workbench.tweak import open_session
    from workbench.tweak.session import update_summary
    s = open_session()
    s.edit("Pulse", "I", 1)
    look = list(s.stream_playtest(n=20, players=4, seed=3, bots="random", workers=0, look_every=20,
                                  **LOOKS_ONLY))[-1]
    preview = dataclasses.replace(look, games=4, preview=True, difference_from=20)
    summary = update_summary(preview)
    assert summary["diff"].null_count() == summary["ci_low"].null_count() == summary.height
    assert all(v.startswith(TOO_FEW) and "4 per pool" in v for v in summary["verdict"].to_list())
    shown = paired_table(summary)
    assert set(shown["difference [95% CI]"]) == {TOO_FEW}
    summary_look = update_summary(look)
    shown_look = paired_table(summary_look)
    cells = list(shown_look["difference [95% CI]"])
    assert TOO_FEW not in set(cells) and any("[" in c for c in cells)
    # 20 pairs that all agree have no spread to bound: "too few games", never "+0 [+0, +0]"
    spread = {r["metric"]: r["ci_low"] is not None for r in summary_look.iter_rows(named=True)}
    assert not all(spread.values())
    for metric, cell in zip(shown_look["metric"], cells):
        assert ("[" in cell) == spread[metric] and (spread[metric] or cell.endswith(f"({TOO_FEW})")), (metric, cell)
