"""Repeated fault trials of card saves, for the figures in docs/reliability.md.

``python tests/save_trials.py [--trials N]`` runs N races (two processes saving
the same card file at the same instant) and N kills (``kill -9`` at a random
moment of a loop of two-file saves), and prints what happened:

- races: how often both reported "saved" and how often an edit reported saved
  is missing from the file (lost updates; both goals 0);
- kills: how often the two files were from different saves, or temp files were
  left, before the next load (what the journal and the clean-up are for), and
  after it (goals 0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.core import cardfile  # noqa: E402
from workbench.core.data import cards_dir, safe_load_text  # noqa: E402

from test_reliability_saves import CTX, _leftovers, _racer, _saver  # noqa: E402


def races(n: int) -> dict:
    both = lost = refused = none = 0
    for _ in range(n):
        folder = Path(tempfile.mkdtemp(prefix="race-"))
        path = folder / "patterns.yaml"
        shutil.copyfile(cards_dir("meaning-made") / "patterns.yaml", path)
        barrier, out = CTX.Barrier(2), CTX.Queue()
        procs = [CTX.Process(target=_racer, args=(str(path), layer, barrier, out)) for layer in (2, 3)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        results = dict(out.get(timeout=10) for _ in procs)
        saved = [layer for layer, what in results.items() if what == "saved"]
        both += len(saved) > 1
        refused += len(saved) == 1
        none += not saved
        final = cardfile.load(path).data["patterns"][0]["layer"]
        lost += sum(layer != final for layer in saved)  # reported saved, not in the file
        shutil.rmtree(folder, ignore_errors=True)
    return {"trials": n, "both_saved": both, "one_saved_one_refused": refused, "none_saved": none,
            "lost_updates": lost}


def kills(n: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    mixed_before = left_before = mixed_after = left_after = 0
    for _ in range(n):
        folder = Path(tempfile.mkdtemp(prefix="kill-"))
        for name in ("a.yaml", "b.yaml"):
            (folder / name).write_text(f"# {name}\nname: {name}\ngen: 0\n", encoding="utf-8")
        ready = CTX.Event()
        proc = CTX.Process(target=_saver, args=(str(folder), ready))
        proc.start()
        ready.wait(30)
        time.sleep(rng.uniform(0.05, 0.4))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(10)
        gens = [safe_load_text((folder / n).read_text(encoding="utf-8"))["gen"] for n in ("a.yaml", "b.yaml")]
        mixed_before += gens[0] != gens[1]
        left_before += bool(_leftovers(folder))
        a, b = cardfile.load(folder / "a.yaml"), cardfile.load(folder / "b.yaml")
        mixed_after += a.data["gen"] != b.data["gen"]
        left_after += bool(_leftovers(folder))
        shutil.rmtree(folder, ignore_errors=True)
    return {"trials": n, "mixed_before_next_load": mixed_before, "temp_files_before_next_load": left_before,
            "mixed_after": mixed_after, "temp_files_after": left_after}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    args = parser.parse_args()
    doc = {"races": races(args.trials), "kills": kills(args.trials)}
    print(json.dumps(doc, indent=1))
    bad = doc["races"]["both_saved"] + doc["races"]["lost_updates"] + doc["kills"]["mixed_after"] \
        + doc["kills"]["temp_files_after"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
