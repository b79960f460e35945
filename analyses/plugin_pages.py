"""Every dashboard page and a playtest room, tried on one installed game (a
designer's plugin as much as a bundled game): the trial of docs/adding-a-game.md.

A real ``workbench serve`` over a scratch journal (the card folders are the
games' own; nothing is saved): each page is opened, the game chosen in its game
selector, and the page screenshotted once it has drawn; then a room is opened
with one person and a greedy bot, the person's seat page plays seeded clicks on
its move buttons to the end of the game (or 60 moves), and the seat page is
screenshotted. Prints one JSON line: per page whether the game was offered and
the page showed no error, the moves the person made in the room and its last
status, and the PNGs written.

Run (a few minutes on a loaded machine)::

    .venv/bin/python analyses/plugin_pages.py GAME [--out DIR]

``DIR`` defaults to ``out/plugin-pages/GAME`` (not tracked).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.dashboard.app import PAGES  # noqa: E402
from workbench.rooms.bench import _api, _free_port, start_server  # noqa: E402

ERROR = re.compile(r"Traceback|Error:|failed", re.I)


def _pages(browser, base: str, game, out: Path) -> dict:
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    page.set_default_timeout(300_000)
    page.goto(base + "/", wait_until="networkidle")
    report = {}
    for title, _, _ in PAGES:
        page.locator(".bk-tab", has_text=re.compile(rf"^{title}$")).click()
        holder = page.locator(f".page-{title.lower()}").first
        holder.wait_for(state="visible")
        page.locator(f".page-title-{title.lower()}").first.wait_for(state="visible")
        offered = False
        selects = holder.locator("select")
        for n in range(selects.count()):
            values = selects.nth(n).locator("option").evaluate_all("os => os.map(o => o.value)")
            if game.id in values or game.name in values:
                selects.nth(n).select_option(game.id if game.id in values else game.name)
                offered = True
                break
        if offered:   # the page's title names the game once it has switched
            page.locator(f".page-title-{title.lower()}", has_text=game.name).first.wait_for(state="visible")
        page.wait_for_timeout(1500)
        shot = out / f"page-{title.lower()}.png"
        page.screenshot(path=str(shot), full_page=True)
        text = holder.inner_text()
        report[title] = {"offered": offered, "error_shown": bool(ERROR.search(text)), "png": str(shot)}
    return report


def _room(browser, base: str, game, out: Path, seed: int = 8) -> dict:
    players = game.min_players
    opened = _api(base, "POST", body={"game": game.id, "players": players, "seed": seed,
                                      "seats": [{"kind": "person", "name": "Ana"}] +
                                               [{"kind": "bot", "bot": "greedy"}] * (players - 1)})
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.set_default_timeout(60_000)
    page.goto(next(iter(opened["links"].values())))
    page.locator("#seats div").first.wait_for()
    rng = random.Random(f"{game.id}-{seed}")
    moves, seen = 0, []
    for _ in range(60):
        for _ in range(600):
            if page.locator("#status").inner_text() in ("your turn", "the game is over"):
                break
            page.wait_for_timeout(50)
        seen.append(page.locator("#seats").inner_text())
        if page.locator("#status").inner_text() != "your turn":
            break
        before = page.locator("#log div").count()
        buttons = page.locator("#moves button")
        buttons.nth(rng.randrange(buttons.count())).click()
        moves += 1
        for _ in range(600):
            if page.locator("#log div").count() > before:
                break
            page.wait_for_timeout(50)
        if moves == 6:
            page.screenshot(path=str(out / "room-seat-midgame.png"), full_page=True)
    shot = out / "room-seat.png"
    page.screenshot(path=str(shot), full_page=True)
    return {"moves_clicked": moves, "status": page.locator("#status").inner_text(), "png": str(shot)}


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    from workbench.core.registry import get_game
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    game = get_game(args.game)
    out = args.out or ROOT / "out" / "plugin-pages" / game.id
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "journal.sqlite", _free_port())
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                report = {"game": game.id, "pages": _pages(browser, base, game, out),
                          "room": _room(browser, base, game, out)}
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
