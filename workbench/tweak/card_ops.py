"""Adding, duplicating and deleting cards in a tweak session (the Cards page's
Add, Duplicate and Delete buttons; usable from a notebook the same way).

The game says which card kinds a designer may grow or shrink, and what a new
card of each kind starts as, in ``Game.card_blanks`` (kind -> blank card).
Every operation works on a copy of the session's card files, is validated as
the loader validates the files (the session's ``_validate``: the game's
pydantic models, its cross-file checks and the lookalike-name check of
:func:`workbench.core.names.check_pool_names`) before it enters the pool, and is
one step of the session's undo list. A save writes the files the round-trip way
(:mod:`workbench.core.cardfile`: the cards kept keep their lines and comments).

A card is not deleted while something names it: another card (a string value
or key equal to its name), a setting of the card files, or a scenario of the
card folder (its name as a phrase in a step, a setup or an expectation; titles
and notes are prose and do not count). The refusal, :class:`CardInUse`, lists
them all.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Iterator

from workbench.core.data import load_yaml, read_text_file
from workbench.core.errors import DataError, WorkbenchError, suggest

from workbench.graphs import pool_edit

#: longest card name the card files take (workbench.core.data.CardName)
MAX_NAME = 60
#: scenario keys that hold prose, not the names a scenario plays with
PROSE_KEYS = frozenset({"title", "checks", "note", "because", "game", "why", "description"})


class CardInUse(DataError):
    """A card that cannot be deleted because others name it (``names``)."""

    def __init__(self, card: str, names: list[str], file: str | None = None):
        shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        super().__init__(f"cannot delete {card}: it is named by {shown}; change or delete those first",
                         file=file, card=card)
        self.names = list(names)


class CardOperations:
    """Add, duplicate and delete for :class:`~workbench.tweak.session.TweakSession`
    (mixed in). A session supplies ``raw``, ``folder``, ``game``, ``_undo``,
    ``_redo``, ``_validate(raw)``, ``_commit(...)`` and ``_card_catalogue()``
    (the catalogue of its card kinds)."""

    # -- what can be added --------------------------------------------------------
    @property
    def blank_kinds(self) -> list[str]:
        """The card kinds a designer may add, duplicate and delete: those the
        game gives a blank for (``Game.card_blanks``) that sit in a list or a
        mapping of cards, in the game's order."""
        kinds = {k.kind for k in self._card_catalogue().kinds if k.single is None}
        return [kind for kind in self.game.card_blanks if kind in kinds]

    def blank(self, kind: str) -> dict:
        """A copy of the game's blank card of ``kind``."""
        if kind not in self.blank_kinds:
            raise WorkbenchError(self._not_growable(kind))
        return copy.deepcopy(dict(self.game.card_blanks[kind]))

    def _not_growable(self, kind: str) -> str:
        kinds = self.blank_kinds
        if not kinds:
            return (f"{self.game.name} declares no blank cards (Game.card_blanks), so no card can be "
                    "added, duplicated or deleted here")
        return (f"a {kind} cannot be added, duplicated or deleted here; the cards that can are: "
                f"{', '.join(kinds)}{suggest(kind, kinds)}")

    # -- the operations ---------------------------------------------------------------
    def add_card(self, kind: str, name: str | None = None):
        """A new card of ``kind`` from the game's blank, named ``name`` (default:
        the blank's name, numbered until no card has it), at the end of its kind."""
        card = self.blank(kind)
        raw = copy.deepcopy(self.raw)
        ckind = self._kind(kind)
        new_name = self._new_name(raw, ckind, name, str(card.get(ckind.name_key or "name") or f"New {kind}"))
        self._insert(raw, ckind, card, new_name, None)
        return self._take(raw, new_name, "added", f"added {new_name} ({kind})")

    def duplicate_card(self, card: str, name: str | None = None):
        """A copy of ``card`` right after it, named ``name`` (default: "NAME copy",
        numbered until unique). The copy is the designer's card, not the
        source's: it is marked ``provenance: draft`` where its kind marks each card."""
        raw = copy.deepcopy(self.raw)
        ref = self._growable(raw, card)
        twin = copy.deepcopy(ref.card)
        if "provenance" in twin:  # a kind marked per card (others take their file's mark)
            twin.pop("draft_fields", None)
            twin["provenance"] = "draft"
        new_name = self._new_name(raw, ref.kind, name, f"{ref.name} copy")
        self._insert(raw, ref.kind, twin, new_name, ref)
        return self._take(raw, new_name, "duplicated", f"added {new_name} ({ref.kind.kind}), a copy of {ref.name}")

    def delete_card(self, card: str):
        """Take ``card`` out of the pool; refused with :class:`CardInUse` (listing
        them) while another card, a setting or a scenario names it."""
        raw = copy.deepcopy(self.raw)
        ref = self._growable(raw, card)
        names = self.named_by(ref.name)
        if names:
            raise CardInUse(ref.name, names)
        pool_edit.remove_card(raw, ref)
        return self._take(raw, ref.name, "deleted", f"deleted {ref.name} ({ref.kind.kind})")

    def named_by(self, card: str) -> list[str]:
        """Who names ``card``: ``"<kind> <card name>"``, ``"settings.yaml"``,
        ``"scenario load-pattern.yaml"``... (empty: it can be deleted)."""
        ref = pool_edit.find(self.raw, self._card_catalogue(), card)
        words = {ref.name.casefold()} | ({ref.key.casefold()} if ref.key and len(ref.key) > 2 else set())
        labels = {id(r.card): f"{r.kind.kind} {r.name}" for r in pool_edit.cards(self.raw, self._card_catalogue())}
        out: list[str] = []
        for file in self.file_names:
            for where in _naming(self.raw[file], words, file, labels, id(ref.card)):
                if where not in out:
                    out.append(where)
        longer = [n for n in self._all_names(self.raw) if n.casefold() != ref.name.casefold()]
        phrase = _phrase(ref.name, longer)
        folder = self.folder / "scenarios"
        for path in sorted(folder.rglob("*.yaml")) if folder.is_dir() else []:
            try:
                if not phrase(read_text_file(path), whole=False):
                    continue  # the name is nowhere in the text: no need to parse it
                data = load_yaml(path)
            except DataError:
                continue  # a scenario that does not read names nothing (scenario run reports it)
            if any(phrase(text) for text in _scenario_texts(data)):
                out.append(f"scenario {path.relative_to(folder).as_posix()}")
        return out

    # -- the parts ---------------------------------------------------------------
    def _kind(self, kind: str) -> pool_edit.CardKind:
        return next(k for k in self._card_catalogue().kinds if k.kind == kind)

    def _growable(self, raw: dict, card: str) -> pool_edit.CardRef:
        ref = pool_edit.find(raw, self._card_catalogue(), card)
        if ref.kind.kind not in self.blank_kinds:
            raise DataError(self._not_growable(ref.kind.kind), file=str(self.folder / ref.kind.file), card=ref.name)
        return ref

    def _all_names(self, raw: dict) -> list[str]:
        return [r.name for r in pool_edit.cards(raw, self._card_catalogue())]

    def _new_name(self, raw: dict, kind: pool_edit.CardKind, name: str | None, base: str) -> str:
        taken = {n.casefold() for n in self._all_names(raw)}
        file = str(self.folder / kind.file)
        if name is not None:
            name = str(name).strip()
            if not name:
                raise DataError("a card needs a name", file=file, field="name")
            if name.casefold() in taken:
                raise DataError(f"a card named {name!r} exists already", file=file, card=name, field="name")
            return name
        base = base.strip()[:MAX_NAME].rstrip()
        n, fresh = 2, base
        while fresh.casefold() in taken:
            tail = f" {n}"
            fresh, n = base[:MAX_NAME - len(tail)].rstrip() + tail, n + 1
        return fresh

    def _insert(self, raw: dict, kind: pool_edit.CardKind, card: dict, name: str, after) -> None:
        try:
            pool_edit.insert_card(raw, kind, card, name, after)
        except ValueError as exc:
            raise DataError(str(exc), file=str(self.folder / kind.file), card=name, field="name") from None

    def _take(self, raw: dict, name: str, what: str, line: str):
        """Validate ``raw`` as the loader would, make it the pool, one undo step."""
        cards = self._validate(raw)
        previous = self.raw
        report = self._commit(raw, cards, name, what, None, None)
        if not any(name in note for note in report.notes):
            report.notes.insert(0, line)
        self._undo.append((previous, name, what))
        self._redo.clear()
        return report


def _naming(node: Any, words: set[str], where: str, labels: dict[int, str], own: int) -> Iterator[str]:
    """Where inside the card files ``node`` a string equal to one of ``words``
    stands (a value, a list item or a key), skipping the card ``own`` itself."""
    if id(node) == own:
        return
    where = labels.get(id(node), where)
    if isinstance(node, dict):
        for key, value in node.items():
            if id(value) == own:
                continue
            if isinstance(key, str) and key.casefold() in words:
                yield where
            yield from _naming(value, words, where, labels, own)
    elif isinstance(node, list):
        for value in node:
            yield from _naming(value, words, where, labels, own)
    elif isinstance(node, str) and node.strip().casefold() in words:
        yield where


def _scenario_texts(node: Any) -> Iterator[str]:
    """Every key and string value of a scenario outside its prose."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in PROSE_KEYS:
                continue
            if isinstance(key, str):
                yield key
            yield from _scenario_texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from _scenario_texts(value)
    elif isinstance(node, str):
        yield node


def _phrase(name: str, others: list[str]):
    """A test of a text for ``name`` as a whole phrase (any case), where it is
    not part of a longer card name (``Shell`` in ``load Shell Game``)."""
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
    longer = [re.compile(rf"(?<!\w){re.escape(o)}(?!\w)", re.IGNORECASE) for o in others
              if pattern.search(o)]

    def test(text: str, whole: bool = True) -> bool:
        if whole:
            for other in longer:
                text = other.sub(" ", text)
        return bool(pattern.search(text))
    return test


__all__ = ["CardInUse", "CardOperations", "PROSE_KEYS"]
