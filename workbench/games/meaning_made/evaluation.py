"""How the greedy bot rates a position: a weighted sum of features seen from
one seat. The defaults make a bot that builds its Palette, works Initiatives
toward the End Initiative, donates to keep Meaning up, and scores.

Weights (``Game.evaluate(state, seat, weights)``; any subset may be given):

| key | default | feature |
| --- | --- | --- |
| meaning | 1.5 | shared Meaning |
| danger | 4.0 | per point Meaning is below 3 (collapse risk) |
| collapse | 200 | penalty when the world has collapsed |
| column | 0.8 | per World Layer above 1 (a higher column makes every Event harsher) |
| legacy | 1.0 | own Legacy |
| vitals | 0.4 | own Vitals |
| fragile | 2.0 | penalty while Fragile |
| tokens | 0.2 | each own E or I token (beyond 6 of them, a fifth of that) |
| support | 0.55 | each own Support token, times 1 + 0.25 per point Meaning is below 7 |
| palette | 0.8 | each own Pattern |
| layer | 0.3 | each own Pattern's Layer, counted only while the Palette climbs without gaps |
| diversity | 0.6 | each distinct Layer in own Palette |
| progress | 0.6 | 2 x boxes x readiness² per face-up Initiative, readiness = filled share x share of Layers shown; 0 while it still needs an earlier completed Initiative |
| marker | 0.8 | own marker's Legacy share on a face-up Initiative, times the same readiness |
| reachable | 0.7 | each Index Initiative that no longer waits for an earlier completed one |
| completed | 4.0 | each completed Initiative (shared progress toward the end) |
| win | 60 | the game ended and this seat is among the winners |
| survive | 30 | the world survived |
"""

from __future__ import annotations

from .scoring import winners

DEFAULT_WEIGHTS = {
    "meaning": 1.5, "danger": 4.0, "column": 0.8, "collapse": 200.0, "legacy": 1.0, "vitals": 0.4, "fragile": 2.0,
    "tokens": 0.2, "support": 0.55, "palette": 0.8, "layer": 0.3, "diversity": 0.6, "progress": 0.6,
    "marker": 0.8, "reachable": 0.7, "completed": 4.0, "win": 60.0, "survive": 30.0,
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
    value += w["meaning"] * state.meaning - w["column"] * (state.world_layer - 1)
    if state.meaning < 3:
        value -= w["danger"] * (3 - state.meaning)
    value += w["legacy"] * p.legacy + w["vitals"] * p.vitals
    if p.fragile:
        value -= w["fragile"]
    # Support is worth more the closer the world is to collapse: it becomes Meaning
    # in the Stability Window.
    s_value = w["support"] * (1 + 0.25 * max(0, 7 - state.meaning))
    ei = p.E + p.I
    # a hoard is worth less than tokens put to work: beyond 6, each counts a fifth
    value += w["tokens"] * (min(ei, 6) + 0.2 * max(0, ei - 6)) + s_value * p.S
    if (p.S == 0 and p.E >= 2 and state.rules.conversion and not state.converted
            and state.phase == "turns" and state.seat == seat):
        # a conversion still open this turn is most of a Support token already
        value += 0.7 * (s_value - 2 * w["tokens"])
    pats = state.cards.patterns
    layers = sorted({pats[n].layer for n in p.palette})
    climb = 0
    for layer in layers:  # the unbroken ladder 1, 2, 3... counts toward "layer"
        if layer != climb + 1:
            break
        climb = layer
    value += w["palette"] * len(p.palette) + w["layer"] * climb * (climb + 1) / 2 + w["diversity"] * len(layers)
    rewards = state.rules.order_rewards
    boxes = state.rules.boxes
    for name, prog in state.progress.items():
        f = prog.filled
        filled = f["E"] + f["I"] + f["S"] + f["V"]
        total = sum(boxes[name].values()) or 1
        if _blocked(state, name):
            continue
        frac = filled / total
        need = state.cards.initiatives[name].requirement.layers
        if need:
            from .contribute import missing_layers
            shown = len(need) - len(missing_layers(state, name, [m for m in prog.markers if m >= 0] + [seat]))
            frac *= (1 + shown) / (1 + len(need))
        # convex: the last tokens into a card are worth the most (they finish it)
        value += w["progress"] * 2 * total * frac * frac
        if seat in prog.markers:
            rank = prog.markers.index(seat)
            share = rewards[rank] if rank < len(rewards) else state.rules.other_reward
            value += w["marker"] * share * frac
    value += w["completed"] * len(state.completed)
    value += w["reachable"] * sum(1 for n in state.index if n is not None and not _blocked(state, n))
    return value


def _blocked(state, name: str) -> bool:
    """True while the card still needs an earlier completed Initiative."""
    req = state.cards.initiatives[name].requirement
    if not req.completed:
        return False
    done = [state.cards.initiatives[c].layer for c in state.completed]
    return any(layer not in done for layer in req.completed)
