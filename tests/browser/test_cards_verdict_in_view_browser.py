"""The Cards page shows a playtest's verdict where the designer looks: after an
edit, the first decided verdict is inside the window without scrolling (the
playtest sits at the top of the right-hand column, beside the table)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from test_dashboard_browser import _cell, _edit

# every verdict a look decides (workbench/sim/verdicts.py): a direction beyond, inside or
# not yet sized against the margin, no meaningful change, or pairs that never differed
DECIDED = re.compile(r"^(better|worse|higher|lower|no meaningful change|slightly (higher|lower) \(inside the margin\)"
                     r"|(higher|lower), size not yet clear|the bots never chose differently)$")


def test_a_decided_verdict_shows_without_scrolling(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    card = "Shell"
    old = int(_cell(page, card, "I").inner_text())
    # a cost no player can meet: the card's use drops to nothing, decided at the first look
    _edit(page, card, "I", str(old + 40))
    expect(_cell(page, card, "I")).to_have_text(str(old + 40))
    page.get_by_label("Games per pool").fill("40")
    page.get_by_label("Bots").fill("random")
    page.get_by_role("button", name="Quick paired playtest").click()
    decided = page.locator(".cards-playtest .tabulator-cell[tabulator-field='verdict']").filter(
        has_text=DECIDED).first
    expect(decided).to_be_visible(timeout=240_000)
    # each look redraws the table (a cell found may be replaced before it is measured):
    # measured once the run is over and the table stays
    expect(page.get_by_role("button", name="Quick paired playtest")).to_be_enabled(timeout=240_000)
    expect(decided).to_be_visible()
    assert page.evaluate("() => window.scrollY") == 0
    # the last look's table may still be laying out: its box exists once it is drawn
    box = decided.bounding_box()
    for _ in range(120):
        if box is not None:
            break
        page.wait_for_timeout(250)
        box = decided.bounding_box()
    viewport = page.viewport_size
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], (box, viewport)
    assert 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], (box, viewport)
    ui.screenshot("cards-verdict-in-view")
    assert console_errors == []
