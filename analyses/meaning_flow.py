"""Meaning Made: where the shared Meaning comes from and goes, by player count.

Plays greedy (or other) bot games and splits every change of the shared Meaning
in the real game (never the bots' look-aheads) by its source:

* ``event``: Phase A, the round's Event (its table outcome and any further
  Consequence it triggers);
* ``donation``: Phase C, the Stability Window (one Meaning per Support, at
  most ``stability_cap`` a round);
* ``completion``: an Initiative completed (its Meaning reward, bonus and
  penalty);
* ``other``: everything else (Pattern Consequences, Touchpoints...).

``column7_share`` is the share of rounds whose Event was read in a Resolution
Table column of 7 or more (a Layer 7 Initiative completed). ``zero_rounds``
is the mean number of rounds per game whose Event left Meaning at 0 (the world
then collapses unless the round raises it again before its end: one donation or
one completion is enough), ``zero_saved`` the share of those rounds that did not
end in a collapse.

It prints, per player count, the survival and collapse rates, the mean per game
and per round of each source, the rounds played, the share of rounds whose
Stability Window reached the cap, and the lowest and final Meaning. This is the evidence for which
rule makes greedy survival grow with the number of players (docs/balancing.md).

Run: ``python analyses/meaning_flow.py --players 2 3 4 5 --games 100 [--cards DIR]
[--variant high-instability]`` (``--cards`` is a game folder such as
``COPY/meaning_made`` from ``workbench init COPY``). Seeded: a rerun prints the
same table.
"""

from __future__ import annotations

import os

# the hooks wrap module functions, which a compiled build (workbench.build_native) calls directly
os.environ.setdefault("WORKBENCH_PURE", "1")

import argparse
import statistics
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from workbench.core.bots import make_bots
from workbench.core.game import GameConfig
from workbench.core.play import bot_rngs
from workbench.core.rng import derive_seed
from workbench.games.meaning_made.tracks import highest_layer

NAMES = ("Alex", "Brooke", "Casey", "Drew", "Eva", "Finn")


def _game(cards: Path | None):
    from workbench.games.meaning_made import MeaningMade
    if cards is None:
        from workbench.core.registry import get_game
        return get_game("meaning-made")
    from workbench.games.meaning_made.data import load_cards
    return MeaningMade(cards=load_cards(cards))


#: the state of the game being measured; the hooks below ignore every other
#: state (the bots' look-aheads run the same rule functions on clones)
_REAL: dict = {"state": None, "track": None}


@contextmanager
def _hooks():
    """Wrap the round's Event phase and end (as ``flow`` calls them) while one
    game is measured, so the real game's Event losses and end-of-round Meaning
    are recorded exactly; the wrapped functions run unchanged, and the module
    is restored afterwards."""
    from workbench.games.meaning_made import flow
    event_phase, end_round = flow.event_phase, flow.end_round

    def hooked_event_phase(state) -> None:
        track = _REAL["track"] if state is _REAL["state"] else None
        before = state.meaning
        event_phase(state)
        if track is not None:
            track["event"] += state.meaning - before
            track["event_now"] += state.meaning - before
            track["zero_now"] = state.meaning == 0
            track["zero_rounds"] += track["zero_now"]  # the Event left nothing: the round must raise Meaning
            track["high_rounds"] += highest_layer(state) >= 7

    def hooked_end_round(state) -> None:
        if state is _REAL["state"]:
            track = _REAL["track"]
            track["capped_rounds"] += state.donations >= state.rules.stability_cap
            track["zero_lost"] += track["zero_now"] and state.meaning <= 0  # left at 0, and nothing raised it
        end_round(state)

    flow.event_phase, flow.end_round = hooked_event_phase, hooked_end_round
    try:
        yield
    finally:
        flow.event_phase, flow.end_round = event_phase, end_round


def flow_of_game(game, players: int, seed: int, bots: str, options: dict | None = None,
                 variants: tuple[str, ...] = ()) -> dict:
    """One game's Meaning changes by source, and what else the summary needs."""
    config = GameConfig(players=NAMES[:players], seed=seed, variants=variants, options=options or {})
    sources: dict[str, int] = defaultdict(int)
    track = {"event": 0, "event_now": 0, "capped_rounds": 0, "high_rounds": 0, "zero_rounds": 0,
             "zero_lost": 0, "zero_now": False}
    with _hooks():
        return _measure(game, config, players, bots, track, sources)


def _measure(game, config, players: int, bots: str, track: dict, sources: dict) -> dict:
    state = game.new_initial_state(config)
    # the first round's Event was resolved inside new_initial_state: count it from the starting value
    track["event"] += state.meaning - state.rules.start_meaning
    track["zero_rounds"] += state.meaning == 0
    track["zero_now"] = state.meaning == 0
    track["high_rounds"] += highest_layer(state) >= 7
    _REAL["state"], _REAL["track"] = state, track
    low, steps = state.meaning, 0
    bots_ = make_bots(bots, players)
    rngs = bot_rngs(config)
    try:
        while not state.is_terminal():
            seat = state.current_player()
            action = bots_[seat].choose(game, state, rngs[seat])
            before, completed = state.meaning, len(state.completed)
            text = game.format_action(state, action)
            track["event_now"] = 0
            state.apply_action(action)
            steps += 1
            # the action's own change, without a next round's Event it may have led to
            own = state.meaning - before - track["event_now"]
            if text.startswith("donate"):
                sources["donation"] += own
            elif len(state.completed) != completed:
                sources["completion"] += own
            else:
                sources["other"] += own
            low = min(low, state.meaning)
    finally:
        _REAL["state"] = _REAL["track"] = None
    sources["event"] = track["event"]
    res = game.result(state)
    return {"sources": dict(sources), "rounds": state.round, "ending": res.ending, "log_length": steps,
            "min_meaning": low, "capped_rounds": track["capped_rounds"],
            "high_rounds": track["high_rounds"], "zero_rounds": track["zero_rounds"],
            "zero_lost": track["zero_lost"],
            "final_meaning": state.meaning, "world_layer": state.world_layer}


def summary(game, players: int, games: int, seed: int, bots: str, options: dict | None = None,
            variants: tuple[str, ...] = ()) -> dict:
    rows = [flow_of_game(game, players, derive_seed(seed, "flow", players, i), bots, options, variants)
            for i in range(games)]
    rounds = sum(r["rounds"] for r in rows)
    out = {"players": players, "games": games,
           "survival": sum(r["ending"] == "survived" for r in rows) / games,
           "collapsed": sum(r["ending"] == "collapsed" for r in rows) / games,
           "rounds": statistics.mean(r["rounds"] for r in rows),
           "capped_share": sum(r["capped_rounds"] for r in rows) / rounds,
           "column7_share": sum(r["high_rounds"] for r in rows) / rounds,
           "zero_rounds": sum(r["zero_rounds"] for r in rows) / games,
           "zero_saved": 1 - sum(r["zero_lost"] for r in rows) / max(1, sum(r["zero_rounds"] for r in rows)),
           "min_meaning": statistics.mean(r["min_meaning"] for r in rows),
           "final_meaning": statistics.mean(r["final_meaning"] for r in rows)}
    for src in ("event", "donation", "completion", "other"):
        total = sum(r["sources"].get(src, 0) for r in rows)
        out[f"{src}_per_game"] = total / games
        out[f"{src}_per_round"] = total / rounds
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seed", type=int, default=20261201)
    p.add_argument("--bots", default="greedy")
    p.add_argument("--cards", type=Path, default=None, help="a card folder (default: the bundled cards)")
    p.add_argument("--variant", action="append", default=[])
    args = p.parse_args(argv)
    game = _game(args.cards)
    cols = ("players", "survival", "collapsed", "rounds", "event_per_round", "donation_per_round", "completion_per_round",
            "other_per_round", "event_per_game", "donation_per_game", "completion_per_game", "capped_share",
            "column7_share", "zero_rounds", "zero_saved",
            "min_meaning", "final_meaning")
    print("| " + " | ".join(cols) + " |")
    print("|" + " --- |" * len(cols))
    for n in args.players:
        s = summary(game, n, args.games, args.seed, args.bots, variants=tuple(args.variant))
        print("| " + " | ".join(f"{s[c]:.2f}" if isinstance(s[c], float) else str(s[c]) for c in cols) + " |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
