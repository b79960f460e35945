"""Long work off the event loop: the part the Cards and Sweeps models share.

A model that mixes this in declares the params ``running``, ``done_games``,
``total_games`` and ``message``; the page polls them to draw a progress bar."""

from __future__ import annotations

import threading


class BackgroundWork:
    _thread: threading.Thread | None = None

    @property
    def progress(self) -> float:
        return self.done_games / self.total_games if self.total_games else 0.0

    def _progress(self, k: int) -> None:
        self.done_games = min(self.total_games, self.done_games + k)

    def _start(self, target, name: str, busy: str) -> threading.Thread | None:
        """Run ``target`` on a daemon thread so the page stays responsive; a second
        start while one runs is refused with ``busy``."""
        if self.running:
            self.message = busy
            return None
        self.running = True  # claimed now, so a double click cannot start two
        self._thread = threading.Thread(target=target, name=name, daemon=True)
        self._thread.start()
        return self._thread

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)


class ProgressPoll:
    """The page side of :class:`BackgroundWork`: while the model's work runs on
    its thread, a periodic callback on the event loop moves the progress bar;
    when it has finished, the poll stops, the run button comes back and
    ``on_done`` draws the result. ``on_running`` may show a status meanwhile.
    Shared by the Cards, Sweeps and Balance pages."""

    def __init__(self, model, bar, button, on_done, on_running=None, period: int = 300):
        self.model, self.bar, self.button = model, bar, button
        self.on_done, self.on_running, self.period = on_done, on_running, period
        self._callback = None

    def start(self) -> None:
        import panel as pn
        self.button.disabled = True
        self.bar.value, self.bar.visible = 0, True
        self._callback = pn.state.add_periodic_callback(self.tick, period=self.period)

    def tick(self) -> None:
        self.bar.value = int(100 * self.model.progress)
        if self.model.running:
            if self.on_running is not None:
                self.on_running()
            return
        if self._callback is not None:
            self._callback.stop()
            self._callback = None
        self.button.disabled = False
        self.bar.visible = False
        self.on_done()
