"""Screenshots of a playtest seat page of every game (docs/rooms.md), written by a
real ``workbench serve`` over a scratch copy of the cards and a scratch journal:
one person and bots, a few moves played by clicking the seat page's buttons
(seeded), on until the person has a real choice (two kinds of move, four moves);
then the page as that person sees it (docs/screenshots/room-seat-<game>.png) and
the first game's spectator link (room-spectator.png).

Run (about a minute)::

    .venv/bin/python analyses/rooms_seat_screenshots.py
"""

from __future__ import annotations

import json
import os
import random
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
                    # a few moves, each a seeded click on one of the page's buttons, then
                    # on until the person has a real choice (two kinds of move, four moves or more)
                    rng = random.Random(f"{gid}-8")
                    for turn in range(60):
                        for _ in range(400):
                            if page.locator("#status").inner_text() in ("your turn", "the game is over"):
                                break
                            page.wait_for_timeout(50)
                        if page.locator("#status").inner_text() != "your turn":
                            break
                        if turn >= 5 and page.locator("#moves .kind").count() >= 2 and \
                                page.locator("#moves button").count() >= 4:
                            break
                        before = page.locator("#log div").count()
                        buttons = page.locator("#moves button")
                        buttons.nth(rng.randrange(buttons.count())).click()
                        for _ in range(400):
                            if page.locator("#log div").count() > before:
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
