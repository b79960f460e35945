"""How the dashboard writes numbers: three significant digits, a paired
difference as "diff [low, high]", and 64-bit seeds as text.

Tables that show results are turned into text columns here, in Python, so
what the browser shows is exactly what was computed: JavaScript numbers hold
integers only up to 2**53, so a 64-bit seed sent as a number would be shown
rounded, and Tabulator has no formatter for significant digits."""

from __future__ import annotations

import math


def sig3(value, signed: bool = False) -> str:
    """``value`` to three significant digits (0.10500000000000043 -> 0.105);
    numbers of 1000 or more keep every digit before the point."""
    if value is None:
        return "—"
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    sign = "+" if signed and x > 0 else ""
    if abs(x) >= 1000:
        return f"{sign}{x:,.0f}"
    text = f"{x:.3g}"
    if "e" in text:  # tiny values: plain decimals read better than 1.2e-05
        text = f"{x:.6f}".rstrip("0").rstrip(".")
    return (sign + text).replace("-", "−")


def with_interval(diff, low, high) -> str:
    """A paired difference and its 95% interval: ``+0.105 [+0.02, +0.19]``; without
    an interval (too few games for one: :mod:`workbench.sim.intervals`), says so."""
    if low is None or high is None:
        return f"{sig3(diff, signed=True)} (too few games)"
    return f"{sig3(diff, signed=True)} [{sig3(low, signed=True)}, {sig3(high, signed=True)}]"


def seed_text(seed) -> str:
    """A seed as text, every digit kept."""
    return str(int(seed))


def paired_table(frame, old: str = "old", new: str = "new", names: tuple[str, str] | None = None):
    """A pandas table of text from a polars table with metric, ``old``,
    ``new``, diff, ci_low, ci_high: metric, the two values and one column
    "difference [95% CI]" (so the interval is never off-screen); a preview on
    too few games for an interval says so there instead of ``+0 [+0, +0]``."""
    import pandas as pd
    from workbench.sim.verdicts import TOO_FEW
    shown_old, shown_new = names or (old, new)
    rows = []
    verdicts = "verdict" in frame.columns  # a streamed playtest says what each look decided
    for r in frame.iter_rows(named=True):
        too_few = verdicts and (r["verdict"] or "").startswith(TOO_FEW)
        row = {"metric": r["metric"], shown_old: sig3(r[old]), shown_new: sig3(r[new]),
               "difference [95% CI]": TOO_FEW if too_few else with_interval(r["diff"], r["ci_low"], r["ci_high"])}
        if verdicts:
            row["verdict"] = r["verdict"] or ""
        rows.append(row)
    if verdicts:
        # decided rows first (stable: the metrics' own order within each group), so the
        # answer is at the top of the table as soon as a look gives one
        from workbench.sim.verdicts import UNDECIDED
        rows.sort(key=lambda row: row["verdict"] in ("", UNDECIDED) or row["verdict"].startswith(
            (TOO_FEW, "not measurable")))
    # the verdict beside the metric: its words are the answer, and the last column of a
    # wide table is the one that runs out of the designer's window
    columns = ["metric"] + (["verdict"] if verdicts else []) + [shown_old, shown_new, "difference [95% CI]"]
    return pd.DataFrame(rows, columns=columns)


def value_table(frame):
    """A pandas table of text from a polars table: numbers to three significant
    digits, other values as they are."""
    import pandas as pd
    out = {}
    for name in frame.columns:
        values = frame[name].to_list()
        out[name] = [sig3(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else
                     ("—" if v is None else str(v)) for v in values]
    return pd.DataFrame(out, columns=list(frame.columns))
