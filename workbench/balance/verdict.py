"""Whether a balance proposal may be offered, and how to make it smaller.

**Offered or not.** A proposal is offered (Apply enabled on the Balance page,
``--apply`` honoured by ``workbench balance``) only when its fresh-seed check
(:func:`workbench.balance.report.fresh_check`) meets every target with the 95%
interval on the right side of the band, not just the point value, and on at
least :data:`MIN_FRESH_GAMES` games per player count (the intervals are
:mod:`workbench.sim.intervals`': Wilson for a share of games, so eight games
that all survive read [0.68, 1.00], not [1, 1]). Otherwise :func:`judge` says
what would settle it, in the words of whoever asked (:data:`CLI_NAMES`, the
command line's options; the Balance page passes its own field names):

- the value is inside the band but the interval crosses its edge: the games per
  player count that would bring the interval inside, from the observed spread
  (an interval narrows as one over the square root of the games; the side that
  crosses is the one measured), as
  ``--fresh-games`` and the matching ``--games-per-trial`` (half of it, the
  default ratio);
- the value is outside the band, or on its edge: more games will not help; the
  search needs more trials (twice as many is the suggestion) or a wider
  ``--vary``/``--margin``.

**Fewer edits.** :func:`prune` runs after the search: it takes the best trial's
edits back, a block at a time and then one at a time, and keeps each removal
whose pool still misses the targets by no more than the full proposal did, on
the search's own seeds (the same games, so the comparison is exact). What is
left changes as few values as reach the same fit.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

#: fewest fresh games per player count for a proposal to be offered
MIN_FRESH_GAMES = 40
#: how much wider than the bare estimate the games asked for are (the spread
#: itself is estimated)
SAFETY = 1.2
#: how advice names the settings it changes, on the command line
CLI_NAMES = {"trials": "--trials {n}", "fresh": "--fresh-games {n}", "per_trial": "--games-per-trial {n}",
             "vary": "a wider --vary", "margin": "--margin"}


def _sure(t, low, high) -> bool:
    if low is None or high is None:
        return False
    return (t.low is None or low >= t.low) and (t.high is None or high <= t.high)


def _edge_distance(t, value) -> float:
    sides = [value - t.low] if t.low is not None else []
    if t.high is not None:
        sides.append(t.high - value)
    return min(sides) if sides else math.inf


def judge(rows: list[dict], targets, *, games: int, trials: int, names: dict | None = None) -> dict:
    """``{offered, reasons, fresh_games_needed, games_per_trial_needed,
    trials_needed}`` for the fresh-check ``rows`` of a proposal (the numbers are
    None where they are not what stands in the way)."""
    names = names or CLI_NAMES
    by_text = {t.text: t for t in targets}
    reasons: list[str] = []
    need_games, need_trials = 0, None
    if games < MIN_FRESH_GAMES:
        need_games = MIN_FRESH_GAMES
        reasons.append(f"the fresh check played {games} games per player count; at least {MIN_FRESH_GAMES} "
                       "are needed before its intervals can be trusted")
    for r in rows:
        t = by_text[r["target"]]
        where = f"{r['target']} at {r['players']} players"
        value, low, high = r["after"], r["after_low"], r["after_high"]
        if _sure(t, low, high):
            continue
        if value is None or not t.met(value):
            need_trials = 2 * trials
            reasons.append(f"{where}: the proposal misses it ({_num(value)}); more games will not help, the "
                           f"search needs more trials (try {names['trials'].format(n=2 * trials)}) or "
                           f"{names['vary']}")
            continue
        distance = _edge_distance(t, value)
        if low is None or high is None:
            need_games = max(need_games, MIN_FRESH_GAMES)
            note = r.get("after_note") or "no interval"
            reasons.append(f"{where}: {note} (from {games} game(s))")
            continue
        if distance <= 1e-12:
            need_trials = 2 * trials
            reasons.append(f"{where}: the proposal sits on the edge of the band ({_num(value)}); no number of "
                           f"games will put the interval inside: try {names['trials'].format(n=2 * trials)} "
                           f"or {names['margin']}")
            continue
        # how much the interval must shrink: on each side it crosses, its reach
        # beyond the value over the room the band leaves (a bootstrap interval
        # need not be symmetric, so the crossing side is measured, not the half
        # width; always > 1, so more games than were played are asked for)
        shrink = max(((value - low) / (value - t.low) if t.low is not None and low < t.low else 0.0),
                     ((high - value) / (t.high - value) if t.high is not None and high > t.high else 0.0))
        n = max(games + 1, math.ceil(games * shrink ** 2 * SAFETY))
        need_games = max(need_games, n)
        reasons.append(f"{where}: {_num(value)} is inside but the interval [{_num(low)}, {_num(high)}] crosses "
                       f"the band's edge; about {n} games per player count would decide it")
    offered = not reasons
    return {"offered": offered, "reasons": reasons,
            "fresh_games_needed": need_games or None,
            "games_per_trial_needed": math.ceil(need_games / 2) if need_games else None,
            "trials_needed": need_trials}


def _num(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def summary_line(verdict: dict, edits: int, names: dict | None = None) -> str:
    """One sentence for the page and the command line (``names``: see :func:`judge`)."""
    names = names or CLI_NAMES
    if not edits:
        return "nothing to apply: the cards as they are fit best"
    if verdict["offered"]:
        return "offered: every target is met on fresh seeds with its interval inside the band"
    asks = []
    if verdict["fresh_games_needed"]:
        asks.append(f"{names['fresh'].format(n=verdict['fresh_games_needed'])} "
                    f"({names['per_trial'].format(n=verdict['games_per_trial_needed'])})")
    if verdict["trials_needed"]:
        asks.append(names["trials"].format(n=verdict["trials_needed"]))
    return "not offered: the fresh check cannot vouch for it" + (f"; needed: {' and '.join(asks)}" if asks else "")


def prune(spec, session, result, *, progress=None) -> list[dict]:
    """The best trial's edits with every one dropped whose removal keeps the fit
    (see the module docstring); returns the kept edits, in their order."""
    from .pools import write_pool
    from .search import default_players, loss_of, measure, target_values
    from .targets import player_counts

    edits = list(result.edits)
    if not edits or result.best is None:
        return edits
    n_default = default_players(spec.game, spec.players)
    counts = player_counts(spec.targets, n_default)
    goal = result.best.get("miss")
    if goal is None:
        return edits
    by_name = {v.name: v for v in result.variables}
    values = {name: val for name, val in result.best["values"].items() if name in by_name}

    def miss_without(drop: list[dict]) -> float | None:
        trial = dict(values)
        for e in drop:
            name = f"{e['card']}.{e['field']}"
            trial[name] = by_name[name].current
        try:
            raw = session.with_values(trial, result.variables)
        except Exception:  # a combination the loader refuses: keep the edits
            return None
        with tempfile.TemporaryDirectory(prefix="workbench-prune-") as tmp:
            folder = write_pool(raw, session.folder, Path(tmp))
            data = measure(spec, folder, counts, seed=spec.seed, games=spec.games_per_trial)
        return loss_of(spec.targets, target_values(spec.targets, data, n_default), n_default, spec.margin)

    kept = list(edits)
    block = max(1, len(kept) // 4)
    while True:
        i = 0
        while i < len(kept):
            chunk = kept[i:i + block]
            miss = miss_without([e for e in edits if e not in kept] + chunk)
            if progress:
                progress()
            if miss is not None and miss <= goal + 1e-12:
                kept = kept[:i] + kept[i + block:]
            else:
                i += block
        if block == 1:
            break
        block = max(1, block // 2)
    return kept


def record_balance_run(game: str, folder, spec, rows: list[dict], edits: list[dict], verdict: dict,
                       *, applied: bool) -> str | None:
    """Enter the run in the pool's history against the version it searched from
    (:func:`workbench.core.versions.record_run`): the fresh check's values before
    and after, the edits and whether they were offered and applied."""
    from workbench.core.versions import record_run

    params = {"targets": [t.text for t in spec.targets], "vary": list(spec.vary), "trials": spec.trials,
              "games_per_trial": spec.games_per_trial, "seed": spec.seed, "bots": spec.bots}
    metrics = {f"{r['metric']}@{r['players']}": {"before": r["before"], "after": r["after"],
                                                 "after_low": r["after_low"], "after_high": r["after_high"]}
               for r in rows}
    metrics["edits"] = len(edits)
    metrics["offered"] = bool(edits) and verdict["offered"]
    metrics["applied"] = applied
    return record_run(game, folder, "balance", params, metrics)


def propose(spec, session, *, fresh_games: int, progress=None, on_fresh=None, names: dict | None = None) -> dict:
    """The whole run the command line and the Balance page share: the search
    (:func:`workbench.balance.search.run_study`), :func:`prune`, the fresh-seed
    check and :func:`judge`. Returns ``{result, searched, raw_after, diff, rows,
    verdict}`` (``searched``: the edits before pruning)."""
    from .report import card_diff, fresh_check, proposal_raw
    from .search import run_study

    result = run_study(spec, session=session, progress=progress)
    searched = len(result.edits)
    result.edits = prune(spec, session, result)
    raw_after = proposal_raw(session, result.edits, result.variables)
    if on_fresh is not None:
        on_fresh()
    rows = fresh_check(spec, session, raw_after, games=fresh_games)
    return {"result": result, "searched": searched, "raw_after": raw_after,
            "diff": card_diff(session, raw_after), "rows": rows,
            "verdict": judge(rows, spec.targets, games=fresh_games, trials=spec.trials, names=names)}
