"""A game's terminology between two languages: which word renders each term, and
where one term has two renderings or one word renders two terms.

The terms files (``cards/<game>/terms/<lang>.yaml``, the same key in both languages)
and ``cards/<game>/glossary.yaml`` give the pairs; for each term the report lists
its renderings and counts the clauses of the catalogue that use it (on both
sides, matched on stems as the review does). ``workbench rules terms GAME --lang
LANG`` prints it; a clean terminology has one rendering per term and no word
standing for two terms.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TermRow:
    term: str                          # in the source language
    renderings: list[str]              # in the translation's language
    keys: list[str] = field(default_factory=list)   # terms keys / glossary.yaml
    clauses: int = 0                   # clauses whose source uses the term

    def to_dict(self) -> dict:
        return {"term": self.term, "renderings": self.renderings, "keys": self.keys, "clauses": self.clauses}


@dataclass
class Terminology:
    game: str
    source_lang: str
    lang: str
    rows: list[TermRow]
    shared: dict[str, list[str]]       # a rendering -> the source terms it stands for (more than one)

    @property
    def ok(self) -> bool:
        return all(len(r.renderings) == 1 for r in self.rows) and not self.shared

    def to_dict(self) -> dict:
        return {"game": self.game, "source_lang": self.source_lang, "lang": self.lang, "ok": self.ok,
                "terms": [r.to_dict() for r in self.rows], "shared_renderings": self.shared}


def terminology(game_id: str, lang: str) -> Terminology:
    from . import catalog as C
    from .glossary import find_term, game_glossary, tokens
    from .placeholders import context_for
    from .review import _fill
    from .text import strip_icons
    source = C.load_source(game_id)
    src_lang = source.lang
    pairs = game_glossary(game_id, src_lang, lang)
    by_term: dict[str, TermRow] = {}
    for p in pairs:
        term = strip_icons(p.source[0]).strip()
        row = by_term.setdefault(term.lower(), TermRow(term, []))
        rendering = strip_icons(p.target[0]).strip()
        if rendering not in row.renderings:
            row.renderings.append(rendering)
        row.keys.append(p.origin)
    # the same word for two terms (as written in the translation, case kept: a name and a word differ)
    users: dict[str, set[str]] = {}
    for row in by_term.values():
        for r in row.renderings:
            users.setdefault(r, set()).add(row.term)
    shared = {r: sorted(t) for r, t in users.items() if len({x.lower() for x in t}) > 1}
    src_ctx = context_for(game_id, src_lang)
    src_texts = [tokens(_fill(msgid, src_ctx)) for _c, msgid, _l in source.entries()]
    for row in by_term.values():
        row.clauses = sum(1 for toks in src_texts if find_term(row.term, toks))
    rows = sorted(by_term.values(), key=lambda r: r.term.lower())
    return Terminology(game_id, src_lang, lang, rows, shared)
