"""Write the golden fingerprints the differential test checks against.

    cd <repo> && PYTHONPATH=. python tests/data/differential/regenerate.py [GAME ...]

writes ``tests/data/differential/<game>.json``: for every case of ``cases.py``
the SHA-256 of ``workbench play ... --json`` (or of each ``simulate`` table).

When regenerating is legitimate
-------------------------------
The fixtures pin the engines' behaviour for fixed seeds. Speed work, refactoring
and file moves must leave them untouched: if the test fails after such a change,
the change is wrong, not the fixture. Regenerate only for a *deliberate* change
of what a game does for a given seed, and then name it in the commit message
("differential fixtures regenerated for: <the rule change / ruling switch /
bot change / card data edit>"). Legitimate reasons are:

- a rule change or a new ruling decision (e.g. a Pax Transhumanity Research or
  payment rule corrected), or an edit of bundled card data or tables;
- a change of a bot's decision procedure or of ``Game.evaluate`` weights;
- a change of the JSON shape of ``workbench play`` or of the simulate tables
  (a new column), agreed in docs/conventions.md;
- a deliberate change of the legal actions' listing order, documented in the
  game's docs page together with evidence that bot results stay statistically
  the same.

Regenerate only the game that changed (pass its id), from the commit *before*
the unrelated work lands if in doubt, and keep the diff of the JSON files
limited to that game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import case_label, iter_all, play_digest, sim_digests  # noqa: E402

GAMES = ["meaning-made", "mandate-2038", "pax-transhumanity"]


def regenerate(game: str) -> Path:
    rows = []
    for kind, case in iter_all(game):
        digest = play_digest(case) if kind == "play" else sim_digests(case)
        rows.append({"kind": kind, "case": case, "sha256": digest})
        print(f"{case_label(case)}", file=sys.stderr)
    path = HERE / f"{game}.json"
    doc = {"game": game, "about": "golden fingerprints for tests/test_differential.py; "
                                  "see regenerate.py before changing", "cases": rows}
    path.write_text(json.dumps(doc, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    games = argv or GAMES
    for game in games:
        if game not in GAMES:
            print(f"unknown game {game!r}; choose from {', '.join(GAMES)}", file=sys.stderr)
            return 1
        print(f"wrote {regenerate(game)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
