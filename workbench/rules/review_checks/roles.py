"""Who does what to whom, compared clause by clause (:mod:`workbench.rules.roles`):
terms that traded clauses within a sentence, and bounds that count something else."""

from __future__ import annotations

from ..meaning import aligned_sentences
from ..roles import bound_changes, clause_swap, people_role_changes, scope_change
from .base import ClauseCheck, Pair

_BOUND_WORDS = {"min": "at least", "max": "at most", "exact": "exactly"}


class ClauseRolesCheck(ClauseCheck):
    """Each term stays in its clause of the sentence, and each bounded number keeps its bound (at least, at most, exactly)."""

    name = "roles"
    headings = False

    def run(self, p: Pair):
        out = []
        for i, (x, y) in enumerate(aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang), 1):
            swap = clause_swap(x, y)
            if swap:
                u, v = swap
                out.append((f"clauses {u} / {v}",
                            f"sentence {i}: {u} stands where its source has {v}, and the other way round (each in "
                            "the other's clause): check who does what to whom"))
        for i, (x, y) in enumerate(aligned_sentences(p.src, p.src_lang, p.tr, p.tr_lang), 1):
            for change in people_role_changes(x, p.src_lang, y, p.tr_lang):
                out.append((f"people {change}", f"sentence {i}: {change} (who gives, who receives): check who does "
                                                "what to whom"))
        # what "each" ranges over, sentence by sentence (terms lined up through the glossary)
        src_terms = tuple(tuple(g.source) for g in p.glossary)
        tr_terms = tuple(tuple(g.target) for g in p.glossary)
        for i, (x, y) in enumerate(aligned_sentences(p.src_full, p.src_lang, p.tr_full, p.tr_lang), 1):
            change = scope_change(x, p.src_lang, src_terms, y, p.tr_lang, tr_terms)
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


def _head_name(head: str, p: Pair, side: str) -> str:
    if not head:
        return ""
    if head.startswith("term:"):
        forms = getattr(p.glossary[int(head[5:])], side)
        return forms[0] if forms else head
    return head.split(".", 1)[-1]
