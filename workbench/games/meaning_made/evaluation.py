"""How the greedy bot rates a position: a weighted sum of features seen from
one seat. The defaults make a bot that builds its Palette, works Initiatives
toward the End Initiative, donates to keep Meaning up, and scores.

Weights (``Game.evaluate(state, seat, weights)``; any subset may be given):

| key | default | feature |
| --- | --- | --- |
| meaning | 1.2 | shared Meaning |
| danger | 3.0 | per point Meaning is below 3 (collapse risk) |
| collapse | 200 | penalty when the world has collapsed |
| legacy | 1.0 | own Legacy |
| vitals | 0.4 | own Vitals |
| fragile | 2.0 | penalty while Fragile |
| tokens | 0.18 | each own E or I token |
| support | 0.3 | each own Support token |
| palette | 0.9 | each own Pattern |
| layer | 0.35 | each own Pattern's Layer (rewards climbing) |
| diversity | 0.8 | each distinct Layer in own Palette |
| progress | 1.0 | each token committed to a face-up Initiative |
| marker | 1.5 | own marker's expected Legacy share on a face-up Initiative (scaled) |
| completed | 4.0 | each completed Initiative (shared progress toward the end) |
| win | 60 | the game ended and this seat is among the winners |
| survive | 30 | the world survived |
"""

from __future__ import annotations

from .scoring import winners

DEFAULT_WEIGHTS = {
    "meaning": 1.2, "danger": 3.0, "collapse": 200.0, "legacy": 1.0, "vitals": 0.4, "fragile": 2.0,
    "tokens": 0.18, "support": 0.3, "palette": 0.9, "layer": 0.35, "diversity": 0.8, "progress": 1.0,
    "marker": 1.5, "completed": 4.0, "win": 60.0, "survive": 30.0,
}


def evaluate(state, seat: int, weights=None) -> float:
    w = DEFAULT_WEIGHTS if not weights else {**DEFAULT_WEIGHTS, **weights}
    p = state.players[seat]
    value = 0.0
    if state.ending is not None:
        if state.ending == "collapsed":
            value -= w["collapse"]
        elif state.ending == "survived":
            value += w["survive"]
            if state.config.players[seat] in winners(state):
                value += w["win"]
    value += w["meaning"] * state.meaning
    if state.meaning < 3:
        value -= w["danger"] * (3 - state.meaning)
    value += w["legacy"] * p.legacy + w["vitals"] * p.vitals
    if p.fragile:
        value -= w["fragile"]
    value += w["tokens"] * (p.E + p.I) + w["support"] * p.S
    pats = state.cards.patterns
    layers = [pats[n].layer for n in p.palette]
    value += w["palette"] * len(layers) + w["layer"] * sum(layers) + w["diversity"] * len(set(layers))
    rewards = state.rules.order_rewards
    for name, prog in state.progress.items():
        f = prog.filled
        value += w["progress"] * (f["E"] + f["I"] + f["S"] + f["V"]) * 0.5
        if seat in prog.markers:
            rank = prog.markers.index(seat)
            share = rewards[rank] if rank < len(rewards) else state.rules.other_reward
            value += w["marker"] * share * 0.4
    value += w["completed"] * len(state.completed)
    return value
