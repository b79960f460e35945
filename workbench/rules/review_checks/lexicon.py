"""Word lists the meaning-level checks read: negation, bounds, ordinals,
multipliers, antonym pairs of rules words, and function words that give away a
language left untranslated. Hungarian and English, lower case.

Lists rather than a parser because a rules text is short and formulaic, and
because the lists say exactly what counts (the docs cite them)."""

from __future__ import annotations

import re

# -------------------------------------------------------------------------- negation
# Hungarian uses negative concord ("senki sem", "soha nem"): markers close together
# are one negation, so the checks collapse a run of markers (see negation.py).
NEGATION = {
    "hu": {"nem", "sem", "se", "ne", "soha", "sohasem", "sosem", "semmi", "semmit", "semmibe", "semmin",
           "semmilyen", "semennyi", "senki", "senkinek", "senkit", "senkitől", "sehol", "sehova", "sehonnan",
           "nincs", "nincsen", "nincsenek", "sincs", "sincsenek", "nélkül", "nélküli", "nélküle", "enélkül",
           "anélkül", "hacsak", "egyik", "se", "hanem"},
    "en": {"no", "not", "never", "none", "nobody", "nothing", "nowhere", "neither", "nor", "without",
           "cannot", "can't", "don't", "doesn't", "isn't", "aren't", "won't", "mustn't", "unless", "n't",
           "didn't", "hasn't", "haven't", "rather", "ignore", "ignores", "ignored", "ignoring"},
}
# "egyik ... sem" is the negation; "egyik" alone is "one of": counted only right before a marker
CONCORD_ONLY = {"hu": {"egyik", "hacsak"}, "en": set()}
# Hungarian negative pronouns and adverbs take a "nem"/"sem" (negative concord: "soha
# nem", "senki sem"); one without it counts only where it stands alone ("... soha, hacsak",
# "Senki."): "soha többé fizet" has lost its negation, though "soha" is still there
NEEDS_MARKER = {"hu": {"soha", "semmi", "semmit", "semmibe", "semmin", "semmilyen", "semennyi", "senki",
                       "senkinek", "senkit", "senkitől", "sehol", "sehova", "sehonnan"}, "en": set()}

# privative words that negate a rules state: "uncovered" is "fedetlen". Listed rather
# than matched by affix, because "közvetlenül" (directly), "függetlenül" (regardless)
# and "unified" are not negations.
PRIVATIVE = {
    "hu": re.compile(r"^\w{3,}(?:atlan|etlen|tlan|tlen|talan|telen)(?:[aeoöuü]?[lnkt]?|ul|ül|ok|ek|ság|ség)$|"
                     r"^\w*nélküli\w*$"),
    # un-...-ed participles ("unstarted", "uncovered") and a few more; reversals such as
    # "unlocked" are not negations (NOT_PRIVATIVE)
    "en": re.compile(r"^(?:un\w{3,}ed|unbuilt|unseen|undrawn|incomplete|illegal|invalid|unable|worthless|"
                     r"useless|impossible|unlimited)$"),
}
NOT_PRIVATIVE: dict[str, set[str]] = {"hu": {"egyetlen", "közvetlen", "közvetlenül", "független", "függetlenül",
                                             "szüntelen", "szüntelenül", "védtelen", "haladéktalan",
                                             "haladéktalanul"}, "en": {"unlocked", "unloaded", "untapped", "unified", "unpacked",
                                                          "undone", "unfolded", "unleashed"}}
# phrases that stand for one marker ("in place of" is "instead of", "helyett")
# ("without delay" is "immediately": no negation)
PHRASES: dict[str, dict[str, str]] = {"en": {"without delay": "immediately"},
                                      "hu": {"figyelmen kívül": "nem"}}   # "ignore"
# Hungarian "amíg ... nem" ("until it runs out": amíg ki nem fogy) is no negation
EXPLETIVE = {"hu": {"amíg", "míg"}, "en": set()}

# upper and lower bounds: a "legfeljebb" that became "legalább" inverts a rule
BOUNDS = {
    "hu": [("max", r"\blegfeljebb\b|\bmaximum\b|\bmaximálisan\b|\bnem több, mint\b|\bnem többet\b|"
                   r"\bvagy kevesebb(?:et)?\b"),
           ("min", r"\blegalább\b|\bminimum\b|\bnem kevesebb\b|\bvagy több(?:et)?\b")],
    "en": [("max", r"\bat most\b|\bor fewer\b|\bor less\b|\bno more than\b|\bmaximum\b"),
           ("min", r"\bat least\b|\bor more\b|\bno fewer than\b|\bno less than\b|\bminimum\b")],
}

# the plain bound words; only these count when a translation drops a bound
# ("minimum number of contributors" and "2 or more players share" describe, not bound)
CORE_BOUNDS = {"hu": [("max", r"\blegfeljebb\b"), ("min", r"\blegalább\b")],
               "en": [("max", r"\bat most\b|\bno more than\b"), ("min", r"\bat least\b|\bno fewer than\b")]}

# -------------------------------------------------------------------------- ordinals, multipliers
ORDINALS = {
    "en": {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12},
    "hu": {"második": 2, "harmadik": 3, "negyedik": 4, "ötödik": 5, "hatodik": 6, "hetedik": 7,
           "nyolcadik": 8, "kilencedik": 9, "tizedik": 10, "tizenegyedik": 11, "tizenkettedik": 12},
}
# "first"/"első" and "once"/"egyszer" behave like "one"/"egy": a weak 1 (see numbers.py)
WEAK_ONE = {"en": {"one", "once", "single", "a", "an", "first", "1st"},
            "hu": {"egy", "egyet", "egyre", "eggyel", "egynél", "egyen", "egyes", "egyszer", "első", "elsőt",
                   "először", "elsőként", "kezdő", "egyetlen"}}
# ordinal 1: a number token for ordinal pairing, a weak 1 for number parity
FIRST = {"en": {"first", "1st"}, "hu": {"első", "elsőt", "elsőként", "elsőnek"}}
_HU_SUFFIX = r"(?:a|e|at|et|ként|nak|nek|ig|re|ra|ban|ben|ja|je|ját|jét|on|en|tól|től|ból|ből|hoz|hez)?"
ORDINAL_RE = {
    "en": re.compile(r"^(?:" + "|".join(ORDINALS["en"]) + r")$|^(\d+)(?:st|nd|rd|th)$"),
    "hu": re.compile(r"^(" + "|".join(sorted(ORDINALS["hu"], key=len, reverse=True)) + ")" + _HU_SUFFIX + "$"),
}
MULTIPLIERS = {
    "en": {"double": 2, "doubles": 2, "doubled": 2, "triple": 3, "tripled": 3, "triples": 3},
    "hu": {"dupla": 2, "duplája": 2, "duplájára": 2, "duplán": 2, "duplájával": 2, "kétszerese": 2,
           "kétszeresét": 2, "háromszorosa": 3, "háromszorosát": 3, "tripla": 3},
}

# -------------------------------------------------------------------------- antonym rules words
# (english, hungarian) pairs of opposites; the stems are prefixes of inflected forms.
# A source that says one side while the translation says only the other is flagged.
ANTONYMS: list[tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[tuple[str, ...], tuple[str, ...]]]] = [
    ((("top", "topmost", "highest"), ("tetej", "legfels", "felső")),
     (("bottom", "lowest", "bottommost"), ("alj", "legals", "alsó"))),
    ((("highest",), ("legmagasabb",)), (("lowest",), ("legalacsonyabb",))),
    ((("most",), ("legtöbb",)), (("least", "fewest"), ("legkevesebb",))),
    ((("before",), ("előtt", "előbb")), (("after",), ("után", "utána"))),
    ((("gain", "gains", "gained"), ("kap", "nyer", "szerez")), (("lose", "loses", "lost"), ("veszít", "elveszít", "elvesz"))),
    ((("above",), ("fölé", "fölött", "felett")), (("below",), ("alá", "alatt"))),
    ((("clockwise",), ("óramutató járásával megegyező",)), (("counterclockwise", "anticlockwise"),
                                                            ("óramutató járásával ellentétes",))),
    ((("face up",), ("képpel felfelé",)), (("face down",), ("képpel lefelé",))),
    ((("raise", "raises", "increase"), ("növel", "emel")), (("lowers", "decrease", "reduce"), ("csökkent",))),
    ((("draw", "draws"), ("húz",)), (("discard", "discards"), ("eldob", "dobj")),),
    ((("always",), ("mindig",)), (("never",), ("soha", "sosem"))),
    ((("first",), ("első",)), (("last",), ("utolsó",))),
    ((("money",), ("pénz",)), (("labour", "labor"), ("munka", "munkát", "munkába"))),
]

# -------------------------------------------------------------------------- left untranslated
# Function words of one language that are not words of the other: two of them in a
# translation give away text left in the source language.
FUNCTION_WORDS = {
    "en": {"the", "and", "of", "to", "you", "your", "with", "for", "from", "this", "that", "these", "those",
           "when", "then", "each", "every", "their", "they", "them", "which", "who", "what", "where", "while",
           "into", "onto", "than", "but", "or", "not", "are", "was", "were", "has", "have", "its", "may",
           "must", "can", "will", "shall", "would", "should", "could", "any", "on", "in", "at", "by", "it",
           "an", "if", "up", "down", "out", "does", "do", "one", "two", "three", "four", "player", "players",
           "card", "cards", "turn", "round", "take", "takes", "put", "get", "gets", "gain", "gains", "as",
           "again", "above", "below", "after", "before", "there", "here", "all", "only", "also", "both",
           "other", "more", "less"},
    "hu": {"és", "az", "hogy", "vagy", "nem", "van", "egy", "minden", "kell", "amely", "amelyet", "ami",
           "aki", "ha", "majd", "csak", "már", "pedig", "után", "között", "ezt", "azt", "ezek", "azok", "mint",
           "meg", "el", "fel", "lesz", "nincs", "játékos", "kártya", "lap", "lapot", "kör", "körben", "minden",
           "amelyek", "akkor", "ekkor", "még", "saját"},
}
