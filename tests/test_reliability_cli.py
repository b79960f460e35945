"""Bad input on the command line, as typed: exit 1 and one clear line, never a
traceback, a hang or a silent acceptance. The cases are the quick part of the
adversarial sweep's table (tests/adversarial_sweep.py, figures in
docs/reliability.md); each runs ``workbench`` in a process of its own on a private
copy of the card folder (forked from one helper that imported the workbench once:
see tests/forked_cli.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import adversarial_sweep as sweep

QUICK = [c for c in sweep.cases() if c.quick]


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("sweep")
    sweep.prepare(tmp, sys.executable)
    return tmp


@pytest.fixture(scope="module")
def runner():
    import os

    from forked_cli import ForkedCli
    forked = ForkedCli(sys.executable, {**os.environ, "PYTHONPATH": str(sweep.ROOT)})
    yield forked
    forked.close()


def test_the_table_covers_every_command():
    commands = {c.argv[0] for c in sweep.cases()}
    assert {"play", "simulate", "scenario", "check", "graph", "board", "rules", "bench", "serve"} <= commands
    assert len(sweep.cases()) >= 140 and len(QUICK) >= 30


@pytest.mark.parametrize("case", QUICK, ids=[c.id for c in QUICK])
def test_bad_input_is_one_clear_line_and_exit_1(case, sweep_dir, runner):
    result = sweep.run_case(case, sweep_dir, sys.executable, runner)
    expected = "ok" if case.expect == "ok" else "refused"
    assert result["verdict"] == expected, result
