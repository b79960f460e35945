"""Hungarian article agreement: "a" before a consonant, "az" before a vowel,
judged on how a placeholder's term renders, so a renamed term shows every article
that no longer fits. A placeholder with the ``az`` filter writes its own article."""

from __future__ import annotations

import re

from ..placeholders import PLACEHOLDER_RE, Unresolved, find_placeholders, hungarian_article, resolve_one
from ..text import strip_icons
from .base import ClauseCheck, Pair
from .tokens import base_lang

ARTICLE_FILTERS = {"az"}
_ARTICLE_PH = re.compile(r"(?<![\w-])([Aa]z?)\s+(" + PLACEHOLDER_RE.pattern + ")")
_ARTICLE_WORD = re.compile(r"(?<![\w-])(a|az)\s+((?:[^\w\s$]\ufe0f?)*)([A-ZÁÉÍÓÖŐÚÜŰ][\w-]*)")


def needs_az(word: str) -> bool | None:
    """Does ``word`` take "az"? None when it cannot be told (no letter or digit). The reading
    itself (numbers as spoken, Roman ordinals, acronyms by letter names) is
    :func:`placeholders.hungarian_article`'s, so the article filter and this check never disagree."""
    w = strip_icons(word)
    if not any(ch.isalnum() for ch in w):
        return None
    return hungarian_article(w) == "az"


def _verdict(article: str, az: bool) -> str:
    want = "az" if az else "a"
    if article.lower() == want:
        return ""
    return want.capitalize() if article[:1].isupper() else want


class ArticleCheck(ClauseCheck):
    """Hungarian "a"/"az" agrees with the first sound of the word or term after it (as the placeholder renders)."""

    name = "article"

    def run(self, p: Pair):
        if base_lang(p.tr_lang) != "hu":
            return []
        out = []
        for m in _ARTICLE_PH.finditer(p.tr):
            article, raw = m.group(1), m.group(2)
            ph = find_placeholders(raw)[0]
            if {f.lower() for f in ph.filters} & ARTICLE_FILTERS:
                out.append((f"{article} {raw}", f"{raw} writes its own article (|az); remove the {article!r} "
                                                "before it"))
                continue
            try:
                shown = resolve_one(ph, p.tr_ctx)
            except Unresolved:
                continue
            az = needs_az(shown)
            want = _verdict(article, az) if az is not None else ""
            if want:
                out.append((f"{article} {raw}", f"{raw} reads {shown!r}, which takes {want!r}, not {article!r}; "
                                                f"write {want} (or use ${{{ph.key}|az}})"))
        text = PLACEHOLDER_RE.sub(" ", p.tr)
        for m in _ARTICLE_WORD.finditer(text):
            az = needs_az(m.group(3))
            want = _verdict(m.group(1), az) if az is not None else ""
            if want:
                out.append((f"{m.group(1)} {m.group(3)}", f"{m.group(3)!r} takes {want!r}, not {m.group(1)!r}"))
        return out
