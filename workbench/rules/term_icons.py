"""Which icon stands for which term: the one place every page, notebook, printed
sheet and rulebook asks.

A term's icon is read from ``cards/<game>/terms/<lang>.yaml``, in one of two ways:

* written in front of the term's text (``shield: 🛡️Shield``): the rulebook's
  ``${terms...}`` placeholders then print it with the word;
* given as the leaf's ``icon`` field (``coin: {text: Coin, icon: 🪙}``): the
  rulebook prints the plain word, while pages and printed cards put the icon
  beside it.

A term with neither has no icon. :func:`icon_problems` finds an icon shown beside a
term word that is not that term's icon (a heart beside "Shield" when the terms give
Shield a 🛡️), which is how the tests hold every rendering to the terms file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .text import icon_end, icon_key, is_icon_char


@dataclass(frozen=True)
class Term:
    path: str            # e.g. tokens.energy
    icon: str            # "" when the term has none
    word: str            # the text without its icon
    forms: tuple[str, ...] = ()   # other shapes of the word (plurals, cases), icons dropped

    def label(self, sep: str = "") -> str:
        """Icon and word, as the terms file writes them (``sep`` between them)."""
        return f"{self.icon}{sep}{self.word}" if self.icon else self.word


def split_icon(text: str) -> tuple[str, str]:
    """``("🛡️", "Shield")`` from ``"🛡️Shield"``: the icons written in front, and the rest."""
    lead = ""
    rest = text
    while rest and is_icon_char(rest[0]):
        end = icon_end(rest, 0)
        lead += rest[:end]
        rest = rest[end:]
    return lead, rest.strip()


def _leaves(node: Any, prefix: str = ""):
    from .placeholders import META_KEYS, _is_leaf
    if not isinstance(node, Mapping):
        return
    for k, v in node.items():
        if str(k) in META_KEYS:
            continue
        path = f"{prefix}.{k}" if prefix else str(k)
        if _is_leaf(v):
            yield path, v
        else:
            yield from _leaves(v, path)


def _term(path: str, leaf: Any) -> Term:
    if isinstance(leaf, Mapping):
        lead, word = split_icon(str(leaf.get("text", "")))
        forms = tuple(split_icon(str(f))[1] for f in (leaf.get("forms") or {}).values())
        return Term(path, str(leaf.get("icon") or lead), word, forms)
    lead, word = split_icon(str(leaf))
    return Term(path, lead, word)


@lru_cache(maxsize=32)
def _terms_cached(game_id: str, lang: str, stamp: float) -> dict[str, Term]:
    from .placeholders import load_terms
    return {path: _term(path, leaf) for path, leaf in _leaves(load_terms(game_id, lang))}


def game_terms(game_id: str, lang: str = "en") -> dict[str, Term]:
    """Every term of ``game_id`` in ``lang`` by its path; read again when the file changes."""
    from workbench.core.data import cards_dir
    path = cards_dir(game_id) / "terms" / f"{lang}.yaml"
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = -1
    return _terms_cached(game_id, lang, stamp)


def term(game_id: str, path: str, lang: str = "en") -> Term:
    """The term at ``path`` (``tokens.energy``); a path the file lacks gives a term
    without icon whose word is the path's last part, so a page still says something."""
    found = game_terms(game_id, lang).get(path)
    return found if found is not None else Term(path, "", path.rsplit(".", 1)[-1])


def term_icon(game_id: str, path: str, lang: str = "en") -> str:
    """The icon of the term at ``path``, or "" when it has none."""
    return term(game_id, path, lang).icon


def _stems(word: str) -> tuple[str, ...]:
    """A word and the stem its inflected forms start with: Hungarian lengthens a final
    a/e before a suffix (paletta -> palettát), so ``palettá`` is accepted too."""
    lengthened = {"a": "á", "e": "é"}.get(word[-1:])
    return (word, word[:-1] + lengthened) if lengthened else (word,)


def icon_problems(game_id: str, text: str, lang: str = "en") -> list[str]:
    """Every place in ``text`` where an icon stands right before (or one space before)
    a term word whose term has a different icon, as "⚡ Coin (the terms give 🪙)".
    The icon next to the word is the one compared: icons before it may qualify the
    term (``🧫🏰Castle 4``), and a term whose icon is a pair (``☀️🔍Gather``) needs the
    pair. Words are matched at their start, so an inflected form (``🛡️Életerővel``) counts."""
    terms = [t for t in game_terms(game_id, lang).values() if t.icon]
    words = sorted({(s, icon_key(t.icon)) for t in terms for w in (t.word, *t.forms) if w for s in _stems(w)},
                   key=lambda p: -len(p[0]))
    by_word: dict[str, set[str]] = {}
    for w, ic in words:
        by_word.setdefault(w, set()).add(ic)
    words = sorted(by_word, key=len, reverse=True)
    out = []
    i, n = 0, len(text)
    while i < n:
        if not is_icon_char(text[i]):
            i += 1
            continue
        lead, j = "", i
        while j < n and is_icon_char(text[j]):
            end = icon_end(text, j)   # the next icon only: reading the rest each time made this quadratic
            lead += text[j:end]
            j = end
        at = j + 1 if text[j:j + 1] == " " else j
        # every term word the text starts with (Játékos and Játékosok): the icon must be one of theirs
        hits = [w for w in words if text.startswith(w, at)]
        allowed = {ic for w in hits for ic in by_word[w]}
        if hits and not any(icon_key(lead).endswith(ic) for ic in allowed):
            out.append(f"{lead} {hits[0]} (the terms give {' or '.join(sorted(allowed))})")
        i = j
    return out


__all__ = ["Term", "split_icon", "game_terms", "term", "term_icon", "icon_problems"]
