"""Hungarian article agreement: "a" before a consonant, "az" before a vowel,
judged on how a placeholder's term renders, so a renamed term shows every article
that no longer fits. A placeholder with the ``az`` filter writes its own article."""

from __future__ import annotations

import re

from ..placeholders import PLACEHOLDER_RE, Unresolved, _roman_value, find_placeholders, resolve_one
from ..text import strip_icons
from .base import ClauseCheck, Pair
from .tokens import base_lang

ARTICLE_FILTERS = {"az"}
_VOWELS = set("aáeéiíoóöőuúüű")
_VOWEL_LETTER_NAMES = set("AÁEÉFIÍLMNOÓÖŐRSUÚÜŰXY")   # ef, el, em, en, er, es, iksz, ipszilon
_ARTICLE_PH = re.compile(r"(?<![\w-])([Aa]z?)\s+(" + PLACEHOLDER_RE.pattern + ")")
_ARTICLE_WORD = re.compile(r"(?<![\w-])(a|az)\s+((?:[^\w\s$]\ufe0f?)*)([A-ZÁÉÍÓÖŐÚÜŰ][\w-]*)")


def needs_az(word: str) -> bool | None:
    """Does ``word`` take "az"? None when it cannot be told (no letter or digit)."""
    w = strip_icons(word).lstrip(" \ufe0f*_„\"(")
    if not w:
        return None
    if w[0].isdigit():
        digits = re.match(r"\d+", w).group(0)
        return digits == "1" or digits[0] == "5" and len(digits) in (1, 2, 3) or len(digits) == 4 and digits[0] == "1"
    roman = re.match(r"[IVXLC]+(?![\w])", w)
    if roman:   # read as an ordinal: I. első, V. ötödik, L. ötvenedik take "az"
        return _roman(roman.group(0)) in (1, 5) or 50 <= _roman(roman.group(0)) < 60
    if len(w) > 1 and w[:2].isupper() and w[:2].isalpha():
        return w[0] in _VOWEL_LETTER_NAMES   # an acronym reads letter by letter: "az MI"
    return w[0].lower() in _VOWELS


_roman = _roman_value   # one reading of a Roman numeral, shared with the article filter


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
