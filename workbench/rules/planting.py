"""Planted mistakes and correct rewordings, made from the bundled translations, to
measure the translation review by kind.

Every clause of every game is taken in both directions (the bundled one, say
English source and Hungarian translation, and the reverse: the Hungarian as source
and the English as translation), and the translation is changed:

* a **mistake** of one kind (:data:`MISTAKE_KINDS`): a number word changed, a
  negation flipped, time shifted, a condition inverted, a sibling term swapped in,
  an exception dropped, a quantifier changed (every <-> one, any <-> every, at least
  <-> at most, "only" dropped or added), a unit changed, placeholders trading roles
  (or one term moved from "from X" to "to X", *X-ból* to *X-ba*), an actor swapped
  (the active player <-> the others, you <-> a rival, each player <-> the group). Each kind lists every place of the clause where the
  grammar of the language allows that change (Hungarian numerals keep their case,
  a turn-word its ending, a negated verb its preverb), so one clause gives many
  variations;
* a **correct rewording** (:data:`REWORDING_KINDS`): a synonym, a rules phrase said
  another way ("at least 2" / "2 or more", *minden körben* / *körönként*), a clause moved to
  the other end of its sentence, Hungarian word order changed, an article or a
  suffix changed without changing what is meant ("a card" / "one card", *egy lapot*
  / *lapot*, *körödben* / *saját körödben*), a sentence split in two at a
  coordinating word (", then" / ", majd", "; ").

The mutations are written from the languages' grammar, not from the review's
lexicons, so the measure does not test the review against itself. A plant is
*caught* when the review of the changed pair has a finding its unchanged pair had
not (on that clause: a pair is one clause); a rewording with such a finding is a
*false alarm*. :func:`measure` samples with one seeded stream, so a run is repeatable.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable

MISTAKE_KINDS = ("number", "negation", "time", "condition", "sibling-term", "exception", "quantifier",
                 "unit", "placeholder-roles", "actor")
REWORDING_KINDS = ("synonym", "reorder", "word-order", "article", "split", "paraphrase", "scope")


@dataclass(frozen=True)
class ClausePair:
    game: str
    clause: str
    src_lang: str
    tr_lang: str
    src: str
    tr: str
    heading: bool = False


@dataclass(frozen=True)
class Variant:
    kind: str
    pair: ClausePair
    text: str         # the changed translation
    note: str         # what was changed ("kör -> forduló")


# --------------------------------------------------------------------------- the bundled pairs
def bundled_pairs(game_id: str) -> list[ClausePair]:
    """Every translated clause of the game, in both directions."""
    from . import catalog as C
    source = C.load_source(game_id)
    if source is None:
        return []
    out = []
    for lang in C.translation_languages(game_id):
        live = C.entries_by_context(C.read_catalog(C.po_path(game_id, lang)))
        for ctxt, msgid, _ in source.entries():
            msg = live.get(ctxt)
            if msg is None or not msg.string or msg.id != msgid or "fuzzy" in msg.flags:
                continue
            heading = ctxt in source.sections
            out.append(ClausePair(game_id, ctxt, source.lang, lang, msgid, msg.string, heading))
            out.append(ClausePair(game_id, ctxt, lang, source.lang, msg.string, msgid, heading))
    return out


# --------------------------------------------------------------------------- grammar helpers
def _sub_each(pattern: str, text: str, repl: Callable[[re.Match], str | None], flags=0) -> list[tuple[str, str]]:
    """One variant per match of ``pattern``: that match replaced by ``repl(m)``."""
    out = []
    for m in re.finditer(pattern, text, flags):
        new = repl(m)
        if new is None or new == m.group(0):
            continue
        out.append((text[:m.start()] + new + text[m.end():], f"{m.group(0)!r} -> {new!r}"))
    return out


def _case_like(new: str, old: str) -> str:
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def _swap_words(text: str, pairs: Iterable[tuple[str, str]], *, both: bool = True, flags=re.I) -> list:
    """Variants with one word (or phrase) replaced by its partner, each occurrence alone."""
    out = []
    table = {}
    # without re.I the words are matched as written (a capitalised term such as a named
    # stretch of rounds is swapped, its lower-case homonym is not)
    key = str.lower if flags & re.I else str
    for a, b in pairs:
        table.setdefault(key(a), b)
        if both:
            table.setdefault(key(b), a)
    if not table:
        return out
    pat = r"(?<![\w$])(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")(?!\w)"
    return _sub_each(pat, text, lambda m: _case_like(table[key(m.group(1))], m.group(1)), flags)


def _swap_choice(text: str, table: dict[str, list[str]], rng: random.Random, flags=re.I) -> list:
    """Like :func:`_swap_words`, with a word's partner chosen (seeded) from several: one
    rule word can be changed into more than one other ("every" into "one", "a single",
    "any"), so a seed's sample holds many variations."""
    low = {k.lower(): v for k, v in table.items()}
    if not low:
        return []
    pat = r"(?<![\w$])(" + "|".join(re.escape(k) for k in sorted(low, key=len, reverse=True)) + r")(?!\w)"
    return _sub_each(pat, text, lambda m: _case_like(rng.choice(low[m.group(1).lower()]), m.group(1)), flags)


_PH = re.compile(r"\$\{[^}]*\}")


def _outside_placeholders(text: str, variants: list) -> list:
    """Drop variants that changed text inside a ``${...}``."""
    keep = []
    spans = [m.span() for m in _PH.finditer(text)]
    for new, note in variants:
        # the first changed position
        i = next((k for k, (x, y) in enumerate(zip(text, new)) if x != y), min(len(text), len(new)))
        if any(a <= i < b for a, b in spans):
            continue
        keep.append((new, note))
    return keep


# --------------------------------------------------------------------------- numbers
EN_NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
              "twelve"]
# Hungarian numerals by case: attributive (before a noun), nominative, accusative, sublative
HU_NUMERALS = {
    2: ("két", "kettő", "kettőt", "kettőre"), 3: ("három", "három", "hármat", "háromra"),
    4: ("négy", "négy", "négyet", "négyre"), 5: ("öt", "öt", "ötöt", "ötre"), 6: ("hat", "hat", "hatot", "hatra"),
    7: ("hét", "hét", "hetet", "hétre"), 8: ("nyolc", "nyolc", "nyolcat", "nyolcra"),
    9: ("kilenc", "kilenc", "kilencet", "kilencre"), 10: ("tíz", "tíz", "tizet", "tízre"),
    12: ("tizenkét", "tizenkettő", "tizenkettőt", "tizenkettőre"), 0: ("nulla", "nulla", "nullát", "nullára"),
}
# the accusative suffix a digit takes when read aloud ("3-at", "5-öt")
HU_DIGIT_ACC = {0: "-t", 1: "-et", 2: "-t", 3: "-at", 4: "-et", 5: "-öt", 6: "-ot", 7: "-et", 8: "-at",
                9: "-et", 10: "-et", 12: "-t"}


def _other_number(rng: random.Random, n: int, choices: Iterable[int]) -> int:
    options = [c for c in choices if c != n]
    return rng.choice(options)


def mutate_number(text: str, lang: str, rng: random.Random, **_) -> list:
    out = []
    # digits (a Hungarian digit with a case suffix keeps a suffix that fits the new value)
    def digit(m):
        n = int(m.group(1))
        if n > 40:
            return None
        new = _other_number(rng, n, [x for x in HU_DIGIT_ACC if x != 1] if lang == "hu" else range(0, 13))
        suffix = m.group(2) or ""
        if lang == "hu" and suffix in ("-t", "-at", "-et", "-öt", "-ot"):
            suffix = HU_DIGIT_ACC.get(new, "-t")
        return f"{new}{suffix}"
    out += _sub_each(r"(?<![\w.${}])(\d+)(-[a-záéíóöőúüű]+)?(?![\w.}])", text, digit)
    if lang == "en":
        words = {w: i for i, w in enumerate(EN_NUMBERS) if i != 1}
        out += _sub_each(r"\b(" + "|".join(words) + r")\b", text,
                         lambda m: _case_like(EN_NUMBERS[_other_number(rng, words[m.group(1).lower()],
                                                                       [2, 3, 4, 5, 6, 10])], m.group(1)), re.I)
    elif lang == "hu":
        forms = {}
        for n, cases in HU_NUMERALS.items():
            for i, f in enumerate(cases):
                forms.setdefault(f, (n, i))
        def hu(m):
            n, case = forms[m.group(1).lower()]
            new = _other_number(rng, n, [x for x in HU_NUMERALS if x not in (0, 12)])
            return _case_like(HU_NUMERALS[new][case], m.group(1))
        # "hat" is also the verb "acts": only before a noun-like word
        out += _sub_each(r"(?<!\w)(" + "|".join(sorted(forms, key=len, reverse=True)) + r")(?=\s+[\w${]|\s*[,.])",
                         text, hu, re.I)
    return out


# --------------------------------------------------------------------------- negation
EN_VERBS = ["gain", "take", "pay", "draw", "move", "lose", "score", "place", "get", "count", "receive",
            "discard", "return", "resolve", "add", "remove", "choose", "keep", "spend", "play", "end", "reveal",
            "trigger", "apply"]
EN_MODALS = ["may", "can", "must", "should", "will", "does", "do", "is", "are", "has", "have"]


def mutate_negation(text: str, lang: str, rng: random.Random, **_) -> list:
    out = []
    if lang == "en":
        # drop a negation
        out += _sub_each(r"\b(does not|do not|did not|is not|are not|cannot|can not|must not|may not|will not|"
                         r"doesn't|don't|isn't|aren't|can't|won't)\b", text,
                         lambda m: {"does not": "does", "do not": "do", "did not": "did", "is not": "is",
                                    "are not": "are", "cannot": "can", "can not": "can", "must not": "must",
                                    "may not": "may", "will not": "will", "doesn't": "does", "don't": "do",
                                    "isn't": "is", "aren't": "are", "can't": "can", "won't": "will"}[m.group(1).lower()],
                         re.I)
        out += _swap_words(text, [("never", "always"), ("nothing", "something"), ("without", "with"),
                                  ("nobody", "somebody"), ("none", "all")], both=False)
        out += _sub_each(r"\bno (?=[a-z${])", text, lambda m: "a ")
        # add one
        out += _sub_each(r"\b(" + "|".join(EN_MODALS) + r") (?!not\b|no\b)", text,
                         lambda m: m.group(1) + " not " if m.group(1) not in ("does", "do") else m.group(1) + " not ")
        out += _sub_each(r"\b(" + "|".join(EN_VERBS) + r")s\b", text, lambda m: f"does not {m.group(1)}")
    elif lang == "hu":
        # drop a negation: the preverb, if the verb had one, goes back in front ("nem fordít fel" -> "felfordít")
        out += _sub_each(r"\b([Nn]em|[Nn]e) (\w+) (fel|le|el|ki|be|meg|vissza|át)\b", text,
                         lambda m: _case_like(m.group(3) + m.group(2), m.group(1)))
        out += _sub_each(r"\b([Nn]em|[Nn]e) (?=\w)", text, lambda m: "")
        out += _swap_words(text, [("soha", "mindig"), ("sosem", "mindig"), ("nincs", "van"),
                                  ("nincsenek", "vannak"), ("semmit", "valamit"), ("senki", "valaki"),
                                  ("nélkül", "mellett")], both=False)
        # add one: before a finite verb (a modal, an imperative, a verb with a preverb)
        out += _sub_each(r"\b(kell|lehet|szabad|kap|kaphat|számít|marad|vehet|tehet|léphet|fizet|ad|adhat|"
                         r"húzhat|mozoghat|választhat|\w+hat|\w+het)\b", text, lambda m: "nem " + m.group(1))
        out += _sub_each(r"\b(fel|le|el|ki|be|meg|vissza|át)(\w{3,}(?:j|d|sz|nak|nek|ik))\b", text,
                         lambda m: f"nem {m.group(2)} {m.group(1)}")
    return _outside_placeholders(text, out)


# --------------------------------------------------------------------------- time
_HU_TIME_ENDINGS = [("kör", "forduló"), ("kört", "fordulót"), ("körben", "fordulóban"), ("körre", "fordulóra"),
                    ("köre", "fordulója"), ("körét", "fordulóját"), ("körében", "fordulójában"),
                    ("körödben", "fordulódban"), ("körök", "fordulók"), ("körönként", "fordulónként"),
                    ("körből", "fordulóból"), ("körig", "fordulóig"), ("körnek", "fordulónak"),
                    ("körön", "fordulón"), ("körének", "fordulójának"), ("körét", "fordulóját"),
                    ("körödet", "fordulódat"), ("köröd", "fordulód")]


def _spans(spans: Iterable[str]) -> str:
    """An alternation of the game's named stretches of rounds (``Game.rules_words``'
    ``time.span``, as :func:`_game_info` gives them) to follow the rounds and turns a
    pattern names, or "" for a game that names none."""
    return "".join("|" + re.escape(w) for w in spans)


def mutate_time(text: str, lang: str, rng: random.Random, spans: Iterable[str] = (), **_) -> list:
    if lang == "en":
        out = _swap_words(text, [("turn", "round"), ("turns", "rounds"), ("end of", "start of"),
                                 ("next", "previous"), ("ends", "begins"), *((w, "game") for w in spans)],
                          flags=0)
        out += _sub_each(r"\b(?:immediately|at once) ?", text, lambda m: "")
    else:
        out = _swap_words(text, _HU_TIME_ENDINGS + [("végén", "elején"), ("végéig", "elejéig"),
                                                    ("vége", "eleje"), ("következő", "előző"),
                                                    ("kezdődik", "véget ér")])
        out += _sub_each(r"\b(?:[Aa]zonnal|[Rr]ögtön) ?", text, lambda m: "")
    return _outside_placeholders(text, out)


# --------------------------------------------------------------------------- condition
def mutate_condition(text: str, lang: str, rng: random.Random, **_) -> list:
    if lang == "en":
        out = _swap_words(text, [("only if", "if"), ("only when", "when")], both=False)
        out += _sub_each(r"\b(?<!only )(if|when|whenever)\b", text, lambda m: _case_like("unless", m.group(1)),
                         re.I)
        out += _sub_each(r"\bunless\b", text, lambda m: _case_like("if", m.group(0)), re.I)
    else:
        out = _sub_each(r"\b(csak akkor, ha|csak ha)\b", text, lambda m: "ha")
        out += _sub_each(r"(?<!\w)(ha|amikor|amennyiben)\b", text, lambda m: _case_like("hacsak nem", m.group(1)),
                         re.I)
        out += _sub_each(r"\bhacsak nem\b", text, lambda m: _case_like("ha", m.group(0)), re.I)
        out += _sub_each(r"\bhacsak\b", text, lambda m: _case_like("ha", m.group(0)), re.I)
    return _outside_placeholders(text, out)


# --------------------------------------------------------------------------- exception
def mutate_exception(text: str, lang: str, rng: random.Random, **_) -> list:
    out = []
    if lang == "en":
        words = r"except|unless|other than|apart from|but not|excluding|save for|besides"
        out += _sub_each(r",? \(?(?:" + words + r")\b[^.;:)]*\)?", text, lambda m: "", re.I)
        out += _sub_each(r"\s*\([^)]*\b(?:" + words + r"|not|only)\b[^)]*\)", text, lambda m: "", re.I)
    else:
        words = r"kivéve|hacsak|leszámítva|de nem|kivételével"
        out += _sub_each(r",? \(?(?:" + words + r")\b[^.;:)]*\)?", text, lambda m: "", re.I)
        out += _sub_each(r"(?:(?<=^)|(?<=[,.;:] ))[^,.;:]*\bkivételével,? ?", text, lambda m: "")
        out += _sub_each(r"\s*\([^)]*\b(?:" + words + r"|nem|csak)\b[^)]*\)", text, lambda m: "", re.I)
    return [(new, note) for new, note in out if new.strip()]


# --------------------------------------------------------------------------- quantifier
def mutate_quantifier(text: str, lang: str, rng: random.Random, spans: Iterable[str] = (), **_) -> list:
    """every <-> one, any <-> every, all -> some, at least <-> at most, both -> one of,
    "only" dropped or added (before a number: "1 marker" / "only 1 marker")."""
    if lang == "en":
        out = _swap_choice(text, {
            "every": ["one", "a single", "any"], "each": ["one", "a single", "any"], "all": ["some", "any"],
            "any": ["every", "each", "one"], "both": ["one of the", "either of the"],
            "at least": ["at most", "exactly"], "at most": ["at least", "exactly"], "or more": ["or fewer"],
            "or fewer": ["or more"], "no more than": ["at least", "no fewer than"],
            "no fewer than": ["at most"], "exactly": ["at least", "at most"],
            "whichever": ["every"], "either": ["both"]}, rng)
        out += _sub_each(r"\bonly ", text, lambda m: "")
        # the scope of "once": once a round (or a game's named stretch) become once (in
        # the game), or once per turn
        out += _sub_each(r"\bonce (?:an?|per|each|every) (?:round|turn|game" + _spans(spans) + r")\b", text,
                         lambda m: rng.choice(["once", "once in the game"]))
        # ("at once" is "immediately", and a sentence's "Once ..." is "when": no count)
        out += _sub_each(r"(?<![Aa]t )\bonce\b(?! (?:an?|per|each|every|in|the|you|it|they|all|that|this|its|their|"
                         r"your)\b)", text,
                         lambda m: rng.choice(["once per round", "once each turn"]))
        # "up to 3" (a bound, not "face up to"): only before a count
        out += _sub_each(r"\b[Uu]p to (?=\d|(?:" + "|".join(EN_NUMBERS[1:]) + r")\b)", text,
                         lambda m: _case_like(rng.choice(["at least ", "exactly "]), m.group(0)))
        # "only" added before a count that had none ("gain 1 marker" -> "gain only 1 marker")
        nums = "|".join(EN_NUMBERS[1:])
        out += _sub_each(r"(?<!only )(?<!least )(?<!most )(?<!than )(?<![\w.$-])(?=(?:\d+|" + nums + r") [a-z])",
                         text, lambda m: None if re.search(r"\bonly(?:\W+\w+){0,2}\W*$", text[:m.start()], re.I)
                         else "only ")
        # idioms that hold a quantifier word and count nothing ("above all", "in all")
        out = [(new, note) for new, note in out if not _in_idiom(text, new)]
    else:
        out = _swap_choice(text, {
            "minden": ["egy", "bármelyik", "egyetlen"], "mindegyik": ["egyik", "bármelyik"],
            "összes": ["néhány", "egyik"], "bármelyik": ["mindegyik", "egyik"], "bármely": ["minden", "egy"],
            "tetszőleges": ["minden"], "mindkét": ["az egyik", "valamelyik"], "legalább": ["legfeljebb", "pontosan"],
            "legfeljebb": ["legalább", "pontosan"], "pontosan": ["legalább", "legfeljebb"],
            "valamennyi": ["néhány", "egy"], "mindenki": ["valaki"]}, rng)
        out += _sub_each(r"\b[Cc]sak ", text, lambda m: "")
        # the scope of "once": once per stretch (*körönként*) become once (in the game), or the other way
        out += _sub_each(r"\b(\w{3,}(?:onként|enként|önként|nként)) (egyszer)\b", text, lambda m: m.group(2))
        # (not where a distributive already stands a few words before: "fordulónként legfeljebb egyszer")
        out += _sub_each(r"(?<!\w)(?<!nként )(egyszer)\b", text,
                         lambda m: None if re.search(r"nként(?:\W+\w+){0,2}\W*$", text[:m.start()])
                         else rng.choice(["fordulónként egyszer", "körönként egyszer"]))
        out += _sub_each(r"(?<!csak )(?<!legalább )(?<!legfeljebb )(?<![\w.$-])(?=\d+ [a-záéíóöőúüű])", text,
                         lambda m: "csak ")
    return _outside_placeholders(text, out)


_IDIOMS = re.compile(r"\b(?:above all|at all|in all|after all|all in all|all the same|any more|at once|each other|"
                     r"one another)\b", re.I)


def _in_idiom(text: str, new: str) -> bool:
    """Did the change fall inside an idiom of ``text`` ("above all" is "mainly")?"""
    i = next((k for k, (x, y) in enumerate(zip(text, new)) if x != y), min(len(text), len(new)))
    return any(m.start() <= i < m.end() for m in _IDIOMS.finditer(text))


# --------------------------------------------------------------------------- terms and units
def _term_keys(text: str) -> list[tuple[re.Match, str, str]]:
    out = []
    for m in _PH.finditer(text):
        inner = m.group(0)[2:-1]
        key = inner.split("|")[0].strip()
        if key.startswith("terms."):
            out.append((m, key, inner[len(inner.split("|")[0]):]))
    return out


def _siblings(key: str, ctx: dict) -> list[str]:
    parts = key.split(".")
    node = ctx
    for p in parts[:-1]:
        node = node.get(p, {}) if isinstance(node, dict) else {}
    if not isinstance(node, dict):
        return []
    return [".".join(parts[:-1] + [k]) for k, v in node.items()
            if k != parts[-1] and k not in ("provenance", "note") and (isinstance(v, str) or
                                                                       (isinstance(v, dict) and "text" in v))]


def _swap_placeholder(text: str, m: re.Match, key: str, filters: str, new_key: str) -> str:
    return text[:m.start()] + "${" + new_key + filters + "}" + text[m.end():]


_ICON_WORD = re.compile(r"((?:[^\w\s$\{\}()\[\],.;:!?\"'„”*|-]\ufe0f?)+)([^\W\d_]+)")


def mutate_sibling_term(text: str, lang: str, rng: random.Random, ctx: dict | None = None,
                        glossary_words: list[str] | None = None, **_) -> list:
    out = []
    for m, key, filters in _term_keys(text):
        sib = _siblings(key, ctx or {})
        if sib:
            new_key = rng.choice(sib)
            out.append((_swap_placeholder(text, m, key, filters, new_key), f"{key} -> {new_key}"))
    # two sibling terms of one sentence trade places (each keeps its filters)
    found = _term_keys(text)
    for (mi, ki, fi), (mj, kj, fj) in itertools.combinations(found, 2):
        if ki != kj and ki.rsplit(".", 1)[0] == kj.rsplit(".", 1)[0] and \
                not re.search(r"[.;:!?]\s", text[mi.end():mj.start()]):
            new = text[:mi.start()] + "${" + kj + fi + "}" + text[mi.end():mj.start()] + "${" + ki + fj + "}" + \
                text[mj.end():]
            out.append((new, f"siblings {ki} <-> {kj}"))
    # a written-out term (with its icon or without) replaced by another term of the game
    words = [w for w in (glossary_words or []) if len(w) >= 4]
    if words:
        for w in words:
            for m in re.finditer(r"(?<!\w)" + re.escape(w) + r"([^\W\d_]*)", text):
                other = rng.choice([x for x in words if x.lower() != w.lower()] or [w])
                if other.lower() == w.lower():
                    continue
                new = text[:m.start()] + other + m.group(1) + text[m.end():]
                out.append((new, f"{w!r} -> {other!r}"))
    return _outside_placeholders(text, out)


EN_UNITS = [("money", "labour"), ("cards", "cubes"), ("card", "cube"), ("points", "cards"), ("point", "card"),
            ("turns", "rounds"), ("turn", "round"), ("spaces", "cards"), ("space", "card"), ("tokens", "cubes")]
HU_UNITS = [("pont", "lap"), ("pontot", "lapot"), ("pontért", "lapért"), ("kártya", "kocka"),
            ("kártyát", "kockát"), ("lapot", "kockát"), ("lap", "kocka"), ("kör", "forduló"),
            ("kört", "fordulót"), ("pénz", "munka"), ("pénzt", "munkát"), ("mezőt", "lapot"), ("mező", "lap")]


def mutate_unit(text: str, lang: str, rng: random.Random, ctx: dict | None = None, icons: list[str] | None = None,
                **_) -> list:
    """The thing a number counts changed: a word, an icon or a term placeholder right after a number."""
    out = []
    units = EN_UNITS if lang == "en" else HU_UNITS
    table = {}
    for a, b in units:
        table.setdefault(a, b)
        table.setdefault(b, a)
    num = r"(?:\d+|" + "|".join(EN_NUMBERS[2:] if lang == "en" else
                                 [c for cs in HU_NUMERALS.values() for c in cs]) + r")"
    pat = r"(?<!\w)(" + num + r")( (?:more |extra |further |new |további |újabb )?)(" + \
        "|".join(sorted(map(re.escape, table), key=len, reverse=True)) + r")(?!\w)"
    for m in re.finditer(pat, text, re.I):
        new = table[m.group(3).lower()]
        out.append((text[:m.start(3)] + new + text[m.end(3):], f"{m.group(0)!r}: {m.group(3)} -> {new}"))
    for m in re.finditer(num + r"\s*(?:-\s*)?\$\{(terms\.[^}|]+)([^}]*)\}", text, re.I):
        sib = _siblings(m.group(1), ctx or {})
        if sib:
            new = rng.choice(sib)
            out.append((text[:m.start(1)] + new + text[m.end(1):], f"unit {m.group(1)} -> {new}"))
    if icons:
        for m in re.finditer(r"(\d+)\s*((?:[^\w\s$\{\}()\[\],.;:!?\"'„”*|-]\ufe0f?)+)", text):
            icon = m.group(2)
            others = [i for i in icons if i != icon]
            if others:
                new = rng.choice(others)
                out.append((text[:m.start(2)] + new + text[m.end(2):], f"unit {icon} -> {new}"))
    return out


def mutate_placeholder_roles(text: str, lang: str, rng: random.Random, icon_terms: list | None = None,
                             glossary_words: list | None = None, **_) -> list:
    """Two terms trade places, each keeping the grammar (filters, suffixes) of the place it moves into;
    or one term keeps its place and takes another role (:func:`mutate_term_case`, :func:`mutate_role`:
    who pays whom, whose piece, from whom to whom)."""
    out = mutate_term_case(text, lang, rng) + mutate_role(text, lang, rng, glossary_words or [])
    found = _term_keys(text)
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            (mi, ki, fi), (mj, kj, fj) = found[i], found[j]
            ta = re.match(r"-?[^\W\d_]*", text[mi.end():]).group(0)
            tb = re.match(r"-?[^\W\d_]*", text[mj.end():]).group(0)
            if ki == kj or _listed_together(text[mi.end() + len(ta):mj.start()], ta, tb):
                continue
            new = text[:mi.start()] + "${" + kj + fi + "}" + text[mi.end():mj.start()] + "${" + ki + fj + "}" + \
                text[mj.end():]
            out.append((new, f"{ki} <-> {kj}"))
    # icon-marked written-out terms (🪙Coin) trade places, each keeping its suffix
    from .text import icons
    words = list(_ICON_WORD.finditer(text))
    terms = icon_terms or []
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            a, b = words[i], words[j]
            if a.group(1) == b.group(1) or len(icons(a.group(1))) != 1 or len(icons(b.group(1))) != 1:
                continue
            sa, sb = _stem_of(a.group(2), terms), _stem_of(b.group(2), terms)
            if not sa or not sb:
                continue
            ea, eb = a.group(2)[len(sa):], b.group(2)[len(sb):]
            # two items of one list (the same ending, only commas and "and" between): their
            # order is no rule, so trading them is no mistake
            hu = lang == "hu"
            if _listed_together(text[a.end():b.start()], ea if hu else "", eb if hu else ""):
                continue
            # each stem takes the other's ending as it stands: Hungarian only where both stems
            # end alike (vowel or consonant) and take the same vowel harmony, else the planted
            # word is no word ("Kezdeményezésekra", "Rétegn"), which no translator writes
            if lang == "hu" and (_back(sa) != _back(sb) or _ends_vowel(sa) != _ends_vowel(sb)):
                continue
            if lang != "hu":
                sa, sb = a.group(2), b.group(2)     # English: the whole words trade places
            na = b.group(1) + sb + a.group(2)[len(sa):]
            nb = a.group(1) + sa + b.group(2)[len(sb):]
            new = text[:a.start()] + na + text[a.end():b.start()] + nb + text[b.end():]
            out.append((new, f"{a.group(0)} <-> {b.group(0)}"))
    return out


_EN_ROLE_SWAP = {"from": ["to", "into"], "to": ["from"], "into": ["from"], "onto": ["from"], "than": ["and"]}
_HU_CASE_SWAP = {"ból": "ba", "ből": "be", "ba": "ból", "be": "ből", "ról": "ra", "ről": "re", "ra": "ról",
                 "re": "ről", "tól": "hoz", "től": "hez", "hoz": "tól", "hez": "től", "höz": "től"}
_ICON_MARK = r"(?:[^\w\s$\{\}()\[\],.;:!?\"'„”*|-]\ufe0f?)+"


def mutate_term_case(text: str, lang: str, rng: random.Random, **_) -> list:
    """A term (placeholder or icon-marked word) keeps its place and changes its role:
    "from X" <-> "to X", *X-ból* <-> *X-ba* (where it comes from and where it goes)."""
    out = []
    if lang == "en":
        pat = r"\b(from|to|into|onto)( (?:the |your |a |an |their |its )?)(?=\$\{terms\.|" + _ICON_MARK + r"[^\W\d_])"
        out += _sub_each(pat, text, lambda m: rng.choice(_EN_ROLE_SWAP[m.group(1)]) + m.group(2))
    else:
        ends = "|".join(sorted(_HU_CASE_SWAP, key=len, reverse=True))
        # ${terms.x}-ból, ${terms.x}ból
        out += _sub_each(r"(?<=\})(-?)(" + ends + r")\b", text,
                         lambda m: m.group(1) + _HU_CASE_SWAP[m.group(2)])
        # 🌈Mintaprizmából: an icon-marked word with a case ending
        out += _sub_each(r"(" + _ICON_MARK + r"[^\W\d_]{3,}?)(" + ends + r")\b", text,
                         lambda m: m.group(1) + _HU_CASE_SWAP[m.group(2)])
    return [(new, note) for new, note in out if new != text]


# the people of a rule, each a phrase a sentence may name twice ("the active player pays
# a rival"): who is the actor and who the recipient is their order
_EN_PEOPLE = ("the active player", "each other player", "another player", "the other players", "each player",
              "every player", "a rival", "each rival", "the rival", "that player", "the player", "the bank",
              "the group", "you")
_HU_PEOPLE = ("a soron lévő játékos", "egy másik játékos", "a többi játékos", "minden játékos", "a játékos",
              "egy rivális", "a rivális", "riválisod", "a bank", "a csoport", "mindenki")
# Hungarian cases a person or term takes as recipient and source, and their partners
_HU_ROLE_CASE = {"nak": "tól", "nek": "től", "tól": "nak", "től": "nek", "nál": "tól", "nél": "től"}
_EN_POSSESSOR = {"another player's": ["your own", "their own"], "that player's": ["your own", "their own"],
                 "a rival's": ["your own"], "your own": ["another player's", "a rival's"],
                 "their own": ["another player's"], "each player's": ["the active player's"],
                 "the active player's": ["each player's", "a rival's"]}
_HU_POSSESSOR = {"a saját": ["egy másik játékos", "a rivális"], "a másik játékos": ["a saját"],
                 "egy másik játékos": ["a saját"], "a rivális": ["a saját"], "egy rivális": ["a saját"]}


def mutate_role(text: str, lang: str, rng: random.Random, glossary_words: list[str]) -> list:
    """A term or person keeps its words and changes its role in the clause: two people
    (or two written-out terms) of one sentence trade places, each keeping the case or
    preposition of the place it moves into (who pays whom); a recipient becomes a source
    ("to X" / "from X", *X-nak* / *X-tól*: from whom to whom); a possessor changes
    ("another player's Castle" / "your own Castle": whose Castle)."""
    out = []
    low = text.lower()
    people = _EN_PEOPLE if lang == "en" else _HU_PEOPLE
    words = [w for w in glossary_words if len(w) >= 4]
    for sent in re.finditer(r"[^.;:!?]+", text):
        a, b = sent.span()
        people, terms = [], []
        for ph in (_EN_PEOPLE if lang == "en" else _HU_PEOPLE):
            for m in re.finditer(r"(?<![\w$])" + re.escape(ph) + r"(?!\w)" if lang == "en" else
                                 r"(?<![\w$])" + re.escape(ph), low[a:b]):
                people.append((a + m.start(), a + m.end()))
        for w in words:
            # (Hungarian: the term as a whole word before its ending, in the same vowel
            # class as its partner, so the ending fits the word it moves onto)
            for m in re.finditer(r"(?<![\w$])" + re.escape(w) + r"(?!\w)" if lang == "en" else
                                 r"(?<![\w$])" + re.escape(w), text[a:b]):
                terms.append((a + m.start(), a + m.end()))
        for spans in (people, terms):
            spans = sorted(set(spans))
            spans = [sp for sp in spans if not any(o != sp and o[0] <= sp[0] < o[1] for o in spans)]
            for (x1, y1), (x2, y2) in itertools.combinations(spans, 2):
                t1, t2 = text[x1:y1], text[x2:y2]
                if t1.lower() == t2.lower() or y1 > x2 or lang == "hu" and _back(t1) != _back(t2):
                    continue
                e1 = re.match(r"[^\W\d_]*", text[y1:]).group(0)
                e2 = re.match(r"[^\W\d_]*", text[y2:]).group(0)
                if _listed_together(text[y1 + len(e1):x2], e1, e2):
                    continue
                new = text[:x1] + _case_at(t2, t1) + text[y1:x2] + _case_at(t1, t2) + text[y2:]
                out.append((new, f"{t1!r} <-> {t2!r}"))
    if lang == "en":
        out += _sub_each(r"\b(to|from)( (?:the |a |an |each |every |another |that )?(?:active |other )?"
                         r"(?:players?|rivals?|bank|group)\b)", text,
                         lambda m: {"to": "from", "from": "to"}[m.group(1)] + m.group(2))
        out += _swap_choice(text, _EN_POSSESSOR, rng)
    else:
        ends = "|".join(sorted(_HU_ROLE_CASE, key=len, reverse=True))
        stems = ["játékos", "rivális", "bank", "csoport", "mindenki"] + [w[:max(3, len(w) - 1)] for w in words]
        pat = r"(?<![\w$])((?:" + "|".join(re.escape(x) for x in stems) + r")[a-záéíóöőúüű]*?)(" + ends + r")\b"
        out += _sub_each(pat, text, lambda m: m.group(1) + _HU_ROLE_CASE[m.group(2)], re.I)
        out += _swap_choice(text, _HU_POSSESSOR, rng)
    return _outside_placeholders(text, out)


def _ends_vowel(word: str) -> bool:
    return word[-1:].lower() in "aáeéiíoóöőuúüű"


# (each item may open with its own article or quantifier: "a Farmer, a Harvest",
# *minden Földműves és minden Vár*)
_LIST_JOIN = re.compile(r"(?:[^,.;:()\[\]!?]{0,40}?(?:,\s*(?:(?:and|or|és|vagy|valamint)\s+)?|"
                        r"\s+(?:and|or|és|vagy|valamint)\s+))+(?:(?:a|an|the|az|egy|each|every|minden)\s+)?",
                        re.I)


def _listed_together(between: str, tail_a: str, tail_b: str) -> bool:
    """Do two terms stand in one list: only commas, "and", "or" and short items between
    them (``between``), and each term with the same ending (``tail_a``, ``tail_b``)? Two
    items of a list trade places without changing what the rule says ("Harvest,
    Trade ... and Import", *Vásárokból, Aratásokból*)."""
    return bool(_LIST_JOIN.fullmatch(between)) and tail_a.lstrip("-")[-3:] == tail_b.lstrip("-")[-3:]


def _back(word: str) -> bool:
    """Does a Hungarian word take back-vowel endings (its last vowel a, á, o, ó, u, ú)?"""
    vowels = [c for c in word.lower() if c in "aáeéoóöőuúüű"]   # i and í are neutral
    return bool(vowels) and vowels[-1] in "aáoóuú"


def _case_at(new: str, old: str) -> str:
    """``new`` capitalised as the word it replaces: upper at a sentence's start, lower
    elsewhere (a person is lower-case, a term keeps its capital)."""
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    if new[:1].isupper() and new.split()[0].lower() in ("a", "az", "egy", "the", "each", "every", "another",
                                                       "that", "you", "mindenki", "minden", "riválisod"):
        return new[:1].lower() + new[1:]
    return new


def _stem_of(word: str, terms: list[str]) -> str:
    best = ""
    for t in terms:
        for k in range(len(t), max(2, len(t) - 2), -1):
            if word.lower().startswith(t[:k].lower()) and k > len(best):
                best = word[:k]
                break
    return best


# --------------------------------------------------------------------------- actor
def mutate_actor(text: str, lang: str, rng: random.Random, **_) -> list:
    out = []
    if lang == "en":
        out += _swap_words(text, [("each player", "the active player"), ("every player", "the active player"),
                                  ("all players", "the active player"), ("the other players", "you"),
                                  ("other players", "rivals"), ("everyone", "the active player"),
                                  ("each rival", "you"), ("a rival", "you"), ("rivals", "you"),
                                  ("the active player", "each other player"), ("you", "a rival"),
                                  ("your", "a rival's"), ("each other player", "each player"),
                                  ("together", "alone")], both=False)
        # a second partner for the same actors (the first is above): each player <-> the group,
        # the active player <-> everyone, the others <-> the active player
        out += _swap_choice(text, {"each player": ["the group", "you"], "the active player": ["every player",
                                                                                            "a rival"],
                                   "the others": ["the active player", "you"], "everyone": ["you", "the group"],
                                   "the group": ["the active player", "each player"],
                                   "a rival": ["each player", "the active player"]}, rng)
    else:
        out += _swap_words(text, [("a soron lévő játékos", "a többi játékos"), ("minden játékos", "a soron lévő játékos"),
                                  ("mindegyik játékos", "a soron lévő játékos"),
                                  ("valamennyi játékos", "a soron lévő játékos"),
                                  ("mindenki", "a soron lévő játékos"), ("a többi játékos", "minden játékos"),
                                  ("többi játékos", "rivális"), ("riválisod", "a többi játékos"),
                                  ("riválisaid", "minden játékos"), ("ellenfeled", "minden játékos"),
                                  ("közösen", "egyedül"), ("együtt", "egyedül"),
                                  ("neked", "egy riválisodnak"), ("nálad", "egy riválisodnál"),
                                  ("mindenkinek", "a soron lévő játékosnak")], both=False)
        out += _swap_choice(text, {"a soron lévő játékos": ["minden játékos", "egy rivális"],
                                   "a többiek": ["a soron lévő játékos"], "mindenki": ["a soron lévő játékos",
                                                                                       "te"],
                                   "minden játékos": ["a többi játékos", "a csoport"],
                                   "a csoport": ["a soron lévő játékos", "minden játékos"],
                                   "közösen": ["külön-külön"], "egy rivális": ["minden játékos"]}, rng)
        # "you" is in the verb: a second-person verb becomes third person with a rival as its subject
        out += _sub_each(r"\b(\w{2,}?)(sz|ol|el|öl)\b", text, _hu_second_to_rival)
    return _outside_placeholders(text, out)


def _hu_second_to_rival(m: re.Match) -> str | None:
    from .review_checks.dictionary import dictionary
    stem, ending = m.group(1), m.group(2)
    d = dictionary("hu")
    if d is None or not d.lookup(m.group(0).lower()) or not d.lookup(stem.lower()) or len(stem) < 3:
        return None
    if ending in ("ol", "el", "öl") and not stem.endswith(("sz", "z", "s")):
        return None
    return "egy riválisod " + stem


# --------------------------------------------------------------------------- correct rewordings
EN_SYNONYMS = [("gets", "receives"), ("get", "receive"), ("must", "has to"), ("may", "can"), ("each", "every"),
               ("immediately", "at once"), ("begins", "starts"), ("place", "put"), ("choose", "pick"),
               ("chooses", "picks"), ("gain", "earn"), ("gains", "earns"), ("spend", "use up"),
               ("take", "pick up"), ("takes", "picks up"), ("reveal", "turn over")]
HU_SYNONYMS = [("azonnal", "rögtön"), ("ha", "amennyiben"), ("minden", "valamennyi"), ("kap", "megkap"),
               ("kapsz", "megkapsz"), ("választ", "kiválaszt"), ("lapot", "kártyát"), ("lap", "kártya"),
               ("tedd", "rakd"), ("tegyél", "rakj"), ("után", "követően"), ("előtt", "megelőzően"),
               ("azután", "ezután"), ("majd", "aztán"), ("ismét", "újra"), ("csak", "kizárólag")]


def reword_synonym(text: str, lang: str, rng: random.Random, **_) -> list:
    pairs = EN_SYNONYMS if lang == "en" else HU_SYNONYMS
    return _outside_placeholders(text, _swap_words(text, pairs, both=False))


def reword_reorder(text: str, lang: str, rng: random.Random, **_) -> list:
    """A leading condition or time clause moved behind the main clause ("If X, Y." -> "Y if X.")."""
    out = []
    lead = r"(If|When|At the (?:start|end) of [^,]+|After [^,]+|Before [^,]+|Whenever)" if lang == "en" else \
        r"(Ha|Amikor|Amennyiben|A [^,]+ (?:végén|elején)|[^,]+ után|[^,]+ előtt)"
    for m in re.finditer(r"(?:(?<=^)|(?<=[.!?] ))" + lead + r"([^,.;:]*), ([^.;:!?]+)([.!?])", text):
        head = (m.group(1) + m.group(2)).strip()
        rest = m.group(3).strip()
        if "$" in rest[:2] or any(part.count("${") != part.count("}") for part in (head, rest)) \
                or m.group(4) == "." and re.search(r"(?:\d|\b[IVX]+)$", rest):
            continue   # the match cut a placeholder or stopped at an ordinal's full stop: no clause
        new = rest[0].upper() + rest[1:] + (" " if lang == "en" else ", ") + head[0].lower() + head[1:] + m.group(4)
        out.append((text[:m.start()] + new + text[m.end():], f"moved {head!r} to the end"))
    return out


def reword_word_order(text: str, lang: str, rng: random.Random, **_) -> list:
    """Hungarian free word order: the verb and an adverb (or the object) trade places
    within a sentence; English: an adverb moved from before the verb to after the object."""
    out = []
    if lang == "hu":
        for m in re.finditer(r"\b(azonnal|rögtön|mindig|ismét|újra|először|végül|aztán|majd|ezután) (\w+)\b", text):
            if m.group(2) in ("a", "az", "egy", "nem", "ne", "sem"):
                continue
            out.append((text[:m.start()] + m.group(2) + " " + m.group(1) + text[m.end():],
                        f"{m.group(0)!r} -> {m.group(2)} {m.group(1)}"))
        # "X-ot kapsz" <-> "kapsz X-ot": object and verb trade places
        # (a whole word: not the suffix of a digit, "5-öt", nor a term glued to its icon, "🪙Érmét")
        for m in re.finditer(r"(?:(?<=\s)|^)([^\W\d_]+(?:ot|et|öt|at|t)) (kapsz|kap|veszel|vesz|húzol|húz|fizetsz|"
                             r"fizet)\b", text):
            out.append((text[:m.start()] + m.group(2) + " " + m.group(1) + text[m.end():],
                        f"{m.group(0)!r} reordered"))
    else:
        for m in re.finditer(r"\b(then|also|immediately|again) (\w+s) ([^,.;]+)([,.;])", text):
            out.append((text[:m.start()] + f"{m.group(2)} {m.group(3)} {m.group(1)}{m.group(4)}" + text[m.end():],
                        f"{m.group(1)!r} moved"))
    return _outside_placeholders(text, out)


def reword_article(text: str, lang: str, rng: random.Random, **_) -> list:
    """An article or possessive changed in a way that keeps the rule: English "a card"
    as "one card", "the other players" as "other players"; Hungarian *egy lapot* as
    *lapot* (the indefinite article is optional before an object), a possessed noun
    with *saját* ("own") before it (*körödben* / *a saját körödben*)."""
    out = []
    if lang == "en":
        out += _sub_each(r"\b([Aa]) (?=(?:card|token|cube|die|space|tile|disc|worker|marker|coin|new|single)\b)",
                         text, lambda m: _case_like("one ", m.group(1)))
        out += _sub_each(r"\b(the) (?=other players\b|others\b)", text, lambda m: "")
        out += _sub_each(r"\b(your) (?=turn\b|round\b|hand\b|board\b)", text, lambda m: "your own ")
    else:
        out += _sub_each(r"(?<![\w$])egy (?=[a-záéíóöőúüű]{3,}(?:ot|et|öt|at)\b)", text, lambda m: "")
        out += _sub_each(r"(?<![\w$])(a|A) (?=[a-záéíóöőúüű]{2,}(?:od|ed|öd|d)(?:ban|ben|ra|re|ba|be|at|et|öt|ot)?\b)",
                         text, lambda m: m.group(1) + " saját ")
    return _outside_placeholders(text, out)


def reword_split(text: str, lang: str, rng: random.Random, **_) -> list:
    """One sentence split in two where it joins two statements (", then", "; ",
    ", majd", ", és ezután"): the same rules, one more full stop."""
    low = "a-z" if lang == "en" else "a-záéíóöőúüű"
    joins = {"en": [(r", then ([a-z])", ". Then "), (r"; ([a-z])", ". "), (r", and then ([a-z])", ". Then ")],
             "hu": [(r", majd ([%s])" % low, ". Ezután "), (r"; ([%s])" % low, ". "),
                    (r", aztán ([%s])" % low, ". Aztán ")]}
    out = []
    for pat, repl in joins["en" if lang == "en" else "hu"]:
        # the word after the new full stop starts its sentence with a capital (unless a joining word leads)
        out += _sub_each(pat, text, lambda m, r=repl: r + (m.group(1).upper() if r == ". " else m.group(1)))
    # not inside brackets: "(repair and relationships; used in ...)" is one aside
    out = [(new, note) for new, note in out if _depth_at_change(text, new) == 0]
    return _outside_placeholders(text, out)


def _depth_at_change(text: str, new: str) -> int:
    i = next((k for k, (x, y) in enumerate(zip(text, new)) if x != y), min(len(text), len(new)))
    return text[:i].count("(") - text[:i].count(")")


def reword_paraphrase(text: str, lang: str, rng: random.Random, spans: Iterable[str] = (), **_) -> list:
    """Rules phrases said another way with the same meaning, as a translator might:
    "at least 2" / "2 or more", "at the end of the round" / "when the round ends",
    *minden fordulóban* / *fordulónként*, *legfeljebb 2* / *2 vagy kevesebb*."""
    out = []
    if lang == "en":
        num = r"(\d+|" + "|".join(EN_NUMBERS[1:]) + r")"
        out += _sub_each(r"\b[Aa]t least " + num + r" ([a-z${][^\s,.;:]*)", text,
                         lambda m: _case_like(f"{m.group(1)} or more {m.group(2)}", m.group(0)))
        out += _sub_each(r"\b[Aa]t most " + num + r" ([a-z${][^\s,.;:]*)", text,
                         lambda m: _case_like(f"no more than {m.group(1)} {m.group(2)}", m.group(0)))
        out += _sub_each(r"\b([Aa]t the end of (?:the|your) (round|turn|game" + _spans(spans) + r"))\b", text,
                         lambda m: _case_like(f"when {'your' if m.group(1).split()[4] == 'your' else 'the'} "
                                              f"{m.group(2)} ends", m.group(1)))
        out += _sub_each(r"\b([Aa]t the start of|[Aa]t the beginning of)\b", text,
                         lambda m: _case_like("at the beginning of" if "start" in m.group(1) else "at the start of",
                                              m.group(1)))
        out += _swap_words(text, [("cannot", "may not"), ("each player", "every player"),
                                  ("immediately", "without delay"), ("every round", "each round"),
                                  ("each turn", "every turn")], both=False)
    else:
        num = r"(\d+(?:-[a-záéíóöőúüű]+)?|" + "|".join(c for cs in HU_NUMERALS.values() for c in cs) + r")"
        out += _sub_each(r"\b[Ll]egalább " + num + r"\b", text,
                         lambda m: _case_like(f"{m.group(1)} vagy több", m.group(0)))
        out += _sub_each(r"\b[Ll]egfeljebb " + num + r"\b", text,
                         lambda m: _case_like(f"{m.group(1)} vagy kevesebb", m.group(0)))
        out += _sub_each(r"\b([Mm])inden (forduló|kör)ben\b", text,
                         lambda m: _case_like(f"{m.group(2)}önként" if m.group(2) == "kör" else "fordulónként",
                                              m.group(1)))
        out += _sub_each(r"\b(a|A) (forduló|kör) végén(?= [a-záéíóöőúüű])", text,
                         lambda m: _case_like(f"amikor a {m.group(2)} véget ér,", m.group(1)))
        out += _swap_words(text, [("minden játékos", "mindegyik játékos"), ("azonnal", "haladéktalanul"),
                                  ("elején", "kezdetén")], both=False)
    return _outside_placeholders(text, out)


def reword_scope(text: str, lang: str, rng: random.Random, spans: Iterable[str] = (), **_) -> list:
    """Negations and counts said another way with the same scope, as a translator might:
    a negation moved or strengthened ("cannot" / "can never", *(nulla alá nem mehet)* /
    *(de nulla alá sosem mehet)*, *soha nem* / *sosem*), "if there are only 2, those 2" /
    "or both, if there are only 2", "once a Season" / "once per Season" (*Évszakonként
    egyszer* / *minden Évszakban egyszer*)."""
    out = []
    if lang == "en":
        out += _sub_each(r"\b(can|may)not\b(?! only)", text, lambda m: f"{m.group(1)} never")
        out += _sub_each(r"\b(is|are) never\b", text, lambda m: f"{m.group(1)} not ever")
        out += _sub_each(r"\b(?:does|do) not ever\b", text, lambda m: "never")
        num = r"(\d+|" + "|".join(EN_NUMBERS[2:]) + r")"
        out += _sub_each(r"\(if there (?:are|is) only " + num + r", (?:those|these|all) " + num + r"\)", text,
                         lambda m: f"(or {'both' if m.group(1) in ('2', 'two') else 'all ' + m.group(1)}, "
                                   f"if there are only {m.group(1)})" if m.group(1) == m.group(2) else None)
        out += _sub_each(r"\bonce (an?) (round|turn" + _spans(spans) + r")\b", text,
                         lambda m: f"once {rng.choice(['per', 'each'])} {m.group(2)}")
    else:
        # a negated verb in brackets: "(nulla alá nem mehet)" -> "(de nulla alá sosem mehet)"
        out += _sub_each(r"\(([^()]*?)\bnem (\w+)\)", text, lambda m: f"(de {m.group(1)}sosem {m.group(2)})")
        out += _sub_each(r"\b([Ss])oha nem\b", text, lambda m: m.group(1) + "osem")
        out += _sub_each(r"\b([Ss])osem\b", text, lambda m: m.group(1) + "oha nem")
        num = r"(\d+|" + "|".join(c for cs in HU_NUMERALS.values() for c in cs[:2]) + r")"
        out += _sub_each(r"\(ha csak " + num + r" van, akkor az a " + num + r"\)", text,
                         lambda m: f"(vagy {'mindkettő' if m.group(1) in ('2', 'kettő', 'két') else 'mind a ' + m.group(1)}"
                                   f", ha csak {m.group(1)} van)" if m.group(1) == m.group(2) else None)
        out += _sub_each(r"\b([A-ZÁÉÍÓÖŐÚÜŰ]\w+?)(?:onként|enként|önként) egyszer\b", text,
                         lambda m: f"minden {m.group(1)}ban egyszer" if _back(m.group(1)) else None)
    return _outside_placeholders(text, out)


MUTATORS: dict[str, Callable] = {
    "number": mutate_number, "negation": mutate_negation, "time": mutate_time, "condition": mutate_condition,
    "sibling-term": mutate_sibling_term, "exception": mutate_exception, "quantifier": mutate_quantifier,
    "unit": mutate_unit, "placeholder-roles": mutate_placeholder_roles, "actor": mutate_actor,
}
REWORDERS: dict[str, Callable] = {"synonym": reword_synonym, "reorder": reword_reorder,
                                  "word-order": reword_word_order, "article": reword_article,
                                  "split": reword_split, "paraphrase": reword_paraphrase, "scope": reword_scope}


# --------------------------------------------------------------------------- running the measure
def _game_info(game_id: str, lang: str) -> dict:
    from ..core.registry import get_game
    from .glossary import game_glossary
    from .meaning import base_lang
    from .placeholders import context_for
    from .text import icons
    ctx = context_for(game_id, lang)
    other = "en" if lang != "en" else "hu"
    words, icon_terms, all_icons = [], [], set()
    for p in game_glossary(game_id, other, lang):
        for f in p.target:
            bare = re.sub(r"^[^\w]+", "", f)
            if bare and " " not in bare:
                words.append(bare)
                if bare != f:
                    icon_terms.append(bare)
                    all_icons.update(icons(f))
    spans = tuple(get_game(game_id).rules_words.get("time.span", {}).get(base_lang(lang), ()))
    return {"ctx": ctx, "glossary_words": sorted(set(words)), "icon_terms": sorted(set(icon_terms)),
            "icons": sorted(all_icons), "spans": spans}


def variants(pairs: list[ClausePair], kinds: dict[str, Callable], seed: int) -> list[Variant]:
    rng = random.Random(seed)
    info: dict = {}
    out = []
    for p in pairs:
        if p.heading:
            continue
        key = (p.game, p.tr_lang)
        if key not in info:
            info[key] = _game_info(p.game, p.tr_lang)
        for kind, fn in kinds.items():
            for new, note in fn(p.tr, p.tr_lang, rng, **info[key]):
                if new != p.tr:
                    out.append(Variant(kind, p, new, note))
    return out


@dataclass
class KindResult:
    kind: str
    total: int = 0
    flagged: int = 0
    checks: Counter = field(default_factory=Counter)
    misses: list = field(default_factory=list)
    hits: list = field(default_factory=list)     # (variant, new findings)


def findings_of(pair: ClausePair, tr: str, cache: dict) -> set[tuple[str, str]]:
    from .glossary import game_glossary
    from .placeholders import context_for
    from .review import meaning_findings
    key = (pair.game, pair.src_lang, pair.tr_lang)
    if key not in cache:
        cache[key] = (context_for(pair.game, pair.src_lang), context_for(pair.game, pair.tr_lang),
                      game_glossary(pair.game, pair.src_lang, pair.tr_lang))
    sctx, tctx, gl = cache[key]
    return meaning_findings(pair.clause, pair.src, tr, pair.src_lang, pair.tr_lang, sctx, tctx, gl,
                            heading=pair.heading)


def measure(games: list[str], *, seed: int = 2038, per_kind: int | None = 200,
            only: Iterable[str] | None = None) -> dict[str, KindResult]:
    """Plant mistakes and rewordings over ``games`` and review each; at most
    ``per_kind`` variants of each kind (sampled with ``seed``; None for all). ``only``
    reviews just those kinds: every kind is still planted and sampled, so a kind's
    figure is the one a full run gives."""
    only = set(only) if only else None
    pairs = [p for g in games for p in bundled_pairs(g)]
    rng = random.Random(seed)
    results: dict[str, KindResult] = {}
    cache: dict = {}
    base: dict = {}
    for kinds in (MUTATORS, REWORDERS):
        vs = variants(pairs, kinds, seed)
        by_kind: dict[str, list[Variant]] = {}
        for v in vs:
            by_kind.setdefault(v.kind, []).append(v)
        for kind, items in by_kind.items():
            if per_kind is not None and len(items) > per_kind:
                items = rng.sample(items, per_kind)
            if only is not None and kind not in only:
                continue
            res = results.setdefault(kind, KindResult(kind))
            for v in items:
                bkey = (v.pair.game, v.pair.clause, v.pair.src_lang)
                if bkey not in base:
                    base[bkey] = findings_of(v.pair, v.pair.tr, cache)
                new = findings_of(v.pair, v.text, cache) - base[bkey]
                res.total += 1
                if new:
                    res.flagged += 1
                    res.checks.update({c for c, _ in new})
                    res.hits.append((v, sorted(new)))
                else:
                    res.misses.append(v)
    return results
