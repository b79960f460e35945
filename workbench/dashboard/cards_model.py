"""The Cards page's model: one game's card pool being tweaked, the last edit's
report and the last paired playtest, as a ``param.Parameterized`` with no
widget in it (the page, :mod:`.cards`, draws it; a notebook or a test drives
it alone).

Each edit goes through the live-tweak session (:class:`workbench.tweak.session.TweakSession`):
a bad value is refused with its message and the pool keeps the old value; a
good one says what changed. A quick paired playtest (old pool against edited
pool on the same seeds) runs off the event loop; the games whose outcome it
flipped open on the Play page with the pool they were played on. Undo, redo,
save (through :mod:`workbench.core.cardfile`), Reload from disk and export
(CSV, Parquet, spreadsheet). A read-only dashboard (``serve --read-only``)
takes no edits and saves nothing.

The pool is the dashboard's shared :class:`~workbench.dashboard.pool.LivePool`
(the Graph and Balance pages edit and draw the same one)."""

from __future__ import annotations

import threading
from pathlib import Path

import param

from workbench.core.errors import WorkbenchError
from workbench.sim.verdicts import UNDECIDED

from .background import BackgroundWork
from .pool import LivePool, live

#: columns shown first; then the session's editable columns in its order, then the rest
LEADING = ["name", "kind"]


#: seconds a Cards page playtest runs at most: it ends at the first look after
#: them (issue 47: an answer within a minute whatever the game's pace); the
#: stream stops earlier once every metric is decided
PLAYTEST_SECONDS = 60.0


class CardsModel(BackgroundWork, param.Parameterized):
    """One game's card pool being tweaked, the last edit's report and the last
    paired playtest."""

    message = param.String(default="", doc="the last refusal or notice, one line")
    report = param.List(default=[], doc="what the last edit changed, one line each")
    selected = param.String(default="", doc="the card last edited or chosen")
    pool = param.ClassSelector(class_=LivePool, allow_refs=True,
                               doc="the live pool tweaked (with a dashboard: the one of its card_game)")
    playtest_games = param.Integer(default=200, bounds=(2, 20_000))
    playtest_seconds = param.Number(default=PLAYTEST_SECONDS, bounds=(0.1, None),
                                    doc="the run ends at the first look after this many seconds, decided or not")
    playtest_players = param.Integer(default=4, bounds=(1, 6))
    playtest_bots = param.String(default="greedy")
    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    playtest_state = param.String(default="", doc="what the playtest shown is: a preview, a look, the end")

    def __init__(self, session=None, bench=None, game_id: str | None = None, **params):
        self.bench = bench
        self.playtest = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()  # set by an edit or a new game: the running playtest is stale
        game_id = game_id or (bench.card_game if bench is not None else card_games()[0])
        if session is not None:
            pool = live(session)
        elif bench is not None:
            bench.card_game = game_id
            bench.card_pool()
            pool = bench.param.pool  # follows the dashboard's card game
        else:
            pool = live(_session_for(None, game_id))
        super().__init__(pool=pool, **params)
        self._use_pool()

    @property
    def session(self) -> LivePool:
        """The pool being tweaked: the session's API, its changes published."""
        return self.pool

    @param.depends("pool", watch=True)
    def _use_pool(self) -> None:
        # a new game: its player counts, nothing selected or played yet
        game = self.pool.game
        self._stop.set()
        self.param.playtest_players.bounds = (game.min_players, game.max_players)
        self.playtest_players = game.default_players
        self.playtest, self.selected, self.report, self.message = None, "", [], ""

    def use_session(self, session) -> None:
        """Tweak ``session``'s pool from now on."""
        self.pool = live(session)

    def choose_game(self, game_id: str) -> None:
        """Switch to ``game_id``'s pool (its session is kept per game; with a
        dashboard, the Graph page follows)."""
        if game_id == self.pool.game_id:
            return
        if self.bench is not None:
            self.bench.tweak_session(game_id)  # an unknown game is refused before anything changes
            self.bench.card_game = game_id
        else:
            self.use_session(_session_for(None, game_id))

    # -- reading ----------------------------------------------------------------
    def table(self):
        """The pool as a polars table, leading columns first."""
        t = self.session.table()
        order = [c for c in LEADING if c in t.columns]
        order += [c for c in self.session.columns if c in t.columns and c not in order]
        return t.select(order + [c for c in t.columns if c not in order])

    @property
    def editable_columns(self) -> list[str]:
        return list(self.session.columns)

    def cell(self, card: str, column: str):
        t = self.session.table()
        row = t.filter(t["name"].str.to_lowercase() == card.lower())
        return row[column][0] if row.height else None

    def card_info(self, card: str | None = None) -> str:
        """One line about a card as the graph sees it: requirement, what it
        needs and what it unlocks."""
        return self.session.card_info(card or self.selected)

    # -- editing --------------------------------------------------------------
    def edit(self, card: str, column: str, value) -> bool:
        """Apply one edit; a refused edit sets :attr:`message` and leaves the pool
        as it was. Returns whether the edit was taken."""
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        try:
            report = self.session.edit(card, column, value)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        self.param.update(message="", report=report.lines(),
                          selected=str(value).strip() if column == "name" else report.card or card)
        return True

    # -- adding, duplicating, deleting cards (workbench.tweak.card_ops) -----------------
    @property
    def blank_kinds(self) -> list[str]:
        """The card kinds the game lets a designer add (``Game.card_blanks``)."""
        return self.session.blank_kinds

    def add_card(self, kind: str, name: str | None = None) -> bool:
        """A new card of ``kind`` from the game's blank; it becomes the selected card."""
        return self._grow("add_card", kind, name)

    def duplicate_card(self, card: str | None = None, name: str | None = None) -> bool:
        """A copy of ``card`` (default: the selected one) right after it."""
        return self._grow("duplicate_card", card or self.selected, name)

    def delete_card(self, card: str | None = None) -> bool:
        """Delete ``card`` (default: the selected one); refused, with who names
        it, while another card, a setting or a scenario names it."""
        return self._grow("delete_card", card or self.selected)

    def _grow(self, operation: str, *args) -> bool:
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        if not args[0]:
            self.message = "refused: choose a card in the table first"
            return False
        try:
            report = getattr(self.session, operation)(*args)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        kept = report.field != "deleted"
        self.param.update(message=report.notes[0] if report.notes else "", report=report.lines(),
                          selected=report.card if kept else "")
        return True

    def undo(self) -> None:
        self._history(self.session.undo, "undone")

    def redo(self) -> None:
        self._history(self.session.redo, "redone")

    def _history(self, step, word: str) -> None:
        try:
            report = step()
            self._stop.set()
        except WorkbenchError as exc:
            self.message = str(exc)
            return
        what = (f"{report.field} {report.card}" if report.field in ("added", "duplicated", "deleted")
                else f"{report.card}.{report.field}")
        self.param.update(message=f"{word}: {what}", report=report.lines())

    @property
    def read_only(self) -> bool:
        return bool(getattr(self.bench, "read_only", False))

    def reload(self) -> None:
        """Reload from disk: drop unsaved edits and read the card files again."""
        try:
            report = self.session.reload()
        except WorkbenchError as exc:
            self.message = f"not reloaded: {exc}"
            return
        self.param.update(message="reloaded from disk", report=report.lines())

    def save(self, note: str | None = None) -> list[Path]:
        """Save the pool; the save is a version of its history, with ``note``."""
        if self.read_only:
            self.message = "not saved: this dashboard is read-only (workbench serve --read-only)"
            return []
        try:
            written = self.session.save(note=note)
        except WorkbenchError as exc:
            self.message = f"not saved: {exc}"
            return []
        self.message = ("saved " + ", ".join(p.name for p in written)) if written else "nothing to save"
        return written

    def export(self, path: str | Path) -> Path:
        return self.session.export(path)

    def export_bytes(self, suffix: str = ".csv") -> bytes:
        """The table as CSV or Parquet bytes, for a browser download."""
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / f"cards{suffix}"
            self.session.export(target)
            return target.read_bytes()

    def sheet_bytes(self, fmt: str = "xlsx") -> bytes:
        """The pool as a spreadsheet, one sheet per card kind (workbench.interop.card_sheets)."""
        from workbench.interop.card_sheets import export_bytes
        return export_bytes(self.session, fmt)

    def import_sheet(self, data: bytes, filename: str) -> bool:
        """Take an edited spreadsheet into the pool as one edit (all or none, one
        Undo); a refusal names the sheet, row and column. Nothing is saved."""
        from workbench.interop.card_sheets import import_bytes
        if self.read_only:
            self.message = "refused: this dashboard is read-only (workbench serve --read-only)"
            return False
        try:
            result = import_bytes(self.session, data, filename)
        except WorkbenchError as exc:
            self.message = f"refused: {exc}"
            return False
        self._stop.set()
        moved = "".join(f", {len(cards)} card(s) {what}" for what, cards in
                        (("added", result.added), ("removed", result.removed)) if cards)
        self.param.update(message=f"imported {filename}: {len(result.changes)} value(s) changed{moved}, not saved "
                                  "yet (Undo takes them all back)", report=result.lines())
        return True

    # -- paired playtest ------------------------------------------------------------
    def run_playtest(self) -> None:
        """Old pool against edited pool on the same seeds, streamed
        (:meth:`TweakSession.stream_playtest`): :attr:`playtest` is replaced at
        every update, a preview after half a second and then the looks that may
        decide, until every watched metric is decided or the budget is spent.
        An edit or another game meanwhile stops it (its pools are no longer the
        ones on screen)."""
        from contextlib import closing
        from workbench.sim.verdicts import UNDECIDED
        self.running, self.done_games = True, 0
        self.total_games = 2 * self.playtest_games
        self._stop.clear()
        self.playtest, self.playtest_state = None, ""
        try:
            stream = self.session.stream_playtest(n=self.playtest_games, players=self.playtest_players,
                                                  bots=self.playtest_bots, card=self.selected or None,
                                                  workers=None)
            with closing(stream):
                for update in stream:
                    result = self.session.paired_result(update)
                    self.done_games = min(self.total_games, 2 * update.games)
                    self.playtest_state = playtest_state(update)
                    self.playtest = result
                    if self._stop.is_set():
                        self.message = (f"playtest stopped at {update.games} games per pool: "
                                        "the pool changed while it ran")
                        return
                    if not update.preview and not update.done and update.elapsed >= self.playtest_seconds:
                        # the page's time budget: what this look decided stands (stopping
                        # at a look spends no more error than going on), the rest says so
                        open_ = sum(1 for r in update.rows if r["verdict"] == UNDECIDED)
                        self.playtest_state = (f"stopped at {update.games} games per pool after "
                                               f"{update.elapsed:.0f} s (the page's time budget): "
                                               f"{len(update.rows) - open_} of {len(update.rows)} metrics decided")
                        self.message = (f"paired playtest: {update.games} games per pool in {update.elapsed:.1f} s "
                                        f"({self.playtest_state})")
                        return
            self.message = (f"paired playtest: {self.playtest.games} games per pool in "
                            f"{self.playtest.elapsed:.1f} s ({self.playtest_state}); "
                            f"{len(self.playtest.flipped)} outcomes flipped")
        except WorkbenchError as exc:
            self.message = f"playtest failed: {exc}"
        finally:
            self.running = False

    def open_flipped(self, row: int, arm: str = "new") -> dict:
        """Flipped game ``row`` of the last playtest, on the pool it was played
        with (a session game), handed to the Play page when there is one."""
        if self.playtest is None:
            raise WorkbenchError("run a paired playtest first")
        data, game = self.flipped_match(row, arm)
        if self.bench is not None:
            self.bench.open_in_play(data, game=game, label=f"{arm} pool of the Cards page")
        return data

    def start_playtest(self) -> threading.Thread | None:
        return self._start(self.run_playtest, "quick-playtest", "a playtest is already running")

    def flipped(self) -> list[dict]:
        return list(self.playtest.flipped) if self.playtest is not None else []

    def flipped_rows(self) -> list[dict]:
        """One row per flipped game for the table: seeds as text (64-bit)."""
        from .formats import seed_text
        return [{"game": f["index"], "seed": seed_text(f["seed"]),
                 "old ending": f["a"]["ending"], "old winners": ", ".join(f["a"]["winners"]) or "nobody",
                 "new ending": f["b"]["ending"], "new winners": ", ".join(f["b"]["winners"]) or "nobody"}
                for f in self.flipped()]

    def flipped_match(self, row: int, pool: str = "new") -> tuple[dict, object]:
        """The flipped game ``row`` as played on the ``old`` or ``new`` pool:
        its record (``Match.to_dict`` shape with seats) and the game bound to
        that pool, for :meth:`PlayModel.open_match`."""
        from workbench.core.registry import get_game

        from .play import seats_from_bots
        if self.playtest is None:
            raise WorkbenchError("no paired playtest to open a game from")
        data = self.session.flipped_match(self.playtest, row, pool)
        flip = self.playtest.flipped[row]
        key = "a" if pool == "old" else "b"
        data["seats"] = seats_from_bots(flip[f"bots_{key}"], len(data["config"]["players"]))
        return data, get_game(data["game"])


def playtest_state(update) -> str:
    """One line saying what a streamed playtest update is."""
    if update.preview:
        return f"preview at {update.games} games per pool: an estimate, nothing decided yet"
    # (identical pairs are said from the first look but decide from 40 games: the row's own flag)
    decided = sum(1 for r in update.rows if r.get("decided", r["verdict"] != UNDECIDED))
    if update.done:
        why = "every metric decided" if update.decided else "game budget spent"
        return f"final at {update.games} games per pool: {why}"
    return (f"look {update.look} of {update.looks} at {update.games} games per pool: "
            f"{decided} of {len(update.rows)} metrics decided")


def card_games() -> list[str]:
    """The games whose cards the page can tweak (a card graph declared or generic)."""
    from workbench.core.registry import providing
    return providing("card_graph")


def _session_for(bench, game_id: str):
    if bench is not None:
        return bench.tweak_session(game_id)
    from workbench.tweak import open_session
    return open_session(game_id=game_id)
