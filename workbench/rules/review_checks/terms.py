"""Terms and rules words: a glossary term put where the source has another one, and
a rules word turned into its opposite ("top" -> "alja", "draw" -> "dobd el")."""

from __future__ import annotations

import re
from collections import Counter

from ..glossary import might_occur, term_positions, tokens
from .base import ClauseCheck, Pair
from .lexicon import ANTONYMS
from .tokens import base_lang


def family(pair) -> str:
    """Terms of one family count together: those with the same icon (🧬Pattern,
    🧬Patterns, 🧬Pattern Loading) or the same first word (Agent, Agents)."""
    from ..text import icon_key, icons
    for form in list(pair.source) + list(pair.target):
        found = icons(form)
        if found:
            return "icon:" + icon_key(found[0])
    first = (pair.source[0].split() or [""])[0].lower()
    return "word:" + (first[:-1] if first.endswith("s") and len(first) > 3 else first)


def term_counts(text: str, pairs, side: str) -> Counter:
    """How often each glossary pair's term occurs (the longer term wins at a word),
    counted by :func:`family`."""
    from ..text import icon_key, icons
    toks = tokens(text)
    lower = text.lower()
    found: list[tuple[int, int, int, str]] = []   # (-chars, start, words, family)
    for pair in pairs:
        for form in (pair.source if side == "source" else pair.target):
            if not might_occur(form, lower, side == "target"):
                continue
            shown = icons(form)
            fam = "icon:" + icon_key(shown[0]) if shown else family(pair)
            n = len(tokens(form))
            for i in term_positions(form, toks, lenient=side == "target", case=side == "source"):
                found.append((-len(form), i, n, fam))
    covered: set[int] = set()
    out: Counter = Counter()
    for _neg, start, n, fam in sorted(found):   # the longest term wins where terms overlap
        span = set(range(start, start + max(n, 1)))
        if span & covered:
            continue
        covered |= span
        out[fam] += 1
    return out


class TermSwapCheck(ClauseCheck):
    """Each glossary term as often as the source has it at most: a term that gains occurrences while another loses them was put in the wrong place."""

    name = "term-swap"

    def run(self, p: Pair):
        if not p.glossary:
            return []
        a = term_counts(p.src_full, p.glossary, "source")
        b = term_counts(p.tr_full, p.glossary, "target")
        extra = [n for n in b if b[n] > a[n]]
        short = [n for n in a if a[n] > b[n]]
        if not extra or not short:
            return []
        # a pronoun may stand for a repeated term: only a term that is now missing where
        # the source has it, together with a term the source has fewer of, is a swap
        names = {}
        for pair in p.glossary:
            names.setdefault(family(pair), pair.target[0])
        x = ", ".join(names[n] for n in extra)
        y = ", ".join(names[n] for n in short)
        return [(f"{y} -> {x}", f"the translation has {x} more often than the source and {y} less often: "
                                "a term stands where the source has another one")]


def _has(text: str, forms: tuple[str, ...], lang: str) -> bool:
    low = text.lower()
    for f in forms:
        if " " in f:
            if f in low:
                return True
            continue
        if lang == "hu":
            if re.search(r"(?<![\w-])" + re.escape(f) + r"\w{0,5}(?![\w])", low):
                return True
        elif re.search(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", low):
            return True
    return False


class AntonymCheck(ClauseCheck):
    """Rules words keep their sense: where the source says "top", "gain" or "before", the translation does not say only the opposite."""

    name = "opposite"
    headings = False

    def run(self, p: Pair):
        s, t = base_lang(p.src_lang), base_lang(p.tr_lang)
        if {s, t} != {"en", "hu"}:
            return []
        si, ti = (0, 1) if s == "en" else (1, 0)
        out = []
        for x, y in ANTONYMS:
            for one, other in ((x, y), (y, x)):
                if (_has(p.src_full, one[si], s) and not _has(p.src_full, other[si], s)
                        and _has(p.tr_full, other[ti], t) and not _has(p.tr_full, one[ti], t)):
                    out.append((f"{one[si][0]} -> {other[ti][0]}",
                                f"the source says {one[si][0]!r} but the translation says {other[ti][0]!r}, its "
                                "opposite; check the rule's direction"))
        return out
