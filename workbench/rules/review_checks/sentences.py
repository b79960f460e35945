"""Sentence count: a dropped or an invented sentence changes the rules even when it
holds no number."""

from __future__ import annotations

import re

from .base import ClauseCheck, Pair

_ABBREV = re.compile(r"\b(?:pl|stb|ill|kb|vö|ld|e\.g|i\.e|etc|vs|cf|no)\.$", re.I)
_END = re.compile(r"[.!?…]+[\"'”»)*_]*(?=\s+|$)")


def split_sentences(text: str, lang: str = "en") -> list[str]:
    """The sentences of the prose in ``text`` (table rows and list markers left out); a
    period after a number is a Hungarian ordinal ("a 3. körben"), not an end."""
    prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    prose = re.sub(r"<!--.*?-->|\$\{[^}]*\}", " x ", prose, flags=re.S)
    prose = re.sub(r"(?m)^\s*(?:[-*+]|\d+[.)])\s+", "", prose)
    out: list[str] = []
    start = 0
    for m in _END.finditer(prose):
        before = prose[:m.start() + 1].rstrip()
        if re.search(r"(?:^|[\s(–-])(?:\d+|[IVX]+)\.$", before) and m.group(0) == ".":
            rest = prose[m.end():]
            nxt = rest.lstrip()[:1]
            if rest[:1] == " " and (lang.startswith("hu") and nxt or nxt.islower() or nxt and not nxt.isalpha()):
                continue   # "8. 🏰Vár", "a IV. Évszak", "a 3. körben": an ordinal
        if _ABBREV.search(before):
            continue
        out.append(prose[start:m.end()].strip())
        start = m.end()
    tail = prose[start:].strip()
    if re.search(r"\w", tail):
        out.append(tail)   # a last sentence without a full stop (a list item, a label)
    return out


def sentences(text: str, lang: str = "en") -> int:
    return len(split_sentences(text, lang))


# a sentence that opens with one of these continues the one before it ("Draw. Then
# pass." says what "Draw, then pass." says): a split is no sentence added
CONTINUATIONS = {"en": ("then", "afterwards", "after that"), "hu": ("ezután", "aztán", "majd", "utána")}


def statements(text: str, lang: str = "en", semicolons: bool | str = False, continuations: bool = True) -> int:
    """Sentences, not counting (with ``continuations``) those that continue the
    previous one with "then" (:data:`CONTINUATIONS`); with ``semicolons``, a ``;`` or
    ``:`` also ends one (so "A; B" and "A. B" count alike)."""
    cont = CONTINUATIONS.get(lang.split("-")[0].split("_")[0].lower(), ())
    parts = split_sentences(text, lang)
    if semicolons:
        # ("semi": a ";" alone ends one, where the other text keeps a ":" inside a sentence)
        ends = r";\s+" if semicolons == "semi" else r"[;:]\s+"
        parts = [q for part in parts for q in re.split(ends, part) if re.search(r"\w", q)]
    n = 0
    for i, part in enumerate(parts):
        head = re.sub(r"^[^\w]+", "", part).lower()
        if continuations and i and any(head == c or head.startswith(c + " ") or head.startswith(c + ",") for c in cont):
            continue
        n += 1
    return n


class SentenceCountCheck(ClauseCheck):
    """As many sentences as the source (one dropped or added is a rule lost or invented)."""

    name = "sentences"
    headings = False

    def run(self, p: Pair):
        a, b = sentences(p.src, p.src_lang), sentences(p.tr, p.tr_lang)
        if a == b or a <= 1 and b <= 1:
            return []
        # a sentence split in two (at "; " or before "then") says the same rules
        if any(statements(p.src, p.src_lang, semi, cont) == statements(p.tr, p.tr_lang, semi, cont)
               for semi, cont in ((False, True), (True, True), (True, False), ("semi", True))):
            return []
        # a translation with no more sentences than its source has statements (a ";" or ":"
        # ends one): a sentence split where the source ends a statement, not one added; the
        # statements of the two need not match, as one language puts a comma where the other
        # puts a semicolon
        if a < b <= statements(p.src, p.src_lang, True, True):
            return []
        return [(f"{a} -> {b}", f"the source has {a} sentence(s), the translation {b}; check no sentence was "
                                f"{'dropped' if b < a else 'added'} (split or join sentences only where the "
                                "meaning stays the same)")]
