"""Editing a card pool held as the YAML of its files, for games whose cards are
spread over several files and shapes (a catalogue of card kinds).

A game's :class:`Catalogue` lists its card kinds: where each kind's cards live
(file and path inside it), how a card is named and which flat columns the
Cards table shows for it (each a dotted path inside the card). This module
finds a card by name, reads its columns, and writes one value into a copy of the
raw files, turning the text a table cell gives into the type the field had
(``"3"`` -> 3, ``"white black"`` -> ``["white", "black"]``). It changes nothing
itself: :mod:`workbench.tweak.pool_session` validates the copy with the game's
own loader before taking it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import yaml

from workbench.core.errors import DataError, suggest


@dataclass(frozen=True)
class CardKind:
    """One kind of card: ``kind`` (table label), the ``file`` and ``path`` of its
    container (a list of mappings, or a mapping of name -> card), the key that
    names a card in a list (``name_key``), or ``single``: the container itself is
    one card of that name. ``columns``: flat column -> dotted path in the card."""

    kind: str
    file: str
    path: tuple[str, ...]
    columns: dict[str, str]
    name_key: str | None = "name"
    single: str | None = None
    #: mapping keys that are not cards (e.g. a ``provenance`` entry beside them)
    skip: tuple[str, ...] = ("provenance", "draft_fields", "note", "constructionRule")
    #: how a mapping key becomes the card's name (``"{} generator"``)
    name_format: str = "{}"
    #: cards of this kind are taken or played in games (``Game.action_cards`` names them)
    played: bool = False
    doc: str = ""
    #: list columns whose items are phrases ("draw two or gain one"): a cell
    #: separates them with ";" only, never with spaces (see :func:`coerce`)
    phrases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalogue:
    """Every editable card kind of a game, and what each flat column means."""

    game_id: str
    kinds: tuple[CardKind, ...]
    column_docs: dict[str, str] = field(default_factory=dict)

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(k.file for k in self.kinds))

    @property
    def columns(self) -> dict[str, tuple[str, str]]:
        """Flat column -> (kinds it applies to, meaning), in table order."""
        out: dict[str, list[str]] = {}
        for k in self.kinds:
            for col in k.columns:
                if col in ("name", "kind"):
                    raise ValueError(f"{self.game_id}: column {col!r} is the table's own")
                out.setdefault(col, []).append(k.kind)
        return {c: (", ".join(ks), self.column_docs.get(c, "")) for c, ks in out.items()}


@dataclass
class CardRef:
    kind: CardKind
    name: str
    card: dict          # the card's mapping inside the raw files (edited in place)
    key: str = ""       # its key in a mapping of cards (the file's own name for it)


def _container(raw: dict, kind: CardKind):
    node = raw[kind.file]
    for step in kind.path:
        node = node[step]
    return node


def cards(raw: dict, catalogue: Catalogue) -> Iterator[CardRef]:
    """Every card of the pool, in catalogue and file order."""
    for kind in catalogue.kinds:
        box = _container(raw, kind)
        if kind.single is not None:
            yield CardRef(kind, kind.single, box, kind.single)
        elif isinstance(box, list):
            for entry in box:
                name = str(entry.get(kind.name_key, "?"))
                yield CardRef(kind, name, entry, name)
        else:
            for key, entry in box.items():
                if key not in kind.skip and isinstance(entry, dict):
                    name = str(entry.get(kind.name_key, key)) if kind.name_key else kind.name_format.format(key)
                    yield CardRef(kind, name, entry, str(key))


def name_index(raw: dict, catalogue: Catalogue) -> dict[str, list[CardRef]]:
    """Lower-case name -> the cards of that name, for many look-ups in one pool
    (an import of thousands of cells finds each card without a scan)."""
    index: dict[str, list[CardRef]] = {}
    for ref in cards(raw, catalogue):
        index.setdefault(ref.name.lower(), []).append(ref)
    return index


def find(raw: dict, catalogue: Catalogue, card: str, index: dict[str, list[CardRef]] | None = None) -> CardRef:
    """The card named ``card`` (case-insensitive), or ``kind:name`` when a name
    is used by two kinds; refused with the nearest names otherwise. ``index``
    (:func:`name_index` of the same ``raw``) makes the look-up a dictionary's."""
    text = card.strip()
    kind_name, _, rest = text.partition(":")
    wanted_kind = None
    if rest and any(k.kind == kind_name.strip().lower() for k in catalogue.kinds):
        wanted_kind, text = kind_name.strip().lower(), rest.strip()
    if index is not None:
        hits = [c for c in index.get(text.lower(), []) if wanted_kind in (None, c.kind.kind)]
        if len(hits) == 1:
            return hits[0]
    every = list(cards(raw, catalogue))
    hits = [c for c in every if c.name.lower() == text.lower() and wanted_kind in (None, c.kind.kind)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        options = " or ".join(f"{c.kind.kind}:{c.name}" for c in hits)
        raise DataError(f"{card!r} names {len(hits)} cards; say {options}", card=card)
    raise DataError(f"no card named {card!r}{suggest(text, [c.name for c in every])}", card=card)


def _new_key(kind: CardKind, name: str, box: dict) -> str:
    """The mapping key a new card named ``name`` is filed under: the name itself
    where the key is the name (``name_format``), else a slug of it
    (``Mega-Cluster`` -> ``mega_cluster``), made unique in ``box``."""
    if kind.name_key is None:
        head, _, tail = kind.name_format.partition("{}")
        if not (name.startswith(head) and name.endswith(tail)) or len(name) <= len(head) + len(tail):
            raise ValueError(f"a {kind.kind}'s name is written {kind.name_format.format('...')!r}")
        return name[len(head):len(name) - len(tail)]
    base = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_") or kind.kind
    key, n = base, 2
    while key in box:
        key, n = f"{base}_{n}", n + 1
    return key


def insert_card(raw: dict, kind: CardKind, card: dict, name: str, after: CardRef | None = None) -> CardRef:
    """File ``card`` (a fresh mapping, named ``name``) among the ``kind`` cards
    of ``raw``: right after ``after`` (a card of that kind), else at the end.
    Raises ``ValueError`` for a kind that is one card or a name it cannot take."""
    if kind.single is not None:
        raise ValueError(f"there is one {kind.kind}; it can be edited, not added")
    box = _container(raw, kind)
    if isinstance(box, list):
        card = {kind.name_key or "name": name, **{k: v for k, v in card.items() if k != (kind.name_key or "name")}}
        at = next((i + 1 for i, e in enumerate(box) if e is (after.card if after else None)), len(box))
        box.insert(at, card)
        return CardRef(kind, name, card, name)
    key = _new_key(kind, name, box)
    if key in box:
        raise ValueError(f"a {kind.kind} named {name!r} exists already")
    if kind.name_key is not None:
        card = {kind.name_key: name, **{k: v for k, v in card.items() if k != kind.name_key}}
    items = list(box.items())
    at = next((i + 1 for i, (k, _) in enumerate(items) if after is not None and k == after.key), len(items))
    items.insert(at, (key, card))
    box.clear()
    box.update(items)
    return CardRef(kind, name, card, key)


def remove_card(raw: dict, ref: CardRef) -> None:
    """Take the card ``ref`` (found in ``raw``) out of its container."""
    if ref.kind.single is not None:
        raise ValueError(f"there is one {ref.kind.kind}; it can be edited, not deleted")
    box = _container(raw, ref.kind)
    if isinstance(box, list):
        box[:] = [e for e in box if e is not ref.card]
    else:
        box.pop(ref.key)


def get_path(card: dict, dotted: str) -> Any:
    node: Any = card
    for step in _steps(dotted):
        if isinstance(node, list) and isinstance(step, int) and -len(node) <= step < len(node):
            node = node[step]
        elif isinstance(node, dict) and step in node:
            node = node[step]
        else:
            return None
    return node


def _steps(dotted: str) -> list:
    return [int(s) if re.fullmatch(r"-?\d+", s) else s for s in dotted.split(".")]


def set_path(card: dict, dotted: str, value: Any) -> Any:
    """Write ``value`` at ``dotted`` inside ``card`` (list items by index);
    returns the previous value. Missing mappings on the way are created."""
    steps = _steps(dotted)
    node: Any = card
    for step in steps[:-1]:
        if isinstance(node, list):
            if not isinstance(step, int) or not -len(node) <= step < len(node):
                raise ValueError(f"no item {step} (there are {len(node)})")
            node = node[step]
        else:
            if not isinstance(node.get(step), (dict, list)):
                node[step] = {}
            node = node[step]
    last = steps[-1]
    if isinstance(node, list):
        if not isinstance(last, int) or not -len(node) <= last < len(node):
            raise ValueError(f"no item {last} (there are {len(node)})")
        old, node[last] = node[last], value
        return old
    old = node.get(last)
    if value is None:
        node.pop(last, None)
    else:
        node[last] = value
    return old


def _scalar(text: str) -> Any:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (int, float, str, bool)) or value is None else text


def coerce(value: Any, old: Any, what: str, *, phrases: bool = False) -> Any:
    """``value`` (often the text of a table cell) as the type ``old`` had;
    a value that cannot be that type raises ``ValueError`` saying what is wanted.
    ``phrases``: a list whose items are phrases, separated by ";" only (so
    "draw two or gain one" is one item in a new card's cell too, where the
    blank's empty list says nothing about its items)."""
    if isinstance(value, str):
        text = value.strip()
        if isinstance(old, list):
            if text.startswith("["):
                try:
                    value = yaml.safe_load(text)
                except yaml.YAMLError:
                    raise ValueError(f"{what}: write a list such as [a, b], not {text!r}") from None
            elif not text:
                value = []
            elif phrases:
                value = [p.strip() for p in text.split(";") if p.strip()]
            elif "," in text or ";" in text:
                value = [_scalar(p.strip()) for p in re.split(r"[,;]", text) if p.strip()]
            elif any(" " in str(x) for x in old):
                value = [text]
            else:
                value = [_scalar(p) for p in text.split()]
        elif isinstance(old, dict):
            try:
                value = yaml.safe_load(text) if text else {}
            except yaml.YAMLError:
                raise ValueError(f"{what}: write a mapping such as {{runway: 2}}, not {text!r}") from None
        elif isinstance(old, str):
            value = value.strip()
        else:
            value = _scalar(text) if text else None
    if old is None or value is None:
        return value
    if isinstance(old, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{what} must be true or false, not {value!r}")
    elif isinstance(old, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{what} must be a whole number, not {value!r}")
    elif isinstance(old, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{what} must be a number, not {value!r}")
    elif isinstance(old, list) and not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {value!r}")
    elif isinstance(old, dict) and not isinstance(value, dict):
        raise ValueError(f"{what} must be a mapping, not {value!r}")
    elif isinstance(old, str) and not isinstance(value, str):
        value = str(value)
    return value


def text_of(value: Any, *, phrases: bool = False) -> Any:
    """A cell of the flat table: numbers stay numbers, lists become words
    (``white black``, or ``a; b`` when an item has a space or the column's items
    are ``phrases``), a list of mappings and mappings YAML flow (what
    :func:`coerce` reads back)."""
    if isinstance(value, list):
        if any(isinstance(v, (dict, list)) for v in value):
            return _flow(value)
        items = [text_of(v) for v in value]
        if phrases or any(isinstance(v, str) and " " in v for v in items):
            return "; ".join(str(v) for v in items)
        return " ".join(str(v) for v in items)
    if isinstance(value, dict):
        return _flow(value)
    return value


def _flow(value: Any) -> str:
    """``value`` as one line of YAML flow (libyaml's emitter where installed)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(value, Dumper=dumper, default_flow_style=True, sort_keys=False, width=10**6).strip()


__all__ = ["CardKind", "Catalogue", "CardRef", "cards", "find", "get_path", "set_path", "coerce", "text_of",
           "insert_card", "remove_card"]
