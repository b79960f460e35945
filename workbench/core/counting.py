"""Counted nouns in the workbench's English messages: ``counted(1, "token")`` is
"1 token", ``counted(2, "token")`` "2 tokens", ``counted(3, "copy", "copies")``
"3 copies". Every message that puts a number before a noun uses it, so no line
reads "1 tokens"."""

from __future__ import annotations


def plural(n, noun: str, many: str | None = None) -> str:
    """``noun`` for a count of exactly one, else its plural (``many``, or noun + s)."""
    return noun if n == 1 else (many or noun + "s")


def counted(n, noun: str, many: str | None = None, *, fmt: str = "") -> str:
    """The number and its noun: "1 token", "2 tokens", "1,200 games" with ``fmt=','``."""
    return f"{n:{fmt}} {plural(n, noun, many)}"


__all__ = ["plural", "counted"]
