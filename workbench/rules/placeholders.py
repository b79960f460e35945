"""Placeholders ``${namespace.path | filter}`` and how they resolve per language.

``terms`` come from ``cards/<game>/terms/<lang>.yaml``; ``game`` from the game's
own attributes; ``content``, ``facts`` and any other namespace from the game's
optional ``rules_context(lang)`` hook. Filters: ``capitalize``, ``upper``,
``lower``, ``title``, ``az``/``Az`` (the Hungarian article a/az chosen by the
rendered word's first sound), or a named form of a term leaf (``forms: {acc: ...}``).
Nothing unresolved is ever silently dropped: :func:`resolve_text` returns every
placeholder it could not fill, with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from workbench.core.errors import DataError

PLACEHOLDER_RE = re.compile(r"\$\{\s*(?P<key>[A-Za-z_][\w.-]*)\s*(?P<filters>(?:\|\s*[\w-]+\s*)*)\}")
HU_VOWELS = set("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")
# letters whose Hungarian name starts with a vowel: ef, el, em, en, er, es, iksz, ipszilon
HU_VOWEL_LETTER_NAMES = set("AÁEÉFIÍLMNOÓÖŐRSUÚÜŰXY")


def hungarian_article(text: str) -> str:
    """``a`` or ``az`` before ``text``, by its first sound as read aloud. Icons and
    punctuation in front are skipped; a number counts by how it is read: ``az`` before
    1 (egy), 5 (öt), 50 (ötven), 500 (ötszáz), 1000 (ezer), 1 000 000 (egymillió)...;
    a Roman numeral is read as an ordinal (``az I.`` első, ``a IV.`` negyedik, ``az V.``
    ötödik); an acronym is read letter by letter, so its first letter's name counts
    (``az MTI`` em-té-i, ``az SZ`` esz, ``a KKV`` ká-ká-vé). The translation review's
    article check judges written articles by the same reading."""
    i = 0
    while i < len(text) and not text[i].isalnum():
        i += 1
    if i == len(text):
        return "a"
    rest = text[i:]
    if rest[0].isdigit():
        digits = ""
        for ch in rest:
            if ch.isdigit():
                digits += ch
            elif ch in " \u00a0.\u202f" and digits:   # thousands separators
                continue
            else:
                break
        first, places = digits[0], len(digits)
        return "az" if first == "5" or (first == "1" and places % 3 == 1) else "a"
    roman = re.match(r"[IVXLC]+(?!\w)", rest)
    if roman:
        n = _roman_value(roman.group(0))
        return "az" if n in (1, 5) or 50 <= n < 60 else "a"
    if len(rest) > 1 and rest[:2].isalpha() and rest[:2].isupper():
        return "az" if rest[0] in HU_VOWEL_LETTER_NAMES else "a"
    return "az" if rest[0] in HU_VOWELS else "a"


def _roman_value(numeral: str) -> int:
    vals = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for k, ch in enumerate(numeral):
        v = vals[ch]
        total += -v if k + 1 < len(numeral) and vals[numeral[k + 1]] > v else v
    return total


BUILTIN_FILTERS = {
    "capitalize": lambda s: s[:1].upper() + s[1:],
    "upper": str.upper,
    "lower": str.lower,
    "title": str.title,
    # Hungarian definite article chosen by the rendered word (a Remény, az Elismerés);
    # ``Az`` for the start of a sentence. Write it last in a chain: it reads the final form.
    "az": lambda s: f"{hungarian_article(s)} {s}",
    "Az": lambda s: f"{hungarian_article(s).capitalize()} {s}",
}


@dataclass(frozen=True)
class Placeholder:
    key: str                 # e.g. terms.resources.runway
    filters: tuple[str, ...]
    raw: str                 # as written

    @property
    def namespace(self) -> str:
        return self.key.split(".", 1)[0]


def find_placeholders(text: str) -> list[Placeholder]:
    out = []
    for m in PLACEHOLDER_RE.finditer(text):
        filters = tuple(f.strip() for f in m.group("filters").split("|") if f.strip())
        out.append(Placeholder(m.group("key"), filters, m.group(0)))
    return out


def placeholder_keys(text: str) -> list[str]:
    """Keys in order of appearance, filters ignored (what parity compares)."""
    return [p.key for p in find_placeholders(text)]


def stray_placeholders(text: str) -> list[str]:
    """``${`` openings that do not form a placeholder (a typo such as ``${terms.x``)."""
    cleaned = PLACEHOLDER_RE.sub("", text)
    return re.findall(r"\$\{[^}\s]*\}?", cleaned)


# --------------------------------------------------------------------------- context
def load_terms(game_id: str, lang: str) -> dict:
    """The ``terms`` namespace for ``lang``, or an empty mapping if the file is absent."""
    from workbench.core.data import cards_dir, load_yaml
    path = cards_dir(game_id) / "terms" / f"{lang}.yaml"
    if not path.exists():
        return {}
    data = load_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise DataError("a terms file is a mapping of names to texts", file=str(path))
    return dict(data)


def game_namespace(game) -> dict:
    lo, hi = game.min_players, game.max_players
    return {"id": game.id, "name": game.name, "minPlayers": lo, "maxPlayers": hi,
            "playerRange": f"{lo}–{hi}" if lo != hi else str(lo)}


def context_for(game_id: str, lang: str, *, game=None) -> dict:
    """Every namespace a rulebook of ``game_id`` may use, in ``lang``."""
    if game is None:
        try:
            from workbench.core.registry import get_game
            game = get_game(game_id)
        except Exception:  # a game whose engine is not built yet still renders its terms
            game = None
    ctx: dict[str, Any] = {"terms": load_terms(game_id, lang)}
    if game is not None:
        ctx["game"] = game_namespace(game)
        for ns, value in (game.rules_context(lang) or {}).items():
            if ns == "game" and isinstance(value, Mapping):
                ctx["game"] = {**ctx["game"], **value}
            elif ns != "terms":
                ctx[ns] = value
    _overlay_translated_content(ctx, game_id, lang)
    return ctx


def _overlay_translated_content(ctx: dict, game_id: str, lang: str) -> None:
    """Merge ``cards/<game>/rules/content.<lang>.yaml`` over the namespaces the game
    provides, so strings its data holds in one language (district texts, project
    names) read in ``lang``. Mappings merge key by key; a list of rows is matched by
    each row's ``key`` (the overlay gives ``{key: {field: text}}``). Absent file: no-op."""
    from workbench.core.data import cards_dir, load_yaml
    path = cards_dir(game_id) / "rules" / f"content.{lang}.yaml"
    if not path.exists():
        return
    data = load_yaml(path) or {}
    if not isinstance(data, Mapping):
        raise DataError("a content translation is a mapping of namespaces", file=str(path))
    import copy

    def merge(base: dict, over: Mapping, where: str) -> None:
        for k, v in over.items():
            if k in META_KEYS:
                continue
            here = f"{where}.{k}" if where else str(k)
            cur = base.get(k)
            if isinstance(cur, list) and isinstance(v, Mapping):
                rows = {str(r.get("key")): r for r in cur if isinstance(r, dict)}
                for key, fields in v.items():
                    if str(key) not in rows or not isinstance(fields, Mapping):
                        raise DataError(f"{here} has no row with key {key!r}", file=str(path))
                    rows[str(key)].update({f: t for f, t in fields.items() if f not in META_KEYS})
            elif isinstance(cur, dict) and isinstance(v, Mapping):
                merge(cur, v, here)
            else:
                base[k] = v

    for ns, value in data.items():
        if ns in META_KEYS or ns == "terms":
            continue
        if isinstance(value, Mapping) and isinstance(ctx.get(ns), Mapping):
            ctx[ns] = copy.deepcopy(dict(ctx[ns]))
            merge(ctx[ns], value, ns)
        else:
            ctx[ns] = value


# --------------------------------------------------------------------------- lookup
class Unresolved(Exception):
    pass


def lookup(ctx: Mapping, key: str) -> Any:
    node: Any = ctx
    walked = []
    for part in key.split("."):
        walked.append(part)
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, Mapping) and part.isdigit() and int(part) in node:
            node = node[int(part)]
        elif isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            if len(walked) == 1:
                raise Unresolved(f"no namespace {part!r}")
            raise Unresolved(f"{'.'.join(walked[:-1])} has no {part!r}")
    return node


def leaf_text(node: Any, key: str) -> tuple[str, Mapping]:
    """A leaf's text and its named forms."""
    if isinstance(node, Mapping):
        if "text" not in node:
            raise Unresolved(f"{key} is a group ({', '.join(map(str, list(node)[:4]))}...), not a text")
        forms = node.get("forms") or {}
        return str(node["text"]), forms
    if isinstance(node, (list, tuple)):
        raise Unresolved(f"{key} is a list, not a text")
    if isinstance(node, bool) or node is None:
        raise Unresolved(f"{key} has no text")
    return str(node), {}


def resolve_one(ph: Placeholder, ctx: Mapping) -> str:
    text, forms = leaf_text(lookup(ctx, ph.key), ph.key)
    for f in ph.filters:
        if f in forms:
            text = str(forms[f])
        elif f in BUILTIN_FILTERS:
            text = BUILTIN_FILTERS[f](text)
        else:
            raise Unresolved(f"unknown filter {f!r}")
    return text


def is_defined(ctx: Mapping, key: str) -> bool:
    try:
        leaf_text(lookup(ctx, key), key)
        return True
    except Unresolved:
        return False


def resolve_text(text: str, ctx: Mapping) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with every placeholder filled; unresolved ones stay as written and
    come back as ``(placeholder, reason)``."""
    problems: list[tuple[str, str]] = []

    def sub(m: re.Match) -> str:
        ph = find_placeholders(m.group(0))[0]
        try:
            return resolve_one(ph, ctx)
        except Unresolved as exc:
            problems.append((ph.raw, str(exc)))
            return m.group(0)

    return PLACEHOLDER_RE.sub(sub, text), problems


META_KEYS = {"provenance", "note", "notes", "draft_fields", "forms"}


def _is_leaf(node: Any) -> bool:
    return not isinstance(node, Mapping) or ("text" in node and not isinstance(node["text"], Mapping))


def flatten_terms(node: Any, prefix: str = "terms") -> dict[str, str]:
    """``{"terms.resources.coin": "Coin", ...}`` for every text leaf; the
    bookkeeping keys (``provenance``, ``note``...) are not terms."""
    out: dict[str, str] = {}
    if isinstance(node, Mapping) and not _is_leaf(node):
        for k, v in node.items():
            if str(k) in META_KEYS:
                continue
            out.update(flatten_terms(v, f"{prefix}.{k}"))
    elif isinstance(node, (str, int, float)) and not isinstance(node, bool) or isinstance(node, Mapping):
        try:
            out[prefix] = leaf_text(node, prefix)[0]
        except Unresolved:
            pass
    return out


def term_forms(node: Any) -> list[str]:
    """Every shape of a term leaf: its text and its named forms."""
    if isinstance(node, Mapping):
        return [str(node.get("text", ""))] + [str(v) for v in (node.get("forms") or {}).values()]
    return [str(node)]


def terms_path(game_id: str, lang: str) -> Path:
    from workbench.core.data import cards_dir
    return cards_dir(game_id) / "terms" / f"{lang}.yaml"
