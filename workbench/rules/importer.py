"""Bringing a designer's own rulebook in: split it into clauses with stable ids.

Input is Markdown (headings, paragraphs, lists, tables; existing rule markers are
kept) or plain text, with a clause per paragraph when paragraphs are separated
by blank lines, else a clause per line. In plain text a short line (at most five
words, starting with a capital, with no colon, bracket or end punctuation) is
taken for a heading, and runs of table rows (tab-separated or ``|`` rows) stay
together as one clause.

Ids are ``GAME/<section slug>/<slug of the first words>``: ASCII, accents
folded, icons dropped, repeats numbered ``-2``, ``-3`` in document order, so the
same input always gives the same ids. The output is Markdown in the rulebook
format (section markers above headings, a rule marker above each clause) and an
empty PO template made from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.errors import WorkbenchError

from .model import RULE_RE, SECTION_RE, clean_body, parse_rulebook
from .text import slugify

NAME_WORDS = 4
NAME_CHARS = 40


@dataclass
class Block:
    kind: str            # heading | clause
    text: str            # heading title or clause body
    line: int            # 1-based line in the input
    level: int = 2
    given_id: str | None = None   # an id the input already carried


@dataclass
class Imported:
    game: str
    lang: str
    markdown: str
    clauses: list[dict] = field(default_factory=list)   # {id, section, line, text}
    sections: list[dict] = field(default_factory=list)  # {id, title, line}


def looks_like_markdown(text: str, name: str = "") -> bool:
    if name.lower().endswith((".md", ".markdown")):
        return True
    return bool(re.search(r"^(#{1,6} |<!-- rule:|\|.*\|\s*$)", text, re.M))


# --------------------------------------------------------------------------- Markdown
def _markdown_blocks(text: str) -> list[Block]:
    from markdown_it import MarkdownIt
    lines = text.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    spans: list[tuple[str, int, int, object]] = []
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        if tok.level == 0 and tok.nesting in (0, 1):
            if tok.type == "heading_open":
                spans.append(("heading", tok.map[0], tok.map[1], (int(tok.tag[1]), tokens[i + 1].content.strip())))
            elif tok.type in ("bullet_list_open", "ordered_list_open"):
                continue  # its items are taken one by one below
            elif tok.type == "html_block" and RULE_RE.match(tok.content.strip()):
                spans.append(("marker", tok.map[0], tok.map[1], RULE_RE.match(tok.content.strip()).group("id")))
            elif tok.type == "html_block" and SECTION_RE.match(tok.content.strip()):
                continue
            else:
                spans.append(("block", tok.map[0], tok.map[1], None))
        elif tok.type == "list_item_open" and tok.level == 1:
            spans.append(("block", tok.map[0], tok.map[1], None))
    blocks: list[Block] = []
    pending_id: str | None = None
    in_marked = False
    for kind, start, end, payload in spans:
        if kind == "heading":
            level, title = payload
            blocks.append(Block("heading", title, start + 1, level))
            in_marked = False
        elif kind == "marker":
            pending_id, in_marked = payload, True
            blocks.append(Block("clause", "", start + 1, given_id=payload))
        else:
            body = clean_body(lines[start:max(end, start + 1)])
            if in_marked and blocks and blocks[-1].kind == "clause" and blocks[-1].given_id == pending_id:
                # everything up to the next marker or heading belongs to the marked clause
                prev = blocks[-1]
                prev.text = (prev.text + "\n\n" + body) if prev.text else body
            else:
                blocks.append(Block("clause", body, start + 1))
    return [b for b in blocks if b.kind == "heading" or b.text]


# --------------------------------------------------------------------------- plain text
_TABLE_ROW = re.compile(r"\t|^\s*\|.*\|\s*$")


def _is_heading(line: str) -> bool:
    s = line.strip()
    if not s or len(s) > 60 or re.search(r"[.:;!?,(\[]$|[:(]", s):
        return False
    ws = s.split()
    first = next((ch for ch in s if ch.isalnum()), "")
    return len(ws) <= 5 and first.isalpha() and first.isupper()


_STRUCTURE = re.compile(r"^\s{0,3}(?:[#<>=`~]|[-*_](?:\s*[-*_]){2,}\s*$|[-+*]\s*$|\d+[.)]\s*$)")


def _escape_plain(line: str) -> str:
    """Plain text going into Markdown: a line that Markdown would read as a
    heading, HTML, quote, fence or rule gets a backslash so it stays text."""
    if _STRUCTURE.match(line):
        stripped = line.lstrip()
        return line[:len(line) - len(stripped)] + "\\" + stripped
    return line


def _plain_blocks(text: str) -> list[Block]:
    lines = [_escape_plain(ln.rstrip()) for ln in text.splitlines()]
    paragraphs = any(not ln.strip() for ln in lines[1:-1]) and _has_multiline_paragraph(lines)
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if _TABLE_ROW.search(line):
            j = i
            rows = []
            while j < len(lines) and lines[j].strip() and _TABLE_ROW.search(lines[j]):
                rows.append(lines[j])
                j += 1
            blocks.append(Block("clause", _as_table(rows), i + 1))
            i = j
            continue
        if _is_heading(line) and (i + 1 < len(lines)):
            blocks.append(Block("heading", line.strip(), i + 1, 2))
            i += 1
            continue
        if paragraphs:
            j = i
            while j < len(lines) and lines[j].strip() and not _TABLE_ROW.search(lines[j]):
                j += 1
            blocks.append(Block("clause", "\n".join(lines[i:j]).strip(), i + 1))
            i = j
        else:
            blocks.append(Block("clause", line.strip(), i + 1))
            i += 1
    return blocks


def _has_multiline_paragraph(lines: list[str]) -> bool:
    """Paragraph mode only pays when some paragraph spans several lines."""
    run = 0
    for ln in lines:
        if ln.strip() and not _TABLE_ROW.search(ln):
            run += 1
            if run >= 2:
                return True
        else:
            run = 0
    return False


def _as_table(rows: list[str]) -> str:
    if rows[0].strip().startswith("|"):
        return "\n".join(r.strip() for r in rows)
    cells = [[c.strip() for c in r.split("\t")] for r in rows]
    width = max(len(c) for c in cells)
    cells = [c + [""] * (width - len(c)) for c in cells]
    out = ["| " + " | ".join(cells[0]) + " |", "|" + " --- |" * width]
    out += ["| " + " | ".join(c) + " |" for c in cells[1:]]
    return "\n".join(out)


# --------------------------------------------------------------------------- ids and output
def _unique(base: str, used: set[str]) -> str:
    cand, n = base, 1
    while cand in used:
        n += 1
        cand = f"{base}-{n}"
    used.add(cand)
    return cand


def _name_slug(text: str) -> str:
    slug = slugify(text, max_words=NAME_WORDS)[:NAME_CHARS].strip("-")
    return slug or "clause"


def split_rulebook(text: str, *, game: str, lang: str, name: str = "") -> Imported:
    """Split a designer's text into clauses and return the marked-up Markdown."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", game):
        raise WorkbenchError(f"game id {game!r} must be lower-case letters, digits and hyphens")
    blocks = _markdown_blocks(text) if looks_like_markdown(text, name) else _plain_blocks(text)
    if not any(b.kind == "clause" for b in blocks):
        raise WorkbenchError(f"{name or 'the text'} has no text to split into clauses")
    used_sections: set[str] = set()
    used_ids: set[str] = {b.given_id for b in blocks if b.given_id}
    section = "intro"
    out: list[str] = []
    res = Imported(game, lang, "")
    for b in blocks:
        if b.kind == "heading":
            section = _unique(slugify(b.text, max_words=6)[:NAME_CHARS].strip("-") or "section", used_sections)
            out += [f"<!-- section: {section} -->", "#" * b.level + " " + b.text, ""]
            res.sections.append({"id": f"{game}/{section}", "title": b.text, "line": b.line})
            continue
        cid = b.given_id or _unique(f"{game}/{section}/{_name_slug(b.text)}", used_ids)
        out += [f"<!-- rule: {cid} -->", b.text, ""]
        res.clauses.append({"id": cid, "section": f"{game}/{section}", "line": b.line, "text": b.text})
    res.markdown = "\n".join(out).rstrip("\n") + "\n"
    back = parse_rulebook(res.markdown, game=game, lang=lang)  # what we write must read back
    if list(back.clauses) != [c["id"] for c in res.clauses]:
        raise WorkbenchError(f"{name or 'the text'} does not split cleanly (Markdown structure inside a "
                             "clause); add headings or blank lines, or convert it to Markdown first")
    return res


def import_file(path: Path, *, lang: str, game: str | None = None, out_dir: Path | None = None,
                write: bool = True) -> tuple[Imported, Path, Path]:
    """Split ``path`` and write ``<out>/<lang>.md`` and ``<out>/<game>.pot``."""
    from workbench.core.storage import atomic_write_text

    from .catalog import catalog_text, template_catalog
    from workbench.core.data import read_text_file
    path = Path(path)
    text = read_text_file(path)  # size, binary and encoding refused with one line
    game_id = game or (slugify(path.stem) or "rules")
    imp = split_rulebook(text, game=game_id, lang=lang, name=path.name)
    out_dir = Path(out_dir) if out_dir else path.parent / f"{path.stem}-rules"
    md_path, pot_path = out_dir / f"{lang}.md", out_dir / f"{game_id}.pot"
    if write:
        book = parse_rulebook(imp.markdown, game=game_id, lang=lang, path=str(md_path))
        atomic_write_text(md_path, imp.markdown)
        atomic_write_text(pot_path, catalog_text(template_catalog(book)))
    return imp, md_path, pot_path
