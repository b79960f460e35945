"""Numbers in a rules text, written as digits or as words, in English and Hungarian.

Number parity compares what a clause says in two languages: "draw two cards" and
"húzz két lapot" both say 2. Hungarian inflects number words (két/kettő/kettőt,
három/hármat, öt/ötöt/öten), so each number has a list of its word forms; they are
listed in full rather than matched by prefix because short stems collide with
ordinary words (hat "six" / hatás "effect", öt "five" / ötlet "idea").

The value 1 is left out when written as a word: "egy" is also the Hungarian
indefinite article and "one" an English pronoun, so counting them would report
noise. A digit 1 still counts.
"""

from __future__ import annotations

import re
from collections import Counter

_EN_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
             "nineteen", "twenty"]
_EN_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

EN_WORDS: dict[str, int] = {w: i for i, w in enumerate(_EN_UNITS) if i != 1}
EN_WORDS.update(_EN_TENS)
EN_WORDS.update({"hundred": 100, "twice": 2, "thrice": 3, "dozen": 12})
for _t, _v in list(_EN_TENS.items()) + [("twenty", 20)]:
    for _u in range(1, 10):
        EN_WORDS[f"{_t}-{_EN_UNITS[_u]}"] = _v + _u

# Hungarian: stems with the suffixes a rules text uses on them (accusative, "times",
# "-fold", group "-an/-en", sublative "-re/-ra", and the "the two" noun "-es/-as/-os/-ös").
_HU_BASE: dict[int, list[str]] = {
    0: ["nulla", "nullát", "nullára", "nulláról", "nullánál", "nullával", "nullán", "nulláig", "nullából", "zéró",
        "zérót", "zéróra"],
    1: [],  # "egy" doubles as the article: not counted as a word
    2: ["két", "kettő", "kettőt", "kettőre", "kettőből", "kettővel", "kettőnél", "ketten", "kettes", "kettest",
        "kétszer", "kétszeres", "kétszeresére", "kettőig"],
    3: ["három", "hármat", "háromra", "háromból", "hárommal", "háromnál", "hárman", "hármas", "hármast",
        "háromszor", "háromszoros", "háromig"],
    4: ["négy", "négyet", "négyre", "négyből", "néggyel", "négynél", "négyen", "négyes", "négyest",
        "négyszer", "négyszeres", "négyig"],
    5: ["öt", "ötöt", "ötre", "ötből", "öttel", "ötnél", "öten", "ötös", "ötöst", "ötször", "ötszörös", "ötig"],
    6: ["hat", "hatot", "hatra", "hatból", "hattal", "hatnál", "hatan", "hatos", "hatost", "hatszor", "hatig"],
    7: ["hét", "hetet", "hétre", "hétből", "héttel", "hétnél", "heten", "hetes", "hetest", "hétszer", "hétig"],
    8: ["nyolc", "nyolcat", "nyolcra", "nyolcból", "nyolccal", "nyolcnál", "nyolcan", "nyolcas", "nyolcast",
        "nyolcszor", "nyolcig"],
    9: ["kilenc", "kilencet", "kilencre", "kilencből", "kilenccel", "kilencnél", "kilencen", "kilences",
        "kilencszer", "kilencig"],
    10: ["tíz", "tizet", "tízre", "tízből", "tízzel", "tíznél", "tízen", "tizen", "tízes", "tízszer", "tízig"],
    20: ["húsz", "húszat", "húszra", "húszból", "hússzal", "húsznál", "húszas", "húszig"],
    30: ["harminc", "harmincat", "harmincra", "harminccal", "harmincig"],
    40: ["negyven", "negyvenet", "negyvenre", "negyvennel", "negyvenig"],
    50: ["ötven", "ötvenet", "ötvenre", "ötvennel", "ötvenig"],
    100: ["száz", "százat", "százra", "százzal", "százig"],
}
HU_WORDS: dict[str, int] = {}
for _v, _forms in _HU_BASE.items():
    for _f in _forms:
        HU_WORDS[_f] = _v
# "of N kinds" / "in N ways": kétféle, háromféleképpen, négyfajta
for _v, _stem in ((2, "két"), (3, "három"), (4, "négy"), (5, "öt"), (6, "hat"), (7, "hét"), (8, "nyolc"),
                  (9, "kilenc"), (10, "tíz")):
    for _tail in ("féle", "féleképpen", "fajta"):
        HU_WORDS[_stem + _tail] = _v
# 11-19 tizen-, 21-29 huszon-, 31-39 harminc-: the unit word carries the suffix.
_HU_UNIT_FORMS = {v: forms for v, forms in _HU_BASE.items() if 1 <= v <= 9}
_HU_UNIT_FORMS[1] = ["egy", "egyet", "egyre", "eggyel", "egynél", "egyen", "egyes"]
for _prefix, _tens in (("tizen", 10), ("huszon", 20), ("harminc", 30), ("negyven", 40), ("ötven", 50)):
    for _u, _forms in _HU_UNIT_FORMS.items():
        for _f in _forms:
            HU_WORDS[_prefix + _f] = _tens + _u

WORDS = {"en": EN_WORDS, "hu": HU_WORDS}

_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_URL = re.compile(r"https?://\S+")
_DIGITS = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)(?![\d])")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")


_DIGIT_SUFFIX = re.compile(r"(\d)-[^\W\d_]+")  # Hungarian 5-öt, 3-at: the suffix is not a number word


def _clean(text: str) -> str:
    text = _URL.sub(" ", _COMMENT.sub(" ", _PLACEHOLDER.sub(" ", text)))
    return _DIGIT_SUFFIX.sub(r"\1", text)


# number words that are also verbs: Hungarian "hat" is six and "it acts" ("mindenkire
# hat"). The numeral stands before what it counts; the verb ends its clause or is
# followed by an article, a pronoun or an adverb of direction.
_VERB_TOO = {"hu": {"hat"}}
_AFTER_VERB = {"a", "az", "egy", "rá", "ki", "vissza", "is", "ez", "ezekre", "arra", "erre", "mindenkire",
               "mindenre", "minden", "mindegyikre", "ki", "el", "át", "be", "le", "fel"}


def _is_verb(text: str, m) -> bool:
    after = text[m.end():]
    nxt = re.match(r"\s*([^\W\d_]+|\S)", after)
    if nxt is None:
        return True
    word = nxt.group(1).lower()
    if not word[0].isalpha():
        return word not in ("(", "„")
    return word in _AFTER_VERB or word.endswith(("ra", "re")) and m.start() > 0 and \
        text[:m.start()].rstrip().lower().endswith(("nem", "is", "csak"))


def numbers(text: str, lang: str) -> Counter:
    """How often each number occurs in ``text`` (digits and ``lang``'s number words)."""
    text = _clean(text)
    found: Counter = Counter()
    for m in _DIGITS.finditer(text):
        raw = m.group(1).replace(",", ".")
        value = float(raw)
        found[int(value) if value.is_integer() else value] += 1
    base = lang.split("-")[0].split("_")[0]
    table = WORDS.get(base, {})
    if table:
        for m in _WORD.finditer(text):
            word = m.group(0).lower()
            if word in _VERB_TOO.get(base, {}) and _is_verb(text, m):
                continue
            if word in table:
                found[table[word]] += 1
            elif "-" in word:
                for part in word.split("-"):
                    if part in table:
                        found[table[part]] += 1
    return found


def number_parity(source: str, src_lang: str, translation: str, tr_lang: str) -> tuple[list, list]:
    """``(missing, extra)``: numbers the translation lacks, and numbers it adds.
    A word "one"/"egy" on either side may stand in for a digit 1 on the other."""
    a, b = numbers(source, src_lang), numbers(translation, tr_lang)
    missing = sorted((a - b).elements())
    extra = sorted((b - a).elements())
    if 1 in missing and _has_word_one(translation, tr_lang):
        missing = [n for n in missing if n != 1]
    if 1 in extra and _has_word_one(source, src_lang):
        extra = [n for n in extra if n != 1]
    return missing, extra


def _has_word_one(text: str, lang: str) -> bool:
    words = {w.lower() for w in _WORD.findall(_clean(text))}
    ones = {"en": {"one", "once", "single", "a", "an"}, "hu": set(_HU_UNIT_FORMS[1]) | {"egyszer"}}
    return bool(words & ones.get(lang.split("-")[0], set()))
