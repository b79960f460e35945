"""Glossaries: term pairs across languages, how they are found in a text, and
how they are pulled out of a text that already carries them.

A game's glossary for a language pair comes from two places: the terms files
(``cards/<game>/terms/<lang>.yaml``: the same key in both languages is a pair,
every named form counts) and ``cards/<game>/glossary.yaml``, a list of entries
such as ``{hu: Aratás, en: Harvest}`` (a value may be a list of accepted
forms; ``note`` says why the pair exists).

Terms are found by word stems because Hungarian inflects: a text word matches a
term word when it begins with one of the term's stem shapes (:func:`stem_variants`),
so ``Álom`` is found in ``Álmot`` and ``Lista`` in ``Listát`` but not in
``list``, and ``Vásárlás`` is not found in ``Vásárló``. On the translation
side the singular of a plural term also counts (:func:`singulars`). Icons are ignored here; icon parity is a
check of its own.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from workbench.core.errors import DataError

from .text import WORD_RE, icon_key, icons, is_icon_char, strip_icons

_CONNECTORS = {"of", "the", "and", "a", "an", "to", "in", "on", "for", "de", "la"}


# --------------------------------------------------------------------------- matching
_LENGTHEN = {"a": "á", "e": "é", "o": "ó", "ö": "ő"}
_SHORTEN = {"á": "a", "é": "e", "í": "i", "ó": "o", "ő": "ö", "ú": "u", "ű": "ü"}
_VOWELS = set("aáeéiíoóöőuúüűy")
_DIGRAPHS = ("cs", "dz", "gy", "ly", "ny", "sz", "ty", "zs")


@functools.lru_cache(maxsize=65536)  # the review asks for the same few hundred words millions of times
def stem_variants(word: str) -> frozenset[str]:
    """The shapes a word's stem takes before a suffix: as written; a final vowel
    lengthened (kártya -> kártyá-t); a last-syllable vowel dropped (álom ->
    álm-ot) or shortened (pohár -> pohar-at); a final digraph doubled (törékeny ->
    törékenny-é); an English final e or y changed
    (Trade -> Trad-ing, Ally -> Alli-es)."""
    w = word.lower()
    out = {w}
    if not w:
        return frozenset(out)
    if w[-1] in _LENGTHEN:
        out.add(w[:-1] + _LENGTHEN[w[-1]])
    if len(w) >= 5 and w[-2] in _VOWELS and w[-1] not in _VOWELS:
        out.add(w[:-2] + w[-1])
        if w[-2] in _SHORTEN:
            out.add(w[:-2] + _SHORTEN[w[-2]] + w[-1])
    for digraph in _DIGRAPHS:  # a doubled digraph before -val/-vá: törékeny -> törékenny-é
        if len(w) >= 4 and w.endswith(digraph):
            out.add(w[:-len(digraph)] + digraph[0] + digraph)
    if len(w) >= 4 and w[-1] == "e":
        out.add(w[:-1])
    if len(w) >= 4 and w[-1] == "y":
        out.add(w[:-1] + "i")
    return out


def singulars(word: str) -> set[str]:
    """Singular stems of a plural term: Játékosok -> Játékos, Listák -> Lista,
    Players -> Player, Abilities -> Ability."""
    w = word.lower()
    out: set[str] = set()
    if len(w) >= 4 and w.endswith("k"):
        s = w[:-1]
        out.add(s)
        if s[-1] in "oeöa":
            out.add(s[:-1])
        if s[-1] in _SHORTEN:
            out.add(s[:-1] + _SHORTEN[s[-1]])
    if len(w) >= 4 and w.endswith("s"):
        out.add(w[:-1])
        if w.endswith("ies"):
            out.add(w[:-3] + "y")
    return out


def word_match(term_word: str, text_word: str, lenient: bool = False) -> bool:
    """Is ``text_word`` an inflected form of ``term_word``? It must begin with one
    of the term's stem shapes (see :func:`stem_variants`). ``lenient`` (used on the
    translation side) also accepts the singular of a plural term, because Hungarian
    puts nouns in the singular after numbers and ``minden`` (``2 zsetont`` for
    "2 tokens")."""
    x = text_word.lower()
    if x.startswith(_prefixes(term_word, False)):
        return True
    if lenient:
        return x.startswith(_prefixes(term_word, True))
    return False


@functools.lru_cache(maxsize=65536)
def _prefixes(term_word: str, plural_singulars: bool) -> tuple[str, ...]:
    """The stem shapes of a term word (or of its singulars), cached: the review
    matches every term against every clause."""
    if plural_singulars:
        return tuple(v for s in singulars(term_word) for v in stem_variants(s))
    return tuple(stem_variants(term_word))


def tokens(text: str) -> list[tuple[str, str]]:
    """``(icon, word)`` for every word; ``icon`` is the icon glued in front of the
    word (``🛡️Shield`` -> ``("🛡", "Shield")``) or empty."""
    out = []
    for m in WORD_RE.finditer(text):
        j = m.start()
        while j > 0 and (is_icon_char(text[j - 1]) or text[j - 1] in "\ufe0f\ufe0e\u200d"):
            j -= 1
        out.append((icon_key(text[j:m.start()]), m.group(0)))
    return out


def might_occur(term: str, lower_text: str, lenient: bool = False) -> bool:
    """A quick test before :func:`term_positions`: does a stem shape of the term's
    first word occur anywhere in ``lower_text`` (the text lower-cased)?"""
    tt = _term_tokens(term)
    if not tt:
        return False
    first = tt[0][1]
    shapes = _prefixes(first, False) + (_prefixes(first, True) if lenient else ())
    return any(v in lower_text for v in shapes)


@functools.lru_cache(maxsize=8192)
def _term_tokens(term: str) -> tuple:
    return tuple(tokens(term))


def find_term(term: str, text: str | list[tuple[str, str]], *, lenient: bool = False,
              case: bool = False) -> bool:
    """Does ``text`` (or its :func:`tokens`) contain ``term``, allowing inflection?
    See :func:`term_positions`."""
    return bool(term_positions(term, text, lenient=lenient, case=case))


def term_positions(term: str, text: str | list[tuple[str, str]], *, lenient: bool = False,
                   case: bool = False) -> list[int]:
    """Token positions where ``term`` starts in ``text``, allowing inflection. A term written with an icon is found only with that icon in front of it, so
    ``⚠️Storm`` is not found in ``⚠️Sand Storm`` nor ``🌳Grove`` in
    "grovel". With ``case``, a capitalised term is found only capitalised, so the
    location ``Harbour`` is not the ordinary word "harbour"."""
    tt = _term_tokens(term)
    if not tt:
        return []
    xs = text if isinstance(text, list) else tokens(text)
    n = len(tt)
    found = []
    for i in range(len(xs) - n + 1):
        ok = True
        for k in range(n):
            ticon, tword = tt[k]
            xicon, xword = xs[i + k]
            if (ticon and ticon != xicon) or not word_match(tword, xword, lenient):
                ok = False
                break
            if case and k == 0 and tword[:1].isupper() and not xword[:1].isupper():
                ok = False
                break
        if ok:
            found.append(i)
    return found


# --------------------------------------------------------------------------- game glossary
@dataclass
class GlossaryPair:
    source: list[str]        # the term in the source language (all accepted forms)
    target: list[str]        # its translation (all accepted forms)
    origin: str              # "terms:<key>" or "glossary.yaml"
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.source[0]} -> {self.target[0]}"


def _forms(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        out = [str(value.get("text", ""))] + [str(v) for v in (value.get("forms") or {}).values()]
        return [v for v in out if v]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v]
    return [str(value)] if value is not None else []


def _walk_terms(node, prefix: str = "") -> dict[str, list[str]]:
    from .placeholders import META_KEYS, _is_leaf
    out: dict[str, list[str]] = {}
    if isinstance(node, Mapping) and not _is_leaf(node):
        for k, v in node.items():
            if str(k) in META_KEYS:
                continue
            out.update(_walk_terms(v, f"{prefix}.{k}" if prefix else str(k)))
    elif node is not None and not isinstance(node, bool):
        out[prefix] = _forms(node)
    return out


def load_glossary_file(game_id: str) -> list[dict]:
    from workbench.core.data import cards_dir, load_yaml
    path = cards_dir(game_id) / "glossary.yaml"
    if not path.exists():
        return []
    data = load_yaml(path) or []
    if isinstance(data, Mapping):
        data = data.get("terms", [])
    if not isinstance(data, list):
        raise DataError("a glossary is a list of entries such as {en: Harvest, hu: Aratás}",
                        file=str(path))
    for i, entry in enumerate(data):
        if not isinstance(entry, Mapping):
            raise DataError(f"entry {i + 1} is not a mapping", file=str(path))
    return data


def game_glossary(game_id: str, src_lang: str, tr_lang: str) -> list[GlossaryPair]:
    from .placeholders import load_terms
    pairs: list[GlossaryPair] = []
    src_terms = _walk_terms(load_terms(game_id, src_lang))
    tr_terms = _walk_terms(load_terms(game_id, tr_lang))
    for key, forms in src_terms.items():
        if key in tr_terms and forms and tr_terms[key]:
            pairs.append(GlossaryPair(forms, tr_terms[key], f"terms:{key}"))
    for entry in load_glossary_file(game_id):
        if src_lang in entry and tr_lang in entry:
            pairs.append(GlossaryPair(_forms(entry[src_lang]), _forms(entry[tr_lang]), "glossary.yaml",
                                      str(entry.get("note", ""))))
    return pairs


# --------------------------------------------------------------------------- extraction
_PAIR_RE = re.compile(r"(?P<before>[^()\n]*?)\s*\((?P<inner>[^()\n]+)\)")
_SUFFIX_RE = re.compile(r"^(?P<stem>.+?)-(?:[a-záéíóöőúüű]{1,5})$")


@dataclass
class ExtractedPair:
    term: str
    other: str
    count: int = 1
    lines: list[int] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"term": self.term, "other": self.other, "count": self.count, "lines": self.lines}


def _inner_term(inner: str) -> str | None:
    if inner.count(",") >= 2:  # an enumeration in brackets is an aside, not a translation
        return None
    first = inner.split(",")[0].split(";")[0].strip()
    if not first or not re.fullmatch(r"[^\W\d_][\w' -]*", first):
        return None
    ws = first.split()
    if len(ws) > 4:
        return None
    if not ws[0][:1].isupper():
        return None
    if any(not (w[:1].isupper() or w.lower() in _CONNECTORS) for w in ws):
        return None
    return first


def _before_term(before: str, n_inner: int) -> str | None:
    ws = [w.strip(",.;:!?\"'„”“-–>") for w in before.split()]
    ws = [w for w in ws if w]
    if not ws:
        return None
    window = ws[-(n_inner + 1):]
    start = None
    for i in range(len(window) - 1, -1, -1):
        if window[i][:1].isupper():
            start = i
            break
    if start is None:  # a lower-case word before the brackets is running text, not a term
        return None
    chosen = window[start:]
    last = chosen[-1]
    m = _SUFFIX_RE.match(last)
    if m:  # Hungarian writes a suffix after a hyphen on a foreign-looking term: Akadály-nál
        chosen = chosen[:-1] + [m.group("stem")]
    term = " ".join(strip_icons(w) for w in chosen).strip()
    return term or None


def extract_pairs(text: str) -> list[ExtractedPair]:
    """Pairs written ``term (other-language term)``, e.g. ``Aratás (Harvest)``."""
    found: "OrderedDict[tuple[str, str], ExtractedPair]" = OrderedDict()
    for lineno, line in enumerate(text.splitlines(), start=1):
        for m in _PAIR_RE.finditer(line):
            other = _inner_term(m.group("inner"))
            if other is None:
                continue
            term = _before_term(m.group("before"), len(other.split()))
            if term is None or term.lower() == other.lower():
                continue
            key = (term, other)
            if key in found:
                found[key].count += 1
                found[key].lines.append(lineno)
            else:
                found[key] = ExtractedPair(term, other, 1, [lineno])
    return list(found.values())


@dataclass
class IconTerm:
    icon: str
    term: str
    count: int = 1

    def to_dict(self) -> dict:
        return {"icon": self.icon, "term": self.term, "count": self.count}


def extract_icon_terms(text: str) -> list[IconTerm]:
    """Terms written with an icon glued to them: ``🛡️Shield``, ``🏁Final Harvest``.
    A term runs over the capitalised words that follow the icon (at most three)."""
    out: "OrderedDict[tuple[str, str], IconTerm]" = OrderedDict()
    i, n = 0, len(text)
    while i < n:
        if not is_icon_char(text[i]):
            i += 1
            continue
        icon = icons(text[i:])[0]
        j = i + len(icon)
        m = re.match(r"[^\W\d_][\w'’-]*(?: [A-ZÁÉÍÓÖŐÚÜŰ][\w'’-]*){0,2}", text[j:])
        if m:
            term = m.group(0).rstrip("'’")
            key = (icon_key(icon), term)
            if key in out:
                out[key].count += 1
            else:
                out[key] = IconTerm(icon, term)
            j += m.end()
        i = j
    return list(out.values())


def icon_counts(text: str) -> Counter:
    return Counter(icon_key(i) for i in icons(text))


def glossary_entries_from(pairs: Iterable[ExtractedPair], term_lang: str, other_lang: str) -> list[dict]:
    """Extracted pairs as ``glossary.yaml`` entries."""
    return [{term_lang: p.term, other_lang: p.other} for p in pairs]
