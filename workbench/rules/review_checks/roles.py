"""Who does what to whom, compared clause by clause (:mod:`workbench.rules.roles`):
terms that traded clauses, places in the order of terms, or grammatical roles within a
sentence; people who give and receive; what "each" ranges over and a span of time counted
by in the translation alone; and bounds that count something else."""

from __future__ import annotations

import functools
import re

from ..meaning import aligned_sentences
from ..roles import (bound_changes, clause_swap, frequency_added, order_trade, people_role_changes, role_flips,
                     role_trades, scope_change, sentence_trade, term_aligned, term_sequence, written_terms)
from .base import ClauseCheck, Pair

_BOUND_WORDS = {"min": "at least", "max": "at most", "exact": "exactly"}


class ClauseRolesCheck(ClauseCheck):
    """Each term keeps its clause, place and role in the sentence, and each count its scope and bound (at least, at most, exactly)."""

    name = "roles"
    headings = False

    def run(self, p: Pair):
        out = []
        ws = _written(tuple(tuple(g.source) for g in p.glossary))
        wt = _written(tuple(tuple(g.target) for g in p.glossary))
        units = aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang)     # (read once: the loops below share it)
        # grammatical roles are compared sentence by sentence also in a paragraph kept whole,
        # cut where its terms anchor the sentences (the order of terms keeps the whole: a
        # Hungarian possessor put first reverses a nested phrase, which in one sentence of a
        # few terms looks like a trade)
        role_units = term_aligned(units, ws, wt)
        trade = sentence_trade(p.src, p.tr, ws, wt)
        if trade:
            u, v, i, j = trade
            u, v = _key_name(u, p), _key_name(v, p)
            out.append((f"sentences {u} / {v}",
                        f"sentences {i} and {j}: sentence {i} names {u} where its source names {v}, and sentence "
                        f"{j} the other way round: check who does what to whom"))
        for i, (x, y) in enumerate(units, 1):
            swap = clause_swap(x, y)
            if swap:
                u, v = swap
                out.append((f"clauses {u} / {v}",
                            f"sentence {i}: {u} stands where its source has {v}, and the other way round (each in "
                            "the other's clause): check who does what to whom"))
        # two terms put in each other's place, read from the order of all the terms the
        # sentence names (repeats too), where the clauses alone do not tell (fewer than four
        # terms named once)
        if not out:
            for i, (x, y) in enumerate(units, 1):
                swap = order_trade(term_sequence(x, ws), term_sequence(y, wt))
                if swap:
                    u, v = (_key_name(k, p) for k in swap)
                    out.append((f"places {u} / {v}",
                                f"sentence {i}: {u} stands where the source's order of terms has {v}, and the other "
                                "way round: check who does what to whom"))
        # two terms that traded grammatical roles (case ending, preposition, subject or object)
        src_bases, tr_bases = _bases(p.glossary, "source"), _bases(p.glossary, "target")
        for i, (x, y) in enumerate(role_units, 1):
            for u, v, ru, rv in role_trades(x, p.src_lang, y, p.tr_lang, src_bases, tr_bases):
                out.append((f"roles {u} / {v}",
                            f"sentence {i}: in the source {u} is the {ru} and {v} the {rv}; the translation gives "
                            "each the other's role: check who does what to whom"))
        traded = {k for d, _ in out if d.startswith("roles ") for k in d[6:].split(" / ")}
        for i, (x, y) in enumerate(role_units, 1):
            for k, ra, rb in role_flips(x, p.src_lang, y, p.tr_lang, src_bases, tr_bases):
                if k not in traded:
                    out.append((f"role {k}: {ra} -> {rb}",
                                f"sentence {i}: in the source {k} is the {ra}, in the translation the {rb}: check "
                                "from whom to whom"))
        for i, (x, y) in enumerate(units, 1):
            for change in people_role_changes(x, p.src_lang, y, p.tr_lang):
                out.append((f"people {change}", f"sentence {i}: {change} (who gives, who receives): check who does "
                                                "what to whom"))
        # what "each" ranges over, sentence by sentence (terms lined up through the glossary)
        src_terms = tuple(tuple(g.source) for g in p.glossary)
        tr_terms = tuple(tuple(g.target) for g in p.glossary)
        for i, (x, y) in enumerate(aligned_sentences(p.src_full, p.src_lang, p.tr_full, p.tr_lang), 1):
            change = scope_change(x, p.src_lang, src_terms, y, p.tr_lang, tr_terms)
            added = None if change else frequency_added(x, p.src_lang, src_terms, y, p.tr_lang, tr_terms)
            if added:
                span = added.split(".", 1)[1]
                out.append((f"each {span} added",
                            f"sentence {i}: the translation counts by {span} ('once each {span}', 'per {span}') where "
                            f"the source names no {span}: check how often the rule applies (quantifier scope)"))
            if change:
                a, b = (_head_name(h, p, side) for h, side in zip(change, ("source", "target")))
                detail = f"each {a} -> each {b}" if a and b else f"each {a} lost" if a else f"each {b} added"
                out.append((detail,
                            f"sentence {i}: the source says 'each' of {a or 'nothing'}, the translation of {b or 'nothing'}: check what the "
                            "rule counts once for each (quantifier scope)"))
        for n, a, b in bound_changes(p.src_full, p.src_lang, p.tr_full, p.tr_lang):
            words_a = " / ".join(_BOUND_WORDS[k] for k in a.split("/"))
            words_b = " / ".join(_BOUND_WORDS[k] for k in b.split("/"))
            out.append((f"bound on {n}: {a} -> {b}",
                        f"the source says {words_a} {n}, the translation {words_b} {n}: check what is counted"))
        return out


@functools.lru_cache(maxsize=64)
def _written(forms: tuple):
    return written_terms(forms)


def _bases(glossary, side: str) -> frozenset:
    """The one-word forms of the glossary's terms on one side, lower case, icons dropped:
    a Hungarian term in one of these forms carries no case ending."""
    return _bases_of(tuple(tuple(getattr(g, side)) for g in glossary))


@functools.lru_cache(maxsize=64)
def _bases_of(forms: tuple) -> frozenset:
    out = set()
    for fs in forms:
        for f in fs:
            w = re.sub(r"^\W+", "", f).lower()
            if w and " " not in w:
                out.add(w)
    return frozenset(out)


def _key_name(key: str, p: Pair) -> str:
    """A term key as the reader knows it: a written-out term by its translation's word."""
    if key.startswith("g:"):
        forms = p.glossary[int(key[2:])].target
        return forms[0] if forms else key
    return key


def _head_name(head: str, p: Pair, side: str) -> str:
    if not head:
        return ""
    if head.startswith("term:"):
        forms = getattr(p.glossary[int(head[5:])], side)
        return forms[0] if forms else head
    return head.split(".", 1)[-1]
