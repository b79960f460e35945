"""Translation review: what a translator should look at, clause by clause.

Checks, each named in its findings (``check``):

- ``missing``: no translation for a clause or heading;
- ``fuzzy``: the source changed since the translation was made;
- ``placeholders``: the same ``${...}`` keys on both sides, each defined in both
  languages (and no broken ``${`` left over);
- ``numbers``: the same numbers, whether written as digits or words (see
  :mod:`workbench.rules.numbers`);
- ``glossary``: each game term the source uses appears in its agreed translation
  (stem match, see :mod:`workbench.rules.glossary`); a capitalised term counts in
  the source only where it is capitalised, so ordinary words are not taken for terms;
- ``icons``: the same icons and emoji, as often;
- ``punctuation``: the same kind of ending (``.``, ``:``, ``?``, ``!``, none);
- ``length``: translation length within a band of the source's;
- ``spelling``: words the hunspell dictionary of the language does not know
  (only when spylls finds ``/usr/share/hunspell/<lang>_*.dic``; skipped otherwise).

Numbers, icons, glossary and length look at the texts with placeholders filled in
each language, so a term written out instead of its placeholder still counts.
The meaning-level checks (numbers with their units and order, tables cell by cell,
negation, sentences, text left untranslated, Markdown structure, typing slips,
Hungarian articles, terms put in the wrong place, opposites, duplicate and orphan
entries, misspelt terms) are one class each in :mod:`workbench.rules.review_checks`;
each class's doc line is the explanation shown with its findings.

Findings listed in ``cards/<game>/rules/accepted-findings.yaml`` with a reason
are reported as accepted; an acceptance that no longer matches anything is
reported as stale so the file does not rot.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping

from workbench.core.data import read_text_file
from workbench.core.errors import DataError, WorkbenchError

from . import catalog as cat_mod
from .glossary import find_term, game_glossary, icon_counts
from .review_checks import CATALOGUE_CHECKS, CLAUSE_CHECKS, Pair
from .review_checks.catalogue import TermsSpellingCheck
from .review_checks.dictionary import dictionary_path, lookup, save_cache, spelling_locale
from .placeholders import (PLACEHOLDER_RE, Unresolved, context_for, find_placeholders, is_defined,
                           resolve_one, stray_placeholders)
from .text import strip_icons, words

LENGTH_BAND = (0.5, 2.0)
LENGTH_MIN_CHARS = 40
BASIC_CHECKS = {
    "missing": "The clause or heading has a translation.",
    "fuzzy": "The translation was made for the current source (not flagged fuzzy, not outdated).",
    "placeholders": "The same ${...} placeholders on both sides, each defined in both languages.",
    "glossary": "Each game term the source uses appears in its agreed translation.",
    "icons": "The same icons and emoji, as often.",
    "punctuation": "The same kind of ending (., :, ?, !, none).",
    "length": "The translation's length is within a band of the source's.",
    "spelling": "Every word is known to the hunspell dictionary of the catalogue's spelling locale.",
}
EXPLANATIONS: dict[str, str] = {**BASIC_CHECKS, **{c.name: c.explanation() for c in CLAUSE_CHECKS},
                                **{c.name: c.explanation() for c in CATALOGUE_CHECKS}}
CHECKS = tuple(EXPLANATIONS)


@dataclass
class Finding:
    clause: str
    check: str
    message: str          # what is wrong and what to do about it
    detail: str = ""      # short and stable: what acceptances match on
    lang: str = ""
    accepted: str | None = None  # the reason, when accepted
    text: str = ""        # the translation the finding was raised on (an acceptance is bound to it)

    @property
    def explanation(self) -> str:
        """What the check is for (its class's doc line)."""
        return EXPLANATIONS.get(self.check, "")

    def to_dict(self) -> dict:
        d = {"clause": self.clause, "lang": self.lang, "check": self.check, "detail": self.detail,
             "message": self.message, "explanation": self.explanation}
        if self.accepted is not None:
            d["accepted"] = self.accepted
        return d


@dataclass
class Review:
    game: str
    lang: str
    source_lang: str
    entries: int = 0
    translated: int = 0
    fuzzy: int = 0
    missing: int = 0
    findings: list[Finding] = field(default_factory=list)
    accepted: list[Finding] = field(default_factory=list)
    stale: list[dict] = field(default_factory=list)
    spelling: str = "not run"

    @property
    def ok(self) -> bool:
        return not self.findings

    def by_clause(self) -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = {}
        for f in self.findings:
            out.setdefault(f.clause, []).append(f)
        return out

    def to_dict(self) -> dict:
        return {"game": self.game, "lang": self.lang, "source_lang": self.source_lang,
                "entries": self.entries, "translated": self.translated, "fuzzy": self.fuzzy,
                "missing": self.missing, "spelling": self.spelling, "ok": self.ok,
                "findings": [f.to_dict() for f in self.findings],
                "accepted": [f.to_dict() for f in self.accepted],
                "stale_acceptances": self.stale}


# --------------------------------------------------------------------------- single checks
def _fill(text: str, ctx: Mapping) -> str:
    """Placeholders filled where possible, dropped where not (for the text checks)."""
    def sub(m):
        ph = find_placeholders(m.group(0))[0]
        try:
            return resolve_one(ph, ctx)
        except Unresolved:
            return " "
    return PLACEHOLDER_RE.sub(sub, text)


def check_placeholders(src: str, tr: str, src_ctx: Mapping, tr_ctx: Mapping, src_lang: str, tr_lang: str):
    out = []
    a = Counter(p.key for p in find_placeholders(src))
    b = Counter(p.key for p in find_placeholders(tr))
    for key in sorted((a - b)):
        out.append((f"lost ${{{key}}}", f"the translation lacks ${{{key}}}; put it back where the source has it"))
    for key in sorted((b - a)):
        out.append((f"added ${{{key}}}", f"the translation has ${{{key}}}, which the source does not; remove it "
                                          "or add it to the source"))
    for key in sorted(set(a) | set(b)):
        for lang, ctx in ((src_lang, src_ctx), (tr_lang, tr_ctx)):
            if not is_defined(ctx, key):
                out.append((f"undefined ${{{key}}} in {lang}",
                            f"${{{key}}} has no value in {lang}; define it in the {lang} terms "
                            "(or the game's rules_context)"))
    for ph in find_placeholders(tr):
        if is_defined(tr_ctx, ph.key):
            try:
                resolve_one(ph, tr_ctx)
            except Unresolved as exc:
                out.append((f"bad filter {ph.raw}", f"{ph.raw}: {exc}"))
    for stray in stray_placeholders(tr):
        out.append((f"broken {stray}", f"{stray!r} is not a complete placeholder; write ${{namespace.key}}"))
    return out


_CLOSERS = " \t\n*_)]}\"'”»’`"


def ending(text: str) -> str:
    body = text.rstrip()
    if body.endswith("|"):
        return "table"
    body = body.rstrip(_CLOSERS)
    while body and (body[-1] in "\ufe0f\u200d" or strip_icons(body[-1]) == ""):
        body = body[:-1].rstrip(_CLOSERS)
    if not body:
        return "none"
    last = body[-1]
    if last in ".:?!;":
        return last
    if last == "…":
        return "."
    return "none"


def _fmt(n) -> str:
    return str(int(n)) if float(n).is_integer() else str(n)


def _term_icons(text: str) -> Counter:
    """Icons glued to a word (🪙Coin): a term's mark, which a pronoun may replace."""
    from .text import icon_key, icons as all_icons
    out: Counter = Counter()
    for m in re.finditer(r"((?:[^\w\s]\ufe0f?)+)(?=[^\W\d_])", text):
        out.update(icon_key(i) for i in all_icons(m.group(1)))
    return out


def check_icons(src: str, tr: str):
    """Same icons, as often; except that a term's icon may occur fewer times in the
    translation (a pronoun stands for the repeated term) as long as it occurs."""
    a, b = icon_counts(src), icon_counts(tr)
    out = []
    lost, added = a - b, b - a
    ta, tb = _term_icons(src), _term_icons(tr)
    for icon in list(lost):
        bare_lost = (a[icon] - ta[icon]) - (b[icon] - tb[icon])
        if b[icon] >= 1 and bare_lost <= 0:
            del lost[icon]
    if lost:
        s = " ".join(f"{k}×{v}" if v > 1 else k for k, v in lost.items())
        out.append((f"lost {s}", f"the translation lacks icon(s) {s}; keep every icon of the source"))
    if added:
        s = " ".join(f"{k}×{v}" if v > 1 else k for k, v in added.items())
        out.append((f"added {s}", f"the translation has icon(s) {s} that the source does not"))
    return out


def check_glossary(src: str, tr: str, pairs) -> list:
    """Each pair whose source term the source uses must have its agreed translation
    in the translation. Where two terms match at the same word, the longer one is
    meant (``Vásárcsarnok`` is Market Hall, not ``Vásár`` Market), so the shorter one
    does not count there."""
    from .glossary import might_occur, term_positions, tokens
    out = []
    src_tokens, tr_tokens = tokens(src), tokens(tr)
    src_lower = src.lower()
    hits: list[tuple[int, int, int]] = []   # (pair index, start token, term length)
    for n, pair in enumerate(pairs):
        for form in pair.source:
            if not might_occur(form, src_lower):
                continue
            for start in term_positions(form, src_tokens, case=True):
                hits.append((n, start, len(strip_icons(form))))
    used: set[int] = set()
    for n, start, length in hits:
        if not any(m != n and s2 == start and l2 > length and pairs[m].source != pairs[n].source
                   for m, s2, l2 in hits):
            used.add(n)
    seen = set()
    for n in sorted(used):
        pair = pairs[n]
        if any(find_term(f, tr_tokens, lenient=True) for f in pair.target):
            continue
        key = (pair.source[0], pair.target[0])
        if key in seen:
            continue
        seen.add(key)
        out.append((f"{pair.source[0]} -> {pair.target[0]}",
                    f"the source uses {pair.source[0]!r}; the agreed translation {pair.target[0]!r} "
                    f"is not in the translation ({pair.origin})"))
    return out


def check_glossary_back(src: str, tr: str, pairs, tr_lang: str = "") -> list:
    """The other direction: a game term the translation uses whose source term the
    source does not have (*forduló* where the source says "turn", not "round").
    Only terms written without an icon (an icon-marked term is held by the icons
    check) and found as the whole term word (its inflections, not a longer word:
    "Trader" is not "Trade")."""
    from .glossary import find_term, term_positions, tokens
    out = []
    tr_tokens, src_tokens = tokens(tr), tokens(src)
    seen = set()
    for pair in pairs:
        forms = [f for f in pair.target if f and f == strip_icons(f).strip()]
        if not forms or any(f != strip_icons(f).strip() for f in pair.source):
            continue
        hit = None
        for f in forms:
            for start in term_positions(f, tr_tokens, case=True):
                word = tr_tokens[start + len(f.split()) - 1][1].lower() if start < len(tr_tokens) else ""
                last = f.split()[-1].lower()
                if tr_lang.startswith("en") and word not in (last, last + "s", last + "es", last + "'s"):
                    continue
                hit = f
                break
            if hit:
                break
        if not hit or any(find_term(f, src_tokens, lenient=True) for f in pair.source):
            continue
        # the same word may render another source term of the glossary, which the source has
        if any(p is not pair and hit.lower() in (t.lower() for t in p.target)
               and any(find_term(f, src_tokens, lenient=True) for f in p.source) for p in pairs):
            continue
        # a longer term of the glossary at the same place is the one meant
        if any(p is not pair and hit in " ".join(p.target) and len(p.target[0]) > len(hit)
               and any(find_term(t, tr_tokens) for t in p.target) for p in pairs):
            continue
        if (hit, pair.source[0]) in seen:
            continue
        seen.add((hit, pair.source[0]))
        out.append((f"added {hit} (no {pair.source[0]})",
                    f"the translation uses the term {hit!r}, but the source has no {pair.source[0]!r}, its "
                    "source term; check that the right term was used"))
    return out


def check_length(src: str, tr: str, band=LENGTH_BAND):
    a, b = len(src.strip()), len(tr.strip())
    if a < LENGTH_MIN_CHARS or a == 0:
        return []
    ratio = b / a
    if band[0] <= ratio <= band[1]:
        return []
    what = "shorter" if ratio < band[0] else "longer"
    return [(f"ratio {ratio:.2f}", f"the translation is {ratio:.2f} times the source's length, much {what} "
                                   f"than usual ({band[0]}–{band[1]}); check nothing is lost or added")]


# --------------------------------------------------------------------------- spelling
def spelling_available(lang: str) -> bool:
    """Is there a hunspell dictionary for ``lang`` (a language or a locale such as ``en-GB``)?"""
    return dictionary_path(lang) is not None


_MARKUP = re.compile(r"<!--.*?-->|\$\{[^}]*\}|https?://\S+|`[^`]*`", re.S)


def unknown_words(text: str, lang: str, known: set[str]) -> list[str]:
    if dictionary_path(lang) is None:
        return []
    out = []
    for w in words(strip_icons(_MARKUP.sub(" ", text))):
        if len(w) <= 2 or any(ch.isdigit() for ch in w) or w.lower() in known or w in known:
            continue
        if any(ch.isupper() for ch in w[1:]):
            continue  # acronyms and CamelCase names
        parts = [p for p in re.split(r"[-'’]", w) if p]
        if all(lookup(lang, p) or lookup(lang, p.lower()) for p in parts):
            continue
        if w not in out:
            out.append(w)
    return out


# --------------------------------------------------------------------------- acceptance
def load_accepted(game_id: str) -> list[dict]:
    from workbench.core.data import load_yaml
    path = cat_mod.rules_dir(game_id) / "accepted-findings.yaml"
    if not path.exists():
        return []
    data = load_yaml(path) or []
    if not isinstance(data, list):
        raise DataError("accepted findings are a list of {clause, check, detail, reason}", file=str(path))
    for i, entry in enumerate(data, start=1):
        if not isinstance(entry, Mapping):
            raise DataError(f"entry {i} is not a mapping", file=str(path))
        if not entry.get("reason"):
            raise DataError(f"entry {i} has no reason: say why the finding is right to accept",
                            file=str(path), field="reason")
        if entry.get("check") and entry["check"] not in CHECKS:
            raise DataError(f"entry {i}: unknown check {entry['check']!r}", file=str(path), field="check")
    return data


def _accepts(entry: Mapping, f: Finding) -> bool:
    if entry.get("lang") and entry["lang"] != f.lang:
        return False
    if entry.get("check") and entry["check"] != f.check:
        return False
    if entry.get("clause") and entry["clause"] != f.clause:
        return False
    if entry.get("detail") and str(entry["detail"]) not in f.detail:
        return False
    # an acceptance made for one wording of the clause does not carry over to another:
    # a changed translation reopens the finding
    if entry.get("text") is not None and f.text and " ".join(str(entry["text"]).split()) != " ".join(f.text.split()):
        return False
    return bool(entry.get("clause") or entry.get("detail"))


# --------------------------------------------------------------------------- the review
def review(game_id: str, lang: str, *, spelling: bool = True, game=None, clauses=None,
           spelling_locale_setting: str | None = None) -> Review:
    """Review the ``lang`` catalogue of ``game_id``. ``clauses`` limits the clause
    checks to those ids (the catalogue checks always run); ``spelling_locale_setting``
    overrides the catalogue's spelling locale (``en-GB``, ``en-US``)."""
    accepted = load_accepted(game_id)
    counts, raw = review_unaccepted(game_id, lang, word_lists(accepted), spelling=spelling, game=game,
                                    clauses=clauses, spelling_locale_setting=spelling_locale_setting)
    return with_acceptances(counts, raw, accepted)


def word_lists(accepted: list[dict]) -> tuple:
    """The accepted words (entries with ``words``), which the spelling checks read:
    the part of the acceptances a review's findings depend on."""
    return tuple((str(e.get("check")), str(e["lang"]) if "lang" in e else "", tuple(str(w) for w in e["words"]))
                 for e in accepted if e.get("words"))


def with_acceptances(counts: Review, raw: list[Finding], accepted: list[dict]) -> Review:
    """The review with ``accepted`` applied to its ``raw`` findings: each finding an
    entry accepts is listed as accepted with the entry's reason, the others stay
    findings, and an entry that accepts nothing is stale. ``counts`` and ``raw`` are
    left as they are (a kept review is handed out again)."""
    rev = replace(counts, findings=[], accepted=[], stale=[])
    used = [False] * len(accepted)
    for f in raw:
        hit = None
        for i, entry in enumerate(accepted):
            if entry.get("words"):
                continue   # a word list, not a finding's acceptance
            if _accepts(entry, f):
                hit = i
                break
        if hit is None:
            rev.findings.append(f)
        else:
            used[hit] = True
            rev.accepted.append(replace(f, accepted=str(accepted[hit]["reason"])))
    for entry, was_used in zip(accepted, used):
        if entry.get("words"):
            continue
        if entry.get("lang") and entry["lang"] != rev.lang:
            continue
        if not was_used:
            rev.stale.append(dict(entry))
    return rev


def review_unaccepted(game_id: str, lang: str, words_accepted: tuple, *, spelling: bool = True, game=None,
                      clauses=None, spelling_locale_setting: str | None = None) -> tuple[Review, list[Finding]]:
    """The review's counts and every finding before acceptances are applied, given the
    accepted word lists (:func:`word_lists`) the spelling checks read: the costly part
    of a review, which an acceptance of a finding does not change."""
    source = cat_mod.load_source(game_id)
    if source is None:
        raise WorkbenchError(f"{game_id} has no rules text yet")
    if lang == source.lang:
        raise WorkbenchError(f"{lang} is the original language of {game_id}; review a translation "
                             f"({', '.join(cat_mod.translation_languages(game_id)) or 'none yet'})")
    path = cat_mod.po_path(game_id, lang)
    if not path.exists():
        raise WorkbenchError(f"{game_id} has no {lang} translation ({path} not found)")
    # Duplicate entries are read here (Babel keeps the last) because the review
    # names each one as a finding; every other reader refuses such a catalogue.
    catalog = cat_mod.read_catalog(path, duplicates=True)
    po_text = read_text_file(path)
    live = cat_mod.entries_by_context(catalog)
    header = dict(catalog.mime_headers)
    locale = spelling_locale(header, lang, spelling_locale_setting)
    src_ctx = context_for(game_id, source.lang, game=game)
    tr_ctx = context_for(game_id, lang, game=game)
    pairs = game_glossary(game_id, source.lang, lang)
    known_words: set[str] = set()
    terms_known: set[str] = set()   # the terms files of both languages are spelt: any language's words
    for check, _lang, listed in words_accepted:
        if check in ("spelling", "terms-spelling"):
            terms_known.update(listed)
    for check, entry_lang, listed in words_accepted:
        if check == "spelling" and (entry_lang or lang) == lang:
            known_words.update(listed)
            known_words.update(w.lower() for w in listed)
    for pair in pairs:
        for form in pair.target:
            known_words.update(w.lower() for w in words(strip_icons(form)))
    run_spelling = spelling and spelling_available(locale)
    rev = Review(game_id, lang, source.lang,
                 spelling=(f"on ({locale})" if run_spelling else
                           ("off" if not spelling else f"skipped: no {locale} dictionary")))
    checks = [c() for c in CLAUSE_CHECKS]
    raw: list[Finding] = []
    texts: dict[str, str] = {}

    def add(ctxt, check, items):
        for detail, message in items:
            raw.append(Finding(ctxt, check, message, detail, lang, text=texts.get(ctxt, "")))

    source_ids = set()
    for ctxt, msgid, _line in source.entries():
        source_ids.add(ctxt)
        rev.entries += 1
        if clauses is not None and ctxt not in clauses:
            continue
        is_heading = ctxt in source.sections
        what = "heading" if is_heading else "clause"
        msg = live.get(ctxt)
        if msg is None or not msg.string:
            rev.missing += 1
            add(ctxt, "missing", [("untranslated", f"this {what} has no {lang} translation; translate it in "
                                                   f"{path.name} (msgctxt {ctxt})")])
            continue
        rev.translated += 1
        tr = msg.string
        texts[ctxt] = tr
        if msg.id != msgid:
            # a catalogue not yet updated against the source: as good as fuzzy
            rev.fuzzy += 1
            add(ctxt, "fuzzy", [("outdated", f"the source of this {what} changed and the catalogue was not "
                                              f"updated; run `workbench rules import` or update {path.name}")])
        elif "fuzzy" in msg.flags:
            rev.fuzzy += 1
            add(ctxt, "fuzzy", [("fuzzy", f"the source of this {what} changed since it was translated; compare "
                                           "with the previous source (#| msgid), revise, then clear the fuzzy flag")])
        for check, items in entry_findings(ctxt, msgid, tr, source.lang, lang, src_ctx, tr_ctx, pairs,
                                           heading=is_heading, checks=checks):
            add(ctxt, check, items)
        if run_spelling:
            src_words = {w.lower() for w in words(strip_icons(msgid))}
            bad = unknown_words(tr, locale, known_words | src_words)
            if bad:
                add(ctxt, "spelling", [(" ".join(bad), f"unknown to the {locale} dictionary: {', '.join(bad)}; "
                                                        "fix the spelling or accept the words")])

    for chk in CATALOGUE_CHECKS:
        inst = chk(terms_known, locale) if chk is TermsSpellingCheck else chk()
        for where, detail, message in inst.run(game_id, lang, po_text, source_ids, spelling):
            raw.append(Finding(where, inst.name, message, detail, lang))

    save_cache()   # the next review (another process) reads these answers instead of loading dictionaries
    return rev, raw


def _ending_name(e: str) -> str:
    return {"none": "no punctuation", "table": "a table row"}.get(e, f"'{e}'")


def meaning_findings(ctxt: str, msgid: str, tr: str, src_lang: str, tr_lang: str, src_ctx: Mapping,
                     tr_ctx: Mapping, pairs, *, heading: bool = False) -> set[tuple[str, str]]:
    """The ``(check, detail)`` pairs :func:`entry_findings` gives one entry,
    without the length band: a length band says nothing about meaning, and a
    dropped clause is judged by the other checks. What the planted-mistake
    measure and its tests count as a finding."""
    return {(check, detail)
            for check, items in entry_findings(ctxt, msgid, tr, src_lang, tr_lang, src_ctx, tr_ctx, pairs,
                                               heading=heading)
            if check != "length"
            for detail, _msg in items}


def entry_findings(ctxt: str, msgid: str, tr: str, src_lang: str, tr_lang: str, src_ctx: Mapping,
                   tr_ctx: Mapping, pairs, *, heading: bool = False, checks=None) -> list[tuple[str, list]]:
    """Every clause-level check on one entry: ``(check, [(detail, message), ...])``
    items (missing, fuzzy and spelling are the catalogue's business, not here). The
    review runs it on each entry; the planted-mistake measure runs it on pairs it
    makes up, in either direction."""
    checks = checks if checks is not None else [c() for c in CLAUSE_CHECKS]
    out: list[tuple[str, list]] = [("placeholders", check_placeholders(msgid, tr, src_ctx, tr_ctx, src_lang,
                                                                       tr_lang))]
    s_full, t_full = _fill(msgid, src_ctx), _fill(tr, tr_ctx)
    pair = Pair(ctxt, msgid, tr, s_full, t_full, src_lang, tr_lang, heading=heading, glossary=pairs,
                src_ctx=src_ctx, tr_ctx=tr_ctx)
    for chk in checks:
        if heading and not chk.headings:
            continue
        out.append((chk.name, chk.run(pair)))
    out.append(("glossary", check_glossary(s_full, t_full, pairs) + check_glossary_back(s_full, t_full, pairs, tr_lang)))
    out.append(("icons", check_icons(s_full, t_full)))
    if not heading:
        e_src, e_tr = ending(msgid), ending(tr)
        if e_src != e_tr:
            out.append(("punctuation", [(f"{e_src} -> {e_tr}",
                                         f"the source ends with {_ending_name(e_src)}, the translation with "
                                         f"{_ending_name(e_tr)}; end it the same way")]))
        out.append(("length", check_length(s_full, t_full)))
    return out
