"""The values of a card pool as a flat table, and what differs between two pools.

Every game's pool is a handful of YAML files (``Game.pool_spec.files``). This
module reads them the same way for every game, with no knowledge of any one
game's layout: each mapping that has a ``name`` (a card, a faction, a board) is
one entry keyed by that name, and its values are flattened to dotted paths
(``requirement.tokens.E``; list items by index, ``order_rewards[0]``); the rest
of a file (settings, tables) is the entry named after the file (``settings``).

Three users share it:

- scenarios that state the card values they rely on (``setup.cards``,
  :mod:`workbench.core.scenario`): :func:`overlay_pool` lays those values over
  the pool a check runs with, and :func:`assumption_differences` says where the
  designer's pool holds something else;
- ``workbench check`` telling a broken rule from a pool that differs from a
  scenario's assumption (:func:`diff_values` against the bundled pool);
- the pool history (:mod:`workbench.core.versions`): the edits between two
  versions.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping

from .data import dump_yaml, load_yaml
from .errors import DataError, WorkbenchError

#: fields that never change play: left out of assumption checks (a scenario
#: cannot rely on flavour text), still shown in a history diff
COSMETIC = ("flavour", "provenance", "draft_fields", "ability_text", "text", "art", "notes", "source")


def _leaves(value: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping) and value:
        for key, sub in value.items():
            yield from _leaves(sub, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for i, sub in enumerate(value):
            yield from _leaves(sub, f"{prefix}[{i}]")
    else:
        yield prefix, value


def _is_card_list(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, Mapping) and isinstance(v.get("name"), str) for v in value))


def flatten_files(raw: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{entry: {path: value}}`` of the parsed pool files ``{file name: data}``."""
    out: dict[str, dict[str, Any]] = {}
    for file, data in raw.items():
        stem = Path(file).stem
        rest: dict[str, Any] = {}
        items = data.items() if isinstance(data, Mapping) else [("", data)]
        for key, value in items:
            if _is_card_list(value):
                for card in value:
                    name = card["name"]
                    if name in out:
                        name = f"{name} ({stem})"
                    out[name] = dict(_leaves({k: v for k, v in card.items() if k != "name"}, ""))
            else:
                rest[key] = value
        if rest:
            out.setdefault(stem, {}).update(_leaves(rest, ""))
    return out


def read_raw(folder: Path, files) -> dict[str, Any]:
    """The parsed pool files of ``folder`` (a missing file is an empty one)."""
    folder = Path(folder)
    return {name: (load_yaml(folder / name) if (folder / name).is_file() else None) for name in files}


def read_values(folder: Path, files) -> dict[str, dict[str, Any]]:
    return flatten_files(read_raw(folder, files))


def diff_values(old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]],
                *, cosmetic: bool = True) -> list[dict]:
    """Every value that differs, as ``{card, field, old, new}`` (a card only in
    one pool: ``field`` None and ``old``/``new`` "absent"/"present")."""
    out: list[dict] = []
    for card in sorted(set(old) | set(new), key=str.lower):
        if card not in old or card not in new:
            out.append({"card": card, "field": None,
                        "old": "present" if card in old else "absent",
                        "new": "present" if card in new else "absent"})
            continue
        a, b = old[card], new[card]
        for path in sorted(set(a) | set(b)):
            if not cosmetic and path.split(".")[-1].split("[")[0] in COSMETIC:
                continue
            if a.get(path) != b.get(path):
                out.append({"card": card, "field": path, "old": a.get(path), "new": b.get(path)})
    return out


def format_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------------------- stated values
def _stated(values: Mapping) -> dict[str, dict[str, Any]]:
    """``{card: {path: value}}`` of a scenario's ``cards:`` block. A nested
    mapping is merged leaf by leaf; a dotted key's value replaces the whole
    field (``requirement.tokens: {E: 1}`` means exactly one token of E)."""
    if not isinstance(values, Mapping):
        raise WorkbenchError("'cards' maps card names to the values the scenario relies on")
    out: dict[str, dict[str, Any]] = {}
    for card, fields in values.items():
        if not isinstance(fields, Mapping) or not fields:
            raise WorkbenchError(f"cards: {card!r} needs a mapping of field: value")
        flat: dict[str, Any] = {}
        for key, value in fields.items():
            if "." in str(key) or "[" in str(key) or not isinstance(value, Mapping):
                flat[str(key)] = value
            else:
                flat.update(_leaves(value, str(key)))
        out[str(card)] = flat
    return out


def _find_card(raw: Mapping[str, Any], name: str) -> dict | None:
    wanted = name.lower()
    for data in raw.values():
        if not isinstance(data, Mapping):
            continue
        for value in data.values():
            if _is_card_list(value):
                for card in value:
                    if card["name"].lower() == wanted:
                        return card
    for file, data in raw.items():  # a settings file is addressed by its name
        if Path(file).stem.lower() == wanted and isinstance(data, dict):
            return data
    return None


def _set_path(entry: dict, path: str, value: Any) -> None:
    parts: list[str | int] = []
    for piece in path.split("."):
        head, *indices = piece.split("[")
        if head:
            parts.append(head)
        parts.extend(int(i.rstrip("]")) for i in indices)
    target: Any = entry
    for here, nxt in zip(parts, parts[1:]):
        if isinstance(here, int):
            target = target[here]
        else:
            if not isinstance(target.get(here), (dict, list)):
                target[here] = [] if isinstance(nxt, int) else {}
            target = target[here]
    target[parts[-1]] = copy.deepcopy(value)


def assumption_differences(values: Mapping, folder: Path, files) -> list[dict]:
    """Where the pool of ``folder`` holds something else than a scenario's
    ``cards:`` block states: ``{card, field, assumed, pool}`` (``pool`` is
    "no such card" for a card the folder lacks)."""
    stated = _stated(values)
    pool = read_values(folder, files)
    lowered = {k.lower(): k for k in pool}
    out = []
    for card, fields in stated.items():
        real = lowered.get(card.lower())
        if real is None:
            out.append({"card": card, "field": None, "assumed": "present", "pool": "no such card"})
            continue
        have = pool[real]
        for path, value in fields.items():
            mine = {p: v for p, v in have.items() if p == path or p.startswith(path + ".")
                    or p.startswith(path + "[")}
            theirs = dict(_leaves(value, path)) if isinstance(value, (Mapping, list)) else {path: value}
            if mine != theirs and not (not mine and value in ({}, [], None)):
                held = mine[path] if path in mine else (
                    {p[len(path) + 1:]: v for p, v in mine.items()} if mine else None)
                out.append({"card": real, "field": path, "assumed": value, "pool": held})
    return out


def overlay_pool(spec, folder: Path, values: Mapping):
    """The pool of ``folder`` with a scenario's stated values laid over it,
    validated by the game's own loader (``spec.load``). A card the folder does not
    hold, or a value the loader refuses, is a :class:`WorkbenchError` naming it."""
    folder = Path(folder)
    raw = read_raw(folder, spec.files)
    raw = copy.deepcopy(raw)
    for card, fields in _stated(values).items():
        entry = _find_card(raw, card)
        if entry is None:
            raise WorkbenchError(f"cards: the pool has no card {card!r}")
        for path, value in fields.items():
            try:
                _set_path(entry, path, value)
            except (IndexError, TypeError, ValueError, AttributeError) as exc:
                raise WorkbenchError(f"cards: {card}.{path} cannot be set ({exc})") from None
    with tempfile.TemporaryDirectory(prefix="workbench-scenario-pool-") as tmp:
        tmp_path = Path(tmp)
        from . import storage
        for item in folder.iterdir():
            if item.is_file() and item.suffix == ".yaml" and item.name not in spec.files:
                storage.scratch_copy(item, tmp_path)
        for name, data in raw.items():
            if data is not None:
                storage.scratch_write(tmp_path, name, dump_yaml(data, fast=True))
        try:
            return spec.load(tmp_path)
        except DataError as exc:
            raise WorkbenchError(f"cards: the stated values do not make a valid pool: "
                                 f"{str(exc).replace(str(tmp_path), str(folder))}") from None


__all__ = ["flatten_files", "read_raw", "read_values", "diff_values", "format_value",
           "assumption_differences", "overlay_pool", "COSMETIC"]
