"""Shift patterns: one search variable that moves many card values together.

A ``--vary`` pattern ending in ``+=LO..HI`` (``initiatives.*.cost+=0..2``,
``event_table.*.meaning@5..10+=-2..0``, ``tiles.*.runway+=-1..1``) is one
variable of the search, a whole-number *step* from LO to HI, added to every
value the rest of the pattern names (each kept at or above its field's floor,
as the plain pattern's range keeps it). Why: a designer's idea is often "every
Quest one dearer" or "harsher late Storms", dozens of values moving the
same way. Searched one by one, each of them has a small effect lost in the
noise of a few games per trial, and TPE's independent draws over dozens of
``+-1`` values average out to no change (measured on a bundled cooperative game: 72 table
cells, 24 trials, the best trial's lowest shared score 3.8 on its own seeds and 4.25
on fresh ones, against 4.3 as printed; one step over the same cells moves it by
more than 2). As one variable the direction is found in a few trials; the
proposal is still written value by value, so the pruning step
(:func:`workbench.balance.verdict.prune`) can take back the members that did
not help, and apply and undo go through the tweak session's ordinary edits.

LO..HI must hold 0, so that trial 0 (every step 0) is the cards as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.core.errors import WorkbenchError

from workbench.tweak.variables import Variable

_SHIFT = re.compile(r"^(?P<base>.*?)\s*\+=\s*(?P<lo>-?\d+)\s*\.\.\s*(?P<hi>-?\d+)\s*$")


@dataclass(frozen=True)
class Shift:
    """One ``+=LO..HI`` pattern: the step's range and the values it moves."""

    pattern: str
    low: int
    high: int
    members: tuple[Variable, ...]

    @property
    def name(self) -> str:
        """The search's parameter name (never a card value's name: it holds '=')."""
        return f"shift {self.pattern}"

    def values(self, step: int) -> dict[str, int]:
        """Every member's value after ``step`` (kept inside its own bounds)."""
        return {m.name: min(max(m.current + step, m.low), m.high) for m in self.members}


def is_shift(pattern: str) -> bool:
    return bool(_SHIFT.match(pattern or ""))


def expand(session, patterns: list[str], *, allow_seed: bool = False) -> tuple[list[Variable], list[Shift], list[str]]:
    """``(plain variables, shifts, protected seed values)`` of the vary
    ``patterns``: the plain ones through ``session.variables``, each shift's
    members through the same call with its base pattern (so provenance, floors
    and refusals are the plain patterns' own). A value named twice is refused."""
    plain = [p for p in patterns if not is_shift(p)]
    variables, protected = session.variables(plain, allow_seed=allow_seed) if plain else ([], [])
    protected = list(protected)
    shifts = []
    for text in patterns:
        m = _SHIFT.match(text or "")
        if not m:
            continue
        lo, hi, base = int(m["lo"]), int(m["hi"]), m["base"].strip()
        if not lo <= 0 <= hi or lo == hi:
            raise WorkbenchError(f"--vary {text!r}: the step's range must hold 0 and one more step "
                                 "(trial 0 is the cards as they are), e.g. +=0..2 or +=-1..1")
        if re.search(r"(=\s*-?\d+\s*\.\.|\+-|±)", base):
            raise WorkbenchError(f"--vary {text!r}: a shift takes no range of its own; write the pattern, "
                                 "then +=LO..HI")
        members, left_out = session.variables([f"{base}+-{max(-lo, hi)}"], allow_seed=allow_seed)
        protected.extend(p for p in left_out if p not in protected)
        shifts.append(Shift(text, lo, hi, tuple(members)))
    seen: set[str] = set()
    for v in [*variables, *(m for s in shifts for m in s.members)]:
        if v.name in seen:
            raise WorkbenchError(f"--vary names {v.name} twice (a value belongs to one pattern); "
                                 "take it out of one of them")
        seen.add(v.name)
    return variables, shifts, protected
