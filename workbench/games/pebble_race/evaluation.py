"""How greedy bots rate a Pebble Race position: points, minus a little for each
Shell held (the third one costs points), and a large bonus or malus once the
game is over."""

from __future__ import annotations

from typing import Mapping

from .state import PebbleState

DEFAULT_WEIGHTS = {"points": 1.0, "shells": -0.5}


def features(state: PebbleState, seat: int) -> dict[str, float]:
    return {"points": state.scores[seat], "shells": state.hands[seat].count("Shell")}


def evaluate(state: PebbleState, seat: int, weights: Mapping[str, float] | None = None) -> float:
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    f = features(state, seat)
    value = w["points"] * f["points"] + w["shells"] * f["shells"]
    if state.over:
        value += 100.0 if seat in state.winners else -100.0
    return value
