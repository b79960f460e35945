"""Every proposed scenario of the scaffold's game, saved unchanged: does each kill its mutant?

Makes a game with ``workbench new-game`` in a scratch folder, scores its scenarios with
``workbench check GAME --mutants --budget 0 --propose DIR`` (every mutant of its rules
modules), copies every proposed scenario unchanged into the game's scenarios folder and
scores it again. Prints both scores, how many proposals were written, and for each whether
the rerun kills its mutant and by which check. The figures are counts (the search plays
seeded games), so they do not depend on the load; the times printed beside them do.

    python analyses/scaffold_proposals.py [--games 12] [--workers K]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

GAME, PACKAGE = "tiny-market", "tiny_market"


def _workbench(args: list[str], env: dict) -> dict:
    done = subprocess.run([sys.executable, "-m", "workbench", *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"workbench {' '.join(args)} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout) if "--json" in args else {}


def _score(doc: dict) -> str:
    t = doc["total"]
    return (f"{t['killed']} of {t['planted']} killed ({100.0 * t['killed'] / t['planted']:.1f} %), "
            f"{doc['checks']} checks, {doc['seconds']:.0f} s on {doc['workers']} workers")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12, help="games searched per survivor (default 12)")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    from workbench.core import storage

    work = storage.scratch_folder("scaffold-proposals-")
    try:
        dest, proposed = work / "game", work / "proposed"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(dest), os.environ.get("PYTHONPATH")]))}
        _workbench(["new-game", GAME, str(dest)], env)
        # the entry point `pip install -e` would write, so the registry finds the game
        info = dest / f"{PACKAGE}-0.1.0.dist-info"
        storage.make_folder(info, "the scaffold's dist-info")
        storage.write_text(info / "METADATA", f"Metadata-Version: 2.1\nName: {GAME}\nVersion: 0.1.0\n")
        storage.write_text(info / "entry_points.txt", f"[workbench.games]\n{GAME} = {PACKAGE}:GAME\n")
        common = ["check", GAME, "--mutants", "--budget", "0", "--json"]
        if args.workers:
            common += ["--workers", str(args.workers)]
        t0 = time.perf_counter()
        before = _workbench(common + ["--propose", str(proposed), "--games", str(args.games)], env)
        files = sorted(proposed.glob("*.yaml"))
        scenarios = dest / PACKAGE / "cards" / "scenarios"
        for f in files:  # saved unchanged
            storage.write_bytes(scenarios / f.name, f.read_bytes())
        after = _workbench(common, env)
        seconds = time.perf_counter() - t0
    finally:
        storage.remove_scratch(work)
    by_id = {m["id"]: m for m in after["mutants"]}
    written = [m for m in before["mutants"] if (m.get("proposal") or {}).get("file")]
    unwritten = [m for m in before["mutants"] if m["status"] in ("survived", "unreached") and m not in written]
    own = sum(by_id[m["id"]]["by"] == f"scenario:{Path(m['proposal']['file']).name}" for m in written)
    killed = sum(by_id[m["id"]]["status"] == "killed" for m in written)
    print(f"{GAME} as new-game writes it: {_score(before)}")
    print(f"with every proposal saved unchanged: {_score(after)}")
    print(f"proposals written: {len(written)} of {len(written) + len(unwritten)} survivors; saved unchanged, "
          f"{killed} kill their mutant ({own} by their own file)")
    for m in written:
        a = by_id[m["id"]]
        print(f"  {m['id']} {m['before']!r} => {m['after']!r}: {a['status']} by {a['by']}")
    for m in unwritten:
        print(f"  {m['id']} {m['before']!r} => {m['after']!r}: no proposal ({m['proposal']['summary']})")
    print(f"{seconds:.0f} s in all; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
