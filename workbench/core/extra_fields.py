"""A card's extra fields: values the designer keeps on a card that no rule reads.

A designer who keeps cards in a spreadsheet adds columns of their own (an art
file, a flavour line, a print run note). Those are kept in the card's YAML under
one key, ``extra``, a mapping of the column's name to its value::

    - name: First Light
      cost: 2
      extra: {art: first-light.png, tagline: Where it all starts}

Every card model that a sheet row can be takes ``extra: ExtraFields = {}``, so
the game's strict models (``extra="forbid"``) still refuse a misspelt field
anywhere else: only the ``extra`` mapping is open, and only to plain values.
The rules never read it; the print layouts do (``c.extra`` in a template, see
docs/print.md), and the sheets show each name as a column.

This module holds the one definition of what an extra field may be: its name
(:func:`check_name`), its value (:data:`ExtraValue`), a cell's text as a value
(:func:`from_cell`) and the write into a card mapping (:func:`put`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Union

from pydantic import AfterValidator, Field, StrictBool, StrictFloat, StrictInt

#: the key of a card's extra fields in its YAML mapping
EXTRA = "extra"
#: longest name of an extra field (a column header)
MAX_NAME = 40
#: longest text of an extra field's value (a card's text, not a document)
MAX_TEXT = 2000
#: most extra fields on one card
MAX_FIELDS = 50
_NAME = re.compile(r"[A-Za-z](?:[A-Za-z0-9 _-]*[A-Za-z0-9_-])?")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)")


def check_name(name: str) -> str:
    """An extra field's name: a letter, then letters, digits, spaces, ``_`` or
    ``-`` (no dot: ``extra.NAME`` is how an edit addresses it), at most
    :data:`MAX_NAME` characters."""
    if not isinstance(name, str) or len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise ValueError(f"an extra field's name starts with a letter and holds letters, digits, spaces, "
                         f"'_' and '-' only, at most {MAX_NAME} characters (not {str(name)[:60]!r})")
    return name


def _text(value: str) -> str:
    if len(value) > MAX_TEXT:
        raise ValueError(f"an extra field holds at most {MAX_TEXT:,} characters")
    return value


ExtraName = Annotated[str, AfterValidator(check_name)]
#: a value: whole number, number, true/false or a text
ExtraValue = Union[StrictBool, StrictInt, StrictFloat, Annotated[str, AfterValidator(_text)]]
#: the ``extra`` field of a card model
ExtraFields = Annotated[dict[ExtraName, ExtraValue], Field(max_length=MAX_FIELDS)]


def from_cell(value: Any) -> Any:
    """A cell's value as an extra field holds it: numbers and true/false stay
    what they are; a text that is a number (every CSV cell is text) becomes that
    number, so a CSV and an xlsx of the same sheet give the same card."""
    if isinstance(value, str):
        text = value.strip()
        if _NUMBER.fullmatch(text):
            number = float(text)
            return int(number) if "." not in text and number.is_integer() else number
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        return text
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def put(card: dict, name: str, value: Any) -> Any:
    """Set (or, for None, remove) the extra field ``name`` of ``card``; returns
    its previous value. A card whose last extra field goes loses the ``extra``
    key too, so a field added and then cleared leaves the card as it was."""
    fields = card.get(EXTRA)
    if fields is not None and not isinstance(fields, dict):
        raise ValueError(f"the card's {EXTRA!r} is not a mapping of names to values")
    old = (fields or {}).get(name)
    if value is None:
        if fields and name in fields:
            del fields[name]
            if not fields:
                del card[EXTRA]
        return old
    check_name(name)
    if fields is None:
        fields = card[EXTRA] = {}
    fields[name] = from_cell(value)
    return old


def names(cards) -> list[str]:
    """The extra field names of ``cards`` (mappings), in first-seen order."""
    out: dict[str, None] = {}
    for card in cards:
        fields = card.get(EXTRA) if isinstance(card, dict) else None
        if isinstance(fields, dict):
            out.update(dict.fromkeys(str(k) for k in fields))
    return list(out)


def as_texts(card: dict) -> dict[str, str]:
    """A card's extra fields as the texts a print layout shows (``true``/``false``,
    numbers as written)."""
    fields = card.get(EXTRA) if isinstance(card, dict) else None
    if not isinstance(fields, dict):
        return {}
    return {str(k): ("true" if v is True else "false" if v is False else str(v)) for k, v in fields.items()}


__all__ = ["EXTRA", "ExtraFields", "ExtraName", "ExtraValue", "check_name", "from_cell", "put", "names", "as_texts"]
