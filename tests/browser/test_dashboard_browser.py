"""The dashboard in a real browser (Debian's Chromium): each page loads and
does its job, and each page's screenshot is saved for the README."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PAGES = ("Play", "Cards", "Graph", "Board", "Rules", "Sweeps", "Print", "Balance", "Playtest")
POSITION = re.compile(r"position (\d+) of (\d+)")


def text_of(locator) -> str:
    """Text of a Markdown pane: its content sits in the pane's shadow root, which
    ``inner_text`` of the host does not include, but a child locator reaches."""
    return " ".join(locator.locator("p").all_inner_texts())


def position(page) -> tuple[int, int]:
    text = text_of(page.locator(".play-status"))
    found = POSITION.search(text)
    assert found, f"no position in the status line {text!r}"
    return int(found.group(1)), int(found.group(2))


def timing(label: str, seconds: float) -> None:
    """A figure for docs/dashboard.md, printed (run with ``-s``), never asserted."""
    print(f"\nTIMING {label}: {seconds:.2f} s")


def test_app_loads_and_meaning_made_goes_forward_and_back_on_play_page(ui, console_errors):
    """The app loads with every tab and its first page (Play, Meaning Made); a game
    there goes forward, back, forks and plays to its end, with no console error
    from the load on (every page opened and not blank: the game-switch test,
    test_game_switch_browser.py, opens each page and checks both)."""
    page = ui.page
    ui.open()
    # start-up as a designer sees it: from navigation to the first page's table drawn
    started = page.evaluate("() => performance.timing.navigationStart")
    expect(page.locator(".play-status")).to_contain_text("position")
    page.locator(".wb-table").first.wait_for()
    timing("start-up (first page drawn)", (page.evaluate("() => Date.now()") - started) / 1000)
    for name in PAGES:
        expect(ui.tab_button(name)).to_be_visible()
    ui.tab("Play")
    expect(page.locator(".play-status")).to_contain_text("Meaning Made")
    assert position(page) == (0, 0)
    moves = page.locator(".play-moves select")
    expect(moves).to_have_count(1)
    expect(moves.locator("option", has_text="gather").first).to_be_attached()
    first = moves.locator("option").first.inner_text()
    page.get_by_role("button", name="Play move").click()
    expect(page.locator(".play-log")).to_contain_text(first)
    page.wait_for_timeout(300)
    page.get_by_role("button", name="Play move").click()
    page.wait_for_function("() => true")
    expect(page.locator(".play-status")).to_contain_text(re.compile(r"position [2-9]\d* of"))
    ply, length = position(page)
    assert ply == length >= 2
    ui.screenshot("play")
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 1} of {length}")
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 2} of {length}")
    page.get_by_role("button", name="Forward ▶").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply - 1} of {length}")
    # the future stays in the log, greyed, until a different move replaces it
    expect(page.locator(".play-log li")).to_have_count(length)
    expect(page.locator(".play-log li.future")).to_have_count(1)
    # the bot replays the recorded move (its choice depends on the position only): the future stays
    page.get_by_role("button", name="Bot move").click()
    expect(page.locator(".play-status")).to_contain_text(f"position {ply} of {length}")
    # a click in the log travels there
    page.locator(".play-log li[data-ply='1']").click()
    expect(page.locator(".play-status")).to_contain_text(f"position 1 of {length}")
    page.locator(".play-log-start").click()
    expect(page.locator(".play-status")).to_contain_text(f"position 0 of {length}")
    # a different move forks; the old line stays reachable
    options = moves.locator("option")
    other = options.nth(1).inner_text()
    assert other != first
    moves.select_option(other)
    page.get_by_role("button", name="Play move").click()
    expect(page.locator(".play-log")).to_contain_text(other)
    expect(page.get_by_role("button", name="Other line")).to_be_visible()
    expect(page.locator(".play-status")).to_contain_text("other line")
    page.get_by_role("button", name="Other line").click()
    expect(page.locator(".play-log li[data-ply='1']")).to_contain_text(first)
    expect(page.locator(".play-status")).to_contain_text(f"position 1 of {length}")
    # the state inspector shows the engine's observe() tree
    page.get_by_text("State inspector (observe)").click()
    expect(page.locator(".play-inspector")).to_contain_text("meaning")
    page.get_by_role("button", name="Play to end").click()
    expect(page.locator(".play-status")).to_contain_text("Game over", timeout=180_000)
    expect(page.get_by_text("cannot draw this position")).to_have_count(0)
    assert console_errors == []


def _cell(page, card: str, field: str):
    row = page.locator(".tabulator-row").filter(
        has=page.locator(".tabulator-cell[tabulator-field='name']", has_text=re.compile(rf"^{card}$")))
    return row.locator(f".tabulator-cell[tabulator-field='{field}']")


def _edit(page, card: str, field: str, value: str, attempts: int = 5):
    """Type ``value`` into the cell's editor and press Enter. On a loaded machine
    the table can redraw between the click and the typing, so the editor is gone
    before it takes the text ("element was detached"); nothing was submitted then,
    and the cell is clicked again."""
    from playwright.sync_api import Error as PlaywrightError
    for attempt in range(attempts):
        cell = _cell(page, card, field)
        try:
            cell.click(timeout=30_000)
            editor = cell.locator("input")
            editor.wait_for(timeout=30_000)
            editor.fill(value, timeout=30_000)
            editor.press("Enter", timeout=30_000)
            return
        except PlaywrightError:
            if attempt == attempts - 1:
                raise


#: every verdict a look decides (workbench/sim/verdicts.py): a direction beyond, inside or
#: not yet sized against the margin, no meaningful change, or pairs that never differed
DECIDED = re.compile(r"^(better|worse|higher|lower|no meaningful change|slightly (higher|lower) \(inside the margin\)"
                     r"|(higher|lower), size not yet clear|the bots never chose differently)$")


def test_card_edit_changes_graph_and_paired_playtest_decides_in_view(ui, console_errors):
    """An edit in the table changes the graph's line and the edit's report; the quick
    paired playtest then shows its figures (three significant digits and an interval)
    and its first decided verdict inside the window without scrolling (the playtest
    sits at the top of the right-hand column, beside the table)."""
    import time
    page = ui.page
    ui.open("Cards")
    card = "Shell"
    info = page.locator(".cards-info")
    old = int(_cell(page, card, "I").inner_text())
    cell = _cell(page, card, "I")
    cell.click()
    editor = cell.locator("input")
    editor.wait_for()
    # a cost no player can meet: the card's use drops to nothing, decided at the first look
    editor.fill(str(old + 40))
    started = time.perf_counter()  # from Enter: the clicks before it are the test's, not the page's
    editor.press("Enter")
    expect(page.locator(".cards-report")).to_contain_text("What the last edit changed")
    expect(info).to_contain_text(f"{old + 40}I")
    timing("card edit to report and graph shown", time.perf_counter() - started)
    expect(_cell(page, card, "I")).to_have_text(str(old + 40))
    # the line under the graph reads the card's requirement from the rebuilt graph
    expect(info).to_contain_text(f"{card} (Layer")
    assert f"{old + 40}I" in text_of(info)
    page.get_by_label("Games per pool").fill("40")
    page.get_by_label("Bots").fill("random")
    page.get_by_role("button", name="Quick paired playtest").click()
    table = page.locator(".cards-playtest")
    decided = table.locator(".tabulator-cell[tabulator-field='verdict']").filter(has_text=DECIDED).first
    expect(decided).to_be_visible(timeout=240_000)
    # each look redraws the table (a cell found may be replaced before it is measured):
    # measured once the run is over and the table stays
    expect(page.get_by_role("button", name="Quick paired playtest")).to_be_enabled(timeout=240_000)
    expect(table).to_contain_text("survival rate")
    expect(table).to_contain_text(f"games taking {card}")
    expect(table).to_contain_text("difference [95% CI]")
    # three significant digits and an interval, never a float's full expansion
    text = table.inner_text()
    assert not re.search(r"\d\.\d{5,}", text), text
    expect(decided).to_be_visible()
    assert page.evaluate("() => window.scrollY") == 0
    # the last look's table may still be laying out: its box exists once it is drawn
    box = decided.bounding_box()
    for _ in range(120):
        if box is not None:
            break
        page.wait_for_timeout(250)
        box = decided.bounding_box()
    viewport = page.viewport_size
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], (box, viewport)
    assert 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], (box, viewport)
    ui.screenshot("cards")
    assert console_errors == []


def test_invalid_card_edit_refused_and_old_value_kept(ui, console_errors):
    page = ui.page
    ui.open("Cards")
    card = "Cell Wall"
    old = _cell(page, card, "layer").inner_text()
    _edit(page, card, "bonus", "sparkles+9")
    expect(page.locator(".cards-message")).to_contain_text("refused")
    expect(page.locator(".cards-message")).to_contain_text("bonus")
    expect(_cell(page, card, "layer")).to_have_text(old)
    old_bonus = _cell(page, card, "bonus").inner_text()
    assert "sparkles" not in old_bonus
    _edit(page, card, "layer", "12")  # Patterns live on Layers 1-6
    expect(page.locator(".cards-message")).to_contain_text("layer")
    expect(_cell(page, card, "layer")).to_have_text(old)
    assert console_errors == []


def test_graph_board_and_rules_pages_each_do_their_job(ui, console_errors):
    """Three pages opened in turn in one session (one page load, not three): the
    Graph page selects a card by typing and by a click on its node, the Board page
    reshuffles, the Rules page shows both languages side by side."""
    ui.open()
    _graph_page_selects_a_card(ui)
    _board_page_reshuffles(ui)
    _rules_page_shows_both_languages(ui)
    assert console_errors == []


def _graph_page_selects_a_card(ui):
    page = ui.page
    ui.tab("Graph")
    box = page.get_by_placeholder("type a card name")
    box.fill("Shell")
    box.press("Enter")
    expect(page.locator(".graph-links")).to_contain_text("Shell needs")
    # the drawing marks the selection, what it needs and what it unlocks, and draws only their edges
    roles = page.evaluate("""() => {
        for (const m of Bokeh.documents[0].all_models) {
            if (m.data && m.data.role) return Array.from(m.data.role);
        }
        return [];
    }""")
    assert roles.count("selected") == 1 and "unlocks" in roles
    ui.screenshot("graph")
    # a click on another node selects that card instead (what the click sets is
    # sent to the server; the page's data source has reached the browser by now)
    page.wait_for_function(SELECT_IN_GRAPH, arg="Pulse", polling=500)
    expect(page.locator(".graph-links")).to_contain_text("Pulse needs")


def _board_page_reshuffles(ui):
    page = ui.page
    ui.tab("Board")
    caption = page.locator(".board-caption")
    expect(caption).to_contain_text("Mandate 2038 board, seed 1,")
    expect(caption).to_contain_text("19 districts")
    ui.screenshot("board")
    page.get_by_role("button", name="Reshuffle (next seed)").click()
    expect(caption).to_contain_text("Mandate 2038 board, seed 2,")


def _rules_page_shows_both_languages(ui):
    page = ui.page
    ui.tab("Rules")
    # the clauses' table follows the page's controls; at load 19 it took over 60 s
    expect(page.locator("th", has_text=re.compile("^en$"))).to_be_visible(timeout=300_000)
    expect(page.locator("th", has_text=re.compile("^hu$"))).to_be_visible()
    overview = page.locator("tr[data-clause='meaning-made/overview/layers']")
    expect(overview.locator("td.rules-en")).to_contain_text("Layers")
    expect(overview.locator("td.rules-hu")).to_contain_text("Réteg")
    ui.screenshot("rules")


def test_sweeps_page_runs_a_batch_with_plots(ui, console_errors):
    page = ui.page
    ui.open("Sweeps")
    page.get_by_label("Games", exact=True).fill("16")
    page.get_by_label("Bots, setting A").fill("random")
    page.get_by_role("button", name="Run batch").click()
    expect(page.get_by_text(re.compile(r"played 16 games"))).to_be_visible(timeout=240_000)
    expect(page.get_by_text("Design metrics")).to_be_visible()
    # Meaning Made declares a shared fate: its headline leads with the survival rate
    expect(page.locator(".sweeps-headline")).to_contain_text("Survival rate")
    expect(page.get_by_role("button", name="Export games (CSV)")).to_be_visible()
    expect(page.get_by_role("button", name="Export games (Parquet)")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Export games (CSV)").click()
    assert download.value.suggested_filename == "games.csv"
    # no input sticks out of the settings column once results widen the page
    column = page.locator(".sweeps-settings").bounding_box()
    for box in page.locator(".sweeps-settings input, .sweeps-settings select").all():
        b = box.bounding_box()
        if b:
            assert b["x"] + b["width"] <= column["x"] + column["width"] + 1
    ui.screenshot("sweeps")
    assert console_errors == []


def test_competitive_sweep_compares_and_opens_in_play_with_its_bots(ui, console_errors):
    page = ui.page
    ui.open("Sweeps")
    page.locator(".sweeps-game select").select_option("mandate-2038")
    page.get_by_label("Games", exact=True).fill("8")
    page.get_by_label("Bots, setting A").fill("random")
    page.locator(".sweeps-settings input[type=checkbox]").check()
    page.get_by_label("Bots, setting B").fill("greedy")
    page.get_by_role("button", name="Run batch").click()
    expect(page.get_by_text(re.compile(r"played 16 games"))).to_be_visible(timeout=300_000)
    expect(page.locator(".sweeps-headline")).to_contain_text("Win-rate spread across seats")
    metrics = page.locator(".sweeps-metrics")
    expect(metrics).to_contain_text("difference [95% CI]")
    header = metrics.locator(".tabulator-col", has_text="difference [95% CI]")
    box, view = header.bounding_box(), page.viewport_size
    assert box["x"] + box["width"] <= view["width"], "the interval column is off-screen"
    flipped = page.locator(".tabulator-row").filter(has=page.locator("[tabulator-field='B ending']"))
    if flipped.count() == 0:
        return  # no outcome flipped in this small batch
    seed = flipped.first.locator("[tabulator-field='seed']").inner_text()
    assert re.fullmatch(r"\d+", seed), seed  # every digit, not a rounded float
    open_b = page.get_by_role("button", name="Open selected game (B) in Play")
    select_row(page, flipped.first, open_b)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    open_b.click()
    expect(page.locator(".play-status")).to_contain_text("Mandate 2038")
    expect(page.locator(".play-status")).to_contain_text("position 0")
    seats = page.locator(".play-seat select")
    expect(seats.first).to_have_value("greedy")
    assert {s.input_value() for s in seats.all()} == {"greedy"}
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.scrollY") == 0
    assert console_errors == []


def select_row(page, row, button, attempts: int = 5) -> None:
    """Select a Tabulator ``row`` and wait for ``button`` to be enabled by the
    selection. On a loaded machine a click can land while the table is still
    being drawn and select nothing; then the row is clicked again (only when it
    is not selected, since a second click would unselect it)."""
    for _ in range(attempts):
        if "tabulator-selected" not in (row.get_attribute("class") or ""):
            row.click()
        try:
            expect(button).to_be_enabled(timeout=30_000)
            return
        except AssertionError:
            continue
    expect(button).to_be_enabled()


def test_large_game_moves_filtered_and_board_legend(ui, console_errors):
    page = ui.page
    ui.open("Play")
    # under load a choice made before the page's widgets are live can be lost:
    # choose again until the page shows the game (a condition, not a pause)
    for _ in range(5):
        page.locator(".play-game select").select_option("mandate-2038")
        try:
            expect(page.locator(".play-status")).to_contain_text("Mandate 2038", timeout=30_000)
            break
        except AssertionError:
            continue
    expect(page.locator(".play-status")).to_contain_text("Mandate 2038")
    expect(page.locator(".wb-legend")).to_contain_text("Players")
    kinds = page.locator(".play-kind select option").all_inner_texts()
    assert kinds[0] == "all kinds" and len(kinds) >= 2
    moves = page.locator(".play-moves select")
    total = moves.locator("option").count()
    kind = kinds[1]
    page.locator(".play-kind select").select_option(kind)
    expect(moves.locator("option").first).to_contain_text(kind)
    assert all(t.startswith(kind) for t in moves.locator("option").all_inner_texts())
    page.locator(".play-kind select").select_option("all kinds")
    word = moves.locator("option").last.inner_text().split()[-1]
    page.locator(".play-filter input").fill(word)
    expect(moves.locator("option").first).to_contain_text(word)
    assert moves.locator("option").count() <= total
    # the typed move suggests legal moves as you type
    typed = page.locator(".play-typed input")
    typed.press_sequentially(kind[:3], delay=50)
    expect(page.locator(".bk-menu, .bk-autocomplete, [class*='menu']").first).to_be_visible()
    ui.screenshot("play-mandate")
    # the same page, another game: the Pax market's labels are legible (black on yellow)
    page.locator(".play-typed input").press("Escape")
    page.locator(".play-game select").select_option("pax-transhumanity")
    expect(page.locator(".play-status")).to_contain_text("Pax Transhumanity")
    yellow = page.locator(".wb-colour", has_text=re.compile("^yellow$"))
    expect(yellow).to_have_css("color", "rgb(0, 0, 0)")
    assert console_errors == []


SELECT_IN_GRAPH = """(card) => {
    // what a click on a node does: set the node source's selection, which Bokeh
    // sends to the server like any other change
    const doc = Bokeh.documents[0];
    let hit = 0;
    for (const model of doc.all_models) {
        const data = model.data;
        if (data && data.name && data.kind && data.requirement) {
            const i = Array.from(data.name).indexOf(card);
            if (i >= 0) { model.selected.indices = [i]; hit += 1; }
        }
    }
    return hit;
}"""


EDIT_LINE = re.compile(r"(\w[\w ]*?) (runway|compute): (\d+) → (\d+)")


def test_balance_page_with_a_tiny_budget_never_offers_apply(ui, console_errors):
    """A 2-trial, 1-game search cannot show that a proposal meets its targets on
    fresh seeds: Apply stays off and the page says what sample it would need
    (applying an offered proposal and undoing it are tested on the page's model,
    tests/test_dashboard_balance.py)."""
    page = ui.page
    ui.open("Balance")
    page.locator(".balance-game select").select_option("mandate-2038")
    # the game's own targets and variables, as docs/balancing.md runs them
    expect(page.get_by_label("Targets (one per line)")).to_have_value(re.compile("action_usage_min>=0.05"))
    expect(page.get_by_label("Vary (one pattern per line)")).to_have_value(re.compile(r"tiles\.\*\.runway"))
    for label, value in (("Trials", "2"), ("Games per trial and player count", "1"),
                         ("Games for the fresh check", "2")):
        box = page.get_by_label(label, exact=True)
        box.fill(value)
        box.press("Tab")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("progress.balance-progress")).to_be_visible()
    status = page.locator(".balance-status")
    expect(status).to_contain_text("2 trials", timeout=240_000)
    expect(page.locator("progress.balance-progress")).to_be_hidden()
    expect(page.get_by_role("button", name="Apply proposal")).to_be_disabled()
    if page.locator(".balance-edits li").count():
        expect(page.locator(".page-balance")).to_contain_text("Not offered")
    ui.screenshot("balance")
    assert console_errors == []


def test_closing_a_tab_mid_update_leaves_no_traceback_in_the_server_log(browser, tmp_path, start_server):
    """A tab closed while its page is still being updated (a playtest's progress bar)
    made Panel's writes to the closed socket fail in futures nobody awaits, and the
    server printed WebSocketClosedError tracebacks. The condition waited on is the
    server's own line that the closed tab's session ended (after which nothing more
    is written for it). The server lets a closed tab's session go after 6 s (its
    ``--session-lifetime``), not bokeh's 15 s: the same ending, sooner."""
    import time

    with start_server(tmp_path, args=("--session-lifetime", "6")) as srv:
        page = browser.new_page()
        page.set_default_timeout(120_000)
        page.goto(srv["url"], wait_until="networkidle")
        page.locator(".bk-tab", has_text=re.compile(r"^Cards$")).click()
        page.get_by_label("Games per pool").fill("4000")
        page.get_by_role("button", name="Quick paired playtest").click()
        expect(page.locator(".page-cards progress")).to_be_visible()
        page.close()
        log = srv["log"]
        deadline = time.monotonic() + 180   # let go within ~8 s; the limit only catches a hang
        while "session ended" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, "the closed tab's session never ended"
            time.sleep(1)
        text = log.read_text(errors="replace")
    assert "WebSocketClosedError" not in text and "Traceback" not in text, text[-3000:]
