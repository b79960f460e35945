"""Batch simulation: seeds per game, identical tables on every backend, replayable games."""

from __future__ import annotations

import pytest

from workbench.core.bots import make_bots
from workbench.core.errors import WorkbenchError
from workbench.core.play import play_game
from workbench.core.rng import derive_seed
from workbench.sim import SimSpec, simulate
from workbench.sim.backends import chunks
from workbench.games.pebble_race import GAME

TOY = "workbench.games.pebble_race:GAME"


def test_chunks_cover_every_index_once_in_order():
    for n, workers in [(1, 4), (7, 2), (100, 3), (10_000, 2)]:
        parts = chunks(n, workers)
        assert [i for part in parts for i in part] == list(range(n))
    assert chunks(0, 2) == []


def test_chunks_shrink_towards_the_end_and_stay_capped():
    sizes = [len(p) for p in chunks(10_000, 2)]
    assert max(sizes) == 200 and sizes[-1] == 1
    assert sizes == sorted(sizes, reverse=True)
    assert [i for p in chunks([5, 9, 11], 4) for i in p] == [5, 9, 11]


def test_game_seeds_are_derived_from_the_master_seed():
    result = simulate(SimSpec(TOY, games=5, players=3, seed=42), workers=0)
    assert result.games["seed"].to_list() == [derive_seed(42, "game", i) for i in range(5)]
    assert result.games["index"].to_list() == list(range(5))


def test_pool_and_serial_give_identical_tables():
    spec = SimSpec(TOY, games=60, players=4, bots="greedy,random", seed=9)
    serial = simulate(spec, workers=0)
    pooled = simulate(spec, workers=2)
    one = simulate(spec, backend="pool", workers=1)
    for other in (pooled, one):
        assert serial.games.equals(other.games)
        assert serial.players.equals(other.players)
        assert serial.cards.equals(other.cards)


def test_each_game_replays_from_its_config():
    spec = SimSpec(TOY, games=8, players=3, bots="greedy,random,mcts:10", seed=4)
    result = simulate(spec, workers=0)
    for row in result.games.iter_rows(named=True):
        config = result.game_config(row["index"])
        assert config.seed == row["seed"]
        state, log = play_game(GAME, config, make_bots(spec.bots, 3))
        res = GAME.result(state)
        assert ",".join(res.winners) == row["winners"]
        assert len(log) == row["actions"]
        assert res.ending == row["ending"]


def test_table_shapes_and_columns():
    result = simulate(SimSpec(TOY, games=20, players=4, seed=1), workers=0)
    assert result.games.height == 20
    assert result.players.height == 80
    assert set(result.cards["card"].unique()) <= {"Pebble", "Stone", "Gem", "Shell"}
    assert {"gambles", "cards_taken"} <= set(result.games.columns)  # Game.game_stats columns
    assert "copies_held" in result.cards.columns                    # Game.card_stats columns
    assert result.players.filter(result.players["won"]).height == result.games["n_winners"].sum()


def test_action_limit_ends_with_timeout():
    result = simulate(SimSpec(TOY, games=3, players=2, bots="random", seed=1, max_actions=3), workers=0)
    assert result.games["ending"].to_list() == ["timeout"] * 3
    assert result.games["actions"].to_list() == [3, 3, 3]
    assert result.metrics()["timeout"] == 1.0
    assert result.metrics()["completion"] == 0.0


def test_no_winner_ending_is_counted_as_collapse():
    # with round_limit 1 and an unreachable target every game ends with nobody winning
    spec = SimSpec(TOY, games=4, players=2, bots="random", seed=1, options={"round_limit": 1, "target": 99})
    result = simulate(spec, workers=0)
    assert result.games["ending"].to_list() == ["collapsed"] * 4
    assert result.metrics()["no_winner"] == 1.0


@pytest.mark.parametrize("spec, message", [
    (SimSpec("no-such-game", games=2), "unknown game"),
    (SimSpec(TOY, games=2, bots="wizard"), "unknown bot"),
    (SimSpec(TOY, games=2, players=9), "players"),
    (SimSpec(TOY, games=2, options={"speed": 3}), "option"),
])
def test_bad_input_fails_before_any_game_is_played(spec, message):
    with pytest.raises(WorkbenchError, match=message):
        simulate(spec, workers=0)


def test_parquet_output_has_three_tables(tmp_path):
    import polars as pl
    result = simulate(SimSpec(TOY, games=5, players=2, seed=3), workers=0)
    paths = result.write_parquet(tmp_path / "run.parquet")
    assert [p.rsplit("/", 1)[-1] for p in paths] == ["run.parquet", "run.players.parquet", "run.cards.parquet"]
    assert pl.read_parquet(paths[0]).equals(result.games)
    assert pl.read_parquet(paths[1]).equals(result.players)


from hypothesis import assume, given, settings, strategies as st  # noqa: E402


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(1, 5), games=st.integers(1, 12),
       limit=st.sampled_from([4, 30, 20000]),
       bots=st.sampled_from(["random", "greedy", "random,greedy", "force:Shell:random"]))
def test_outcome_shares_add_up_and_rows_are_consistent(seed, players, games, limit, bots):
    assume(len(bots.split(",")) <= players)
    result = simulate(SimSpec(TOY, games=games, players=players, bots=bots, seed=seed, max_actions=limit),
                      workers=0)
    m = result.metrics()
    assert m["completion"] + m["no_winner"] + m["timeout"] == pytest.approx(1.0)
    assert result.games.height == games and result.players.height == games * players
    assert (result.games["actions"] <= limit).all()
    assert ((result.games["multi_option_decisions"] <= result.games["decisions"])).all()
    for value in (m["balance"], m["drawishness"], m["decision_moves"]):
        assert 0.0 <= value <= 1.0


class _BrokenRace(type(GAME)):
    """Pebble Race whose engine breaks in one game, as a buggy engine would."""

    def new_initial_state(self, config):
        if config.seed == derive_seed(6, "game", 3):
            raise ZeroDivisionError("engine bug")
        return super().new_initial_state(config)


BROKEN = _BrokenRace()


@pytest.mark.parametrize("workers", [0, 2])
def test_a_crashing_game_is_named_with_its_seed(workers):
    spec = SimSpec(f"{__name__}:BROKEN", games=6, players=2, seed=6)
    with pytest.raises(WorkbenchError, match=r"game 3 \(seed \d+, bots random\) raised ZeroDivisionError"):
        simulate(spec, workers=workers)


_RECORDS: list = []


@settings(max_examples=25, deadline=None)
@given(cuts=st.sets(st.integers(1, 29), max_size=10))
def test_any_chunking_joins_to_the_same_tables(cuts):
    from workbench.sim.runner import play_records
    from workbench.sim.tables import chunk_from_records, join_chunks, tables_from_records
    if not _RECORDS:
        # games with and without winners, so the trace columns are null in some chunks only
        _RECORDS.extend(play_records(SimSpec(TOY, games=30, players=3, bots="greedy,random", seed=21,
                                             options={"round_limit": 3}), list(range(30))))
    bounds = [0, *sorted(cuts), 30]
    parts = [chunk_from_records(list(range(a, b)), _RECORDS[a:b]) for a, b in zip(bounds, bounds[1:])]
    whole = tables_from_records(_RECORDS)
    for got, want in zip(join_chunks(parts[::-1]), whole):   # arrival order does not matter either
        assert got.columns == want.columns and got.dtypes == want.dtypes
        assert got.rows() == want.rows()


def test_a_broken_game_names_how_to_replay_it(monkeypatch):
    """A game that raises is named with the command that plays it again; a pool edited
    in memory (a module:ATTR reference) is named by its game, with the card folder to play."""
    import sys
    import types

    from workbench.core.registry import get_game
    from workbench.sim import runner

    def broken(spec, index):
        raise AssertionError("planted")
    monkeypatch.setattr(runner, "play_one", broken)
    with pytest.raises(runner.GameFailed, match=r"AssertionError: planted; replay it with workbench play "
                                                r"meaning-made --seed \d+ --bots greedy$"):
        runner.play_records(runner.SimSpec(game="meaning-made", games=1, bots="greedy"), [0])
    pool = types.ModuleType("edited_pool_for_a_test")
    pool.POOL = get_game("meaning-made")
    monkeypatch.setitem(sys.modules, "edited_pool_for_a_test", pool)
    with pytest.raises(runner.GameFailed, match=r"workbench play meaning-made --cards FOLDER --seed \d+ "
                                                r"--bots greedy, FOLDER holding the edited cards"):
        runner.play_records(runner.SimSpec(game="edited_pool_for_a_test:POOL", games=1, bots="greedy"), [0])
