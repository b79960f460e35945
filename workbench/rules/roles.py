"""Who does what to whom in a rules sentence: the clause each term stands in, its role
there, and what a bound ("at least", *legalább*) counts.

A rules sentence is cut into clauses at its punctuation (``, ; : ( )`` and dashes); a
translator keeps the clauses of a sentence together with the terms they hold, even where
word order inside a clause changes (Hungarian puts a possessor first, a verb last). So:

* :func:`clause_of_terms` gives each term of a sentence (a ``${terms...}`` placeholder,
  an icon-marked word such as 🛡️Vitals, or a written-out game term of the glossary) the
  index of the clause it stands in;
* :func:`clause_swap` finds two terms that traded clauses: the pairs of terms that share
  a clause in the source but not in the translation (and the other way round) become
  fewer by at least two when the two terms are put back in each other's place;
* :func:`term_case_roles` reads a term's role from its grammar: Hungarian case endings
  (*-nak/-nek* recipient, *-tól/-től* and *-ból/-ből* source, *-ba/-ra/-hoz* goal,
  *-t* object, none: the actor or a possessor), English prepositions before it ("to"
  recipient or goal, "from" source, "of" and "'s" possessor) and its place before or
  after the clause's verb;
* :func:`bounded_numbers` gives each number with the bound set on it (at least, at
  most, exactly; "2 or more" is at least 2, *2 vagy több* too), so "at least three"
  become "exactly three" is found even where another "at least" is left in the sentence:
  what is counted is compared, not which words are present.
"""

from __future__ import annotations

import functools
import itertools
import re
import zlib

from .meaning import _ICON_TERM, _PLACEHOLDER, base_lang

# a clause ends at a comma, semicolon, colon, bracket or dash
_CLAUSE_BREAK = re.compile(r"[,;:()\[\]]|\s[–—]\s")


def term_places(text: str) -> list[tuple[int, str]]:
    """``(position, key)`` of each term: ``terms.x.y`` for a placeholder, ``icon:🛡``
    for an icon-marked word (the icon names the term in every language)."""
    from .text import icon_key, icons
    out = []
    for m in _PLACEHOLDER.finditer(text):
        key = m.group(0)[2:-1].split("|")[0].strip()
        if key.startswith("terms."):
            out.append((m.start(), key))
    blank = _PLACEHOLDER.sub(lambda x: " " * len(x.group(0)), text)
    for m in _ICON_TERM.finditer(blank):
        marks = icons(m.group(1))
        if marks:
            out.append((m.start(2) - 1, "icon:" + icon_key(marks[-1])))
    return sorted(out)


def clause_of_terms(text: str) -> dict[str, list[int]]:
    """key -> the index of the clause of each of its occurrences (see the module doc)."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text)]
    out: dict[str, list[int]] = {}
    for pos, key in term_places(text):
        out.setdefault(key, []).append(sum(b < pos for b in breaks))
    return out


# at least this many terms named once on both sides before a trade of clauses is judged:
# with three, one clause break that one language puts and the other does not looks like a
# trade ("After the 🌳Legacy, raise 🌟Meaning ... and resolve the ⚡Bonus" / "..., és
# oldd fel"); with four or more the bundled sentences (486 clause pairs) show none
CLAUSE_SWAP_MIN_TERMS = 4


@functools.lru_cache(maxsize=4096)
def clause_swap(src: str, tr: str) -> tuple[str, str] | None:
    """Two terms of a sentence that stand in each other's clause in the translation
    (see the module doc), or None."""
    a, b = clause_of_terms(src), clause_of_terms(tr)
    common = [k for k in a if len(a[k]) == 1 and len(b.get(k, ())) == 1]
    if len(common) < CLAUSE_SWAP_MIN_TERMS:
        return None
    sa = {k: a[k][0] for k in common}
    sb = {k: b[k][0] for k in common}
    pairs = list(itertools.combinations(common, 2))

    def disagree(s: dict) -> int:
        return sum((sa[u] == sa[v]) != (s[u] == s[v]) for u, v in pairs)

    before = disagree(sb)
    if before < 2:
        return None
    best, found = 1, None
    for u, v in pairs:
        if sb[u] == sb[v]:
            continue
        s = dict(sb)
        s[u], s[v] = sb[v], sb[u]
        gain = before - disagree(s)
        if gain > best:
            best, found = gain, (u, v)
    return found


# --------------------------------------------------------------------------- bounds on numbers
_EN_NUM = (r"(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|both)")
_HU_NUM = (r"(\d+(?:-[a-záéíóöőúüű]+)?|nulla|egy|két|kettő|kettőt|három|hármat|négy|négyet|öt|ötöt|hat|hatot|hét|"
           r"hetet|nyolc|nyolcat|kilenc|kilencet|tíz|tizet|tizenkét|tizenkettő)")
BOUND_PATTERNS = {
    "en": [("min", r"\bat least " + _EN_NUM), ("min", r"\bno fewer than " + _EN_NUM),
           ("min", r"\b" + _EN_NUM + r" or more\b"), ("max", r"\bat most " + _EN_NUM),
           ("max", r"\bno more than " + _EN_NUM), ("max", r"\bup to " + _EN_NUM),
           ("max", r"\b" + _EN_NUM + r" or fewer\b"), ("max", r"\b" + _EN_NUM + r" or less\b"),
           ("exact", r"\bexactly " + _EN_NUM)],
    "hu": [("min", r"\blegalább " + _HU_NUM), ("min", r"(?<!\w)" + _HU_NUM + r" vagy több\b"),
           ("max", r"\blegfeljebb " + _HU_NUM), ("max", r"\bmaximum " + _HU_NUM),
           ("max", r"(?<!\w)" + _HU_NUM + r" vagy kevesebb\b"), ("exact", r"\bpontosan " + _HU_NUM)],
}


def _value(word: str) -> str:
    from .numbers import EN_WORDS, HU_WORDS
    w = word.lower().split("-")[0]
    if w.isdigit():
        return w
    if w == "both":
        return "2"
    for table in (EN_WORDS, HU_WORDS):
        if w in table:
            return str(table[w])
    hu = {"két": 2, "kettőt": 2, "hármat": 3, "négyet": 4, "ötöt": 5, "hatot": 6, "hetet": 7, "nyolcat": 8,
          "kilencet": 9, "tizet": 10, "tizenkét": 12}
    return str(hu.get(w, w))


def bounded_numbers(text: str, lang: str) -> dict[str, set[str]]:
    """number -> the bounds set on it in ``text`` ("min", "max", "exact"); placeholders
    count as numbers by their key (``${content.rules.x}``)."""
    # a placeholder stands for a number of its own: the same key, the same digits
    text = _PLACEHOLDER.sub(lambda m: f" {900000 + zlib.crc32(m.group(0).split('|')[0].encode()) % 99999} ", text)
    out: dict[str, set[str]] = {}
    low = text.lower()
    for kind, pat in BOUND_PATTERNS.get(base_lang(lang), []):
        for m in re.finditer(pat, low):
            out.setdefault(_value(m.group(1)), set()).add(kind)
    return out


def bound_changes(src: str, src_lang: str, tr: str, tr_lang: str) -> list[tuple[str, str, str]]:
    """``(number, source bounds, translation bounds)`` for each number both texts bound,
    differently (a bound that only one side sets is the negation check's)."""
    a, b = bounded_numbers(src, src_lang), bounded_numbers(tr, tr_lang)
    out = []
    for n in sorted(set(a) & set(b)):
        if a[n] != b[n] and not (a[n] & b[n]):
            out.append((n, "/".join(sorted(a[n])), "/".join(sorted(b[n]))))
    return out
