"""The errors the workbench raises for bad input: each carries one clear sentence
saying what is wrong and where, so the command line and dashboard can show it
as is, never a traceback."""

from __future__ import annotations

import difflib


class WorkbenchError(Exception):
    """Base of every user-facing error."""


class IllegalAction(WorkbenchError):
    """An action the rules forbid in this position; the state is left unchanged."""


class NotationError(WorkbenchError):
    """Text that does not parse as an action of the game."""


class DataError(WorkbenchError):
    """A card, table or settings file that does not validate.

    ``file``, ``card`` and ``field`` say where, so the message can point at it."""

    def __init__(self, message: str, *, file: str | None = None, card: str | None = None,
                 field: str | None = None):
        self.file, self.card, self.field = file, card, field
        self.message = message
        where = ", ".join(p for p in (
            f"file {file}" if file else "",
            f"card {card!r}" if card else "",
            f"field {field!r}" if field else "") if p)
        super().__init__(f"{where}: {message}" if where else message)


class ScenarioError(WorkbenchError):
    """A scenario file that cannot be read or run."""


def suggest(name: str, candidates) -> str:
    """`` (did you mean 'X'?)`` for the closest candidate, or an empty string."""
    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""
