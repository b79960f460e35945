"""PNG snapshots of the analyses' bokeh pages, taken with headless Chromium.

Bokeh's own ``export_png`` needs Selenium and a matching driver; the project
already drives Chromium through Playwright for its browser tests, so the
analyses use that. Without Playwright or a Chromium (``$WORKBENCH_CHROMIUM``,
default ``/usr/bin/chromium``) the PNG is skipped and the reason returned;
the HTML page is always written.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path


def html_to_png(html: Path, png: Path, width: int = 1300) -> str | None:
    """Render ``html`` to ``png``; returns None on success, else why it was skipped."""
    chromium = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return f"no Chromium at {chromium}"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright is not installed"
    # Playwright's sync API refuses to start where an asyncio loop already runs
    # in this thread: a Jupyter kernel, or a process where another Playwright
    # (the browser tests' session) is active. A thread of its own has no loop.
    failure: list[BaseException] = []

    def capture() -> None:
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
                try:
                    page = browser.new_page(viewport={"width": width, "height": 800})
                    page.goto(Path(html).resolve().as_uri())
                    # bokeh draws after load; wait until its canvases exist
                    page.wait_for_selector(".bk-Canvas, canvas", state="attached", timeout=20000)
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(png), full_page=True)
                finally:
                    browser.close()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=capture, name="png-snapshot")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return None
