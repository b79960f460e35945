"""Small text helpers shared by the rules model: slugs, icons (emoji), words.

Icons matter because a rulebook may mark its terms with them (🌟 before a
term, 🛡️ before another); an icon is a symbol character together with the variation selectors,
skin tones and zero-width joiners that belong to it, so 🛡️ counts as one icon.
"""

from __future__ import annotations

import re
import unicodedata

_JOINERS = {"\u200d", "\ufe0f", "\ufe0e", "\u20e3"}
WORD_RE = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)


def fold_ascii(text: str) -> str:
    """Accents off, everything not ASCII dropped: ``Várkert-őrség`` -> ``Varkert-orseg``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if ord(ch) < 128)


def slugify(text: str, max_words: int | None = None) -> str:
    """Lower-case ASCII words joined by hyphens; placeholders and icons drop out,
    so the slug of a heading is the same whatever its emoji."""
    text = re.sub(r"\$\{[^}]*\}", " ", text)
    text = re.sub(r"<!--.*?-->", " ", text)
    words = re.findall(r"[a-z0-9]+", fold_ascii(text).lower())
    if max_words is not None:
        words = words[:max_words]
    return "-".join(words)


def is_icon_char(ch: str) -> bool:
    if ch in _JOINERS:
        return False
    cat = unicodedata.category(ch)
    if cat == "So":
        return True
    # regional indicators and skin-tone modifiers are symbols too
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF or 0x1F3FB <= ord(ch) <= 0x1F3FF


def icon_end(text: str, i: int) -> int:
    """Where the icon starting at ``text[i]`` (an icon character) ends, its joined
    parts included; only the characters of that icon are read."""
    j, n = i + 1, len(text)
    while j < n and (text[j] in _JOINERS or 0x1F3FB <= ord(text[j]) <= 0x1F3FF
                     or (text[j - 1] == "\u200d" and is_icon_char(text[j]))):
        j += 1
    return j


def icons(text: str) -> list[str]:
    """The icons of ``text`` in order, each with its joined parts (🛡️, 👨‍👩‍👧)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if is_icon_char(text[i]):
            j = icon_end(text, i)
            out.append(text[i:j])
            i = j
        else:
            i += 1
    return out


def strip_icons(text: str) -> str:
    return "".join(ch for ch in text if not (is_icon_char(ch) or ch in _JOINERS))


def icon_key(icon: str) -> str:
    """An icon without its presentation selectors, so 🛡 and 🛡️ compare equal."""
    return icon.replace("\ufe0f", "").replace("\ufe0e", "")


def words(text: str) -> list[str]:
    """The words of ``text`` (letters and digits, inner hyphens and apostrophes kept)."""
    return WORD_RE.findall(text)
