"""What the browser tests ask of any dashboard page: it is not blank (its text and,
for the pages that draw, its drawings are on screen); and how a console error is
written down (with the address it names)."""

from __future__ import annotations

import time

#: pages with a bokeh drawing on screen from the start, and how many
DRAWN = {"Play": 0, "Cards": 1, "Graph": 1, "Board": 1}

#: the visible text (characters) and drawn canvases inside a page holder,
#: looking inside Panel's shadow roots
CONTENT = """(host) => {
    let text = 0, drawn = 0;
    const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) {
            const el = node.parentElement;
            if (el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
                text += node.textContent.trim().length;
            return;
        }
        if (node.tagName === 'CANVAS' && node.width > 0 && node.getClientRects().length) drawn += 1;
        if (node.shadowRoot) walk(node.shadowRoot);
        for (const child of node.childNodes) walk(child);
    };
    walk(host);
    return [text, drawn];
}"""


def shows_content(page, name: str, timeout: float = 60) -> None:
    """Page ``name`` is not blank: 200 characters of visible text or more, and its drawings drawn."""
    holder = page.locator(f".page-{name.lower()}").first
    deadline = time.monotonic() + timeout
    pause = 250
    while True:
        text, drawn = holder.evaluate(CONTENT)
        if text >= 200 and drawn >= DRAWN.get(name, 0):
            return
        assert time.monotonic() < deadline, f"the {name} page looks blank: {text} characters, {drawn} drawings"
        # each read walks the whole page with its computed styles: a page still being
        # built is read less and less often, not four times a second for a minute
        page.wait_for_timeout(pause)
        pause = min(2 * pause, 2000)


def console_line(msg) -> str:
    """A console error with where it came from: a failed load's message
    ("Failed to load resource: net::ERR_NAME_NOT_RESOLVED") names no address, its
    location does."""
    where = (msg.location or {}).get("url") or ""
    return f"{msg.text} ({where})" if where else msg.text
