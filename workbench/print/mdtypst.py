"""Markdown (CommonMark plus tables) to Typst markup, from markdown-it-py's tokens.

Only what rulebooks use: headings, paragraphs, emphasis, inline code, links, lists
(nested, ordered with a start), block quotes, tables, rules, code blocks, line breaks.
An inline call ends in ``;`` so that text right after it (``(``, ``.``) is not read as part
of the call. Text is escaped so that nothing in a rule can be read as Typst markup. HTML comments
are dropped, except that a clause marker ``<!-- rule: ID -->`` calls ``on_clause(ID)``
and puts what it returns (Typst markup, e.g. the clause id and its rulings) in place.
"""

from __future__ import annotations

import re
from typing import Callable

from markdown_it import MarkdownIt

# a clause marker may go on to name its rulings: <!-- rule: g/s/name ruling: a, b -->
RULE_MARKER = re.compile(r"<!--\s*rule:\s*([\w/-]+)[^>]*?-->")
COMMENT = re.compile(r"<!--.*?-->", re.S)
INLINE_TAGS = {"<sup>": "#super[", "</sup>": "];", "<sub>": "#sub[", "</sub>": "];",
               "<mark>": "#highlight[", "</mark>": "];", "<b>": "#strong[", "</b>": "];",
               "<i>": "#emph[", "</i>": "];", "<br>": "#linebreak();", "<br/>": "#linebreak();"}
_SPECIAL = re.compile(r"([\\#*_`$@<>\[\]~/=+\-\"'();])")


def escape(text: str) -> str:
    """Text as Typst markup that shows it literally."""
    return _SPECIAL.sub(r"\\\1", text)


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").enable("strikethrough")


def _inline(children) -> str:
    out: list[str] = []
    links: list[str] = []      # what closes each open link
    for t in children or []:
        if t.type == "text":
            out.append(escape(t.content))
        elif t.type in ("strong_open", "strong_close"):
            out.append("#strong[" if t.type == "strong_open" else "];")
        elif t.type in ("em_open", "em_close"):
            out.append("#emph[" if t.type == "em_open" else "];")
        elif t.type in ("s_open", "s_close"):
            out.append("#strike[" if t.type == "s_open" else "];")
        elif t.type == "code_inline":
            out.append("#raw(" + _string(t.content) + ");")
        elif t.type == "softbreak":
            out.append(" ")
        elif t.type == "hardbreak":
            out.append("#linebreak();")
        elif t.type == "link_open":
            href = str(t.attrs.get("href", ""))
            if href.startswith("#"):
                # an anchor inside the rendered book (a ruling mark pointing at its
                # legend line): paper has no anchors, the mark's text is what counts
                links.append("")
            else:
                out.append("#link(" + _string(href) + ")[")
                links.append("];")
        elif t.type == "link_close":
            out.append(links.pop() if links else "")
        elif t.type == "image":
            out.append(escape(t.content or ""))
        elif t.type == "html_inline":
            # the few inline tags a rendered rulebook may carry (a raised draft mark,
            # a highlighted ruling); any other tag is dropped and its text kept
            tag = INLINE_TAGS.get(t.content.strip().lower())
            if tag:
                out.append(tag)
        else:
            out.append(escape(t.content or ""))
    return "".join(out)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: a table's last row, a blank line, then a line of ruling marks only ([†4](#ruling-x))
_MARKS_AFTER_TABLE = re.compile(r"(^\|[^\n]*?)\s*\|[ \t]*\n[ \t]*\n((?:\[†\d+\]\(#[^)\s]*\)[ \t]*)+)$", re.M)


def marks_into_tables(md: str) -> str:
    """Ruling marks the renderer puts after a clause that ends in a table go into
    the table's last cell, so they stay with their row instead of standing alone
    on a line (or a page) of their own."""
    return _MARKS_AFTER_TABLE.sub(lambda m: f"{m.group(1)} {' '.join(m.group(2).split())} |", md)


def markdown_to_typst(md: str, *, on_clause: Callable[[str], str] | None = None) -> str:
    """Typst markup of the Markdown ``md``."""
    tokens = _parser().parse(marks_into_tables(md))
    stack: list[list[str]] = [[]]
    meta: list[dict] = []

    def emit(s: str) -> None:
        stack[-1].append(s)

    for t in tokens:
        kind = t.type
        if kind == "heading_open":
            stack.append([]); meta.append({"level": int(t.tag[1:])})
        elif kind == "heading_close":
            body = "".join(stack.pop()); m = meta.pop()
            emit(f"#heading(level: {m['level']})[{body}]\n\n")
        elif kind == "paragraph_open":
            stack.append([]); meta.append({"hidden": t.hidden})
        elif kind == "paragraph_close":
            body = "".join(stack.pop()); m = meta.pop()
            emit(body + (" " if m["hidden"] else "\n\n"))
        elif kind == "inline":
            emit(_inline(t.children))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            stack.append([]); meta.append({"ordered": kind == "ordered_list_open",
                                          "start": int(t.attrs.get("start", 1) or 1), "items": []})
        elif kind == "list_item_open":
            stack.append([])
        elif kind == "list_item_close":
            item = "".join(stack.pop()).strip()
            meta[-1]["items"].append(item)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            stack.pop(); m = meta.pop()
            items = ", ".join(f"[{i}]" for i in m["items"])
            if m["ordered"]:
                emit(f"#enum(start: {m['start']}, {items})\n\n")
            else:
                emit(f"#list({items})\n\n")
        elif kind == "blockquote_open":
            stack.append([])
        elif kind == "blockquote_close":
            emit("#quote(block: true)[" + "".join(stack.pop()).strip() + "]\n\n")
        elif kind == "table_open":
            stack.append([]); meta.append({"cells": [], "head": [], "cols": 0, "row": 0})
        elif kind == "tr_open":
            meta[-1]["row"] = 0
        elif kind in ("th_open", "td_open"):
            stack.append([])
        elif kind in ("th_close", "td_close"):
            cell = "".join(stack.pop()).strip()
            m = meta[-1]
            if kind == "th_close":
                m["head"].append(f"[#strong[{cell}]]")
            else:
                m["cells"].append(f"[{cell}]")
            m["row"] += 1
            m["cols"] = max(m["cols"], m["row"])
        elif kind == "table_close":
            stack.pop(); m = meta.pop()
            # the header row repeats at the top of every page the table runs onto
            head = ("table.header(" + ", ".join(m["head"]) + "), ") if m["head"] else ""
            emit(f"#table(columns: {m['cols']}, inset: 4pt, " + head + ", ".join(m["cells"]) + ")\n\n")
        elif kind == "hr":
            emit("#line(length: 100%, stroke: 0.5pt + gray)\n\n")
        elif kind in ("fence", "code_block"):
            emit("#raw(block: true, " + _string(t.content.rstrip("\n")) + ")\n\n")
        elif kind == "html_block":
            for cid in RULE_MARKER.findall(t.content):
                if on_clause is not None:
                    emit(on_clause(cid))
            # text on the marker's own line after "-->" belongs to the clause body
            rest = COMMENT.sub("", t.content).strip()
            if rest and not rest.startswith("<"):
                emit(markdown_to_typst(rest))
    return "".join(stack[0])
