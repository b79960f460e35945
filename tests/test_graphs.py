"""The card dependency graph, its analyses, the drawing, and the live-tweak session."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest

from workbench.core.errors import DataError, WorkbenchError
from workbench.games.meaning_made.data import load_cards
from workbench.games.meaning_made import card_graph as dependency
from workbench.games.meaning_made.graph_view import dependency_figure, layered_layout
from workbench.graphs.drawing import card_links
from workbench.tweak import open_session


@pytest.fixture(scope="module")
def cards():
    return load_cards()


@pytest.fixture(scope="module")
def graph(cards):
    return dependency.build_graph(cards)


def test_graph_has_a_node_per_card_and_layer(cards, graph):
    kinds = [d["kind"] for _, d in graph.nodes(data=True)]
    assert kinds.count("layer") == 10
    assert kinds.count("pattern") == len(cards.patterns) == 60
    assert kinds.count("initiative") == len(cards.initiatives)


def test_edges_follow_requirements(cards, graph):
    pulse = cards.patterns["Pulse"]
    for layer in set(pulse.requirement.layers):
        assert graph.edges[f"layer:{layer}", "pattern:Pulse"]["kind"] == "requires"
    assert graph.edges["pattern:Pulse", f"layer:{pulse.layer}"]["kind"] == "supplies"
    trade = cards.initiatives["Trade Standard"]
    assert 7 in trade.requirement.completed
    sevens = [i.name for i in cards.initiatives.values() if i.layer == 7]
    for name in sevens:
        assert graph.edges[f"initiative:{name}", "initiative:Trade Standard"]["kind"] == "prerequisite"
    assert graph.nodes["pattern:Shell"]["provenance"] == "seed"


def test_cheapest_load_of_a_layer_one_card_is_its_printed_cost(cards):
    loads = dependency.cheapest_loads(cards)
    shell = loads.filter(pl.col("pattern") == "Shell").row(0, named=True)
    assert shell["tokens"] == 1 and shell["loads"] == 1 and shell["plan"] == "Shell"
    # every plan ends with its own card and never costs more actions than loading it directly
    for row in loads.iter_rows(named=True):
        assert row["plan"].split(" > ")[-1] == row["pattern"]
        assert row["actions"] <= 1 + -(-row["direct_tokens"] // 2)


def test_token_objective_can_detour_through_bonus_cards(cards):
    by_tokens = dependency.cheapest_loads(cards, objective="tokens")
    by_actions = dependency.cheapest_loads(cards)
    joined = by_tokens.join(by_actions, on="pattern", suffix="_a")
    assert (joined["tokens"] <= joined["tokens_a"]).all()
    with pytest.raises(ValueError):
        dependency.cheapest_loads(cards, objective="fun")


def test_source_stewardship_is_infeasible_below_five_players(cards):
    feas = dependency.initiative_feasibility(cards)
    stew = {r["players"]: r for r in feas.filter(pl.col("initiative") == "Stewardship").iter_rows(named=True)}
    assert not stew[4]["feasible"] and "5 contributors" in stew[4]["reason"]
    assert stew[5]["feasible"] and stew[6]["feasible"]
    scaled = dependency.initiative_feasibility(cards, contributors_override={"Stewardship": 4})
    assert scaled.filter((pl.col("initiative") == "Stewardship") & (pl.col("players") == 4))["feasible"][0]


def test_bottlenecks_and_cycles(cards, graph):
    table = dependency.layer_bottlenecks(cards, graph)
    assert table.height == 10
    assert table.filter(pl.col("layer") == 1)["downstream"][0] >= table.filter(pl.col("layer") == 6)["downstream"][0]
    assert dependency.cycles(graph).height == 0
    graph2 = graph.copy()
    graph2.add_edge("layer:2", "pattern:Shell", kind="requires", count=1)  # Shell now needs what Pulse gives
    graph2.add_edge("pattern:Shell", "layer:1", kind="supplies", count=1)
    assert dependency.cycles(graph2).height >= 1


def test_dead_pattern_detected_when_it_costs_more_vitals_than_exist(cards_copy):
    session = open_session()
    report = session.edit("Shell", "vitals", 11)
    assert "Shell" in report.became_dead
    summary = session.analyses()["card_summary"]
    assert summary.filter(pl.col("card") == "Shell")["dead"][0]


def test_dominated_cards_are_listed(cards):
    viab = dependency.pattern_viability(cards)
    for row in viab.filter(pl.col("dominated_by") != "").iter_rows(named=True):
        for other in row["dominated_by"].split(", "):
            assert cards.patterns[other].layer == row["layer"]


def test_figure_is_deterministic_and_marks_selection(graph, cards):
    a, b = layered_layout(graph), layered_layout(graph)
    assert a == b
    assert all(a[f"layer:{k}"][1] == k for k in range(1, 11))
    fig = dependency_figure(graph, dependency.analyses(cards, graph), selected="Pulse")
    rend = fig.renderers[-1]
    names = list(rend.node_renderer.data_source.data["name"])
    assert rend.node_renderer.data_source.selected.indices == [names.index("Pulse")]
    links = card_links(graph, "pulse")
    assert "Layer 1" in links["needs"] and links["unlocks"]
    with pytest.raises(WorkbenchError, match="did you mean"):
        card_links(graph, "Pluse")


def test_tweak_edit_reports_changes_and_undo_redo(cards_copy):
    s = open_session()
    before = s.table().filter(pl.col("name") == "Pulse").row(0, named=True)
    report = s.edit("Pulse", "icons", "1 1")
    assert report.card == "Pulse"
    assert any(c["card"] == "Pulse" for c in report.cost_changes)
    assert s.table().filter(pl.col("name") == "Pulse")["icons"][0] == "1 1"
    s.undo()
    assert s.table().filter(pl.col("name") == "Pulse").row(0, named=True) == before
    s.redo()
    assert s.table().filter(pl.col("name") == "Pulse")["icons"][0] == "1 1"


def test_bad_edit_is_refused_and_pool_kept(cards_copy):
    s = open_session()
    table = s.table()
    with pytest.raises(DataError) as err:
        s.edit("Pulse", "layer", 9)
    assert "patterns.yaml" in str(err.value) and "Pulse" in str(err.value) and "layer" in str(err.value)
    with pytest.raises(DataError, match="whole number"):
        s.edit("Stewardship", "contributors", "many")
    with pytest.raises(DataError, match="did you mean"):
        s.edit("Pluse", "E", 1)
    assert s.table().equals(table)
    assert not s.can_undo


def test_save_is_atomic_keeps_previous_and_refuses_external_changes(cards_copy):
    s = open_session()
    s.edit("Shell", "E", 2)
    path = cards_copy / "meaning_made" / "patterns.yaml"
    original = path.read_text()
    written = s.save()
    assert written == [path]
    assert (path.with_name("patterns.yaml.bak")).read_text() == original
    assert path.read_text().startswith("#")  # the header comment survives
    assert load_cards(cards_copy / "meaning_made").patterns["Shell"].requirement.tokens.E == 2
    s.edit("Shell", "E", 3)
    path.write_text(path.read_text() + "\n# edited by hand\n")
    with pytest.raises(WorkbenchError, match="changed on disk"):
        s.save()
    assert "edited by hand" in path.read_text()


def test_export_csv_and_parquet(cards_copy, tmp_path):
    s = open_session()
    csv = s.export(tmp_path / "pool.csv")
    pq = s.export(tmp_path / "pool.parquet")
    assert pl.read_csv(csv).height == pl.read_parquet(pq).height == s.table().height
    with pytest.raises(WorkbenchError):
        s.export(tmp_path / "pool.xlsx")


def test_quick_paired_playtest_uses_the_same_seeds(cards_copy):
    s = open_session()
    s.edit("Pulse", "I", 1)
    res = s.quick_playtest(n=12, players=4, seed=3, bots="random")
    metrics = res.summary["metric"].to_list()
    assert "survival rate" in metrics and "games taking Pulse" in metrics
    again = s.quick_playtest(n=12, players=4, seed=3, bots="random")
    assert res.summary.equals(again.summary)
    same = open_session().quick_playtest(n=8, players=4, seed=3, bots="random", card="Pulse")
    assert (same.summary["diff"].abs() < 1e-12).all() and not same.flipped


def test_graph_command_json():
    out = subprocess.run([sys.executable, "-m", "workbench.cli", "graph", "meaning-made", "--json"],
                         capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    assert {"nodes", "edges", "analyses"} <= set(doc)
    assert set(doc["analyses"]) >= {"cheapest_loads", "pattern_viability", "layer_bottlenecks",
                                    "initiative_feasibility", "cycles", "card_summary"}
    bad = subprocess.run([sys.executable, "-m", "workbench.cli", "graph", "meaning-mad"],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "did you mean" in bad.stderr and "Traceback" not in bad.stderr


# -- grouped drawings of the other games' card graphs -------------------------------------

@pytest.mark.parametrize("game_id", ["mandate-2038", "pax-transhumanity"])
def test_grouped_card_graph_labels_never_overlap(game_id):
    """Every grouping, with every group alone and all together: no two label or
    title boxes (computed from the layout, in frame pixels) overlap, every card has
    a place inside the frame, and each group's cards stand under its title."""
    from workbench.graphs.drawing import FRAME, grouped_layout, groupings
    from workbench.tweak import open_session
    graph = open_session(game_id=game_id).graph()
    ways = groupings(graph)
    assert len(ways) >= 2 and "kind" in ways
    for by, titles in ways.items():
        for show in [None] + [[t] for t in titles]:
            lay = grouped_layout(graph, by, show)
            boxes = lay.boxes()
            for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
                assert 0 <= ax0 and ax1 <= FRAME[0] and 0 <= ay0 and ay1 <= FRAME[1], (by, a)
                for b, (bx0, by0, bx1, by1) in boxes[i + 1:]:
                    assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (by, show, a, b)
            wanted = {n for n, d in graph.nodes(data=True) if show is None or d["groups"][by] in show}
            assert set(lay.pos) == wanted


def test_grouped_layout_puts_each_card_under_its_group_title():
    from workbench.graphs.drawing import grouped_layout
    from workbench.tweak import open_session
    graph = open_session(game_id="mandate-2038").graph()
    lay = grouped_layout(graph, "kind")
    titles = sorted(lay.titles, key=lambda t: (t[0], -t[1]))
    for n, (x, y) in lay.pos.items():
        # the nearest title above the card in its column is its group's
        above = [t for t in titles if abs(t[0] - (x - 5)) < 1 and t[1] > y]
        assert above and min(above, key=lambda t: t[1] - y)[2] == graph.nodes[n]["groups"]["kind"], n


def test_pool_figure_filters_groups_highlights_and_has_the_legend():
    from workbench.graphs.drawing import pool_figure
    from workbench.tweak import open_session
    from bokeh.models import Legend
    s = open_session(game_id="pax-transhumanity")
    fig = pool_figure(s.graph(), s.analyses()["card_status"], selected="Gene Drive", by="sphere", show=["Yellow"])
    nodes = next(r for r in fig.renderers if "role" in r.data_source.data).data_source.data
    assert set(nodes["group"]) == {"Yellow"} and "Gene Drive" in nodes["name"]
    roles = dict(zip(nodes["name"], nodes["role"]))
    assert roles["Gene Drive"] == "selected" and roles["Yellow"] == "needs"
    legend = next(x for x in fig.below if isinstance(x, Legend))
    assert [i.label["value"] for i in legend.items] == ["dead or infeasible (outline)", "dominated (outline)",
                                                         "selected", "needs", "unlocks"]
    with pytest.raises(Exception, match="cannot group"):
        pool_figure(s.graph(), by="era")
