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

It prints, per player count, the mean per game and per round of each source,
the rounds played, the share of rounds whose Stability Window reached the cap,
the lowest Meaning seen, and the survival rate. This is the evidence for which
rule makes greedy survival grow with the number of players (docs/balancing.md).

Run: ``python analyses/meaning_flow.py --players 2 3 4 5 --games 50 [--cards DIR]``.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from pathlib import Path

from workbench.core.bots import make_bots
from workbench.core.game import GameConfig
from workbench.core.play import play_game
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


def flow_of_game(game, players: int, seed: int, bots: str, options: dict | None = None,
                 variants: tuple[str, ...] = ()) -> dict:
    """One game's Meaning changes by source, and what else the summary needs."""
    config = GameConfig(players=NAMES[:players], seed=seed, variants=variants, options=options or {})
    sources: dict[str, int] = defaultdict(int)
    track = {"before": None, "round": None, "min": None, "capped_rounds": 0, "high_rounds": 0,
             "zero_rounds": 0}

    def before_action(state, action) -> None:
        track["before"], track["round"] = state.meaning, state.round
        track["completed"] = len(state.completed)
        track["phase"] = state.phase
        track["donations"] = state.donations

    state = game.new_initial_state(config)
    cap = state.rules.stability_cap
    top = state.rules.meaning_max
    track["min"] = state.meaning
    # the first round's Event is resolved inside new_initial_state: count it from the starting value
    sources["event"] += state.meaning - state.rules.start_meaning
    bots_ = make_bots(bots, players)
    from workbench.core.play import bot_rngs
    rngs = bot_rngs(config)
    while not state.is_terminal():
        seat = state.current_player()
        action = bots_[seat].choose(game, state, rngs[seat])
        before_action(state, action)
        text = game.format_action(state, action)
        state.apply_action(action)
        delta = state.meaning - track["before"]
        if state.round != track["round"] or state.is_terminal() and track["phase"] == "stability":
            # the Stability Window's last decision ends the round; the next Event follows at once
            donated = 1 if text.startswith("donate") else 0
            after_donation = min(top, track["before"] + donated)
            sources["donation"] += after_donation - track["before"]
            if track["donations"] + donated >= cap:
                track["capped_rounds"] += 1
            sources["event"] += state.meaning - after_donation
            if not state.is_terminal() and state.meaning == 0:
                track["zero_rounds"] += 1   # the Event left nothing: the round must raise Meaning to go on
            if not state.is_terminal() and highest_layer(state) >= 7:
                track["high_rounds"] += 1
        elif text.startswith("donate"):
            sources["donation"] += delta
        elif len(state.completed) != track["completed"]:
            sources["completion"] += delta
        else:
            sources["other"] += delta
        track["min"] = min(track["min"], state.meaning)
    res = game.result(state)
    return {"sources": dict(sources), "rounds": state.round, "ending": res.ending,
            "min_meaning": track["min"], "capped_rounds": track["capped_rounds"],
            "high_rounds": track["high_rounds"], "zero_rounds": track["zero_rounds"],
            "final_meaning": state.meaning, "world_layer": state.world_layer}


def summary(game, players: int, games: int, seed: int, bots: str, options: dict | None = None,
            variants: tuple[str, ...] = ()) -> dict:
    rows = [flow_of_game(game, players, derive_seed(seed, "flow", players, i), bots, options, variants)
            for i in range(games)]
    rounds = sum(r["rounds"] for r in rows)
    out = {"players": players, "games": games,
           "survival": sum(r["ending"] == "survived" for r in rows) / games,
           "rounds": statistics.mean(r["rounds"] for r in rows),
           "capped_share": sum(r["capped_rounds"] for r in rows) / rounds,
           "column7_share": sum(r["high_rounds"] for r in rows) / rounds,
           "zero_rounds": sum(r["zero_rounds"] for r in rows) / games,
           "zero_saved": (1 - sum(r["ending"] == "collapsed" for r in rows) / max(1, sum(r["zero_rounds"] for r in rows))),
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
    cols = ("players", "survival", "rounds", "event_per_round", "donation_per_round", "completion_per_round",
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
