"""Meaning Made's ``--vary`` patterns: which of its card values a balance search
may change, and how far.

Syntax (one ``--vary`` each)::

    patterns.*.cost              every Pattern's token costs (its E, I and S), each +-1
    initiatives.*.order_spaces   every Initiative's Contribution Order spaces, +-1
    initiatives.Quiet*.cost=0..3 those Initiatives' token costs anywhere from 0 to 3
    patterns.Shell.E+-2          one value, within 2 of where it is

``KIND.NAME.FIELD[RANGE]``: KIND is ``patterns`` or ``initiatives`` (settings,
Resolution Table cells and Event codes: :mod:`.cells`); NAME a card name or a
shell pattern over names (case-insensitive); FIELD a numeric column of the
session (``E``, ``I``, ``S``, ``V``, ``vitals``, ``contributors``,
``patterns_in_play``, ``order_spaces``, ``meaning``) or ``cost`` (the token
columns the card already requires). RANGE is ``=LO..HI`` or ``+-N`` (default
``+-1``), never below the field's floor. Provenance as in
:mod:`workbench.tweak.variables`.
"""

from __future__ import annotations

import fnmatch
import re

from workbench.core.errors import WorkbenchError, suggest
from workbench.tweak.variables import Variable

from . import cells

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
    out: dict[str, Variable] = {}
    protected: list[str] = []
    for text in patterns:
        if cells.is_kind(text):
            # settings, Resolution Table cells, Event codes (.cells)
            for card, f, current, low, high, prov in cells.expand(text, raw):
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
                                 f"{suggest(m['kind'], list(KINDS) + list(cells.KINDS))}")
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
