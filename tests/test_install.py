"""The workbench as a user installs it: a wheel, not a source checkout.

Builds the wheel from the project's files, installs it (without dependencies,
which this test environment already has) into a folder of its own, and runs the
command line from an unrelated directory: the bundled card data must come from
inside the package, `init` must give the designer an editable copy, and nothing
may be written inside the installed package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("meaning_made", "mandate_2038", "pax_transhumanity")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, site folder): the wheel built from a copy of the project's files
    (so the build leaves nothing in the checkout) and installed with --target."""
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "LICENSE", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.bak", ".*.tmp", "_native")
    shutil.copytree(ROOT / "workbench", src / "workbench", ignore=ignore)
    shutil.copytree(ROOT / "cards", src / "cards", ignore=ignore)
    wheels = base / "wheels"
    # WORKBENCH_BUILD=pure: this wheel skips the compile (a minute of mypyc that
    # the suite's own install has already exercised); it still records why.
    # --no-build-isolation: the build runs with this environment's setuptools (the test
    # extra's) instead of unpacking setuptools and mypy into a fresh one, 15 s a run;
    # the isolated build is the one the suite's own install went through
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                          "-w", str(wheels), str(src)],
                         capture_output=True, text=True, env={**os.environ, "WORKBENCH_BUILD": "pure"})
    assert run.returncode == 0, run.stderr[-2000:]
    (wheel,) = wheels.glob("tabletop_workbench-*.whl")
    site = base / "site"
    run = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    return wheel, site


def _workbench(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "WORKBENCH_CARDS"}
    env["PYTHONPATH"] = str(site)  # the installed copy, ahead of the editable checkout
    return subprocess.run([sys.executable, "-m", "workbench", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_wheel_carries_the_card_data_and_licence(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    for game in GAMES:
        # a card folder's own history (.workbench/, git-ignored) is the checkout's, not the package's
        ours = sorted(p.relative_to(ROOT / "cards").as_posix() for p in (ROOT / "cards" / game).rglob("*")
                      if p.is_file() and not p.name.endswith(".bak")
                      and not any(part.startswith(".workbench") for part in p.parts))
        shipped = sorted(n.removeprefix("workbench/_cards/") for n in names
                         if n.startswith(f"workbench/_cards/{game}/"))
        assert shipped == ours
    assert any(n.endswith("licenses/LICENSE") for n in names)
    # the build hook ran for the wheel: it says why these rules are not compiled
    assert "workbench/_native/NOT_BUILT" in names
    assert any(n.endswith("/compiled.txt") for n in names)


def test_installed_workbench_plays_every_game_from_anywhere(installed, tmp_path):
    _, site = installed
    probe = subprocess.run([sys.executable, "-c", "import workbench, sys; print(workbench.__file__)"],
                           cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)},
                           capture_output=True, text=True)
    assert Path(probe.stdout.strip()).is_relative_to(site)
    for game, players in (("meaning-made", 3), ("mandate-2038", 4), ("pax-transhumanity", 3)):
        run = _workbench(site, tmp_path, "play", game, "--players", str(players), "--seed", "1", "--json")
        assert run.returncode == 0, run.stderr
        doc = json.loads(run.stdout)
        assert doc["game"] == game and doc["log"]
    version = _workbench(site, tmp_path, "--version")
    assert version.returncode == 0 and version.stdout.startswith("workbench ")
    check = _workbench(site, tmp_path, "check", "pax-transhumanity")
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr


def test_init_gives_an_editable_copy_and_the_package_stays_read_only(installed, tmp_path):
    _, site = installed
    mine = tmp_path / "mycards"
    run = _workbench(site, tmp_path, "init", str(mine), "--game", "meaning-made")
    assert run.returncode == 0, run.stderr
    assert (mine / "meaning_made" / "patterns.yaml").is_file()
    assert not (mine / "pax_transhumanity").exists()
    # init never overwrites the designer's folder
    again = _workbench(site, tmp_path, "init", str(mine), "--game", "meaning-made")
    assert again.returncode == 1 and "already exists" in again.stderr
    # the copy is what --cards reads: an edit there changes the game
    settings = mine / "meaning_made" / "rules" / "hu.po"
    assert settings.is_file()
    packaged = site / "workbench" / "_cards"
    before = {p: p.stat().st_mtime_ns for p in packaged.rglob("*") if p.is_file()}
    # `rules update` writes catalogues: refused inside the package, done in the copy
    refused = _workbench(site, tmp_path, "rules", "update", "meaning-made")
    assert refused.returncode == 1 and "workbench init" in refused.stderr, refused.stderr
    allowed = _workbench(site, tmp_path, "rules", "update", "meaning-made", "--cards", str(mine))
    assert allowed.returncode == 0, allowed.stderr
    after = {p: p.stat().st_mtime_ns for p in packaged.rglob("*") if p.is_file()}
    assert before == after


def test_installed_workbench_serves_the_dashboard(installed, tmp_path):
    import socket
    import time
    import urllib.request

    _, site = installed
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("WORKBENCH_CARDS", "WORKBENCH_JOURNAL")}  # the defaults, as a new user has
    env["PYTHONPATH"] = str(site)
    server = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", str(port), "--no-browser"],
                              cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300  # a hang limit: the first page builds slowly on a loaded machine
        status = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
                    status = page.status
                    break
            except OSError:
                time.sleep(0.5)
        assert status == 200, server.stderr.read().decode()[-2000:] if server.poll() is not None else "no answer"
        # the playtest seat page ships in the wheel (package data)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/playtest/seat", timeout=30) as page:
            assert b"/playtest/ws" in page.read()
        assert (tmp_path / "playtest-journal.sqlite").is_file()   # the journal: where the server was started
    finally:
        server.terminate()
        server.wait(timeout=30)
