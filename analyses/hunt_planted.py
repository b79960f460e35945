"""Planted defects: does ``workbench hunt`` flag a pool broken on purpose, and
how many findings does it make on the unchanged pools that a larger run does
not confirm?

For each game with a ``defects`` module (:mod:`workbench.hunt.planted`), draws
``--per-kind`` defects of each kind (seeded: ``--seed``; every kind goes round
the player counts), hunts each one as ``workbench hunt --edit ...`` would
(``--budget`` games, ``--seconds`` bound, ``--workers``), and counts it
*flagged* when a finding names it and its witness game replays. Writes one
line per defect to ``analyses/out/hunt_planted_<game>_seed<seed>.jsonl``
(appended as each finishes; a rerun skips the defects already there) and
prints per kind: defects, flagged, share with its 95 % Wilson interval, the
median games and seconds.

``--unchanged N`` instead hunts the bundled pool N times (hunt seeds
``--first-seed`` .. ``--first-seed`` + N - 1, default 1 .. N)
and checks each finding with one larger run (``--confirm-budget`` games, hunt
seed 9001): a finding is *confirmed* when the larger run reports a finding
of the same kind on the same subject. Prints the findings per run and the
unconfirmed ones.

Run: ``.venv/bin/python analyses/hunt_planted.py --game meaning-made --per-kind 5
--budget 1200 [--seconds 540] [--workers 2] [--seed 7]`` or
``... --game meaning-made --unchanged 20 --budget 600``.
Too slow for the test suite (tests/test_hunt.py runs the machinery on the toy game).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def _wilson(k: int, n: int) -> tuple[float, float]:
    from workbench.sim.intervals import proportion
    iv = proportion(k, n)
    return (iv.low, iv.high) if iv.known else (0.0, 1.0)


def planted(game_id: str, per_kind: int, seed: int, args) -> list[dict]:
    from workbench.core.registry import get_game
    from workbench.hunt.planted import defects_module, run_defect
    from workbench.tweak import open_session
    from workbench.tweak.planted import pick_rates
    game = get_game(game_id)
    module = defects_module(game)
    if module is None:
        print(f"{game_id}: no defects module", file=sys.stderr)
        return []
    session = open_session(game_id)
    rates: dict[int, dict] = {}

    def rates_at(n: int) -> dict:
        if n not in rates:
            rates[n] = pick_rates(game_id, n, workers=args.workers)
        return rates[n]

    path = OUT / f"hunt_planted_{game_id}_seed{seed}.jsonl"
    OUT.mkdir(exist_ok=True)
    done = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done[(row["kind"], row["i"])] = row
    kinds = [k for k in module.KINDS if not args.kind or k in args.kind]
    for kind in kinds:
        rng = random.Random(f"{seed}:{game_id}:{kind}")
        for i, defect in enumerate(module.planted_defects(session, rng, kind, per_kind, pick_rates=rates_at)):
            if (kind, i) in done:
                continue
            row = run_defect(game_id, defect, seed=seed + i, workers=args.workers, budget=args.budget,
                             seconds=args.seconds, out=None)
            row["i"] = i
            done[(kind, i)] = row
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            print(f"  {kind} {i}: {defect.note}: {'FLAGGED' if row['flagged'] else 'missed'} "
                  f"({row['games']} games, {row['seconds']:.0f} s; findings "
                  f"{[(f['kind'], f['subject']) for f in row['findings']]})", flush=True)
    rows = [r for r in done.values() if r["kind"] in kinds]
    print(f"\n{game_id}, seed {seed}, budget {args.budget} games, {args.seconds:.0f} s bound\n")
    print("| kind | defects | flagged | share (95 % interval) | median games | median s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in kinds:
        rs = [r for r in rows if r["kind"] == kind]
        if not rs:
            continue
        k = sum(r["flagged"] for r in rs)
        lo, hi = _wilson(k, len(rs))
        print(f"| {kind} | {len(rs)} | {k} | {k / len(rs):.2f} ({lo:.2f}-{hi:.2f}) | "
              f"{statistics.median(r['games'] for r in rs):.0f} | {statistics.median(r['seconds'] for r in rs):.0f} |")
    return rows


def unchanged(game_id: str, runs: int, args) -> None:
    from workbench.hunt import run_hunt
    path = OUT / f"hunt_unchanged_{game_id}{f'_{args.players}p' if args.players else ''}_budget{args.budget}.jsonl"
    OUT.mkdir(exist_ok=True)
    docs = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            docs[row["seed"]] = row
    for s in range(args.first_seed, args.first_seed + runs):
        if s in docs:
            continue
        doc = run_hunt(game_id, players=args.players, seed=s, workers=args.workers, budget=args.budget, seconds=args.seconds,
                       witnesses=False)
        row = {"seed": s, "games": doc["games"], "seconds": doc["elapsed"],
               "findings": [[f["kind"], f["subject"], f["effect"], f["low"]] for f in doc["findings"]]}
        docs[s] = row
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        print(f"  run {s}: {row['findings']} ({row['games']} games, {row['seconds']:.0f} s)", flush=True)
    found = {(f[0], f[1]) for r in docs.values() for f in r["findings"]}
    confirmed = set()
    if found:
        big = run_hunt(game_id, players=args.players, seed=9001, workers=args.workers, budget=args.confirm_budget,
                       seconds=args.seconds * 4, witnesses=False, max_confirmations=40)
        confirmed = {(f["kind"], f["subject"]) for f in big["findings"]}
        print(f"  larger run ({big['games']} games): {sorted(confirmed)}")
    bad = [(r["seed"], f[0], f[1]) for r in docs.values() for f in r["findings"] if (f[0], f[1]) not in confirmed]
    print(f"\n{game_id}: {len(docs)} runs, {sum(len(r['findings']) for r in docs.values())} findings, "
          f"{len(bad)} not confirmed by the larger run: {bad}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", default=[])
    p.add_argument("--kind", action="append", default=[])
    p.add_argument("--per-kind", type=int, default=5)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--budget", type=int, default=1200)
    p.add_argument("--seconds", type=float, default=540.0)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--unchanged", type=int, default=0)
    p.add_argument("--confirm-budget", type=int, default=4000)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--players", type=int, default=None, help="with --unchanged: the table's players")
    args = p.parse_args()
    games = args.game or ["meaning-made", "mandate-2038", "pax-transhumanity"]
    rows = {}
    for g in games:
        if args.unchanged:
            unchanged(g, args.unchanged, args)
        else:
            rows[g] = planted(g, args.per_kind, args.seed, args)
    if len(rows) > 1:
        # every game's kinds in one table, as docs/hunt.md shows them
        print(f"\nall games, seed {args.seed}, budget {args.budget} games, {args.seconds:.0f} s bound\n")
        print("| game | kind | defects | flagged | named by | median games | median s |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for g, rs in rows.items():
            for kind in dict.fromkeys(r["kind"] for r in rs):
                k_rows = [r for r in rs if r["kind"] == kind]
                named = sorted({f["kind"] for r in k_rows if r["flagged"] for f in r["findings"]})
                print(f"| {g} | {kind} | {len(k_rows)} | {sum(r['flagged'] for r in k_rows)} | "
                      f"{', '.join(named) or '-'} | {statistics.median(r['games'] for r in k_rows):.0f} | "
                      f"{statistics.median(r['seconds'] for r in k_rows):.0f} |")


if __name__ == "__main__":
    main()
