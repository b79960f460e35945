"""``workbench new-game``: the package it writes installs as a plugin and every
command and page works on it, with nothing of the workbench changed.

The test "installs" the package the way ``pip install -e`` does for the
registry's purpose: the package folder on sys.path and a dist-info with its
entry point (a real ``pip install -e`` is what docs/adding-a-game.md shows)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core import registry

ROOT = Path(__file__).resolve().parents[1]
GID = "tiny-market"


@pytest.fixture
def tiny(request, monkeypatch):
    from workbench.commands.new_game import write_package
    before = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    dest = request.getfixturevalue("scaffolded")   # written after the status is taken
    from workbench.core.cards import forget
    monkeypatch.syspath_prepend(str(dest))
    registry.refresh()
    # each test imports the package afresh: a pool cached by an earlier test holds
    # the earlier import's classes, which the kit's snapshots (pickle) cannot name
    forget()
    yield dest
    for name in [m for m in sys.modules if m == "tiny_market" or m.startswith("tiny_market.")]:
        sys.modules.pop(name)
    monkeypatch.undo()
    registry.refresh()
    forget()
    after = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    assert after == before, "new-game or the commands on it changed the workbench's files"
    assert write_package  # the helper the command uses is importable on its own


def test_the_package_has_every_part(tiny):
    names = {p.relative_to(tiny).as_posix() for p in tiny.rglob("*") if p.is_file()}
    for part in ("pyproject.toml", "tiny_market/data.py", "tiny_market/state.py", "tiny_market/flow.py",
                 "tiny_market/notation.py", "tiny_market/scenario.py", "tiny_market/evaluation.py",
                 "tiny_market/game.py", "tiny_market/print_cards.py", "tiny_market/cards/cards.yaml",
                 "tiny_market/cards/rules/en.md", "tiny_market/cards/rules/hu.po",
                 "tiny_market/cards/print/cards.typ", "tests/test_conformance.py"):
        assert part in names, part
    assert '"workbench.games"' in (tiny / "pyproject.toml").read_text()
    assert "provenance: draft" in (tiny / "tiny_market" / "cards" / "cards.yaml").read_text()


def test_commands_work_on_it(tiny, capsys, tmp_path):
    assert main(["play", GID, "--seed", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == GID and doc["ending"] in ("goal", "timeout") and doc["log"]
    assert main(["simulate", GID, "--games", "6", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["check", GID, "--conformance"]) == 0
    out = capsys.readouterr().out
    from workbench.testing import CHECKS
    assert f"conformance kit: {len(CHECKS)} of {len(CHECKS)} checks pass" in out
    scenario = tiny / "tiny_market" / "cards" / "scenarios" / "buy-with-discount.yaml"
    assert main(["scenario", "run", str(scenario)]) == 0
    assert "1 passed" in capsys.readouterr().out
    assert main(["graph", GID, "--json"]) == 0
    graph = json.loads(capsys.readouterr().out)
    assert {a["card"] for a in graph["analyses"]["card_status"]} >= {"Sawmill", "Palace"}
    assert main(["rules", "render", GID, "--lang", "hu"]) == 0
    assert "Szabályok" in capsys.readouterr().out
    assert main(["print", GID, "--lang", "en", "--out", str(tmp_path / "cards.pdf")]) == 0
    assert (tmp_path / "cards.pdf").stat().st_size > 1000
    assert main(["balance", GID, "--target", "timeout<=0.05 @players=2", "--vary", "cards.*.points=0..6",
                 "--trials", "2", "--games-per-trial", "2", "--json"]) == 0


def test_its_own_tests_pass_the_conformance_suite(tiny):
    from workbench.testing import conformance_problems, run_scenarios
    game = registry.get_game(GID)
    assert conformance_problems(game, games=3) == []
    assert run_scenarios(game) == []


def test_every_page_offers_it(tiny):
    pytest.importorskip("panel")
    from workbench.dashboard.balance import balance_games
    from workbench.dashboard.cards import card_games
    from workbench.dashboard.play import available_games
    from workbench.dashboard.print import print_games
    from workbench.dashboard.rules import games_with_rules
    for offered in (available_games(), card_games(), print_games(), balance_games(), games_with_rules()):
        assert GID in offered
    from workbench.tweak import open_session
    session = open_session(GID)
    assert session.table().height == 7


def test_the_generic_graph_finds_a_dominated_and_a_dead_card(tiny):
    """Planted: a copy of Palace that costs less (dominates it), and a card that
    costs a resource no card gives and nobody starts with (dead)."""
    from workbench.graphs.generic import CardFields, GenericGraph
    game = registry.get_game(GID)
    raw = {"cards": [c.model_dump() for c in game.cards().cards]}
    palace = next(c for c in raw["cards"] if c["name"] == "Palace")
    raw["cards"].append({**palace, "name": "Cheap Palace", "cost": {"wood": 1, "stone": 1, "gold": 1}})
    raw["cards"].append({"name": "Temple", "cost": {"marble": 2}, "discount": {}, "points": 4})

    class Planted(type(game)):
        card_fields = CardFields(file="cards.yaml", path=("cards",), resources=("wood", "stone", "gold", "marble"),
                                 cost="cost", rewards=("discount", "points"), base=("wood", "stone", "gold"))
    mod = GenericGraph(Planted())
    tables = mod.analyses(raw, mod.build_graph(raw))
    status = {r["card"]: r for r in tables["card_status"].iter_rows(named=True)}
    assert "Cheap Palace" in status["Palace"]["dominated_by"]
    assert status["Temple"]["dead"] and "marble" in status["Temple"]["dead_reason"]
    assert not status["Sawmill"]["dead"] and status["Sawmill"]["dominated_by"] == ""


def test_the_graph_cannot_judge_a_cheaper_card_with_fewer_copies(tiny):
    """A cheaper Palace with fewer copies (or another value in a field the model does
    not weigh) is not called dominating: the graph says it cannot judge, and why."""
    from workbench.graphs.generic import GenericGraph
    game = registry.get_game(GID)
    raw = {"cards": [c.model_dump() for c in game.cards().cards]}
    palace = next(c for c in raw["cards"] if c["name"] == "Palace")
    raw["cards"].append({**palace, "name": "Rare Palace", "cost": {"wood": 1, "stone": 1, "gold": 1},
                         "copies": palace["copies"] + 3})
    raw["cards"].append({**palace, "name": "Cheap Palace", "cost": {"wood": 1, "stone": 1, "gold": 1}})
    mod = GenericGraph(game)
    status = {r["card"]: r for r in mod.analyses(raw)["card_status"].iter_rows(named=True)}
    assert status["Palace"]["dominated_by"] == "Cheap Palace"
    assert status["Palace"]["cannot_judge"] == "Rare Palace (copies differ)"
    assert status["Rare Palace"]["copies"] == palace["copies"] + 3


def test_a_graph_without_resources_reports_an_edit(tiny):
    """A game with no cost economy (set collection: a card's set size and points,
    no resources) gets a bottlenecks table with its columns and no bottleneck, and
    an edit's report compares two of them (the plugin trial found the report failing
    on a table with no columns)."""
    from workbench.graphs.generic import CardFields, GenericGraph
    from workbench.tweak.pool_session import diff_status
    game = registry.get_game(GID)

    class Sets(type(game)):
        card_fields = CardFields(file="cards.yaml", path=("cards",), resources=(), rewards=("points",),
                                 copies="copies", fields={"points": "count", "copies": "count"})
    mod = GenericGraph(Sets())
    raw = {"cards": [{"name": c.name, "points": c.points, "copies": c.copies} for c in game.cards().cards]}
    before = mod.analyses(raw)
    assert before["bottlenecks"].columns[0] == "resource" and before["bottlenecks"].height == 0
    raw["cards"][0] = {**raw["cards"][0], "points": raw["cards"][0]["points"] + 3}
    report = diff_status(before, mod.analyses(raw), card=raw["cards"][0]["name"], field="points", old=0, new=3)
    assert [c["what"] for c in report.cost_changes] == ["gives"] and report.notes == []


def test_every_declared_field_is_edited_on_the_cards_page(tiny, monkeypatch):
    """The Cards table's columns are the fields the game declares (a tokens field
    one column per key), each edits as its type says, and a wrong value is refused
    with the card and field named, changing nothing."""
    from workbench.core.errors import WorkbenchError
    from workbench.tweak import open_session
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    session = open_session(GID)
    columns = set(session.table().columns)
    assert {"points", "copies", "cost_wood", "discount_stone"} <= columns
    for column, text, value in (("copies", "3", 3), ("points", "5", 5), ("cost_wood", "1", 1),
                                ("discount_gold", "2", 2)):
        session.edit("Sawmill", column, text)
        row = session.table().filter(session.table()["name"] == "Sawmill").row(0, named=True)
        assert row[column] == value, column
    before = session.table()
    with pytest.raises(WorkbenchError, match="Sawmill"):
        session.edit("Sawmill", "copies", "{wood: 1}")
    assert session.table().equals(before)


def test_print_holds_every_copy(tiny):
    """The printed deck (and so the Tabletop Simulator deck built from it) holds
    as many cards as the copies of the card file add up to."""
    from workbench.print.sheets import build_deck
    game = registry.get_game(GID)
    deck = build_deck(GID, "en")
    total = sum(c.copies for c in game.cards().cards)
    assert total > len(game.cards().cards)
    assert sum(len(k.cards) for k in deck.kinds) == total


def test_its_cards_are_added_duplicated_and_deleted_on_the_cards_page(tiny, monkeypatch):
    """The scaffold declares a blank card (Game.card_blanks): the Cards page's
    add, duplicate and delete work on the plugin's own folder, the round-trip way."""
    from workbench.tweak.card_ops import CardInUse
    from workbench.tweak import open_session
    monkeypatch.setenv("WORKBENCH_NO_HISTORY", "1")
    path = tiny / "tiny_market" / "cards" / "cards.yaml"
    original = path.read_text(encoding="utf-8")
    session = open_session(GID)
    assert session.blank_kinds == ["card"]
    with pytest.raises(CardInUse, match="scenario buy-with-discount.yaml"):
        session.delete_card("Sawmill")
    assert session.add_card("card").card == "New Card"
    assert session.duplicate_card("New Card").card == "New Card copy"
    session.undo()
    assert session.table()["name"].to_list()[-1] == "New Card"
    session.save()
    text = path.read_text(encoding="utf-8")
    # the new card is written as its neighbours are (one flow mapping a line), the rest untouched
    assert text.startswith(original.rstrip("\n")) and "\n  - {name: New Card, " in text
    again = open_session(GID)
    again.delete_card("New Card")
    again.save()
    assert path.read_text(encoding="utf-8") == original
