"""The same sweep on a 2-worker Dask LocalCluster and serially: every row equal."""

from __future__ import annotations

import pytest

pytest.importorskip("dask.distributed")

from workbench.sim import SimSpec, simulate  # noqa: E402

TOY = "workbench.games.pebble_race:GAME"


def test_local_cluster_matches_serial_row_for_row():
    spec = SimSpec(TOY, games=40, players=4, bots="greedy,random,mcts:8,ban:Shell:random", seed=77)
    serial = simulate(spec, workers=0)
    on_dask = simulate(spec, scheduler="local", workers=2)
    assert on_dask.backend == "dask"
    for name in ("games", "players", "cards"):
        a, b = getattr(serial, name), getattr(on_dask, name)
        assert a.columns == b.columns
        assert a.rows() == b.rows(), name
    assert serial.metrics() == on_dask.metrics()


def test_unreachable_scheduler_is_a_clear_error():
    from workbench.core.errors import WorkbenchError
    from workbench.sim.backends import run_dask
    with pytest.raises(WorkbenchError, match="cannot reach the Dask scheduler"):
        run_dask(SimSpec(TOY, games=2), scheduler="tcp://127.0.0.1:9", timeout="1s")
