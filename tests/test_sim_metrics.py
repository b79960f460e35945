"""Design metrics computed on hand-made batches whose answers are known."""

from __future__ import annotations

import math

import polars as pl
import pytest

from workbench.sim import SimResult, SimSpec, simulate, tables_from_records
from workbench.sim.metrics import METRICS, MetricData, compute_all, flatten
from workbench.sim.runner import _trace_metrics

TOY = "workbench.games.pebble_race:GAME"


def _record(index, winners, turns, actions, *, seats=2, ending=None, decisions=None, multi=None,
            options=None, trace=None):
    ending = ending or ("won" if winners else "collapsed")
    decisions = actions if decisions is None else decisions
    game = {"index": index, "seed": index, "players": seats, "ending": ending,
            "completed": bool(winners), "no_winner": not winners and ending != "timeout",
            "timeout": ending == "timeout", "n_winners": len(winners),
            "winners": ",".join(f"P{w}" for w in winners), "turns": turns, "actions": actions,
            "decisions": decisions, "multi_option_decisions": decisions if multi is None else multi,
            "options_total": 2 * decisions if options is None else options, "score_spread": 0.0,
            "lead_changes": None, "lead_change": None, "drama": None, "decisiveness": None}
    if trace:
        game.update(trace)
    players = [{"index": index, "seed": index, "seat": s, "name": f"P{s}", "bot": "random",
                "score": 0.0, "won": s in winners, "win_credit": 1 / len(winners) if s in winners else 0.0}
               for s in range(seats)]
    return {"game": game, "players": players, "cards": []}


def _result(records, ideal=None):
    games, players, cards = tables_from_records(records)
    return SimResult(SimSpec(TOY, games=len(records)), games, players, cards, ideal_rounds=ideal)


def test_every_metric_has_a_documented_formula_and_a_unique_key():
    keys = [m.key for m in METRICS]
    assert len(keys) == len(set(keys))
    for m in METRICS:
        doc = type(m).__doc__ or ""
        assert "range" in doc.lower(), m.key
        assert m.label


def test_completion_collapse_timeout_add_up():
    recs = [_record(0, [0], 5, 10), _record(1, [], 5, 10), _record(2, [], 9, 40, ending="timeout"),
            _record(3, [1], 5, 10)]
    m = _result(recs).metrics()
    assert (m["completion"], m["no_winner"], m["timeout"]) == (0.5, 0.25, 0.25)


def test_balance_and_seat_advantage():
    # seat 0 wins 3 of 4, seat 1 wins 1 of 4
    recs = [_record(i, [0], 5, 10) for i in range(3)] + [_record(3, [1], 5, 10)]
    m = _result(recs).metrics()
    assert m["balance"] == pytest.approx(1 - (0.75 - 0.25))
    assert m["seat_advantage"] == {1: pytest.approx(0.25), 2: pytest.approx(-0.25)}


def test_drawishness_counts_shared_wins():
    recs = [_record(0, [0, 1], 5, 10), _record(1, [0], 5, 10), _record(2, [], 5, 10), _record(3, [0, 1], 5, 10)]
    assert _result(recs).metrics()["drawishness"] == 0.5


def test_duration_mean_spread_and_ideal_score():
    recs = [_record(0, [0], 4, 8), _record(1, [0], 6, 12), _record(2, [0], 11, 30)]
    m = _result(recs, ideal=(5, 8)).metrics()
    assert m["duration_rounds"] == pytest.approx(7.0)
    assert m["duration_rounds_sd"] == pytest.approx(math.sqrt(((4 - 7) ** 2 + 1 + 16) / 2))
    assert m["duration_actions"] == pytest.approx(50 / 3)
    # 4 rounds is 1 short of [5, 8] (width 4): 0.75; 6 is inside: 1; 11 is 3 over: 0.25
    assert m["ideal_duration"] == pytest.approx((0.75 + 1 + 0.25) / 3)
    assert _result(recs).metrics()["ideal_duration"] is None


def test_score_spread_is_the_mean_gap_between_best_and_worst():
    result = simulate(SimSpec(TOY, games=12, players=3, seed=4), workers=0)
    gaps = result.players.group_by("index").agg((pl.col("score").max() - pl.col("score").min()).alias("gap"))
    assert result.metrics()["score_spread"] == pytest.approx(gaps["gap"].mean())


def test_decision_moves_and_branching_factor_are_ratios_of_sums():
    recs = [_record(0, [0], 3, 10, decisions=10, multi=5, options=30),
            _record(1, [0], 3, 30, decisions=30, multi=30, options=90)]
    m = _result(recs).metrics()
    assert m["decision_moves"] == pytest.approx(35 / 40)
    assert m["branching_factor"] == pytest.approx(120 / 40)


def test_trace_metrics_of_a_comeback():
    # seat 1 trails, takes the lead at sample 2 and keeps it to the end
    samples = [[5, 1], [6, 2], [4, 7], [3, 9]]
    t = _trace_metrics(samples, winners=[1])
    assert t["lead_changes"] == 1
    assert t["lead_change"] == pytest.approx(1 / 3)
    assert t["decisiveness"] == pytest.approx(1 - 2 / 4)
    assert t["drama"] == pytest.approx(((5 - 1) / 4 + (6 - 2) / 4 + 0 + 0) / 4)


def test_trace_metrics_of_a_wire_to_wire_win_and_of_a_loss_for_all():
    t = _trace_metrics([[9, 1], [9, 2], [10, 2]], winners=[0])
    assert (t["lead_changes"], t["decisiveness"], t["drama"]) == (0, 1.0, 0.0)
    t = _trace_metrics([[1, 2], [2, 1]], winners=[])
    assert t["drama"] is None and t["decisiveness"] is None and t["lead_changes"] == 1


def test_trace_metrics_reach_the_games_table():
    result = simulate(SimSpec(TOY, games=30, players=3, bots="greedy", seed=2), workers=0)
    m = result.metrics()
    for key in ("decisiveness", "lead_change", "drama"):
        assert 0.0 <= m[key] <= 1.0
    assert m["decision_moves"] == 1.0  # every Pebble Race position offers gamble and pass
    assert m["branching_factor"] > 2


def test_card_summary():
    result = simulate(SimSpec(TOY, games=40, players=2, bots="force:Gem:random,random", seed=5), workers=0)
    summary = result.card_summary()
    rows = {r["card"]: r for r in summary.iter_rows(named=True)}
    assert set(rows) <= {"Pebble", "Stone", "Gem", "Shell"}
    # the forcing seat snaps Gems up, so Gem is taken in more games and earlier than Pebble
    assert rows["Gem"]["pick_rate"] >= rows["Pebble"]["pick_rate"]
    assert rows["Gem"]["mean_first_round"] < rows["Pebble"]["mean_first_round"]
    for r in rows.values():
        assert 0 <= r["pick_rate"] <= 1 and 0 <= r["win_rate_when_taken"] <= 1
    taken = result.cards.filter((pl.col("card") == "Gem") & (pl.col("times_taken") > 0))
    assert rows["Gem"]["pick_rate"] == pytest.approx(taken.height / 40)


def test_flatten_spreads_seat_metrics():
    flat = flatten(compute_all(MetricData.from_result(_result([_record(0, [1], 3, 9)]))))
    assert flat["seat_advantage_seat2"] == pytest.approx(0.5)


# -- balancing metrics (issue 15) -------------------------------------------------------

def _scored(index, winners, scores, *, cards=(), extra=None):
    rec = _record(index, winners, 5, 10, seats=len(scores))
    for p, score in zip(rec["players"], scores):
        p["score"] = float(score)
    rec["cards"] = [{"index": index, "seed": index, "card": c, "times_taken": t} for c, t in cards]
    if extra:
        rec["game"].update(extra)
    return rec


def test_seat_win_rate_and_gap_count_shared_wins_in_full():
    # game 0: seat 0 wins; game 1: both share; game 2: seat 1 wins; game 3: nobody
    recs = [_scored(0, [0], [3, 1]), _scored(1, [0, 1], [2, 2]), _scored(2, [1], [0, 4]),
            _scored(3, [], [0, 0])]
    m = _result(recs).metrics()
    assert m["seat_win_rate"] == {1: 0.5, 2: 0.5}
    assert m["seat_gap"] == 0.0
    recs = [_scored(0, [0], [3, 1]), _scored(1, [0], [2, 1]), _scored(2, [0], [5, 4]), _scored(3, [1], [0, 4])]
    m = _result(recs).metrics()
    assert m["seat_win_rate"] == {1: 0.75, 2: 0.25}
    assert m["seat_gap"] == pytest.approx(0.25)


def test_cooperative_win_rate_is_survival():
    # everyone wins when the world survives (2 of 4 games)
    recs = [_scored(i, [0, 1, 2] if i % 2 else [], [7, 7, 7]) for i in range(4)]
    m = _result(recs).metrics()
    assert m["completion"] == 0.5
    assert m["seat_win_rate"] == {1: 0.5, 2: 0.5, 3: 0.5}


def test_tie_break_share_counts_shared_top_scores_among_games_with_a_winner():
    recs = [_scored(0, [0], [3, 3, 1]),      # tie broken (e.g. by Capital)
            _scored(1, [1], [1, 4, 2]),      # score decides
            _scored(2, [0, 2], [5, 0, 5]),   # shared
            _scored(3, [], [0, 0, 0])]       # no winner: left out
    assert _result(recs).metrics()["tie_break_share"] == pytest.approx(2 / 3)


def test_decided_by_score_counts_every_game_and_a_timeout_as_undecided():
    recs = [_scored(0, [0], [3, 3, 1]),                      # tie broken by Capital
            _scored(1, [1], [1, 4, 2]),                      # score decides
            _scored(2, [2], [0, 1, 6]),                      # score decides
            _scored(3, [], [2, 0, 0], extra={"ending": "timeout", "timeout": True, "no_winner": False})]
    m = _result(recs).metrics()
    # the timeout is left out of the tie-break share (1 of 3 won games tied) ...
    assert m["tie_break_share"] == pytest.approx(1 / 3)
    assert m["timeout"] == pytest.approx(1 / 4)
    # ... but counts against "decided by score", although one seat led it alone
    assert m["decided_by_score"] == pytest.approx(2 / 4)
    assert m["decided_by_score"] == pytest.approx(m["completion"] * (1 - m["tie_break_share"]))
    assert _result([_scored(0, [0], [4])]).metrics()["decided_by_score"] is None


def test_cap_saturation_reads_players_at_cap():
    recs = [_scored(0, [0], [30, 30, 12], extra={"players_at_cap": 2}),
            _scored(1, [1], [10, 30, 2], extra={"players_at_cap": 1})]
    assert _result(recs).metrics()["cap_saturation"] == pytest.approx(3 / 6)
    assert _result([_scored(0, [0], [1, 0])]).metrics()["cap_saturation"] is None


def test_score_mean_and_seat_margin_read_the_final_scores():
    # game 0: 30, 30, 12; game 1: 10, 30, 2
    recs = [_scored(0, [0], [30, 30, 12], extra={"players_at_cap": 2}),
            _scored(1, [1], [10, 30, 2], extra={"players_at_cap": 1})]
    m = _result(recs).metrics()
    assert m["score_mean"] == pytest.approx((72 / 3 + 42 / 3) / 2)
    # seat 1: 30 - 30 = 0, 10 - 30 = -20; seat 2: 30 - 30 = 0, 30 - 10 = +20; seat 3: -18, -28
    assert m["seat_margin"] == {1: pytest.approx(-10), 2: pytest.approx(10), 3: pytest.approx(-23)}
    assert _result([_scored(0, [0], [4])]).metrics()["seat_margin"] is None   # one seat: no one to beat
    # a paired comparison resamples both from per-game columns (one player count)
    from workbench.sim.metrics import MetricData
    d = MetricData.from_result(_result(recs))
    assert list(d.cols["mean_score"]) == [24.0, 14.0]
    assert d.cols["cap_share"].mean() == pytest.approx(m["cap_saturation"])


def test_action_usage_and_card_usage_from_the_cards_table():
    from workbench.sim.metrics import MetricData, compute

    recs = [_scored(0, [0], [2, 1], cards=[("Fund", 3), ("Build", 1), ("Gem", 1)]),
            _scored(1, [1], [1, 2], cards=[("Fund", 1), ("Gem", 0)])]
    result = _result(recs)
    d = result.metric_data()
    assert d.action_kinds == ()          # the toy game names no action kinds
    assert compute(d, "action_usage") is None
    d = MetricData(d.cols, d.won, None, d.scores, d.card_counts, ("Fund", "Build", "Organize"))
    usage = compute(d, "action_usage")
    assert usage == {"Fund": pytest.approx(4 / 5), "Build": pytest.approx(1 / 5), "Organize": 0.0}
    assert compute(d, "action_usage_min") == 0.0
    assert compute(d, "card_usage") == {"Build": 0.5, "Fund": 1.0, "Gem": 0.5}
    assert compute(d, "survival") == 1.0


def test_mandate_names_its_core_actions_for_action_usage():
    from workbench.core.registry import get_game
    assert get_game("mandate-2038").action_kinds == ("Fund", "Research", "Build", "Organize", "Deploy", "Influence")


# -- role (faction) metrics --------------------------------------------------------------

def _roled(index, winners, roles):
    """A game whose seats played ``roles`` (one name per seat), won by ``winners``."""
    rec = _record(index, winners, 5, 10, seats=len(roles))
    for p, role in zip(rec["players"], roles):
        p["role"] = role
    return rec


def test_role_win_rate_counts_the_games_a_role_was_dealt_in():
    # three factions, two seats: not every faction is in every game
    recs = [_roled(0, [0], ["Red", "Blue"]),    # Red wins
            _roled(1, [1], ["Green", "Red"]),   # Red wins
            _roled(2, [0], ["Blue", "Green"]),  # Blue wins
            _roled(3, [0], ["Red", "Green"])]   # Red wins
    m = _result(recs).metrics()
    # Red: 3 of 3 games; Blue: 1 of 2; Green: 0 of 3
    assert m["role_win_rate"] == {"Blue": 0.5, "Green": 0.0, "Red": 1.0}
    # one winner a game: fair is 1/2 for every role; Red is 0.5 above it
    assert m["role_gap"] == pytest.approx(0.5)
    flat = flatten(m)
    assert flat["role_win_rate_green"] == 0.0 and flat["role_win_rate_red"] == 1.0


def test_role_gap_measures_each_role_against_the_games_it_was_in():
    # game 0 has no winner; Gold sat it out, so Gold's fair rate is 1/2, not (0 + 1/2)/2
    recs = [_roled(0, [], ["Red", "Blue"]), _roled(1, [0], ["Gold", "Blue"]),
            _roled(2, [1], ["Red", "Gold"]), _roled(3, [1], ["Red", "Blue"])]
    d = _result(recs).metric_data()
    from workbench.sim.metrics import role_rates, role_summary
    rates = role_rates(d)
    assert rates["Gold"] == (2, 1.0, 0.5)                       # won both of its games
    assert rates["Red"] == (3, 0.0, pytest.approx(1 / 3))       # fair (0 + 1/2 + 1/2) / 3
    assert rates["Blue"] == (3, pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert compute_all(d)["role_gap"] == pytest.approx(0.5)     # Gold, 1.0 against 0.5
    rows = {r["role"]: r for r in role_summary(d)}
    assert (rows["Gold"]["player_games"], rows["Gold"]["wins"]) == (2, 2)
    assert rows["Gold"]["ci_low"] < 1.0 == rows["Gold"]["ci_high"]
    assert rows["Red"]["ci_low"] == 0.0 < rows["Red"]["ci_high"] < 1.0


def test_role_metrics_count_shared_wins_in_full_and_even_roles_have_no_gap():
    # every game shared by both seats: each role wins every game it is in, fair is 1
    recs = [_roled(i, [0, 1], [a, b]) for i, (a, b) in enumerate([("Red", "Blue"), ("Blue", "Red")])]
    m = _result(recs).metrics()
    assert m["role_win_rate"] == {"Blue": 1.0, "Red": 1.0}
    assert m["role_gap"] == 0.0


def test_role_metrics_are_null_without_roles_and_resample_with_the_games():
    import numpy as np
    m = _result([_record(0, [0], 3, 9)]).metrics()        # the toy game's players have no role column
    assert m["role_win_rate"] is None and m["role_gap"] is None
    recs = [_roled(0, [0], ["Red", "Blue"]), _roled(1, [0], ["Blue", "Red"])]
    d = _result(recs).metric_data()
    again = d.take(np.array([1, 1]))                      # a bootstrap draw of game 1 twice
    assert compute_all(again)["role_win_rate"] == {"Blue": 1.0, "Red": 0.0}


def test_faction_aliases_name_the_role_metrics():
    from workbench.sim.metrics import compute, resolve_alias
    assert resolve_alias("faction_gap") == "role_gap"
    assert resolve_alias("faction_win_rate_mirevanta") == "role_win_rate_mirevanta"
    assert resolve_alias("seat_gap") == "seat_gap"
    d = _result([_roled(0, [1], ["Red", "Blue"]), _roled(1, [1], ["Red", "Blue"])]).metric_data()
    assert compute(d, "faction_win_rate_blue") == 1.0
    assert compute(d, "faction_gap") == pytest.approx(0.5)


def test_simulated_mandate_batch_records_each_seats_faction():
    res = simulate(SimSpec("mandate-2038", games=2, players=3, bots="random", seed=5), backend="serial")
    roles = res.players["role"].to_list()
    assert all(isinstance(r, str) for r in roles)
    for index in (0, 1):  # each game deals three different factions
        assert res.players.filter(pl.col("index") == index)["role"].n_unique() == 3
    m = res.metrics()
    assert set(m["role_win_rate"]) == set(roles)
    assert m["role_gap"] is not None


def test_a_game_without_roles_has_a_null_role_column():
    res = simulate(SimSpec(TOY, games=2, players=2, bots="random", seed=5), backend="serial")
    assert "role" in res.players.columns and res.players["role"].null_count() == res.players.height
    assert res.metrics()["role_gap"] is None and res.role_summary() == []


def test_paired_comparison_lists_each_roles_win_rate_and_the_role_gap():
    from workbench.sim.compare import compare_results
    deal = [["Red", "Blue"], ["Blue", "Red"]] * 4
    a = _result([_roled(i, [0], roles) for i, roles in enumerate(deal)])          # seat 1 always wins
    b = _result([_roled(i, [roles.index("Red")], roles) for i, roles in enumerate(deal)])  # Red always wins
    rows = {r["key"]: r for r in compare_results(a, b, resamples=50).rows}
    assert (rows["role_win_rate_red"]["a"], rows["role_win_rate_red"]["b"]) == (0.5, 1.0)
    assert rows["role_gap"]["diff"] == pytest.approx(0.5)
    assert rows["role_gap"]["ci_low"] is not None and rows["role_win_rate_red"]["metric"] == "Win rate by role, Red"


def test_a_role_missing_from_a_resample_has_no_rate():
    import numpy as np
    d = _result([_roled(0, [0], ["Red", "Blue"]), _roled(1, [1], ["Gold", "Red"])]).metric_data()
    assert d.role_names == ("Blue", "Gold", "Red")
    again = d.take(np.array([0, 0]))                      # game 0 twice: Gold was not dealt
    assert compute_all(again)["role_win_rate"] == {"Blue": 0.0, "Red": 1.0}
    assert compute_all(again)["role_gap"] == pytest.approx(0.5)
