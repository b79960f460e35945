"""Inflected placeholders of a rules text, rendered as the reader sees them.

A Hungarian translation bends terms it does not spell out: an article filter
(``${terms.tracks.hope|az}`` prints "a Remény"), a named form
(``${terms.tracks.hope|acc}`` prints "Reményt"), or letters joined to the
placeholder (``${terms.tracks.storm}-kockát``, and the mistake
``${terms.tracks.hope|az}ot``, which prints "a Reményot"). The source
shows none of these words, so only the rendering can be checked: :func:`inflected_uses`
gives each such use with the whole word it prints, and :func:`rules_texts` every
text of a game written in a language (translated clauses, the original's clauses,
the content overlay), so a test can hold each printed word to the dictionary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Mapping

from .placeholders import BUILTIN_FILTERS, PLACEHOLDER_RE, Unresolved, find_placeholders, resolve_one

ARTICLE_FILTERS = ("az", "Az")
_JOINED_AFTER = re.compile(r"[\w-]*")            # letters (and a hyphen) glued after the placeholder
_JOINED_BEFORE = re.compile(r"[\w-]*$")          # ... and before it


@dataclass(frozen=True)
class InflectedUse:
    where: str               # clause id or content path
    raw: str                 # the placeholder as written, with what is glued to it
    kind: str                # "article", "form" or "joined" (letters glued to the placeholder)
    printed: str             # what the reader sees: "a Bizalomot", "Felügyelet-kockát"
    article: str = ""        # the article the filter wrote ("a", "az", "A", "Az"), if any
    word: str = ""           # the word the article stands before

    @property
    def words(self) -> list[str]:
        """The printed words a dictionary should know (the article left out)."""
        text = self.printed[len(self.article):] if self.article else self.printed
        return [w for w in re.findall(r"[\w-]+", text) if not w[0].isdigit()]   # a number with its suffix


def inflected_uses(text: str, ctx: Mapping, where: str = "") -> list[InflectedUse]:
    """Every placeholder of ``text`` that is inflected: with an article filter, a
    named form, or letters glued to it. Unresolved placeholders are left out (the
    review's placeholder check names those)."""
    out = []
    for m in PLACEHOLDER_RE.finditer(text):
        ph = find_placeholders(m.group(0))[0]
        before = _JOINED_BEFORE.search(text[:m.start()]).group(0)
        after = _JOINED_AFTER.match(text, m.end()).group(0)
        forms = [f for f in ph.filters if f not in BUILTIN_FILTERS]
        articles = [f for f in ph.filters if f in ARTICLE_FILTERS]
        if not (forms or articles or before or after):
            continue
        try:
            shown = resolve_one(ph, ctx)
        except Unresolved:
            continue
        article = shown.split(" ", 1)[0] if articles else ""
        kind = "article" if articles else "form" if forms else "joined"
        printed = before + shown + after
        word = shown[len(article):].strip() if article else ""
        out.append(InflectedUse(where, before + m.group(0) + after, kind, printed, article, word))
    return out


def rules_texts(game_id: str, lang: str) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every text of ``game_id`` written in ``lang``: the
    translated clauses and headings of ``<lang>.po``, or the original's when ``lang``
    is the original's language, and the strings of ``content.<lang>.yaml``."""
    from workbench.core.data import load_yaml

    from . import catalog as C
    source = C.load_source(game_id)
    if source is None:
        return
    if source.lang == lang:
        for ctxt, msgid, _line in source.entries():
            yield ctxt, msgid
    elif C.po_path(game_id, lang).exists():
        for ctxt, msg in C.entries_by_context(C.read_catalog(C.po_path(game_id, lang))).items():
            if msg.string:
                yield ctxt, msg.string
    path = C.rules_dir(game_id) / f"content.{lang}.yaml"
    if path.exists():
        yield from _strings(load_yaml(path) or {}, f"content.{lang}.yaml")


def _strings(node, where: str) -> Iterator[tuple[str, str]]:
    from .placeholders import META_KEYS
    if isinstance(node, Mapping):
        for k, v in node.items():
            if str(k) not in META_KEYS:
                yield from _strings(v, f"{where}:{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _strings(v, f"{where}:{i}")
    elif isinstance(node, str):
        yield where, node
