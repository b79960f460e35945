"""Pebble Race's notation: ``take <Card>``, ``gamble``, ``pass``. Actions are
small frozen objects whose ``str()`` is their text; :func:`parse` reads it back."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.errors import NotationError, suggest


@dataclass(frozen=True)
class Take:
    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True)
class Gamble:
    def __str__(self) -> str:
        return "gamble"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


GAMBLE, PASS = Gamble(), Pass()


def parse(text: str, card_names) -> object:
    """The action ``text`` names; a misspelt card gets the nearest name."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("empty action")
    verb = words[0].lower()
    if verb == "gamble" and len(words) == 1:
        return GAMBLE
    if verb == "pass" and len(words) == 1:
        return PASS
    if verb == "take" and len(words) == 2:
        for card in card_names:
            if card.lower() == words[1].strip().lower():
                return Take(card)
        raise NotationError(f"no card {words[1]!r}{suggest(words[1], card_names)}")
    raise NotationError(f"cannot read {text!r}: write take <Card>, gamble or pass")
