"""People beside bots: the journal's finished games of one pool version and a
bot batch of the same game, table size, variants, options and pool, on the same
metrics (:mod:`workbench.sim.metrics`), each with a bootstrap interval.

The human games are replayed from their moves into the batch runner's record
(:func:`workbench.sim.runner.replayed_record`), so every metric is computed by
the one definition the Sweeps page uses. The two arms are independent samples
(not played on the same seeds), so each side gets its own percentile interval
and the difference an interval from independent resamples of both; with a
handful of human games those intervals are wide, and the table says how many
games each side has. The metrics are per game: a table of people with a bot
seat counts that bot's moves too (``bot`` column of the players table).

Bot games can only play the pool on disk: human games of another pool version
(an earlier file state, or an edited pool of a finished dashboard session) are
refused with the version the bots would play.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np

from workbench.core.errors import WorkbenchError
from workbench.core.game import GameConfig
from workbench.core.registry import get_game
from workbench.core.rng import derive_seed

from .journal import Journal
from .room import pool_version_of


def finished_games(journal: Journal, game_id: str | None = None, pool_version: str | None = None) -> list[dict]:
    """Finished journal games (with their room's seats), newest pool first."""
    out = []
    for row in journal.games():
        if row["status"] != "finished":
            continue
        config = json.loads(row["config"])
        ref = config.get("game", "")
        if game_id and ref.partition("@")[0] != game_id:
            continue
        if pool_version and row["pool_version"] != pool_version:
            continue
        seats = {s["seat"]: s for s in journal.seats(row["room"])}
        out.append({**row, "config": config, "game_ref": ref, "seats": seats})
    return out


def human_result(journal: Journal, games: list[dict]):
    """The journal's games as a :class:`~workbench.sim.SimResult`."""
    from workbench.sim import SimResult, SimSpec
    from workbench.sim.runner import replayed_record
    from workbench.sim.tables import tables_from_records
    records = []
    for index, row in enumerate(games):
        game = get_game(row["game_ref"].partition("@")[0])
        config = GameConfig.from_dict(row["config"])
        actions = [m["action"] for m in journal.moves(row["id"])]
        who = [("person" if row["seats"][s]["kind"] == "person" else row["seats"][s]["bot"] or "bot")
               for s in range(len(config.players))]
        records.append(replayed_record(game, config, actions, index, who))
    first = games[0]
    spec = SimSpec(first["game_ref"].partition("@")[0], games=len(records), players=len(first["config"]["players"]),
                   bots="person", seed=0, variants=tuple(first["config"].get("variants", ())),
                   options=dict(first["config"].get("options", {})))
    g, p, c = tables_from_records(records)
    return SimResult(spec, g, p, c, ideal_rounds=get_game(spec.game).ideal_rounds)


def _intervals(data, resamples: int, seed: int, level: float):
    """``(values, samples)``: every flattened metric, and its bootstrap resamples."""
    from workbench.sim.metrics import compute_all, flatten
    values = flatten(compute_all(data))
    rng = np.random.default_rng(derive_seed(seed, "journal-compare"))
    samples = {k: [] for k in values}
    for _ in range(resamples if data.n > 1 else 0):
        drawn = flatten(compute_all(data.take(rng.integers(0, data.n, data.n))))
        for k in samples:
            samples[k].append(drawn.get(k))
    return values, samples


def side_by_side(journal: Journal, game_id: str, pool_version: str | None = None, bot_games: int = 200,
                 bots: str = "greedy", resamples: int = 200, seed: int = 1, level: float = 0.95) -> dict:
    """Human games of ``pool_version`` (default: the pool on disk) beside ``bot_games``
    bot games of the same table; rows of metric, people, bots, difference, intervals."""
    from workbench.sim import SimSpec, simulate
    from workbench.sim.metrics import compute_all, flat_labels
    game = get_game(game_id)
    disk = pool_version_of(game)
    pool_version = pool_version or disk
    if pool_version != disk:
        raise WorkbenchError(f"the bots play the pool on disk (version {disk}); the human games of version "
                             f"{pool_version} were played on another pool")
    games = finished_games(journal, game_id, pool_version)
    if not games:
        raise WorkbenchError(f"no finished {game.name} game of pool version {pool_version} in {journal.path}")
    # the most common table (player count, variants, options) of those games
    def table(row):
        cfg = row["config"]
        return json.dumps([len(cfg["players"]), sorted(cfg.get("variants", ())), cfg.get("options", {})],
                          sort_keys=True)
    common, _ = Counter(table(r) for r in games).most_common(1)[0]
    games = [r for r in games if table(r) == common]
    humans = human_result(journal, games)
    spec = SimSpec(game_id, games=bot_games, players=humans.spec.players, bots=bots, seed=seed,
                   variants=humans.spec.variants, options=humans.spec.options)
    robots = simulate(spec, workers=1)
    hv, hs = _intervals(humans.metric_data(), resamples, seed, level)
    bv, bs = _intervals(robots.metric_data(), resamples, seed + 1, level)
    labels = flat_labels(compute_all(robots.metric_data()))
    labels.update(flat_labels(compute_all(humans.metric_data())))
    from workbench.sim.intervals import from_resamples, interval_of
    hd, bd = humans.metric_data(), robots.metric_data()

    rows = []
    for key in sorted(set(hv) | set(bv), key=lambda k: labels.get(k, k)):
        h, b = hv.get(key), bv.get(key)
        diffs = [x - y for x, y in zip(hs.get(key, []), bs.get(key, [])) if x is not None and y is not None]
        people = interval_of(hd, key, hs.get(key, []), level)
        bots_ci = interval_of(bd, key, bs.get(key, []), level)
        diff = from_resamples(diffs, min(int(hd.n), int(bd.n)), level)
        rows.append({"metric": labels.get(key, key), "key": key, "people": h, "people_ci": people.pair(),
                     "people_note": people.note, "bots": b, "bots_ci": bots_ci.pair(), "bots_note": bots_ci.note,
                     "diff": (h - b) if h is not None and b is not None else None, "diff_ci": diff.pair(),
                     "diff_note": diff.note})
    return {"game": game_id, "pool_version": pool_version, "players": humans.spec.players,
            "variants": list(humans.spec.variants), "options": humans.spec.options,
            "human_games": len(games), "bot_games": bot_games, "bots": bots, "level": level, "rows": rows}
