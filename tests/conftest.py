"""Shared test fixtures."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cards_copy(tmp_path, monkeypatch):
    """A private copy of ``cards/`` that the test may edit; WORKBENCH_CARDS points at it."""
    dest = tmp_path / "cards"
    # a pool history left in the checkout (a run outside the suite) is not the copy's
    shutil.copytree(ROOT / "cards", dest, ignore=shutil.ignore_patterns(".workbench"))
    monkeypatch.setenv("WORKBENCH_CARDS", str(dest))
    return dest


@pytest.fixture
def init_folder(tmp_path, monkeypatch, capsys):
    """A designer's card folder made by ``workbench init`` (every game), with
    WORKBENCH_CARDS pointing at it and the card cache cleared around the test."""
    from workbench.cli import main
    from workbench.core.cards import forget

    root = tmp_path / "mine"
    assert main(["init", str(root)]) == 0
    capsys.readouterr()
    monkeypatch.setenv("WORKBENCH_CARDS", str(root))
    forget()
    yield root
    forget()


@pytest.fixture
def no_history(monkeypatch):
    """Runs, rooms and compares enter their pool version in the card folder's
    history; a test that plays the bundled cards keeps the checkout's history
    unwritten (``pytestmark = pytest.mark.usefixtures("no_history")``)."""
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")


@pytest.fixture(autouse=True)
def _no_borrowed_event_loop(request):
    """A test outside tests/browser runs with no event loop marked running in its thread.

    The browser tests' Playwright (its sync API, a session fixture of the worker)
    leaves its own loop marked as running in the main thread between its calls, so a
    later test in the same worker that runs asyncio itself (``asyncio.run``, a page
    handing work to Panel's loop) would find a loop that never turns: "cannot be
    called from a running event loop", or a step that never runs. The mark is lifted
    for the test and put back after it, for the browser tests still to come."""
    import asyncio.events as events
    borrowed = events._get_running_loop()
    if borrowed is None or "browser" in Path(str(request.node.fspath)).parts:
        yield
        return
    events._set_running_loop(None)
    try:
        yield
    finally:
        events._set_running_loop(borrowed)


@pytest.fixture(autouse=True)
def _rooms_apart(monkeypatch, tmp_path_factory):
    """No test's rooms reach another's: the playtest journal is a file of this
    test session (not ``playtest-journal.sqlite`` in the checkout) unless the
    test names one, and the server's hall a test opened in this process is
    forgotten after it (else the next test's Sweeps page reads its journal)."""
    import sys
    if not os.environ.get("WORKBENCH_JOURNAL"):
        monkeypatch.setenv("WORKBENCH_JOURNAL", str(tmp_path_factory.getbasetemp() / "session-journal.sqlite"))
    yield
    web = sys.modules.get("workbench.rooms.web")
    if web is not None and web.serving() is not None:
        web.reset()


def pytest_collection_modifyitems(config, items):
    # Browser tests are marked by their folder so nobody forgets the marker.
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
    # The long files first: the README's command hands whole files to the workers
    # (--dist loadfile) in this order (--no-loadscope-reorder in the README's test command:
    # xdist would otherwise order files by their number of tests, which put the
    # one-test browser files, the longest, last), so a long file started last
    # would leave one core idle while the other finishes it. Browser files and notebooks, then
    # files with a test marked slow, then the rest; a file keeps its own order.
    rank: dict[str, int] = {}
    for item in items:
        path = str(item.fspath)
        mine = 0 if item.get_closest_marker("browser") else 1 if (
            path.endswith(".ipynb") or item.get_closest_marker("slow")) else 2
        rank[path] = min(rank.get(path, 2), mine)
    items.sort(key=lambda item: rank[str(item.fspath)])   # stable: each file's own order stays


# Test helpers such as the toy game live beside the tests.
import sys as _sys
_sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def scaffolded(tmp_path):
    """``workbench new-game tiny-market`` written into a temporary folder, with the
    dist-info ``pip install -e`` would leave beside it (its ``workbench.games``
    entry point): a process with that folder on its path finds the game through
    the registry, and nothing is installed into the test's environment."""
    from workbench.cli import main
    dest = tmp_path / "tm"
    assert main(["new-game", "tiny-market", str(dest)]) == 0
    info = dest / "tiny_market-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-market\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[workbench.games]\ntiny-market = tiny_market:GAME\n")
    return dest
