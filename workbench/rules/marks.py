"""Marks that tell a reader what in a rendered rulebook is ours, not the source's.

Two kinds, both decided in one place each:

* a **draft value**: a placeholder (``${content...}``, ``${facts...}``, ``${game...}``)
  whose value the data marks ``provenance: draft`` (on its own block, or by naming
  the field in the block's ``draft_fields``). The rendered value is followed by ``‡``.
* a **ruling**: a clause whose text states a decision of ours names the ruling in
  its marker, ``<!-- rule: game/section/name ruling: ruling-id -->`` (the id is an
  entry of ``cards/<game>/rulings.yaml``). The rendered clause ends with a numbered
  dagger linking to that ruling in a legend at the end of the book.

Terms (``${terms...}``) are words, not rules values, so they carry no mark.
``workbench rules render --plain`` leaves every mark and the legend out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .placeholders import PLACEHOLDER_RE, Unresolved, find_placeholders, resolve_one

DRAFT_MARK = "‡"
RULING_MARK = "†"

# The legend in each rulebook language; a language without an entry gets English
# (render refuses to mix prose languages before it gets this far).
LEGEND = {
    "en": {
        "title": "Marks",
        "draft": "‡ A value of ours (a draft placeholder), not given by the source; the designer replaces it.",
        "ruling": "† A sentence decided by a ruling of ours where the source is silent or unclear; "
                  "the ruling is kept under its id in the game's rulings.yaml:",
    },
    "hu": {
        "title": "Jelölések",
        "draft": "‡ Saját, ideiglenes érték, amelyet nem a forrás ad meg; a tervező cseréli le.",
        "ruling": "† Saját döntésünk ott, ahol a forrás hallgat vagy nem egyértelmű; "
                  "a döntés az azonosítójával a játék rulings.yaml fájljában található:",
    },
}


def load_rulings(game_id: str) -> dict[str, dict]:
    """The game's rulings by id (empty when it has no rulings.yaml)."""
    from workbench.core.data import cards_dir, load_yaml
    path = cards_dir(game_id) / "rulings.yaml"
    if not path.exists():
        return {}
    data = load_yaml(path) or []
    return {str(r["id"]): r for r in data if isinstance(r, Mapping) and "id" in r}


def is_draft(ctx: Mapping, key: str) -> bool:
    """Whether the value at ``key`` is ours: the nearest enclosing block that says
    so has ``provenance: draft``, or lists the field in ``draft_fields``."""
    if key.split(".", 1)[0] == "terms":
        return False
    node: Any = ctx
    draft = False
    for part in key.split("."):
        if isinstance(node, Mapping):
            if "provenance" in node:
                draft = node["provenance"] == "draft"
            if part in (node.get("draft_fields") or ()):
                draft = True
            node = node.get(part, node.get(int(part)) if part.isdigit() else None)
        elif isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    if isinstance(node, Mapping) and "provenance" in node:
        draft = node["provenance"] == "draft"
    return draft


def resolve_marked(text: str, ctx: Mapping, *, marks: bool = True) -> tuple[str, list[tuple[str, str]], int]:
    """Like :func:`placeholders.resolve_text`, with ``‡`` after every draft value
    when ``marks``; also returns how many draft values it marked."""
    problems: list[tuple[str, str]] = []
    count = 0

    def sub(m: re.Match) -> str:
        nonlocal count
        ph = find_placeholders(m.group(0))[0]
        try:
            value = resolve_one(ph, ctx)
        except Unresolved as exc:
            problems.append((ph.raw, str(exc)))
            return m.group(0)
        if marks and is_draft(ctx, ph.key):
            count += 1
            return value + DRAFT_MARK
        return value

    return PLACEHOLDER_RE.sub(sub, text), problems, count


@dataclass
class RulingMarks:
    """Numbers the rulings in order of first appearance and writes the legend."""
    lang: str
    known: dict[str, dict]
    order: list[str] = field(default_factory=list)
    drafts: int = 0

    def number(self, ruling_id: str) -> int:
        if ruling_id not in self.order:
            self.order.append(ruling_id)
        return self.order.index(ruling_id) + 1

    def mark(self, ruling_ids: tuple[str, ...]) -> str:
        """``[†1](#ruling-id)`` for each ruling (in print: †1)."""
        return "".join(f"[{RULING_MARK}{self.number(r)}](#ruling-{r})" for r in ruling_ids)

    def legend(self) -> str:
        """The closing legend, or "" when nothing was marked."""
        if not self.order and not self.drafts:
            return ""
        words = LEGEND.get(self.lang, LEGEND["en"])
        out = ["---", "", f"**{words['title']}**", ""]
        if self.drafts:
            out += [words["draft"], ""]
        if self.order:
            out += [words["ruling"], ""]
            for n, rid in enumerate(self.order, start=1):
                entry = self.known.get(rid, {})
                # rulings.yaml is written in English: its question is quoted only in an
                # English book, so no other language's legend mixes in English prose
                question = str(entry.get("question") or "").strip() if self.lang == "en" else ""
                out.append(f'- <a id="ruling-{rid}"></a>{RULING_MARK}{n} `{rid}`'
                           + (f": {question}" if question else ""))
            out.append("")
        return "\n".join(out)


def append_mark(body: str, mark: str) -> str:
    """``body`` with ``mark`` at its end; a body that ends in a table row or a code
    fence gets the mark as a paragraph of its own, so the table stays a table."""
    if not mark or not body:
        return body
    last = body.rstrip("\n").rsplit("\n", 1)[-1].lstrip()
    if last.startswith("|") or last.startswith("```") or last.startswith("<!--"):
        return body.rstrip("\n") + "\n\n" + mark
    return body.rstrip("\n") + " " + mark


def mark_clause(text: str, ruling_ids: tuple[str, ...], ctx: Mapping | None = None) -> str:
    """One clause as a page that shows clauses one by one (the dashboard's Rules
    page) shows it: placeholders filled with draft values marked when ``ctx`` is
    given, and ``†ruling-id`` for each ruling (no legend there, so the id is spelt out)."""
    if ctx is not None:
        text = resolve_marked(text, ctx)[0]
    return append_mark(text, " ".join(f"{RULING_MARK}{r}" for r in ruling_ids))
