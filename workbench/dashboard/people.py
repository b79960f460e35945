"""People beside bots, on the Sweeps page: the playtest journal's finished games
of the chosen game (one pool version, the one on disk) next to a bot batch of
the same table, on the Sweeps page's metrics with intervals
(:func:`workbench.rooms.compare.side_by_side`; ``workbench journal compare``
prints the same rows). The batch runs on a thread; a poll on the event loop
shows the table when it is done."""

from __future__ import annotations

import threading

import panel as pn

from workbench.core.errors import WorkbenchError

from .escape import md

POLL_MS = 400
MAX_BOT_GAMES = 2000


def journal_file():
    """The journal the server writes, else where ``workbench journal`` looks."""
    from workbench.rooms.journal import journal_path
    from workbench.rooms.web import serving
    hall = serving()
    return hall.journal.path if hall is not None else journal_path()


def comparison_frame(doc: dict):
    """The rows as a table for people: value and interval per side."""
    import pandas as pd

    def cell(value, ci):
        if value is None:
            return ""
        return f"{value:.3g}" + ("  (too few games)" if ci[0] is None else f"  [{ci[0]:.3g}, {ci[1]:.3g}]")
    rows = [{"metric": r["metric"], "people": cell(r["people"], r["people_ci"]),
             "bots": cell(r["bots"], r["bots_ci"]), "people - bots": cell(r["diff"], r["diff_ci"])}
            for r in doc["rows"] if r["people"] is not None or r["bots"] is not None]
    return pd.DataFrame(rows, columns=["metric", "people", "bots", "people - bots"])


class PeopleBesideBots(pn.viewable.Viewer):
    """A button, a status line and the side-by-side table."""

    def __init__(self, game_id, bots, games, **params):
        super().__init__(**params)
        self._game_id, self._bots, self._games = game_id, bots, games   # callables: the Sweeps settings
        self.button = pn.widgets.Button(label="Compare people with bots", css_classes=["people-run"])
        self.button.on_click(lambda e: self.start())
        self.status = pn.pane.Markdown("", css_classes=["people-status"])
        self.table = pn.widgets.Tabulator(comparison_frame({"rows": []}), disabled=True, show_index=False,
                                          sizing_mode="stretch_width", layout="fit_data_stretch",
                                          css_classes=["people-table"], visible=False)
        self.result: dict | None = None
        self.error: str | None = None
        self._thread: threading.Thread | None = None
        self._poll = None

    def run(self) -> None:
        """Work out the comparison here (the thread's body; tests call it directly)."""
        from workbench.rooms.compare import side_by_side
        from workbench.rooms.journal import Journal
        self.result, self.error = None, None
        try:
            journal = Journal(journal_file(), create=False)
            try:
                self.result = side_by_side(journal, self._game_id(), bot_games=min(int(self._games()), MAX_BOT_GAMES),
                                           bots=self._bots() or "greedy")
            finally:
                journal.close()
        except WorkbenchError as exc:
            self.error = str(exc)

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self.status.object = f"playing {min(int(self._games()), MAX_BOT_GAMES)} bot games beside the journal's…"
        self.button.disabled = True
        self._thread = threading.Thread(target=self.run, daemon=True, name="people-beside-bots")
        self._thread.start()
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            self._poll = pn.state.add_periodic_callback(self._check, period=POLL_MS)
        else:
            self._thread.join()
            self.show()

    def _check(self) -> None:
        if self._thread is not None and not self._thread.is_alive():
            if self._poll is not None:
                self._poll.stop()
                self._poll = None
            self.show()

    def show(self) -> None:
        self.button.disabled = False
        if self.error:
            self.status.object = f"**Cannot compare:** {md(self.error)}"
            self.table.visible = False
            return
        doc = self.result
        few = " (few human games: wide intervals)" if doc["human_games"] < 10 else ""
        self.status.object = (f"{doc['human_games']} game(s) with people, pool `{doc['pool_version']}`, "
                              f"{doc['players']} players, beside {doc['bot_games']} {md(doc['bots'])} bot games; "
                              f"{doc['level']:.0%} intervals{few}")
        self.table.value = comparison_frame(doc)
        self.table.visible = True

    def __panel__(self):
        return pn.Column("#### People beside bots (playtest journal)",
                         pn.pane.Markdown("Finished playtest games of this game, on the pool on disk, beside bot "
                                          "games of the same table (bots and count from setting A)."),
                         self.button, self.status, self.table, sizing_mode="stretch_width",
                         css_classes=["people-beside-bots"])
