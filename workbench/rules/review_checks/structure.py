"""Markdown structure and tables: the same blocks, list items, emphasis and table
cells on both sides, compared with markdown-it-py's token stream."""

from __future__ import annotations

import functools
import re
from collections import Counter

from workbench.core.counting import counted

from .base import ClauseCheck, Pair
from .tokens import numbers, tokenize, value_counter, with_unit_marks

_KINDS = {"table_open": "table", "tr_open": "table row", "bullet_list_open": "bullet list",
          "ordered_list_open": "numbered list", "list_item_open": "list item", "strong_open": "bold",
          "em_open": "italic", "code_inline": "code", "hardbreak": "line break", "heading_open": "heading",
          "blockquote_open": "quote", "paragraph_open": "paragraph"}


@functools.lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def structure(text: str) -> Counter:
    c: Counter = Counter()

    def walk(toks):
        for t in toks:
            if t.type in _KINDS:
                c[_KINDS[t.type]] += 1
            if t.children:
                walk(t.children)
    walk(_parser().parse(text))
    return c


class MarkdownCheck(ClauseCheck):
    """The same Markdown structure: tables and rows, lists and items, bold, italic, code, paragraphs."""

    name = "markdown"

    def run(self, p: Pair):
        a, b = structure(p.src), structure(p.tr)
        if a == b:
            return []
        diffs = []
        for kind in sorted(set(a) | set(b)):
            if a[kind] != b[kind]:
                diffs.append(f"{kind} {a[kind]} -> {b[kind]}")
        return [("; ".join(diffs), "the Markdown differs from the source's ("
                 + "; ".join(diffs) + "); keep every table separator, row, list item and emphasis")]


_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SEP = re.compile(r"^\s*\|?\s*:?-{3,}")


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        m = _ROW.match(line)
        if m and not _SEP.match(line):
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", m.group(1))])
    return rows


class TableCellsCheck(ClauseCheck):
    """Tables compared cell by cell: the same rows and columns, each cell with the source cell's numbers, icons and placeholders."""

    name = "table"
    headings = False

    def run(self, p: Pair):
        a, b = table_rows(p.src), table_rows(p.tr)
        if not a and not b:
            return []
        if len(a) != len(b):
            return [(f"rows {len(a)} -> {len(b)}", f"the source table has {counted(len(a), 'row')}, the translation {len(b)}; "
                                                  "keep one row per source row")]
        out = []
        for r, (ra, rb) in enumerate(zip(a, b), start=1):
            if len(ra) != len(rb):
                out.append((f"row {r} columns {len(ra)} -> {len(rb)}",
                            f"row {r} has {len(ra)} cells in the source and {len(rb)} in the translation"))
                continue
            for c, (ca, cb) in enumerate(zip(ra, rb), start=1):
                why = self._cell(p, ca, cb)
                if why:
                    out.append((f"row {r} col {c}", f"table row {r}, column {c}: {why}"))
        return out[:3]

    @staticmethod
    def _cell(p: Pair, ca: str, cb: str) -> str:
        from ..placeholders import placeholder_keys
        from ..text import icons, icon_key
        if Counter(placeholder_keys(ca)) != Counter(placeholder_keys(cb)):
            return "the placeholders differ from the source cell's"
        ia, ib = Counter(map(icon_key, icons(ca))), Counter(map(icon_key, icons(cb)))
        if ia != ib:
            return f"icons {' '.join(ia.elements()) or 'none'} in the source, {' '.join(ib.elements()) or 'none'} here"
        ta, ka = with_unit_marks(ca, p.src_ctx)
        tb, kb = with_unit_marks(cb, p.tr_ctx)
        na, _ = value_counter(numbers(tokenize(ta, p.src_lang, ka)))
        nb, _ = value_counter(numbers(tokenize(tb, p.tr_lang, kb)))
        na.pop(1, None)
        nb.pop(1, None)
        if na != nb:
            return (f"numbers {' '.join(map(str, sorted(na.elements()))) or 'none'} in the source, "
                    f"{' '.join(map(str, sorted(nb.elements()))) or 'none'} here")
        return ""
