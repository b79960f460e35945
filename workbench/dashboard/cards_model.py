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
import time
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
    workers = param.Integer(default=None, allow_None=True, bounds=(0, None),
                            doc="worker processes of the playtest, shares and ban (None: every core; 0: this process)")
    running = param.Boolean(default=False)
    done_games = param.Integer(default=0)
    total_games = param.Integer(default=0)
    playtest_state = param.String(default="", doc="what the playtest shown is: a preview, a look, the end")
    explanation = param.Dict(default=None, allow_None=True,
                             doc="why the last playtest's decided change happened (workbench.tweak.explain)")
    why = param.List(default=[], doc="the explanation in lines, as compare prints it under the verdict")
    impact = param.List(default=[], doc="per card: its takers' win share and edge in the edited pool's games")
    ban = param.Dict(default=None, allow_None=True, doc="the last card banned: what never taking it changes")
    ban_games = param.Integer(default=40, bounds=(2, 20_000), doc="paired games a ban plays")

    def __init__(self, session=None, bench=None, game_id: str | None = None, **params):
        self.bench = bench
        self.playtest = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()  # set by an edit or a new game: the running playtest is stale
        # (card, column) edited since the pool was loaded or saved, for the edits' shares;
        # None once an undo, an import or a card added or deleted makes them unlistable
        self._edits: list[tuple[str, str]] | None = []
        self._update = None  # the last playtest's final update, which the explanation reads
        self._played_edits: list | None = None  # the edits that playtest compared (listed_edits)
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
        self._edits, self._update, self._played_edits = [], None, None
        self.explanation, self.why, self.impact, self.ban = None, [], [], None

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
        if self._edits is not None:
            # a rename changes the card's name under the later edits: not listable
            self._edits = None if column == "name" else self._edits + [(report.card or card, column)]
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
        self._edits = None
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
            self._edits = None
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
        self._edits = []
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
        self._edits = []  # the saved pool is the old pool of the next playtest
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
        self._edits = None
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
        self._update, self.explanation, self.why, self.impact, self.ban = None, None, [], [], None
        self._played_edits = self.listed_edits()
        timed_out = False
        try:
            stream = self.session.stream_playtest(n=self.playtest_games, players=self.playtest_players,
                                                  bots=self.playtest_bots, card=self.selected or None,
                                                  workers=self.workers)
            with closing(stream):
                for update in stream:
                    self._update = update
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
                        timed_out = True
                        break
            if not timed_out:
                self.message = (f"paired playtest: {self.playtest.games} games per pool in "
                                f"{self.playtest.elapsed:.1f} s ({self.playtest_state}); "
                                f"{len(self.playtest.flipped)} outcomes flipped")
            self._explain_last()
        except WorkbenchError as exc:
            self.message = f"playtest failed: {exc}"
        finally:
            self.running = False

    # -- why the change happened, and per-card impact ----------------------------------
    def listed_edits(self) -> list[tuple[str, str, object]] | None:
        """The edits since the pool was loaded or saved, ``(card, column,
        value)`` as the table holds the value now (a cell edited twice: once);
        None when an undo, an import, a rename or a card added or deleted
        makes them unlistable."""
        if self._edits is None:
            return None
        def value(card, column):
            # a card's cell as the table holds it; a setting or table cell is no row of it
            v = self.cell(card, column) if column in self.table().columns else None
            return v if v is not None else self.session.value_of(card, column)
        return [(card, column, value(card, column)) for card, column in dict.fromkeys(self._edits)]

    def _explain_last(self) -> None:
        """After a playtest: per-card impact from the edited pool's games, and,
        when a metric decided a change, where the paired games part ways and
        the cards whose use moved most (seconds: only the moves up to each
        parting are replayed). The edits' shares cost games: :meth:`start_shares`."""
        from workbench.sim.verdicts import verdict_rows
        from workbench.tweak.explain import explain, parting_lines
        from workbench.hunt.impact import card_impact
        update = self._update
        if update is None:
            return
        self.impact = card_impact(update.b)
        rows = verdict_rows(update)
        if not any(r.get("direction") for r in rows):
            self.why = ["no metric decided a change yet: nothing to explain"]
            return
        e = explain(update, [], game_id=self.session.game_id, workers=self.workers, shares=False, rows=rows)
        self.param.update(explanation=e, why=parting_lines(e))

    def run_shares(self) -> None:
        """Each edit's share of the explained metric's change (the exact
        Shapley value up to three edits, leave one out beyond), played on the
        last playtest's seeds: a batch per subset of the edits, so minutes."""
        from workbench.tweak.explain import edit_shares, metric_value, parting_lines, share_lines
        try:
            e, update, edits = self.explanation, self._update, self._played_edits
            if e is None or not e.get("metric") or update is None:
                self.message = "no decided change to share out: run a playtest that decides one first"
                return
            if edits is None or len(edits) < 2:
                self.message = ("the edits' shares need two edits or more listed since the last load or save "
                                "(an undo, an import, a rename or a card added or deleted cannot be listed)")
                return
            start = time.perf_counter()
            spec = update.a.spec.with_(games=update.games)
            sh = edit_shares(self.session.game_id, edits, spec, e["metric"], folder=getattr(self.session, "folder", None),
                             workers=self.workers, baseline=metric_value(update.a, e["metric"]),
                             full=metric_value(update.b, e["metric"]))
            e = {**e, "shares": sh, "seconds": round(time.perf_counter() - start, 2)}
            self.param.update(explanation=e, why=parting_lines(e) + share_lines(e))
        except WorkbenchError as exc:
            self.message = f"shares failed: {exc}"
        finally:
            self.running = False

    def start_shares(self) -> threading.Thread | None:
        return self._start(self.run_shares, "edit-shares", "a playtest or share count is already running")

    def run_ban(self, card: str | None = None) -> None:
        """What never taking ``card`` (default: the selected one) changes on the
        edited pool: :attr:`ban_games` paired games, one seat banned from it."""
        from workbench.hunt.impact import ban_impact
        card = card or self.selected
        try:
            if not card:
                self.message = "choose a card in the table first"
                return
            self.ban = ban_impact(self.session.pool_refs()[1], card, players=self.playtest_players,
                                  bots=self.playtest_bots, games=self.ban_games, workers=self.workers)
        except (WorkbenchError, ValueError) as exc:
            self.message = f"ban failed: {exc}"
        finally:
            self.running = False

    def start_ban(self, card: str | None = None) -> threading.Thread | None:
        return self._start(lambda: self.run_ban(card), "card-ban", "a playtest or ban is already running")

    def impact_rows(self) -> list[dict]:
        """:attr:`impact` for the card-impact table: numbers as text, each
        estimate beside its 95 % interval (or why there is none)."""
        def est(r, key):
            if r[key] is None:
                return "-"
            signed = key.endswith("edge")
            return f"{r[key]:{'+' if signed else ''}.2f} {_interval(r, key, signed)}"
        return [{"card": r["card"], "games taken": r["games"], "taker's win share": est(r, "win_share"),
                 "edge over the other seats": est(r, "win_edge")} for r in self.impact]

    def ban_line(self) -> str:
        """:attr:`ban` in one line (empty before any ban)."""
        b = self.ban
        if not b:
            return ""
        def part(key, unit):
            if b[key] is None:
                return f"{unit}: no spread to measure by"
            return f"{unit} {b[key]:+.2f} {_interval(b, key, True)}"
        return (f"never taking {b['card']} ({b['games']} paired games, {b['players']} players, one seat banned): "
                f"{part('win_change', 'win credit')}, {part('score_change', 'score in score spreads')}"
                " (negative: the card helps its seat)")

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


def _interval(row: dict, key: str, signed: bool) -> str:
    """``row[key]``'s interval as the Cards page prints it (``key_low``, ``key_high``),
    or "(too few games)" where there is none."""
    low, high = row[f"{key}_low"], row[f"{key}_high"]
    if low is None or high is None:
        return "(too few games)"
    sign = "+" if signed else ""
    return f"[{low:{sign}.2f}, {high:{sign}.2f}]"
