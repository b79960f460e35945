"""Typing slips: doubled words, unbalanced brackets, stray spaces, a lower-case
sentence start."""

from __future__ import annotations

import re

from .base import ClauseCheck, Pair

_STRIP = re.compile(r"<!--.*?-->|\$\{[^}]*\}|`[^`]*`", re.S)
_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_DOUBLED = re.compile(r"(?<![\w-])([^\W\d_]+)\s+\1(?![\w-])", re.I)
_PAIRS = {"(": ")", "[": "]", "{": "}", "„": "”", "«": "»"}


class DoubledWordCheck(ClauseCheck):
    """No word written twice in a row ("az az", "the the")."""

    name = "doubled-word"

    def run(self, p: Pair):
        src = {m.group(1).lower() for m in _DOUBLED.finditer(_words(p.src))}
        found = [m.group(0) for m in _DOUBLED.finditer(_words(p.tr)) if m.group(1).lower() not in src]
        return [(f, f"{f!r} repeats a word; write it once") for f in found]


def _words(text: str) -> str:
    """``text`` without comments, code and placeholders; a placeholder leaves a
    mark between its neighbours, since it stands for a word ("a ${term} a
    pakliból" doubles nothing)."""
    return _STRIP.sub(" ", _PLACEHOLDER.sub(" \u2060\u00a4 ", text))


def bracket_problem(text: str) -> str:
    stack: list[str] = []
    for ch in _STRIP.sub(" ", text):
        if ch in _PAIRS:
            stack.append(ch)
        elif ch in _PAIRS.values():
            if not stack or _PAIRS[stack[-1]] != ch:
                return f"{ch!r} closes nothing"
            stack.pop()
    return f"{stack[-1]!r} is never closed" if stack else ""


class BracketsCheck(ClauseCheck):
    """Brackets and quotes („ ”) opened and closed in pairs."""

    name = "brackets"

    def run(self, p: Pair):
        why = bracket_problem(p.tr)
        if not why or bracket_problem(p.src):
            return []
        return [(why, f"unbalanced brackets: {why}")]


class WhitespaceCheck(ClauseCheck):
    """No leading or trailing spaces, and no doubled spaces, where the source has none."""

    name = "whitespace"

    def run(self, p: Pair):
        out = []
        for label, a, b in (("leading", p.src[:1].isspace(), p.tr[:1].isspace()),
                            ("trailing", p.src[-1:].isspace(), p.tr[-1:].isspace())):
            if b and not a:
                out.append((f"{label} space", f"the translation has {label} whitespace; remove it"))
        if re.search(r"\S  +\S", p.tr) and not re.search(r"\S  +\S", p.src):
            out.append(("double space", "the translation has two spaces in a row; write one"))
        return out


_FIRST = re.compile(r"[^\W\d_]")
_SENT_START = re.compile(r"(?<![\d\s])(?<!\b[IVX])(?<!\b[a-z])[.!?]\s+(?:[*_]+)?([^\W\d_])")


def _first_letter(text: str) -> str:
    """The clause's first letter, when it opens with a word (or an icon glued to a
    word, 🪙Coin); "" when it opens with a placeholder, a number or a symbol
    ("Ⓐ fázis"), where Hungarian word order may put a lower-case word first."""
    from ..text import is_icon_char
    if text.lstrip().startswith("${"):
        return ""
    body = re.sub(r"^(?:\s|[#>*_\-]|\d+[.)]\s)*", "", text)
    i = 0
    while i < len(body) and (is_icon_char(body[i]) or body[i] in "\ufe0f\u200d") and ord(body[i]) >= 0x1F000 or \
            i < len(body) and body[i] in "\ufe0f\u200d":
        i += 1
    return body[i] if i < len(body) and body[i].isalpha() else ""


def _lower_starts(text: str) -> int:
    """Sentences starting in lower case after a full stop; a period after a number
    or a Roman numeral is a Hungarian ordinal ("a III. a Közös"), not an end."""
    clean = _STRIP.sub(" X ", text)
    count = 0
    for m in _SENT_START.finditer(clean):
        before = clean[:m.start()].split()
        if before and re.fullmatch(r"[IVXLC]+|\d+", before[-1]):
            continue
        count += m.group(1).islower()
    return count


class StartCapitalCheck(ClauseCheck):
    """Sentences start with a capital letter where the source's do."""

    name = "capital"

    def run(self, p: Pair):
        a, b = _first_letter(p.src), _first_letter(p.tr)
        out = []
        if a.isupper() and b.islower():
            out.append(("lower-case start", f"the translation starts with a lower-case {b!r}; the source starts "
                                            "with a capital"))
        if _lower_starts(p.tr) > _lower_starts(p.src):
            out.append(("lower-case sentence", "a sentence of the translation starts in lower case after a "
                                               "full stop; capitalise it (or join the sentences)"))
        return out
