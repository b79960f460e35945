"""What a balance run hands the designer: the proposal and its evidence.

* :func:`card_diff`: the proposed edits as a unified diff of the card files;
* :func:`fresh_check`: the targets' metrics before and after the proposal on a
  fresh set of seeds (not the ones the search tuned on), each with a 95%
  interval over games (:mod:`workbench.sim.intervals`: none below the minimum
  of games), and whether each target is met; with a mixed
  table of bots (skill levels), each level's win rate and mean score too;
* :func:`plot_search`: the search as a bokeh page (every trial's loss and the
  best so far; resources inline, so the file opens offline);
* :func:`apply_edits` / :func:`undo_edits`: the proposal written through the
  tweak session (each edit validated, the files saved atomically with the
  previous file kept as ``.bak``), or taken back.
"""

from __future__ import annotations

import difflib
import tempfile
from pathlib import Path

import numpy as np

from workbench.core.data import dump_yaml
from workbench.core.errors import WorkbenchError
from workbench.core.rng import derive_seed

from .pools import write_pool
from .search import BalanceSpec, apply_values, default_players, measure
from .targets import player_counts
from workbench.tweak.variables import Variable


def proposal_raw(session, edits: list[dict], variables: list[Variable]) -> dict:
    values = {f"{e['card']}.{e['field']}": e["new"] for e in edits}
    return apply_values(session, session.raw, values, variables)


def card_diff(session, raw_after: dict) -> str:
    """The edits as a unified diff of the card files (paths relative to the card root)."""
    out = []
    game_dir = Path(session.folder).name
    for name in sorted(raw_after):
        before = dump_yaml(session.raw[name]).splitlines(keepends=True)
        after = dump_yaml(raw_after[name]).splitlines(keepends=True)
        if before != after:
            out.extend(difflib.unified_diff(before, after, f"a/{game_dir}/{name}", f"b/{game_dir}/{name}"))
    return "".join(out)


def _interval(data, key: str, resamples: int, seed: int):
    """The metric's 95% interval over the games of ``data``
    (:func:`workbench.sim.intervals.metric_interval`: Wilson for a share of games,
    t for a mean, a bootstrap otherwise, "too few games" where none can be given)."""
    from workbench.sim.intervals import metric_interval
    return metric_interval(data, key, resamples=resamples, seed=seed)


def fresh_check(spec: BalanceSpec, session, raw_after: dict, *, games: int, seed: int | None = None,
                resamples: int = 300) -> list[dict]:
    """Before/after rows on fresh seeds: target, players, before (+ interval),
    after (+ interval), met before/after."""
    from workbench.sim.metrics import compute
    fresh = seed if seed is not None else derive_seed(spec.seed, "fresh")
    n_default = default_players(spec.game, spec.players)
    counts = player_counts(spec.targets, n_default)
    arms, bots = {}, {}
    with tempfile.TemporaryDirectory(prefix="workbench-balance-") as tmp:
        for arm, raw in (("before", session.raw), ("after", raw_after)):
            folder = write_pool(raw, session.folder, Path(tmp) / arm)
            bots[arm] = {}
            arms[arm] = measure(spec, folder, counts, seed=fresh, games=games, by_bot=bots[arm])
    rows = []
    for t in spec.targets:
        for n in t.players or (n_default,):
            row = {"target": t.text, "metric": t.metric, "players": n, "games": games, "seed": fresh}
            for arm in ("before", "after"):
                data = arms[arm][n]
                value = compute(data, t.metric)
                interval = _interval(data, t.metric, resamples, fresh)
                row.update({arm: value, f"{arm}_low": interval.low, f"{arm}_high": interval.high,
                            f"{arm}_interval": interval.method, f"{arm}_note": interval.note,
                            f"met_{arm}": t.met(value)})
            row["by_bot"] = by_skill(bots["before"].get(n, []), bots["after"].get(n, []))
            rows.append(row)
    return rows


def by_skill(before: list[dict], after: list[dict]) -> list[dict]:
    """Per bot seated (a skill level of a mixed table such as ``--bots
    skill:casual,skill:casual,greedy,greedy``), its win rate and mean score
    before and after the proposal; empty when every seat plays the same bot
    (the targets already say it all)."""
    if len(before) < 2:
        return []
    new = {r["bot"]: r for r in after}
    return [{"bot": b["bot"], "seats": b["seats"], "win_rate_before": b["win_rate"],
             "win_rate_after": new.get(b["bot"], {}).get("win_rate"), "mean_score_before": b["mean_score"],
             "mean_score_after": new.get(b["bot"], {}).get("mean_score")} for b in before]


def plot_search(trials: list[dict], path: Path, title: str) -> Path:
    """Every trial's loss (target misses + change cost) and the best so far, as bokeh HTML."""
    from bokeh.models import ColumnDataSource
    from bokeh.plotting import figure
    from bokeh.resources import INLINE

    done = [t for t in trials if t["state"] == "COMPLETE"]
    xs = [t["number"] for t in done]
    ys = [t["loss"] for t in done]
    best, running = [], None
    for y in ys:
        running = y if running is None else min(running, y)
        best.append(running)
    fig = figure(title=title, width=720, height=360, x_axis_label="trial (0 = the cards as they are)",
                 y_axis_label="loss: distance outside the targets + change cost", tools="hover,save,reset")
    src = ColumnDataSource(dict(trial=xs, loss=ys, best=best))
    fig.scatter("trial", "loss", source=src, size=7, legend_label="trial")
    fig.step("trial", "best", source=src, mode="after", line_width=2, color="firebrick", legend_label="best so far")
    from bokeh.embed import file_html

    from workbench.core import storage
    path = Path(path)
    storage.write_text(path, file_html(fig, resources=INLINE, title=title), "--plot")
    return path


def _check_current(session, edits: list[dict], want: str) -> None:
    for e in edits:
        now = session.value_of(e["card"], e["field"])
        if now != e[want]:
            raise WorkbenchError(f"{e['card']} {e['field']} is {now} in the card files, not {e[want]}: "
                                 "the cards changed since the proposal; run the study again")


def apply_edits(session, edits: list[dict], note: str | None = None) -> list[Path]:
    """Write the proposal through the tweak session (validated edit by edit; a
    refused edit leaves the files as they were) and save (a version of the
    pool's history, made by ``balance``, with ``note``)."""
    if not edits:
        return []
    _check_current(session, edits, "old")
    _edit_all(session, edits, "new")
    return session.save(note=note, source="balance")


def undo_edits(session, edits: list[dict]) -> list[Path]:
    """Take an applied proposal back (each value must still be what it set)."""
    if not edits:
        return []
    _check_current(session, edits, "new")
    _edit_all(session, edits, "old")
    return session.save(note="balance proposal taken back", source="balance")


def _edit_all(session, edits: list[dict], value: str) -> None:
    """Every edit through the session, or none: when one is refused, the ones
    made before it are undone, so the session is as it was."""
    done = 0
    try:
        for e in edits:
            session.edit(e["card"], e["field"], e[value])
            done += 1
    except Exception:
        for _ in range(done):
            session.undo()
        raise
