"""The dashboard in a real browser (Debian's Chromium): each page loads and
does its job, and each page's screenshot is saved for the README."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PAGES = ("Play", "Cards", "Graph", "Board", "Rules", "Sweeps")
POSITION = re.compile(r"position (\d+) of (\d+)")


def text_of(locator) -> str:
    """Text of a Markdown pane: its content sits in the pane's shadow root, which
    ``inner_text`` of the host does not include, but a child locator reaches."""
    return " ".join(locator.locator("p").all_inner_texts())


def position(page) -> tuple[int, int]:
    text = text_of(page.locator(".play-status"))
    found = POSITION.search(text)
    assert found, f"no position in the status line {text!r}"
    return int(found.group(1)), int(found.group(2))


def test_app_loads_without_console_errors(ui, console_errors):
    ui.open()
    for name in PAGES:
        expect(ui.tab_button(name)).to_be_visible()
    for name in PAGES:
        ui.tab(name)
    ui.tab("Play")
    ui.page.wait_for_timeout(1000)
    assert console_errors == []


def test_meaning_made_forward_and_back_on_play_page(ui, console_errors):
    page = ui.page
    ui.open("Play")
    expect(page.locator(".play-status")).to_contain_text("Meaning Made")
    assert position(page) == (0, 0)
    moves = page.locator("select").filter(has=page.locator("option", has_text="gather"))
    expect(moves).to_have_count(1)
    first = moves.locator("option").first.inner_text()
    page.get_by_role("button", name="Play move").click()
    expect(page.locator(".play-log")).to_contain_text(first)
    page.wait_for_timeout(300)
    page.get_by_role("button", name="Play move").click()
    page.wait_for_function("() => true")
    expect(page.locator(".play-status")).to_contain_text(re.compile(r"position [2-9]\d* of"))
    ply, length = position(page)
    assert ply == length >= 2
    ui.screenshot("play")
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 1} of {length}")
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 2} of {length}")
    page.get_by_role("button", name="Forward ▶").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 1} of {length}")
    # the future stays in the log, greyed, until a different move replaces it
    expect(page.locator(".play-log li")).to_have_count(length)
    page.get_by_role("button", name="Bot move").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply} of {ply}")
    page.get_by_role("button", name="Play to end").click()
    expect(page.locator(".play-status")).to_contain_text("Game over", timeout=180_000)
    expect(page.get_by_text("cannot draw this position")).to_have_count(0)
    assert console_errors == []


def _cell(page, card: str, field: str):
    row = page.locator(".tabulator-row").filter(
        has=page.locator(".tabulator-cell[tabulator-field='name']", has_text=re.compile(rf"^{card}$")))
    return row.locator(f".tabulator-cell[tabulator-field='{field}']")


def _edit(page, card: str, field: str, value: str):
    cell = _cell(page, card, field)
    cell.click()
    editor = cell.locator("input")
    editor.wait_for()
    editor.fill(value)
    editor.press("Enter")


def test_card_edit_changes_graph_and_paired_playtest(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    card = "Shell"
    info = page.locator(".cards-info")
    old = int(_cell(page, card, "I").inner_text())
    _edit(page, card, "I", str(old + 2))
    expect(_cell(page, card, "I")).to_have_text(str(old + 2))
    expect(page.locator(".cards-report")).to_contain_text("What the last edit changed")
    # the line under the graph reads the card's requirement from the rebuilt graph
    expect(info).to_contain_text(f"{card} (Layer")
    assert f"{old + 2}I" in text_of(info)
    page.get_by_label("Games per pool").fill("12")
    page.get_by_role("button", name="Quick paired playtest").click()
    table = page.locator(".cards-playtest")
    expect(table).to_contain_text("survival rate", timeout=240_000)
    expect(table).to_contain_text(f"games taking {card}")
    ui.screenshot("cards")
    assert console_errors == []


def test_invalid_card_edit_refused_and_old_value_kept(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    card = "Cell Wall"
    old = _cell(page, card, "layer").inner_text()
    _edit(page, card, "bonus", "sparkles+9")
    expect(page.locator(".cards-message")).to_contain_text("refused")
    expect(page.locator(".cards-message")).to_contain_text("bonus")
    expect(_cell(page, card, "layer")).to_have_text(old)
    old_bonus = _cell(page, card, "bonus").inner_text()
    assert "sparkles" not in old_bonus
    _edit(page, card, "layer", "12")  # Patterns live on Layers 1-6
    expect(page.locator(".cards-message")).to_contain_text("layer")
    expect(_cell(page, card, "layer")).to_have_text(old)
    assert console_errors == []


def test_graph_page_selects_a_card(ui, console_errors):
    page = ui.page
    ui.open("Graph")
    box = page.get_by_placeholder("type a card name")
    box.fill("Shell")
    box.press("Enter")
    expect(page.locator(".graph-links")).to_contain_text("Shell needs")
    ui.screenshot("graph")
    assert console_errors == []


def test_board_page_reshuffles(ui, console_errors):
    page = ui.page
    ui.open("Board")
    caption = page.locator(".board-caption")
    expect(caption).to_contain_text("Mandate 2038 board, seed 1,")
    expect(caption).to_contain_text("19 districts")
    ui.screenshot("board")
    page.get_by_role("button", name="Reshuffle (next seed)").click()
    expect(caption).to_contain_text("Mandate 2038 board, seed 2,")
    assert console_errors == []


def test_rules_page_shows_both_languages(ui, console_errors):
    page = ui.page
    ui.open("Rules")
    expect(page.locator("th", has_text=re.compile("^en$"))).to_be_visible()
    expect(page.locator("th", has_text=re.compile("^hu$"))).to_be_visible()
    overview = page.locator("tr[data-clause='meaning-made/overview/layers']")
    expect(overview.locator("td.rules-en")).to_contain_text("Layers")
    expect(overview.locator("td.rules-hu")).to_contain_text("Réteg")
    ui.screenshot("rules")
    assert console_errors == []


def test_sweeps_page_runs_a_batch_with_plots(ui, console_errors):
    page = ui.page
    ui.open("Sweeps")
    page.get_by_label("Games", exact=True).fill("16")
    page.get_by_label("Bots, setting A").fill("random")
    page.get_by_role("button", name="Run batch").click()
    expect(page.get_by_text(re.compile(r"played 16 games"))).to_be_visible(timeout=240_000)
    expect(page.get_by_text("Design metrics")).to_be_visible()
    ui.screenshot("sweeps")
    assert console_errors == []


SELECT_IN_GRAPH = """(card) => {
    // what a click on a node does: set the node source's selection, which Bokeh
    // sends to the server like any other change
    const doc = Bokeh.documents[0];
    let hit = 0;
    for (const model of doc.all_models) {
        const data = model.data;
        if (data && data.name && data.kind && data.requirement) {
            const i = Array.from(data.name).indexOf(card);
            if (i >= 0) { model.selected.indices = [i]; hit += 1; }
        }
    }
    return hit;
}"""


def test_graph_click_selects_a_card(ui, console_errors):
    page = ui.page
    ui.open("Graph")
    page.wait_for_timeout(1500)
    assert page.evaluate(SELECT_IN_GRAPH, "Pulse") >= 1
    expect(page.locator(".graph-links")).to_contain_text("Pulse needs")
    assert console_errors == []
