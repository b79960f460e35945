"""Precision and recall of the translation review, by kind of planted mistake.

Plants mistakes of each kind (workbench.rules.planting) in every clause of every
bundled game, in both directions, and correct rewordings; prints, per kind, how
many the review caught (mistakes) or flagged (rewordings, false alarms).

    python analyses/review_planted.py [--seed 2038] [--per-kind 200] [--misses KIND]
"""

from __future__ import annotations

import argparse

from workbench.core.registry import game_ids
from workbench.rules.planting import MISTAKE_KINDS, REWORDING_KINDS, measure


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2038)
    ap.add_argument("--per-kind", type=int, default=200)
    ap.add_argument("--misses", default="", help="print the misses (or false alarms) of this kind")
    a = ap.parse_args()
    res = measure(list(game_ids()), seed=a.seed, per_kind=a.per_kind)
    caught = planted = fa = correct = 0
    print("| kind | caught | recall |\n| --- | --- | --- |")
    for k in MISTAKE_KINDS:
        r = res.get(k)
        if r:
            caught += r.flagged
            planted += r.total
            print(f"| {k} | {r.flagged} / {r.total} | {r.flagged / r.total:.0%} |")
    print("\n| correct rewording | false alarms | rate |\n| --- | --- | --- |")
    for k in REWORDING_KINDS:
        r = res.get(k)
        if r:
            fa += r.flagged
            correct += r.total
            print(f"| {k} | {r.flagged} / {r.total} | {r.flagged / r.total:.1%} |")
    print(f"\nrecall {caught}/{planted} = {caught / max(planted, 1):.1%}; false alarms {fa}/{correct} = "
          f"{fa / max(correct, 1):.1%}; precision {caught}/{caught + fa} = {caught / max(caught + fa, 1):.1%} "
          "(with as many rewordings as mistakes)")
    if a.misses:
        r = res.get(a.misses)
        if a.misses in MISTAKE_KINDS:
            for v in r.misses:
                print(f"- {v.pair.clause} {v.pair.src_lang}->{v.pair.tr_lang}: {v.note}")
        else:
            for v, new in r.hits:
                print(f"- {v.pair.clause} {v.pair.src_lang}->{v.pair.tr_lang}: {v.note}: {new}")


if __name__ == "__main__":
    main()
