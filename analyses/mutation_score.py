"""The mutation score of every bundled game, as the Markdown tables docs/rules.md shows (issue 43).

For each game, ``workbench check GAME --mutants --budget N`` (seed 1, every core): the kill
rate in all and per rules module, the time it took and the load beside it. The score is a
count and does not depend on the load; the time does (the target is 20 minutes a game on two
cores). With ``--from FILE.json ...`` it renders saved ``--json`` outputs instead of running.

    python analyses/mutation_score.py [--budget 300] [GAME ...]
    python analyses/mutation_score.py --from mm.json mandate.json pax.json
"""

from __future__ import annotations

import argparse
import json
import os
import time


def _rate(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f} %" if n else "n/a"


def markdown(doc: dict, seconds: float | None = None, load: str | None = None) -> str:
    t = doc["total"]
    eq = t["equivalent"]
    head = (f"**{doc['game']}**: {t['killed']} of {t['planted']} sampled mutants killed "
            f"({_rate(t['killed'], t['planted'])})")
    if eq:
        head += f"; {eq} ruled equivalent, so {_rate(t['killed'], t['planted'] - eq)} of the rest"
    head += (f"; {t['survived']} survive, {t['unreached']} of them on lines no check reaches. "
             f"Population {doc['population']} mutants in {len(doc['modules'])} modules; "
             f"{doc['checks']} checks; the mutants took {doc['seconds']:.0f} s on {doc['workers']} workers")
    if seconds is not None:
        head += f" ({seconds:.0f} s in all"
        head += f", load {load})" if load else ")"
    lines = [head + ".", "", "| module | killed | of | rate |", "| --- | ---: | ---: | ---: |"]
    for module, m in doc["by_module"].items():
        lines.append(f"| `{module.rpartition('.')[2]}` | {m['killed']} | {m['planted']} | "
                     f"{_rate(m['killed'], m['planted'])} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    ap.add_argument("--budget", type=int, default=300)
    ap.add_argument("--from", dest="files", nargs="+", default=None, metavar="FILE.json")
    args = ap.parse_args()
    if args.files:
        for path in args.files:
            with open(path, encoding="utf-8") as fh:
                print(markdown(json.load(fh)) + "\n")
        return
    from workbench.core.registry import game_ids
    from workbench.mutation.report import to_dict
    from workbench.mutation.run import run_mutants
    for game in args.games or game_ids():
        t0 = time.perf_counter()
        run = run_mutants(game, budget=args.budget, seed=1)
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        print(markdown(to_dict(run), time.perf_counter() - t0, load) + "\n", flush=True)


if __name__ == "__main__":
    main()
