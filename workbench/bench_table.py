"""The README's table of current figures, written from a ``workbench bench`` run.

:func:`markdown_table` turns the JSON document of ``workbench bench --json``
into one small Markdown table (a row per figure: what, measured, target,
verdict) under a line saying when, where and how it was measured;
:func:`write_into` puts it between the markers ``<!-- bench-table -->`` and
``<!-- /bench-table -->`` of a Markdown file, leaving the rest of the file as
it was. The table is never typed by hand: ``workbench bench --markdown
README.md`` measures and writes it, ``--from-json run.json`` writes it from a
saved run.
"""

from __future__ import annotations

from pathlib import Path

from workbench.core.errors import WorkbenchError

START, END = "<!-- bench-table -->", "<!-- /bench-table -->"


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown_table(doc: dict) -> str:
    """The figures of one bench run as a Markdown table with its provenance line."""
    from workbench.core.registry import load_all
    games = load_all()
    when = doc.get("measured_at") or "time not recorded"
    start, end = doc.get("load_average_at_start") or [], doc.get("load_average") or []
    load = (f"load average {start[0]:g} at the start, " if start else "") + \
        (f"{end[0]:g} at the end" if end else "not recorded")
    head = (f"Measured {when} on {doc.get('cores', '?')} cores, {load}; rules "
            f"{doc.get('build') or 'build not recorded'}"
            f"{'; `--quick` (smaller sizes, extrapolated)' if doc.get('quick') else ''}.")
    rows = ["| figure | game | measured | target | verdict |", "| --- | --- | --- | --- | --- |"]

    def add(figs, game_name):
        for f in figs:
            if f.get("error"):
                rows.append(f"| {_cell(f['label'])} | {game_name} | not measured: {_cell(f['error'])} | | |")
                continue
            rows.append(f"| {_cell(f['label'])} | {game_name} | {_cell(f['shown'])} | {_cell(f['target_text'])} | "
                        f"{_cell(f['verdict'])} |")

    for section in doc.get("games", []):
        game = games.get(section["game"])
        add(section["figures"], f"{game.name if game else section['game']}, {section['players']} players")
    if doc.get("figures"):
        first = games.get(doc.get("game"))
        add(doc["figures"], f"batch ({first.name if first else doc.get('game')})")
    if len(rows) == 2:
        raise WorkbenchError("the bench run holds no figures to tabulate")
    return head + "\n\n" + "\n".join(rows) + "\n"


def write_into(path: str | Path, table: str) -> Path:
    """Replace what lies between the markers of ``path`` with ``table``."""
    from workbench.core.storage import atomic_write_text
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise WorkbenchError(f"cannot read {path}: {exc.strerror or exc}") from None
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise WorkbenchError(f"{path} has no {START} ... {END} markers to write the table between")
    new = text[:start + len(START)] + "\n" + table + text[end:]
    atomic_write_text(path, new)
    return path
