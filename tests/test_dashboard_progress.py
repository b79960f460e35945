"""Every page says what it is doing while it works: the progress line
(:class:`workbench.dashboard.progress.ProgressLine`) is on, naming the game and
the work, at the moment the slow part runs, and off once it is done.

Each test spies on the slow step of a page (opening a pool, laying out a board,
reading a game's settings) and records the line as it stood when that step ran."""

from __future__ import annotations

import pytest

from workbench.dashboard.app import PAGES, Workbench

pytestmark = pytest.mark.usefixtures("no_history")

TITLES = [t for t, _, _ in PAGES]


def _spy(obj, name, page_line, seen, monkeypatch):
    """Wrap ``obj.name`` so each call records (line shown, line text) first."""
    original = getattr(obj, name)

    def spied(*args, **kwargs):
        seen.append((page_line.shown, page_line.text.object))
        return original(*args, **kwargs)
    monkeypatch.setattr(obj, name, spied)


def _said(seen, *words):
    assert seen, "the slow step never ran"
    shown, text = seen[0]
    assert shown, "the progress line was off while the work ran"
    for word in words:
        assert word in text, (word, text)


def test_the_cards_and_graph_pages_say_which_games_cards_they_load(cards_copy, monkeypatch):
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    bench = Workbench(page=TITLES.index("Cards"))
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    seen = []
    _spy(bench, "tweak_session", cards._doing, seen, monkeypatch)
    cards._game.value = "mandate-2038"
    _said(seen, "Mandate 2038", "cards")
    assert not cards._doing.shown and cards.model.pool.game_id == "mandate-2038"
    seen.clear()
    monkeypatch.undo()
    _spy(bench, "tweak_session", graph._doing, seen, monkeypatch)
    graph._game.value = "pax-transhumanity"
    _said(seen, "Pax Transhumanity", "graph")
    assert not graph._doing.shown and graph.model.pool.game_id == "pax-transhumanity"


def test_the_cards_page_says_it_saves_and_reloads(cards_copy, monkeypatch):
    from workbench.dashboard.cards import CardsPage
    page = CardsPage(bench=Workbench(page=TITLES.index("Cards")))
    seen = []
    _spy(page.model, "reload", page._doing, seen, monkeypatch)
    page._reload_button.clicks += 1
    _said(seen, "from disk")
    assert not page._doing.shown


def test_the_board_page_says_what_it_lays_out(monkeypatch):
    from workbench.dashboard.board import BoardPage
    page = BoardPage()
    seen = []
    _spy(page.model, "position", page._doing, seen, monkeypatch)
    page._actions.value = 30
    page._show.clicks += 1
    _said(seen, page.model.game.name, "seed 1", "30 actions")
    assert not page._doing.shown and page.model.bot_actions == 30
    assert not page._show.disabled and not page._next.disabled   # the buttons come back
    seen.clear()
    page._next.clicks += 1
    _said(seen, "seed 2")
    assert page.model.seed == 2 and page._seed.value == 2


def test_the_sweeps_page_says_which_game_it_loads(monkeypatch):
    from workbench.dashboard.sweeps import SweepsPage
    page = SweepsPage()
    seen = []
    _spy(page.model, "choose_game", page._doing, seen, monkeypatch)
    page._game.value = "mandate-2038"
    _said(seen, "Mandate 2038")
    assert not page._doing.shown and page.model.game_id == "mandate-2038"
    assert page._players.value == page.model.players


def test_the_balance_page_says_which_game_it_reads(monkeypatch):
    from workbench.dashboard.balance import BalancePage
    page = BalancePage()
    seen = []
    page.model.param.watch(lambda e: seen.append((page._doing.shown, page._doing.text.object)), "game_id")
    page._game.value = "mandate-2038"
    _said(seen, "Mandate 2038")
    assert not page._doing.shown and page.model.game_id == "mandate-2038"
    assert "runway" in page.model.vary   # the game's own variables came with it
    page.model.game_id = "pax-transhumanity"   # set elsewhere: the selector follows
    assert page._game.value == "pax-transhumanity"


def test_the_playtest_page_says_which_game_it_loads(monkeypatch):
    from workbench.dashboard.playtest import PlaytestPage
    page = PlaytestPage()
    seen = []
    page.model.param.watch(lambda e: seen.append((page.doing.shown, page.doing.text.object)), "game_id")
    page.game.value = "mandate-2038"
    _said(seen, "Mandate 2038")
    assert not page.doing.shown and page.model.game_id == "mandate-2038"


def test_a_failed_step_still_takes_the_line_down_and_gives_the_buttons_back():
    import asyncio

    import panel as pn

    from workbench.core.errors import WorkbenchError
    from workbench.dashboard.progress import ProgressLine
    line, button = ProgressLine("test"), pn.widgets.Button(label="Go")

    def fail():
        assert line.shown and button.disabled
        raise WorkbenchError("no such game")
    with pytest.raises(WorkbenchError):
        asyncio.run(line.run("Trying <b>this</b>…", fail, disable=(button,)))
    assert not line.shown and not button.disabled and line.text.object == ""
    line.show("a <script>")   # plain text: escaped, never markup
    assert "<script>" not in line.text.object
