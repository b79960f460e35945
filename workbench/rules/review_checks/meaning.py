"""Meaning-level comparison of a clause with its translation, from the structure
:mod:`workbench.rules.meaning` extracts in each language: who acts, when, under what
condition and with what exceptions, how many, and the roles of the terms.

A concept of one dimension that the translation says instead of another (a turn
become a round, "if" become "unless", the active player become the others) is a
finding in every case. A concept lost or added on its own is a finding only for the
concepts both languages say explicitly (:data:`LONE`); the others (Hungarian drops
"you" into the verb, says "each" with a suffix or not at all) count only in swaps.
Where both texts have as many sentences, the comparisons are also made sentence by
sentence (:func:`workbench.rules.meaning.aligned_sentences`). Two checks read terms and
numbers: an icon must stand on its own term's word (:class:`IconTermCheck`), and a number
must count the same plain noun (:class:`NumberNounsCheck`)."""

from __future__ import annotations

import re
from collections import Counter

from ..meaning import (aligned_sentences, base_lang, clause_concepts, concepts, every_count, lexicon, number_nouns,
                       strict_ones, term_roles, tokens)
from .base import ClauseCheck, Pair

# concepts whose loss or addition alone changes a rule, and which the bundled
# translations (243 clauses, both directions) render explicitly on both sides:
# measured with analyses/review_planted.py and the bundled catalogues' 0 findings
LONE = {"actor.active", "actor.rival", "when.now", "exception", "quant.most", "quant.least", "cond.unless"}
# concepts whose addition alone changes a rule: a round or a game's named stretch of rounds is a span the source
# names when the rule lasts for it, so a translation that names one where its source
# names none moved the rule in time (a turn or the game is also said in passing, "turn
# aside", "the base game", and is judged only in swaps); the bundled translations from
# English never add either
ADDED_ALONE = {"time.round", "time.span"}
# concepts that stand for one another in a changed rule: a translation that says one
# of a pair where its source says the other (and no longer says that) is a finding
OPPOSITES = {frozenset(p) for p in (
    ("actor.active", "actor.others"), ("actor.active", "actor.each"), ("actor.you", "actor.rival"),
    ("actor.each", "actor.others"), ("actor.group", "actor.you"), ("actor.each", "actor.group"),
    ("actor.group", "actor.alone"), ("actor.each", "actor.someone"),
    ("actor.own", "actor.others"), ("actor.own", "actor.rival"),
    ("time.turn", "time.round"), ("time.span", "time.game"), ("time.round", "time.span"),
    ("time.turn", "time.repeat"), ("when.start", "when.end"), ("when.next", "when.previous"),
    ("cond.if", "cond.unless"), ("cond.only", "cond.if"),
    ("quant.every", "quant.one"), ("quant.most", "quant.least"), ("quant.every", "quant.some"),
    ("quant.any", "quant.every"), ("quant.one", "quant.any"))}


def _name(concept: str) -> str:
    return concept.split(".", 1)[-1]


def compare_dimension(a: Counter, b: Counter, names: list[str]) -> list[tuple[str, str]]:
    """``(detail, message)`` items for one dimension's concepts ``names``."""
    lost = [c for c in names if a[c] > b[c]]
    added = [c for c in names if b[c] > a[c]]
    out = []
    # a swap: one of the pair fewer, the other more, and one of them gone or new
    swaps = [(x, y) for x in lost for y in added if frozenset((x, y)) in OPPOSITES and (not b[x] or not a[y])]
    for x, y in swaps:
        out.append((f"{_name(x)} -> {_name(y)}",
                    f"the source says {_name(x)!r} where the translation says {_name(y)!r}"))
    if swaps:
        return out
    for c in lost:
        if c in LONE and not b[c]:
            out.append((f"{_name(c)} lost", f"the source says {_name(c)!r} and the translation does not"))
    for c in added:
        if (c in LONE or c in ADDED_ALONE) and not a[c]:
            out.append((f"{_name(c)} added", f"the translation says {_name(c)!r} and the source does not"))
    return out


class _DimensionCheck(ClauseCheck):
    dimensions: tuple[str, ...] = ()
    per_sentence: tuple[str, ...] = ()    # dimensions compared per aligned sentence as well
    headings = False

    def run(self, p: Pair):
        ls, lt = lexicon(p.src_lang), lexicon(p.tr_lang)
        if ls is None or lt is None:
            return []
        a, b = clause_concepts(p.src, p.src_lang), clause_concepts(p.tr, p.tr_lang)
        out = []
        seen = set()
        for dim in self.dimensions:
            names = [n for n in ls.dimensions.get(dim, []) if n in lt.dimensions.get(dim, [])]
            for detail, message in compare_dimension(a, b, names):
                seen.add(detail)
                out.append((detail, f"{message} ({dim}); check who, when and under what condition the rule "
                                    "applies"))
        if not self.per_sentence:
            return out
        # the same comparison sentence by sentence: a "game" become "Season" in one sentence is
        # hidden at the clause level when another sentence of the translation says "game"
        # once more than its source (Hungarian "alapjáték" is no "játék")
        units = aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang)
        if len(units) > 1:
            for i, (x, y) in enumerate(units, 1):
                ca, cb = concepts(x, p.src_lang), concepts(y, p.tr_lang)
                for dim in self.per_sentence:
                    names = [n for n in ls.dimensions.get(dim, []) if n in lt.dimensions.get(dim, [])]
                    for detail, message in compare_dimension(ca, cb, names):
                        if detail not in seen:
                            seen.add(detail)
                            out.append((detail, f"{message} in sentence {i} ({dim})"))
        return out


class ActorCheck(_DimensionCheck):
    """The same actor: the active player, each player, the others, a rival, the group."""

    name = "actor"
    dimensions = ("actor",)
    per_sentence = ("actor",)


class TimeCheck(_DimensionCheck):
    """The same time: turn, round, a named stretch, game; start or end; immediately, next, previous."""

    name = "time"
    dimensions = ("time", "when")
    per_sentence = ("time", "when")


class ConditionCheck(_DimensionCheck):
    """The same condition (if, unless, only if) and the same exceptions (except, other than)."""

    name = "condition"
    dimensions = ("condition", "exception")
    per_sentence = ("condition", "exception")


class QuantifierCheck(_DimensionCheck):
    """The same quantifiers: every, any, some, one, only, at most, at least, again."""

    name = "quantifier"
    dimensions = ("quantifier",)

    def run(self, p: Pair):
        out = super().run(p)
        ls, lt = lexicon(p.src_lang), lexicon(p.tr_lang)
        if ls is None or lt is None or base_lang(p.src_lang) == base_lang(p.tr_lang):
            return out
        details = {d for d, _ in out}
        a, b = clause_concepts(p.src, p.src_lang), clause_concepts(p.tr, p.tr_lang)
        ts, tt = tokens(p.src), tokens(p.tr)
        # "every" become "one": fewer "every" words, and more words that say "one" (or may,
        # as English "a" renders Hungarian *egy*) than the source has
        ones_src = sum(t in ls.single_strict or t in ls.single_loose for t in ts)
        ones_tr = sum(t in lt.single_strict or t in lt.single_loose for t in tt)
        every_src = every_count(p.src, p.src_lang)     # "each player" is an actor and an "every"
        every_tr = every_count(p.tr, p.tr_lang)
        every_one = every_src > every_tr and ones_tr > ones_src
        # per sentence, with the words that say "one" and nothing else (English "a" left
        # out: a sentence that lost an "each" and gained a "one" changed who the rule is for)
        units = aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang)
        for s_src, s_tr in units:
            if every_src > every_tr and every_count(s_src, p.src_lang) > every_count(s_tr, p.tr_lang) \
                    and strict_ones(s_tr, p.tr_lang) > strict_ones(s_src, p.src_lang):
                every_one = True
        if every_one and "every -> one" not in details:
            out.append(("every -> one", "the source says 'every' (each, all) where the translation says 'one': "
                                        "check that the rule still applies to each of them (quantifier)"))
        # the same swaps judged per sentence: "any" become "every" in one sentence is hidden
        # at the clause level by an "every" the source says in another
        # ("each" counted in all its forms: "minden 🧑Játékos" is the actor "each player" and
        # an "every" that "some 🧑Players" replaced)
        names = [n for n in ls.dimensions.get("quantifier", []) if n in lt.dimensions.get("quantifier", [])]
        for i, (s_src, s_tr) in enumerate(units, 1):
            ca, cb = concepts(s_src, p.src_lang), concepts(s_tr, p.tr_lang)
            ca["quant.every"], cb["quant.every"] = every_count(s_src, p.src_lang), every_count(s_tr, p.tr_lang)
            for detail, message in compare_dimension(ca, cb, names):
                if detail not in details and " -> " in detail:
                    details.add(detail)
                    out.append((detail, f"{message} in sentence {i} (quantifier)"))
        # "only" dropped: English writes it out, and Hungarian renders it in a few words
        # (the other way round Hungarian *csak* is also "just", "but": no inference)
        if base_lang(p.src_lang) == "en" and ls.only and lt.only:
            only_src = sum(t in ls.only for t in ts)
            only_tr = sum(t in lt.only for t in tt)
            if only_src > only_tr or any(_only(x, ls, False) > _only(y, lt, True) for x, y in units):
                out.append((f"only lost ({only_src} -> {only_tr})",
                            f"the source says 'only' {only_src} time(s), the translation {only_tr}: a restriction "
                            "may be lost (quantifier)"))
        # "only" dropped where the source is not English: a sentence whose source says
        # "only" (Hungarian *csak*) and whose translation has no word that may say it
        # ("only", "just", "alone", "solely" ...: the lexicon's only_loose)
        elif ls.only and lt.only:
            for i, (x, y) in enumerate(units, 1):
                if _only(x, ls, False) and not _only(y, lt, True):
                    out.append((f"only lost in sentence {i}",
                                f"the source says 'only' in sentence {i} and the translation does not: a "
                                "restriction may be lost (quantifier)"))
        # "only" added: a sentence whose translation restricts with "only" (*csak*) where its
        # source has no word that may say it
        if ls.only and lt.only:
            for i, (x, y) in enumerate(units, 1):
                if _only(y, lt, False) > _only(x, ls, True):
                    out.append((f"only added in sentence {i}",
                                f"the translation says 'only' in sentence {i} and the source does not: a "
                                "restriction may be added (quantifier)"))
        # "only" lost or added in a prose table cell (flavour text, one unit for the
        # sentence alignment): judged cell by cell, with the words that may say it
        if ls.only and lt.only:
            from .negation import _prose_rows
            ra, rb = _prose_rows(p.src), _prose_rows(p.tr)
            cells = [(r, c, x, y) for r, (xa, xb) in enumerate(zip(ra, rb), 1) if len(ra) == len(rb)
                     and len(xa) == len(xb) for c, (x, y) in enumerate(zip(xa, xb), 1)]
            for r, c, x, y in cells:
                if _only(x, ls, False) and not _only(y, lt, True):
                    out.append((f"only lost in table row {r} cell {c}",
                                f"table row {r}, cell {c}: the source says 'only' and the translation does not: a "
                                "restriction may be lost (quantifier)"))
                elif _only(y, lt, False) and not _only(x, ls, True):
                    out.append((f"only added in table row {r} cell {c}",
                                f"table row {r}, cell {c}: the translation says 'only' and the source does not: a "
                                "restriction may be added (quantifier)"))
        # "only" put before a count: the translation restricts a number ("csak 2", "only
        # 3") that the source says with no word that may restrict it (the sentence-level
        # comparison above misses it where the source sentence says "one" or "just" elsewhere)
        if ls.only and lt.only:
            restricted = _restricted_numbers(p.tr, lt, False) - _restricted_numbers(p.src, ls, True)
            for n in sorted(restricted):
                if n in _numbers_in(p.src) and not any(d.startswith("only added") for d, _ in out):
                    out.append((f"only added before {n}",
                                f"the translation says 'only' before {n} and the source does not: a restriction "
                                "may be added (quantifier)"))
        # "both" become "one of": English "both X and Y" is a conjunction (Hungarian "X és Y
        # is"), so only a "both" that no "and" follows closely counts on the English side
        both_src, both_tr = _both(p.src, p.src_lang, a, strict=True), _both(p.tr, p.tr_lang, b, strict=False)
        if both_src > both_tr:
            out.append(("both lost", "the source says 'both' and the translation does not: check that the rule "
                                     "still applies to both (quantifier)"))
        return out


def _only(text: str, lex, loose: bool) -> int:
    words = lex.only | lex.only_loose if loose else lex.only
    low = " ".join(tokens(text))
    for phrase in lex.only_not:       # "not only ... but", *csak utána* ("not until"): no restriction
        low = re.sub(r"(?<!\S)" + re.escape(phrase) + r"(?!\S)", " ", low)
    return sum(t in words for t in low.split())


def _number_value(tok: str) -> str | None:
    from ..numbers import EN_WORDS, HU_WORDS
    if tok.isdigit():
        return tok
    v = EN_WORDS.get(tok, HU_WORDS.get(tok))
    return str(v) if v is not None and v > 1 else None   # "one" / "egy" is also an article


def _numbers_in(text: str) -> set[str]:
    return {v for v in map(_number_value, re.findall(r"\w+", text.lower())) if v}


def _restricted_numbers(text: str, lex, loose: bool) -> set[str]:
    """The numbers that an "only" word (with ``loose``, any word that may say it) stands
    right before, or with one word between ("csak a 2", "only the 3"), in the same
    sentence or table cell."""
    words = lex.only | lex.only_loose if loose else lex.only
    toks = re.findall(r"\w+|[^\w\s]", text.lower())
    out = set()
    for i, t in enumerate(toks):
        v = _number_value(t)
        if v and i and (toks[i - 1] in words or (i > 1 and toks[i - 2] in words and toks[i - 1].isalpha())):
            out.add(v)
    return out


def _both(text: str, lang: str, found: Counter, strict: bool) -> int:
    """How many "both" (quantifier) the text says; with ``strict``, English "both ...
    and" (a conjunction) is left out."""
    if base_lang(lang) != "en":
        return found["quant.both"]
    toks = tokens(text)
    n = 0
    for i, t in enumerate(toks):
        if t == "both" and not (strict and "and" in toks[i + 1:i + 6]):
            n += 1
    return n


# the roles an icon-marked term is judged on when it trades them with another term:
# English prepositions and Hungarian case endings agree on these in the bundled texts
# (compared-with "than X" / X-nál, with "with X" / X-val; from and to are not: "grain for
# 🏰Castles" is 🏰Várakhoz, a goal, and "🪙Coin (saving)" 🪙Érmé ... -ból)
ICON_ROLES = {"compared", "with"}


class TermRolesCheck(ClauseCheck):
    """Each term (placeholder or icon-marked word) keeps its role (compared-with, from, to) and the source's order of terms."""

    name = "term-roles"
    headings = False

    def run(self, p: Pair):
        ra, rb = term_roles(p.src, p.src_lang), term_roles(p.tr, p.tr_lang)
        out = []
        roles_a: dict[str, set] = {}
        roles_b: dict[str, set] = {}
        for k, r in ra:
            roles_a.setdefault(k, set()).add(r)
        for k, r in rb:
            roles_b.setdefault(k, set()).add(r)
        strong = {"compared", "origin", "goal", "instead", "with"}
        for k in roles_a:
            if k not in roles_b:
                continue
            for r in (roles_a[k] & (strong if not k.startswith("icon:") else ICON_ROLES)) - roles_b[k]:
                # the role went to another term
                for k2, rs in roles_b.items():
                    if k2 != k and r in rs and r not in roles_a.get(k2, set()):
                        out.append((f"{r}: {k} -> {k2}", f"in the source ${{{k}}} is the {r} term; in the "
                                                         f"translation ${{{k2}}} is: the terms traded roles"))
        # a term that keeps its place and changes direction: "from X" become "to X" (*X-ból*
        # become *X-ba*), where the source gives the term one of the two and the translation
        # only the other
        for k in roles_a:
            ra_k, rb_k = roles_a[k] & {"origin", "goal"}, roles_b.get(k, set()) & {"origin", "goal"}
            if len(ra_k) == 1 and len(rb_k) == 1 and ra_k != rb_k:
                r1, r2 = next(iter(ra_k)), next(iter(rb_k))
                out.append((f"{r1} -> {r2}: {k}", f"in the source ${{{k}}} is the {r1} (from/to) and in the "
                                                   f"translation the {r2}: check the direction"))
        # each sentence names the terms its source sentence names: a term that the
        # translation puts in a sentence whose source sentence lacks it traded places with
        # another or was swapped in (the bundled translations, 750 aligned sentences, never do)
        units = aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang)
        if len(units) > 1:
            for i, (x, y) in enumerate(units, 1):
                ka = {k for k, _ in term_roles(x, p.src_lang)}
                moved = sorted({k for k, _ in term_roles(y, p.tr_lang)} - ka)
                if moved:
                    out.append((f"sentence {i} names {', '.join(moved)}",
                                f"sentence {i} of the translation names {', '.join(moved)}, which its source "
                                "sentence does not: check that the terms did not trade places"))
        # two terms that trade places across others: the translation names the source's
        # terms (each once) in the source's order but for two of them, and those two stand
        # apart (a neighbouring pair is reordered by grammar, "the ⚙️Gear of the
        # 🛠️Index" / "a 🛠️Tábla ⚙️Fogaskereke": 24 of the bundled sentences; apart, none)
        for i, (x, y) in enumerate(units, 1):
            ka, kb = [k for k, _ in term_roles(x, p.src_lang)], [k for k, _ in term_roles(y, p.tr_lang)]
            for kind in ("terms.", "icon:"):
                ca = [k for k in ka if k.startswith(kind) and ka.count(k) == 1 and kb.count(k) == 1]
                cb = [k for k in kb if k in ca]
                diff = [j for j, (u, v) in enumerate(zip(ca, cb)) if u != v]
                if len(diff) == 2 and diff[1] - diff[0] >= 2 and ca[diff[0]] == cb[diff[1]] \
                        and ca[diff[1]] == cb[diff[0]]:
                    u, v = ca[diff[0]], ca[diff[1]]
                    out.append((f"swapped {u} / {v}", f"the translation names {u} where its source names {v}, "
                                                       "and the other way round: check that they did not trade "
                                                       "places"))
        # order: two terms that the source names in one order and the translation in the other,
        # where both texts name each once (a list or a tie-break keeps its order across languages)
        # a possessor ("the headlines of the timeline") comes first in Hungarian: not a swap
        of_a = {k for k, r in ra if r == "of"} | {k for k, r in rb if r == "of"}
        # (icon-marked terms: Hungarian reorders written-out terms freely, so their order
        # says nothing; only their compared-with role counts, see above)
        seq_a = [k for k, _ in ra if k.startswith("terms.")]
        seq_b = [k for k, _ in rb if k.startswith("terms.")]
        once_a = [k for k in seq_a if seq_a.count(k) == 1]
        once_b = [k for k in seq_b if seq_b.count(k) == 1]
        common = [k for k in once_a if k in once_b]
        if len(common) >= 2 and not out:
            order_b = [k for k in once_b if k in common]
            inversions = [(x, y) for i, x in enumerate(common) for y in common[i + 1:]
                          if order_b.index(x) > order_b.index(y) and x not in of_a and y not in of_a]
            if len(inversions) == 1 and base_lang(p.src_lang) != base_lang(p.tr_lang):
                x, y = inversions[0]
                out.append((f"order {x} / {y}", f"the source names ${{{x}}} before ${{{y}}}, the translation "
                                               "after: check that they did not trade places"))
        return out


class IconTermCheck(ClauseCheck):
    """A term's icon marks that term: "👤Coin" (the player's icon on the word of
    another term) is a term swapped in behind the icon. The glossary's forms with an
    icon say which words each icon marks; a word is judged only when it is another
    icon's term (a compound, *👤Játékos-hozzájárulásjelölők*, starts with its own)."""

    name = "icon-term"
    headings = False

    def run(self, p: Pair):
        table = _icon_words(tuple(p.glossary))
        if not table:
            return []
        from ..meaning import _ICON_TERM
        from ..text import icon_key, icons
        out = []
        for m in _ICON_TERM.finditer(p.tr):
            marks = icons(m.group(1))
            if not marks:
                continue
            key, word = icon_key(marks[-1]), m.group(2)
            own = table.get(key)
            if not own or any(_same_term(word, f) for f in own):
                continue
            others = sorted(k for k, forms in table.items() if k != key and any(_same_term(word, f) for f in forms))
            if others:
                out.append((f"{marks[-1]}{word}", f"{marks[-1]} marks {own[0]!r}, but the word after it is the term "
                                                   f"of {others[0]}: check that the right term stands here"))
        return out


def _icon_words(glossary: tuple) -> dict[str, list[str]]:
    """icon -> the words (first word of each form) the glossary's target forms put after it."""
    from ..text import icon_key, icons
    out: dict[str, list[str]] = {}
    for pair in glossary:
        for form in getattr(pair, "target", ()):
            m = re.match(r"((?:[^\w\s]\ufe0f?)+)([^\W\d_]+)", form)
            if not m:
                continue
            marks = icons(m.group(1))
            if marks:
                out.setdefault(icon_key(marks[-1]), []).append(m.group(2))
    return out


def _same_term(word: str, form: str) -> bool:
    """Is ``word`` (inflected, maybe compounded) the term ``form``? Its stem: the form
    less two letters (Hungarian *Lista* / *Listát*, *Listá-*), at least three."""
    w, f = word.lower(), form.lower()
    return w.startswith(f[:max(3, len(f) - 2)])


class NumberNounsCheck(ClauseCheck):
    """A number counts the same thing: "2 points" is not "2 cards", *24 lap* is not *24
    pont* (plain nouns, from the lexicons' ``units``; icons and term placeholders are the
    number-units check's)."""

    name = "number-nouns"
    headings = False

    def run(self, p: Pair):
        if base_lang(p.src_lang) == base_lang(p.tr_lang):
            return []
        a, b = number_nouns(p.src, p.src_lang), number_nouns(p.tr, p.tr_lang)
        lost, gained = a - b, b - a
        out = []
        for (v, u) in sorted(gained):
            # the translation counts v of u where the source counts v of another unit (and not of u)
            others = sorted(u2 for (v2, u2) in lost if v2 == v and u2 != u)
            if others and not a[(v, u)]:
                out.append((f"{v} {others[0]} -> {v} {u}",
                            f"the source counts {v} {others[0]} where the translation counts {v} {u}: check what "
                            "the number counts"))
        return out
