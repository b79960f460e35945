"""The Meaning Made action notation (docs/meaning-made.md, "Notation"): action objects, parsing
and formatting.

Each action is a small frozen dataclass whose ``str()`` is its canonical text,
so ``parse(str(action)) == action``. Token lists are counts in the order E, I,
S, V and print in the counted form (``2E I``); both ``E E I`` and ``2E I`` parse.
Card and player names match case-insensitively; a misspelt one is refused with
the nearest name suggested.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from workbench.core.errors import NotationError, suggest

KINDS = "EISV"
Tokens = tuple  # (E, I, S, V)
NO_TOKENS = (0, 0, 0, 0)

_TOKEN_RE = re.compile(r"^(\d*)([A-Za-z])$")


def parse_tokens(text: str, allowed: str = KINDS) -> Tokens:
    """``"2E I"`` or ``"E E I"`` -> ``(2, 1, 0, 0)``."""
    counts = [0, 0, 0, 0]
    parts = text.replace(",", " ").replace("+", " ").split()
    if not parts:
        raise NotationError("no tokens given")
    for part in parts:
        m = _TOKEN_RE.match(part)
        if not m or m.group(2).upper() not in allowed:
            raise NotationError(f"{part!r} is not a token; write {', '.join(allowed)} (e.g. '2E I')")
        n = int(m.group(1)) if m.group(1) else 1
        if n < 1:
            raise NotationError(f"{part!r}: a count is at least 1")
        counts[KINDS.index(m.group(2).upper())] += n
    return tuple(counts)


def format_tokens(tokens: Tokens) -> str:
    parts = []
    for kind, n in zip(KINDS, tokens):
        if n == 1:
            parts.append(kind)
        elif n > 1:
            parts.append(f"{n}{kind}")
    return " ".join(parts)


@dataclass(frozen=True)
class Gather:
    tokens: Tokens  # (E, I, 0, 0) with E + I == 2

    def __str__(self):
        return f"gather {format_tokens(self.tokens)}"


@dataclass(frozen=True)
class Load:
    pattern: str
    pay: Optional[Tokens] = None  # None: the engine's default payment

    def __str__(self):
        return f"load {self.pattern}" + (f" with {format_tokens(self.pay)}" if self.pay is not None else "")


@dataclass(frozen=True)
class Contribute:
    initiative: str
    pay: Optional[Tokens] = None

    def __str__(self):
        return f"contribute {self.initiative}" + (f" with {format_tokens(self.pay)}" if self.pay is not None else "")


@dataclass(frozen=True)
class Touchpoint:
    mode: str      # give | request
    token: str     # E | I | S
    other: str     # player name as in the config

    def __str__(self):
        word = "to" if self.mode == "give" else "from"
        return f"touchpoint {self.mode} {self.token} {word} {self.other}"


@dataclass(frozen=True)
class Answer:
    accept: bool

    def __str__(self):
        return "accept" if self.accept else "decline"


@dataclass(frozen=True)
class Recycle:
    area: str  # prism | index

    def __str__(self):
        return f"recycle {self.area}"


@dataclass(frozen=True)
class Convert:
    def __str__(self):
        return "convert"


@dataclass(frozen=True)
class Donate:
    donate: bool

    def __str__(self):
        return "donate" if self.donate else "pass"


ACCEPT, DECLINE = Answer(True), Answer(False)
DONATE, PASS = Donate(True), Donate(False)
CONVERT = Convert()
GATHERS = (Gather((2, 0, 0, 0)), Gather((1, 1, 0, 0)), Gather((0, 2, 0, 0)))

_WITH = re.compile(r"\s+with\s+", re.IGNORECASE)


def _split_with(rest: str):
    parts = _WITH.split(rest, maxsplit=1)
    return parts[0].strip(), (parts[1].strip() if len(parts) > 1 else None)


def parse(text: str, cards, players) -> object:
    """Parse one action. ``cards`` is the :class:`CardSet`; ``players`` the seat names."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty action")
    words = text.strip().split()
    verb, rest = words[0].lower(), " ".join(words[1:])
    if verb == "gather":
        toks = parse_tokens(rest, allowed="EISV") if rest else None
        if toks is None:
            raise NotationError("gather needs two tokens, e.g. 'gather E I' or 'gather 2E'")
        if toks[2] or toks[3]:
            raise NotationError("gather takes only Energy and Insight (E, I), never Support or Vitals")
        if toks[0] + toks[1] != 2:
            raise NotationError(f"gather takes exactly 2 tokens, not {toks[0] + toks[1]}")
        return Gather(toks)
    if verb in ("load", "contribute"):
        name_text, pay_text = _split_with(rest)
        if not name_text:
            raise NotationError(f"{verb} needs a card name")
        pay = parse_tokens(pay_text) if pay_text is not None else None
        if verb == "load":
            name = cards.pattern_name(name_text)
            if name is None:
                raise NotationError(f"no Pattern named {name_text!r}{suggest(name_text, cards.patterns)}")
            return Load(name, pay)
        name = cards.initiative_name(name_text)
        if name is None:
            raise NotationError(f"no Initiative named {name_text!r}{suggest(name_text, cards.initiatives)}")
        return Contribute(name, pay)
    if verb == "touchpoint":
        m = re.match(r"^(give|request)\s+(\S+)\s+(to|from)\s+(.+)$", rest.strip(), re.IGNORECASE)
        if not m:
            raise NotationError("write 'touchpoint give <T> to <Player>' or 'touchpoint request <T> from <Player>'")
        mode, tok, word, who = m.group(1).lower(), m.group(2), m.group(3).lower(), m.group(4).strip()
        if (mode == "give") != (word == "to"):
            raise NotationError(f"write 'give ... to' or 'request ... from', not '{mode} ... {word}'")
        counts = parse_tokens(tok, allowed="EIS")
        if sum(counts) != 1:
            raise NotationError("a Touchpoint moves exactly 1 token")
        lowered = {p.lower(): p for p in players}
        if who.lower() not in lowered:
            raise NotationError(f"no player named {who!r}{suggest(who, players)}")
        return Touchpoint(mode, KINDS[counts.index(1)], lowered[who.lower()])
    if verb == "recycle":
        area = rest.strip().lower()
        if area not in ("prism", "index"):
            raise NotationError("write 'recycle prism' or 'recycle index'")
        return Recycle(area)
    if rest.strip():
        if verb in ("accept", "decline", "convert", "donate", "pass"):
            raise NotationError(f"'{verb}' takes nothing after it")
    simple = {"accept": ACCEPT, "decline": DECLINE, "convert": CONVERT, "donate": DONATE, "pass": PASS}
    if verb in simple:
        return simple[verb]
    verbs = ["gather", "load", "contribute", "touchpoint", "recycle", "convert", "accept", "decline",
             "donate", "pass"]
    raise NotationError(f"unknown action {words[0]!r}{suggest(words[0], verbs)}")
