"""Browser-test harness: Debian's Chromium driven by pytest-playwright, against a
``workbench serve`` started on a free port in a subprocess.

Playwright cannot download its own browsers here, so the tests launch
``/usr/bin/chromium`` (or ``$WORKBENCH_CHROMIUM``). Without it they are skipped
on a workstation and FAIL on CI (``CI=true``), where a missing browser means a
broken set-up, not a reason to pass."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from page_checks import console_line

ROOT = Path(__file__).resolve().parents[2]
#: where the README's pictures live; only ``python -m tests.browser.refresh_screenshots``
#: writes there (it sets $WORKBENCH_SCREENSHOTS to this folder)
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _have_browser() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    """The folder the tests save their screenshots in: ``$WORKBENCH_SCREENSHOTS``
    when set (the refresh command points it at ``docs/screenshots``), otherwise a
    temporary folder, so running the suite never rewrites a tracked file."""
    chosen = os.environ.get("WORKBENCH_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session", autouse=True)
def _require_browser():
    if _have_browser():
        return
    message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + "; browser tests must run on CI")
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1500, "height": 1000}}


@pytest.fixture(scope="module")
def module_context(browser, browser_context_args):
    """One browser context for a test module's pages: its HTTP cache keeps BokehJS,
    Panel's and Tabulator's scripts (several megabytes, served with a version in
    their address) and the compiled code the first page made of them, so each later
    page of the module opens without fetching and compiling them again."""
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def page(module_context):
    """A fresh page (tab) for each test, in its module's context (pytest-playwright's
    own ``page`` opens a new context, with an empty cache, for every test). Each page
    is its own dashboard session; the page is closed after the test."""
    page = module_context.new_page()
    yield page
    page.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(folder: Path, log_level: str = "warn", env: dict | None = None, args: tuple[str, ...] = ()):
    """``workbench serve`` on a free port over a private copy of the cards in
    ``folder``, its output in ``folder/serve.log``; stopped on leaving. ``env``:
    more environment for the server (a plugin's folder on PYTHONPATH); ``args``:
    more of ``workbench serve``'s options."""
    cards = folder / "cards"
    shutil.copytree(ROOT / "cards", cards)
    port = _free_port()
    env = {**os.environ, "WORKBENCH_CARDS": str(cards), "BOKEH_LOG_LEVEL": log_level, **(env or {})}
    log = (folder / "serve.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", "--port", str(port),
                             "--no-browser", *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 300
    while True:
        if proc.poll() is not None:
            pytest.fail(f"workbench serve exited with {proc.returncode}; see {log.name}")
        try:
            # any HTTP answer means the server is up; asking for a missing page
            # avoids building a whole dashboard session just to find out
            urllib.request.urlopen(url + "ready-probe", timeout=5)
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.terminate()
            pytest.fail("workbench serve did not answer within 300 s")
        time.sleep(0.5)
    try:
        yield {"url": url, "cards": cards, "log": Path(log.name)}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def start_server(_require_browser):
    """:func:`served` for a test that needs its own server (another log level)."""
    return served


@pytest.fixture(scope="session")
def server(tmp_path_factory, _require_browser):
    """``workbench serve`` on a free port over a private copy of the cards, so
    edits and saves made by the tests never touch the checkout."""
    with served(tmp_path_factory.mktemp("served")) as info:
        yield info


@pytest.fixture
def console_errors(page):
    """Console errors and uncaught page errors seen during the test."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(console_line(msg)) if msg.type == "error" else None)
    # the stack says which script threw: a message alone ("reading 'firstChild'")
    # cannot be traced to the widget that raised it
    page.on("pageerror", lambda exc: errors.append(f"{exc}\n{getattr(exc, 'stack', '')}"))
    return errors


class UI:
    """Small steps the tests share: open the app, switch tab, take a screenshot."""

    def __init__(self, page, server, screenshots: Path):
        self.page, self.server, self.screenshots = page, server, screenshots

    def open(self, tab: str | None = None):
        self.page.goto(self.server["url"], wait_until="networkidle", timeout=120_000)
        self.tab_button("Play").wait_for(timeout=60_000)
        if tab:
            self.tab(tab)

    def tab_button(self, name: str):
        # Bokeh draws tabs as divs without an ARIA role
        return self.page.locator(".bk-tab", has_text=re.compile(rf"^{name}$"))

    def tab(self, name: str):
        self.tab_button(name).click()
        # the page's holder shown is the condition (not a fixed pause): a loaded
        # machine takes longer, an idle one goes on at once. A page built on its
        # first showing (the Rules page runs the translation review) took over 60 s
        # at load 16, so the limit only catches a hang. A page opened the first time
        # shows its progress line until it is built; its title comes with the page.
        self.page.locator(f".page-{name.lower()}").first.wait_for(state="visible", timeout=300_000)
        self.page.locator(f".page-title-{name.lower()}").first.wait_for(state="visible", timeout=300_000)

    def screenshot(self, name: str):
        self.page.wait_for_timeout(800)
        # a click near the bottom (Apply) scrolls the page; the picture a reader
        # sees in the docs starts at the top of the page
        self.page.evaluate("() => { window.scrollTo(0, 0); "
                           "document.querySelectorAll('*').forEach(e => { if (e.scrollTop) e.scrollTop = 0; }); }")
        self.page.screenshot(path=str(self.screenshots / f"{name}.png"), full_page=True)


@pytest.fixture
def ui(page, server, screenshots):
    from playwright.sync_api import expect
    # the machine is shared: give the server time rather than fail on a busy moment
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    return UI(page, server, screenshots)


@pytest.fixture
def make_ui(screenshots):
    """:class:`UI` on a page and server of the test's own (a server started with
    :func:`served` for a plugin or other options)."""
    from playwright.sync_api import expect
    expect.set_options(timeout=60_000)
    return lambda page, server: UI(page, server, screenshots)


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory, _require_browser):
    """JupyterLab on loopback with a token, over a copy of ``notebooks/`` (so
    running them leaves the checkout alone) and a private copy of the cards.
    The app object is exposed so a test can run JupyterLab's own commands."""
    import secrets
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    cards = root / "cards"
    shutil.copytree(ROOT / "cards", cards)
    token = secrets.token_hex(16)
    port = _free_port()
    env = {**os.environ, "WORKBENCH_CARDS": str(cards), "PYTHONPATH": str(ROOT),
           "JUPYTER_CONFIG_DIR": str(root / "config"), "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
           "IPYTHONDIR": str(root / "ipython")}
    log = (root / "lab.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root / 'notebooks'}", "--LabApp.expose_app_in_browser=True",
         "--ServerApp.port_retries=0", "--allow-root", "--LabApp.extension_manager=readonly",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class="
         "jupyterlab.NeverCheckForUpdate"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 300
    while True:
        if proc.poll() is not None:
            pytest.fail(f"jupyter lab exited with {proc.returncode}; see {log.name}")
        try:
            urllib.request.urlopen(f"{url}api/status?token={token}", timeout=5)
            break
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.terminate()
            pytest.fail("jupyter lab did not answer within 300 s")
        time.sleep(0.5)
    yield {"url": url, "token": token, "root": root, "log": Path(log.name)}
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
