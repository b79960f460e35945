"""The progress line of a page: a spinner and one sentence saying what the page
is doing ("Loading the game's cards…"), shown under the page's controls
while anything that can take more than a second runs (choosing another game, a
layout with bots playing first, opening a room), and hidden when it is done.

The header's spinner only says the server is busy; this line says with what, on
the page where it happens. Work that only reads files and builds models
(:meth:`ProgressLine.run`'s ``off_loop``) runs on a thread, so the server keeps
answering meanwhile; the redraw that follows always runs on the event loop,
where Panel may change what the browser shows."""

from __future__ import annotations

import asyncio

import panel as pn

from .escape import md

#: how long the event loop is given to send the line before the work starts
#: (the line reaches the browser at the await; shorter did not always get there)
SEND = 0.05


class ProgressLine:
    """``Spinner`` + text, hidden until :meth:`show`. ``page`` names its CSS
    class (``<page>-progress``) beside the shared ``page-progress``."""

    def __init__(self, page: str):
        self.spinner = pn.indicators.LoadingSpinner(value=True, size=20, width=20, height=20)
        self.text = pn.pane.Markdown("", margin=(0, 8))
        self.pane = pn.Row(self.spinner, self.text, visible=False,
                           css_classes=["page-progress", f"{page}-progress"], sizing_mode="stretch_width")

    @property
    def shown(self) -> bool:
        return self.pane.visible

    def show(self, text: str) -> None:
        """Say ``text`` (plain text: escaped, never markup) until :meth:`hide`."""
        self.text.object = md(text)
        self.pane.visible = True

    def hide(self) -> None:
        self.pane.visible = False
        self.text.object = ""

    async def run(self, text: str, work=None, off_loop=None, disable=()):
        """Show ``text``, let the browser receive it, then run ``off_loop()`` on a
        thread (reading files, opening a pool: nothing a browser shows) and
        ``work(result)`` (or ``work()`` without ``off_loop``) on the event loop;
        hide the line whatever happens. The widgets in ``disable`` are off
        meanwhile (a second click must not start the same work twice). Returns
        what ``work`` returns. An error propagates: the caller says what went
        wrong in its own words."""
        self.show(text)
        was = [(w, w.disabled) for w in disable]
        for w, _ in was:
            w.disabled = True
        try:
            await asyncio.sleep(SEND)
            if off_loop is not None:
                found = await asyncio.get_running_loop().run_in_executor(None, off_loop)
                return work(found) if work is not None else found
            return work() if work is not None else None
        finally:
            self.hide()
            for w, before in was:
                w.disabled = before
