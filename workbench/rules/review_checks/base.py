"""What every review check sees and returns.

A :class:`ClauseCheck` looks at one clause (or heading) and its translation, given
as a :class:`Pair`; a :class:`CatalogueCheck` looks at a whole catalogue or terms
file (duplicate entries, orphan contexts, misspelt terms). Each check is one class
whose docstring's first line is the explanation the review and the dashboard show.
A check returns ``(detail, message)`` items: ``detail`` short and stable (what an
acceptance matches on), ``message`` what is wrong and what to do about it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence


@dataclass
class Pair:
    """One entry of the review: source and translation, raw and with placeholders filled."""

    clause: str
    src: str                  # source as written (placeholders unresolved)
    tr: str                   # translation as written
    src_full: str             # placeholders filled in the source language
    tr_full: str              # placeholders filled in the translation's language
    src_lang: str
    tr_lang: str
    heading: bool = False
    glossary: Sequence = ()   # GlossaryPair list of the game
    src_ctx: Mapping = field(default_factory=dict)
    tr_ctx: Mapping = field(default_factory=dict)
    src_units: str = ""       # text with term placeholders as unit marks (see numbers check)
    tr_units: str = ""

    @property
    def what(self) -> str:
        return "heading" if self.heading else "clause"


Item = tuple[str, str]


class ClauseCheck:
    """Base of the checks that compare one clause with its translation."""

    name = ""
    headings = True     # also run on headings

    @classmethod
    def explanation(cls) -> str:
        return (cls.__doc__ or "").strip().splitlines()[0]

    def run(self, p: Pair) -> list[Item]:  # pragma: no cover - every check overrides it
        raise NotImplementedError


class CatalogueCheck:
    """Base of the checks that look at a whole catalogue or terms file."""

    name = ""

    @classmethod
    def explanation(cls) -> str:
        return (cls.__doc__ or "").strip().splitlines()[0]

    def run(self, game_id: str, lang: str, po_text: str, source_ids: set[str],
            spelling: bool) -> list[tuple[str, str, str]]:  # pragma: no cover
        """``(clause or file key, detail, message)`` items."""
        raise NotImplementedError
