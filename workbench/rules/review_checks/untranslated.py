"""Text left in the source language: a heading or clause copied unchanged, or part
of a clause left untranslated."""

from __future__ import annotations

import re

from .base import ClauseCheck, Pair
from .dictionary import knows
from .lexicon import FUNCTION_WORDS
from .tokens import base_lang

_STRIP = re.compile(r"<!--.*?-->|\$\{[^}]*\}|`[^`]*`|https?://\S+", re.S)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _words(text: str) -> list[str]:
    return _WORD.findall(_STRIP.sub(" ", text))


def _names(p: Pair) -> set[str]:
    """Words that stay the same in every language: the game's name, and glossary
    terms written alike on both sides."""
    out: set[str] = set()
    game = p.tr_ctx.get("game") if isinstance(p.tr_ctx, dict) else None
    if isinstance(game, dict):
        out |= {w.lower() for w in _words(str(game.get("name", "")))}
    for pair in p.glossary:
        same = {f.lower() for f in pair.source} & {f.lower() for f in pair.target}
        for f in same:
            out |= {w.lower() for w in _words(f)}
    return out


class SameAsSourceCheck(ClauseCheck):
    """The translation is not the source copied unchanged (headings included)."""

    name = "untranslated"

    def run(self, p: Pair):
        if p.src.strip() != p.tr.strip():
            return []
        names = _names(p)
        left = [w for w in _words(p.tr) if len(w) > 1 and w.lower() not in names]
        if not left:
            return []
        return [("same as source", f"this {p.what} is the source text unchanged ({' '.join(left[:6])}…); "
                                   f"translate it into {p.tr_lang}")]


class LeftInSourceLanguageCheck(ClauseCheck):
    """No part of the clause left in the source language: its function words, or copied words the target language's dictionary does not know."""

    name = "untranslated-part"

    def run(self, p: Pair):
        if p.src.strip() == p.tr.strip():
            return []   # the whole-copy check says it
        src, tr = base_lang(p.src_lang), base_lang(p.tr_lang)
        ours = FUNCTION_WORDS.get(tr, set())
        theirs = FUNCTION_WORDS.get(src, set()) - ours
        words = _words(p.tr)
        names = _names(p)
        hits = [w for w in words if w.lower() in theirs and w.lower() not in names]
        src_words = {w.lower() for w in _words(p.src)}
        # a copied capitalised word in running text is a name (a card, a domain); in a
        # heading it is the heading left untranslated
        copied = [w for w in words if len(w) >= 4 and w.lower() in src_words and w.lower() not in names
                  and w.lower() not in ours and (p.heading or not w[:1].isupper()) and knows(tr, w) is False]
        if len(hits) >= 2 or (p.heading and copied) or len(copied) >= 3:
            shown = list(dict.fromkeys(hits + copied))[:6]
            return [(" ".join(shown), f"part of this {p.what} looks left in {p.src_lang}: {', '.join(shown)}; "
                                      f"translate it into {p.tr_lang}")]
        return []
