"""Vary patterns: which card values a balance search may change, and how far.

Syntax (one ``--vary`` each)::

    patterns.*.cost              every Pattern's token costs (its E, I and S), each +-1
    initiatives.*.order_spaces   every Initiative's Contribution Order spaces, +-1
    initiatives.Quiet*.cost=0..3 those Initiatives' token costs anywhere from 0 to 3
    patterns.Shell.E+-2          one value, within 2 of where it is

``KIND.NAME.FIELD[RANGE]``: KIND is ``patterns`` or ``initiatives`` (settings,
Resolution Table cells and Event codes: :mod:`workbench.tweak.mm_cells`); NAME a
card name or a shell pattern over names (case-insensitive); FIELD a numeric
column of the tweak session (``E``, ``I``, ``S``, ``V``, ``vitals``,
``contributors``, ``patterns_in_play``, ``order_spaces``, ``meaning``) or
``cost`` (the token columns the card already requires). RANGE is ``=LO..HI``
or ``+-N`` (default ``+-1``), never below the field's floor.

Provenance: a value may change only when it is ours. A card with ``provenance:
draft`` is ours throughout; on a ``provenance: seed`` card only the fields
listed in its ``draft_fields`` are. Seed values are left out (and counted as
protected) unless ``allow_seed`` is given.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from workbench.core.errors import WorkbenchError, suggest

if TYPE_CHECKING:  # the graphs package imports this module lazily; no cycle at run time
    from workbench.graphs.pool_edit import CardRef, Catalogue

KINDS = {"patterns": ("patterns.yaml", "patterns", "pattern"),
         "initiatives": ("initiatives.yaml", "initiatives", "initiative")}
TOKENS = ("E", "I", "S", "V")
#: numeric fields -> (applies to, lowest value allowed)
FIELDS = {"E": ("both", 0), "I": ("both", 0), "S": ("both", 0), "V": ("initiative", 0),
          "vitals": ("pattern", 0), "contributors": ("initiative", 1),
          "patterns_in_play": ("initiative", 0), "order_spaces": ("initiative", 1),
          "meaning": ("initiative", 0)}
#: the raw key a ``draft_fields`` list names for each field
DRAFT_KEY = {"E": "tokens", "I": "tokens", "S": "tokens", "V": "tokens", "vitals": "vitals",
             "contributors": "contributors", "patterns_in_play": "patterns_in_play",
             "order_spaces": "order_spaces", "meaning": "meaning"}

_VARY = re.compile(r"^\s*(?P<kind>[a-z]+)\.(?P<name>.+)\.(?P<field>[A-Za-z_]+)"
                   r"\s*(?:=\s*(?P<lo>\d+)\s*\.\.\s*(?P<hi>\d+)|(?:\+-|±)\s*(?P<delta>\d+))?\s*$")


@dataclass(frozen=True)
class Variable:
    card: str
    field: str
    kind: str          # pattern, initiative, or cell (a setting, table cell or Event code)
    current: int
    low: int
    high: int
    provenance: str    # draft, or seed (only with allow_seed)

    @property
    def name(self) -> str:
        return f"{self.card}.{self.field}"


def field_value(entry: dict, field: str) -> int:
    """The current value of a numeric field of a raw card entry."""
    req = entry.get("requirement") or {}
    if field in TOKENS:
        return int((req.get("tokens") or {}).get(field, 0))
    if field in ("vitals", "contributors", "patterns_in_play"):
        default = 1 if field == "contributors" else 0
        value = req.get(field)
        return int(default if value is None else value)
    return int(entry.get(field) or 0)


def is_draft(entry: dict, field: str) -> bool:
    if entry.get("provenance") == "draft":
        return True
    drafts = set(entry.get("draft_fields") or ())
    return DRAFT_KEY[field] in drafts or "requirement" in drafts


def expand_vary(patterns: list[str], raw: dict, *, allow_seed: bool = False) -> tuple[list[Variable], list[str]]:
    """The variables the patterns name in the card files ``raw`` (as
    :class:`~workbench.tweak.session.TweakSession` holds them), and the names of
    the seed values left out. A pattern that matches nothing is an error."""
    from . import mm_cells
    out: dict[str, Variable] = {}
    protected: list[str] = []
    for text in patterns:
        if mm_cells.is_kind(text):
            # settings, Resolution Table cells, Event codes (workbench.tweak.mm_cells)
            for card, f, current, low, high, prov in mm_cells.expand(text, raw):
                name = f"{card}.{f}"
                if prov != "draft" and not allow_seed:
                    if name not in protected:
                        protected.append(name)
                    continue
                out[name] = Variable(card, f, "cell", current, low, high, prov)
            continue
        m = _VARY.match(text or "")
        if not m:
            raise WorkbenchError(f"cannot read --vary {text!r}: write KIND.NAME.FIELD, e.g. 'patterns.*.cost' "
                                 "or 'initiatives.*.order_spaces=1..4'")
        if m["kind"] not in KINDS:
            raise WorkbenchError(f"--vary {text!r}: no card kind {m['kind']!r}"
                                 f"{suggest(m['kind'], list(KINDS) + list(mm_cells.KINDS))}")
        file, key, kind = KINDS[m["kind"]]
        field = m["field"]
        if field != "cost" and field not in FIELDS:
            raise WorkbenchError(f"--vary {text!r}: no numeric field {field!r}{suggest(field, list(FIELDS) + ['cost'])}")
        if field != "cost" and FIELDS[field][0] not in ("both", kind):
            raise WorkbenchError(f"--vary {text!r}: {field!r} is not a field of a {kind}")
        entries = [e for e in raw[file][key] if fnmatch.fnmatchcase(str(e["name"]).lower(), m["name"].lower())]
        if not entries:
            names = [e["name"] for e in raw[file][key]]
            raise WorkbenchError(f"--vary {text!r}: no {kind} named like {m['name']!r}{suggest(m['name'], names)}")
        matched = 0
        for entry in entries:
            if field == "cost":
                fields = [t for t in TOKENS if FIELDS[t][0] in ("both", kind) and field_value(entry, t)]
            else:
                fields = [field]
            for f in fields:
                matched += 1
                current = field_value(entry, f)
                floor = FIELDS[f][1]
                if m["lo"] is not None:
                    low, high = max(floor, int(m["lo"])), int(m["hi"])
                else:
                    delta = int(m["delta"]) if m["delta"] is not None else 1
                    low, high = max(floor, current - delta), current + delta
                if low > high:
                    raise WorkbenchError(f"--vary {text!r}: the range's low end comes first")
                name = f"{entry['name']}.{f}"
                if not is_draft(entry, f) and not allow_seed:
                    if name not in protected:
                        protected.append(name)
                    continue
                out[name] = Variable(entry["name"], f, kind, current, min(low, current), max(high, current),
                                     "draft" if is_draft(entry, f) else "seed")
        if not matched:
            raise WorkbenchError(f"--vary {text!r}: the matching cards have no {field} value")
    if not out:
        raise WorkbenchError(f"every value --vary names is a seed value ({len(protected)}, e.g. {protected[0]}); "
                             "pass --allow-seed to vary them" if protected else "--vary names no value")
    return list(out.values()), protected


# -- games whose cards are a catalogue of kinds (graphs.pool_edit.Catalogue) --------------

_POOL_VARY = re.compile(r"^\s*(?P<kind>[a-z_*]+)\.(?P<name>[^.]+)\.(?P<field>[A-Za-z_][A-Za-z0-9_.]*?)"
                        r"\s*(?:=\s*(?P<lo>\d+)\s*\.\.\s*(?P<hi>\d+)|(?:\+-|±)\s*(?P<delta>\d+))?\s*$")


def _chain(raw: dict, ref: "CardRef", path: str) -> list[tuple[object, object]]:
    """(node, the key taken out of it next) from the file's root down to the value."""
    from workbench.graphs.pool_edit import _steps
    out = []
    node = raw[ref.kind.file]
    for step in ref.kind.path:
        out.append((node, step))
        node = node[step]
    if ref.kind.single is None:
        out.append((node, ref.key if isinstance(node, dict) else None))
        node = ref.card
    for step in _steps(path):
        out.append((node, step))
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and -len(node) <= step < len(node):
            node = node[step]
        else:
            break
    return out


def pool_provenance(raw: dict, ref: "CardRef", path: str) -> str:
    """``seed`` or ``draft`` for the value at ``path`` of a card: the innermost
    ``provenance`` on the way from the file's root to the value, where a seed
    block's ``draft_fields`` naming the next key makes it ours. A value nothing
    marks counts as seed (it is never changed without --allow-seed)."""
    prov = "seed"
    for node, step in _chain(raw, ref, path):
        if isinstance(node, dict):
            if node.get("provenance") in ("seed", "draft"):
                prov = node["provenance"]
            if prov == "seed" and step is not None and str(step) in {str(x) for x in node.get("draft_fields") or ()}:
                prov = "draft"
    return prov


def expand_pool_vary(patterns: list[str], raw: dict, catalogue: "Catalogue", *, allow_seed: bool = False
                     ) -> tuple[list[Variable], list[str]]:
    """The whole-number values ``KIND.NAME.COLUMN[RANGE]`` names in a catalogue
    game's card files (KIND a catalogue kind, singular or plural, or ``*``; NAME
    a card name or shell pattern; COLUMN a catalogue column or a dotted path in
    the card), and the seed values left out."""
    from workbench.graphs import pool_edit
    kinds = {k.kind for k in catalogue.kinds}
    every = list(pool_edit.cards(raw, catalogue))
    shared = {c.name.lower() for c in every if sum(d.name.lower() == c.name.lower() for d in every) > 1}
    out: dict[str, Variable] = {}
    protected: list[str] = []
    for text in patterns:
        m = _POOL_VARY.match(text or "")
        if not m:
            raise WorkbenchError(f"cannot read --vary {text!r}: write KIND.NAME.COLUMN, e.g. "
                                 f"'{catalogue.kinds[0].kind}s.*.{next(iter(catalogue.kinds[0].columns))}=0..3'")
        kind = m["kind"]
        if kind != "*" and kind not in kinds:
            if kind.endswith("s") and kind[:-1] in kinds:
                kind = kind[:-1]
            else:
                raise WorkbenchError(f"--vary {text!r}: no card kind {kind!r}{suggest(kind, sorted(kinds))}")
        refs = [c for c in every if kind in ("*", c.kind.kind)
                and fnmatch.fnmatchcase(c.name.lower(), m["name"].lower())]
        if not refs:
            names = [c.name for c in every if kind in ("*", c.kind.kind)]
            raise WorkbenchError(f"--vary {text!r}: no {kind if kind != '*' else 'card'} named like "
                                 f"{m['name']!r}{suggest(m['name'], names)}")
        field, matched = m["field"], 0
        for ref in refs:
            path = ref.kind.columns.get(field, field)
            if path == field and field not in ref.kind.columns and field in catalogue.columns:
                continue  # a column of another kind
            current = pool_edit.get_path(ref.card, path)
            if not isinstance(current, int) or isinstance(current, bool):
                continue
            matched += 1
            if m["lo"] is not None:
                low, high = int(m["lo"]), int(m["hi"])
            else:
                delta = int(m["delta"]) if m["delta"] is not None else 1
                low, high = max(0, current - delta), current + delta
            if low > high:
                raise WorkbenchError(f"--vary {text!r}: the range's low end comes first")
            card = f"{ref.kind.kind}:{ref.name}" if ref.name.lower() in shared else ref.name
            name = f"{card}.{field}"
            prov = pool_provenance(raw, ref, path)
            if prov != "draft" and not allow_seed:
                if name not in protected:
                    protected.append(name)
                continue
            out[name] = Variable(card, field, ref.kind.kind, current, min(low, current), max(high, current), prov)
        if not matched:
            cols = sorted({c for r in refs for c in r.kind.columns})
            raise WorkbenchError(f"--vary {text!r}: the matching cards have no whole-number {field!r} "
                                 f"(columns: {', '.join(cols)})")
    if not out:
        raise WorkbenchError(f"every value --vary names is a seed value ({len(protected)}, e.g. {protected[0]}); "
                             "pass --allow-seed to vary them" if protected else "--vary names no value")
    return list(out.values()), protected
