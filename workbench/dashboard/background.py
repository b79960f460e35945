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
