"""Pebble Race scenario positions and what a scenario may observe.

``setup`` keys: ``players``, ``seed``, ``options`` (as for a new game), and to
set a position: ``market`` (card names), ``deck`` (top card last), ``scores``
and ``turn`` (a player name). ``expect`` may name every key :func:`observe`
returns."""

from __future__ import annotations

from typing import Mapping

from workbench.core.errors import ScenarioError, suggest

from .state import PebbleState

SETUP_KEYS = {"players", "seed", "options", "variants", "market", "deck", "scores", "turn"}


def build(game, setup: Mapping) -> PebbleState:
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        bad = sorted(unknown)[0]
        raise ScenarioError(f"unknown setup key {bad!r}{suggest(bad, SETUP_KEYS)}")
    cfg = game.config(setup.get("players", game.default_players), seed=int(setup.get("seed", 0)),
                      variants=setup.get("variants", ()), **dict(setup.get("options") or {}))
    state = game.new_initial_state(cfg)
    names = list(state.pool.points)

    def card(name):
        for real in names:
            if real.lower() == str(name).lower():
                return real
        raise ScenarioError(f"no card {name!r}{suggest(str(name), names)}")

    if "market" in setup:
        state.market = [card(c) for c in setup["market"]]
    if "deck" in setup:
        state.deck = [card(c) for c in setup["deck"]]
    if "scores" in setup:
        scores = list(setup["scores"])
        if len(scores) != len(cfg.players):
            raise ScenarioError(f"scores: give one per player ({len(cfg.players)})")
        state.scores = [int(x) for x in scores]
    if "turn" in setup:
        lowered = [p.lower() for p in cfg.players]
        if str(setup["turn"]).lower() not in lowered:
            raise ScenarioError(f"turn: no player {setup['turn']!r}{suggest(str(setup['turn']), cfg.players)}")
        state.turn = lowered.index(str(setup["turn"]).lower())
    return state


def observe(state: PebbleState) -> dict:
    names = state.config.players
    return {"market": list(state.market), "deck": len(state.deck), "round": state.round,
            "turn": names[state.turn], "over": state.over, "ending": state.ending or None,
            "winners": [names[i] for i in state.winners],
            "players": {n: {"score": state.scores[i], "hand": list(state.hands[i])} for i, n in enumerate(names)}}
