"""Every verdict line the docs print as ``workbench compare`` prints it
("<metric>: <verdict>  <old> -> <new> (diff d, interval [lo, hi], margin ±m)")
earns its words by its numbers, as ``compare --json`` rows must
(:func:`workbench.sim.verdicts.earned`): no direction word with an interval
inside the margin, no "no meaningful change" over a zero-width interval at 0.
The suite's own rows are checked in tests/test_verdicts.py; this reads what a
designer reads in the docs."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.sim.verdicts import VERDICTS, earned

ROOT = Path(__file__).resolve().parent.parent
NUMBER = r"(-?[0-9][0-9.e+-]*)"
LINE = re.compile(r": (?P<verdict>" + "|".join(re.escape(v) for v in sorted(VERDICTS, key=len, reverse=True))
                  + r")\s+" + NUMBER + r" -> " + NUMBER + r" \(diff " + NUMBER + r", interval \[" + NUMBER
                  + r", " + NUMBER + r"\], margin ±" + NUMBER + r"\)")


def _rows():
    pages = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for m in LINE.finditer(line):
                _, _, _, lo, hi, margin = (float(x) for x in m.groups()[1:])
                yield f"{page.relative_to(ROOT)}:{number}", {"verdict": m["verdict"], "low": lo, "high": hi,
                                                            "margin": margin}


def test_every_verdict_line_in_the_docs_earns_its_words():
    rows = list(_rows())
    assert len(rows) >= 8, "the pattern no longer matches the printed verdict lines"
    wrong = [where for where, row in rows if not earned(row)]
    assert not wrong, f"verdict words the numbers do not earn: {wrong}"
