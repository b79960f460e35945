"""The README's tour and its Python snippet run as written in a fresh clone and
leave the checkout as they found it.

The fresh clone is the checkout's tracked files (its working tree, so uncommitted
changes count) committed into a new git repository in a scratch folder, with
``HOME`` pointed at a scratch folder and the copy first on ``PYTHONPATH``, so the
copy's own cards are the bundled ones and nothing of the checkout is read or
written. The copy takes the checkout's compiled rules (``workbench/_native/``,
made by the README's install and never tracked) along with it, as a fresh clone
has them after that install. The tour's lines run in order through ``bash``
exactly as printed (comments included, they are shell comments), then the
snippet runs in ``python``; afterwards ``git status`` must show nothing: every
file the tour writes is in a folder git ignores (``out/``)."""

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
#: a line still running after this long is a hang (generous: a loaded machine
#: runs the slowest line many times slower than an idle one)
TIMEOUT = 1800


def code_blocks(lang: str = "") -> list[str]:
    text = README.read_text(encoding="utf-8")
    return [body for tag, body in re.findall(r"^```([a-z]*)\n(.*?)^```", text, flags=re.S | re.M) if tag == lang]


def tour_lines() -> list[str]:
    """The ``workbench`` lines of the README's tour (continuation lines joined)."""
    lines = []
    for body in code_blocks():
        joined = re.sub(r"\\\n\s*", " ", body)
        lines += [line.strip() for line in joined.splitlines() if line.strip().startswith("workbench ")]
    return lines


def snippet() -> str:
    blocks = code_blocks("python")
    assert len(blocks) == 1, "the README has one Python snippet"
    return blocks[0]


def test_the_tour_is_ten_lines_and_covers_the_main_commands():
    lines = tour_lines()
    assert len(lines) == 10, lines
    commands = {line.split()[1] for line in lines}
    assert {"init", "play", "check", "scenario", "graph", "compare", "simulate", "rules", "print",
            "history"} <= commands
    assert not [line for line in lines if re.search(r"\[--", line.split("#")[0])], \
        "an optional part in brackets cannot run as written"


def test_the_snippet_edits_a_workbench_init_copy_never_the_tracked_cards():
    code = snippet()
    assert 'folder="out/my-games/' in code and "open_session(" in code
    init = [line for line in tour_lines() if line.startswith("workbench init ")]
    assert init and init[0].split()[2] == "out/my-games"


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "tour", "GIT_AUTHOR_EMAIL": "tour@example.org",
           "GIT_COMMITTER_NAME": "tour", "GIT_COMMITTER_EMAIL": "tour@example.org"}
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory) -> Path:
    """The tracked files of the checkout, committed in a new repository."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    dest = tmp_path_factory.mktemp("clone") / "repo"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0 or not listed.stdout:
        pytest.skip("not a git checkout (an sdist)")
    for name in listed.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name, follow_symlinks=False)
    _git(dest, "init", "-q")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "fresh clone")
    native = ROOT / "workbench" / "_native"
    if native.is_dir():   # made by the install, git-ignored, as in a fresh clone after it
        shutil.copytree(native, dest / "workbench" / "_native")
    assert _git(dest, "status", "--porcelain") == ""
    return dest


@pytest.mark.slow
def test_the_tour_and_the_snippet_run_and_leave_git_status_clean(fresh_clone, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    bindir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(HOME=str(home), PYTHONPATH=str(fresh_clone), PATH=bindir + os.pathsep + env.get("PATH", ""))
    failures = []
    for line in tour_lines():
        proc = subprocess.run(["bash", "-c", line], cwd=fresh_clone, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        if proc.returncode != 0:
            failures.append(f"{line}\n  exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-600:]}")
    proc = subprocess.run([sys.executable, "-c", snippet()], cwd=fresh_clone, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        failures.append(f"the Python snippet\n  exit {proc.returncode}: {proc.stderr.strip()[-600:]}")
    assert not failures, "\n".join(failures)
    assert (fresh_clone / "out" / "my-games" / "meaning_made" / "patterns.yaml").is_file()
    assert _git(fresh_clone, "status", "--porcelain", "--untracked-files=all") == ""
