"""Game options as a person types them: ``key=value`` text (``--option
round_limit=40`` on the command line, the options box of the Playtest page) to
the values a :class:`~workbench.core.game.GameConfig` takes.

A value is a whole number, a decimal, true/false, null or a plain word, or a
list of those; never YAML (no tags, anchors or nested collections). A bad pair
is refused with one sentence naming it (:class:`WorkbenchError`)."""

from __future__ import annotations

import re

from .errors import WorkbenchError

OPTION_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")
_WORD = re.compile(r"[\w\-. /]*", re.UNICODE)


def option_value(text: str, key: str):
    """One ``--option`` value: a whole number, a decimal, true/false, null or a
    plain word, or a list of those written ``a,b`` or ``[a, b]``. No YAML: a tag,
    an anchor or a nested collection is refused."""
    value = text.strip()
    inner = value[1:-1] if value.startswith("[") and value.endswith("]") else None
    if inner is not None or "," in value:
        items = [x for x in (inner if inner is not None else value).split(",")]
        if len(items) > 100:
            raise WorkbenchError(f"option {key}: at most 100 items")
        if inner is not None and not inner.strip():
            return []
        return [_scalar(x, key, text) for x in items]
    return _scalar(value, key, text)


def _scalar(value: str, key: str, text: str):
    value = value.strip()
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "none", "~"):
        return None
    if _NUMBER.fullmatch(value):
        number = int(value)
        if abs(number) > 2**63:
            raise WorkbenchError(f"option {key}={value} is out of range")
        return number
    if _FLOAT.fullmatch(value):
        return float(value)
    if value and _WORD.fullmatch(value) and len(value) <= 200:
        return value
    raise WorkbenchError(f"option {key}={text!r}: a value is a number, true/false or a plain word")


def options(pairs) -> dict:
    """``key=value`` pairs to a dict (see :func:`option_value`)."""
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not OPTION_KEY.fullmatch(key):
            raise WorkbenchError(f"option {pair!r} must look like key=value, e.g. round_limit=40")
        if key in out:
            raise WorkbenchError(f"option {key!r} given twice")
        out[key] = option_value(value, key)
    return out
