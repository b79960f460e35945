"""Each notebook in JupyterLab (Debian's Chromium, no network beyond the lab
itself): Run All, no cell fails, every Panel and Bokeh output is drawn (not an
empty box, as when BokehJS is fetched from a CDN that cannot be reached), and
where the notebook has an ipywidgets control, changing it changes its output.
One test per notebook, each bounded by the timeouts below, all in one lab page
(each closes the notebook before it and its kernel). These notebooks run here
only, not under nbval as well (notebooks/conftest.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

#: notebook -> whether it has an ipywidgets control whose output a test changes
NOTEBOOKS = {
    "01_rule_exploration.ipynb": True,
    "02_card_graph_analysis.ipynb": False,
    "03_translation_review.ipynb": False,
    "04_live_tweaking_playtest.ipynb": True,
    "05_mandate_board_and_odds.ipynb": False,
}
RUN_TIMEOUT_MS = 300_000

#: the open notebook: the one document in the main area with a kernel session
#: (each test closes the one before; the shell's current widget follows focus,
#: which a headless page does not always move)
NOTEBOOK = ("(window.jupyterapp && Array.from(window.jupyterapp.shell.widgets('main'))"
            ".find(w => w.sessionContext && !w.isDisposed))")

KERNEL_READY = """() => {
    const w = """ + NOTEBOOK + """;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return !!k && k.status === 'idle' && k.connectionStatus === 'connected';
}"""
#: Run All on the open notebook (made the shell's current widget first: the command acts on that)
RUN_ALL = """() => {
    const w = """ + NOTEBOOK + """;
    window.jupyterapp.shell.activateById(w.id);
    window.jupyterapp.commands.execute('notebook:run-all-cells');
    return true;
}"""
CELLS_STARTED = """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .some(p => /\\[(\\*|\\d+)\\]/.test(p.textContent))"""

SETTLED = """() => {
    const w = """ + NOTEBOOK + """;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return !!k && k.status === 'idle' && !prompts.some(p => p.textContent.includes('*'));
}"""

CELLS_DONE = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""

#: every Bokeh/Panel root in the outputs: the largest drawn element inside it
#: (through shadow roots) and its drawn canvases
BOKEH_ROOTS = r"""() => {
    function walk(node, acc) {
        for (const e of node.querySelectorAll('*')) {
            const r = e.getBoundingClientRect();
            acc.area = Math.max(acc.area, r.width * r.height);
            if (e.tagName === 'CANVAS' && r.width > 0 && r.height > 0) acc.canvas += 1;
            acc.elements += 1;
            if (e.shadowRoot) walk(e.shadowRoot, acc);
        }
        return acc;
    }
    // the cell's source (textContent: JupyterLab skips drawing cells out of view)
    const source = el => (el.closest('.jp-Cell')?.querySelector('.jp-InputArea-editor')?.textContent || '');
    return [...document.querySelectorAll('.jp-OutputArea-output [data-root-id]')].map(el =>
        ({id: el.getAttribute('data-root-id'), loader: /extension\(/.test(source(el)),
          ...walk(el, {area: 0, canvas: 0, elements: 0})}));
}"""


#: closes every open document (shutting its kernel down first), so the next
#: notebook opened is the only one in the page; dispose() skips the "unsaved
#: changes" question a run notebook would ask
CLOSE_ALL = """async () => {
    for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
        if (w.sessionContext && w.sessionContext.session) await w.sessionContext.shutdown();
        w.dispose();
    }
    return true;
}"""
OPEN = "(path) => { window.jupyterapp.commands.execute('docmanager:open', {path}); return true; }"
OPENED = """(path) => {
    const w = """ + NOTEBOOK + """;
    return !!w && w.context.path === path && !!w.node.querySelector('.jp-Notebook');
}"""


def test_every_notebook_is_run_here_or_under_nbval():
    """Each notebook runs once in the suite: JupyterLab runs those this file names,
    nbval the others (notebooks/conftest.py leaves this file's out)."""
    import importlib.util
    from pathlib import Path
    folder = Path(__file__).resolve().parents[2] / "notebooks"
    spec = importlib.util.spec_from_file_location("notebooks_conftest", folder / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sorted(module.collect_ignore) == sorted(NOTEBOOKS)
    assert set(NOTEBOOKS) <= {p.name for p in folder.glob("*.ipynb")}


@pytest.fixture(scope="module")
def lab(browser, jupyter_lab):
    """One JupyterLab page for every notebook of this file (the lab's own page is
    loaded once, not once a notebook), with what it asked of other origins and its
    console errors, both emptied by each test."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    seen = {"offsite": [], "errors": []}

    def route(r):
        if r.request.url.startswith(jupyter_lab["url"]) or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            seen["offsite"].append(r.request.url)
            r.abort()
    page.route("**/*", route)
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    # ?reset: a fresh workspace, not the notebooks a former run left open
    page.goto(f"{jupyter_lab['url']}lab?reset&token={jupyter_lab['token']}", wait_until="domcontentloaded")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=120_000)
    # restored: the workspace (reset) is laid out, so nothing it does closes what a test opens
    page.evaluate("() => window.jupyterapp.restored.then(() => true)")
    yield page, seen
    context.close()


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_runs_and_renders_offline(lab, name, screenshots):
    page, seen = lab
    page.evaluate(CLOSE_ALL)
    seen["offsite"].clear()
    seen["errors"].clear()
    offsite, errors = seen["offsite"], seen["errors"]
    # the lab's own restore step, unrelated to the notebook
    ignored = ("Could not restore the debugger state",)

    page.evaluate(OPEN, name)
    page.wait_for_function(OPENED, arg=name, timeout=120_000, polling=250)
    page.wait_for_function(KERNEL_READY, timeout=120_000, polling=500)
    # Run All through JupyterLab's own command (not awaited: its promise waits for
    # every cell); a kernel that was still settling may drop it, so ask again
    for _ in range(3):
        page.evaluate(RUN_ALL)
        try:
            page.wait_for_function(CELLS_STARTED, timeout=20_000, polling=500)
            break
        except PlaywrightTimeout:
            page.wait_for_function(KERNEL_READY, timeout=60_000, polling=500)
    # settled: nothing queued or running (a failing cell stops Run All early)
    page.wait_for_function(SETTLED, timeout=RUN_TIMEOUT_MS, polling=1000)
    page.wait_for_timeout(1500)  # the last outputs' JavaScript draws them
    errors_shown = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
                                ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    first_error = errors_shown.first.inner_text()[-800:] if errors_shown.count() else ""
    assert page.evaluate(CELLS_DONE), f"Run All stopped early: {first_error}"

    failures = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
                            has_text="Traceback")
    assert failures.count() == 0, failures.first.inner_text()
    assert page.get_by_text("Unable to run Panel code").count() == 0
    errors = [e for e in errors if not e.startswith(ignored)]
    assert not [e for e in errors if "failed to load" in e.lower() or "bokeh" in e.lower()
                or "panel" in e.lower()], errors

    # the output of the cell loading Panel's extension is a root that draws
    # nothing by design (it carries the comm manager): not an output to look at
    roots = [r for r in page.evaluate(BOKEH_ROOTS) if not (r["loader"] and r["elements"] == 0)]
    shows_panel = name not in ("03_translation_review.ipynb",)
    if shows_panel:
        assert roots, "no Panel or Bokeh output was rendered"
    for root in roots:
        # scroll each output into view so lazily drawn canvases are drawn, then measure it
        page.locator(f"[data-root-id='{root['id']}']").scroll_into_view_if_needed()
    shown = {r["id"] for r in roots}
    roots = [r for r in page.evaluate(BOKEH_ROOTS) if r["id"] in shown]
    blank = [r for r in roots if r["area"] < 400 or r["elements"] < 3]
    assert not blank, f"blank Panel/Bokeh outputs: {blank}"

    if NOTEBOOKS[name]:
        _widget_changes_output(page)
    if name in EDITORS:
        EDITORS[name](page, screenshots)
    assert offsite == [], f"the notebook asked the network for {offsite[:3]}"


def _overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _card_editor_edits_a_cost(page, screenshots):
    """Notebook 04's Cards page in the lab's output: its text covers none of its
    buttons, every cost column is within the table's view, and a cost edited in
    the table is taken (the report and the cell show it)."""
    import re
    editor = page.locator(".jp-OutputArea-output").filter(has=page.locator(".cards-info")).last
    editor.scroll_into_view_if_needed()
    info = editor.locator(".cards-info").first
    for label in ("Export CSV", "Save to card files", "Reload from disk"):
        button = editor.get_by_role("button", name=label).first
        expect(button).to_be_visible()
        assert not _overlap(info.bounding_box(), button.bounding_box()), f"the card text covers {label}"
    holder = editor.locator(".tabulator-tableholder").first.bounding_box()
    for field in ("name", "kind", "layer", "E", "I", "S", "V"):
        col = editor.locator(f".tabulator-col[tabulator-field='{field}']").first
        expect(col).to_be_visible()
        box = col.bounding_box()
        assert holder["x"] <= box["x"] and box["x"] + box["width"] <= holder["x"] + holder["width"] + 1, \
            f"column {field} is outside the table's view"
    # the first card the table shows (its rows are drawn as they scroll into view)
    first = editor.locator(".tabulator-row").first
    card = first.locator(".tabulator-cell[tabulator-field='name']").inner_text().strip()
    row = editor.locator(".tabulator-row").filter(
        has=page.locator(".tabulator-cell[tabulator-field='name']", has_text=re.compile(rf"^{re.escape(card)}$")))
    cell = row.locator(".tabulator-cell[tabulator-field='E']")
    old = int(cell.inner_text())
    # Tabulator redraws a row while the lab is still laying out outputs (most
    # under load), which detaches the cell's editor: open it again until the
    # value is typed in (each try waits on the editor, not on a clock)
    for attempt in range(5):
        try:
            cell.click(timeout=30_000)
            field = cell.locator("input")
            field.wait_for(timeout=30_000)
            field.fill(str(old + 1), timeout=15_000)
            field.press("Enter", timeout=15_000)
            break
        except PlaywrightError:
            if attempt == 4:
                raise
    expect(editor.locator(".cards-report").first).to_contain_text("What the last edit changed", timeout=60_000)
    expect(cell).to_have_text(str(old + 1))
    # the picture for the docs: the editor at the top of the lab's window
    news = page.get_by_role("button", name="No")
    if news.count():
        news.first.click()
    editor.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshots / "notebook-04.png"))


#: notebook -> a check of the editor it shows, after Run All
EDITORS = {"04_live_tweaking_playtest.ipynb": _card_editor_edits_a_cost}


def _widget_changes_output(page):
    """Move the first ipywidgets slider one step and see its output change."""
    slider = page.locator(".jupyter-widgets.widget-slider, .widget-slider").first
    slider.scroll_into_view_if_needed()
    box = slider.locator("xpath=ancestor::div[contains(@class,'jp-OutputArea-output')][1]")
    output = box.locator(".widget-output, .jupyter-widget-Output").first
    before = output.inner_text()
    handle = slider.locator(".noUi-handle, .ui-slider-handle").first
    handle.focus()
    handle.press("ArrowRight")
    expect(output).not_to_have_text(before, timeout=120_000)
