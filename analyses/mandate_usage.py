"""Mandate 2038 action usage and faction balance of a card variant (issue 15).

Plays ``--games`` four-player games (by default all-greedy) of the Mandate
cards with some values set, the same games ``workbench simulate mandate-2038
--seed S`` plays (game ``i`` seeded ``derive_seed(S, "game", i)``), and prints
one JSON line: each Core Action's share of selections (``action_usage``), the
least-used share, ``faction_gap`` and ``seat_gap``, each with a 95% percentile
bootstrap interval over games (1000 resamples, seeded), and every faction's win
rate with its 95% Wilson interval. All figures are the metrics of
``workbench/sim/metrics.py``.

``--set PATTERN=VALUE`` (repeatable) sets every value a ``workbench balance
--vary`` pattern names (``tiles.*.compute=0``, ``agi.*.poweredFacilities=1``,
``facility.Facility.fundConservative=5``); seed values are allowed here, on a
scratch copy of the cards that is thrown away (the bundled cards are never
written). The copy is validated by the game's loader, as a balance trial is.

Run (about 30 s per 100 greedy games on one core)::

    PYTHONPATH=. python analyses/mandate_usage.py --games 100 --seed 3814346044063013618 \\
        --set "tiles.*.runway=0" --set "tiles.*.compute=0" --set "agi.*.poweredFacilities=1" \\
        --set "facility.Facility.fundConservative=5"
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from workbench.balance.pools import game_ref, write_pool
from workbench.core.errors import WorkbenchError
from workbench.tweak.pool_session import PoolTweakSession
from workbench.sim import SimSpec, simulate
from workbench.sim.metrics import MetricData, compute_all

RESAMPLES = 1000


def figures(values: dict) -> dict[str, float]:
    """The figures reported, from :func:`compute_all`'s values."""
    out = {f"share_{k.lower()}": v for k, v in (values["action_usage"] or {}).items()}
    out.update(least_used=values["action_usage_min"], faction_gap=values["role_gap"], seat_gap=values["seat_gap"])
    return out


def interval_report(data: MetricData, seed: int = 0) -> dict[str, list[float]]:
    """``{figure: [value, low, high]}``: each figure with its 95% percentile
    bootstrap interval over games."""
    point = figures(compute_all(data))
    rng = np.random.default_rng(seed)
    boots = [figures(compute_all(data.take(rng.integers(0, data.n, data.n)))) for _ in range(RESAMPLES)]
    return {k: [v, float(np.percentile([b[k] for b in boots], 2.5)), float(np.percentile([b[k] for b in boots], 97.5))]
            for k, v in point.items()}


def variant(settings: list[str]) -> tuple[PoolTweakSession, dict]:
    """The bundled Mandate cards with each ``PATTERN=VALUE`` set, validated."""
    session = PoolTweakSession("mandate-2038")
    values, chosen = {}, []
    for item in settings:
        pattern, sep, value = item.rpartition("=")
        if not sep or not pattern or not value.lstrip("-").isdigit():
            raise WorkbenchError(f"--set {item!r}: write PATTERN=VALUE, e.g. 'tiles.*.compute=0'")
        found, _ = session.variables([pattern], allow_seed=True)
        for var in found:
            values[var.name] = int(value)
            chosen.append(var)
    return session, session.with_values(values, chosen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3814346044063013618)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], dest="settings", metavar="PATTERN=VALUE")
    args = parser.parse_args(argv)
    try:
        session, raw = variant(args.settings)
        with tempfile.TemporaryDirectory(prefix="mandate-usage-") as tmp:
            folder = write_pool(raw, session.folder, Path(tmp))
            result = simulate(SimSpec(game_ref(folder, "mandate-2038"), games=args.games, players=4,
                                      bots=args.bots, seed=args.seed), workers=args.workers)
    except WorkbenchError as exc:
        print(f"mandate_usage: {exc}", file=sys.stderr)
        return 1
    report = {"settings": args.settings, "games": args.games, "seed": args.seed, "bots": args.bots,
              **interval_report(result.metric_data()),
              "factions": {r["role"]: [r["win_rate"], r["ci_low"], r["ci_high"]] for r in result.role_summary()}}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
