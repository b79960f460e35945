"""Precision and recall of the translation review, by kind of planted mistake.

Plants mistakes of each kind (workbench.rules.planting) in every clause of every
bundled game, in both directions, and correct rewordings; prints, per kind, how
many the review caught (mistakes) or flagged (rewordings, false alarms), one column
per seed and one for all the seeds together:

    python analyses/review_planted.py [--seed 2038[,52,...]] [--per-kind 200] [--misses KIND] [--kinds K1,K2]

(--kinds reviews only those kinds, on the same sample a full run reviews.)
"""

from __future__ import annotations

import argparse

from workbench.core.registry import game_ids
from workbench.rules.planting import MISTAKE_KINDS, REWORDING_KINDS, measure


def _cell(flagged: int, total: int) -> str:
    return f"{flagged} / {total} ({flagged / total:.0%})" if total else "-"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", default="2038", help="a seed, or several joined by commas")
    ap.add_argument("--per-kind", type=int, default=200)
    ap.add_argument("--kinds", default="", help="review only these kinds (joined by commas)")
    ap.add_argument("--misses", default="", help="print the misses (or false alarms) of this kind")
    a = ap.parse_args()
    seeds = [int(x) for x in a.seed.split(",") if x.strip()]
    runs = {s: measure(list(game_ids()), seed=s, per_kind=a.per_kind,
                       only=[k for k in a.kinds.split(",") if k] or None) for s in seeds}
    head = " | ".join(f"seed {s}" for s in seeds) + (" | all" if len(seeds) > 1 else "")
    rule = " | ".join("---" for _ in seeds) + (" | ---" if len(seeds) > 1 else "")
    sums: dict[str, list[int]] = {}
    for title, kinds in (("kind (caught)", MISTAKE_KINDS), ("correct rewording (false alarms)", REWORDING_KINDS)):
        print(f"\n| {title} | {head} |\n| --- | {rule} |")
        for k in kinds:
            if a.kinds and k not in a.kinds.split(","):
                continue
            cells, f_all, t_all = [], 0, 0
            for s in seeds:
                r = runs[s].get(k)
                f, t = (r.flagged, r.total) if r else (0, 0)
                cells.append(_cell(f, t))
                f_all, t_all = f_all + f, t_all + t
                tot = sums.setdefault(f"{title}:{s}", [0, 0])
                tot[0] += f
                tot[1] += t
            if len(seeds) > 1:
                cells.append(_cell(f_all, t_all))
            print(f"| {k} | " + " | ".join(cells) + " |")
    for s in seeds:
        c, p = sums.get(f"kind (caught):{s}", [0, 0])
        fa, n = sums.get(f"correct rewording (false alarms):{s}", [0, 0])
        print(f"\nseed {s}: recall {c}/{p} = {c / max(p, 1):.1%}; false alarms {fa}/{n} = {fa / max(n, 1):.1%}")
    if a.misses:
        for s in seeds:
            r = runs[s].get(a.misses)
            if r is None:
                continue
            print(f"\nseed {s}, {a.misses}:")
            if a.misses in MISTAKE_KINDS:
                for v in r.misses:
                    print(f"- {v.pair.clause} {v.pair.src_lang}->{v.pair.tr_lang}: {v.note}")
            else:
                for v, new in r.hits:
                    print(f"- {v.pair.clause} {v.pair.src_lang}->{v.pair.tr_lang}: {v.note}: {new}")


if __name__ == "__main__":
    main()
