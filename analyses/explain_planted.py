"""Planted multi-edit changes with a known main cause: does ``compare``'s
explanation name that edit as the largest share, and does reverting it take
back most of the effect?

For each game with a ``planted`` module (:mod:`workbench.tweak.planted`), each
of ``--sets`` sets holds three edits drawn with ``--seed``: the *main* edit, of
a kind whose effect the rules make certain and large (``--main-kind``, by
default the game's first of ``lower-track``, ``dearer-end``, ``stronger-card``),
one ``no-op`` edit and one ``dearer-card`` edit (a card made a little dearer;
falls back to a second no-op where the game has no such kind). Each set is
played as ``workbench compare`` plays it (the tweak session's streamed paired
playtest, ``--budget`` games per arm), then explained as ``compare`` explains
it (:func:`workbench.tweak.explain.explain`), and scored:

* *named*: the main edit has the largest absolute share of the explained metric;
* *revert*: the part of the effect that reverting the main edit alone takes
  back (``revert_share``), counted as reproduced when at least 0.8;
* the seconds from the verdict to the first part of the explanation (where
  the games part ways) and to the shares.

Writes ``analyses/out/explain_planted_<game>_seed<seed>.jsonl`` and prints a
line per set and the totals. Run: ``.venv/bin/python analyses/explain_planted.py
--game meaning-made --sets 10 --budget 120 [--workers 2]``. Too slow for the
test suite (tests/test_explain.py checks the machinery).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
MAIN_KINDS = ("lower-track", "dearer-end", "stronger-card")


def one_set(game_id: str, module, session, rng, main_kind: str, rates_at) -> list:
    from workbench.tweak.planted import NO_OP
    main = module.planted_edits(session, rng, main_kind, 1, pick_rates=rates_at)[0]
    noop = module.planted_edits(session, rng, NO_OP, 1, pick_rates=rates_at)[0]
    minor_kind = "dearer-card" if "dearer-card" in module.KINDS else NO_OP
    minor = module.planted_edits(session, rng, minor_kind, 1, players=[main.players], pick_rates=rates_at)[0]
    return [main, noop, minor]


def run_set(game_id: str, planted: list, budget: int, workers, seed: int, bots: str = "greedy") -> dict:
    from workbench.sim.verdicts import verdict_rows
    from workbench.tweak import open_session
    from workbench.tweak.explain import explain
    session = open_session(game_id)
    edits = []
    for p in planted:
        for card, field, value in p.edits:
            session.edit(card, field, value)
            edits.append((card, field, value))
    start = time.perf_counter()
    last = None
    for last in session.stream_playtest(n=budget, players=planted[0].players, seed=seed, workers=workers,
                                        bots=bots, first_preview=None):
        pass
    rows = verdict_rows(last)
    verdict_at = time.perf_counter() - start
    e = explain(last, edits, game_id=game_id, workers=workers, rows=rows)
    shares = (e.get("shares") or {}).get("shares") or []
    main_edits = [list(x) for x in planted[0].edits]
    named = bool(shares) and max(shares, key=lambda s: abs(s["contribution"]))["edit"] in main_edits
    revert = next((s["revert_share"] for s in shares if s["edit"] in main_edits), None)
    return {"edits": [p.to_dict() for p in planted], "metric": e["metric"], "games": last.games,
            "verdict_seconds": round(verdict_at, 2), "parting_seconds": e["seconds_to_parting"],
            "explain_seconds": e["seconds"], "named": named, "revert_share": revert,
            "shares": shares, "parting": e["parting"]["by_kind"][:3]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", default=[])
    p.add_argument("--sets", type=int, default=10)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--budget", type=int, default=120)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--main-kind", default=None)
    # a stronger card is a cause only for bots that read what the card gives (greedy:card_value=1)
    p.add_argument("--bots", default="greedy")
    args = p.parse_args()
    from workbench.core.registry import get_game
    from workbench.tweak import open_session
    from workbench.tweak.planted import pick_rates, planted_module
    OUT.mkdir(exist_ok=True)
    for game_id in args.game or ["meaning-made", "mandate-2038", "pax-transhumanity"]:
        module = planted_module(get_game(game_id))
        kind = args.main_kind or next(k for k in MAIN_KINDS if k in module.KINDS)
        session = open_session(game_id)
        rates: dict = {}

        def rates_at(n: int) -> dict:
            if n not in rates:
                rates[n] = pick_rates(game_id, n, workers=args.workers)
            return rates[n]

        tag = "" if args.bots == "greedy" else "_" + "".join(c if c.isalnum() else "-" for c in args.bots)
        path = OUT / f"explain_planted_{game_id}_seed{args.seed}{tag}.jsonl"
        done = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
        rng = random.Random(f"{args.seed}:{game_id}")
        for i in range(args.sets):
            planted = one_set(game_id, module, session, rng, kind, rates_at)
            if i < len(done):
                continue
            row = run_set(game_id, planted, args.budget, args.workers, args.seed + i, args.bots)
            done.append(row)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, default=str) + "\n")
            print(f"  set {i}: {planted[0].note}: named {row['named']}, revert {row['revert_share']}, "
                  f"metric {row['metric']}, parting {row['parting_seconds']} s, shares {row['explain_seconds']} s",
                  flush=True)
        named = sum(r["named"] for r in done)
        reverted = sum(1 for r in done if (r["revert_share"] or 0) >= 0.8)
        print(f"{game_id}: main edit ({kind}) named largest in {named} of {len(done)}; reverting it takes back "
              f">= 80 % of the effect in {reverted} of {len(done)}; median seconds to the parting "
              f"{sorted(r['parting_seconds'] for r in done)[len(done) // 2] if done else '-'}")


if __name__ == "__main__":
    main()
