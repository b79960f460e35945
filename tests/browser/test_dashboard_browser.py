"""The dashboard in a real browser: each page loads and does its job."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_app_loads_without_console_errors(ui, console_errors):
    ui.open()
    for name in ("Play", "Cards", "Graph", "Board", "Rules", "Sweeps"):
        expect(ui.tab_button(name)).to_be_visible()
    ui.page.wait_for_timeout(1500)
    assert console_errors == []
