"""Who does what to whom in a rules sentence: the clause each term stands in, its role
there, and what a bound ("at least", *legalább*) counts.

A rules sentence is cut into clauses at its punctuation (``, ; : ( )`` and dashes); a
translator keeps the clauses of a sentence together with the terms they hold, even where
word order inside a clause changes (Hungarian puts a possessor first, a verb last). So:

* :func:`clause_of_terms` gives each term of a sentence (a ``${terms...}`` placeholder,
  an icon-marked word such as 🛡️Shield, or a written-out game term of the glossary) the
  index of the clause it stands in;
* :func:`clause_swap` finds two terms that traded clauses: the pairs of terms that share
  a clause in the source but not in the translation (and the other way round), or stand
  in clauses of the other order, become fewer by at least two when the two terms are put
  back in each other's place;
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
# trade ("After the 🌳Grove, raise 🪙Coin ... and resolve the ⚡Bonus" / "..., és
# oldd fel"); with four or more the bundled sentences (486 clause pairs) show none
CLAUSE_SWAP_MIN_TERMS = 4
# terms in different clauses are also compared by which clause comes first (a list keeps
# its order across languages): on the planted trades of one development seed this finds
# 817 of 7,988 against 618 by clause membership alone, with no bundled sentence and no
# correct rewording flagged (with three terms, 3 of 70 leading clauses moved to the end were)
ORDERED = True


@functools.lru_cache(maxsize=4096)
def clause_swap(src: str, tr: str) -> tuple[str, str] | None:
    """Two terms of a sentence that stand in each other's clause in the translation
    (see the module doc), or None."""
    a, b = clause_of_terms(src), clause_of_terms(tr)
    common = [k for k in a if len(set(a[k])) == 1 and len(set(b.get(k, ()))) == 1]
    if len(common) < CLAUSE_SWAP_MIN_TERMS:
        return None
    sa = {k: a[k][0] for k in common}
    sb = {k: b[k][0] for k in common}
    pairs = list(itertools.combinations(common, 2))

    def rel(s: dict, u: str, v: str) -> int:
        # same clause, or which clause comes first (a list keeps its order across languages)
        return 0 if s[u] == s[v] else (1 if s[u] < s[v] else -1) if ORDERED else 1

    def disagree(s: dict) -> int:
        return sum(rel(sa, u, v) != rel(s, u, v) for u, v in pairs)

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


# --------------------------------------------------------------------------- people's roles
# who gives and who receives: English says it with a preposition before the person ("to a
# rival", "from the active player") or with the person right after a verb of giving ("pays
# a rival 2"); Hungarian with the person's case ending (*riválisnak* "to a rival",
# *játékostól* "from the player")
_EN_ROLE_PREP = {"to": "recipient", "from": "source"}
_EN_GIVING = ("give", "gives", "pay", "pays", "offer", "offers", "hand", "hands", "lend", "lends", "owe", "owes")
_HU_ROLE_END = (("recipient", ("nak", "nek")), ("source", ("tól", "től")))
_HU_PERSON_NOUNS = ("játékos", "rivális", "riválisa", "riválisod", "ellenfél", "ellenfele", "mindenki", "többiek",
                    "csoport", "játékosa")
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def _actor_of(words: list[str], lang: str) -> str:
    from .meaning import concepts
    found = [c for c in concepts(" ".join(words), lang) if c.startswith("actor.")]
    return found[0] if len(found) == 1 else ""


@functools.lru_cache(maxsize=8192)
def people_roles(text: str, lang: str) -> tuple[tuple[str, str], ...]:
    """``(actor concept, role)`` for each person of ``text`` named as a recipient or a
    source (see above), in text order."""
    lang = base_lang(lang)
    words = _WORD_RE.findall(_PLACEHOLDER.sub(" x ", text))
    low = [w.lower() for w in words]
    out = []
    for i, w in enumerate(low):
        if lang == "en":
            role = _EN_ROLE_PREP.get(w) or ("recipient" if w in _EN_GIVING else "")
            if not role:
                continue
            # the person: up to four words after the preposition, stopping at the next one
            window = []
            for x in low[i + 1:i + 5]:
                if x in _EN_ROLE_PREP or x in ("and", "or", "who", "that", "if", "when"):
                    break
                window.append(x)
            actor = _actor_of(window, lang) if window else ""
            if actor and not (w in _EN_GIVING and window[0] in ("to", "from")):
                out.append((actor, role))
        elif lang == "hu":
            role = next((r for r, ends in _HU_ROLE_END if w.endswith(ends) and len(w) > 5), "")
            # the ending is on the person's own word (a noun that names people)
            if not role or not w[:-3].endswith(_HU_PERSON_NOUNS):
                continue
            actor = _actor_of(low[max(0, i - 3):i + 1], lang)
            if actor:
                out.append((actor, role))
    return tuple(out)


def people_role_changes(src: str, src_lang: str, tr: str, tr_lang: str) -> list[str]:
    """What changed in who gives and who receives between two sentences (see
    :func:`people_roles`): a person named as recipient in one and as source in the other,
    or a role given to another person. Only people both sentences name with a role."""
    a, b = set(people_roles(src, src_lang)), set(people_roles(tr, tr_lang))
    if a == b:
        return []
    actors = {c for c, _ in a} & {c for c, _ in b}
    out = []
    for c in sorted(actors):
        ra, rb = {r for x, r in a if x == c}, {r for x, r in b if x == c}
        if len(ra) == 1 and len(rb) == 1 and ra != rb:
            out.append(f"{c.split('.', 1)[1]}: {next(iter(ra))} -> {next(iter(rb))}")
    for r in ("recipient", "source"):
        ca, cb = {c for c, x in a if x == r}, {c for c, x in b if x == r}
        if len(ca) == 1 and len(cb) == 1 and ca != cb:
            x, y = next(iter(ca)), next(iter(cb))
            if y in {c for c, _ in a} | _named(src, src_lang) and x in _named(tr, tr_lang) | {c for c, _ in b}:
                out.append(f"{r}: {x.split('.', 1)[1]} -> {y.split('.', 1)[1]}")
    return out


def _named(text: str, lang: str) -> set[str]:
    from .meaning import concepts
    return {c for c in concepts(text, lang) if c.startswith("actor.")}


# --------------------------------------------------------------------------- what "each" ranges over
# "Each Tower can be built once a Season": "each" ranges over the Towers and
# "once a Season" over the Seasons; *Minden Torony Évszakonként egyszer* says the same with
# *minden* and the distributive ending *-nként*. A translation that puts "each" on another
# noun ("a Tower can be built once each Season") keeps every word and changes the rule.
_EN_EVERY = ("each", "every", "all", "per")
_EN_ONCE = ("once", "twice", "one", "1")
_EN_ONCE_ART = ("a", "an", "per", "each", "every")
_HU_EVERY = ("minden", "mindegyik", "valamennyi", "összes")
_HU_SKIP = ("olyan", "egyes", "egyéb", "további", "egyes", "a", "az", "egy")
_HU_DISTRIBUTIVE = ("nként",)


def _head_id(words: list[str], lang: str, terms: tuple, quantifier: str = "") -> str:
    """What a few words after "each" name: the game term of the glossary that starts
    nearest (its index), a time (turn, round, a game's named stretch) or a person (``actor.each`` for "each
    player", read with the quantifier word), or ""."""
    from .glossary import term_positions
    from .meaning import concepts
    text = " ".join(words)
    best, found = None, ""
    for i, forms in enumerate(terms):
        for f in forms:
            # (a term's first three letters stay in every inflected form: a cheap test first)
            stem = re.sub(r"^\W+", "", f)[:3].lower()
            if stem not in text:
                continue
            pos = term_positions(f, text, lenient=True)
            if pos and (best is None or min(pos) < best):
                best, found = min(pos), f"term:{i}"
    if found and best <= 1:
        return found
    hit = [c for c in concepts(" ".join(([quantifier] if quantifier else []) + words[:2]), lang)
           if c.startswith(("time.", "actor."))]
    return hit[0] if hit else ""


@functools.lru_cache(maxsize=4096)
def quantified_heads(text: str, lang: str, terms: tuple = ()) -> tuple[str, ...]:
    """What each "each" of ``text`` ranges over (see above), as ids that line up across
    languages: ``term:<n>`` for the glossary's n-th term (``terms`` holds the forms of
    each term in ``lang``), ``time.span``, ``actor.each`` ... In text order."""
    lang = base_lang(lang)
    words = [w.lower() for w in _WORD_RE.findall(_PLACEHOLDER.sub(" ", text))]
    out = []
    for i, w in enumerate(words):
        window = []
        if lang == "en":
            if w in _EN_EVERY:
                window = words[i + 1:i + 4]
            elif w in _EN_ONCE and i + 1 < len(words) and words[i + 1] in _EN_ONCE_ART[:2]:
                window = words[i + 2:i + 4]
        elif lang == "hu":
            if w in _HU_EVERY:
                rest = [x for x in words[i + 1:i + 5] if x not in _HU_SKIP]
                window = rest[:3]
            elif w.endswith(_HU_DISTRIBUTIVE) and len(w) > 6:
                window = [w]
        if window:
            head = _head_id(window, lang, terms, w if w in _EN_EVERY + _HU_EVERY else "")
            if head:
                out.append(head)
    return tuple(out)


def scope_change(src: str, src_lang: str, src_terms: tuple, tr: str, tr_lang: str,
                 tr_terms: tuple) -> tuple[str, str] | None:
    """``(source head, translation head)`` where "each" ranges over another thing in the
    translation of a sentence than in its source ("each Tower ... once" become "a
    Tower ... once each Season"; *Évszakonként* become *fordulónként*), or None."""
    from collections import Counter
    a = Counter(quantified_heads(src, src_lang, src_terms))
    b = Counter(quantified_heads(tr, tr_lang, tr_terms))
    lost, added = a - b, b - a
    # only a move: one head for another, each named on both sides and neither a person
    # (a translator says "each" of a thing in many ways, *minden olyan ... után*, "a pair
    # each of": a head lost or gained alone flagged 14 of the 486 bundled pairs)
    if sum(lost.values()) == 1 and sum(added.values()) == 1:
        x, y = next(iter(lost)), next(iter(added))
        if not x.startswith("actor.") and not y.startswith("actor.") and \
                all(_names(t, lang, terms, h) for t, lang, terms in ((src, src_lang, src_terms), (tr, tr_lang, tr_terms))
                    for h in (x, y)):
            return x, y
    return None


def frequency_added(src: str, src_lang: str, src_terms: tuple, tr: str, tr_lang: str,
                    tr_terms: tuple) -> str | None:
    """A span of time the translation counts by ("once each turn", "per round",
    *fordulónként*) where its source sentence counts by nothing and names no such span at
    all: the rule is now limited per turn (or round, a named stretch), or repeats with it."""
    from collections import Counter
    from .meaning import concepts
    a = Counter(quantified_heads(src, src_lang, src_terms))
    b = Counter(quantified_heads(tr, tr_lang, tr_terms))
    added = [h for h in b - a if h.startswith("time.")]
    if len(added) == 1 and not (a - b) and not concepts(src, src_lang)[added[0]]:
        return added[0]
    return None


def _names(text: str, lang: str, terms: tuple, head: str) -> bool:
    """Does ``text`` name what ``head`` stands for (with "each" or without)?"""
    from .glossary import find_term
    from .meaning import concepts
    if head.startswith("term:"):
        return any(find_term(f, text, lenient=True) for f in terms[int(head[5:])])
    if head.startswith("actor."):
        return False    # "each player" said as "the players" is no narrower scope
    return concepts(text, lang)[head] > 0


# --------------------------------------------------------------------------- terms' grammatical roles
# Each term of a sentence (placeholder or icon-marked word) gets the role its grammar gives
# it: English by the preposition before it ("from" source, "to" goal, "in/on/at" place,
# "with", "than"), by "'s" after it (possessor), by standing first in its clause (subject)
# or right after a verb of the rules (object); Hungarian by its case ending (-ból source,
# -ba/-ra/-hoz goal, -nak/-nek dative, -ban/-on/-nál place, -val with, -t object, none:
# nominative). The two languages' roles are not one to one ("who has the Crown" is *akinél
# megvan a Korona*; "in the area" is often *a területre*, a goal), so a pair of roles is only
# judged as *compatible*; a role that says nothing ("of", "for", "by", a list item) is
# compatible with every other. Two terms traded roles where each stands in a role its
# source gives the other and neither in one its own source role allows.
_EN_PREP = {"from": "source", "to": "goal", "into": "goal", "onto": "goal", "towards": "goal", "in": "place",
            "on": "place", "at": "place", "inside": "place", "with": "with", "than": "compared"}
_EN_DET = {"the", "a", "an", "your", "their", "its", "his", "her", "my", "our", "each", "every", "any", "all", "no",
           "that", "this", "these", "those", "one", "two", "three", "four", "five", "six", "another", "other",
           "own", "more", "extra", "further", "new", "some", "both", "either", "1", "2", "3", "4", "5", "6"}
# ("and" and "or" join nouns as often as clauses: a term after them has no role from them)
_EN_CLAUSE_START = {"but", "when", "if", "while", "then", "whenever", "unless", "so", "once"}
_EN_VERBS = frozenset(
    v + s for v in ("gain", "take", "pay", "draw", "lose", "score", "place", "get", "receive", "discard", "return",
                    "add", "remove", "choose", "keep", "spend", "play", "reveal", "raise", "bring", "use", "hold",
                    "load", "complete", "build", "give", "meet", "cover", "commit", "need", "lower", "reduce",
                    "protect", "own", "reach", "resolve", "trigger", "flip", "put", "trade", "swap", "move",
                    "steady", "pick", "buy", "hire", "fund", "advance", "drop", "contribute", "restore", "replace",
                    "push", "cost", "claim", "donate", "refill", "install", "owe")
    for s in ("", "s")) | {"has", "have", "supplies", "supply", "touches", "touch", "finishes", "finish"}
_EN_GERUND = re.compile(r"[a-z]{2,}[^aeiou\W]ing")
_EN_NOT_GERUND = {"during", "according", "including", "regarding", "following", "notwithstanding", "nothing",
                  "something", "anything", "everything", "morning", "evening", "string", "thing", "building",
                  "setting", "opening", "ending", "beginning", "starting", "remaining", "matching", "king"}
_HU_ENDINGS = (("source", ("ból", "ből", "ról", "ről", "tól", "től")),
               ("goal", ("ba", "be", "ra", "re", "hoz", "hez", "höz")),
               ("dative", ("nak", "nek")), ("place", ("ban", "ben", "nál", "nél")), ("for", ("ért",)),
               ("with", ("val", "vel")))
# English role -> the Hungarian roles that may render it (see above)
_COMPATIBLE = {"subject": {"nominative", "dative"}, "possessor": {"nominative", "dative"},
               "object": {"object", "nominative"}, "source": {"source"}, "goal": {"goal", "dative", "place"},
               "place": {"place", "goal", "compared", "superessive"}, "with": {"with"},
               "compared": {"compared", "place"}}


def _compatible(a: str, b: str, a_lang: str) -> bool:
    """May role ``a`` (in ``a_lang``) render role ``b`` (in the other language)?"""
    if not a or not b:
        return True
    en, hu = (a, b) if a_lang == "en" else (b, a)
    if hu == "superessive":      # -on/-en/-ön: "on", "at", or a place the verb goes onto
        return en in ("place", "goal")
    return hu in _COMPATIBLE.get(en, {hu})


def _en_term_role(text: str, start: int, end: int) -> str:
    after = text[end:end + 2]
    if after in ("'s", "’s"):
        return "possessor"
    before = re.findall(r"[A-Za-z0-9]+(?:['’]s)?|[,;:()]", text[max(0, start - 80):start])
    # determiners, a possessor ("some Player's") and an adjective or two ("a completed") stand
    # between a preposition or verb and its term
    while before and (before[-1].lower() in _EN_DET or before[-1].endswith(("'s", "’s")) or
                      re.fullmatch(r"[a-z]+(?:est|ed)|current|required|same|single|whole|first|last|next",
                                   before[-1])):
        before.pop()
    if not before or before[-1] in ",;:(" or before[-1].lower() in _EN_CLAUSE_START:
        return "subject"
    w = before[-1].lower()
    if w in _EN_PREP:
        return _EN_PREP[w]
    if w in _EN_VERBS or _EN_GERUND.fullmatch(w) and w not in _EN_NOT_GERUND:
        return "object"       # ("loading 🏰Castles": a verb's -ing form takes its object as the verb does)
    return ""


def _hu_role_of(word: str, bases: frozenset) -> str:
    w = word.lower()
    if len(w) <= 3:
        return ""
    if w.endswith(("i", "-")):
        return ""            # an adjective of a longer term (🌀Stabilitási ablakban): its case is further on
    if w in bases:
        return "nominative"
    for role, ends in _HU_ENDINGS:
        if w.endswith(ends):
            return role
    if re.search(r"([bcdfghjklmnprstvz])\1[ae]l$", w):
        return "with"                                  # assimilated -val: Játékossal, kockákkal
    if re.search(r"(?:[aáeéioóöőuúüű]t|[aeoö]t)$", w):
        return "object"
    if re.search(r"[aáeéoóöőuúüű]n$|(?:on|en|ön)$", w):
        return "superessive"
    if any(w.startswith(b) and len(w) - len(b) <= 3 for b in bases):
        return "nominative"                            # plural or possessed: no case
    return ""


@functools.lru_cache(maxsize=8192)
def grammatical_roles(text: str, lang: str, bases: frozenset = frozenset()) -> tuple[tuple[str, str], ...]:
    """``(term key, role)`` for each term of ``text`` (see above), in text order;
    ``bases`` holds the Hungarian terms' dictionary forms (lower case), which carry no
    case ending."""
    from .text import icons
    lang = base_lang(lang)
    out = []
    blank = _PLACEHOLDER.sub(lambda x: " " * len(x.group(0)), text)
    for m in _PLACEHOLDER.finditer(text):
        inner = m.group(0)[2:-1]
        key = inner.split("|")[0].strip()
        if not key.startswith("terms."):
            continue
        if lang == "en":
            role = _en_term_role(text, m.start(), m.end())
        else:
            tail = re.match(r"-?([^\W\d_]*)", text[m.end():]).group(1).lower()
            role = "object" if "acc" in inner.split("|")[1:] or tail in ("t", "at", "et", "ot", "öt") else \
                next((r for r, ends in _HU_ENDINGS if tail.endswith(ends)), "" if tail else "nominative")
        out.append((m.start(), key, role))
    for m in _ICON_TERM.finditer(blank):
        marks = icons(m.group(1))
        if len(marks) != 1:
            continue
        from .text import icon_key
        key = "icon:" + icon_key(marks[0])
        if lang == "en":
            # the term's words run on while capitalised ("🏰Castle Garden's")
            end = m.end()
            nxt = re.match(r"(?: [A-Z][a-z]+)+", text[end:])
            role = _en_term_role(text, m.start(), end + (nxt.end() if nxt else 0))
        else:
            role = _hu_role_of(m.group(2), bases)
        out.append((m.start(), key, role))
    return tuple((k, r) for _, k, r in sorted(out))


def _unmatched(a: list[str], b: list[str], a_lang: str) -> tuple[list[str], list[str]]:
    """The roles of ``a`` and ``b`` left when each role of ``a`` takes a compatible one of ``b``."""
    left = list(b)
    rest = []
    for r in sorted(a, key=lambda x: x == ""):
        j = next((i for i, x in enumerate(left) if x == r or (x and r and _compatible(r, x, a_lang))), None)
        if j is None:
            j = next((i for i, x in enumerate(left) if _compatible(r, x, a_lang)), None)
        if j is None:
            rest.append(r)
        else:
            left.pop(j)
    return rest, left


def role_trades(src: str, src_lang: str, tr: str, tr_lang: str, src_bases: frozenset = frozenset(),
                tr_bases: frozenset = frozenset()) -> list[tuple[str, str, str, str]]:
    """``(term u, term v, u's source role, v's source role)`` for two terms of one sentence
    that traded roles (see above): u stands in a role its source gives v, v in one its
    source gives u, and neither keeps a role its own source allows."""
    if base_lang(src_lang) == base_lang(tr_lang):
        return []
    a = grammatical_roles(src, src_lang, src_bases)
    b = grammatical_roles(tr, tr_lang, tr_bases)
    ra: dict[str, list[str]] = {}
    rb: dict[str, list[str]] = {}
    for k, r in a:
        ra.setdefault(k, []).append(r)
    for k, r in b:
        rb.setdefault(k, []).append(r)
    keys = [k for k in ra if k in rb and len(ra[k]) == len(rb[k])]
    left = {k: _unmatched(ra[k], rb[k], base_lang(src_lang)) for k in keys}
    out = []
    for u, v in itertools.combinations(keys, 2):
        (su, tu), (sv, tv) = left[u], left[v]
        if not (su and tu and sv and tv):
            continue
        x = next((r for r in su if any(_compatible(r, y, base_lang(src_lang)) for y in tv)), None)
        y = next((r for r in sv if any(_compatible(r, z, base_lang(src_lang)) for z in tu)), None)
        if x and y and x != y:
            out.append((u, v, x, y))
    # half a trade: two terms named once, v in a role its source does not allow, u in one
    # its source allows, and each in the role the other's source gives ("💬Rumour gives
    # no 🛡️Shield" / "🛡️Shield gives no 💬Rumour" where the source has *a 💬Pletyka nem
    # ad 🛡️Pajzsot*: a Hungarian nominative may render an English object, so only Shield,
    # an accusative become a subject, is off)
    sl = base_lang(src_lang)
    for u, v in itertools.permutations([k for k in keys if len(ra[k]) == 1], 2):
        (su, tu), (sv, tv) = left[u], left[v]
        if su or tu or not (sv and tv) or any({w, t} == {u, v} for w, t, *_ in out) or \
                _listed(src, u, v) or _listed(tr, u, v):
            continue
        x, y, xu, yv = ra[u][0], ra[v][0], rb[u][0], rb[v][0]
        if x and y and xu and yv and x != y and _compatible(x, yv, sl) and _compatible(y, xu, sl):
            out.append((u, v, x, y))
    return out


_LIST_GAP = re.compile(r"[\s,]*(?:(?:and|or|és|vagy|valamint|a|az|the|an)\s+)*", re.I)


def _listed(text: str, u: str, v: str) -> bool:
    """Do the first ``u`` and ``v`` of ``text`` stand next to each other in a list (only a
    comma, "and", "or" or an article between)? A list item after a comma reads as a
    subject in English ("touch 🛡️Shield, 🪙Coins or ...") and has no role of its own."""
    places = {}
    for pos, key in term_places(text):
        places.setdefault(key, pos)
    if u not in places or v not in places:
        return False
    x, y = sorted((places[u], places[v]))
    # (from the end of the first term's word to the second's icon or placeholder)
    between = re.sub(r"[^\w\s,]+$", "", re.sub(r"^\S+", "", text[x:y], count=1))
    return bool(_LIST_GAP.fullmatch(between))


# a term's role turned round: where it comes from become where it goes ("from the 🌈Castle
# Garden" / *a 🌈Várkertbe*), or whom it is given to (*a 👤Játékosnak*). Pairs of (English
# role, Hungarian role); none stands for one term named once on both sides of the 486 bundled
# sentence pairs, where every other pair of roles a translator uses does (a subject said as
# *-tól* in a passive, "through X" / *X-ből*)
_OPPOSED = {("source", "goal"), ("source", "dative"), ("goal", "source")}


def role_flips(src: str, src_lang: str, tr: str, tr_lang: str, src_bases: frozenset = frozenset(),
               tr_bases: frozenset = frozenset()) -> list[tuple[str, str, str]]:
    """``(term, source role, translation role)`` for a term of one sentence that stands in
    the opposite role (see :data:`_OPPOSED`) and in no role its source gives it, named as
    often on both sides."""
    sl, tl = base_lang(src_lang), base_lang(tr_lang)
    if sl == tl:
        return []
    ra: dict[str, list[str]] = {}
    rb: dict[str, list[str]] = {}
    for k, r in grammatical_roles(src, src_lang, src_bases):
        ra.setdefault(k, []).append(r)
    for k, r in grammatical_roles(tr, tr_lang, tr_bases):
        rb.setdefault(k, []).append(r)
    out = []
    for k in ra:
        if k not in rb or len(ra[k]) != len(rb[k]):
            continue
        su, tu = _unmatched(ra[k], rb[k], sl)
        for x in su:
            y = next((y for y in tu if ((x, y) if sl == "en" else (y, x)) in _OPPOSED), None)
            if y:
                out.append((k, x, y))
                break
    return out


# --------------------------------------------------------------------------- terms put in each other's place
def _lcs(a: list, b: list) -> tuple[int, set[int]]:
    """Length of the longest common subsequence of ``a`` and ``b``, and the positions of
    ``b`` on one such subsequence."""
    n, m = len(a), len(b)
    t = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            t[i][j] = t[i + 1][j + 1] + 1 if a[i] == b[j] else max(t[i + 1][j], t[i][j + 1])
    on, i, j = set(), 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            on.add(j)
            i, j = i + 1, j + 1
        elif t[i + 1][j] >= t[i][j + 1]:
            i += 1
        else:
            j += 1
    return t[0][0], on


# a sentence with more terms than this is judged as a whole only by the other checks (the
# search below tries each pair of terms out of order)
ORDER_MAX_TERMS = 40
ORDER_ALL_PAIRS = 8


def written_terms(forms: tuple) -> tuple[re.Pattern, dict[str, int]] | None:
    """A pattern that finds the written-out, capitalised game terms (no icon) of a glossary
    side, inflected (a Hungarian ending, an English plural), and each stem's term index:
    ``forms`` holds each glossary pair's forms on that side."""
    stems: dict[str, int] = {}
    for i, fs in enumerate(forms):
        for f in fs:
            if not f[:1].isupper() or " " in f or len(f) < 3:
                continue          # an icon-marked term is found by its icon; a lower-case word is also a plain word
            stems.setdefault(f[:max(3, len(f) - 2)], i)
    if not stems:
        return None
    alt = "|".join(re.escape(x) for x in sorted(stems, key=len, reverse=True))
    return re.compile(r"(?<![\w$\-])(" + alt + r")[^\W\d_]*"), stems


def term_sequence(text: str, written: tuple | None = None) -> tuple[str, ...]:
    """The keys of the terms of ``text`` in order (:func:`term_places`), with the written-out
    glossary terms (``written``, from :func:`written_terms`) as ``g:<index>``."""
    places = term_places(text)
    if written:
        pat, stems = written
        blank = _PLACEHOLDER.sub(lambda x: " " * len(x.group(0)), text)
        for m in pat.finditer(blank):
            if m.start() and not blank[m.start() - 1].isspace() and blank[m.start() - 1] not in "(„\"'":
                continue          # glued to an icon: the icon's term
            places.append((m.start(), f"g:{stems[m.group(1)]}"))
    return tuple(k for _, k in sorted(places))


@functools.lru_cache(maxsize=4096)
def order_trade(a: tuple, b: tuple) -> tuple[str, str] | None:
    """Two terms that stand in each other's place in the translation: the sequence of the
    terms both texts name (``a``, ``b`` from :func:`term_sequence`, with repeats) comes
    back to the source's order by two more terms when the two are put back. Terms a
    language reorders by grammar stand next to each other (a possessor goes first in
    Hungarian: "the Towers of the Castle" / *a Vár Tornyai*), which puts back one
    term, not two."""
    common = set(a) & set(b)
    a = [k for k in a if k in common]
    b = [k for k in b if k in common]
    if len(b) < 3 or len(b) > ORDER_MAX_TERMS or len(set(b)) < 2:
        return None
    base, on = _lcs(a, b)
    # (only the terms one longest common order leaves out are tried: trying every pair also
    # puts back a Hungarian nested phrase, "the Garden of the Players of the Castle" /
    # *a Vár Játékosainak Kertje*, which a bundled sentence has)
    # In a sentence of a few terms every pair is tried: the one longest common order
    # chosen may hold one of the two traded terms ("a Knight on a black Tower, in the Market
    # or in the Moat" become "... Moat, ... Tower": Knight, Tower kept and Moat, Market left
    # out), and a few terms leave a translator little room to reorder; the bundled
    # sentences that come back by two on some pair all name more than ORDER_ALL_PAIRS terms
    off = [j for j in range(len(b)) if j not in on] if len(b) > ORDER_ALL_PAIRS else list(range(len(b)))
    for x, y in itertools.combinations(off, 2):
        if b[x] == b[y]:
            continue
        c = list(b)
        c[x], c[y] = c[y], c[x]
        if _lcs(a, c)[0] >= base + 2:
            # a clause moved to the other end of its sentence moves one block of terms,
            # which may look like a trade where a term is named twice ("When every 🪙Coin
            # box ... a 🏰Castle ..., a 🧑Player who has that 🏰Castle may" with the "when"
            # clause moved behind): one block moved is a reordering, not a trade
            return None if _one_block_moved(a, b) else (b[y], b[x])
    return None


def _one_block_moved(a: list, b: list) -> bool:
    """Is ``b`` ``a`` with one run of consecutive items moved elsewhere?"""
    n = len(a)
    if n != len(b) or sorted(map(str, a)) != sorted(map(str, b)):
        return False
    for i in range(n):
        for j in range(i + 1, n + 1):
            rest = a[:i] + a[j:]
            block = a[i:j]
            for k in range(len(rest) + 1):
                if k != i and rest[:k] + block + rest[k:] == b:
                    return True
    return False


# --------------------------------------------------------------------------- sentences told apart by their terms
# a sentence ends at ". ! ?" before a capital, a digit or an icon: an English sentence
# opens with an icon-marked term as often as with a word ("... up to 12. 📅Seasons move")
_TERM_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÖŐÚÜŰ0-9$*(„\"]|[^\x00-\u2000\s])|\n\s*\n")


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in _TERM_SENTENCE.split(text) if x.strip() and re.search(r"[^\W\d_]", x)]


def _term_bags(sentences: list[str], written) -> list:
    from collections import Counter
    return [Counter(term_sequence(s, written)) for s in sentences]


def term_aligned(units: list[tuple[str, str]], written_src=None, written_tr=None) -> list[tuple[str, str]]:
    """``units`` (from :func:`~workbench.rules.meaning.aligned_sentences`) with each pair
    that holds as many sentences on both sides, but was kept whole (the two texts end
    their statements differently: "; then" / *; ekkor*), cut into sentence pairs where
    every pair names the same terms as often: the terms anchor the pairing that the
    punctuation alone could not, so the roles of a long paragraph are compared sentence
    by sentence."""
    out = []
    for x, y in units:
        a, b = _sentences(x), _sentences(y)
        if len(a) == len(b) > 1:
            ka, kb = _term_bags(a, written_src), _term_bags(b, written_tr)
            if ka == kb and sum(1 for k in ka if k) >= 2:
                out += list(zip(a, b))
                continue
        out.append((x, y))
    return out


def sentence_trade(src: str, tr: str, written_src=None, written_tr=None) -> tuple[str, str, int, int] | None:
    """``(term u, term v, sentence i, sentence j)`` where two texts of as many sentences
    name the same terms sentence by sentence except in two: sentence i of the translation
    names u where its source names v, and sentence j v where its source names u (two
    terms put in each other's sentence), or None. A pronoun or a term said once for two
    sentences changes one sentence's terms, not two in this crossed way."""
    a, b = _sentences(src), _sentences(tr)
    if len(a) != len(b) or len(a) < 2:
        return None
    ka, kb = _term_bags(a, written_src), _term_bags(b, written_tr)
    off = [i for i in range(len(a)) if ka[i] != kb[i]]
    if len(off) != 2:
        return None
    i, j = off
    gain_i, lost_i = kb[i] - ka[i], ka[i] - kb[i]
    gain_j, lost_j = kb[j] - ka[j], ka[j] - kb[j]
    if sum(gain_i.values()) == 1 and sum(lost_i.values()) == 1 and gain_i == lost_j and lost_i == gain_j:
        return next(iter(gain_i)), next(iter(lost_i)), i + 1, j + 1
    return None
