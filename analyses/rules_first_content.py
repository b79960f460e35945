"""Seconds until the Rules page shows a rulebook's clauses, per game, in a fresh
``workbench serve``: the figure behind "the Rules page shows content within 5 s
of its first opening" (docs/measurements/).

For each game with a rulebook, a new server is started on a free port over a
scratch copy of the cards (so every game's files are read cold, as on the first
visit after ``workbench serve``), the dashboard is opened in headless Chromium,
and the clock starts at the click:

- the game the Rules page opens on: from the click on the Rules tab to its
  first clause on screen (the page's first opening);
- every other game: the Rules tab is opened first, then from choosing the game
  to its clauses on screen under its name (that game's first opening).

Beside each figure: seconds until the translation review had finished (its
progress line gone), which the clauses do not wait for. The load average is
printed with the figures: wall-clock seconds mean something on a quiet machine
only.

Run (a minute or two)::

    .venv/bin/python analyses/rules_first_content.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.rooms.bench import _free_port  # noqa: E402

CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
LIMIT = 300.0   # seconds: a hang, not a measurement


def _serve(cards: Path, log: Path):
    port = _free_port()
    env = {**os.environ, "WORKBENCH_CARDS": str(cards), "WORKBENCH_NO_HISTORY": "1", "BOKEH_LOG_LEVEL": "warn",
           "WORKBENCH_JOURNAL": str(cards.parent / "journal.sqlite")}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", "--port", str(port), "--no-browser"],
                            cwd=cards.parent, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + LIMIT
    while True:
        try:
            urllib.request.urlopen(url + "ready-probe", timeout=5)
            return proc, url
        except urllib.error.HTTPError:
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit(f"workbench serve did not start; see {log}") from None
            time.sleep(0.2)


def _wait(page, check, started: float) -> float:
    while not check():
        if time.monotonic() - started > LIMIT:
            raise SystemExit("nothing on screen after 300 s")
        page.wait_for_timeout(50)
    return time.monotonic() - started


def measure(game_id: str, first: str, name: str, folder: Path, browser) -> tuple[float, float]:
    cards = folder / "cards"
    shutil.copytree(ROOT / "cards", cards)
    proc, url = _serve(cards, folder / "serve.log")
    try:
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.goto(url, wait_until="networkidle", timeout=int(LIMIT * 1000))
        tab = page.locator(".bk-tab", has_text="Rules").first
        tab.wait_for(timeout=int(LIMIT * 1000))
        rows = page.locator(".page-rules .rules-table td")
        title = page.locator(".page-title-rules h2")
        progress = page.locator(".page-rules .rules-progress")

        def shown() -> bool:
            return rows.count() > 0 and rows.first.is_visible() and name in " ".join(title.all_inner_texts())
        if game_id != first:
            tab.click()   # the page on its own first game, not timed here
            page.locator(".page-rules .rules-table td").first.wait_for(timeout=int(LIMIT * 1000))
            page.locator(".page-rules select").first.select_option(game_id)
            started = time.monotonic()
        else:
            started = time.monotonic()
            tab.click()
        content = _wait(page, shown, started)
        reviewed = _wait(page, lambda: content and not progress.first.is_visible(), started)
        page.close()
        return content, reviewed
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable); default: every game")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from workbench.dashboard.names import game_name
    from workbench.dashboard.rules import games_with_rules
    games = games_with_rules()
    chosen = args.game or games
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="workbench-rules-timing-") as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        for game_id in chosen:
            folder = Path(tmp) / game_id
            folder.mkdir()
            content, reviewed = measure(game_id, games[0], game_name(game_id), folder, browser)
            how = "opening the Rules tab" if game_id == games[0] else "choosing it on the Rules page"
            print(f"{game_id}: clauses on screen {content:.2f} s after {how} "
                  f"(review finished at {reviewed:.2f} s); load {os.getloadavg()[0]:.2f}", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
