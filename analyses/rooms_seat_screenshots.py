"""Screenshots of a playtest seat page of every game (docs/rooms.md), written by a
real ``workbench serve`` over a scratch copy of the cards and a scratch journal:
one person and bots, a few moves played by clicking the seat page's buttons,
then the page as that person sees it (docs/screenshots/room-seat-<game>.png) and
the first game's spectator link (room-spectator.png).

Run (about a minute)::

    .venv/bin/python analyses/rooms_seat_screenshots.py
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))

from workbench.rooms.bench import _api, _free_port, start_server  # noqa: E402


def main() -> int:
    from playwright.sync_api import sync_playwright

    from workbench.core.registry import get_game, providing
    games = [g for g in providing("table_drawing")]
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / "cards"
        shutil.copytree(ROOT / "cards", cards)
        os.environ["WORKBENCH_CARDS"] = str(cards)
        proc, base = start_server(Path(tmp) / "journal.sqlite", _free_port())
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                for n, gid in enumerate(games):
                    game = get_game(gid)
                    players = max(game.min_players, min(3, game.max_players))
                    opened = _api(base, "POST", body={
                        "game": gid, "players": players, "seed": 8,
                        "seats": [{"kind": "person", "name": "Ana"}] +
                                 [{"kind": "bot", "bot": "greedy"}] * (players - 1)})
                    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                    page.set_default_timeout(60_000)
                    page.goto(next(iter(opened["links"].values())))
                    page.locator("#seats div").first.wait_for()
                    for _ in range(6):
                        for _ in range(200):
                            if page.locator("#status").inner_text() in ("your turn", "the game is over"):
                                break
                            page.wait_for_timeout(50)
                        if page.locator("#status").inner_text() != "your turn":
                            break
                        before = page.locator("#log div").count()
                        page.locator("#moves button").first.click()
                        for _ in range(200):
                            if page.locator("#log div").count() > before:
                                break
                            page.wait_for_timeout(50)
                    for _ in range(200):
                        if page.locator("#status").inner_text() == "your turn":
                            break
                        page.wait_for_timeout(50)
                    path = OUT / f"room-seat-{gid}.png"
                    page.screenshot(path=str(path), full_page=True)
                    written.append(str(path.relative_to(ROOT)))
                    if n == 0:
                        watch = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                        watch.goto(opened["spectator"])
                        watch.locator("#seats div").first.wait_for()
                        watch.wait_for_timeout(500)
                        watch.screenshot(path=str(OUT / "room-spectator.png"), full_page=True)
                        written.append("docs/screenshots/room-spectator.png")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(json.dumps({"written": written}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
