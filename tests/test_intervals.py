"""Intervals that stay honest at small samples (``workbench/sim/intervals.py``),
and no interval of width 0 printed for a sample under 30 games by any command's
JSON (``balance``, ``journal compare``, ``simulate``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from workbench.cli import main
from workbench.sim import intervals
from workbench.sim.intervals import MIN_GAMES, SMALL_SAMPLE

sys.path.insert(0, str(Path(__file__).resolve().parent))

# the commands below play the bundled cards: their runs stay out of the checkout's pool history
pytestmark = pytest.mark.usefixtures("no_history")


# --------------------------------------------------------------------------- the helpers
def test_eight_games_out_of_eight_is_not_a_certainty():
    i = intervals.proportion(8, 8)
    assert i.method == "wilson" and i.high == 1.0 and i.low == pytest.approx(0.676, abs=0.001)


@pytest.mark.parametrize("n", range(MIN_GAMES, SMALL_SAMPLE + 1))
def test_wilson_never_has_width_zero_and_stays_in_bounds(n):
    for k in range(n + 1):
        i = intervals.proportion(k, n)
        assert i.high - i.low > 0 and 0.0 <= i.low <= k / n <= i.high <= 1.0


def test_wilson_narrows_as_games_add_up():
    widths = [intervals.proportion(n // 2, n).high - intervals.proportion(n // 2, n).low for n in (10, 40, 160)]
    assert widths[0] > widths[1] > widths[2]


def test_below_the_minimum_there_is_no_interval_but_a_reason():
    for i in (intervals.proportion(2, 2), intervals.mean([1.0, 2.0, 3.0]), intervals.from_resamples([0.1, 0.2], 4)):
        assert not i.known and "too few games" in i.note and i.text().startswith("(too few games")


def test_the_t_interval_widens_with_few_games():
    rng = np.random.default_rng(1)
    values = rng.normal(20, 3, 200)
    few, many = intervals.mean(values[:6]), intervals.mean(values)
    assert few.method == many.method == "t"
    assert few.high - few.low > 3 * (many.high - many.low)


def test_a_zero_one_column_is_a_proportion_and_no_spread_under_thirty_is_too_few():
    assert intervals.mean([1, 1, 1, 1, 1, 1, 1, 1]).method == "wilson"
    flat = intervals.mean([20.0] * 12)
    assert not flat.known and "no spread" in flat.note
    assert intervals.mean([20.0] * 40).known   # thirty or more: what was seen is what is printed
    boot = intervals.from_resamples([0.5] * 300, 12)
    assert not boot.known and "no spread" in boot.note


# --------------------------------------------------------------------------- every command's JSON
def _zero_width(doc, path="") -> list[str]:
    """Every interval of width 0 in a JSON document: ``X_low``/``X_high`` pairs,
    ``X_ci`` pairs, ``ci_low``/``ci_high`` and a row's own ``low``/``high``
    (``compare --json``)."""
    found = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key.endswith("_low") or key == "low":
                high = doc.get(key[:-4] + "_high" if key != "low" else "high")
                if value is not None and high is not None and high - value <= 0:
                    found.append(f"{path}/{key}={value}")
            if key.endswith("_ci") and isinstance(value, list) and len(value) == 2 and None not in value:
                if value[1] - value[0] <= 0:
                    found.append(f"{path}/{key}={value}")
            found += _zero_width(value, f"{path}/{key}")
    elif isinstance(doc, list):
        for n, value in enumerate(doc):
            found += _zero_width(value, f"{path}[{n}]")
    return found


def _json(capsys, argv) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_balance_prints_no_interval_of_width_zero_from_eight_games(init_folder, capsys):
    doc = _json(capsys, ["balance", "meaning-made", "--target", "survival=0.55..0.8 @players=2",
                         "--target", "timeout<=0.2 @players=2", "--vary", "initiatives.*.cost",
                         "--trials", "2", "--games-per-trial", "2", "--fresh-games", "8", "--workers", "1",
                         "--json"])
    rows = doc["fresh_check"] if "fresh_check" in doc else doc["rows"]
    assert rows and all(r["games"] < SMALL_SAMPLE for r in rows)
    assert not _zero_width(doc), _zero_width(doc)
    for r in rows:   # a share of eight games has a Wilson interval, never [1, 1]
        if r["before"] is not None:
            assert r["before_interval"] in ("wilson", "t", "bootstrap", "none")
            assert r["before_low"] is None or r["before_high"] - r["before_low"] > 0.05


def test_journal_compare_prints_no_interval_of_width_zero(tmp_path, monkeypatch, capsys):
    from test_journal_cli import _make_journal
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    journal = _make_journal(tmp_path / "j.sqlite")
    doc = _json(capsys, ["journal", "compare", "pax-transhumanity", "--journal", str(journal), "--json",
                         "--bot-games", "12", "--resamples", "40"])
    assert doc["human_games"] < MIN_GAMES and doc["bot_games"] < SMALL_SAMPLE
    assert not _zero_width(doc), _zero_width(doc)
    assert all(r["people_ci"] == [None, None] for r in doc["rows"])


def test_simulate_prints_no_interval_of_width_zero(capsys):
    doc = _json(capsys, ["simulate", "mandate-2038", "--games", "8", "--players", "4", "--bots", "random",
                         "--workers", "1", "--json"])
    assert not _zero_width(doc), _zero_width(doc)


def test_compare_prints_no_interval_of_width_zero(capsys):
    doc = _json(capsys, ["compare", "meaning-made", "--edit", "Shell.E=4", "--games", "8", "--workers", "1",
                         "--json"])
    assert not _zero_width(doc), _zero_width(doc)
    # eight games whose pairs all agree (the edit changes nothing the bots met): no interval, said so
    identical = [r for r in doc["metrics"] if r["identical"]]
    assert identical and all(r["low"] is None and r["high"] is None for r in identical)


def test_the_finder_sees_a_rows_own_low_and_high():
    assert _zero_width({"metrics": [{"low": 0.0, "high": 0.0}, {"low": 0.0, "high": 1.0}]}) == ["/metrics[0]/low=0.0"]


def test_paired_differences_without_spread_under_thirty_pairs_have_no_interval():
    from workbench.sim.progressive import paired_t_interval
    assert paired_t_interval(np.zeros(12), 0.95) == (None, None)
    assert paired_t_interval(np.ones(29), 0.95) == (None, None)      # the same gain in every game, too
    lo, hi = paired_t_interval(np.zeros(30), 0.95)                  # from 30 pairs the interval is printed
    assert lo == hi == 0.0
    lo, hi = paired_t_interval(np.array([0.0, 1.0] * 4), 0.95)
    assert hi - lo > 0
