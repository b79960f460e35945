"""A game's terminology between two languages: which word renders each term, and
where one term has two renderings or one word renders two terms.

The terms files (``cards/<game>/terms/<lang>.yaml``, the same key in both languages)
and ``cards/<game>/glossary.yaml`` give the pairs; for each term the report lists
its renderings and counts the clauses of the original that use it (matched on
stems as the review does). It also reads the catalogue: a clause whose source uses
the term but whose translation lacks its rendering renders it *otherwise*, and a
clause whose translation uses the rendering where the source has no such term uses
it *unsourced* (the review's glossary check, both directions, with the game's
accepted findings left out). ``workbench rules terms GAME --lang LANG`` prints it; a
clean terminology has one rendering per term, used for it in every clause, and no
word standing for two terms.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TermRow:
    term: str                          # in the source language
    renderings: list[str]              # in the translation's language
    keys: list[str] = field(default_factory=list)   # terms keys / glossary.yaml
    clauses: int = 0                   # clauses whose source uses the term
    otherwise: list[str] = field(default_factory=list)   # clauses whose translation lacks the rendering
    unsourced: list[str] = field(default_factory=list)   # clauses using the rendering for no source term

    @property
    def ok(self) -> bool:
        return len(self.renderings) == 1 and not self.otherwise and not self.unsourced

    def to_dict(self) -> dict:
        return {"term": self.term, "renderings": self.renderings, "keys": self.keys, "clauses": self.clauses,
                "otherwise": self.otherwise, "unsourced": self.unsourced}


@dataclass
class Terminology:
    game: str
    source_lang: str
    lang: str
    rows: list[TermRow]
    shared: dict[str, list[str]]       # a rendering -> the source terms it stands for (more than one)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows) and not self.shared

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
    _read_catalogue(game_id, lang, source, pairs, by_term)
    rows = sorted(by_term.values(), key=lambda r: r.term.lower())
    return Terminology(game_id, src_lang, lang, rows, shared)


def _read_catalogue(game_id: str, lang: str, source, pairs, by_term: dict) -> None:
    """Each clause of the ``lang`` catalogue through the review's glossary check, both
    directions: where it renders a term otherwise, or uses a rendering for no source term.
    Findings the game accepts (accepted-findings.yaml) do not count."""
    from . import catalog as C
    from .placeholders import context_for
    from .review import Finding, _accepts, _fill, check_glossary, check_glossary_back, load_accepted
    from .text import strip_icons
    path = C.po_path(game_id, lang)
    if not path.exists():
        return
    live = C.entries_by_context(C.read_catalog(path))
    src_ctx, tr_ctx = context_for(game_id, source.lang), context_for(game_id, lang)
    accepted = [e for e in load_accepted(game_id) if not e.get("words")]
    by_label = {(p.source[0], p.target[0]): by_term.get(strip_icons(p.source[0]).strip().lower()) for p in pairs}
    for ctxt, msgid, _line in source.entries():
        msg = live.get(ctxt)
        if msg is None or not msg.string:
            continue
        s_full, t_full = _fill(msgid, src_ctx), _fill(msg.string, tr_ctx)
        found = [(d, m, "otherwise") for d, m in check_glossary(s_full, t_full, pairs)]
        found += [(d, m, "unsourced") for d, m in check_glossary_back(s_full, t_full, pairs, lang)]
        for detail, message, kind in found:
            f = Finding(ctxt, "glossary", message, detail, lang, text=msg.string)
            if any(_accepts(e, f) for e in accepted):
                continue
            row = _row_of(detail, by_label)
            if row is not None and ctxt not in getattr(row, kind):
                getattr(row, kind).append(ctxt)


def _row_of(detail: str, by_label: dict):
    """The term row a glossary finding's detail names: ``Term -> rendering`` or
    ``added rendering (no Term)``."""
    for (src, tgt), row in by_label.items():
        if detail == f"{src} -> {tgt}" or (detail.startswith("added ") and detail.endswith(f"(no {src})")):
            return row
    return None
