"""Checks of a whole catalogue or terms file: duplicate entries (``msgfmt -c``
rejects them; Babel silently keeps one), entries whose ``msgctxt`` names no clause,
and misspelt terms, which would show in every clause that uses them."""

from __future__ import annotations

import re
from collections import Counter

from .base import CatalogueCheck
from .dictionary import knows

_KW = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")\s*$')
_STR = re.compile(r'^(".*")\s*$')


def po_entries(text: str) -> list[dict]:
    """Live entries of PO text as written, duplicates kept: ``{msgctxt, msgid, msgstr, line}``."""
    from babel.messages.pofile import unescape
    entries: list[dict] = []
    cur: dict | None = None
    field = None
    for n, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            if not s and cur is not None:
                entries.append(cur)
                cur, field = None, None
            continue
        m = _KW.match(s)
        if m:
            kw = m.group(1)
            fresh = (cur is None or kw == "msgctxt" and any(k in cur for k in ("msgctxt", "msgid", "msgstr"))
                     or kw == "msgid" and ("msgid" in cur or "msgstr" in cur))
            if fresh:
                if cur is not None:
                    entries.append(cur)
                cur = {"line": n}
            field = "msgstr" if kw.startswith("msgstr") else kw
            cur[field] = cur.get(field, "") + unescape(m.group(2))
            continue
        m = _STR.match(s)
        if m and cur is not None and field:
            cur[field] += unescape(m.group(1))
    if cur is not None:
        entries.append(cur)
    return [e for e in entries if "msgid" in e]


class DuplicateEntryCheck(CatalogueCheck):
    """No clause or heading has two entries in the catalogue (msgfmt rejects the file; only one would be used)."""

    name = "duplicate"

    def run(self, game_id, lang, po_text, source_ids, spelling):
        seen = Counter((e.get("msgctxt"), e["msgid"]) for e in po_entries(po_text) if e["msgid"])
        by_ctxt = Counter(e.get("msgctxt") for e in po_entries(po_text) if e["msgid"] and e.get("msgctxt"))
        out = []
        lines: dict = {}
        for e in po_entries(po_text):
            lines.setdefault(e.get("msgctxt"), []).append(e["line"])
        for (ctxt, msgid), n in seen.items():
            if n > 1:
                out.append((ctxt or msgid[:40], f"{n} entries",
                            f"{n} entries for {ctxt or msgid[:40]!r} (lines {', '.join(map(str, lines.get(ctxt, [])))}); "
                            "keep one"))
        for ctxt, n in by_ctxt.items():
            if n > 1 and not any(c == ctxt and k > 1 for (c, _), k in seen.items()):
                out.append((ctxt, f"{n} entries", f"{n} entries with msgctxt {ctxt!r} and different source texts "
                                                 f"(lines {', '.join(map(str, lines[ctxt]))}); keep the current one"))
        return out


class OrphanEntryCheck(CatalogueCheck):
    """Every entry's msgctxt names a clause or heading of the source (an orphan is never shown)."""

    name = "orphan"

    def run(self, game_id, lang, po_text, source_ids, spelling):
        out = []
        for e in po_entries(po_text):
            if not e["msgid"]:
                continue
            ctxt = e.get("msgctxt")
            if ctxt is None:
                out.append((f"line {e['line']}", "no msgctxt",
                            f"the entry at line {e['line']} ({e['msgid'][:40]!r}) has no msgctxt, so it belongs to "
                            "no clause; add the clause id or remove it"))
            elif ctxt not in source_ids:
                out.append((ctxt, "orphan", f"msgctxt {ctxt!r} (line {e['line']}) names no clause or heading of the "
                                            "source; fix the id, or run `workbench rules update` to make it obsolete"))
        return out


_TERM_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


class TermsSpellingCheck(CatalogueCheck):
    """Every word of the terms files is known to the language's dictionary (a misspelt term shows in every clause)."""

    name = "terms-spelling"

    def __init__(self, known: set[str] | None = None, locale: str | None = None):
        self.known = known or set()
        self.locale = locale

    def run(self, game_id, lang, po_text, source_ids, spelling):
        from ..placeholders import load_terms
        from ..catalog import source_language
        out = []
        for tl in sorted({lang, source_language(game_id) or lang}):
            terms = load_terms(game_id, tl)
            loc = self.locale if tl == lang and self.locale else tl
            if not terms or knows(loc, "a") is None:
                continue
            flat = _leaves(terms)
            for key, texts in flat.items():
                bad = []
                for text in texts:
                    for w in _TERM_WORD.findall(text):
                        if len(w) <= 2 or w in self.known or w.lower() in self.known:
                            continue
                        if any(ch.isupper() for ch in w[1:]):
                            continue
                        if not knows(loc, w) and w not in bad:
                            bad.append(w)
                if bad:
                    out.append((f"terms/{tl}.yaml {key}", " ".join(bad),
                                f"the {tl} term {key} has word(s) the {tl} dictionary does not know: "
                                f"{', '.join(bad)}; a typo here shows in every clause that uses the term "
                                "(fix it, or accept the words as coined)"))
        return out


def _leaves(node, prefix: str = "terms") -> dict[str, list[str]]:
    from ..placeholders import META_KEYS, _is_leaf, term_forms
    out: dict[str, list[str]] = {}
    if isinstance(node, dict) and not _is_leaf(node):
        for k, v in node.items():
            if str(k) not in META_KEYS:
                out.update(_leaves(v, f"{prefix}.{k}"))
    elif isinstance(node, (str, dict)):
        out[prefix] = [t for t in term_forms(node) if t]
    return out
