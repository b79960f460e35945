"""Rendering a rulebook in one language: translations swapped in, placeholders filled.

For the original's language the Markdown is the original itself; for any other
language every heading and clause body comes from ``<lang>.po`` (a missing
translation falls back to the source text and is reported as such). Placeholders
are then resolved in that language. Clause markers stay in the output (they are
invisible HTML comments) so the rendered book still points at its clauses.

Unless ``plain``, what is ours is marked (``marks.py``): draft values with ``‡``,
clauses decided by a ruling with a numbered ``†``, and a legend closes the book.
A template is written in one language (``template_lang``, the game's original
language by default); rendering it in another would put that language's terms into
foreign prose, so it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.errors import WorkbenchError

from .catalog import load_source, po_path, read_catalog, translations
from .model import Rulebook, load_rulebook
from .marks import RulingMarks, append_mark, load_rulings, resolve_marked
from .placeholders import context_for, resolve_text


@dataclass
class Rendered:
    game: str
    lang: str
    text: str
    unresolved: list[dict] = field(default_factory=list)   # {where, placeholder, reason}
    untranslated: list[str] = field(default_factory=list)  # entries shown in the source language
    fuzzy: list[str] = field(default_factory=list)         # entries whose translation is out of date
    drafts: int = 0                                         # draft values marked
    rulings: list[str] = field(default_factory=list)        # rulings marked, in legend order


def _heading_line(level: int, title: str) -> str:
    """An ATX heading (a Setext heading of the original comes out as ATX too)."""
    return "#" * level + (" " + title if title else "")


def compose(book: Rulebook, texts: dict[str, str] | None = None) -> str:
    """The Markdown of ``book`` with headings and clause bodies replaced by
    ``texts[id]`` where given."""
    texts = texts or {}
    out: list[str] = []
    for seg in book.segments:
        if seg.kind == "text":
            out.append(seg.text)
        elif seg.kind == "heading":
            sec = book.sections[seg.ref]
            if seg.ref in texts and texts[seg.ref] != sec.title:
                out.append(_heading_line(sec.level, texts[seg.ref]))
            else:
                out.append(seg.text)
        else:
            cl = book.clauses[seg.ref]
            if seg.ref not in texts:
                out.append(seg.text)
                continue
            lines = seg.text.split("\n")
            head = [] if cl.auto else [lines[0]]
            trailing = len(lines) - len(seg.text.rstrip("\n").split("\n"))
            body = [texts[seg.ref]] if texts[seg.ref] else []
            out.append("\n".join(head + body + [""] * trailing))
    return "\n".join(out) + "\n"


def render(game_id: str, lang: str, *, template: Path | None = None, game=None,
           plain: bool = False, template_lang: str | None = None) -> Rendered:
    """The rulebook of ``game_id`` in ``lang`` (or ``template`` rendered in ``lang``),
    with marks for what is ours unless ``plain``."""
    if template is not None:
        from .catalog import source_language
        written_in = template_lang or source_language(game_id) or lang
        if written_in != lang:
            raise WorkbenchError(f"{Path(template).name} is written in {written_in}: rendering it with --lang {lang} "
                                 f"would put {lang} terms into {written_in} prose; render it with --lang {written_in} "
                                 f"(or pass --template-lang if the template is in {lang})")
        book = load_rulebook(Path(template), game=game_id)
        source = book
    else:
        source = load_source(game_id)
        if source is None:
            raise WorkbenchError(f"{game_id} has no rules text yet")
        book = source
    res = Rendered(game_id, lang, "")
    texts: dict[str, str] = {}
    if template is None and lang != source.lang:
        path = po_path(game_id, lang)
        if not path.exists():
            raise WorkbenchError(f"{game_id} has no {lang} translation ({path.name} not found); "
                                 f"the original is in {source.lang}")
        done = translations(read_catalog(path))
        for ctxt, _msgid, _line in source.entries():
            if ctxt in done:
                texts[ctxt] = done[ctxt][0]
                if done[ctxt][1]:
                    res.fuzzy.append(ctxt)
            else:
                res.untranslated.append(ctxt)
    known = load_rulings(game_id)
    marks = RulingMarks(lang, known)
    for cid, clause in book.clauses.items():
        for rid in clause.rulings:
            if rid not in known:
                res.unresolved.append({"where": cid, "line": clause.line, "placeholder": f"ruling: {rid}",
                                       "reason": f"no ruling {rid!r} in rulings.yaml"})
        if clause.rulings and not plain:
            texts[cid] = append_mark(texts.get(cid, clause.body), marks.mark(clause.rulings))
    markdown = compose(book, texts)
    ctx = context_for(game_id, lang, game=game)
    # Resolve per entry so every unresolved placeholder can say where it stands.
    for ctxt, msgid, line in book.entries():
        body = texts.get(ctxt, msgid)
        for raw, reason in resolve_text(body, ctx)[1]:
            res.unresolved.append({"where": ctxt, "line": line, "placeholder": raw, "reason": reason})
    seen = {(u["placeholder"]) for u in res.unresolved}
    for seg in book.segments:  # placeholders outside entries (e.g. in a Setext heading's text)
        if seg.kind == "text":
            for raw, reason in resolve_text(seg.text, ctx)[1]:
                if raw not in seen:
                    res.unresolved.append({"where": "text", "line": None, "placeholder": raw, "reason": reason})
                    seen.add(raw)
    res.text, _problems, marks.drafts = resolve_marked(markdown, ctx, marks=not plain)
    if plain:
        res.text = strip_markers(res.text)
    res.drafts, res.rulings = marks.drafts, list(marks.order)
    legend = marks.legend()
    if legend:
        res.text = res.text.rstrip("\n") + "\n\n" + legend
    return res


def strip_markers(text: str) -> str:
    """The text without the template's ``<!-- rule: ... -->`` and ``<!-- section: ... -->``
    marker comments (a plain rulebook is for reading and print, not for review), and
    without the blank lines they leave behind."""
    import re

    from .model import RULE_RE, SECTION_RE
    lines = [line for line in text.split("\n")
             if not (RULE_RE.fullmatch(line.strip()) or SECTION_RE.fullmatch(line.strip()))]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
