"""A clause as a stream of tokens the meaning-level checks compare: numbers (digits,
number words, ordinals, multipliers) with the unit, icon or term that follows each,
words, and barriers (punctuation that ends a phrase).

Term placeholders (``${terms...}``) stay as unit marks, so "2 ${terms.resources.runway}"
pairs 2 with that term in both languages; other placeholders are filled first (a
``${content...}`` number is a number)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..numbers import WORDS as NUMBER_WORDS
from ..placeholders import PLACEHOLDER_RE, Unresolved, find_placeholders, resolve_one
from ..text import WORD_RE, icon_key, is_icon_char
from .lexicon import FIRST, MULTIPLIERS, ORDINAL_RE, ORDINALS, WEAK_ONE

_DECIMAL = re.compile(r"(?<=\d)[.,](?=\d)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_URL = re.compile(r"https?://\S+")
_PH_WORD = re.compile(r"^zzph(\d+)zz$")
BARRIERS = set(".,;:!?()[]|–—\n")
_LABEL_LINKS = {"at", "on", "of", "to", "is", "=", "from"}


@dataclass
class Tok:
    kind: str            # num | word | icon | unit | bar
    text: str
    value: float | None = None
    dist: bool = False   # Hungarian "6-6": the number once for each
    ordinal: bool = False
    unit: str | None = None   # for numbers: the unit that follows


def base_lang(lang: str) -> str:
    return lang.split("-")[0].split("_")[0].lower()


def with_unit_marks(text: str, ctx: Mapping) -> tuple[str, list[str]]:
    """``text`` with term placeholders as ``zzphNzz`` words (keys returned in order)
    and every other placeholder filled."""
    keys: list[str] = []

    def sub(m: re.Match) -> str:
        ph = find_placeholders(m.group(0))[0]
        if ph.namespace == "terms":
            keys.append(ph.key)
            return f" zzph{len(keys) - 1}zz "
        try:
            return resolve_one(ph, ctx)
        except Unresolved:
            return " "
    return PLACEHOLDER_RE.sub(sub, text), keys


def _word_value(w: str, lang: str) -> tuple[float | None, bool]:
    """(value, ordinal) of a word, or (None, False)."""
    lw = w.lower()
    table = NUMBER_WORDS.get(lang, {})
    if lw in table:
        return table[lw], False
    if lw in MULTIPLIERS.get(lang, {}):
        return MULTIPLIERS[lang][lw], False
    if lang == "hu" and re.match(r"(?:meg)?dupl[aáé]", lw) or lang == "en" and lw.startswith("doubl"):
        return 2, False
    if lw in FIRST.get(lang, ()):
        return 1, True
    m = ORDINAL_RE[lang].match(lw) if lang in ORDINAL_RE else None
    if m:
        if lang == "hu":
            return ORDINALS["hu"][m.group(1)], True
        if m.group(1):
            return int(m.group(1)), True
        return ORDINALS["en"][lw], True
    if "-" in lw:
        parts = [table.get(p) for p in lw.split("-")]
        if len(parts) == 2 and all(p is not None for p in parts) and parts[0] == parts[1]:
            return parts[0], False   # "egy-egy", "két-két": distributive
        if parts[0] is not None and all(p is None for p in parts[1:]):
            return parts[0], False   # "Four-Era", "two-player": the number of a compound
    return None, False


def tokenize(text: str, lang: str, keys: Sequence[str] = (), pairs: Sequence = (),
             side: str = "source") -> list[Tok]:
    """Tokens of ``text`` (with unit marks, see :func:`with_unit_marks`, whose ``keys``
    name them); glossary ``pairs`` make a written-out term a unit too."""
    lang = base_lang(lang)
    text = _URL.sub(" ", _COMMENT.sub(" ", text))
    starts = glossary_starts(text, pairs, side) if pairs else {}
    out: list[Tok] = []
    pos = 0
    for m in WORD_RE.finditer(_DECIMAL.sub("d", text)):
        _gap(text[pos:m.start()], out)
        pos = m.end()
        w = m.group(0)
        lw = w.lower()
        ph = _PH_WORD.match(lw)
        if ph:
            n = int(ph.group(1))
            out.append(Tok("unit", w, unit="ph:" + (keys[n] if n < len(keys) else str(n))))
            continue
        num = re.fullmatch(r"(\d+(?:d\d+)?)(?:-(\w+))?", w)
        if num:
            value = float(num.group(1).replace("d", "."))
            tail = num.group(2)
            dist = tail is not None and tail == num.group(1)
            ordinal = False
            if tail and lang == "en" and tail.lower() in ("st", "nd", "rd", "th"):
                ordinal = True
            if lang == "hu" and not tail and re.match(r"\. +[^\W\d_A-ZÁÉÍÓÖŐÚÜŰ]|\. +\W", text[m.end():m.end() + 4]):
                ordinal = True   # "az 1. hozzájáruló", "8. 🏰Vár": a Hungarian ordinal
            out.append(Tok("num", w, value, dist=dist, ordinal=ordinal))
            continue
        if re.fullmatch(r"\d+(?:st|nd|rd|th)", lw):
            out.append(Tok("num", w, float(lw[:-2]), ordinal=True))
            continue
        value, ordinal = _word_value(w, lang)
        if value is not None:
            out.append(Tok("num", w, float(value), dist="-" in w, ordinal=ordinal))
            continue
        tok = Tok("word", w)
        if m.start() and out and out[-1].kind == "icon" and (is_icon_char(text[m.start() - 1])
                                                            or text[m.start() - 1] in "\ufe0f\u200d"):
            tok.unit = out[-1].unit   # 🏰Castle: the word glued to an icon is that icon's term
        elif m.start() in starts:
            tok.unit = starts[m.start()]
        out.append(tok)
    _gap(text[pos:], out)
    _attach_units(out)
    return out


def _gap(gap: str, out: list[Tok]) -> None:
    for ch in gap:
        if is_icon_char(ch):
            out.append(Tok("icon", ch, unit="icon:" + icon_key(ch)))
        elif ch in BARRIERS:
            out.append(Tok("bar", ch))


def _attach_units(toks: list[Tok], reach: int = 1) -> None:
    """Each number takes the icon, term mark or glossary term right after it (within
    ``reach`` tokens, before any punctuation): "3 🪙Coin", "két ${terms.x}"."""
    for i, t in enumerate(toks):
        if t.kind != "num" or t.ordinal:
            continue
        before = toks[i - 1] if i else None
        if before is not None and before.unit and before.kind in ("word", "unit"):
            continue   # "🏰Castle 4 🪙Coin": a label's number, no unit of its own
        words = 0
        for u in toks[i + 1:]:
            if u.kind == "bar" or u.kind == "num":
                break
            if u.unit:
                t.unit = u.unit
                break
            words += 1
            if words >= reach:
                break
        if t.unit is None and i >= 2 and toks[i - 1].kind == "word" and toks[i - 1].text.lower() in _LABEL_LINKS \
                and toks[i - 2].unit and toks[i - 2].kind == "word":
            t.unit = toks[i - 2].unit   # "🛡️Shield at 5": the number of the term before it


def numbers(toks: Sequence[Tok]) -> list[Tok]:
    return [t for t in toks if t.kind == "num"]


def has_weak_one(toks: Sequence[Tok], lang: str) -> bool:
    ones = WEAK_ONE.get(base_lang(lang), set())
    return any(t.kind == "word" and t.text.lower() in ones for t in toks)


def value_counter(nums: Sequence[Tok]) -> tuple[Counter, Counter]:
    """(how often each value occurs, how many of those are distributive)."""
    c: Counter = Counter()
    d: Counter = Counter()
    for t in nums:
        v = int(t.value) if float(t.value).is_integer() else t.value
        c[v] += 1
        if t.dist:
            d[v] += 1
    return c, d


def glossary_starts(text: str, pairs: Sequence, side: str) -> dict[int, str]:
    """Character offsets where a glossary term begins in ``text`` -> the term's key
    (its pair index). ``side`` is ``source`` or ``target``; the longer term wins."""
    from ..glossary import might_occur, term_positions, tokens
    spans = [m.start() for m in WORD_RE.finditer(text)]
    toks = tokens(text)
    lower = text.lower()
    best: dict[int, tuple[int, str]] = {}
    for n, pair in enumerate(pairs):
        forms = pair.source if side == "source" else pair.target
        for form in forms:
            if not might_occur(form, lower, side == "target"):
                continue
            length = len(form)
            for i in term_positions(form, toks, lenient=side == "target", case=side == "source"):
                if i < len(spans) and (spans[i] not in best or best[spans[i]][0] < length):
                    best[spans[i]] = (length, _pair_key(pair))
    return {k: v[1] for k, v in best.items()}


def _pair_key(pair) -> str:
    """The unit key of a glossary pair: a terms-file pair is the same unit as its placeholder."""
    origin = str(pair.origin)
    if origin.startswith("terms:"):
        return "ph:terms." + origin[len("terms:"):]
    return "g:" + str(pair.source[0])
