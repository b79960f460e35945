"""Every dashboard page names its own game: each page opens with content (not
blank), and on each page with a game selector, choosing another game changes the page's title, its selector and what it draws,
and nothing of the game before is left on screen (a card name in a box, a title,
a rules text). While it switches, the page says so: its progress line names
the game it loads (sampled on every frame, as a person would see it). A card
typed in the Graph page's box is not kept for the next game. The Rules page shows
its clauses before its translation review is done, and the review's findings
follow with no reload; its first content is timed (printed with ``-s``, never
asserted: timings stay out of tests). One visit of every page, on one server,
makes all of these checks."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from page_checks import console_line, shows_content
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
#: a designer's own game, written by ``workbench new-game`` (the ``scaffolded`` fixture)
PLUGIN = "tiny-market"

#: pages with a game selector
PAGES = ("Play", "Cards", "Graph", "Board", "Rules", "Sweeps", "Print", "Balance", "Playtest")
#: a card of each bundled game's pool, looked for in the Cards page's table
A_CARD = {"meaning-made": "Shell", "mandate-2038": "Frontier", "pax-transhumanity": "Gene Drive"}
#: pages that draw (bokeh canvases) once their game is chosen
DRAWS = {"Cards", "Graph", "Board"}

#: the visible text of a page holder and its drawn canvases, looking inside
#: Panel's shadow roots; the options of a closed <select> are not visible text
VISIBLE = """(host) => {
    const parts = []; let drawn = 0;
    const walk = (node) => {
        // the Playtest page's lists of rooms and journal games hold every game's rooms by
        // design (a designer may run rooms of several games in one evening)
        if (node.classList && ['playtest-rooms', 'playtest-journal', 'playtest-broken']
                .some((c) => node.classList.contains(c))) return;
        if (node.nodeType === Node.TEXT_NODE) {
            const el = node.parentElement;
            if (el && el.tagName !== 'OPTION' && el.getClientRects().length
                && getComputedStyle(el).visibility !== 'hidden') parts.push(node.textContent);
            return;
        }
        if (node.tagName === 'CANVAS' && node.width > 0 && node.getClientRects().length) drawn += 1;
        if (node.tagName === 'INPUT' && node.type === 'text' && node.value && node.getClientRects().length)
            parts.push(node.value);
        if (node.shadowRoot) walk(node.shadowRoot);
        for (const child of node.childNodes) walk(child);
    };
    walk(host);
    return [parts.join(' '), drawn];
}"""


#: the lines where a page says what it is doing while it switches games
SAYING = ("page-progress", "rules-progress", "play-status", "print-status")

#: samples, on every animation frame while ``window.__sampling`` is set (from a
#: game's choice until the page shows it), the visible text of those lines into
#: window.__said (a set of the texts seen), looking inside Panel's shadow roots.
#: Between switches it does nothing: walking the whole page five times a second
#: for the whole test took the browser's share of the two cores from the server
SAMPLER = """(classes) => {
    window.__said = new Set();
    window.__sampling = false;
    let lines = [];
    const text = (node) => {
        let out = '';
        const walk = (n) => {
            if (n.nodeType === Node.TEXT_NODE) { out += n.textContent; return; }
            if (n.shadowRoot) walk(n.shadowRoot);
            for (const c of n.childNodes) walk(c);
        };
        walk(node);
        return out.trim();
    };
    // the lines are found now and then (the whole page is large); each frame reads only them
    const find = (node, found) => {
        if (node.classList && classes.some((c) => node.classList.contains(c))) found.push(node);
        if (node.shadowRoot) find(node.shadowRoot, found);
        for (const child of node.children || []) find(child, found);
        return found;
    };
    const frame = () => {
        if (window.__sampling) for (const line of lines) {
            if (line.isConnected && line.getClientRects().length) {
                const said = text(line);
                if (said) window.__said.add(said);
            }
        }
        requestAnimationFrame(frame);
    };
    // the lines are looked for inside the page being switched only (each page's
    // progress line is in its holder), not in every page built so far
    let root = document.body;
    window.__startSampling = (holder) => { root = holder; lines = find(root, []); window.__sampling = true; };
    setInterval(() => { if (window.__sampling) lines = find(root, []); }, 200);
    requestAnimationFrame(frame);
}"""
START_SAMPLING = "(holder) => { window.__said.clear(); window.__startSampling(holder); }"
STOP_SAMPLING = "() => { window.__sampling = false; return [...window.__said]; }"


def _game_names():
    from workbench.core.registry import load_all
    return {game_id: game.name for game_id, game in load_all().items()}


def _selector(holder, names):
    """The page's game selector: the first <select> offering a game."""
    selects = holder.locator("select")
    for n in range(selects.count()):
        options = selects.nth(n).locator("option").all_inner_texts()
        if any(o in names.values() or o in names for o in options):
            return selects.nth(n), options
    raise AssertionError("no game selector on the page")


def _wait_for(page, holder, title, wanted: str, others: list[str], draws: bool, timeout: float = 120):
    """Until the page's title names ``wanted`` only, nothing of ``others`` is left
    in the page's visible text and, on a page that draws, a drawing is on screen.
    The title (one element) is read every 250 ms; the whole page's visible text
    (every text node with its computed style, a walk as long as the page) only
    once the title has followed, and again each second only while something of
    another game is still there. Reading the whole page four times a second from
    the click on took the browser's CPU from the server doing the switch."""
    deadline = time.monotonic() + timeout
    left, drawn = ["(the page was not read: its title had not followed)"], 0
    while True:
        heading = " ".join(title.locator("h2").all_inner_texts())   # inside the pane's shadow root
        pause = 250
        if wanted in heading and not any(o in heading for o in others):
            text, drawn = holder.evaluate(VISIBLE)
            left = [o for o in others if o in text]
            if not left and (drawn or not draws):
                return
            pause = 1000
        assert time.monotonic() < deadline, (f"title {heading!r}; other games still on the page: {left}; "
                                             f"{drawn} drawings")
        page.wait_for_timeout(pause)


def _status() -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout


def test_every_page_switches_games_whole(browser, tmp_path, start_server, scaffolded, make_ui):
    """Served with a designer's own game as a plugin (its folder on the server's
    PYTHONPATH with the dist-info ``pip install -e`` leaves, nothing of the
    workbench changed), so the same visit of each page also finds that game in
    the page's selector, and the plugin's pool opens on the Cards and Graph pages
    (the command-line side is tests/test_new_game.py)."""
    names = _game_names()
    before = _status()
    path = os.pathsep.join(p for p in (str(scaffolded), os.environ.get("PYTHONPATH", "")) if p)
    (tmp_path / "served").mkdir()
    with start_server(tmp_path / "served", env={"PYTHONPATH": path}) as srv:
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(60_000)
        console_errors: list[str] = []
        page.on("console", lambda msg: console_errors.append(console_line(msg)) if msg.type == "error" else None)
        # with its stack, as the console_errors fixture records it: the script that threw
        page.on("pageerror", lambda exc: console_errors.append(f"{exc}\n{getattr(exc, 'stack', '')}"))
        ui = make_ui(page, srv)
        ui.open()
        _plugin_pool_opens(ui)
        _switch_every_page(ui, names)
        page.close()
        log = srv["log"].read_text(errors="replace")
    assert console_errors == [] and "Traceback" not in log, (console_errors, log[-3000:])
    assert _status() == before, "serving the plugin changed the workbench's files"


def _plugin_pool_opens(ui):
    """The plugin's pool opens on the Cards page, and the Graph page, following the Cards page's game, draws it."""
    page = ui.page
    # opened as every page is (ui.tab waits for the page built, up to 5 minutes: at
    # load 22 the Cards page took over the 60 s a bare click on its selector allowed)
    ui.tab("Cards")
    page.locator(".cards-game select").select_option(PLUGIN)
    expect(page.locator(".page-cards .tabulator-row", has_text="Sawmill").first).to_be_visible()
    ui.tab("Graph")
    # the Graph page follows the game chosen on the Cards page (the same session's pool)
    expect(page.locator(".graph-game select")).to_have_value(PLUGIN)
    box = page.get_by_placeholder("type a card name")
    box.fill("Sawmill")
    box.press("Enter")
    expect(page.locator(".graph-links")).to_contain_text("Sawmill needs")
    # another game chosen on the Graph page: the card typed for the plugin's pool is not kept
    holder = page.locator(".page-graph").first
    page.locator(".graph-game select").select_option("meaning-made")
    _wait_for(page, holder, page.locator(".page-title-graph").first, _game_names()["meaning-made"], [], True)
    assert box.input_value() == ""
    assert "Sawmill" not in holder.evaluate(VISIBLE)[0]


def _switch_every_page(ui, names):
    page = ui.page
    page.evaluate(SAMPLER, list(SAYING))
    for tab in PAGES:
        started = time.monotonic()
        ui.tab(tab)
        holder = page.locator(f".page-{tab.lower()}").first
        if tab == "Rules":
            # its clauses come before its translation review is done (that follows on a thread)
            holder.locator("td").first.wait_for(timeout=300_000)
            print(f"\nTIMING Rules page, first clauses on screen after its tab was opened: "
                  f"{time.monotonic() - started:.2f} s")
        title = page.locator(f".page-title-{tab.lower()}").first
        expect(title.locator("h2")).to_contain_text(tab)
        # no blank page: its text, and the pages that draw show their drawing
        shows_content(page, tab)
        select, options = _selector(holder, names)
        # the plugin is offered on every page with a game selector; the Board page
        # lists the games that declare a board, and the scaffold declares none
        assert (PLUGIN in options) == (tab != "Board"), (tab, options)
        shown = [o for o in options if o in names.values() or o in names]
        assert len(shown) >= 2 or tab == "Board", (tab, options)
        # to the last game and back to the first (the plugin's pool opened on the Cards
        # and Graph pages before does not count), so each
        # direction of a switch leaves nothing of the game before (the games between
        # are drawn by each page's own tests and the scaffolded game's)
        # the Cards page goes through every game: each game's pool opens for tweaking
        order = shown[::-1] if tab == "Cards" else [shown[-1], shown[0]]
        for option in dict.fromkeys(order):
            wanted = names.get(option, option)
            switching = option != select.input_value() and names.get(select.input_value()) != option
            holder.evaluate(START_SAMPLING)
            select.select_option(label=option)
            others = [n for n in names.values() if n != wanted and n in [names.get(o, o) for o in shown]]
            _wait_for(page, holder, title, wanted, others, tab in DRAWS)
            said = page.evaluate(STOP_SAMPLING)
            if switching:   # the page said what it was loading, naming the game, while it did
                assert any(wanted in s and "…" in s for s in said), (tab, wanted, said)
            if tab == "Cards":   # the pool's table holds the game's cards, and no message stands
                card = A_CARD[next(g for g, n in names.items() if n == wanted)]
                expect(holder.locator(".tabulator-row", has_text=card).first).to_be_visible()
                expect(holder.locator(".cards-message")).to_be_hidden()
        if tab == "Rules":   # the review finished on its thread and its findings followed, no reload
            expect(holder.locator(".rules-progress")).to_be_hidden(timeout=300_000)
            expect(holder).to_contain_text("findings")
