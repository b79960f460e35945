"""Kill -9 a server while the designer edits the cards, then restart: every room
resumes at its last acknowledged move on the pool its game was recorded with.

A child process plays three rooms on one journal over a scratch copy of the
cards; every 12 moves the designer either saves an edited card (the folder's
pool moves on under the running games) or starts the first room's Next game on
the Cards page's unsaved edited pool; one room is paused along the way. The child
is killed with SIGKILL at a random moment, the rooms are rebuilt as a restarted
server rebuilds them, and the next child goes on from there
(:func:`workbench.rooms.bench.edited_resume_tries`).

Run::

    .venv/bin/python analyses/rooms_edited_resume.py [TRIES] [GAME]

Prints one JSON line: rooms not resumed, acknowledged moves checked and lost,
games resumed on another pool than recorded, paused rooms checked and found
unpaused, distinct pools played.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.rooms.bench import edited_resume_tries  # noqa: E402

if __name__ == "__main__":
    tries = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    game = sys.argv[2] if len(sys.argv) > 2 else None
    print(json.dumps(edited_resume_tries(tries, game)))
