"""What a rules sentence says, as a small structure that two languages can be compared on.

For each sentence of a clause :func:`structure` finds who acts (the active player,
each player, the others, a rival, the group), when (turn, round, a game's named stretch, game;
start or end; immediately, next, previous), under what condition (if, unless, only
if) and with what exceptions, how many (every, any, some, only, at most, at least,
again) and how many negations it holds. The words of each concept are data, one
file per language (``workbench/rules/lexicon/<lang>.yaml``); Hungarian words are
matched by their lemma through the hunspell-hu dictionary (spylls), so an inflected
form counts without being listed, and by the lemma plus a listed suffix without it.

:func:`placeholder_roles` gives each ``${...}`` of a text its role from the grammar
(compared-with: "than X" / ``X-nál``; origin: "from X" / ``X-ból``; goal: "to X" /
``X-ra``; object: ``X-ot``), so two terms that trade places are found even though
Hungarian word order differs from English.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .glossary import stem_variants

LEXICON_DIR = Path(__file__).parent / "lexicon"
_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+(?=[A-ZÁÉÍÓÖŐÚÜŰ0-9$*(„\"])|\n\s*\n|\n(?=\s*[-*|]|\s*\d+\.)")


@dataclass(frozen=True)
class Concept:
    name: str
    words: tuple[str, ...] = ()
    forms: frozenset = frozenset()
    phrases: tuple[tuple[str, ...], ...] = ()
    endings: tuple[str, ...] = ()
    not_: frozenset = frozenset()


@dataclass
class Lexicon:
    lang: str
    concepts: dict[str, Concept]
    dimensions: dict[str, list[str]]
    suffixes: tuple[str, ...]
    phrase_index: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    single_strict: frozenset = frozenset()   # words that say "one" (see `single` in the lexicon)
    single_loose: frozenset = frozenset()    # words a translation may render as "one"
    only: frozenset = frozenset()            # the words that say "only"
    single_not_after: frozenset = frozenset()  # "each one": a "one" after these words is not one
    unit_skip: frozenset = frozenset()       # words between a number and what it counts ("1 more point")
    unit_numbers: dict = field(default_factory=dict)   # number words and their values
    unit_nouns: dict = field(default_factory=dict)     # unit -> the nouns (lemmas) that say it
    only_not: tuple = ()                     # phrases whose "only" restricts nothing ("not only")
    only_loose: frozenset = frozenset()      # words a translation may say "only" with ("just", "alone")
    distributive_endings: tuple = ()         # word endings that say "each" (Hungarian -nként)
    distributive_forms: frozenset = frozenset()  # written forms that say "each" ("egy-egy": one each)
    every_also: tuple = ()                   # phrases another concept claims that also say "each" ("every other")
    conjunction: tuple = ()                  # ("both", "and", 3): "both X and Y" joins, it does not count
    #: answers of word matching already given: a review asks the same (token, word)
    #: questions hundreds of thousands of times, and the answer depends on nothing else
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def dimension_of(self, concept: str) -> str:
        for dim, names in self.dimensions.items():
            if concept in names:
                return dim
        return concept


def base_lang(lang: str) -> str:
    return re.split(r"[-_]", lang)[0].lower()


def lexicon(lang: str) -> Lexicon | None:
    """The meaning lexicon of ``lang`` (None when the language has none), with the
    words the registered games add to its concepts (:func:`games_words`)."""
    return _lexicon(base_lang(lang), games_words(base_lang(lang)))


def games_words(lang: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(concept, words)`` the registered games declare in ``lang``
    (``Game.rules_words``: a named stretch of rounds), merged over the games. The lexicon files
    are the language's and name no game's words; a game's period word counts as a time
    in every game's review, as it would in any rulebook."""
    from ..core.registry import load_all
    out: dict[str, list[str]] = {}
    for game in load_all().values():
        for concept, by_lang in (getattr(game, "rules_words", None) or {}).items():
            have = out.setdefault(str(concept), [])
            have += [str(w) for w in by_lang.get(lang, ()) if str(w) not in have]
    return tuple(sorted((c, tuple(ws)) for c, ws in out.items()))


@functools.lru_cache(maxsize=None)
def _lexicon(lang: str, added: tuple[tuple[str, tuple[str, ...]], ...]) -> Lexicon | None:
    from ruamel.yaml import YAML
    path = LEXICON_DIR / f"{lang}.yaml"
    if not path.exists():
        return None
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    concepts = {}
    phrases = []
    extra = dict(added)
    for name, spec in (data.get("concepts") or {}).items():
        spec = spec or {}
        words, forms = [], set(str(f).lower() for f in spec.get("forms", ()))
        for w in [*spec.get("words", ()), *extra.get(name, ())]:
            w = str(w).lower()
            if " " in w:
                phrases.append((tuple(w.split()), name))
            else:
                words.append(w)
        ph = tuple(tuple(str(p).lower().replace(",", " ").split()) for p in spec.get("phrases", ()))
        for f in list(forms):
            if " " in f:
                forms.discard(f)
                phrases.append((tuple(f.split()), name))
        phrases.extend((p, name) for p in ph)
        concepts[name] = Concept(name, tuple(words), frozenset(forms), ph, tuple(spec.get("endings", ())),
                                 frozenset(str(x).lower() for x in spec.get("not", ())))
    phrases.sort(key=lambda p: -len(p[0]))
    single = data.get("single") or {}
    lex = Lexicon(lang, concepts, {k: list(v) for k, v in (data.get("dimensions") or {}).items()},
                  tuple(data.get("suffixes") or ("",)), phrases,
                  frozenset(str(w).lower() for w in single.get("strict", ())),
                  frozenset(str(w).lower() for w in single.get("loose", ())),
                  frozenset(str(w).lower() for w in data.get("only", ())))
    lex.single_not_after = frozenset(str(w).lower() for w in single.get("not_after", ()))
    units = data.get("units") or {}
    lex.unit_skip = frozenset(str(w).lower() for w in units.get("skip", ()))
    lex.unit_numbers = {str(k).lower(): int(v) for k, v in (units.get("numbers") or {}).items()}
    lex.unit_nouns = {str(k): tuple(str(w).lower().split()[0] for w in v)
                      for k, v in (units.get("nouns") or {}).items()}
    lex.only_not = tuple(str(w).lower() for w in data.get("only_not", ()))
    lex.only_loose = frozenset(str(w).lower() for w in data.get("only_loose", ()))
    dist = data.get("distributive") or {}
    lex.distributive_endings = tuple(str(e).lower() for e in dist.get("endings", ()))
    lex.distributive_forms = frozenset(str(f).lower() for f in dist.get("forms", ()))
    lex.every_also = tuple(str(f).lower() for f in dist.get("phrases", ()))
    conj = data.get("both_conjunction") or {}
    if conj:
        lex.conjunction = (str(conj["word"]).lower(), str(conj["and"]).lower(), int(conj.get("within", 3)))
    return lex


# --------------------------------------------------------------------------- word matching
@functools.lru_cache(maxsize=65536)
def _lemma(word: str, lang: str) -> str | None:
    """The word's longest hunspell stem (its most specific lemma), or None without a dictionary."""
    from .review_checks.dictionary import stems
    found = stems(lang, word)
    return max(found, key=len) if found else None


def word_is(token: str, lemma: str, lex: Lexicon) -> bool:
    """Is ``token`` an inflected form of ``lemma`` in the lexicon's language?"""
    key = ("w", token, lemma)
    found = lex.memo.get(key)
    if found is None:
        found = lex.memo[key] = _word_is(token, lemma, lex)
    return found


def _word_is(token: str, lemma: str, lex: Lexicon) -> bool:
    if token == lemma:
        return True
    if len(lemma) <= 3 and lex.lang == "en" or len(token) < len(lemma) - 1:
        return token in {lemma + s for s in lex.suffixes}
    for v in stem_variants(lemma):
        if token.startswith(v) and token[len(v):] in lex.suffixes:
            return True
    if lex.lang != "en" and token[:2] == lemma[:2]:
        found = _lemma(token, lex.lang)
        if found is not None:
            return found == lemma
    return False


def _concept_word(token: str, c: Concept, lex: Lexicon) -> bool:
    key = ("c", token, c.name)
    found = lex.memo.get(key)
    if found is None:
        found = lex.memo[key] = _concept_word_uncached(token, c, lex)
    return found


def _concept_word_uncached(token: str, c: Concept, lex: Lexicon) -> bool:
    if token in c.not_:
        return False
    if token in c.forms:
        return True
    if any(token.endswith(e) and len(token) > len(e) + 2 for e in c.endings):
        return True
    return any(word_is(token, w, lex) for w in c.words)


def _phrase_word(token: str, want: str, lex: Lexicon) -> bool:
    if len(want) <= 3:
        return token == want
    return word_is(token, want, lex)


# --------------------------------------------------------------------------- structure
@dataclass
class Sentence:
    text: str
    concepts: Counter
    negations: int


def tokens(text: str) -> list[str]:
    text = _PLACEHOLDER.sub(" ⟨x⟩ ", text)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    return [t.lower() for t in _WORD.findall(text.replace("-", " "))]


def concepts(text: str, lang: str) -> Counter:
    """How often each concept of the lexicon occurs in ``text``."""
    return Counter(dict(_concepts(text, lang)))


@functools.lru_cache(maxsize=8192)  # each check of a review asks again about the same sentences
def _concepts(text: str, lang: str) -> tuple[tuple[str, int], ...]:
    return tuple(_count_concepts(text, lang).items())


def _count_concepts(text: str, lang: str) -> Counter:
    lex = lexicon(lang)
    out: Counter = Counter()
    if lex is None:
        return out
    toks = tokens(text)
    claimed = [False] * len(toks)
    # where each phrase may start: the phrases whose first word a token is, asked once
    # per token for the whole review (the same answer as trying every phrase at every
    # place, which was most of a first review's time in this function)
    starts: dict[int, list[int]] = {}
    for i, t in enumerate(toks):
        for pi in _phrase_starts(t, lex):
            starts.setdefault(pi, []).append(i)
    for pi, (phrase, name) in enumerate(lex.phrase_index):
        n = len(phrase)
        free_from = 0
        for i in starts.get(pi, ()):
            if i < free_from or i + n > len(toks):
                continue
            if not any(claimed[i:i + n]) and all(_phrase_word(toks[i + k], phrase[k], lex) for k in range(1, n)):
                out[name] += 1
                for k in range(n):
                    claimed[i + k] = True
                free_from = i + n
    for i, t in enumerate(toks):
        if not claimed[i]:
            name = _token_concept(t, lex)
            if name:
                out[name] += 1
    out.pop("ignore", None)
    return out


def _phrase_starts(token: str, lex: Lexicon) -> tuple[int, ...]:
    """The indexes of the lexicon's phrases whose first word ``token`` is (memoised)."""
    key = ("starts", token)
    found = lex.memo.get(key)
    if found is None:
        found = lex.memo[key] = tuple(pi for pi, (phrase, _) in enumerate(lex.phrase_index)
                                      if _phrase_word(token, phrase[0], lex))
    return found


def _token_concept(token: str, lex: Lexicon) -> str:
    """The first concept (negation left out) that ``token`` says, or "" (memoised)."""
    key = ("concept", token)
    found = lex.memo.get(key)
    if found is None:
        found = lex.memo[key] = next((name for name, c in lex.concepts.items()
                                      if name != "negation" and _concept_word(token, c, lex)), "")
    return found


def split_sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE.split(text)]
    return [p for p in parts if p and re.search(r"[^\W\d_]", p)]


def aligned_sentences(src: str, src_lang: str, tr: str, tr_lang: str) -> list[tuple[str, str]]:
    """The sentences of ``src`` and ``tr`` paired by position when both have as many
    (a translation keeps its source's sentences in nearly every bundled clause: 412 of
    486 pairs), else the whole texts as one pair: a count compared per sentence is not
    hidden by the same word elsewhere in the clause. Where both have as many lines (a
    table, a list: a translator keeps its rows), each pair of lines is aligned on its
    own, by sentence, else by table cell, else as one pair: one row that says in two
    sentences what its source says in one neither merges the whole table into one unit
    nor, with another row that does the opposite, pairs the sentences of every row after
    it wrongly."""
    if "\n" not in src or "\n" not in tr:
        return _aligned_whole(src, src_lang, tr, tr_lang)
    a = [x for x in src.split("\n") if x.strip()]
    b = [y for y in tr.split("\n") if y.strip()]
    if len(a) != len(b) or len(a) < 2:
        return _aligned_whole(src, src_lang, tr, tr_lang)
    out: list[tuple[str, str]] = []
    for x, y in zip(a, b):
        units = _aligned_whole(x, src_lang, y, tr_lang)
        if len(units) == 1 and x.lstrip().startswith("|") and y.lstrip().startswith("|"):
            cx, cy = [c for c in x.split("|") if c.strip()], [c for c in y.split("|") if c.strip()]
            if len(cx) == len(cy) > 1:
                units = [u for c, d in zip(cx, cy) for u in _aligned_whole(c.strip(), src_lang, d.strip(), tr_lang)]
        out += units
    return out


def _aligned_whole(src: str, src_lang: str, tr: str, tr_lang: str) -> list[tuple[str, str]]:
    from .review_checks.sentences import sentences, statements
    a, b = split_sentences(src), split_sentences(tr)
    # (and as many sentences read with ordinals: "a IV. Évszak" is one sentence there)
    if sentences(src, src_lang) != sentences(tr, tr_lang):
        return [(src, tr)]
    # the same count of statements too (a ";" or ":" ends one, a "Then ..." sentence
    # continues one): a translation that split one sentence ("; " -> ". ") and joined two
    # others has as many sentences, paired wrongly
    if len(a) == len(b) and len(a) > 1 and statements(src, src_lang, True, True) == statements(tr, tr_lang, True,
                                                                                             True):
        return list(zip(a, b))
    return [(src, tr)]


def every_count(text: str, lang: str) -> int:
    """How many times ``text`` says "each" in any form: every, each, all, both, "each
    player", and the distributive (Hungarian *körönként* "each turn", *egy-egy* "one
    each"), which the concept count gives to the noun it is glued to."""
    lex = lexicon(lang)
    if lex is None:
        return 0
    found = concepts(text, lang)
    n = found["quant.every"] + found["actor.each"] + found["quant.both"]
    if lex.conjunction:
        word, and_, within = lex.conjunction
        toks = tokens(text)
        n -= sum(1 for i, t in enumerate(toks) if t == word and and_ in toks[i + 1:i + 1 + within])
    low = text.lower()
    for f in (*lex.distributive_forms, *lex.every_also):
        n += len(re.findall(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", low))
    if lex.distributive_endings:
        for t in tokens(text):
            # counted already when the concept count gave the word to "every" (and not to
            # a concept listed before it, as "körönként" goes to the turn)
            if t.endswith(lex.distributive_endings) and _first_concept(t, lex) != "quant.every":
                n += 1
    return n


def number_nouns(text: str, lang: str) -> Counter:
    """``(value, unit)`` for each number of ``text`` followed by a plain noun of the
    lexicon's ``units`` ("2 points", *2 pontot*): what the number counts."""
    lex = lexicon(lang)
    out: Counter = Counter()
    if lex is None or not lex.unit_nouns:
        return out
    toks = tokens(text)
    for i, t in enumerate(toks):
        value = int(t) if t.isdigit() else lex.unit_numbers.get(t)
        if value is None:
            continue
        j = i + 1
        while j < len(toks) and j <= i + 2 and toks[j] in lex.unit_skip:
            j += 1
        if j >= len(toks):
            continue
        for unit, nouns in lex.unit_nouns.items():
            if any(word_is(toks[j], n, lex) for n in nouns):
                out[(value, unit)] += 1
                break
    return out


def _first_concept(token: str, lex: Lexicon) -> str:
    for name, c in lex.concepts.items():
        if name != "negation" and _concept_word(token, c, lex):
            return name
    return ""


def strict_ones(text: str, lang: str) -> int:
    """How many words of ``text`` say "one" (the lexicon's ``single.strict``), the
    distributive forms (*egy-egy*) left out."""
    lex = lexicon(lang)
    if lex is None:
        return 0
    low = text.lower()
    for f in lex.distributive_forms:
        low = re.sub(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", " ", low)
    toks = tokens(low)
    return sum(t in lex.single_strict and not (i and toks[i - 1] in lex.single_not_after) for i, t in enumerate(toks))


def structure(text: str, lang: str) -> list[Sentence]:
    """The sentences of ``text`` with what each says (see the module doc)."""
    from .review_checks.negation import negations
    return [Sentence(s, concepts(s, lang), negations(s, lang)) for s in split_sentences(text)]


def clause_concepts(text: str, lang: str) -> Counter:
    total: Counter = Counter()
    for s in split_sentences(text):
        total.update(concepts(s, lang))
    return total


# --------------------------------------------------------------------------- placeholder roles
# role of a placeholder from the words around it (English: the preposition before it;
# Hungarian: the case ending written after it, `${x}-nál`, `${x}nál`, or a named form)
_EN_ROLE_BEFORE = {"than": "compared", "from": "origin", "to": "goal", "into": "goal", "onto": "goal",
                   "for": "for", "with": "with", "instead": "instead", "of": "of"}
_HU_ROLE_AFTER = [("compared", ("nál", "nél")), ("origin", ("ból", "ből", "tól", "től", "ról", "ről")),
                  ("goal", ("ra", "re", "ba", "be", "hoz", "hez", "höz", "ig")),
                  ("with", ("val", "vel", "al", "el")), ("for", ("ért",)), ("instead", ("helyett",)),
                  ("object", ("ot", "et", "öt", "at", "t"))]


_ICON_TERM = re.compile(r"((?:[^\w\s$\{\}()\[\],.;:!?\"'„”*|–-]\ufe0f?)+)([^\W\d_]+)")


def term_roles(text: str, lang: str) -> list[tuple[str, str]]:
    """:func:`placeholder_roles` and the terms marked by their icon (🛡️Shield,
    🛡️Életerejét): the icon names the term in every language, so a key ``icon:🛡``
    lines them up across languages. In text order."""
    from .text import icon_key, icons
    found = [(m.start(), k, r) for m, (k, r) in zip(_PLACEHOLDER.finditer(text), placeholder_roles(text, lang))]
    lang = base_lang(lang)
    for m in _ICON_TERM.finditer(_PLACEHOLDER.sub(lambda x: " " * len(x.group(0)), text)):
        marks = icons(m.group(1))
        if not marks:
            continue
        key = "icon:" + icon_key(marks[-1])
        role = ""
        if lang == "en":
            role = _en_role_before(text, m.start())
        elif lang == "hu":
            word = m.group(2).lower()
            for r, endings in _HU_ROLE_AFTER:
                if r in ("compared", "origin", "goal", "instead", "with") and any(word.endswith(e) for e in endings) \
                        and len(word) > 5:
                    role = r
                    break
        found.append((m.start(), key, role))
    return [(k, r) for _, k, r in sorted(found, key=lambda x: x[0])]


_EN_SKIP = ("the", "a", "an", "your", "their", "its", "his", "her", "each", "every", "any", "one", "more", "most",
            "less", "fewer", "least")


def _en_role_before(text: str, start: int) -> str:
    """An English term's role from the preposition before it (articles skipped)."""
    before = re.findall(r"[A-Za-z]+", text[max(0, start - 30):start])
    while before and before[-1].lower() in _EN_SKIP:
        before.pop()
    return _EN_ROLE_BEFORE.get(before[-1].lower(), "") if before else ""


def placeholder_roles(text: str, lang: str) -> list[tuple[str, str]]:
    """``(key, role)`` for each placeholder of ``text`` in order; role ``""`` where the
    grammar does not say."""
    out = []
    lang = base_lang(lang)
    for m in _PLACEHOLDER.finditer(text):
        inner = m.group(0)[2:-1]
        key, _, filters = inner.partition("|")
        key = key.strip()
        role = ""
        if lang == "en":
            role = _en_role_before(text, m.start())
        elif lang == "hu":
            after = re.match(r"-?([a-záéíóöőúüű]+)", text[m.end():m.end() + 12])
            tail = after.group(1) if after else ""
            named = [f.strip() for f in filters.split("|")[1:]] if "|" in filters else \
                [f.strip() for f in filters.split("|") if f.strip()]
            for r, endings in _HU_ROLE_AFTER:
                if tail and any(tail.endswith(e) for e in endings) and len(tail) <= 8:
                    role = r
                    break
            if not role and "acc" in named:
                role = "object"
            if not role:
                nxt = re.match(r"\s+([a-záéíóöőúüű]+)", text[m.end():m.end() + 20])
                if nxt and nxt.group(1) == "helyett":
                    role = "instead"
        out.append((key, role))
    return out
