"""Meaning Made's live-tweak session: its card files (Patterns and Initiatives on
numbered Layers, the settings, Resolution Tables and Event deck) as the Cards,
Graph and Balance pages edit them.

The generic session (:class:`workbench.tweak.session.TweakSession`) holds what
every game's session shares; this subclass says how Meaning Made's flat columns
(token costs, Layer icons, bonuses, Consequence codes) are read from and written
into the YAML, which graph is built (:mod:`.card_graph`, its analyses compared
by :func:`diff_analyses`), how the settings and table cells a balance variable
names are set (:mod:`.cells`), and that the graph is drawn on Layers.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from workbench.core import cardfile, extra_fields
from workbench.core.counting import counted
from workbench.core.data import cards_dir, dump_yaml
from workbench.core.errors import DataError, WorkbenchError, suggest
from workbench.core.names import check_pool_names
from workbench.graphs import pool_edit
from workbench.tweak.session import EditReport, TweakSession, _first_card_game, _int, check_text

from . import card_graph, cells, vary

#: the files a session edits: the card lists, and (for balance variables and edits by
#: name, .cells) the settings, Resolution Tables and Event deck
EDITABLE_FILES = ("patterns.yaml", "initiatives.yaml", "settings.yaml", "tables.yaml", "events.yaml")
TOKEN_COLUMNS = ("E", "I", "S")
#: the card lists of those files, as the Cards page's add, duplicate and delete find them
LIST_KINDS = (pool_edit.CardKind("pattern", "patterns.yaml", ("patterns",), {}),
              pool_edit.CardKind("initiative", "initiatives.yaml", ("initiatives",), {}))

#: flat column -> (applies to, meaning) for the editable table
COLUMNS = {
    "name": ("both", "card name (unique)"),
    "layer": ("both", "Layer 1-6 (Pattern) or 7-10 (Initiative)"),
    "E": ("both", "Energy required"),
    "I": ("both", "Insight required"),
    "S": ("both", "Support required"),
    "V": ("initiative", "Vitals boxes"),
    "icons": ("both", "Layer icons required, e.g. '1 1 2'"),
    "vitals": ("pattern", "Vitals paid to load"),
    "bonus": ("both", "one-time bonus, e.g. 'E+1' or 'vitals+1' ('' for none)"),
    "consequence": ("pattern", "Consequence code, e.g. 'individual 2' ('' for none)"),
    "contributors": ("initiative", "contributors required"),
    "completed": ("initiative", "Initiative Layers that must be completed first, e.g. '7 8'"),
    "patterns_in_play": ("initiative", "Patterns in play required"),
    "order_spaces": ("initiative", "Contribution Order spaces"),
    "meaning": ("initiative", "Meaning reward"),
    "penalty": ("initiative", "Completion Penalty code, e.g. 'group 3' ('' for none)"),
    "provenance": ("both", "seed or draft"),
    "flavour": ("both", "flavour text"),
}
EFFECT_KEYS = ("meaning", "vitals", "legacy", "E", "I", "S", "lose_tokens")


def _int_list(value, what: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        items = list(value)
    else:
        items = [x for x in str(value).replace(",", " ").split() if x]
    return sorted(_int(x, what) for x in items)


def _effect(value) -> dict | None:
    """'E+1 vitals+1' (or a mapping) -> an effect mapping; '' -> None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, dict):
        return dict(value)
    effect: dict[str, Any] = {}
    for part in str(value).replace(",", " ").split():
        if part.startswith("(") and part.endswith(")"):
            effect["target"] = part[1:-1]
            continue
        for sign in "+-":
            if sign in part[1:]:
                key, _, num = part.partition(sign)
                break
        else:
            raise ValueError(f"cannot read {part!r}: write e.g. E+1 or vitals+1")
        key = {"e": "E", "i": "I", "s": "S"}.get(key.lower(), key.lower())
        if key not in EFFECT_KEYS:
            raise ValueError(f"unknown bonus {key!r}{suggest(key, EFFECT_KEYS)}")
        effect[key] = _int(num, key) * (-1 if sign == "-" else 1)
    return effect


def _code(value) -> dict | None:
    """'group 3' / 'individual 2' -> {table, code}; '' -> None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, dict):
        return dict(value)
    parts = str(value).split()
    if len(parts) != 2 or parts[0] not in ("group", "individual"):
        raise ValueError(f"write 'group N' or 'individual N', not {value!r}")
    return {"table": parts[0], "code": _int(parts[1], "code")}


def _effect_text(effect: dict | None) -> str:
    if not effect:
        return ""
    parts = [f"{k}{effect[k]:+d}" for k in EFFECT_KEYS if effect.get(k)]
    if effect.get("target") and effect["target"] != "affected":
        parts.append(f"({effect['target']})")
    return " ".join(parts)


def _code_text(code: dict | None) -> str:
    return f"{code['table']} {code['code']}" if code else ""


def _follow_rename(raw: dict, kind: str, old: str, new: str) -> None:
    """A renamed Initiative that sits in the End Initiative slot stays there: the
    settings name the slot's card, so the rename is carried to them (the card is the
    same card; refusing the rename would make the slot's card the only one a
    designer cannot rename)."""
    settings = raw.get("settings.yaml")
    if kind == "initiative" and isinstance(settings, dict) and settings.get("end_initiative") == old:
        settings["end_initiative"] = new


class MeaningMadeSession(TweakSession):
    """Meaning Made's card pool, editable: Patterns and Initiatives by flat column,
    settings, Resolution Table cells and Event codes by name."""

    #: cards sit on numbered Layers; the session draws them (:meth:`live_view`)
    layout = "layered"
    live_word = "loadable"

    def __init__(self, game_id: str | None = None, folder: str | Path | None = None):
        from workbench.core.registry import get_game
        game_id = game_id or _first_card_game()
        self.game_id = game_id
        self.game = get_game(game_id)
        load_cards = self.game.pool_spec.load
        self._load_cards = load_cards
        self.folder = Path(folder) if folder else cards_dir(game_id)
        self.file_names: tuple[str, ...] = EDITABLE_FILES
        self.files = {name: cardfile.load(self.folder / name) for name in self.file_names}
        self.raw = {name: copy.deepcopy(f.data) for name, f in self.files.items()}
        self.cards = load_cards(self.folder)
        self.baseline = self.cards
        self._undo: list[tuple[dict, str, str]] = []
        self._redo: list[tuple[dict, str, str]] = []
        self.dirty = False

    def _build_graph(self, cards):
        return card_graph.build_graph(cards)

    def _run_analyses(self, cards, graph) -> dict:
        return card_graph.analyses(cards, graph)

    def _compare_analyses(self, before: dict, after: dict, **edit) -> EditReport:
        return diff_analyses(before, after, **edit)

    @property
    def columns(self) -> dict[str, tuple[str, str]]:
        """Editable flat columns: name -> (card kinds it applies to, meaning)."""
        return dict(COLUMNS)

    def figure(self, selected: str | None = None, *, width: int = 760, height: int = 520):
        """The layered drawing of the card graph with the analyses marked."""
        from .graph_view import dependency_figure
        return dependency_figure(self._graph, self._analyses, selected=selected, width=width, height=height)

    def live_view(self, on_select=None, **size):
        """The layered drawing a page keeps and updates edit by edit."""
        from .graph_view import DependencyView
        return DependencyView(on_select=on_select, **size)

    def _node_place(self, node: dict) -> str:
        return f"Layer {node['layer']}"

    def _node_gives(self, node: dict) -> str:
        return ""

    def _entries(self):
        for kind in LIST_KINDS:
            for entry in self.raw[kind.file][kind.path[0]]:
                yield kind.file, kind.kind, entry

    def _card_catalogue(self) -> pool_edit.Catalogue:
        """The card kinds as :mod:`workbench.tweak.card_ops` finds them."""
        return pool_edit.Catalogue(self.game_id, LIST_KINDS)

    @property
    def kind_columns(self) -> dict[str, list[str]]:
        """Card kind -> the flat columns that apply to it, in table order (the
        columns of one sheet when the pool goes to a spreadsheet)."""
        return {kind: [c for c, (applies, _) in COLUMNS.items() if applies in ("both", kind)]
                for kind in ("pattern", "initiative")}

    def entries(self):
        """``(kind, name, card mapping, file)`` of every card, in table order; the
        mappings are the session's own (read them, never change them)."""
        for file, kind, entry in self._entries():
            yield kind, str(entry.get("name", "")), entry, self.raw[file]

    @property
    def extra_kinds(self) -> frozenset[str]:
        """The card kinds whose cards keep extra fields of the designer's own
        (:mod:`workbench.core.extra_fields`; edited as column ``extra.NAME``)."""
        return frozenset(k.kind for k in LIST_KINDS)

    def deck_sheets(self) -> dict[str, tuple[list[str], list[list]]]:
        """Decks kept outside the card lists, as a spreadsheet shows them: the Event
        deck (its letter is its name, its Consequence Code the one value it has)."""
        rows = [[str(e["id"]), e.get("code"), e.get("provenance")] for e in self.raw["events.yaml"]["events"]]
        return {"event": (["name", "code", "provenance"], rows)}

    def deck_edit(self, kind: str, name: str, column: str, value) -> tuple:
        """The :meth:`edit_many` item that sets ``column`` of a deck card, or a
        refusal saying what a sheet can change there."""
        if kind == "event" and column == "code":
            return (f"event {name}", "code", value)
        raise WorkbenchError(f"an Event card's {column} is not edited from a sheet (only its code); "
                             "change it in events.yaml")

    def table(self) -> pl.DataFrame:
        """The pool, one row per card, with the editable columns of :data:`COLUMNS`."""
        rows = []
        for _, kind, e in self._entries():
            req = e.get("requirement") or {}
            tokens = req.get("tokens") or {}
            rows.append({
                "name": e["name"], "kind": kind, "layer": e["layer"],
                "E": tokens.get("E", 0), "I": tokens.get("I", 0), "S": tokens.get("S", 0),
                "V": tokens.get("V", 0) if kind == "initiative" else 0,
                "icons": " ".join(str(x) for x in req.get("layers") or []),
                "vitals": req.get("vitals", 0) if kind == "pattern" else 0,
                "bonus": _effect_text(e.get("bonus")),
                "consequence": _code_text(e.get("consequence")) if kind == "pattern" else "",
                "contributors": req.get("contributors", 1) if kind == "initiative" else 0,
                "completed": " ".join(str(x) for x in req.get("completed") or []),
                "patterns_in_play": req.get("patterns_in_play", 0) if kind == "initiative" else 0,
                "order_spaces": e.get("order_spaces", 0) if kind == "initiative" else 0,
                "meaning": e.get("meaning", 0) if kind == "initiative" else 0,
                "penalty": _code_text(e.get("penalty")) if kind == "initiative" else "",
                "provenance": e.get("provenance", ""), "flavour": e.get("flavour", ""),
            })
        return pl.DataFrame(rows)

    def _find(self, card: str, raw: dict):
        for kind in LIST_KINDS:
            for entry in raw[kind.file][kind.path[0]]:
                if str(entry.get("name", "")).lower() == card.strip().lower():
                    return kind.file, kind.kind, entry
        names = [e["name"] for _, _, e in self._entries()]
        raise DataError(f"no card named {card!r}{suggest(card, names)}", card=card)

    # -- balance ---------------------------------------------------------------
    def variables(self, patterns: list[str], *, allow_seed: bool = False) -> tuple[list, list[str]]:
        """The numeric draft values the vary ``patterns`` name (``Variable``
        list) and the seed values they leave out (see .vary)."""
        return vary.expand_vary(patterns, self.raw, allow_seed=allow_seed)

    def with_values(self, values: dict[str, int], variables: list) -> dict:
        """A copy of the card files with each variable set to ``values[name]``
        (written as an edit writes it), validated by the game's loader; a bad
        pool raises DataError and the session is unchanged."""
        raw = copy.deepcopy(self.raw)
        for var in variables:
            value = values.get(var.name, var.current)
            if value != var.current:
                if var.kind == "cell":
                    cells.put(raw, var.card, var.field, int(value))
                    continue
                _, _, entry = self._find(var.card, raw)
                self._set(entry, var.kind, var.field, int(value))
        self._validate(raw)
        return raw

    def value_of(self, card: str, field: str) -> int | str:
        """A variable's value in the session's files now."""
        if self._is_cell(card):
            return cells.get(self.raw, card, field)
        _, _, entry = self._find(card, self.raw)
        try:
            return vary.field_value(entry, field)
        except (TypeError, ValueError):
            return entry.get(field)   # a text field (flavour, art): its text as stored

    def _is_cell(self, card: str) -> bool:
        """Whether ``card`` names a setting, table row or Event card rather than
        a Pattern or Initiative (a card of the pool wins: a Pattern may be
        called "Event Horizon")."""
        if not cells.is_cell(card):
            return False
        wanted = card.strip().lower()
        return not any(str(e.get("name", "")).lower() == wanted for _, _, e in self._entries())

    # -- editing -------------------------------------------------------------
    def _put(self, raw: dict, card: str, column: str, value) -> tuple[str, Any, Any, dict]:
        """Write one edit into ``raw`` (not yet validated): the card's name, the old
        and new values, and what :meth:`_validate` needs to name the edit in a refusal."""
        check_text(value, card, column)
        if self._is_cell(card):
            try:
                old = cells.put(raw, card, column, _int(value, column))
            except (ValueError, WorkbenchError) as exc:
                raise DataError(str(exc), card=card, field=column) from None
            return card, old, value, {}
        file, kind, entry = self._find(card, raw)
        try:
            old = self._set(entry, kind, column, value)
        except ValueError as exc:
            raise DataError(str(exc), file=str(self.folder / file), card=entry["name"], field=column) from None
        if column == "name":
            _follow_rename(raw, kind, str(old), entry["name"])
        return entry["name"], old, value, {}

    def _set(self, entry: dict, kind: str, column: str, value):
        """Write ``value`` into ``entry``; returns the previous flat value."""
        if column.startswith(extra_fields.EXTRA + "."):   # the designer's own field; None removes it
            return extra_fields.put(entry, column[len(extra_fields.EXTRA) + 1:], value)
        req = entry.setdefault("requirement", {})
        tokens = req.setdefault("tokens", {})
        if "." in column:
            *path, last = column.split(".")
            target = entry
            for step in path:
                if not isinstance(target.get(step), dict):
                    target[step] = {}
                target = target[step]
            old = target.get(last)
            target[last] = value
            return old
        if column == "draft_fields":   # provenance of single fields (docs/conventions.md)
            old = entry.get("draft_fields", [])
            words = [w for w in str(value or "").replace(",", " ").split() if w] \
                if not isinstance(value, list) else list(value)
            if words:
                entry["draft_fields"] = words
            else:
                entry.pop("draft_fields", None)
            return old
        if column not in COLUMNS:
            raise ValueError(f"no editable column {column!r}{suggest(column, COLUMNS)}")
        applies = COLUMNS[column][0]
        if applies not in ("both", kind):
            raise ValueError(f"{column!r} does not apply to a {kind}")
        if column == "name":
            old, entry["name"] = entry["name"], str(value).strip()
        elif column == "layer":
            old, entry["layer"] = entry["layer"], _int(value, "layer")
        elif column in ("E", "I", "S", "V"):
            old = tokens.get(column, 0)
            n = _int(value, column)
            if n:
                tokens[column] = n
            else:
                tokens.pop(column, None)
        elif column == "icons":
            old, req["layers"] = req.get("layers", []), _int_list(value, "icons")
        elif column == "completed":
            old, req["completed"] = req.get("completed", []), _int_list(value, "completed")
        elif column in ("vitals", "contributors", "patterns_in_play"):
            old, req[column] = req.get(column), _int(value, column)
        elif column in ("order_spaces", "meaning"):
            old, entry[column] = entry.get(column), _int(value, column)
        elif column == "bonus":
            old, entry["bonus"] = entry.get("bonus"), _effect(value)
        elif column in ("consequence", "penalty"):
            old, entry[column] = entry.get(column), _code(value)
        else:  # provenance, flavour
            old, entry[column] = entry.get(column), value if value is not None else ""
        return old

    def _validate(self, raw: dict, **where):
        """The pool ``raw`` describes, validated exactly as the loader validates files."""
        with tempfile.TemporaryDirectory(prefix="workbench-tweak-") as tmp:
            tmp_path = Path(tmp)
            from workbench.core import storage
            for item in self.folder.iterdir():
                if item.suffix == ".yaml" and item.name not in EDITABLE_FILES:
                    storage.scratch_copy(item, tmp_path)  # bytes: the loader judges them
            for name in EDITABLE_FILES:
                storage.scratch_write(tmp_path, name, dump_yaml(raw[name], fast=True))
            try:
                # an edited name that looks like another card's is refused as the loader refuses it
                check_pool_names(tmp_path, sorted(q.name for q in tmp_path.glob("*.yaml")), raw)
                return self._load_cards(tmp_path)
            except DataError as exc:
                real = str(self.folder / Path(exc.file).name) if exc.file else None
                message = str(exc).split(": ", 1)[-1] if exc.file or exc.card or exc.field else str(exc)
                raise DataError(message, file=real, card=exc.card, field=exc.field) from None


def diff_analyses(before: dict, after: dict, *, card=None, field=None, old=None, new=None) -> EditReport:
    """Compare two runs of :func:`.card_graph.analyses`: Patterns that became dead or
    loadable or changed dominance, cheapest loads, Initiative feasibility."""
    rep = EditReport(card=card, field=field, old=old, new=new)
    vb = {r["pattern"]: r for r in before["pattern_viability"].iter_rows(named=True)}
    va = {r["pattern"]: r for r in after["pattern_viability"].iter_rows(named=True)}
    for name in sorted(set(vb) | set(va)):
        was, now = vb.get(name), va.get(name)
        was_dead = was["dead"] if was else True
        now_dead = now["dead"] if now else True
        if now_dead and not was_dead:
            rep.became_dead.append(name)
        if was_dead and not now_dead:
            rep.became_loadable.append(name)
        if was and now and was["dominated_by"] != now["dominated_by"]:
            rep.dominance_changes.append({"card": name, "before": was["dominated_by"], "after": now["dominated_by"]})
    lb = {r["pattern"]: r for r in before["cheapest_loads"].iter_rows(named=True)}
    la = {r["pattern"]: r for r in after["cheapest_loads"].iter_rows(named=True)}
    for name in sorted(set(lb) & set(la)):
        b, a = lb[name], la[name]
        if (b["actions"], b["tokens"]) != (a["actions"], a["tokens"]):
            rep.cost_changes.append({"card": name,
                                     "before": f"{counted(b['actions'], 'action')} / {counted(b['tokens'], 'token')}",
                                     "after": f"{counted(a['actions'], 'action')} / {counted(a['tokens'], 'token')}"})
    fb = {(r["initiative"], r["players"]): r["feasible"] for r in before["initiative_feasibility"].iter_rows(named=True)}
    fa = {(r["initiative"], r["players"]): r["feasible"] for r in after["initiative_feasibility"].iter_rows(named=True)}
    for key in sorted(set(fb) | set(fa)):
        if fb.get(key) != fa.get(key):
            rep.feasibility_changes.append({"card": key[0], "players": key[1],
                                            "before": bool(fb.get(key)), "after": bool(fa.get(key))})
    return rep
