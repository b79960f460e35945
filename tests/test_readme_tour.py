"""Every ``workbench ...`` line of the README runs as written in a fresh copy of
the repository and exits 0.

Each code block of the README is one case: its ``workbench`` lines run in order
(a later line may read what an earlier one wrote, as a reader typing them
would), through ``bash`` in a scratch copy of the tracked files, with ``HOME``
pointed at a scratch folder (``~/my-games``) and the scratch copy first on
``PYTHONPATH``, so the copy's own cards are the bundled ones and nothing of the
checkout is read or written. The copy takes the checkout's compiled rules
(``workbench/_native/``, made by the README's install and never tracked) along
with it, as a fresh clone has them after that install; its guard still checks
them against the copy's sources. Lines are run exactly as printed (comments
included, they are shell comments); only ``workbench serve`` is not run,
because it serves until stopped (the browser tests start one).

The README keeps its lines cheap enough for this (small ``--games`` and
``--trials``); the slowest blocks are marked ``slow``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: a block still running after this long is a hang (the limit is generous: a
#: loaded machine runs the slowest block many times slower than an idle one)
TIMEOUT = 1800


def tour_blocks() -> list[tuple[str, list[str]]]:
    """``(id, lines)`` of every README code block holding ``workbench`` lines
    (continuation lines joined)."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for n, body in enumerate(re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M)):
        joined = re.sub(r"\\\n\s*", " ", body)
        lines = [line.strip() for line in joined.splitlines() if line.strip().startswith("workbench ")]
        if lines:
            first = lines[0].split()
            blocks.append((f"{n:02d}-{first[1]}", lines))
    return blocks


BLOCKS = tour_blocks()
SLOW = ("simulate", "balance", "print", "cards")


def _runnable(line: str) -> bool:
    return not line.startswith("workbench serve")


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory) -> Path:
    """The tracked files of the checkout, as a fresh clone has them."""
    dest = tmp_path_factory.mktemp("clone") / "repo"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        for name in listed.stdout.decode("utf-8", "surrogateescape").split("\0"):
            if name and (ROOT / name).is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, dest / name, follow_symlinks=False)
    else:  # not a git checkout (an sdist): everything but the build and cache folders
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis", "build", "dist"))
    native = ROOT / "workbench" / "_native"
    if native.is_dir() and not (dest / "workbench" / "_native").exists():
        shutil.copytree(native, dest / "workbench" / "_native")
    return dest


def test_the_tour_has_the_commands_the_readme_promises():
    lines = [line for _, block in BLOCKS for line in block]
    commands = {line.split()[1] for line in lines}
    assert {"play", "scenario", "check", "graph", "board", "simulate", "balance", "rules", "print",
            "export", "cards", "init"} <= commands
    assert not [line for line in lines if "[" in line.split("#")[0] and "--" in line.split("#")[0]
                and re.search(r"\[--", line)], "an optional part in brackets cannot run as written"


@pytest.mark.parametrize("block", [pytest.param(b, id=b[0], marks=[pytest.mark.slow] if any(
    s in b[0] for s in SLOW) else []) for b in BLOCKS])
def test_readme_block_runs_as_written(block, fresh_copy, tmp_path):
    _, lines = block
    home = tmp_path / "home"
    home.mkdir()
    bindir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(HOME=str(home), PYTHONPATH=str(fresh_copy), PATH=bindir + os.pathsep + env.get("PATH", ""))
    failures = []
    for line in lines:
        if not _runnable(line):
            continue
        proc = subprocess.run(["bash", "-c", line], cwd=fresh_copy, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        if proc.returncode != 0:
            failures.append(f"{line}\n  exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-600:]}")
    assert not failures, "\n".join(failures)
