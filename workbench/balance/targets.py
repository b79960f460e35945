"""Balance targets: what a designer wants a metric to be, at which player counts.

Syntax (one ``--target`` each)::

    survival=0.55..0.8 @players=2..5     a band, checked at 2, 3, 4 and 5 players
    legacy_cap_share<=0.1                at most (at the run's player count)
    action_usage_min>=0.05 @players=4    at least
    seat_gap=0                           exactly (a band of one value)

The name is a metric key of :mod:`workbench.sim.metrics` or one of its aliases
(``survival`` is ``completion``, ``legacy_cap_share`` is ``cap_saturation``,
``faction_gap`` is ``role_gap``), or one entry of a per-seat, per-kind or
per-role metric (``seat_win_rate_seat2``, ``action_usage_organize``,
``faction_win_rate_mirevanta``). A target's *miss* is how far the value lies
outside its band (0 inside); a metric that cannot be computed misses by 1.
"""

from __future__ import annotations

import math

import re
from dataclasses import dataclass

from workbench.core.errors import WorkbenchError, suggest
from workbench.sim.metrics import ALIASES, METRIC_BY_KEY, resolve_alias

_TARGET = re.compile(
    r"^\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?P<op><=|>=|=)\s*(?P<value>[^@\s][^@]*?)\s*"
    r"(?:@\s*players\s*=\s*(?P<players>\d+(?:\s*\.\.\s*\d+)?)\s*)?$")
_NUMBER = r"-?\d+(?:\.\d+)?"


@dataclass(frozen=True)
class Target:
    text: str
    metric: str                      # metric key (aliases resolved), possibly a flat entry key
    low: float | None
    high: float | None
    players: tuple[int, ...] | None  # None: the run's player count

    def miss(self, value, margin: float = 0.0) -> float:
        """Distance of ``value`` outside ``[low, high]`` (0 inside; 1 if there is no value).

        ``margin`` narrows the band by that much on each bounded side (a band
        narrower than twice the margin shrinks to its middle): the search aims
        inside the band, so that a proposal found on the search's seeds does not
        sit on the line and fall out of it on fresh ones."""
        if value is None or value != value:  # None or NaN
            return 1.0
        low, high = self.low, self.high
        if margin:
            low = None if low is None else low + margin
            high = None if high is None else high - margin
            if low is not None and high is not None and low > high:
                low = high = (self.low + self.high) / 2
        if low is not None and value < low:
            return float(low - value)
        if high is not None and value > high:
            return float(value - high)
        return 0.0

    def met(self, value) -> bool:
        return self.miss(value) == 0.0

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            band = f"{self.low:g}" if self.low == self.high else f"{self.low:g}..{self.high:g}"
        elif self.low is not None:
            band = f">= {self.low:g}"
        else:
            band = f"<= {self.high:g}"
        return f"{self.metric} {band}"


def _metric_key(name: str) -> str:
    key = resolve_alias(name)
    if key in METRIC_BY_KEY:
        if getattr(METRIC_BY_KEY[key], "per", None):
            raise WorkbenchError(f"target {name!r} has one value per {METRIC_BY_KEY[key].per}: "
                                 f"name one, e.g. {key}_{'seat1' if METRIC_BY_KEY[key].per == 'seat' else 'x'}")
        return key
    for base, metric in METRIC_BY_KEY.items():
        if getattr(metric, "per", None) and key.startswith(base + "_"):
            return key
    names = sorted(set(METRIC_BY_KEY) | set(ALIASES))
    raise WorkbenchError(f"unknown metric {name!r} in --target{suggest(name, names)}")


def _players(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    lo, sep, hi = (part.strip() for part in text.partition(".."))
    if len(lo) > 4 or len(hi) > 4:    # a table seats a handful; never build a range of millions
        raise WorkbenchError(f"@players={text}: no game seats that many players")
    lo_n, hi_n = int(lo), int(hi) if sep else int(lo)
    if lo_n > hi_n or lo_n < 1:
        raise WorkbenchError(f"@players={text}: write a count or LOW..HIGH with LOW <= HIGH")
    return tuple(range(lo_n, hi_n + 1))


def parse_target(text: str) -> Target:
    """One target expression (see the module docstring); a bad one is one clear line."""
    m = _TARGET.match(text or "")
    if not m:
        raise WorkbenchError(f"cannot read --target {text!r}: write e.g. 'survival=0.55..0.8 @players=2..5' "
                             "or 'legacy_cap_share<=0.1'")
    metric = _metric_key(m["name"])
    op, value = m["op"], m["value"].strip()
    band = re.fullmatch(rf"({_NUMBER})\s*\.\.\s*({_NUMBER})", value)
    if band:
        if op != "=":
            raise WorkbenchError(f"--target {text!r}: a band LOW..HIGH goes with '=', not {op!r}")
        low, high = float(band[1]), float(band[2])
        if not (math.isfinite(low) and math.isfinite(high)):
            raise WorkbenchError(f"--target {text!r}: the band's ends must be finite numbers")
        if low > high:
            raise WorkbenchError(f"--target {text!r}: the band's low end comes first")
    elif re.fullmatch(_NUMBER, value):
        number = float(value)
        if not math.isfinite(number):
            raise WorkbenchError(f"--target {text!r}: {value[:20]!r}... is not a finite number")
        low, high = {"=": (number, number), "<=": (None, number), ">=": (number, None)}[op]
    else:
        raise WorkbenchError(f"--target {text!r}: {value!r} is not a number or a band LOW..HIGH")
    return Target(text.strip(), metric, low, high, _players(m["players"]))


def player_counts(targets: list[Target], default: int) -> list[int]:
    """Every player count some target is checked at, in order."""
    counts = set()
    for t in targets:
        counts.update(t.players or (default,))
    return sorted(counts)
