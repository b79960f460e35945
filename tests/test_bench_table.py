"""The README's table of current figures is written by ``workbench bench``, not
typed: ``--markdown FILE`` puts it between the file's markers, ``--from-json``
writes it from a saved run. Measures nothing itself (a saved run is made up of
figures in the bench's own shape)."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _figure(name, label, shown, target, verdict):
    return {"name": name, "label": label, "value": 1.0, "unit": "s", "target": 1.0, "higher_is_better": False,
            "met": True, "verdict": verdict, "shown": shown, "target_text": target, "note": ""}


RUN = {"game": "meaning-made", "players": None, "quick": True, "measured_at": "2026-12-07 05:00 UTC",
       "build": "compiled (mypyc)", "cores": 2, "load_average_at_start": [1.5, 1.0, 0.5],
       "load_average": [1.7, 1.1, 0.6],
       "games": [{"game": "meaning-made", "players": 4,
                  "figures": [_figure("engine", "random play / tic-tac-toe", "5.51 x", ">= 4 x", "met (38% to spare)"),
                              {"name": "paired", "label": "paired", "error": "no card session"}]}],
       "figures": [_figure("startup", "start-up: workbench --help", "0.09 s", "<= 0.3 s", "met (70% to spare)")]}


def test_the_readme_has_the_markers_the_table_goes_between():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.index("<!-- bench-table -->") < text.index("<!-- /bench-table -->")


def test_from_json_writes_the_table_between_the_markers_and_nothing_else(tmp_path, capsys):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(RUN), encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n<!-- bench-table -->\nold table\n<!-- /bench-table -->\n\nafter\n", encoding="utf-8")
    assert main(["bench", "--from-json", str(saved), "--markdown", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\n<!-- bench-table -->\nMeasured 2026-12-07 05:00 UTC on 2 cores")
    assert text.endswith("<!-- /bench-table -->\n\nafter\n") and "old table" not in text
    assert "load average 1.5 at the start, 1.7 at the end; rules compiled (mypyc); `--quick`" in text
    assert "| random play / tic-tac-toe | Meaning Made, 4 players | 5.51 x | >= 4 x | met (38% to spare) |" in text
    assert "| paired | Meaning Made, 4 players | not measured: no card session | | |" in text
    assert "| start-up: workbench --help | batch (Meaning Made) | 0.09 s | <= 0.3 s |" in text
    # run again: the same table replaces itself
    assert main(["bench", "--from-json", str(saved), "--markdown", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == text


def test_a_file_without_markers_or_a_bad_run_is_refused_in_one_line(tmp_path, capsys):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(RUN), encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("no markers\n", encoding="utf-8")
    assert main(["bench", "--from-json", str(saved), "--markdown", str(page)]) == 1
    assert "markers" in capsys.readouterr().err and page.read_text() == "no markers\n"
    saved.write_text("[1, 2]", encoding="utf-8")
    assert main(["bench", "--from-json", str(saved)]) == 1
    assert "not a saved bench run" in capsys.readouterr().err
