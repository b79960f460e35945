"""No game is named outside its own package, counted by its display name
(``Game.name``, "Mandate 2038"), as tests/test_registry.py counts ids.

A ratchet until the move of issue 41 is finished: the generic modules that still
name a game are listed in :data:`STILL_NAMING` (most of them in a comment or an
example); a module not listed that names a game fails. Take a module off the list
when it stops naming one (other work may do so at any time, so that is not
asserted here: ``python -m pytest tests/test_game_words.py -q -rA`` prints what is left)."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.core.registry import load_all

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"
GAMES_DIR = PACKAGE / "games"

#: module (relative to workbench/) -> the game names it still holds; shrink it, never grow it
STILL_NAMING = {
    "balance/shifts.py", "bench.py", "commands/balance.py", "core/game.py",
    "dashboard/board.py",
    "dashboard/progress.py", "dashboard/sweeps.py",
    "interop/card_sheets.py", "rules/term_icons.py", "sim/__init__.py",
    "sim/metrics.py", "sim/progressive.py",
}


def naming_modules() -> dict[str, set[str]]:
    """Every module outside a game's package that names a registered game (or
    the package of another game naming it): module -> the names found."""
    games = load_all()
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        own = path.relative_to(GAMES_DIR).parts[0] if GAMES_DIR in path.parents else None
        text = path.read_text(encoding="utf-8")
        for gid, game in games.items():
            if own == gid.replace("-", "_"):
                continue
            if re.search(r"(?<![\w-])" + re.escape(game.name) + r"(?![\w-])", text, re.I):
                found.setdefault(rel, set()).add(game.name)
    return found


def test_no_new_module_names_a_game():
    found = {m for m in naming_modules() if not m.startswith("games/")}
    assert sorted(found - STILL_NAMING) == [], "a generic module names a game: say it in the game's package"
    print(f"{len(found)} generic modules still name a game: {', '.join(sorted(found))}")


def test_game_packages_name_no_other_game():
    assert sorted(m for m in naming_modules() if m.startswith("games/")) == []
