"""Checks of a game's print templates before typesetting: text set under the
6 pt a home print keeps legible.

Typst sizes are read from the templates' source (``text(5pt, ...)``,
``size: 5.5pt``); a stroke width (``0.4pt + black``) is not a text size. The
PDF itself is measured by the tests (tests/test_print_home.py), this check says
which template line to change before anything is printed.
"""

from __future__ import annotations

import re
from pathlib import Path

MIN_TEXT_PT = 6.0
_SIZE = re.compile(r"(?:text\(\s*|size:\s*)(\d+(?:\.\d+)?)pt(?!\s*\+)")


def small_text(folder: Path) -> list[str]:
    """``file line N: 5pt text is under 6 pt`` for every text size under
    :data:`MIN_TEXT_PT` in the ``.typ`` templates of ``folder``."""
    out = []
    for path in sorted(Path(folder).glob("*.typ")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("//"):
                continue
            for m in _SIZE.finditer(line):
                if float(m.group(1)) < MIN_TEXT_PT:
                    out.append(f"{path.name} line {n}: {m.group(1)}pt text is under {MIN_TEXT_PT:g} pt")
    return out


__all__ = ["small_text", "MIN_TEXT_PT"]
