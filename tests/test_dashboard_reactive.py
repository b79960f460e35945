"""The pages share one live card pool per game and depend on its snapshot:
an edit on the Cards page, or a proposal applied on the Balance page, reaches
the other pages without any refresh call; a hidden page redraws only when it
is shown; the graph is patched in place, never rebuilt."""

from __future__ import annotations

import pytest

from workbench.dashboard.app import PAGES, Workbench

TITLES = [t for t, _, _ in PAGES]


@pytest.fixture
def bench(cards_copy):
    return Workbench(page=TITLES.index("Cards"))


def _requirement(view, card: str) -> str:
    data = view.nodes.data
    return data["requirement"][list(data["name"]).index(card)]


def test_edit_on_cards_reaches_the_hidden_graph_page_when_it_is_shown(bench):
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    assert cards.model.pool is graph.model.pool is bench.pool
    figure, source = graph._own.view.figure, graph._own.view.nodes
    before = _requirement(graph._own.view, "Shell")
    old = cards.model.cell("Shell", "I")
    assert cards.model.edit("Shell", "I", old + 2)
    # the Cards page (on screen) shows it at once, in its table and its graph
    assert cards._table.value.set_index("name").loc["Shell", "I"] == old + 2
    assert _requirement(cards._own.view, "Shell") != before
    # the Graph page is hidden: it has not redrawn
    assert _requirement(graph._own.view, "Shell") == before
    bench.page = TITLES.index("Graph")
    after = _requirement(graph._own.view, "Shell")
    assert after != before and f"{old + 2}I" in after
    # the same figure and data source, patched in place
    assert graph._own.view.figure is figure and graph._own.view.nodes is source
    cards.model.undo()  # the Graph page is on screen now: it follows at once
    assert _requirement(graph._own.view, "Shell") == before


def test_a_hidden_page_redraws_once_for_many_changes(bench, monkeypatch):
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    calls = []
    monkeypatch.setattr(graph, "_redraw", lambda: calls.append(1))
    for value in (1, 2, 3):
        assert cards.model.edit("Shell", "E", value)
    assert calls == []
    bench.page = TITLES.index("Graph")
    assert calls == [1]


def test_balance_proposal_applied_shows_on_cards_and_graph(bench):
    from workbench.dashboard.balance import BalancePage
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    balance = BalancePage(bench=bench)
    m = balance.model
    assert m.session() is bench.pool is graph.model.pool  # the same live pool, opened once
    old = cards.model.cell("Quiet Hour", "order_spaces")
    m.edits = [{"card": "Quiet Hour", "field": "order_spaces", "old": old, "new": old + 1}]
    # as if its fresh check had vouched for it (balance/verdict.py): only then may it be applied
    m.verdict = {"offered": True, "reasons": [], "fresh_games_needed": None,
                 "games_per_trial_needed": None, "trials_needed": None}
    bench.page = TITLES.index("Balance")
    balance._guarded(m.apply)
    assert m.applied and not balance._undo.disabled
    # both pages are hidden: they catch up when shown
    bench.page = TITLES.index("Cards")
    assert cards._table.value.set_index("name").loc["Quiet Hour", "order_spaces"] == old + 1
    assert cards.model.pool.can_undo and not cards._undo.disabled
    bench.page = TITLES.index("Balance")
    balance._guarded(m.undo)
    bench.page = TITLES.index("Cards")
    assert cards._table.value.set_index("name").loc["Quiet Hour", "order_spaces"] == old


def test_the_graph_page_chooses_its_own_game_and_shares_that_games_live_pool(bench):
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    bench.page = TITLES.index("Graph")
    graph._card.value = "Shell"
    assert graph.model.selected == "Shell"
    graph._game.value = "pax-transhumanity"
    # its own game: the Cards page stays where it was, and nothing of Meaning Made is left on the page
    assert bench.card_game == "meaning-made" and graph.model.pool.game_id == "pax-transhumanity"
    assert graph.model.selected == "" and graph._card.value == "" and "Shell" not in graph._card.options
    from workbench.dashboard.titles import PageTitle
    assert PageTitle("Graph", graph).pane.object == "## Graph · Pax Transhumanity"
    pane = graph._pool_pane
    assert "Gene Drive" in graph._card.options and graph._plot.objects == [pane]
    # the same live pool as the Cards page's for that game: an edit there patches the figure here
    cards._game.value = "pax-transhumanity"
    assert cards.model.pool is graph.model.pool
    nodes = graph._pool_view.nodes
    assert nodes.data["requirement"][list(nodes.data["name"]).index("Gene Drive")] == "heat white"
    assert cards.model.edit("Gene Drive", "heat", "white white")
    assert graph._pool_pane is pane and graph._pool_view.nodes is nodes and pane.object is graph._pool_view.figure
    assert nodes.data["requirement"][list(nodes.data["name"]).index("Gene Drive")] == "heat white white"


def test_patch_source_sends_only_changed_cells():
    from bokeh.document import Document
    from bokeh.document.events import ColumnsPatchedEvent
    from bokeh.models import ColumnDataSource

    from workbench.dashboard.pool import patch_source
    source = ColumnDataSource({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    doc = Document()
    doc.add_root(source)
    sent = []
    doc.on_change(lambda event: sent.append(type(event)))
    patch_source(source, {"a": [1, 5, 3], "b": ["x", "y", "z"]})
    assert list(source.data["a"]) == [1, 5, 3] and sent == [ColumnsPatchedEvent]
    patch_source(source, {"a": [1, 5, 3], "b": ["x", "y", "z"]})
    assert sent == [ColumnsPatchedEvent]  # nothing changed, nothing sent
    patch_source(source, {"a": [1], "b": ["x"]})
    assert list(source.data["a"]) == [1] and ColumnsPatchedEvent not in sent[1:]


def test_a_refused_edit_publishes_nothing(cards_copy):
    from workbench.core.errors import WorkbenchError
    from workbench.dashboard.pool import LivePool
    from workbench.tweak import open_session
    pool = LivePool(open_session(folder=cards_copy / "meaning_made"))
    seen = []
    pool.param.watch(lambda *events: seen.extend(e.name for e in events), ["raw", "can_undo", "dirty"])
    snapshot = pool.raw
    with pytest.raises(WorkbenchError):
        pool.edit("Shell", "layer", "twelve")
    assert seen == [] and pool.raw is snapshot and not pool.can_undo
    pool.edit("Shell", "E", 3)
    assert pool.raw is pool.session.raw and pool.raw is not snapshot
    assert set(seen) == {"raw", "can_undo", "dirty"}
    pool.save()
    assert not pool.dirty and pool.raw is pool.session.raw


def test_play_page_depends_on_the_position_and_waits_while_hidden(cards_copy, monkeypatch):
    from workbench.dashboard.play import PlayPage
    bench = Workbench(page=TITLES.index("Play"))
    page = PlayPage(bench=bench)
    m = page.model
    drawn = []
    monkeypatch.setattr(page, "_draw", lambda: drawn.append(m.ply))
    assert m.move(m.legal_moves()[0]) and drawn == [m.ply]
    m.back()
    assert drawn[-1] == m.ply and len(drawn) == 2
    start = len(drawn)
    m.goto(m.ply)  # the same position: nothing to redraw
    assert len(drawn) == start
    bench.page = TITLES.index("Cards")
    m.move(m.legal_moves()[0])
    m.back()
    assert len(drawn) == start  # hidden: no redraw yet
    bench.page = TITLES.index("Play")
    assert drawn[start:] == [m.ply]  # one redraw, of the position now


def test_graph_page_groups_and_filters_a_pool_graph(bench):
    from workbench.dashboard.cards import CardsPage
    from workbench.dashboard.graph import GraphPage
    cards, graph = CardsPage(bench=bench), GraphPage(bench=bench)
    bench.page = TITLES.index("Graph")
    graph._game.value = "pax-transhumanity"
    assert graph._grouping.visible and graph._group_by.options == ["kind", "sphere"]
    nodes = graph._pool_view.nodes
    assert len(nodes.data["name"]) == 84
    graph._group_by.value = "sphere"
    assert "Yellow" in graph._show.options and set(nodes.data["group"]) >= {"Yellow", "Blue"}
    graph._show.value = ["Yellow"]
    assert set(nodes.data["group"]) == {"Yellow"} and graph._pool_view.nodes is nodes
    graph.model.select("Gene Drive")
    roles = dict(zip(nodes.data["name"], nodes.data["role"]))
    assert roles["Gene Drive"] == "selected" and "needs" in roles.values()
    graph._game.value = "meaning-made"
    assert not graph._grouping.visible
