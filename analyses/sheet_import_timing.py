"""How long ``cards import`` takes for a sheet changing many cells, and how long a
hostile sheet takes to be refused (issue 38: one validation per import).

    python analyses/sheet_import_timing.py [--game meaning-made] [--copies 12]

Builds a private copy of the game's card folder, widened to ``--copies`` times its
cards when the game's sheets allow it (every card of the widened kinds copied under
a new name), exports it to xlsx, changes every Headline's text and era (eras swapped
pairwise), and times
``workbench cards import`` on it in a subprocess; then times the refusal of hostile
sheets (a million declared rows, a formula without a value, a bad value in the last
changed cell). Prints one JSON document; wall-clock figures depend on the machine's
load, so the load average is printed beside them."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], env: dict) -> tuple[float, int, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "workbench", *args], env=env, capture_output=True, text=True,
                          timeout=600)
    return time.perf_counter() - start, done.returncode, (done.stderr or done.stdout).strip().splitlines()[-1:]


def widen(folder: Path, copies: int) -> int:
    """Copy every Mandate 2038 Headline ``copies - 1`` times under new names (the
    game takes any number of Headlines; Meaning Made's layers hold exactly ten
    Patterns, so it cannot be widened)."""
    import re
    import string
    path = folder / "mandate_2038" / "headlines.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    cards = [line for line in lines if line.startswith("  - {name: ")]
    extra = []
    for n in range(1, copies):
        tag = "".join(string.ascii_uppercase[(n * 7 + i) % 26] for i in range(3))
        for line in cards:
            extra.append(re.sub(r"name: ([^,]+),", lambda m: f"name: {m.group(1)} {tag}{n},", line, count=1))
    path.write_text("\n".join(lines + extra) + "\n", encoding="utf-8")
    return len(cards) * copies


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="mandate-2038")
    ap.add_argument("--copies", type=int, default=105, help="widen Mandate 2038's Headlines this many times")
    opts = ap.parse_args()
    import openpyxl
    tmp = Path(tempfile.mkdtemp(prefix="sheet-timing-"))
    try:
        cards = tmp / "cards"
        shutil.copytree(ROOT / "cards", cards)
        rows = widen(cards, opts.copies) if opts.game == "mandate-2038" and opts.copies > 1 else None
        env = {**os.environ, "WORKBENCH_CARDS": str(cards), "WORKBENCH_NO_HISTORY": "1"}
        book = tmp / "cards.xlsx"
        t_export, rc, _ = run(["cards", "export", opts.game, "--out", str(book)], env)
        assert rc == 0, "export failed"
        wb = openpyxl.load_workbook(book)
        changed = 0
        for ws in wb.worksheets:
            header = [c.value for c in ws[1]]
            for row in ws.iter_rows(min_row=2):
                for col, cell in zip(header, row):
                    if ws.title == "headline" and col == "text" and isinstance(cell.value, str):
                        cell.value = cell.value + " (edited)"
                        changed += 1
                    elif ws.title == "headline" and col == "era" and isinstance(cell.value, int):
                        cell.value = {1: 2, 2: 1, 3: 4, 4: 3}[cell.value]   # eras swapped pairwise
                        changed += 1
        wb.save(book)
        t_dry, rc_dry, tail_dry = run(["cards", "import", opts.game, str(book), "--dry-run"], env)
        out = {"game": opts.game, "headline_rows": rows, "changed_cells": changed,
               "export_s": round(t_export, 2), "import_dry_run_s": round(t_dry, 2), "import_exit": rc_dry,
               "import_last_line": tail_dry}
        # hostile: the last headline's era made invalid (the refusal must name its cell, quickly)
        bad = tmp / "bad.xlsx"
        wb = openpyxl.load_workbook(book)
        ws = wb["headline"]
        header = [c.value for c in ws[1]]
        ws.cell(row=ws.max_row, column=header.index("era") + 1).value = -7
        wb.save(bad)
        t_bad, rc_bad, tail_bad = run(["cards", "import", opts.game, str(bad), "--dry-run"], env)
        out.update({"bad_last_cell_s": round(t_bad, 2), "bad_exit": rc_bad, "bad_line": tail_bad})
        # hostile: a sheet declaring a million rows, and a formula saved without its value
        import re
        import zipfile
        huge = tmp / "huge.xlsx"
        with zipfile.ZipFile(book) as zin, zipfile.ZipFile(huge, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                data = zin.read(item)
                if item.filename.startswith("xl/worksheets/"):
                    data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:F1048576"', data)
                zout.writestr(item, data)
        t_huge, rc_huge, tail_huge = run(["cards", "import", opts.game, str(huge), "--dry-run"], env)
        formula = tmp / "formula.xlsx"
        wb = openpyxl.load_workbook(book)
        ws = wb["headline"]
        ws.cell(row=2, column=header.index("text") + 1).value = '=CONCAT("a","b")'
        wb.save(formula)
        t_formula, rc_formula, tail_formula = run(["cards", "import", opts.game, str(formula), "--dry-run"], env)
        out.update({"huge_declared_s": round(t_huge, 2), "huge_exit": rc_huge, "huge_line": tail_huge,
                    "formula_s": round(t_formula, 2), "formula_exit": rc_formula, "formula_line": tail_formula})
        out["load_average"] = os.getloadavg()
        print(json.dumps(out, indent=1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
