"""Sweeps under faults: Ctrl-C keeps the finished games, a killed worker's
chunk is replayed to the identical table, output streams to disk as games
finish, bad outputs, worker counts and Dask failures are one line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from workbench.cli import main
from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed
from workbench.sim import SimSpec, simulate
from workbench.sim.backends import iter_chunks
from workbench.sim.sweep import SweepInterrupted, read_metadata, run_sweep
from workbench.sim.tables import join_chunks
from workbench.games.pebble_race import GAME

TOY = "workbench.games.pebble_race:GAME"
ROOT = Path(__file__).resolve().parents[1]


class _KillerRace(type(GAME)):
    """Pebble Race whose worker process dies (SIGKILL, as the OOM killer would)
    when it starts game 5 of seed 13, once per marker file, or every time
    when the marker's folder says ``always``."""

    def new_initial_state(self, config):
        marker = os.environ.get("WB_TEST_KILL_MARKER")
        if marker and config.seed == derive_seed(13, "game", 5) and os.getpid() != int(os.environ["WB_TEST_MAIN"]):
            if "always" in marker or not os.path.exists(marker):
                Path(marker).touch()
                os.kill(os.getpid(), signal.SIGKILL)
        return super().new_initial_state(config)


KILLER = _KillerRace()


def _tables(result):
    return result.games, result.players, result.cards


def test_a_killed_worker_is_replaced_and_its_chunk_replayed(tmp_path, monkeypatch):
    spec = SimSpec(f"{__name__}:KILLER", games=40, players=3, bots="greedy,random", seed=13)
    monkeypatch.setenv("WB_TEST_MAIN", str(os.getpid()))
    expected = simulate(spec, workers=0)   # in this process: nothing is killed
    monkeypatch.setenv("WB_TEST_KILL_MARKER", str(tmp_path / "killed-once"))
    pooled = simulate(spec, workers=2)
    assert (tmp_path / "killed-once").exists()   # a worker really died
    for a, b in zip(_tables(expected), _tables(pooled)):
        assert a.rows() == b.rows() and a.columns == b.columns


def test_a_chunk_that_always_kills_its_worker_gives_up_with_one_line(tmp_path, monkeypatch):
    (tmp_path / "always").mkdir()
    monkeypatch.setenv("WB_TEST_MAIN", str(os.getpid()))
    monkeypatch.setenv("WB_TEST_KILL_MARKER", str(tmp_path / "always" / "m"))
    spec = SimSpec(f"{__name__}:KILLER", games=12, players=2, seed=13)
    with pytest.raises(WorkbenchError, match=r"died 3 times while playing games \d+-\d+"):
        simulate(spec, workers=2)


def test_sweep_output_is_on_disk_as_games_finish(tmp_path):
    """Streaming, checked by row counts: at every progress report the part
    files already hold exactly the games reported, and the finished files
    equal the in-memory tables."""
    spec = SimSpec(TOY, games=300, players=3, bots="random", seed=4)
    out = tmp_path / "run.parquet"
    seen = []

    def progress(k):
        (parts,) = tmp_path.glob(".run.parquet.parts-*")
        on_disk = sum(pl.read_parquet(p).height for p in parts.glob("*.games.parquet"))
        seen.append((k, on_disk))

    outcome = run_sweep(spec, out, workers=2, progress=progress)
    done = 0
    for k, on_disk in seen:
        done += k
        assert on_disk == done
    assert done == 300 and len(seen) > 3
    assert not list(tmp_path.glob(".run.parquet.parts-*"))   # parts removed at the end
    expected = simulate(spec, workers=0)
    assert pl.read_parquet(out).equals(expected.games)
    assert pl.read_parquet(tmp_path / "run.players.parquet").equals(expected.players)
    assert pl.read_parquet(tmp_path / "run.cards.parquet").equals(expected.cards)
    assert read_metadata(out)["partial"] is False and read_metadata(out)["games_done"] == 300
    assert outcome.result.card_summary().equals(expected.card_summary())
    assert outcome.result.metrics() == expected.metrics()


def test_interrupted_sweep_keeps_the_finished_games_flagged_partial(tmp_path):
    spec = SimSpec(TOY, games=2000, players=2, seed=8)
    out = tmp_path / "cut.parquet"
    calls = []

    def progress(k):
        calls.append(k)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(SweepInterrupted, match=r"interrupted: kept \d+ of 2000 games") as info:
        run_sweep(spec, out, workers=2, progress=progress)
    done = info.value.outcome.games_done
    assert done == sum(calls) and done < 2000
    games = pl.read_parquet(out)
    assert games.height == done
    meta = read_metadata(out)
    assert meta["partial"] is True and meta["games_done"] == done and meta["games_requested"] == 2000
    # the kept games are the same games a full run plays
    full = simulate(spec.with_(games=int(games["index"].max()) + 1), workers=0).games
    assert games.equals(full.filter(pl.col("index").is_in(games["index"].to_list())))


@pytest.mark.parametrize("where", [["--workers", "2"], ["--scheduler", "local"]], ids=["pool", "dask"])
def test_ctrl_c_on_a_subprocess_sweep_stops_it_with_one_line(tmp_path, where):
    if where[0] == "--scheduler":
        pytest.importorskip("dask.distributed")
    out = tmp_path / "big.parquet"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # its own process group, signalled as a whole, as a terminal's Ctrl-C is; Ctrl-C
    # not ignored, as in a terminal (a process started in the background inherits an
    # ignored SIGINT, and Python then never raises KeyboardInterrupt); -X faulthandler
    # so that a hang can be asked for its stacks (SIGABRT) and reported
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "workbench.cli", "simulate",
                             "meaning-made", "--games", "200000", *where, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # wait (functionally, not for a time) until some games are on disk
        deadline = time.monotonic() + 300
        while len(list(tmp_path.glob(".big.parquet.parts-*/*.cards.parquet"))) < 2:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "no chunk finished"
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        # the limit only catches a hang: a loaded machine (load 8) takes far longer
        # than an idle one to stop a dask cluster
        try:
            stdout, stderr = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)   # faulthandler writes every thread's stack
            stdout, stderr = proc.communicate(timeout=60)
            pytest.fail(f"simulate did not stop within 300 s of Ctrl-C; its stacks:\n{stderr[-5000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)   # its workers too: none left playing on
    assert proc.returncode == 130
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "interrupted: kept" in lines[0] and "Traceback" not in stderr
    meta = read_metadata(out)
    assert meta["partial"] is True and 0 < meta["games_done"] < 200000
    assert pl.read_parquet(out).height == meta["games_done"]
    assert pl.read_parquet(tmp_path / "big.players.parquet")["index"].n_unique() == meta["games_done"]


def test_csv_output_is_csv(tmp_path, capsys):
    out = tmp_path / "run.csv"
    assert main(["simulate", TOY, "--games", "12", "--workers", "0", "--seed", "3", "--out", str(out)]) == 0
    assert out.read_text().startswith("index,seed,players,")
    expected = simulate(SimSpec(TOY, games=12, seed=3), workers=0)
    assert pl.read_csv(out)["winners"].fill_null("").to_list() == expected.games["winners"].to_list()
    assert pl.read_csv(tmp_path / "run.cards.csv").height == expected.cards.height
    meta = json.loads((tmp_path / "run.meta.json").read_text())
    assert meta["partial"] is False and meta["games_done"] == 12


@pytest.mark.parametrize("argv, message", [
    (["--out", "{tmp}/run.txt"], "must end in .parquet or .csv"),
    (["--workers", "100000"], "more than"),
])
def test_bad_output_or_worker_count_is_refused_before_playing(tmp_path, capsys, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(["simulate", TOY, "--games", "5", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_missing_output_folder_is_created_as_every_command_does(tmp_path):
    out = tmp_path / "runs" / "today" / "run.parquet"
    assert main(["simulate", TOY, "--games", "3", "--workers", "0", "--out", str(out)]) == 0
    assert pl.read_parquet(out).height == 3


def test_more_workers_than_cores_when_forced_never_exceeds_the_chunks(capsys):
    assert main(["simulate", TOY, "--games", "3", "--workers", "64", "--many-workers", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3


def test_bad_dask_scheduler_is_one_line(capsys):
    pytest.importorskip("dask.distributed")
    assert main(["simulate", TOY, "--games", "4", "--scheduler", "bogus"]) == 1
    err = capsys.readouterr().err
    assert "scheduler" in err and "bogus" in err and len(err.strip().splitlines()) == 1


def test_dask_killed_worker_is_one_clear_error(tmp_path):
    pytest.importorskip("dask.distributed")
    (tmp_path / "always").mkdir()
    # in a fresh interpreter (its own Dask event loop), as typed; the scheduler
    # of a LocalCluster runs in that process: give up after one loss
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
               WB_TEST_KILL_MARKER=str(tmp_path / "always" / "m"), WB_TEST_MAIN="0",
               DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    out = subprocess.run([sys.executable, "-m", "workbench.cli", "simulate", "test_sim_reliability:KILLER",
                          "--games", "8", "--players", "2", "--seed", "13", "--scheduler", "local"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 1
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Dask lost the workers playing games" in lines[0], out.stderr[-2000:]


def test_chunks_stream_in_completion_order_and_join_to_the_batch():
    spec = SimSpec(TOY, games=50, players=2, seed=2)
    got = list(iter_chunks(spec, workers=2))
    assert sorted(i for c in got for i in c.indices) == list(range(50))
    games, _, _ = join_chunks(got)
    assert games.equals(simulate(spec, workers=0).games)
