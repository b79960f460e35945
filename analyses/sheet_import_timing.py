"""How long ``cards import`` takes for a sheet changing many cells, and how long a
hostile sheet takes to be refused (issue 38: one validation per import; targets
10 s and 5 s). One run prints both figures, on its last two lines:

    python analyses/sheet_import_timing.py [--game meaning-made] [--copies 12]

Builds a private copy of the game's card folder, widened to ``--copies`` times its
cards when the game's sheets allow it (every card of the widened kinds copied under
a new name), exports it to xlsx, changes every Headline's text and era (eras swapped
pairwise), and times
``workbench cards import`` on it in a subprocess; then times the refusal of hostile
sheets (a million declared rows, a formula without a value, a bad value in the last
changed cell, a zip bomb, a control character); then imports the changed sheet for real
(saved). Prints one JSON document, then the two figures; wall-clock figures depend on the
machine's load, so the load average is printed beside them, and each run's CPU seconds
(user + system of the command) too."""

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


CPU: dict[str, float] = {}


def run(args: list[str], env: dict, label: str = "") -> tuple[float, int, str]:
    import resource
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "workbench", *args], env=env, capture_output=True, text=True,
                          timeout=600)
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    if label:
        CPU[label] = round(now.ru_utime - used.ru_utime + now.ru_stime - used.ru_stime, 2)
    return wall, done.returncode, (done.stderr or done.stdout).strip().splitlines()[-1:]


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
        t_dry, rc_dry, tail_dry = run(["cards", "import", opts.game, str(book), "--dry-run"], env, "import_dry_run")
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
        t_bad, rc_bad, tail_bad = run(["cards", "import", opts.game, str(bad), "--dry-run"], env, "bad_last_cell")
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
        t_huge, rc_huge, tail_huge = run(["cards", "import", opts.game, str(huge), "--dry-run"], env, "huge_declared")
        formula = tmp / "formula.xlsx"
        wb = openpyxl.load_workbook(book)
        ws = wb["headline"]
        ws.cell(row=2, column=header.index("text") + 1).value = '=CONCAT("a","b")'
        wb.save(formula)
        t_formula, rc_formula, tail_formula = run(["cards", "import", opts.game, str(formula), "--dry-run"], env,
                                                  "formula")
        out.update({"huge_declared_s": round(t_huge, 2), "huge_exit": rc_huge, "huge_line": tail_huge,
                    "formula_s": round(t_formula, 2), "formula_exit": rc_formula, "formula_line": tail_formula})
        # hostile: a zip bomb (a part claiming 2 GB unpacked) and a control character in a cell
        bomb = tmp / "bomb.xlsx"
        with zipfile.ZipFile(book) as zin, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                zout.writestr(item, zin.read(item))
            zout.writestr("xl/media/padding.bin", b"\0" * (150 * 1024 * 1024))
        # (openpyxl will not write one into an xlsx: the CSV of the headline sheet carries it)
        import csv
        control = tmp / "control"
        control.mkdir()
        wb = openpyxl.load_workbook(book, read_only=True)
        cells = [["" if v is None else v for v in r] for r in wb["headline"].iter_rows(values_only=True)]
        cells[-1][header.index("text")] = "a\x07b"
        with open(control / "headline.csv", "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows(cells)
        hostile = {"huge_declared": (t_huge, rc_huge)}
        for label, path in (("zip_bomb", bomb), ("control_character", control)):
            took, rc, tail = run(["cards", "import", opts.game, str(path), "--dry-run"], env, label)
            out.update({f"{label}_s": round(took, 2), f"{label}_exit": rc, f"{label}_line": tail})
            hostile[label] = (took, rc)
        hostile.update({"formula_without_value": (t_formula, rc_formula), "bad_last_cell": (t_bad, rc_bad)})
        # the same changed sheet taken for real: validated once and saved
        t_save, rc_save, tail_save = run(["cards", "import", opts.game, str(book)], env, "import_saved")
        out.update({"import_saved_s": round(t_save, 2), "import_saved_exit": rc_save, "import_saved_line": tail_save})
        out["cpu_s"] = CPU
        out["load_average"] = os.getloadavg()
        print(json.dumps(out, indent=1))
        load = " ".join(f"{v:.1f}" for v in os.getloadavg())
        print(f"import of a sheet changing {changed:,} cells ({rows or 'every'} {opts.game} headline rows): "
              f"{t_save:.1f} s saved, {t_dry:.1f} s dry run (target 10 s; exit {rc_save}; load {load})")
        worst = max(hostile, key=lambda k: hostile[k][0])
        refused = all(rc == 1 for _, rc in hostile.values())
        print(f"hostile sheets refused: slowest {hostile[worst][0]:.1f} s ({worst}) of {len(hostile)} "
              f"(target 5 s; {'all refused, exit 1' if refused else 'NOT ALL REFUSED'}; load {load})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
