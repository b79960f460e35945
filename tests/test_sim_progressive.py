"""The progressive paired playtest: looks on the first n games of both arms,
Bonferroni-adjusted intervals, early stop once every watched metric is decided."""

from __future__ import annotations

import multiprocessing

import pytest

from workbench.core.errors import WorkbenchError
from workbench.sim import SimSpec
from workbench.sim.compare import compare_results
from workbench.sim.progressive import HIGHER, LOWER, SAME, UNDECIDED, paired_playtest, verdict

TOY = "workbench.games.pebble_race:GAME"


def test_the_stopping_rule_for_one_metric():
    assert verdict(0.1, 0.3, 0.05, True) == HIGHER
    assert verdict(-0.3, -0.1, 0.05, True) == LOWER
    assert verdict(-0.01, 0.02, 0.05, True) == SAME
    assert verdict(-0.01, 0.02, 0.05, False) == UNDECIDED   # too few games to call it equal
    assert verdict(-0.01, 0.02, None, True) == UNDECIDED    # no margin stated: only a difference decides
    assert verdict(-0.2, 0.3, 0.05, True) == UNDECIDED
    assert verdict(None, None, 0.05, True) == UNDECIDED


def test_every_look_uses_the_first_games_of_both_arms_on_the_same_seeds():
    spec = SimSpec(TOY, games=60, players=2, bots="greedy", seed=3)
    updates = list(paired_playtest(spec, spec.with_(bots="ban:Gem:greedy,greedy"), watch=["completion"],
                                   stop_early=False, workers=0))
    assert [u.games for u in updates] == [20, 40, 60]
    assert [u.look for u in updates] == [1, 2, 3] and {u.looks for u in updates} == {3}
    assert [u.done for u in updates] == [False, False, True]
    for u in updates:
        assert u.level == pytest.approx(1 - 0.05 / 3)
        assert u.a.games["index"].to_list() == list(range(u.games))
        assert u.a.games["seed"].to_list() == u.b.games["seed"].to_list()


def test_a_look_agrees_with_the_batch_comparison_at_its_level():
    spec = SimSpec(TOY, games=40, players=2, bots="greedy", seed=5)
    other = spec.with_(bots="ban:Gem:greedy,greedy")
    *_, last = paired_playtest(spec, other, watch=["seat_advantage_seat1", "duration_actions"],
                               stop_early=False, workers=0, look_every=40, seed=7)
    from workbench.core.rng import derive_seed
    batch = compare_results(last.a, last.b, resamples=2000, seed=derive_seed(7, "look", 1), level=last.level,
                            keys=["seat_advantage_seat1", "duration_actions"])
    got = {r["key"]: (r["diff"], r["ci_low"], r["ci_high"]) for r in last.rows}
    want = {r["key"]: (r["diff"], r["ci_low"], r["ci_high"]) for r in batch.rows}
    assert got == want


def test_a_clear_difference_stops_the_run_early():
    spec = SimSpec(TOY, games=400, players=2, bots="greedy", seed=3)
    updates = list(paired_playtest(spec, spec.with_(bots="ban:Gem:greedy,greedy"),
                                   watch=["seat_advantage_seat1"], workers=0))
    last = updates[-1]
    assert last.done and last.decided and last.stopped_early and last.games < 400
    assert last.rows[0]["verdict"] == LOWER      # losing the best card costs seat 1 wins
    assert all(not u.done for u in updates[:-1])
    assert last.flipped                           # the games whose outcome changed, for opening


def test_identical_arms_are_called_equal_once_enough_games_are_in():
    spec = SimSpec(TOY, games=200, players=3, bots="random", seed=2)
    updates = list(paired_playtest(spec, spec, watch=["completion", "duration_rounds"], workers=0,
                                   min_equivalence=40))
    assert [u.games for u in updates] == [20, 40]
    assert updates[0].rows[0]["verdict"] == UNDECIDED
    assert {r["verdict"] for r in updates[-1].rows} == {SAME}


def test_pool_and_serial_give_the_same_looks():
    spec = SimSpec(TOY, games=60, players=2, bots="greedy", seed=11)
    other = spec.with_(options={"target": 10})
    kwargs = dict(watch=["completion", "duration_actions", "card_use:Gem"], stop_early=False)
    serial = [u.to_dict() for u in paired_playtest(spec, other, workers=0, **kwargs)]
    pooled = [u.to_dict() for u in paired_playtest(spec, other, workers=2, **kwargs)]
    for d in serial + pooled:
        d.pop("elapsed")
    assert serial == pooled


def test_leaving_the_loop_stops_the_workers():
    spec = SimSpec(TOY, games=2000, players=2, bots="greedy", seed=1)
    stream = paired_playtest(spec, spec.with_(bots="random"), watch=["completion"], workers=2,
                             stop_early=False)
    first = next(stream)
    assert first.games == 20
    stream.close()
    assert multiprocessing.active_children() == []


def test_on_update_sees_every_update():
    spec = SimSpec(TOY, games=40, players=2, seed=1)
    seen = []
    updates = list(paired_playtest(spec, spec, watch=["completion"], workers=0, stop_early=False,
                                   on_update=seen.append))
    assert seen == updates


@pytest.mark.parametrize("kwargs, message", [
    (dict(watch=["complet"]), "unknown metric"),
    (dict(watch=[]), "at least one"),
    (dict(look_every=0), "look_every"),
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
    from workbench.graphs.tweak import TweakSession
    s = TweakSession()
    s.edit("Pulse", "I", 1)
    updates = list(s.stream_playtest(n=20, players=4, seed=3, bots="random", workers=0, look_every=10,
                                     stop_early=False))
    assert [u.games for u in updates] == [10, 20]
    keys = [r["key"] for r in updates[-1].rows]
    assert keys == ["completion", "duration_rounds", "score_spread", "card_use:Pulse"]
    assert updates[-1].done
    from workbench.graphs.tweak import update_summary
    summary = update_summary(updates[-1])
    assert summary["metric"].to_list() == ["survival rate", "game length (rounds)", "score spread",
                                           "games taking Pulse"]


def test_streamed_playtest_plays_the_sessions_own_game(cards_copy, monkeypatch):
    """A Pax session's streamed playtest plays Pax with the edited pool (not
    Meaning Made with Pax's cards)."""
    from workbench.graphs import tweak

    played = []
    real = tweak._register_pool

    def spy(cards, game_id=tweak.GAME_ID):
        played.append(game_id)
        return real(cards, game_id)

    monkeypatch.setattr(tweak, "_register_pool", spy)
    s = tweak.TweakSession(game_id="pax-transhumanity")
    s.edit("Gene Drive", "heat", "white white black")
    updates = list(s.stream_playtest(n=6, seed=2, bots="random", workers=0, look_every=3, stop_early=False,
                                     watch=("duration_actions",)))
    assert updates and updates[-1].games == 6
    assert played == ["pax-transhumanity", "pax-transhumanity"]
