"""Negation parity: a rule that says "never" must not come back as "always"."""

from __future__ import annotations

import re
from collections import Counter

from .base import ClauseCheck, Pair
from .lexicon import (BOUNDS, CONCORD_ONLY, CORE_BOUNDS, EXPLETIVE, NEEDS_MARKER, NEGATION, NOT_PRIVATIVE, PHRASES,
                      PRIVATIVE)
from .tokens import base_lang

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|[.;!?|]|,")
_CONCORD_GAP = 3   # markers this close (no sentence break between) are one negation


def bounds(text: str, lang: str, table: dict = BOUNDS) -> tuple[Counter, str]:
    """How many upper and lower bounds (``max``, ``min``) the text sets, and the text
    with them taken out (so "no more than" is a bound, not a negation)."""
    c: Counter = Counter()
    low = text.lower()
    for kind, pattern in table.get(base_lang(lang), []):
        found = re.findall(pattern, low)
        c[kind] += len(found)
        low = re.sub(pattern, " ", low)
    return c, low


def negations(text: str, lang: str) -> int:
    """Negations in ``text``: markers from the lexicon and privative words
    ("uncovered", "fedetlen"), with a run of nearby markers counted once (Hungarian
    negative concord: "senki sem", "soha nem"; English "cannot or will not")."""
    lang = base_lang(lang)
    _, low = bounds(text, lang)
    low = re.sub(r"\$\{[^}]*\}", " x ", low)
    for phrase, word in PHRASES.get(lang, {}).items():
        low = low.replace(phrase, word)
    toks = _TOKEN.findall(low)
    markers = NEGATION.get(lang, set())
    concord = CONCORD_ONLY.get(lang, set())
    needs = NEEDS_MARKER.get(lang, set())
    priv, not_priv = PRIVATIVE.get(lang), NOT_PRIVATIVE.get(lang, set())
    count, last, expletive = 0, None, False
    for i, w in enumerate(toks):
        if w in ".;!?,|":
            expletive = False
            if w != ",":
                last = None       # (a table cell says its own thing, as a sentence does)
            continue
        if w in EXPLETIVE.get(lang, ()):
            expletive = True
            continue
        if expletive and w in ("nem", "ne"):
            expletive = False
            continue
        hit = w in markers and w not in concord
        if w in concord:
            hit = any(x in markers and x not in concord for x in toks[i + 1:i + 1 + _CONCORD_GAP])
        elif w in needs:
            near = toks[max(0, i - _CONCORD_GAP):i] + toks[i + 1:i + 1 + _CONCORD_GAP]
            alone = i + 1 >= len(toks) or toks[i + 1] in ".;!?,"
            hit = alone or any(x in markers and x not in concord and x not in needs for x in near)
        if not hit and priv is not None and w not in not_priv and priv.match(w) \
                and not any(w.startswith(x) for x in not_priv):
            hit = True
        if not hit:
            continue
        if last is None or i - last > _CONCORD_GAP or lang in _NO_CONCORD and not _joined(toks[last + 1:i + 1]):
            count += 1
        last = i
    return count


# English has no negative concord: two markers close together are two negations ("is not
# never destroyed" says it is destroyed), unless a conjunction joins them into one ("cannot
# or will not", "neither ... nor"), as Hungarian *nem tud vagy nem akar* is one; a comma
# between them also parts the double negative ("B never, unless named": a clause of its
# own, counted as the Hungarian *B soha, hacsak meg nem nevezik* counts it)
_NO_CONCORD = {"en"}
_JOINING = {"or", "nor", "and", ","}


def _joined(between: list[str]) -> bool:
    return any(t in _JOINING for t in between)


def _units(text: str, lang: str) -> list[str]:
    """The sentences of the prose, then each table row (a row says a rule as much as a
    sentence does: "no bonus" in one cell; rows come after the prose, so the numbers of
    the prose sentences stay as they were)."""
    from .sentences import split_sentences
    # (a row of short cells, as in a rules table; a row of prose, several sentences to a
    # cell, is read freely by a translator, as the flavour-text tables are)
    rows = [line for line in text.splitlines() if line.lstrip().startswith("|")
            and not re.fullmatch(r"[\s|:-]*", line) and not re.search(r"[.!?;]\s+\S", line)]
    return split_sentences(text, lang) + rows


def sentence_polarity(text: str, lang: str) -> list[bool]:
    """For each sentence (and table row) of ``text``: does it hold a negation?"""
    return [negations(s, lang) > 0 for s in _units(text, lang)]


def sentence_negations(text: str, lang: str) -> list[int]:
    """For each sentence (and table row) of ``text``: how many negations it holds (a flip
    hidden by a second negation in the same sentence changes the count, not the presence)."""
    return [negations(s, lang) for s in _units(text, lang)]


class NegationCheck(ClauseCheck):
    """Negations ("nem", "soha", "no", "never", "uncovered") and bounds ("legfeljebb" = "at most") kept, sentence by sentence."""

    name = "negation"
    headings = False

    def run(self, p: Pair):
        out = []
        a, b = sentence_polarity(p.src_full, p.src_lang), sentence_polarity(p.tr_full, p.tr_lang)
        if len(a) == len(b):
            flips = [i for i, (x, y) in enumerate(zip(a, b), start=1) if x != y]
        elif any(a) != any(b):
            flips = [0]
        else:
            flips = []
        if flips:
            where = "the clause" if flips == [0] else f"sentence {', '.join(map(str, flips))}"
            lost = (not any(b)) if flips == [0] else a[flips[0] - 1]
            out.append((f"{'lost' if lost else 'added'} in {where}",
                        f"{where}: the source {'has' if lost else 'has no'} negation (no, not, never, "
                        f"nem, soha, …) and the translation {'none' if lost else 'one'}; check the rule was not "
                        "inverted"))
        if len(a) == len(b) and not flips:
            out += _count_changes(p)
        out += _prose_cells(p)
        ba, bb = bounds(p.src_full, p.src_lang)[0], bounds(p.tr_full, p.tr_lang)[0]
        for x, y, xs, ys in (("max", "min", "at most", "at least"), ("min", "max", "at least", "at most")):
            if ba[x] and not ba[y] and bb[y] and not bb[x]:
                out.append((f"{xs} -> {ys}", f"the source sets an {xs} bound where the translation says {ys}; "
                                             "\"at most\" is \"legfeljebb\", \"at least\" is \"legalább\""))
            elif (bounds(p.src_full, p.src_lang, CORE_BOUNDS)[0][x] and not ba[y] and not bb[x]
                  and not bb[y]):
                out.append((f"{xs} lost", f"the source sets an {xs} bound and the translation none; "
                                          "\"at most\" is \"legfeljebb\", \"at least\" is \"legalább\""))
        return out


def _prose_rows(text: str) -> list[list[str]]:
    """The cells of each table row that holds prose (several sentences to a cell, as in
    the flavour-text tables), which :func:`_units` leaves out."""
    return [[c for c in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.lstrip().startswith("|") and re.search(r"[.!?;]\s+\S", line)]


def _prose_cells(p: Pair) -> list[tuple[str, str]]:
    """Prose table cells compared cell by cell: a translator reads a flavour-text cell
    freely, so its sentences are not aligned, but a cell that says "nothing holds" has a
    negation in either language ("semmi sem"). A cell whose translation is negated where
    the source is not (or the other way round, or a different number of times) is a
    finding; the bundled cells that differ for a reason are accepted with it."""
    ra, rb = _prose_rows(p.src_full), _prose_rows(p.tr_full)
    if len(ra) != len(rb):
        return []
    out = []
    for r, (ca, cb) in enumerate(zip(ra, rb), start=1):
        if len(ca) != len(cb):
            continue
        for c, (x, y) in enumerate(zip(ca, cb), start=1):
            nx, ny = negations(x, p.src_lang), negations(y, p.tr_lang)
            if bool(nx) != bool(ny):
                out.append((f"{'lost' if nx else 'added'} in table row {r} cell {c}",
                            f"table row {r}, cell {c}: the source {'has' if nx else 'has no'} negation and the "
                            f"translation {'none' if nx else 'one'}; check the text was not inverted"))
            elif nx != ny:
                out.append((f"count in table row {r} cell {c}: {nx} -> {ny}",
                            f"table row {r}, cell {c}: the source negates {nx} time(s), the translation {ny}; "
                            "check that no negation was dropped or added next to another one"))
    return out


def _count_changes(p: Pair) -> list[tuple[str, str]]:
    """Sentences that both negate, but a different number of times: a flip next to
    another negation ("cannot ... and never" become "can ... and never") keeps the
    sentence negative and changes only the count. A translation that spreads one
    negation over a list (Hungarian "sem ..., sem ...") is accepted with a reason,
    and the acceptance records the text, so a later change reopens it."""
    na, nb = sentence_negations(p.src_full, p.src_lang), sentence_negations(p.tr_full, p.tr_lang)
    if len(na) != len(nb):
        return []
    return [(f"count in sentence {i}: {x} -> {y}",
             f"sentence {i}: the source negates {x} time(s), the translation {y}; check that no negation "
             "was dropped or added next to another one")
            for i, (x, y) in enumerate(zip(na, nb), start=1) if x != y and x and y]
