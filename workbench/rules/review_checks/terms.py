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
    """Terms of one family count together: those with the same icon (🏰Castle,
    🏰Castles, 🏰Castle Building) or the same first word (Knight, Knights)."""
    from ..text import icon_key, icons
    for form in list(pair.source) + list(pair.target):
        found = icons(form)
        if found:
            return "icon:" + icon_key(found[0])
    first = (pair.source[0].split() or [""])[0].lower()
    return "word:" + (first[:-1] if first.endswith("s") and len(first) > 3 else first)


def _english_form(word: str, term_word: str) -> bool:
    """English inflects at the end only: "Trading" is Trade (final e dropped),
    not Tradition, whatever the Hungarian-minded stem shapes allow."""
    stem = term_word[:-1] if term_word[-1:] in ("e", "y") else term_word
    return word.startswith(stem) and (word.startswith(term_word) or len(word) - len(stem) <= 4)


def term_counts(text: str, pairs, side: str, lang: str = "") -> Counter:
    return term_matches(text, pairs, side, lang)[0]


def term_matches(text: str, pairs, side: str, lang: str = "") -> tuple[Counter, list[set]]:
    """How often each glossary pair's term occurs (the longer term wins at a word),
    counted by :func:`family`."""
    from ..text import icon_key, icons
    toks = tokens(text)
    lower = text.lower()
    english = base_lang(lang) == "en"
    found: list[tuple[int, int, int, str]] = []   # (-chars, start, words, family)
    for pair in pairs:
        for form in (pair.source if side == "source" else pair.target):
            if not might_occur(form, lower, side == "target"):
                continue
            shown = icons(form)
            fam = "icon:" + icon_key(shown[0]) if shown else family(pair)
            n = len(tokens(form))
            first = tokens(form)[0][1].lower() if n else ""
            for i in term_positions(form, toks, lenient=side == "target", case=side == "source"):
                if english and not _english_form(toks[i][1].lower(), first):
                    continue
                found.append((-len(form), i, n, fam))
    return _resolve(found)


def _resolve(found: list) -> tuple[Counter, list[set]]:
    """Counts by family where terms overlap (the longest wins), and the positions
    where equally long forms of different families match (a form listed for two
    terms): those are left as sets of candidates."""
    covered: set[int] = set()
    out: Counter = Counter()
    ambiguous: list[set] = []
    ordered = sorted(found)
    for k, (neg, start, n, fam) in enumerate(ordered):   # the longest term wins where terms overlap
        span = set(range(start, start + max(n, 1)))
        if span & covered:
            continue
        covered |= span
        rivals = {f for (ng, st, _n, f) in ordered if ng == neg and st == start}
        if len(rivals) > 1:
            ambiguous.append(rivals)
        else:
            out[fam] += 1
    return out, ambiguous


class TermSwapCheck(ClauseCheck):
    """Each glossary term as often as the source has it at most: a term that gains occurrences while another loses them was put in the wrong place."""

    name = "term-swap"

    def run(self, p: Pair):
        if not p.glossary:
            return []
        a, amb_a = term_matches(p.src_full, p.glossary, "source", p.src_lang)
        b, amb_b = term_matches(p.tr_full, p.glossary, "target", p.tr_lang)
        # a form shared by two terms counts for whichever the other side needs
        for cands, mine, other in [(c, b, a) for c in amb_b] + [(c, a, b) for c in amb_a]:
            need = [f for f in sorted(cands) if other[f] > mine[f]]
            if need:
                mine[need[0]] += 1
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


def _negation_moves(p: Pair, said: str, instead: str) -> bool:
    """"always" become "never" negates once more ("never" is "not ever"), and the other
    way round once less: a "never" that renders a negation the source has elsewhere
    ("cannot" / "can never") is no opposite (scope compared as the count of negations,
    not as word presence). Other pairs: always True."""
    if {said, instead} not in ({"always", "never"}, {"mindig", "soha"}):
        return True
    from .negation import negations
    a, b = negations(p.src_full, p.src_lang), negations(p.tr_full, p.tr_lang)
    return b > a if instead in ("never", "soha") else b < a


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
                        and _has(p.tr_full, other[ti], t) and not _has(p.tr_full, one[ti], t)
                        and _negation_moves(p, one[si][0], other[ti][0])):
                    out.append((f"{one[si][0]} -> {other[ti][0]}",
                                f"the source says {one[si][0]!r} but the translation says {other[ti][0]!r}, its "
                                "opposite; check the rule's direction"))
        return out
