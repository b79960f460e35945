"""Planted edits: card edits whose effect is known before a game is played,
to measure whether a paired comparison sees them.

Each game package may hold a ``planted`` module with
``planted_edits(session, rng, kind, count, players, pick_rates)`` returning
:class:`PlantedEdit` objects of one kind (what its kinds are is the game's:
:func:`kinds_of`). Each edit says which metric should move which way
(``expect``); a no-op edit (flavour text, a provenance mark) expects nothing
and any decided difference on it is a false call.

:func:`run_planted` plays one edit through the same tweak session and paired
playtest as ``workbench compare`` and classifies it:

* ``hit``: some expected metric was decided in the expected direction, and
  none in the opposite one;
* ``wrong``: some expected metric was decided the other way;
* ``missed``: no expected metric was decided either way within the budget;
* for a no-op: ``false call`` when any watched metric was decided higher or
  lower, else ``quiet``.

The figures of the whole generator come from ``analyses/planted_edits.py``
(too slow for the test suite); docs/verdicts.md gives them.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field

from workbench.sim.verdicts import HIGHER, LOWER

NO_OP = "no-op"
#: a card renamed: nothing the rules read changes (a card is the same card by
#: its place in its file, whatever it is called), so, as for a no-op, any
#: decided difference is a false call
RENAME = "rename"
#: the kinds whose every decided difference is a false call
QUIET_KINDS = (NO_OP, RENAME)
#: made-up card names for renames (never a card's name in the shipped pools)
NEW_NAMES = ("Quillwort", "Brackish Gate", "Tallow Reach", "Umber Vane", "Lodestar Kiln", "Pale Orchard",
             "Cinder Loom", "Verdigris Step", "Hollow Chime", "Saltmarsh Rule", "Ashen Ledger", "Oriel Spire")


@dataclass
class PlantedEdit:
    """One planted edit: the edits, at which player count, and what must move."""

    kind: str
    edits: list[tuple[str, str, object]]               # (card, field, value)
    players: int
    expect: list[tuple[str, str]] = field(default_factory=list)   # (metric key, "higher"|"lower")
    note: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "edits": [list(e) for e in self.edits], "players": self.players,
                "expect": [list(e) for e in self.expect], "note": self.note}


def player_count(kind: str, i: int, rng, counts) -> int:
    """The player count of a game's ``i``-th planted edit of ``kind``: a card made
    stronger or weaker goes through every count in turn (so each count gets its
    share of the power kinds), any other kind draws its count with ``rng``."""
    counts = list(counts)
    if kind in ("stronger-card", "weaker-card"):
        return counts[i % len(counts)]
    return rng.choice(counts)


def provenance_flip(kind: str, table, rng, n: int) -> PlantedEdit:
    """A no-op edit: one card's provenance mark (``seed`` <-> ``draft``), which no
    rule reads, on a card of ``table`` (the Cards page's table) that carries one."""
    marked = table.filter(table["provenance"].is_not_null())
    card = rng.choice(sorted(marked["name"].to_list()))
    old = marked.filter(marked["name"] == card)["provenance"][0]
    new = "draft" if old == "seed" else "seed"
    return PlantedEdit(kind, [(card, "provenance", new)], n, [], f"{card} provenance {old} -> {new}")


def rename(kind: str, session, rng, n: int) -> PlantedEdit:
    """A rename: one card the games play (of the session's table) given a new
    name no card has; nothing the rules read changes."""
    from workbench.core.errors import WorkbenchError
    names = sorted(session.table()["name"].to_list())
    taken = {x.lower() for x in names}
    new = rng.choice([x for x in NEW_NAMES if x.lower() not in taken])
    candidates = [x for x in names if not session._is_cell(x)]
    rng.shuffle(candidates)
    for card in candidates:
        # a card whose name the rules use as a key (a setting-like entry) refuses a new one
        try:
            session.edit(card, "name", new)
        except WorkbenchError:
            continue
        session.undo()
        return PlantedEdit(kind, [(card, "name", new)], n, [], f"{card} renamed {new}")
    raise WorkbenchError("no card of this pool can be renamed")


def planted_module(game):
    """The game package's ``planted`` module, or None when it has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.planted")
    except ModuleNotFoundError:
        return None


def kinds_of(game) -> tuple[str, ...]:
    """The kinds of planted edit the game offers (its module's ``KINDS``), no-op included."""
    module = planted_module(game)
    return tuple(getattr(module, "KINDS", ())) if module else ()


def pick_rates(game_id: str, players: int, *, games: int = 40, seed: int = 99, bots: str = "greedy",
               workers: int | None = None) -> dict[str, float]:
    """Share of baseline games in which each card is taken, and the baseline
    mean of each of the game's own per-game numbers as ``stat:COLUMN`` (a
    generator plants dearer-card edits only on what games take or build: a
    card never taken cannot be taken less, a goal never declared cannot be
    declared less), and the share of games ending each way as ``ending:NAME``
    (an End no game reaches cannot make games longer). Played on its own
    seed, apart from the comparisons."""
    import numpy as np

    from workbench.sim import SimSpec, simulate
    from workbench.sim.metrics import STAT, card_summary, series
    res = simulate(SimSpec(game_id, games=games, players=players, bots=bots, seed=seed, trace=False),
                   workers=workers)
    out = {r["card"]: r["pick_rate"] for r in card_summary(res).iter_rows(named=True)}
    # how the games end (``ending:NAME``, share of games): a dearer End reaches
    # nothing where no game ends that way
    for ending, count in res.games["ending"].value_counts().iter_rows():
        out[f"ending:{ending}"] = count / res.games.height
    for column in res.games.columns:
        values = series(res, STAT + column)
        if (~np.isnan(values)).any():
            out[STAT + column] = float(np.nanmean(values))
    return out


#: the seed of the baseline games a generator reads how cards are taken from
#: (:func:`baseline_games`), apart from the comparisons' and ``pick_rates``'
BASELINE_SEED = 98


def baseline_games(game, players: int, games: int, see, seed: int = BASELINE_SEED) -> None:
    """Play ``games`` baseline greedy games of ``game`` at ``players``, calling
    ``see(index, state, seat, action)`` before each action is applied (the
    position in which it was chosen): for a generator that plants only where
    what a card gives acts in play (what its takers hold, how it is taken)."""
    from workbench.core.bots import make_bots
    from workbench.core.play import bot_rngs
    from workbench.core.rng import derive_seed
    from workbench.sim.runner import game_record

    for index in range(games):
        config = game.config(players, seed=derive_seed(seed, "game", index))
        bots = make_bots("greedy", players)
        rngs = bot_rngs(config)

        def decide(state, seat: int, index=index, bots=bots, rngs=rngs):
            action = bots[seat].choose(game, state, rngs[seat])
            see(index, state, seat, action)
            return action, state.legal_action_count()

        game_record(game, config, index, decide, ["greedy"] * players, False, 20_000)


def classify(planted: PlantedEdit, rows: list[dict]) -> str:
    """``hit``/``wrong``/``missed`` for a planted edit, ``false call``/``quiet`` for a no-op."""
    by_key = {r["key"]: r for r in rows}
    if planted.kind in QUIET_KINDS or not planted.expect:
        return "false call" if any(r.get("direction") in (HIGHER, LOWER) for r in rows) else "quiet"
    seen = [(by_key[k].get("direction"), want) for k, want in planted.expect if k in by_key]
    if any(d is not None and d != want for d, want in seen):
        return "wrong"
    if any(d == want for d, want in seen):
        return "hit"
    return "missed"


def run_planted(game_id: str, planted: PlantedEdit, *, budget: int = 200, seed: int = 1, bots: str = "greedy",
                workers: int | None = None, until_named: bool = True) -> dict:
    """Play one planted edit as ``workbench compare`` would (the game's
    leading metrics, the edited cards' metrics, plus the expected metrics) and
    classify it; returns the edit, the outcome, the games played, the seconds
    and the decided rows.

    ``until_named``: stop at the first look where an expected metric is
    decided either way. That is the moment ``workbench compare`` prints it,
    and every look's interval holds at the run's error level (the looks share
    alpha, see :mod:`workbench.sim.progressive`), so a later look could not
    take the call back without an error the design already counts. A no-op
    edit always runs until compare itself would stop."""
    from workbench.tweak import open_session

    from workbench.sim.verdicts import leading_watch, verdict_rows
    session = open_session(game_id)
    for card, column, value in planted.edits:
        session.edit(card, column, value)
    # the cards as the old pool names them (a renamed card is watched under its old name)
    old_name = {new: old for old, new in session.renamed_cards().items()}
    now_name = {old: new for new, old in old_name.items()}
    cards = [c for c, _, _ in planted.edits
             if session._played(now_name.get(c, c)) and not session._is_cell(now_name.get(c, c))]
    cards = list(dict.fromkeys(old_name.get(c, c) for c in cards))
    watch = leading_watch(session.game, cards)
    watch += [k for k, _ in planted.expect if k not in watch]
    start = time.perf_counter()
    last = None
    expected = {k for k, _ in planted.expect}
    for last in session.stream_playtest(n=budget, players=planted.players, seed=seed, bots=bots, workers=workers,
                                        watch=tuple(watch), first_preview=None):
        if until_named and expected and any(r["key"] in expected and r.get("direction") for r in last.rows):
            break
    rows = verdict_rows(last)
    return {**planted.to_dict(), "outcome": classify(planted, rows), "games": last.games,
            "seconds": round(time.perf_counter() - start, 2),
            "decided": [{"key": r["key"], "verdict": r["verdict"], "diff": r["diff"]}
                        for r in rows if r["verdict"] != "cannot tell yet"],
            # every expected metric as the last look saw it, decided or not: a
            # miss then says how many games would decide it at that spread
            "expected_rows": [{k: r.get(k) for k in ("key", "verdict", "diff", "low", "high", "games_needed")}
                              for r in rows if r["key"] in expected]}
