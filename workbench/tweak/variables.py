"""Balance variables: a card value a balance search may change, and how far, and
the ``--vary`` patterns of games whose cards are a catalogue of kinds.

Syntax (one ``--vary`` each)::

    KIND.NAME.COLUMN[RANGE]

KIND a card kind of the game's catalogue (singular or plural) or ``*``; NAME a
card name or a shell pattern over names (case-insensitive); COLUMN a catalogue
column or a dotted path inside the card holding a whole number. RANGE is
``=LO..HI`` or ``+-N`` (default ``+-1``), never below 0. A game whose pool no
catalogue describes reads its own patterns in its session's ``variables``.

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

@dataclass(frozen=True)
class Variable:
    card: str
    field: str
    kind: str          # a card kind, or cell (a setting, a table cell or a coded entry)
    current: int
    low: int
    high: int
    provenance: str    # draft, or seed (only with allow_seed)

    @property
    def name(self) -> str:
        return f"{self.card}.{self.field}"


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
