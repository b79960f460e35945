"""How long the Rules page's first review takes: ``review(game, lang, spelling=True)``
in a fresh Python process (nothing cached: dictionaries, lexicons, glossaries are read
as the page reads them), for each bundled translation catalogue.

Prints, per catalogue, the CPU seconds of that process (user + system: what the review
costs, much less moved by other work on the machine than the wall time) and the wall
seconds, the median of ``--repeat`` runs, with the load average beside them. With
``--tree DIR``, the review of another checkout (a folder holding ``workbench/`` and
``cards/``, say an older commit unpacked with ``git archive``) is timed in the same
way, run for run interleaved with this one, so both see the same machine:

    python analyses/review_first_time.py [--repeat 3] [--tree /tmp/before] [--by-check]

With ``--by-check`` it prints instead the CPU seconds each clause check of the review
spends (one run per catalogue and tree), the share a change of one check moves.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SNIPPET = ("import sys; from workbench.rules.review import review; "
           "r = review(sys.argv[1], sys.argv[2], spelling=True); print(len(r.findings))")
# the same review, with the CPU seconds each clause check spends (its run method) printed
BY_CHECK = """
import json, sys, time
from workbench.rules import review_checks
from workbench.rules.review_checks.base import ClauseCheck
spent = {}
def wrap(cls):
    run = cls.run
    def timed(self, p):
        t = time.process_time()
        try:
            return run(self, p)
        finally:
            spent[cls.name] = spent.get(cls.name, 0.0) + time.process_time() - t
    cls.run = timed
def every(c):
    for s in c.__subclasses__():
        yield s
        yield from every(s)
for cls in set(every(ClauseCheck)):
    if "run" in cls.__dict__:
        wrap(cls)
from workbench.rules.review import review
r = review(sys.argv[1], sys.argv[2], spelling=True)
print(json.dumps({"findings": len(r.findings), "checks": spent}))
"""


def catalogues() -> list[tuple[str, str]]:
    """(game, language) of each bundled translation catalogue."""
    from workbench.core.registry import game_ids
    from workbench.rules.catalog import translation_languages
    return [(g, lang) for g in game_ids() for lang in translation_languages(g)]


def one_run(tree: Path, game: str, lang: str, by_check: bool = False) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", BY_CHECK if by_check else SNIPPET, game, lang], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tree", type=Path, default=None, help="another checkout, timed interleaved (before)")
    ap.add_argument("--by-check", action="store_true",
                    help="print the CPU seconds of each clause check instead (one run each; a check's share does not "
                         "depend on the load as the whole does)")
    a = ap.parse_args()
    trees = [("this", HERE)] + ([("other", a.tree.resolve())] if a.tree else [])
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if a.by_check:
        import json
        for game, lang in catalogues():
            for name, tree in trees:
                out = json.loads(one_run(tree, game, lang, True)[2].splitlines()[-1])
                top = sorted(out["checks"].items(), key=lambda x: -x[1])
                print(f"{game} {lang} [{name}] findings {out['findings']}, clause checks "
                      f"{sum(out['checks'].values()):.2f} CPU s: " + ", ".join(f"{k} {v:.2f}" for k, v in top[:8]))
        return
    print("| catalogue | tree | CPU s (median) | wall s (median) | findings |\n| --- | --- | --- | --- | --- |")
    for game, lang in catalogues():
        runs: dict[str, list] = {name: [] for name, _ in trees}
        for _ in range(a.repeat):
            for name, tree in trees:
                runs[name].append(one_run(tree, game, lang))
        for name, _ in trees:
            cpu = statistics.median(r[0] for r in runs[name])
            wall = statistics.median(r[1] for r in runs[name])
            print(f"| {game} {lang} | {name} | {cpu:.2f} | {wall:.2f} | {runs[name][-1][2]} |")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
