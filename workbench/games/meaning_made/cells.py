"""Meaning Made values that are not on a Pattern or an Initiative: settings,
Resolution Table cells and Event codes, as balance variables and tweak edits.

Vary syntax (one ``--vary`` each)::

    settings.order_rewards.0          the first Contribution Order reward (settings.yaml)
    settings.stability_cap=1..4       a whole-number setting
    settings.tokens.S                 one entry of a setting that is a mapping
    event_table.*.meaning@7..10       each Event's Meaning change in columns 7-10
    group_table.3.vitals@1            one cell of the Group Consequence Table
    events.G.code=1..6                a draft Event card's Consequence Code

``KIND.NAME.FIELD[RANGE]``: for ``settings`` NAME is a setting (or a shell
pattern over them) and FIELD ``value`` (or nothing: ``settings.meaning``), a
list index or a mapping key; for the three tables (``event_table``,
``group_table``, ``individual_table``) NAME is a row key (A-L, 1-6) and FIELD
an outcome key (``meaning``, ``vitals``, ``legacy``, ``E``, ``I``, ``S``,
``lose_tokens``) with ``@COL`` or ``@LO..HI`` for the columns (default all ten);
for ``events`` FIELD is ``code``. RANGE is ``=LO..HI`` or ``+-N`` (default
+-1). A table cell's changes may be negative (an Event's Meaning loss is
written -1); counts (``lose_tokens``, a Consequence Code, settings) never go
below their floor.

Provenance: a settings key is seed or draft as settings.yaml's ``provenance``
mapping says; a table row or an Event card by its own ``provenance``. Seed
values are left out unless ``allow_seed``.

A variable of this module has a *card* such as ``settings``, ``event table A``
or ``event G`` and a *field* such as ``order_rewards[0]``, ``meaning@7`` or
``code``; :func:`get` and :func:`put` read and write it in the raw card files,
so the tweak session edits it as it edits a card's column.
"""

from __future__ import annotations

import fnmatch
import re

from workbench.core.errors import WorkbenchError, suggest

TABLES = {"event_table": "event", "group_table": "group", "individual_table": "individual"}
KINDS = ("settings", "events", *TABLES)
OUTCOME_KEYS = ("meaning", "vitals", "legacy", "E", "I", "S", "lose_tokens")
#: outcome keys that count something (never below 0); the rest are changes
COUNT_KEYS = {"lose_tokens"}

_VARY = re.compile(r"^\s*(?P<kind>[a-z_]+)\.(?P<name>[^.=+±@]+?)(?:\.(?P<field>[A-Za-z0-9_]+))?"
                   r"(?:@(?P<c1>\d+)(?:\s*\.\.\s*(?P<c2>\d+))?)?"
                   r"\s*(?:=\s*(?P<lo>-?\d+)\s*\.\.\s*(?P<hi>-?\d+)|(?:\+-|±)\s*(?P<delta>\d+))?\s*$")
_CARD = re.compile(r"^(?:(?P<table>event|group|individual) table (?P<row>\S+)|event (?P<event>\S+)|settings)$",
                   re.IGNORECASE)
_FIELD = re.compile(r"^(?P<key>[A-Za-z_]+)(?:\[(?P<index>[^\]]+)\])?(?:@(?P<col>\d+))?$")


def is_kind(text: str) -> bool:
    """Whether a ``--vary`` pattern names one of this module's kinds."""
    head = (text or "").strip().split(".", 1)[0]
    return head in KINDS


def is_cell(card: str) -> bool:
    """Whether a variable's card names a setting, a table row or an Event card."""
    return bool(_CARD.match((card or "").strip()))


def _settings_provenance(raw: dict, key: str) -> str:
    prov = (raw["settings.yaml"].get("provenance") or {}).get(key, "seed")
    return "draft" if prov == "draft" else "seed"


def _row(raw: dict, table: str, key: str) -> dict:
    rows = raw["tables.yaml"][table]
    for row in rows:
        if str(row["key"]).lower() == str(key).lower():
            return row
    raise WorkbenchError(f"no row {key!r} in the {table} table{suggest(str(key), [str(r['key']) for r in rows])}")


def _event(raw: dict, key: str) -> dict:
    cards = raw["events.yaml"]["events"]
    for card in cards:
        if str(card["id"]).lower() == str(key).lower():
            return card
    raise WorkbenchError(f"no Event {key!r}{suggest(str(key), [str(c['id']) for c in cards])}")


def get(raw: dict, card: str, field: str) -> int:
    """The value of ``card``/``field`` (see the module docstring) in ``raw``;
    a name that holds no whole number is refused in one line."""
    c, f = _CARD.match(card.strip()), _FIELD.match(field.strip())
    if not c or not f:
        raise WorkbenchError(f"cannot read {card!r} {field!r} as a setting, table cell or Event code")
    if c["table"]:
        if f["key"] not in OUTCOME_KEYS:
            raise WorkbenchError(f"{card}: no outcome key {f['key']!r}{suggest(f['key'], OUTCOME_KEYS)}")
        cell = _row(raw, c["table"].lower(), c["row"])["outcomes"].get(int(f["col"] or 0))
        if cell is None:
            raise WorkbenchError(f"{card} has no column {f['col']} (write e.g. {f['key']}@7)")
        return int(cell.get(f["key"], 0) or 0)
    if c["event"]:
        if f["key"] != "code":
            raise WorkbenchError(f"{card}: an Event card has one value, its code")
        return int(_event(raw, c["event"])["code"])
    data = raw["settings.yaml"]
    keys = [k for k in data if k != "provenance"]
    if f["key"] not in keys:
        raise WorkbenchError(f"no setting {f['key']!r}{suggest(f['key'], keys)}")
    value = data[f["key"]]
    if f["index"] is not None:
        try:
            value = value[int(f["index"])] if isinstance(value, list) else value[f["index"]]
        except (KeyError, IndexError, ValueError, TypeError):
            raise WorkbenchError(f"setting {f['key']!r} has no entry {f['index']!r}") from None
    if not _whole(value):
        raise WorkbenchError(f"setting {field!r} is not a whole number (a list takes an index, "
                             "e.g. order_rewards[0]; a mapping a key, e.g. tokens[S])")
    return int(value)


def put(raw: dict, card: str, field: str, value: int) -> int:
    """Write ``value`` at ``card``/``field`` in ``raw`` (changed in place);
    returns the previous value. A table cell's key at 0 is left out, as the
    files write an outcome without it."""
    old = get(raw, card, field)
    c, f = _CARD.match(card.strip()), _FIELD.match(field.strip())
    value = int(value)
    if c["table"]:
        cell = _row(raw, c["table"].lower(), c["row"])["outcomes"][int(f["col"])]
        if value:
            cell[f["key"]] = value
        else:
            cell.pop(f["key"], None)
    elif c["event"]:
        _event(raw, c["event"])[f["key"]] = value
    elif f["index"] is not None:
        holder = raw["settings.yaml"][f["key"]]
        holder[int(f["index"]) if isinstance(holder, list) else f["index"]] = value
    else:
        raw["settings.yaml"][f["key"]] = value
    return old


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range(m, current: int, floor: int | None) -> tuple[int, int]:
    if m["lo"] is not None:
        low, high = int(m["lo"]), int(m["hi"])
        if low > high:
            raise WorkbenchError(f"--vary {m.string!r}: the range's low end comes first")
    else:
        delta = int(m["delta"]) if m["delta"] is not None else 1
        low, high = current - delta, current + delta
    if floor is not None:
        low, high = max(floor, low), max(floor, high)
    return min(low, current), max(high, current)


def expand(text: str, raw: dict) -> list[tuple[str, str, int, int, int, str]]:
    """``(card, field, current, low, high, provenance)`` for every value the
    pattern ``text`` names; a pattern that names nothing is an error."""
    m = _VARY.match(text or "")
    if not m:
        raise WorkbenchError(f"cannot read --vary {text!r}: write e.g. 'settings.order_rewards.0', "
                             "'event_table.*.meaning@7..10' or 'events.G.code'")
    kind, name, field = m["kind"], m["name"].strip(), m["field"]
    out = []
    if kind == "settings":
        if m["c1"]:
            raise WorkbenchError(f"--vary {text!r}: '@' picks table columns, not settings")
        data = raw["settings.yaml"]
        keys = [k for k in data if k != "provenance" and fnmatch.fnmatchcase(k.lower(), name.lower())]
        if not keys:
            raise WorkbenchError(f"--vary {text!r}: no setting named like {name!r}"
                                 f"{suggest(name, [k for k in data if k != 'provenance'])}")
        for key in keys:
            value = data[key]
            if field in (None, "value"):
                subs = [None] if _whole(value) else []
            elif isinstance(value, list) and field.isdigit() and int(field) < len(value):
                subs = [field] if _whole(value[int(field)]) else []
            elif isinstance(value, dict) and field in value:
                subs = [field] if _whole(value[field]) else []
            else:
                subs = []
            for sub in subs:
                where = f"{key}[{sub}]" if sub is not None else key
                current = get(raw, "settings", where)
                low, high = _range(m, current, 0)
                out.append(("settings", where, current, low, high, _settings_provenance(raw, key)))
        if not out:
            raise WorkbenchError(f"--vary {text!r}: no whole-number value there (a list takes an index, "
                                 "e.g. settings.order_rewards.0; a mapping a key, e.g. settings.tokens.S)")
        return out
    if kind == "events":
        if field != "code":
            raise WorkbenchError(f"--vary {text!r}: an Event card has one value, its code (events.G.code)")
        cards = [c for c in raw["events.yaml"]["events"] if fnmatch.fnmatchcase(str(c["id"]).lower(), name.lower())]
        if not cards:
            raise WorkbenchError(f"--vary {text!r}: no Event named like {name!r}")
        for c in cards:
            low, high = _range(m, int(c["code"]), 1)
            out.append((f"event {c['id']}", "code", int(c["code"]), low, high,
                        "draft" if c.get("provenance") == "draft" else "seed"))
        return out
    table = TABLES[kind]
    if field not in OUTCOME_KEYS:
        raise WorkbenchError(f"--vary {text!r}: no outcome key {field!r}{suggest(field or '', OUTCOME_KEYS)}")
    lo_col = int(m["c1"]) if m["c1"] else 1
    hi_col = int(m["c2"]) if m["c2"] else (lo_col if m["c1"] else 10)
    if not (1 <= lo_col <= hi_col <= 10):
        raise WorkbenchError(f"--vary {text!r}: columns run from 1 to 10, low first")
    rows = [r for r in raw["tables.yaml"][table] if fnmatch.fnmatchcase(str(r["key"]).lower(), name.lower())]
    if not rows:
        raise WorkbenchError(f"--vary {text!r}: no {table} row named like {name!r}"
                             f"{suggest(name, [str(r['key']) for r in raw['tables.yaml'][table]])}")
    for r in rows:
        card = f"{table} table {r['key']}"
        for col in range(lo_col, hi_col + 1):
            current = get(raw, card, f"{field}@{col}")
            low, high = _range(m, current, 0 if field in COUNT_KEYS else None)
            out.append((card, f"{field}@{col}", current, low, high,
                        "draft" if r.get("provenance") == "draft" else "seed"))
    return out
