"""The playtest-room screenshots of docs/rooms.md and the README, written by a
real ``workbench serve`` over a scratch copy of the cards and a scratch journal.

Three people (three browser contexts) and a bot play three short Pax
Transhumanity games (``round_limit=1``) through their seat pages and answer the
surveys; then the designer's Playtest page (a fourth room left mid-game, and the
journal's games) and the Sweeps page's "people beside bots" table are taken.
Writes docs/screenshots/room-seat.png, room-survey.png, room-designer.png,
room-journal.png and room-compare.png.

Run (about two minutes)::

    .venv/bin/python analyses/rooms_screenshots.py
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

PAX = "pax-transhumanity"


THOUGHT = set()    # the people who have taken their long decision


def take_turn(pages) -> bool:
    for page in pages:
        if page.locator("#status").inner_text() == "the game is over":
            return False
    for seat, page in enumerate(pages):
        if page.locator("#status").inner_text() == "your turn":
            if seat == 2 and seat not in THOUGHT:
                # Chloe thinks a while over one move: her survey asks about it
                THOUGHT.add(seat)
                page.wait_for_timeout(6000)
            before = page.locator("#log div").count()
            buttons = page.locator("#moves button")
            buttons.nth(buttons.count() // 2).click()
            for other in pages:
                for _ in range(600):
                    if other.locator("#log div").count() > before:
                        break
                    other.wait_for_timeout(50)
            return True
    pages[0].wait_for_timeout(200)
    return True


def main() -> int:
    from playwright.sync_api import sync_playwright
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / "cards"
        shutil.copytree(ROOT / "cards", cards)
        os.environ["WORKBENCH_CARDS"] = str(cards)
        proc, base = start_server(Path(tmp) / "journal.sqlite", _free_port())
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                opened = _api(base, "POST", body={"game": PAX, "players": 4, "seed": 21,
                                                  "seats": [{"kind": "person", "name": n} for n in
                                                            ("Ana", "Ben", "Chloe")] + [{"kind": "bot", "bot": "greedy"}],
                                                  "options": {"round_limit": 1}})
                contexts = [browser.new_context(viewport={"width": 1350, "height": 950}) for _ in range(3)]
                pages = [c.new_page() for c in contexts]
                for page, link in zip(pages, opened["links"].values()):
                    page.set_default_timeout(60_000)
                    page.goto(link)
                    page.locator("#seats div").first.wait_for()
                for game in range(3):
                    steps = 0
                    while take_turn(pages):
                        steps += 1
                        if game == 0 and steps == 7:
                            pages[1].locator("#chattext").fill("is the Market refilled before my turn?")
                            pages[1].locator("#chat button").click()
                            pages[0].wait_for_timeout(400)
                            pages[0].screenshot(path=str(OUT / "room-seat.png"), full_page=False)
                    for i, page in enumerate(pages):
                        form = page.locator("#surveyform")
                        form.locator("[name=fun]").fill(str(3 + (i + game) % 3))
                        form.locator("[name=clarity]").fill(str(2 + i))
                        form.locator("[name=length]").select_option("too short")
                        form.locator("[name=text]").fill(["the Secret made me think", "short but tense",
                                                          "which market column refills?"][i])
                        # the questions about this person's own game, and (once) the tester profile
                        answers = ["I was weighing the Secret against the Market", "it felt fair",
                                   "I never had the money for it"]
                        for k, box in enumerate(form.locator("textarea[name^='m:']").all()):
                            box.fill(answers[k % len(answers)])
                        if form.locator("select[name='m:profile']").count():
                            form.locator("select[name='m:profile']").select_option("monthly")
                        if game == 0 and i == 2:
                            page.locator("#survey").scroll_into_view_if_needed()
                            page.screenshot(path=str(OUT / "room-survey.png"), full_page=False)
                        form.locator("button").click()
                    if game < 2:
                        pages[0].wait_for_timeout(300)
                        room = opened["room"]
                        # the designer starts the next game (the page's "Next game" does the same)
                        _api(base, "POST", f"/{room}/next", body={})
                        for page in pages:
                            for _ in range(200):
                                if page.locator("#status").inner_text() != "the game is over":
                                    break
                                page.wait_for_timeout(50)
                # a second room left mid-game, so the designer's page shows one playing
                second = _api(base, "POST", body={"game": PAX, "players": 3, "seed": 4,
                                                  "seats": [{"kind": "person", "name": "Dana"},
                                                            {"kind": "bot", "bot": "random"},
                                                            {"kind": "bot", "bot": "greedy"}]})
                designer = browser.new_context(viewport={"width": 1500, "height": 1100}).new_page()
                designer.set_default_timeout(120_000)
                designer.goto(base + "/", wait_until="networkidle")
                designer.locator(".bk-tab", has_text="Playtest").click()
                designer.locator(".playtest-room").first.wait_for()
                designer.wait_for_timeout(1500)
                designer.screenshot(path=str(OUT / "room-designer.png"), full_page=False)
                designer.locator(".playtest-journal").scroll_into_view_if_needed()
                designer.wait_for_timeout(500)
                designer.locator(".playtest-journal").screenshot(path=str(OUT / "room-journal.png"))
                designer.locator(".bk-tab", has_text="Sweeps").click()
                designer.locator(".people-run").wait_for()
                designer.locator(".sweeps-game select").select_option(PAX)
                designer.wait_for_timeout(1000)
                designer.locator(".sweeps-settings input").nth(1).fill("100")   # bot games (the Games field)
                designer.locator(".sweeps-settings input").nth(1).press("Enter")
                designer.locator(".people-run button").click()
                designer.locator(".people-table").wait_for(state="visible", timeout=300_000)
                designer.wait_for_timeout(800)
                block = designer.locator(".people-beside-bots")
                block.scroll_into_view_if_needed()
                block.screenshot(path=str(OUT / "room-compare.png"))
                print(json.dumps({"rooms": [opened["room"], second["room"]], "written": sorted(
                    str(p.relative_to(ROOT)) for p in OUT.glob("room-*.png"))}))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
