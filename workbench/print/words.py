"""The words a printed card carries, in one language.

Three sources, all per language and all editable by the designer:

* the game's terms (``cards/<game>/terms/<lang>.yaml``, read by the rules code), as a
  tree of plain texts (``terms.tokens.coin`` -> "🪙Coin");
* the print strings (``cards/<game>/print/strings.<lang>.yaml``): labels that only
  cards need (``labels``), and card texts by card name (``cards``) for the texts the
  card files hold in one language only;
* the icons (``icons`` in ``cards/<game>/print/print.yaml``): for each icon key a
  term whose icon it is (``workbench.rules.term_icons``) or an emoji of its own, and
  a short text that stands in when the emoji font is missing.

A string missing in the chosen language falls back to the original and is listed in
``missing`` so the command can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from workbench.core.data import cards_dir, load_yaml
from workbench.core.errors import DataError

EMOJI_FONT = "Noto Color Emoji"
# Pictographs, dingbats, regional symbols, variation selectors and joiners: what the
# text fallback strips from a term when the emoji font is not installed.
EMOJI_RE = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF"
                      "\uFE0F\u200D\u20E3]")


@lru_cache(maxsize=1)
def emoji_font_available() -> bool:
    """Whether Typst finds the colour emoji font among the system fonts."""
    import typst
    return EMOJI_FONT in typst.Fonts().families()


def strip_emoji(text: str) -> str:
    return EMOJI_RE.sub("", text).strip()


def _plain_tree(node: Any) -> Any:
    """Terms as nested dicts of plain texts (a leaf ``{text, forms}`` becomes its text)."""
    from workbench.rules.placeholders import META_KEYS
    if isinstance(node, Mapping):
        if "text" in node and not isinstance(node["text"], Mapping):
            return str(node["text"])
        return {str(k): _plain_tree(v) for k, v in node.items() if str(k) not in META_KEYS}
    return str(node)


def print_folder(game_id: str) -> Path:
    return cards_dir(game_id) / "print"


@dataclass
class Words:
    game: str
    lang: str
    terms: dict
    labels: dict
    texts: dict            # card name -> {field: text}, from strings.<lang>.yaml
    icons: dict            # key -> {emoji, text}
    emoji: bool
    source_lang: str = "en"
    missing: list[str] = field(default_factory=list)

    def term(self, path: str, default: str | None = None) -> str:
        node: Any = self.terms
        for part in path.split("."):
            if not isinstance(node, Mapping) or part not in node:
                if default is not None:
                    return default
                raise DataError(f"the {self.lang} terms have no {path}",
                                file=str(cards_dir(self.game) / "terms" / f"{self.lang}.yaml"))
            node = node[part]
        text = str(node)
        return text if self.emoji else strip_emoji(text)

    def label(self, key: str) -> str:
        if key in self.labels:
            return self._clean(str(self.labels[key]))
        self.missing.append(f"label {key}")
        return key

    def icon(self, key: str) -> str:
        """The icon ``key`` of print.yaml: a term's own icon when the entry names a term
        (``term: resources.runway``), else its ``emoji``; its ``text`` without the emoji font."""
        entry = self.icons.get(key)
        if entry is None:
            return ""
        if not self.emoji:
            return str(entry.get("text", key))
        if entry.get("term"):
            from workbench.rules.term_icons import term_icon
            return term_icon(self.game, str(entry["term"]), self.lang)
        return str(entry.get("emoji", ""))

    def card_text(self, card: str, fld: str, original: str | None) -> str | None:
        """The text of ``fld`` on ``card`` in this language: the strings file's, else
        the original (reported as missing when the language is not the original's)."""
        given = (self.texts.get(card) or {}).get(fld)
        if given is not None:
            return self._clean(str(given))
        if original is not None and self.lang != self.source_lang:
            self.missing.append(f"{card}: {fld}")
        return None if original is None else self._clean(str(original))

    def _clean(self, text: str) -> str:
        return text if self.emoji else strip_emoji(text)


def load_words(game_id: str, lang: str, *, source_lang: str = "en", emoji: bool | None = None) -> Words:
    from workbench.rules.placeholders import load_terms
    terms_file = cards_dir(game_id) / "terms" / f"{lang}.yaml"
    if not terms_file.exists():
        raise DataError(f"no {lang} terms for {game_id}", file=str(terms_file))
    folder = print_folder(game_id)
    manifest = load_yaml(folder / "print.yaml") or {}
    strings_file = folder / f"strings.{lang}.yaml"
    if not strings_file.exists():
        raise DataError(f"no {lang} print strings for {game_id}", file=str(strings_file))
    strings = load_yaml(strings_file) or {}
    return Words(game_id, lang, _plain_tree(load_terms(game_id, lang)), dict(strings.get("labels") or {}),
                 dict(strings.get("cards") or {}), dict(manifest.get("icons") or {}),
                 emoji_font_available() if emoji is None else emoji, source_lang)
