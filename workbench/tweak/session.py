"""Live tweaking of a card pool: the engine behind the Cards page, and what
every game's session shares.

:class:`TweakSession` is the generic session: the report, undo/redo, edits one
by one or many at once (all or none), save and reload, export, the paired
playtest and the session games. It knows no game: how the pool's files are
read into a table, how one value is written, which graph is built and how two
runs of its analyses differ are hooks a subclass fills in. Most games get a
:class:`~workbench.tweak.pool_session.PoolTweakSession`, which fills them from
the game's card catalogue; a game with a pool no catalogue describes names its
own subclass in ``Game.tweak_session`` (the choice is
:func:`~workbench.tweak.open_session`'s; this module knows no subclass).

A session holds the designer's card files as plain data. Each edit is validated
exactly as a file on disk would be (a bad value is refused with the file, card
and field, and the last good pool stays), the card graph and its analyses are
recomputed, and an :class:`EditReport` says what changed: cards that became dead
or live, cost changes, feasibility and dominance changes, game-specific notes.

``quick_playtest`` plays the same seeds on the pool as loaded (or last saved) and
on the edited pool and compares them with :mod:`workbench.sim.compare`. Edits can
be undone and redone; ``save`` writes the edited files through
:mod:`workbench.core.cardfile` (only the edited values' lines change, comments,
mode and symlinks stay, all files or none, a file changed on disk since it was
loaded is refused, backups rotate) and ``reload`` reads the files from disk
again; ``export`` writes the flat card table as CSV or Parquet.
"""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from workbench.core import cardfile, extra_fields
from workbench.core.errors import DataError, WorkbenchError

from workbench.core.counting import counted


from .card_ops import CardOperations

#: how the playtest summary names the metrics it shows
PLAYTEST_LABELS = {"completion": "survival rate", "duration_rounds": "game length (rounds)",
                   "duration_actions": "game length (actions)", "score_spread": "score spread"}


#: the first item of an :meth:`TweakSession.edit_many` entry that adds or deletes a
#: card (a NUL: no card name holds one)
ADD, DELETE = "\x00add", "\x00delete"


def _label(key: str | None, game) -> str | None:
    """The playtest row's name. Completion is the share of games that ended
    with a winner; a game where the table wins or loses together calls it its
    survival rate (``Game.completion_label``)."""
    if key == "completion":
        return getattr(game, "completion_label", "games with a winner")
    return PLAYTEST_LABELS.get(key)


@dataclass
class EditReport:
    """What one edit (or undo/redo) changed in the analyses."""

    card: str | None
    field: str | None
    old: Any = None
    new: Any = None
    became_dead: list[str] = field(default_factory=list)
    became_loadable: list[str] = field(default_factory=list)
    cost_changes: list[dict] = field(default_factory=list)      # card, before, after (actions/tokens)
    feasibility_changes: list[dict] = field(default_factory=list)  # card, players, before, after
    dominance_changes: list[dict] = field(default_factory=list)  # card, before, after (dominated_by)
    notes: list[str] = field(default_factory=list)               # game-specific lines (a new bottleneck...)
    live_word: str = "loadable"                                  # what a card no longer dead became

    @property
    def changed(self) -> bool:
        return bool(self.became_dead or self.became_loadable or self.cost_changes
                    or self.feasibility_changes or self.dominance_changes or self.notes)

    def lines(self) -> list[str]:
        out = []
        out += [f"{c} became dead" for c in self.became_dead]
        out += [f"{c} became {self.live_word}" for c in self.became_loadable]
        out += [f"{d['card']}: {d.get('what', 'cheapest load')} {d['before']} -> {d['after']}"
                for d in self.cost_changes]
        out += [f"{d['card']} at {counted(d['players'], 'player')}: "
                f"{'feasible' if d['after'] else 'infeasible'} (was {'feasible' if d['before'] else 'infeasible'})"
                for d in self.feasibility_changes]
        out += [f"{d['card']}: dominated by '{d['after'] or 'nothing'}' (was '{d['before'] or 'nothing'}')"
                for d in self.dominance_changes]
        out += self.notes
        return out or ["no change to the analyses"]

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


#: the most characters one edited value may hold (a card's longest text is a few hundred)
MAX_TEXT = 10_000


def check_text(value, card: str, column: str) -> None:
    """Refuse a text value too long for a card or holding a NUL or another control
    character (tab and line ends apart): it would be saved into the YAML as is."""
    if not isinstance(value, str):
        return
    if len(value) > MAX_TEXT:
        raise DataError(f"{len(value):,} characters; a card's value holds at most {MAX_TEXT:,}", card=card,
                        field=column)
    bad = next((c for c in value if (ord(c) < 32 and c not in "\t\n\r") or 127 <= ord(c) < 160), None)
    if bad is not None:
        raise DataError(f"holds the control character U+{ord(bad):04X}; a card's text is printable", card=card,
                        field=column)


class EditRefused(WorkbenchError):
    """Edit number ``index`` of :meth:`TweakSession.edit_many` was refused (``error``);
    none of the edits was taken."""

    def __init__(self, index: int, error: WorkbenchError):
        super().__init__(str(error))
        self.index, self.error = index, error


@dataclass
class PairedResult:
    """A quick paired playtest: the same seeds on the old and the new pool."""

    summary: pl.DataFrame            # metric, old, new, diff, ci_low, ci_high
    flipped: list[dict]
    games: int
    players: int
    card: str | None
    elapsed: float
    #: the pools played (old, new), so a flipped game replays on the pool it was played with
    pools: tuple = ()
    bots: str = "greedy"


def _int(value, what: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{what} must be a whole number, not {value!r}") from None


class TweakSession(CardOperations):
    """An editable card pool with validation, analyses, undo and save.

    :func:`workbench.tweak.open_session` (``open_session(game_id)``; no id: the
    first game listed with a card graph, the one the pages open on) makes the
    session class the game declares in ``Game.tweak_session``, else a
    :class:`~workbench.tweak.pool_session.PoolTweakSession`; all have this API.
    This class is abstract: a subclass opens the files (``__init__`` sets
    ``game_id``, ``game``, ``folder``, ``file_names``, ``files``, ``raw``,
    ``cards``, ``baseline``, ``_load_cards``, the undo lists and ``dirty``) and
    fills in the hooks below that raise :class:`NotImplementedError`."""

    #: how the pages draw this session's card graph: ``"grouped"`` (the generic
    #: drawing, cards grouped by kind or another field) or a layout the game's
    #: session draws itself through :meth:`live_view` (a subclass says which)
    layout = "grouped"
    #: what a card no longer dead became, in an edit report
    live_word = "live"
    #: True inside :meth:`edit_many` (a session may keep look-ups for the one pool being edited)
    _batching = False
    _names = None
    #: the history version the last save made (:mod:`workbench.core.versions`)
    last_version = None
    #: whether an edit reports what the card graph's analyses say of it. A command
    #: that only takes values in (``cards import``) turns it off: the graph and its
    #: analyses (a betweenness over every card) are then built only when asked for
    analysing = True
    _graph_built = None
    _analyses_built = None

    # the card graph and its analyses of the pool as it is, built when first asked
    # for (opening a session or taking an edit builds neither)
    @property
    def _graph(self):
        if self._graph_built is None:
            self._graph_built = self._build_graph(self.cards)
        return self._graph_built

    @_graph.setter
    def _graph(self, graph) -> None:
        self._graph_built = graph
        if graph is None:
            self._analyses_built = None

    @property
    def _analyses(self) -> dict:
        if self._analyses_built is None:
            self._analyses_built = self._run_analyses(self.cards, self._graph)
        return self._analyses_built

    @_analyses.setter
    def _analyses(self, analyses) -> None:
        self._analyses_built = analyses

    # -- the hooks a subclass fills in ---------------------------------------
    def _build_graph(self, cards):
        """The card graph (networkx) of ``cards``."""
        raise NotImplementedError

    def _run_analyses(self, cards, graph) -> dict:
        """The graph's analyses: table name -> polars table."""
        raise NotImplementedError

    def _compare_analyses(self, before: dict, after: dict, **edit) -> EditReport:
        """What changed between two runs of :meth:`_run_analyses` (``edit``:
        card, field, old, new)."""
        raise NotImplementedError

    def _put(self, raw: dict, card: str, column: str, value) -> tuple[str, Any, Any, dict]:
        """Write one edit into ``raw`` (not yet validated): the card's name, the old
        and new values, and what :meth:`_validate` needs to name the edit in a refusal."""
        raise NotImplementedError

    def _validate(self, raw: dict, **where):
        """The pool ``raw`` describes, validated exactly as the loader validates files."""
        raise NotImplementedError

    @property
    def columns(self) -> dict[str, tuple[str, str]]:
        """Editable flat columns: name -> (card kinds it applies to, meaning)."""
        raise NotImplementedError

    @property
    def kind_columns(self) -> dict[str, list[str]]:
        """Card kind -> the flat columns that apply to it, in table order."""
        raise NotImplementedError

    def entries(self):
        """``(kind, name, card mapping, file)`` of every card, in table order."""
        raise NotImplementedError

    def table(self) -> pl.DataFrame:
        """The pool, one row per card, with the editable columns."""
        raise NotImplementedError

    @property
    def extra_kinds(self) -> frozenset[str]:
        """The card kinds whose cards keep extra fields of the designer's own."""
        return frozenset()

    def deck_sheets(self) -> dict[str, tuple[list[str], list[list]]]:
        """Decks kept outside the card lists, as a spreadsheet shows them (none here)."""
        return {}

    def deck_edit(self, kind: str, name: str, column: str, value) -> tuple:
        """The :meth:`edit_many` item that sets a deck card's cell, or its refusal."""
        raise WorkbenchError(f"a {kind} card is made from the game's other data; a sheet does not edit it")

    # The public face a balance search uses (workbench.balance), the same on
    # every session kind: which values a --vary names, a trial pool with values
    # set (validated), and a value as the files hold it now.
    def variables(self, patterns: list[str], *, allow_seed: bool = False) -> tuple[list, list[str]]:
        """The numeric draft values the vary ``patterns`` name and the seed values they leave out."""
        raise NotImplementedError

    def with_values(self, values: dict[str, int], variables: list) -> dict:
        """A copy of the card files with each variable set, validated; the session is unchanged."""
        raise NotImplementedError

    def value_of(self, card: str, field: str):
        """A variable's value in the session's files now."""
        raise NotImplementedError

    def _is_cell(self, card: str) -> bool:
        """Whether ``card`` names a value kept outside the card lists (a setting,
        a table cell) rather than a card: games do not count its use."""
        return False

    def _node_place(self, node: dict) -> str:
        """Where a card sits, as :meth:`card_info` says it (its kind here)."""
        return str(node["kind"]).replace("_", " ")

    def _node_gives(self, node: dict) -> str:
        """What a card gives, as :meth:`card_info` says it."""
        return f"; gives {node['bonus']}" if node.get("bonus") else ""

    # -- reading ------------------------------------------------------------
    def graph(self):
        return self._graph

    def analyses(self) -> dict[str, pl.DataFrame]:
        return self._analyses

    def card_names(self) -> list[str]:
        """Every card of the graph by name (the hubs that link cards left out)."""
        return sorted(str(d["name"]) for _, d in self._graph.nodes(data=True) if not _is_hub(d))

    def card_links(self, card: str) -> dict[str, list[str]]:
        """What ``card`` needs and what it unlocks in the card graph, by name."""
        from workbench.graphs.drawing import card_links
        return card_links(self._graph, card)

    def card_info(self, card: str | None) -> str:
        """One line about a card as the graph sees it: cost, what it gives, what
        it needs and what it unlocks (empty for no card)."""
        if not card:
            return ""
        node = next((d for _, d in self._graph.nodes(data=True)
                     if not _is_hub(d) and str(d["name"]).lower() == card.lower()), None)
        if node is None:
            return f"{card}: not in the graph"
        links = self.card_links(card)
        where, gives = self._node_place(node), self._node_gives(node)
        return (f"{node['name']} ({where}): requires {node.get('requirement') or 'nothing'}{gives}; "
                f"needs {', '.join(links['needs']) or 'nothing'}; "
                f"unlocks {', '.join(links['unlocks']) or 'nothing'}")

    def figure(self, selected: str | None = None, *, width: int = 760, height: int = 520):
        """A bokeh drawing of the card graph with the analyses marked."""
        from workbench.graphs.drawing import pool_figure
        return pool_figure(self._graph, self._analyses.get("card_status"), selected=selected, width=width,
                           height=height, title=f"{self.game.name}: card graph")

    def live_view(self, on_select=None, **size):
        """The drawing a page keeps and updates edit by edit, for a session whose
        :attr:`layout` is its own: an object with ``figure`` (bokeh) and
        ``update(graph, analyses, selected)``, made with ``size`` (``width``,
        ``height``) and calling ``on_select(name)`` when a card is clicked. The grouped layout is the pages'
        own (:class:`workbench.graphs.drawing.PoolView`), so none here."""
        return None

    # -- editing -------------------------------------------------------------
    def edit(self, card: str, column: str, value) -> EditReport:
        """Set one field of one card. ``column`` is a flat column name (see
        :attr:`columns`) or a dotted path inside the card; a value kept outside
        the card lists is named as a balance variable names it."""
        raw = copy.deepcopy(self.raw)
        name, old, new, where = self._put(raw, card, column, value)
        cards = self._validate(raw, **where)
        previous = self.raw
        report = self._commit(raw, cards, name, column, old, new)
        report.notes += _own_fields_note([(card, column)])
        self._undo.append((previous, name, column))
        self._redo.clear()
        return report

    def _commit(self, raw: dict, cards, card, column, old, new) -> EditReport:
        if not self.analysing:
            self.raw, self.cards, self._graph, self.dirty = raw, cards, None, True
            return EditReport(card=card, field=column, old=old, new=new, live_word=self.live_word)
        before = self._analyses
        self.raw, self.cards = raw, cards
        self._graph = None
        self.dirty = True
        return self._compare_analyses(before, self._analyses, card=card, field=column, old=old, new=new)

    def undo(self) -> EditReport:
        return self._travel(self._undo, self._redo, "undo")

    def redo(self) -> EditReport:
        return self._travel(self._redo, self._undo, "redo")

    def _travel(self, source: list, target: list, what: str) -> EditReport:
        """Restore the pool at the top of ``source``, remembering the current one on ``target``."""
        if not source:
            raise WorkbenchError(f"nothing to {what}")
        raw, card, column = source.pop()
        current = self.raw
        report = self._commit(raw, self._validate(raw), card, column, None, None)
        target.append((current, card, column))
        return report

    def edit_many(self, edits: list[tuple], *, label: str = "import") -> list[EditReport]:
        """Several edits ``(card, column, value)`` as one change: all or none (the
        first refused edit raises :class:`EditRefused` naming its index, and the
        session is left exactly as it was), and one step of undo.

        Every edit is written into one copy of the pool and the pool is validated
        **once** (an import of thousands of cells costs one validation, not one per
        cell); when that fails, the first edit that makes it fail is found by
        bisection (validating prefixes: a few validations, not one per cell) and
        named. Returns one report of what the edits changed together.

        An item may also be ``(ADD, kind, name)`` or ``(DELETE, card)`` (a sheet that
        adds and removes cards): then the items are taken one after another
        (:meth:`add_card`, :meth:`delete_card` refused while something names the
        card, :meth:`edit`), still all or none and one step of undo."""
        if not edits:
            return []
        if any(item[0] in (ADD, DELETE) for item in edits):
            return self._apply_in_turn(edits, label)
        self._batching = True
        try:
            raw = copy.deepcopy(self.raw)
            puts = []
            for i, (card, column, value) in enumerate(edits):
                try:
                    puts.append(self._put(raw, card, column, value))
                except WorkbenchError as exc:
                    raise EditRefused(i, exc) from None
            try:
                cards = self._validate(raw, **puts[0][3]) if len(puts) == 1 else self._validate(raw)
            except WorkbenchError as exc:
                named = self._named_edit(exc, edits, puts)
                i, exc = named if named is not None else self._first_refused(edits)
                raise EditRefused(i, exc) from None
        finally:
            self._batching = False
            self._names = None
        previous = self.raw
        if len(puts) == 1:
            name, old, new, _ = puts[0]
            report = self._commit(raw, cards, name, edits[0][1], old, new)
        else:
            report = self._commit(raw, cards, None, None, None, None)
        report.notes += _own_fields_note([(item[0], item[1]) for item in edits])
        self._undo.append((previous, label, counted(len(puts), "value")))
        self._redo.clear()
        return [report]

    def _apply_in_turn(self, edits: list[tuple], label: str) -> list[EditReport]:
        """:meth:`edit_many` with cards added or deleted: each item validated in
        turn (an added card must exist before its values are set), the session put
        back as it was on the first refusal, one undo step for all."""
        kept = (self.raw, self.cards, self._graph_built, self._analyses_built, self.dirty, len(self._undo),
                list(self._redo))
        reports = []
        for i, item in enumerate(edits):
            try:
                if item[0] == ADD:
                    reports.append(self.add_card(item[1], item[2]))
                elif item[0] == DELETE:
                    reports.append(self.delete_card(item[1]))
                else:
                    card, column, value = item
                    reports.append(self.edit(card, column, value))
            except WorkbenchError as exc:
                self.raw, self.cards, self._graph_built, self._analyses_built, self.dirty = kept[:5]
                del self._undo[kept[5]:]
                self._redo[:] = kept[6]
                raise EditRefused(i, exc) from None
        del self._undo[kept[5]:]
        self._undo.append((kept[0], label, counted(len(reports), "change")))
        self._redo.clear()
        return reports

    @staticmethod
    def _named_edit(exc: WorkbenchError, edits: list, puts: list) -> tuple[int, WorkbenchError] | None:
        """The edit a validation refusal names by its card and field (no further
        validation needed), or None when it names none of them."""
        if not isinstance(exc, DataError) or exc.card is None:
            return None
        card = str(exc.card).lower()
        mine = [i for i, (name, _, _, where) in enumerate(puts)
                if card in {str(name).lower(), str(where.get("key", "")).lower(), str(where.get("card", "")).lower(),
                            str(edits[i][0]).lower()}]
        exact = [i for i in mine if exc.field is not None and str(exc.field).split(".")[0] == edits[i][1].split(".")[0]]
        if not (exact or mine):
            return None
        i = (exact or mine)[0]
        return i, DataError(exc.message, file=exc.file, card=puts[i][0], field=edits[i][1])

    def _first_refused(self, edits: list[tuple[str, str, object]]) -> tuple[int, WorkbenchError]:
        """The first edit whose prefix of ``edits`` no longer validates, with the
        refusal as validating up to it gives (bisection over prefixes)."""
        def attempt(k: int) -> WorkbenchError | None:
            raw = copy.deepcopy(self.raw)
            where: dict = {}
            for card, column, value in edits[:k]:
                where = self._put(raw, card, column, value)[3]
            try:
                self._validate(raw, **where)
            except WorkbenchError as exc:
                return exc
            return None
        low, high = 1, len(edits)          # the full list fails; find the shortest failing prefix
        while low < high:
            mid = (low + high) // 2
            if attempt(mid) is None:
                low = mid + 1
            else:
                high = mid
        exc = attempt(low)
        return low - 1, exc if exc is not None else WorkbenchError("the edits together do not validate")

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- saving --------------------------------------------------------------
    def save(self, note: str | None = None, source: str = "save") -> list[Path]:
        """Write the edited files, all or none (see :mod:`workbench.core.cardfile`);
        a file changed on disk since it was loaded, a read-only file or a disk
        error is refused with a :class:`~workbench.core.cardfile.SaveError` and
        nothing changes. The pool saved becomes the new baseline of paired playtests
        and a version in the folder's history (:mod:`workbench.core.versions`, with
        ``note``), kept in ``last_version`` (None where the history cannot be written:
        the save itself stands)."""
        from workbench.core import versions
        # the pool as it was before this save becomes a version first (when the
        # history has not seen it, e.g. edited by hand), so the save's edits are known
        if not versions.history_disabled():     # (with it off, this only computed a version nobody keeps)
            versions.note_version(self.game, self.folder)
        changes = [(self.files[name], self.raw[name]) for name in self.file_names]
        # every text a file had in this session (as loaded, as saved): an undo back
        # to one of them saves that text again, byte for byte
        earlier = self.__dict__.setdefault("_earlier", {})
        for loaded in self.files.values():
            _remember(earlier, loaded)
        saved = cardfile.save_files(changes, earlier=earlier)
        for loaded in saved:
            self.files[loaded.path.name] = loaded
            _remember(earlier, loaded)
        self.baseline = self.cards
        self.dirty = False
        self.history_problem = None
        try:
            self.last_version = versions.record_save(self.game, self.folder, note=note, source=source)
        except WorkbenchError as exc:
            self.last_version = None
            self.history_problem = str(exc)   # the save stands; the caller says why no version was recorded
        return [loaded.path for loaded in saved]

    def reload(self) -> EditReport:
        """Read the card files from disk again, dropping unsaved edits and the undo
        history (Reload from disk); a file that no longer validates is refused and
        the session stays as it was."""
        files = {name: cardfile.load(self.folder / name) for name in self.file_names}
        raw = {name: copy.deepcopy(f.data) for name, f in files.items()}
        cards = self._load_cards(self.folder)
        self.files = files
        report = self._commit(raw, cards, None, None, None, None)
        self.baseline = self.cards
        self._undo.clear()
        self._redo.clear()
        self.dirty = False
        return report

    def export(self, path: str | Path) -> Path:
        """The flat card table as ``.csv`` or ``.parquet`` (by suffix)."""
        import io

        from workbench.core import storage
        path = Path(path)
        table = self.table()
        buf = io.BytesIO()
        if path.suffix == ".csv":
            table.write_csv(buf)
        elif path.suffix == ".parquet":
            table.write_parquet(buf)
        else:
            raise WorkbenchError(f"export to .csv or .parquet, not {path.suffix or 'no suffix'}")
        storage.write_bytes(path, buf.getvalue(), "--out")
        return path

    # -- playtesting ---------------------------------------------------------------
    def quick_playtest(self, n: int = 200, players: int | None = None, seed: int = 1, bots: str = "greedy",
                       workers: int | None = 0, card: str | None = None, progress=None) -> PairedResult:
        """Play ``n`` games on the baseline pool and on the edited pool with the same
        seeds (``players`` defaults to the game's default); ``summary`` has survival
        rate, game length, score spread and the edited card's use (share of games in
        which it was taken) with 95% intervals."""
        import time

        players = players or self.game.default_players
        from workbench.sim import SimSpec
        from workbench.sim.compare import compare

        start = time.perf_counter()
        ref_old, ref_new = _register_pool(self.baseline, self.game_id), _register_pool(self.cards, self.game_id)
        base = dict(games=n, players=players, bots=bots, seed=seed, trace=False)
        comp = compare(SimSpec(ref_old, **base), SimSpec(ref_new, **base), workers=workers, progress=progress)
        rows = []
        for r in comp.rows:
            label = _label(r.get("key"), self.game)
            if label:
                rows.append({"metric": label, "old": r["a"], "new": r["b"], "diff": r["diff"],
                             "ci_low": r["ci_low"], "ci_high": r["ci_high"]})
        card = card or (self._undo[-1][1] if self._undo else None)
        if card is not None and self._played(card):
            rows.append(_card_use_row(comp.a, comp.b, card, seed))
        summary = pl.DataFrame(rows, schema={"metric": pl.Utf8, "old": pl.Float64, "new": pl.Float64,
                                             "diff": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64})
        return PairedResult(summary, comp.flipped, n, players, card, time.perf_counter() - start,
                            pools=(self.baseline, self.cards), bots=bots)

    def _played(self, card: str) -> bool:
        """Whether games take or play ``card`` (so its use can be counted)."""
        return True

    def renamed_cards(self) -> dict[str, str]:
        """Name in the baseline -> name now, for each card the edits renamed. A
        card's identity is its kind and its place among the cards of that kind
        (names change, places do not: an edit never reorders a file), so a
        renamed card is compared with itself; a kind whose count changed (a
        card added or removed) is left out, its places no longer matching."""
        def by_kind() -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for kind, name, _, _ in self.entries():
                out.setdefault(kind, []).append(name)
            return out

        now = by_kind()
        saved = self.raw
        try:
            self.raw = {name: f.data for name, f in self.files.items()}
            before = by_kind()
        finally:
            self.raw = saved
        return {old: new for kind, names in before.items() if len(now.get(kind, ())) == len(names)
                for old, new in zip(names, now[kind]) if old != new}

    # -- the session's games ---------------------------------------------------------
    def session_game(self, which: str = "edited", pool=None) -> str:
        """Register a game bound to the edited pool (``which="edited"``), the
        baseline (``"baseline"``) or ``pool`` for this session and return its
        registry id: the Play page and ``Match.from_dict`` open games of it."""
        from workbench.core.registry import register_session_game
        own = pool is None
        if pool is None:
            if which not in ("edited", "baseline"):
                raise WorkbenchError(f"which is 'edited' or 'baseline', not {which!r}")
            pool = self.cards if which == "edited" else self.baseline
        games = self.__dict__.setdefault("_session_games", {})
        key = id(pool)
        if key not in games:
            game = self.game.with_cards(pool)
            if own:
                # the values behind the pool: a playtest room keeps them, so a game
                # begun on this pool resumes on it after a restart (workbench.rooms.pools)
                game.pool_files = self.pool_files(which)
            games[key] = (pool, register_session_game(game, label=which))
        return games[key][1]

    def pool_files(self, which: str = "edited") -> dict:
        """The values of every pool file of the edited pool (or the baseline): the
        session's files as edited, the others as on disk."""
        from workbench.core.pool_values import read_raw
        edited = self.raw if which == "edited" else {name: f.data for name, f in self.files.items()}
        files = read_raw(self.folder, self.game.pool_spec.files)
        files.update(copy.deepcopy({k: v for k, v in edited.items() if k in files}))
        return json.loads(json.dumps(files, default=str))

    def flipped_match(self, result: PairedResult, row: int, arm: str = "new") -> dict:
        """Flipped game ``row`` of a paired playtest as played on the old or the new
        pool, in the ``Match.to_dict`` shape the Play page opens; its game is the
        pool's session game, so it replays on that pool."""
        from workbench.core.bots import make_bots
        from workbench.core.game import GameConfig
        from workbench.core.play import play_game
        from workbench.core.registry import get_game
        if arm not in ("old", "new"):
            raise WorkbenchError(f"arm is 'old' or 'new', not {arm!r}")
        if not 0 <= row < len(result.flipped):
            raise WorkbenchError(f"no flipped game {row}; this playtest has {len(result.flipped)}")
        flip = result.flipped[row]
        key = "a" if arm == "old" else "b"
        pool = result.pools[0 if arm == "old" else 1] if result.pools else None
        game_id = self.session_game("baseline" if arm == "old" else "edited", pool=pool)
        config = GameConfig.from_dict(flip[f"config_{key}"])
        _, log = play_game(get_game(game_id), config, make_bots(flip[f"bots_{key}"], len(config.players)))
        return {"game": game_id, "config": config.to_dict(), "actions": log, "cursor": 0}

    def stream_playtest(self, n: int = 200, players: int | None = None, seed: int = 1, bots: str = "greedy",
                        workers: int | None = None, card: str | None = None,
                        watch: tuple[str, ...] | None = None, margins: dict | None = None, look_every: int | None = None, stop_early: bool = True,
                        on_update=None, variants: tuple[str, ...] = (), options: dict | None = None,
                        bots_new: str | None = None, **schedule):
        """The paired playtest as it happens: yields a
        :class:`workbench.sim.progressive.PairedUpdate` (old pool = A, edited
        pool = B, same seeds) with the difference and interval of every watched
        metric and of the edited card's use: a preview of the games in so far
        after half a second and then every second (``preview=True``, always
        undecided), and a look at 20, 40, 80, 120, 160 games ... (or every
        ``look_every``), which may decide; it stops once all are decided or
        ``n`` games per pool are played (rule, schedule and error control in
        :mod:`workbench.sim.progressive`; ``schedule`` passes its other
        settings, e.g. ``first_look``, ``first_preview``). ``on_update(update)``
        is called as well, for a page that listens. ``watch`` None: the game's
        leading metrics and the edited cards' own
        (:func:`workbench.sim.verdicts.leading_watch`); ``card`` None: the
        cards of every edit made (the last one's when none is in the undo list).
        ``variants`` and ``options`` are played on both pools alike, as
        ``workbench simulate`` takes them. ``bots_new``: the edited pool's
        bots, when they differ from the old pool's (``compare --adapt`` seats
        bots tuned to each pool)."""
        from workbench.sim import SimSpec
        from workbench.sim.progressive import CARD_USE, paired_playtest
        from workbench.sim.verdicts import leading_watch

        ref_old, ref_new = _register_pool(self.baseline, self.game_id), _register_pool(self.cards, self.game_id)
        base = dict(games=n, players=players or self.game.default_players, bots=bots, seed=seed, trace=False,
                    variants=tuple(variants), options=dict(options or {}),
                    # what a card's taker gains in the rounds after the take (card_taker_soon)
                    taker_horizon=self.game.taker_horizon)
        renames = self.renamed_cards()
        old_name = {new: old for old, new in renames.items()}
        if watch is None:
            cards = [card] if card else list(dict.fromkeys(c for _, c, _ in self._undo))
            # a renamed card is watched under its old name, read under the new one in the edited pool
            keys = leading_watch(self.game, [old_name.get(c, c) for c in cards
                                             if c and self._played(c) and not self._is_cell(c)])
        else:
            card = card or (self._undo[-1][1] if self._undo else None)
            watched = old_name.get(card, card)
            keys = list(watch) + ([f"{CARD_USE}{watched}"] if card and self._played(card) and not self._is_cell(card)
                                  and f"{CARD_USE}{watched}" not in watch else [])
        new_arm = {**base, "bots": bots_new} if bots_new else base
        return paired_playtest(SimSpec(ref_old, **base), SimSpec(ref_new, **new_arm), watch=keys, margins=margins,
                               look_every=look_every, stop_early=stop_early, workers=workers, seed=seed,
                               on_update=on_update, renames=renames, **schedule)

    def pool_refs(self) -> tuple[str, str]:
        """The game references (``module:ATTR``) of the old and the edited pool,
        as the paired playtest plays them (a tuner plays each on its own)."""
        return _register_pool(self.baseline, self.game_id), _register_pool(self.cards, self.game_id)

    def paired_result(self, update) -> PairedResult:
        """A streamed playtest's update in the shape of :meth:`quick_playtest`'s
        result: the summary (with a verdict column), the flipped games (on the
        last update) and the pools played, so a page shows it and opens its
        flipped games (:meth:`flipped_match`) the same way."""
        from workbench.sim.progressive import CARD_USE
        from workbench.sim.runner import resolve_game
        pools = tuple(getattr(resolve_game(r.spec.game), "_cards", None) for r in (update.a, update.b))
        card = next((r["key"][len(CARD_USE):] for r in update.rows if r["key"].startswith(CARD_USE)), None)
        return PairedResult(update_summary(update), list(update.flipped), update.games,
                            update.a.spec.players or self.game.default_players, card, update.elapsed,
                            pools=pools if all(p is not None for p in pools) else (), bots=update.a.spec.bots)


def _own_fields_note(edits: list[tuple[str, str]]) -> list[str]:
    """A line for the report when edits set the cards' own fields (``extra.NAME``):
    the card graph cannot show them, since no rule reads them."""
    own = [(card, column) for card, column in edits if str(column).startswith(extra_fields.EXTRA + ".")]
    if not own:
        return []
    names = sorted({column.split(".", 1)[1] for _, column in own})
    return [f"{counted(len(own), 'value')} of the cards' own fields ({', '.join(names)}): a print layout "
            "reads them, no rule does"]


#: how many earlier texts of one file a session keeps for :meth:`TweakSession.save`
EARLIER_KEPT = 16


def _remember(earlier: dict, loaded) -> None:
    versions = earlier.setdefault(loaded.path, [])
    if not versions or versions[-1][1] != loaded.text:
        versions.append((copy.deepcopy(loaded.data), loaded.text))
        del versions[:-EARLIER_KEPT]


def update_summary(update) -> pl.DataFrame:
    """A streaming update in the shape of :attr:`PairedResult.summary` (metric,
    old, new, diff, ci_low, ci_high) plus the verdict, for the Cards page. A
    preview on fewer games than a look may decide on (``difference_from``) has
    no difference or interval and says :data:`~workbench.sim.verdicts.TOO_FEW`."""
    from workbench.sim.runner import resolve_game
    from workbench.sim.verdicts import TOO_FEW
    game = resolve_game(update.a.spec.game)
    # a preview on fewer games than any look may decide on shows no interval: on a
    # handful of paired games every difference can be 0 and "+0 [+0, +0]" reads
    # as certain when it is nothing yet
    too_few = update.preview and update.games < max(update.difference_from, 2)
    rows = [{"metric": _label(r["key"], game) or r["metric"], "old": r["a"], "new": r["b"],
             "diff": None if too_few else r["diff"], "ci_low": None if too_few else r["ci_low"],
             "ci_high": None if too_few else r["ci_high"],
             "verdict": (f"{TOO_FEW} ({update.games} per pool so far; an interval from "
                         f"{max(update.difference_from, 2)})") if too_few else _verdict_text(r)}
            for r in update.rows]
    return pl.DataFrame(rows, schema={"metric": pl.Utf8, "old": pl.Float64, "new": pl.Float64,
                                      "diff": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                      "verdict": pl.Utf8})


def _verdict_text(row: dict) -> str:
    """The verdict as the Cards page shows it: undecided says how many games
    per pool would decide it at the spread seen so far."""
    from workbench.sim.verdicts import UNDECIDED
    need = row.get("games_needed")
    if row["verdict"] == UNDECIDED and need:
        return f"{UNDECIDED} (about {need} games per pool would decide it)"
    return row["verdict"]


def _card_use_row(a, b, card: str, seed: int) -> dict:
    """Share of games in which ``card`` was taken, old vs new, with a paired
    bootstrap interval of the difference."""
    import numpy as np

    from workbench.core.rng import derive_seed

    def used(result) -> np.ndarray:
        n = result.games.height
        taken = set()
        if result.cards.height and "card" in result.cards.columns:
            rows = result.cards.filter((pl.col("card") == card) & (pl.col("times_taken") > 0))
            taken = set(rows["index"].to_list())
        return np.array([1.0 if i in taken else 0.0 for i in range(n)])

    ua, ub = used(a), used(b)
    diff = ub - ua
    rng = np.random.default_rng(derive_seed(seed, "card-use"))
    # no interval from a handful of games, nor one of width 0 from a sample without
    # spread (workbench.sim.intervals): None, which the pages print as "too few games"
    from workbench.sim.intervals import from_resamples
    means = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(300)] if len(diff) > 1 else []
    lo, hi = from_resamples(means, len(diff)).pair()
    return {"metric": f"games taking {card}", "old": float(ua.mean()) if len(ua) else 0.0,
            "new": float(ub.mean()) if len(ub) else 0.0, "diff": float(diff.mean()) if len(diff) else 0.0,
            "ci_low": lo, "ci_high": hi}


_POOLS: dict[tuple[str, int], str] = {}


def _register_pool(cards, game_id: str) -> str:
    """A game reference (``module:ATTR``) that batch workers resolve to the game
    ``game_id`` bound to ``cards``. Registered as an attribute of this module, so
    forked pool workers inherit it; the in-process backend sees it directly."""
    key = (game_id, id(cards))
    if key not in _POOLS:
        attr = f"POOL_{len(_POOLS)}"
        setattr(sys.modules[__name__], attr, _game_for(cards, game_id))
        _POOLS[key] = f"{__name__}:{attr}"
    return _POOLS[key]


def _game_for(cards, game_id: str):
    """The game ``game_id`` playing with ``cards`` instead of the files on disk."""
    from workbench.core.registry import get_game
    return get_game(game_id).with_cards(cards)


def _first_card_game() -> str:
    from workbench.core.registry import providing
    games = providing("card_graph")
    if not games:
        raise WorkbenchError("no installed game declares a card graph")
    return games[0]


def _is_hub(data: dict) -> bool:
    """Graph nodes that link cards rather than being cards (a card graph marks them ``hub``)."""
    return bool(data.get("hub"))
