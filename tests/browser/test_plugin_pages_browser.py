"""A designer's own game, written by ``workbench new-game`` and found as a plugin
(its folder on the server's PYTHONPATH with the dist-info ``pip install -e``
leaves), is offered on every page of the dashboard, with nothing of the
workbench changed. One server, each page visited once; what is read is each
page's game selector (the command-line side is tests/test_new_game.py)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]

GID = "tiny-market"
#: the pages with a game selector (the Graph page's is checked below, where it
#: draws the plugin's pool); the Board page lists the games that declare a board
#: (the scaffold declares none)
SELECTING = ("Play", "Cards", "Rules", "Sweeps", "Print", "Balance", "Playtest")


def _status() -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout


def test_every_page_offers_a_scaffolded_game(browser, tmp_path, start_server, scaffolded):
    before = _status()
    path = os.pathsep.join(p for p in (str(scaffolded), os.environ.get("PYTHONPATH", "")) if p)
    (tmp_path / "served").mkdir()
    with start_server(tmp_path / "served", env={"PYTHONPATH": path}) as srv:
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(60_000)
        expect.set_options(timeout=60_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(srv["url"], wait_until="networkidle", timeout=120_000)
        for name in SELECTING:
            page.locator(".bk-tab", has_text=re.compile(rf"^{name}$")).click()
            holder = page.locator(f".page-{name.lower()}").first
            # a page is built on its first visit (the Rules page reviews its rulebook then:
            # minutes on a loaded machine), so the wait is for the page, not a fixed time
            holder.wait_for(state="visible", timeout=300_000)
            # the page's game selector holds the plugin (an option's text is its id)
            expect(holder.locator("select option", has_text=re.compile(rf"^{GID}$")).first).to_be_attached()
        # its pool opens on the Cards page, and the Graph page, choosing the same game, draws that pool
        page.locator(".bk-tab", has_text=re.compile(r"^Cards$")).click()
        page.locator(".cards-game select").select_option(GID)
        expect(page.locator(".page-cards .tabulator-row", has_text="Sawmill").first).to_be_visible()
        page.locator(".bk-tab", has_text=re.compile(r"^Graph$")).click()
        page.locator(".graph-game select").select_option(GID)
        box = page.get_by_placeholder("type a card name")
        box.fill("Sawmill")
        box.press("Enter")
        expect(page.locator(".graph-links")).to_contain_text("Sawmill needs")
        page.close()
        log = srv["log"].read_text(errors="replace")
    assert errors == [] and "Traceback" not in log, (errors, log[-3000:])
    assert _status() == before, "serving the plugin changed the workbench's files"
