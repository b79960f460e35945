"""Refresh the README's pictures in ``docs/screenshots/``.

The browser tests save their screenshots in a temporary folder, so running the
suite never rewrites a tracked file. This command runs the same browser tests
with ``$WORKBENCH_SCREENSHOTS`` pointed at ``docs/screenshots/``, so the pictures
the docs show are the pages the tests just checked:

    .venv/bin/python -m tests.browser.refresh_screenshots            # every browser test
    .venv/bin/python -m tests.browser.refresh_screenshots -k graph   # extra pytest arguments

It exits with pytest's exit code; a failing test leaves the pictures it took
before failing (commit only what you looked at)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "screenshots"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    env = {**os.environ, "WORKBENCH_SCREENSHOTS": str(FOLDER)}
    command = [sys.executable, "-m", "pytest", "tests/browser", "-p", "no:randomly", "-q", *argv]
    print(f"refreshing {FOLDER.relative_to(ROOT)}/ with: {' '.join(command[2:])}", flush=True)
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
