"""Training-run odds for Mandate 2038, computed exactly (fractions, dynamic
programming over the deck's composition) and tabulated with polars.

Tables (printed, and written as CSV under ``analyses/out/``):

- ``training_crash_by_draw``: drawing on and on, the chance to reach the k-th card and
  the chance it crashes;
- ``training_stopping_rules``: expected banked Capability and crash chance of "stop
  after k cards", "stop at t provisional Capability" and the best rule, without and
  with the Research district's extra Capability;
- ``training_decisions``: for runs that have seen n domains with p provisional
  Capability, whether drawing once more beats banking, and by how much.

Usage::

    .venv/bin/python analyses/training_odds.py [--discard "Code,Science,Human Evaluation"] [--no-write]

``--discard`` removes cards from the deck first (a partly drawn deck).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

import polars as pl

from workbench.games.mandate_2038 import odds
from workbench.games.mandate_2038.data import DOMAINS, load_content

OUT = Path(__file__).resolve().parent / "out"


def crash_table(comp) -> pl.DataFrame:
    rows = odds.crash_by_draw(comp, max_draws=10)
    return pl.DataFrame({
        "draw": [r["draw"] for r in rows],
        "p_reach": [float(r["p_reach"]) for r in rows],
        "p_crash_here": [float(r["p_crash_here"]) for r in rows],
        "p_crash_here_exact": [str(r["p_crash_here"]) for r in rows],
        "p_crash_total": [float(r["p_crash_total"]) for r in rows],
    })


def stopping_rules(comp) -> pl.DataFrame:
    rows = []
    for bonus in (0, 1):
        for k in range(1, 9):
            r = odds.run_value(comp, lambda n, p, k=k: n >= k, bonus)
            rows.append(("stop after cards", k, bonus, r))
        for t in range(1, 9):
            r = odds.run_value(comp, lambda n, p, t=t: p >= t, bonus)
            rows.append(("stop at provisional", t, bonus, r))
        rows.append(("best rule", None, bonus, odds.optimal_run(comp, bonus)))
    return pl.DataFrame({
        "rule": [r[0] for r in rows],
        "threshold": [r[1] for r in rows],
        "research_bonus": [r[2] for r in rows],
        "expected_capability": [float(r[3]["expected"]) for r in rows],
        "expected_exact": [str(r[3]["expected"]) for r in rows],
        "p_crash": [float(r[3]["p_crash"]) for r in rows],
    }, schema_overrides={"threshold": pl.Int64})


def decisions(comp) -> pl.DataFrame:
    """After drawing n distinct domains (the first n in the deck's order, each card of
    them out of the deck) and l Benchmark Leaks: bank now or draw?"""
    rows = []
    for n in range(0, 8):
        for leaks in range(0, 3):
            if n == 0 and leaks == 0:
                continue
            drawn = list(DOMAINS[:n]) + ["Benchmark Leak"] * leaks
            try:
                left = odds.remaining_after(comp, drawn)
            except ValueError:
                continue
            seen = frozenset(range(n))
            prov = n + 2 * leaks
            draw = odds.draw_value(left, seen, prov)
            step = odds.one_draw(left, seen, prov)
            rows.append({"domains_seen": n, "leaks": leaks, "provisional": prov,
                         "p_next_crash": step["p_crash"], "value_if_draw": float(draw),
                         "gain_of_drawing": float(draw - Fraction(prov)), "best": "draw" if draw > prov else "bank"})
    return pl.DataFrame(rows)


def main(argv=None) -> dict[str, pl.DataFrame]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--discard", default="", help="comma-separated cards already out of the deck")
    ap.add_argument("--no-write", action="store_true", help="print only, write no CSV")
    args = ap.parse_args(argv)
    comp = odds.full_deck(load_content())
    drawn = [c.strip() for c in args.discard.split(",") if c.strip()]
    if drawn:
        comp = odds.remaining_after(comp, drawn)
    tables = {"training_crash_by_draw": crash_table(comp), "training_stopping_rules": stopping_rules(comp),
              "training_decisions": decisions(comp)}
    with pl.Config(tbl_rows=60, tbl_cols=10, fmt_str_lengths=24):
        for name, df in tables.items():
            print(f"== {name} (deck: {sum(comp)} cards) ==")
            print(df)
    if not args.no_write:
        OUT.mkdir(parents=True, exist_ok=True)
        for name, df in tables.items():
            df.write_csv(OUT / f"{name}.csv")
    return tables


if __name__ == "__main__":
    main()
