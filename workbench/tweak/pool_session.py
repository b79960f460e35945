"""Live tweaking of a card pool described by a card catalogue: the
:class:`~workbench.tweak.session.TweakSession` of every game that declares a
card graph (``Game.card_graph``, or the generic one from ``Game.card_fields``)
and no session class of its own.

:func:`workbench.tweak.open_session` returns a :class:`PoolTweakSession` for
such a game. It holds the game's card files as plain data and
edits one field of one card at a time, addressed by card name and a flat column
of the game's catalogue (the card graph module's ``CATALOGUE``)
or a dotted path inside the card. Each edit is validated by the game's own
loader (the same pydantic models that check the files), refused with the file,
card and field when bad (the pool stays as it was), and then the card graph and
its analyses are rebuilt and compared: what became dead or live, dominated,
cheaper, the bottleneck. Undo, redo, atomic save, export and the paired
playtest are the generic session's.
"""

from __future__ import annotations

from workbench.core.names import check_pool_names

import copy
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from workbench.core.data import cards_dir, dump_yaml
from workbench.core.errors import DataError, WorkbenchError, suggest
from workbench.core import cardfile, extra_fields, storage

from workbench.graphs import pool_edit
from .session import EditReport, TweakSession, check_text


def graph_module(game_id: str):
    """The card-graph module of a game (``build_graph``, ``analyses``, ``CATALOGUE``):
    the one its ``Game.card_graph`` names, else the generic graph over its
    declared ``Game.card_fields``; refused in one line for a game with neither."""
    from workbench.core.game import resolve
    from workbench.core.registry import get_game
    game = get_game(game_id)
    if game.card_graph is not None:
        return resolve(game.card_graph)
    if game.card_fields is not None and game.pool_spec is not None:
        from workbench.graphs.generic import GenericGraph
        return GenericGraph(game)
    raise WorkbenchError(f"{game_id} declares no card graph (Game.card_graph or Game.card_fields)")


class PoolTweakSession(TweakSession):
    """An editable card pool of a game with a card catalogue: validation, graph
    analyses, undo/redo, save, playtest."""

    def __init__(self, game_id: str | None = None, folder: str | Path | None = None):
        from workbench.core.registry import get_game

        from .session import _first_card_game
        game_id = game_id or _first_card_game()
        self.game_id = game_id
        self.game = get_game(game_id)
        self.graphs = graph_module(game_id)
        self.catalogue: pool_edit.Catalogue = self.graphs.CATALOGUE
        self.spec = self.game.pool_spec
        self.folder = Path(folder) if folder else cards_dir(game_id)
        self.file_names = tuple(self.catalogue.files)
        # Loaded round-trip (comments, order, style) so a save changes only the
        # edited values' lines: see workbench.core.cardfile.
        self.files = {name: cardfile.load(self.folder / name) for name in self.file_names}
        self.raw = {name: copy.deepcopy(f.data) for name, f in self.files.items()}
        self._load_cards = self.spec.load
        self.cards = self.spec.load(self.folder)
        self.baseline = self.cards
        self._undo: list[tuple[dict, str, str]] = []
        self._redo: list[tuple[dict, str, str]] = []
        self.dirty = False

    # -- reading --------------------------------------------------------------
    def _card_catalogue(self) -> pool_edit.Catalogue:
        return self.catalogue

    @property
    def columns(self) -> dict[str, tuple[str, str]]:
        """Editable flat columns: name -> (card kinds it applies to, meaning)."""
        return {"name": ("cards named in a list", "card name (unique)"), **self.catalogue.columns}

    @property
    def kind_columns(self) -> dict[str, list[str]]:
        """Card kind -> its flat columns (``name`` first), in catalogue order."""
        return {k.kind: ["name", *k.columns] for k in self.catalogue.kinds}

    def entries(self):
        """``(kind, name, card mapping, file)`` of every card, in table order; the
        mappings are the session's own (read them, never change them)."""
        for ref in pool_edit.cards(self.raw, self.catalogue):
            yield ref.kind.kind, ref.name, ref.card, self.raw[ref.kind.file]

    @property
    def extra_kinds(self) -> frozenset[str]:
        """The card kinds whose cards keep extra fields of the designer's own
        (:mod:`workbench.core.extra_fields`; edited as column ``extra.NAME``): every
        kind of separate cards (a kind that is one block of the rules has none)."""
        return frozenset(k.kind for k in self.catalogue.kinds if k.single is None)

    def deck_sheets(self) -> dict[str, tuple[list[str], list[list]]]:
        """Decks kept outside the card lists, as the game's card graph module shows
        them on a spreadsheet (its ``deck_sheets(raw)``; none when it has none)."""
        make = getattr(self.graphs, "deck_sheets", None)
        return make(self.raw) if make else {}

    def deck_edit(self, kind: str, name: str, column: str, value) -> tuple:
        """The :meth:`edit_many` item for a deck card's cell (the game's
        ``deck_edit``), or its refusal."""
        edit = getattr(self.graphs, "deck_edit", None)
        if edit is None:
            return super().deck_edit(kind, name, column, value)
        return edit(kind, name, column, value)

    def table(self) -> pl.DataFrame:
        """The pool, one row per card: name, kind and every catalogue column
        (empty where a column does not apply to the card's kind)."""
        cols = list(self.catalogue.columns)
        rows = []
        for ref in pool_edit.cards(self.raw, self.catalogue):
            row: dict[str, Any] = {"name": ref.name, "kind": ref.kind.kind}
            for col in cols:
                path = ref.kind.columns.get(col)
                row[col] = pool_edit.text_of(pool_edit.get_path(ref.card, path),
                                             phrases=col in ref.kind.phrases) if path else None
            rows.append(row)
        schema = {"name": pl.Utf8, "kind": pl.Utf8}
        for col in cols:
            values = [r[col] for r in rows if r[col] is not None]
            numeric = values and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            schema[col] = pl.Int64 if numeric else pl.Utf8
            if not numeric:
                for r in rows:
                    v = r[col]
                    r[col] = None if v is None else ("true" if v is True else "false" if v is False else str(v))
        return pl.DataFrame(rows, schema=schema, orient="row")

    # -- balance ---------------------------------------------------------------
    def variables(self, patterns: list[str], *, allow_seed: bool = False) -> tuple[list, list[str]]:
        """The whole-number draft values ``KIND.NAME.COLUMN`` patterns name, and
        the seed values they leave out (see workbench.tweak.variables)."""
        from workbench.tweak.variables import expand_pool_vary
        return expand_pool_vary(patterns, self.raw, self.catalogue, allow_seed=allow_seed)

    def with_values(self, values: dict[str, int], variables: list) -> dict:
        """A copy of the card files with each variable set to ``values[name]``,
        validated by the game's loader (a problem names file, card and field);
        the session is unchanged."""
        raw = copy.deepcopy(self.raw)
        for var in variables:
            value = values.get(var.name, var.current)
            if value == var.current:
                continue
            ref = pool_edit.find(raw, self.catalogue, var.card)
            path = self._path(ref, var.field, str(self.folder / ref.kind.file))
            pool_edit.set_path(ref.card, path, int(value))
            self._follow(ref, path)
        self._validate(raw)
        return raw

    def value_of(self, card: str, field: str) -> int:
        """A variable's value in the session's files now."""
        ref = pool_edit.find(self.raw, self.catalogue, card)
        return pool_edit.get_path(ref.card, self._path(ref, field, str(self.folder / ref.kind.file)))

    # -- editing --------------------------------------------------------------
    def _put(self, raw: dict, card: str, column: str, value):
        """Set one field of one card in ``raw``: ``column`` is a flat column (see
        :attr:`columns`) or a dotted path inside the card (``start.trust``,
        ``rows.0.M``). ``card`` is a name, or ``kind:name`` when two kinds share it."""
        check_text(value, card, column)
        index = None
        if self._batching:          # many edits of one pool: one name index, rebuilt after a rename
            kept = self.__dict__.get("_names")
            if kept is None or kept[0] is not raw:
                kept = (raw, pool_edit.name_index(raw, self.catalogue))
                self._names = kept
            index = kept[1]
        ref = pool_edit.find(raw, self.catalogue, card, index)
        if column == "name":
            self._names = None
        file = str(self.folder / ref.kind.file)
        if column.startswith(extra_fields.EXTRA + "."):   # the designer's own field; None removes it
            if ref.kind.kind not in self.extra_kinds:
                raise DataError(f"a {ref.kind.kind} keeps no extra fields (it is part of the rules, not a card)",
                                file=file, card=ref.name, field=column)
            try:
                old = extra_fields.put(ref.card, column[len(extra_fields.EXTRA) + 1:], value)
            except ValueError as exc:
                raise DataError(str(exc), file=file, card=ref.name, field=column) from None
            return ref.name, old, value, {"card": ref.name, "column": column, "key": ref.key}
        path = self._path(ref, column, file)
        old = pool_edit.get_path(ref.card, path)
        try:
            new = pool_edit.coerce(value, old, column, phrases=column in ref.kind.phrases)
            pool_edit.set_path(ref.card, path, new)
            self._follow(ref, path)
        except (ValueError, TypeError, AttributeError) as exc:
            raise DataError(str(exc), file=file, card=ref.name, field=column) from None
        name = new if column == "name" else ref.name
        return name, old, new, {"card": ref.name, "column": column, "key": ref.key}

    def _follow(self, ref: pool_edit.CardRef, path: str) -> None:
        """Let the game rewrite what restates the value just set (a card's
        printed text that says the number), so a numeric edit or a balance
        proposal never leaves the printed card saying the old number."""
        follow = getattr(self.graphs, "follow_edit", None)
        if follow is not None:
            follow(ref.kind.kind, ref.card, path)

    def _path(self, ref: pool_edit.CardRef, column: str, file: str) -> str:
        if column == "name":
            if ref.kind.name_key is None:
                raise DataError(f"a {ref.kind.kind}'s name is its key and cannot be edited here",
                                file=file, card=ref.name, field=column)
            return ref.kind.name_key
        if column in ref.kind.columns:
            return ref.kind.columns[column]
        if "." in column or column in ref.card or column in ("provenance", "draft_fields"):
            return column   # provenance fields may be given to any card (docs/conventions.md)
        if column in self.catalogue.columns:
            raise DataError(f"{column!r} does not apply to a {ref.kind.kind}; its columns are "
                            f"{', '.join(ref.kind.columns)}", file=file, card=ref.name, field=column)
        raise DataError(f"no editable column {column!r}{suggest(column, list(ref.kind.columns))}",
                        file=file, card=ref.name, field=column)

    def _validate(self, raw: dict, card: str | None = None, column: str | None = None, key: str | None = None):
        """The pool ``raw`` describes, validated by the game's own loader; a problem
        names the real file, the card and the field."""
        with tempfile.TemporaryDirectory(prefix="workbench-tweak-") as tmp:
            tmp_path = Path(tmp)
            for name in self.spec.files:
                text = dump_yaml(raw[name], fast=True) if name in raw else (self.folder / name).read_text(encoding="utf-8")
                storage.scratch_write(tmp_path, name, text)
            try:
                # an edited name that looks like another card's is refused as the loader refuses it
                check_pool_names(tmp_path, self.spec.files, raw)   # the edited data, not read again
                return self.spec.load(tmp_path)
            except DataError as exc:
                real = str(self.folder / Path(exc.file).name) if exc.file else None
                # the loader names a card by its key in the file; say the name the designer used
                named = card if exc.card is None or exc.card == key else exc.card
                raise DataError(exc.message, file=real, card=named, field=exc.field or column) from None
            except (ValueError, TypeError, KeyError) as exc:  # a rule the models do not cover
                raise DataError(f"the game cannot read this value: {exc}", card=card, field=column) from None

    def _build_graph(self, cards):
        return self.graphs.build_graph(cards)

    def _run_analyses(self, cards, graph) -> dict:
        return self.graphs.analyses(cards, graph)

    def _compare_analyses(self, before: dict, after: dict, **edit) -> EditReport:
        return diff_status(before, after, **edit)

    def _travel(self, source: list, target: list, what: str) -> EditReport:
        if not source:
            raise WorkbenchError(f"nothing to {what}")
        raw, card, column = source.pop()
        current = self.raw
        report = self._commit(raw, self._validate(raw, card, column), card, column, None, None)
        target.append((current, card, column))
        return report

    def _played(self, card: str) -> bool:
        try:
            return pool_edit.find(self.raw, self.catalogue, card).kind.played
        except DataError:
            return False


def diff_status(before: dict, after: dict, *, card=None, field=None, old=None, new=None) -> EditReport:
    """Compare two runs of a card graph's ``analyses``: cards that became dead or
    live, never reachable, dominated; cost changes; a new bottleneck."""
    rep = EditReport(card=card, field=field, old=old, new=new, live_word="live")
    sb = {(r["kind"], r["card"]): r for r in before["card_status"].iter_rows(named=True)}
    sa = {(r["kind"], r["card"]): r for r in after["card_status"].iter_rows(named=True)}
    for key in sorted(set(sb) | set(sa)):
        was, now = sb.get(key), sa.get(key)
        name = key[1]
        if now is None or was is None:
            rep.notes.append(f"{name} ({key[0]}) {'added' if was is None else 'removed'}")
            continue
        if now["dead"] and not was["dead"]:
            rep.became_dead.append(name)
        if now["dead_reason"] and now["dead_reason"] != was["dead_reason"]:
            rep.notes.append(f"{name}: {now['dead_reason']}")
        if was["dead"] and not now["dead"]:
            rep.became_loadable.append(name)
        if was["dominated_by"] != now["dominated_by"]:
            rep.dominance_changes.append({"card": name, "before": was["dominated_by"], "after": now["dominated_by"]})
        if was["cost"] != now["cost"]:
            rep.cost_changes.append({"card": name, "before": was["cost"] or "nothing", "after": now["cost"] or "nothing",
                                     "what": "cost"})
        if was["gives"] != now["gives"]:
            rep.cost_changes.append({"card": name, "before": was["gives"] or "nothing",
                                     "after": now["gives"] or "nothing", "what": "gives"})
    # the table's first column names what it weighs (a track, a sphere, a resource)
    key = after["bottlenecks"].columns[0]

    def top(table):
        hit = table.filter(pl.col("bottleneck"))
        return hit[key][0] if hit.height else None

    tb, ta = top(before["bottlenecks"]), top(after["bottlenecks"])
    if tb != ta:
        rep.notes.append(f"bottleneck: {ta or 'none'} (was {tb or 'none'})")
    return rep


__all__ = ["PoolTweakSession", "diff_status", "graph_module"]
