"""Stored XSS, tried in a real browser: HTML typed into a card field is either
refused and shown back as text (the consequence) or stored and shown as text (the
flavour); no script runs (``window.__xss`` stays unset). A card name holding
HTML is refused by the data model (tests/test_reliability_dashboard.py)."""

from __future__ import annotations

from playwright.sync_api import expect

from test_dashboard_browser import _cell, _edit

REFUSED = "<img src=x onerror=\"window.__xss='consequence'\">"
STORED = "<img src=x onerror=\"window.__xss='flavour'\"><b>bold</b>"


def test_html_in_a_card_is_never_executed(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    _edit(page, "Threshold", "consequence", REFUSED)
    message = page.locator(".cards-message")
    expect(message).to_contain_text("refused")
    expect(message).to_contain_text("<img")  # the refused text, shown as typed
    _edit(page, "Threshold", "flavour", STORED)
    expect(_cell(page, "Threshold", "flavour")).to_contain_text("<b>bold</b>")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__xss") is None
    assert page.locator(".tabulator-cell img").count() == 0
