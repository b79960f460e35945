"""``workbench cards watch``: re-import a spreadsheet each time it is saved.

The file is polled (its modification time and size, every ``interval`` seconds: no
file-system events, so it works the same on every system and on a network drive).
A change is taken once the file has stood still for one more poll (a spreadsheet
program writes a file in several steps), then imported as ``workbench cards
import`` does (one validated edit, all or none) and saved, so the Cards page and
the Play page, which read the saved card files, follow the sheet. A sheet that is
refused is reported in one line and the card files stay as they were; the watch
goes on. It stops on Ctrl-C, after ``max_imports`` imports or after ``duration``
seconds, whichever comes first.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from workbench.core.errors import WorkbenchError

MAX_DURATION = 7 * 24 * 3600        # a week: the watch always ends
MAX_IMPORTS = 100_000


def _stamp(path: Path) -> tuple | None:
    """What changes when the file is saved: its time and size (a CSV folder: every
    CSV's)."""
    try:
        if path.is_dir():
            return tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size)
                                for p in path.iterdir() if p.name.lower().endswith(".csv")))
        st = path.stat()
    except OSError:
        return None                  # being replaced (save as: write new, rename): wait for it
    return st.st_mtime_ns, st.st_size


def watch(game_id: str, path: str | Path, *, interval: float = 1.0, max_imports: int = 1000,
          duration: float = 8 * 3600, say: Callable[[str], None] = print,
          sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> int:
    """Watch ``path`` and import it into ``game_id``'s cards on every save; returns
    the number of imports that were saved."""
    from workbench.tweak import open_session

    from . import card_sheets
    if not 0.1 <= interval <= 60:
        raise WorkbenchError(f"--interval {interval:g}: give 0.1 to 60 seconds")
    if not 1 <= max_imports <= MAX_IMPORTS:
        raise WorkbenchError(f"--max-imports {max_imports}: give 1 to {MAX_IMPORTS:,}")
    if not 0 < duration <= MAX_DURATION:
        raise WorkbenchError(f"--for {duration:g}: give up to {MAX_DURATION:,} seconds (a week)")
    path = Path(path)
    if not path.exists():
        raise WorkbenchError(f"{path}: no such file or folder")
    open_session(game_id=game_id)     # an unknown game or a broken card folder is said before watching
    seen = _stamp(path)
    pending = None
    saved = 0
    end = clock() + duration
    say(f"watching {path} for {game_id} (every {interval:g} s; Ctrl-C stops)")
    try:
        while clock() < end and saved < max_imports:
            sleep(interval)
            now = _stamp(path)
            if now is None or now == seen:
                pending = None
                continue
            if now != pending:           # changed since the last poll: let the program finish writing
                pending = now
                continue
            seen, pending = now, None
            try:
                session = open_session(game_id=game_id)
                result = card_sheets.import_file(session, path)
            except WorkbenchError as exc:
                say(f"refused, nothing saved: {exc}")
                continue
            if not result.any:
                say("saved sheet: no value differs from the cards")
                continue
            files = session.save(note=f"watch {path.name}", source="sheet")
            saved += 1
            for line in result.lines():
                say(f"  {line}")
            say("saved " + ", ".join(p.name for p in files))
    except KeyboardInterrupt:
        say("stopped")
    return saved


__all__ = ["watch"]
