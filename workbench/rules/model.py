"""The clause model: a rulebook Markdown split into sections and clauses.

The split follows ``workbench/rules/README.md`` exactly: markdown-it-py finds the
top-level blocks; a ``<!-- rule: GAME/section/name -->`` comment opens a clause,
whose body runs until the next clause marker, heading or section marker; headings
open sections, keyed by an explicit ``<!-- section: slug -->`` marker or by the slug
of their text. Because markdown-it tells blocks apart, a marker written inside a
code fence, a list or a quote is not mistaken for a clause; it is reported instead.

A :class:`Rulebook` also keeps the document as an ordered list of segments so that
it can be rendered again with each body and heading swapped for a translation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.errors import DataError

from .text import slugify

# A clause marker may name the rulings that decided its text:
# ``<!-- rule: game/section/name ruling: ruling-id, other-id -->``. The marker line is
# not part of the translated body, so every language inherits the same rulings.
RULE_RE = re.compile(r"<!--\s*rule:\s*(?P<id>[^\s>]+)(?:\s+ruling:\s*(?P<rulings>[a-z0-9][a-z0-9, -]*?))?\s*-->")
SECTION_RE = re.compile(r"<!--\s*section:\s*(?P<slug>[^\s>]+)\s*-->")
CLAUSE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*$")
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass
class Section:
    id: str            # GAME/slug
    slug: str
    level: int         # 1 for '#', 2 for '##', ...
    title: str         # heading text as written (inline Markdown, placeholders kept)
    line: int          # 1-based line of the heading
    parent: str | None = None
    clauses: list[str] = field(default_factory=list)


@dataclass
class Clause:
    id: str
    body: str          # the msgid: source Markdown as extracted
    line: int          # 1-based line of the marker
    section: str | None  # section id the clause stands in
    auto: bool = False   # True for unmarked text given an automatic id
    rulings: tuple[str, ...] = ()  # ids in rulings.yaml that decided this clause's text

    @property
    def name(self) -> str:
        return self.id.rsplit("/", 1)[-1]


@dataclass
class Segment:
    """One piece of the document in order: ``text`` (kept as written),
    ``heading`` (a section) or ``clause`` (marker plus body)."""
    kind: str
    ref: str | None
    text: str


@dataclass
class Rulebook:
    game: str
    lang: str
    path: str
    sections: dict[str, Section]
    clauses: dict[str, Clause]
    segments: list[Segment]

    def section_of(self, clause_id: str) -> Section | None:
        sec = self.clauses[clause_id].section
        return self.sections.get(sec) if sec else None

    def entries(self) -> list[tuple[str, str, int]]:
        """Every translatable entry in document order: ``(msgctxt, msgid, line)``:
        headings keyed by section id, clauses by clause id."""
        out = []
        for seg in self.segments:
            if seg.kind == "heading":
                sec = self.sections[seg.ref]
                if sec.title:
                    out.append((sec.id, sec.title, sec.line))
            elif seg.kind == "clause":
                cl = self.clauses[seg.ref]
                if cl.body:  # an empty clause has nothing to translate
                    out.append((cl.id, cl.body, cl.line))
        return out


def _markdown():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark").enable("table")


def clean_body(lines: list[str]) -> str:
    """Trailing spaces off every line, blank lines off both ends."""
    stripped = [ln.rstrip() for ln in lines]
    while stripped and not stripped[0]:
        stripped.pop(0)
    while stripped and not stripped[-1]:
        stripped.pop()
    return "\n".join(stripped)


def parse_rulebook(text: str, *, game: str | None = None, lang: str = "", path: str = "<text>") -> Rulebook:
    """Split ``text`` into sections and clauses.

    ``game`` (a game id), when given, must be the first part of every clause id.
    Raises :class:`DataError` naming the file and line of the first problem."""
    lines = text.splitlines()
    tokens = _markdown().parse(text)

    def err(line: int, msg: str) -> DataError:
        return DataError(f"line {line}: {msg}", file=path)

    # Markers anywhere but the top level are mistakes the author should hear about.
    for tok in tokens:
        if tok.type == "html_block" and tok.level > 0 and RULE_RE.search(tok.content):
            raise err(tok.map[0] + 1, "a rule marker must stand on its own line at the left margin")
        if tok.type == "inline" and RULE_RE.search(tok.content):
            off = next(i for i, ln in enumerate(tok.content.split("\n")) if RULE_RE.search(ln))
            raise err(tok.map[0] + 1 + off, "a rule marker must stand on its own line, not inside text")

    # Top-level blocks as (kind, start, end, payload).
    blocks: list[tuple[str, int, int, object]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.level == 0 and tok.map is not None and tok.nesting in (0, 1):
            start, end = tok.map
            if tok.type == "heading_open":
                level = int(tok.tag[1])
                blocks.append(("heading", start, end, (level, tokens[i + 1].content.strip())))
            elif tok.type == "html_block":
                rule, sect = RULE_RE.match(tok.content.strip()), SECTION_RE.match(tok.content.strip())
                if rule:
                    tail = tok.content.strip()[rule.end():].strip()
                    named = tuple(r.strip() for r in (rule.group("rulings") or "").split(",") if r.strip())
                    blocks.append(("rule", start, end, (rule.group("id"), tail, named)))
                elif sect:
                    blocks.append(("section", start, end, sect.group("slug")))
                elif tok.content.lstrip().startswith("<!--"):
                    blocks.append(("comment", start, end, None))
                else:
                    blocks.append(("content", start, end, None))
            else:
                blocks.append(("content", start, end, None))
        i += 1

    explicit_ids = {b[3][0] for b in blocks if b[0] == "rule"}
    sections: dict[str, Section] = {}
    clauses: dict[str, Clause] = {}
    segments: list[Segment] = []
    used_slugs: set[str] = set()
    stack: list[Section] = []
    current: dict | None = None   # the open clause
    pending_slug: tuple[str, int] | None = None
    cursor = 0                     # first line not yet put in a segment
    prefix = game or None
    if prefix is None:
        # Without a game, ids borrow the clauses' own game prefix when they agree.
        games = sorted({cid.split("/", 1)[0] for cid in explicit_ids})
        prefix = games[0] if len(games) == 1 else None

    def close_clause(until: int) -> None:
        nonlocal current, cursor
        if current is None:
            return
        body_lines = lines[current["body_start"]:until]
        if current["tail"]:
            body_lines = [current["tail"]] + body_lines
        cid = current["id"]
        clauses[cid] = Clause(cid, clean_body(body_lines), current["line"], current["section"],
                              current.get("auto", False), current.get("rulings", ()))
        segments.append(Segment("clause", cid, "\n".join(lines[current["start"]:until])))
        cursor = until
        current = None

    def flush_text(until: int) -> None:
        nonlocal cursor
        if until > cursor:
            segments.append(Segment("text", None, "\n".join(lines[cursor:until])))
            cursor = until

    for kind, start, end, payload in blocks:
        if kind in ("heading", "rule", "section"):
            close_clause(start)
            flush_text(start)
        if kind == "heading":
            level, title = payload
            if pending_slug is not None:
                slug = pending_slug[0]
                if slug in used_slugs:
                    raise err(pending_slug[1], f"section {slug!r} is used twice")
            else:
                base = slugify(title) or "section"
                slug, n = base, 1
                while slug in used_slugs:
                    n += 1
                    slug = f"{base}-{n}"
            used_slugs.add(slug)
            pending_slug = None
            while stack and stack[-1].level >= level:
                stack.pop()
            sid = f"{prefix or 'rules'}/{slug}"
            sec = Section(sid, slug, level, title, start + 1, stack[-1].id if stack else None)
            sections[sid] = sec
            stack.append(sec)
            segments.append(Segment("heading", sid, "\n".join(lines[start:end])))
            cursor = end
        elif kind == "section":
            if pending_slug is not None:
                raise err(pending_slug[1], "a section marker must stand directly above its heading")
            slug = payload
            if not SLUG_RE.match(slug):
                raise err(start + 1, f"section slug {slug!r} must be lower-case letters, digits and hyphens")
            pending_slug = (slug, start + 1)
            segments.append(Segment("text", None, "\n".join(lines[start:end])))
            cursor = end
        elif kind == "rule":
            if pending_slug is not None:
                raise err(pending_slug[1], "a section marker must stand directly above its heading")
            cid, tail, named = payload
            if not CLAUSE_ID_RE.match(cid):
                raise err(start + 1, f"clause id {cid!r} must look like game/section/name "
                                     "(lower-case letters, digits, hyphens)")
            if prefix and not cid.startswith(prefix + "/"):
                raise err(start + 1, f"clause id {cid!r} must start with {prefix + '/'!r}")
            if cid in clauses or (current and current["id"] == cid):
                raise err(start + 1, f"clause id {cid!r} is used twice (first at line {clauses[cid].line})")
            current = {"id": cid, "start": start, "body_start": end, "tail": tail, "line": start + 1,
                       "section": stack[-1].id if stack else None, "rulings": named}
            if stack:
                stack[-1].clauses.append(cid)
        elif kind == "content":
            if pending_slug is not None:
                raise err(pending_slug[1], "a section marker must stand directly above its heading")
            if current is None:
                # Unmarked text becomes an automatic clause named after its section.
                flush_text(start)
                sec_slug = stack[-1].slug if stack else "preamble"
                base = f"{prefix or 'rules'}/{sec_slug}/text"
                cid, n = base, 1
                while cid in clauses or cid in explicit_ids:
                    n += 1
                    cid = f"{base}-{n}"
                current = {"id": cid, "start": start, "body_start": start, "tail": "", "line": start + 1,
                           "section": stack[-1].id if stack else None, "auto": True}
                if stack:
                    stack[-1].clauses.append(cid)
        # comments: part of the open clause, or kept as text between clauses
    close_clause(len(lines))
    flush_text(len(lines))
    if pending_slug is not None:
        raise err(pending_slug[1], "a section marker must stand directly above its heading")
    return Rulebook(prefix or "", lang, path, sections, clauses, segments)


def load_rulebook(path: Path, *, game: str | None = None, lang: str | None = None) -> Rulebook:
    from workbench.core.data import read_text_file
    path = Path(path)
    text = read_text_file(path)  # size, binary and encoding refused with one line
    return parse_rulebook(text, game=game, lang=lang or path.stem, path=str(path))
