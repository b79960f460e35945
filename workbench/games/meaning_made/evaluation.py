"""How the greedy bot rates a position: a weighted sum of features seen from
one seat. The defaults make a bot that builds its Palette, works Initiatives
toward the End Initiative, donates to keep Meaning up, and scores.

Weights (``Game.evaluate(state, seat, weights)``; any subset may be given):

| key | default | feature |
| --- | --- | --- |
| meaning | 1.5 | shared Meaning |
| danger | 4.0 | per point Meaning is below 3 (collapse risk) |
| collapse | 200 | penalty when the world has collapsed |
| doom | 150 | penalty when the world will collapse at the end of this round whatever anyone does: Meaning is at 0 and the Support the group can still donate this round (see :func:`rescue`) cannot lift it |
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
| few_support | 0.25 | added to support per "few" step (1.5 solo, 1 for 2 players, 0.5 for 3, 0 from 4 on) |
| few_progress | 0.9 | added to progress per "few" step |
| win | 60 | the game ended and this seat is among the winners |
| survive | 30 | the world survived |
| card_value | 0 | the card-value term: what the own Palette saves on the loads still ahead, read from the pool's Patterns (:func:`palette_discount`), at ``tokens`` per token saved; off for the plain greedy bot, whose games the fixtures pin (``greedy:card_value=1`` turns it on) |

A Pattern's one-time Bonus needs no term of its own: the one-ply look-ahead
of a Load resolves it, so a Pattern that gives more (or takes Legacy away) is
already worth more (or less) to the bot by the features above.

The ``doom`` term is what makes the bot see the group's fate in cooperative
play: a one-ply look-ahead does not reach the end of the round, so without it
the last Support at Meaning 0 looks as good in an Initiative as in the
Stability Window, and the world collapses with a survivable round thrown away
(2 players, seed 7, round 26 before this term). It reads the Energy of the
player on turn only as the open conversion below does (no Support, Energy 2
or more), so the look-ahead shortcuts of ``action_values`` stay exact.

The evaluation never reads the pending Touchpoint (who answers, which token),
and reads a player's Energy/Insight split only through "Energy >= 2 with no
Support" (the open conversion) besides their sum: ``MeaningMade.action_values``
relies on both to value every Touchpoint proposal, and the Gathers that are not
a turn's last action, from fewer look-aheads. A new feature that reads either
must change ``action_values`` with it (the differential test and
``test_action_values_equal_plain_lookahead`` catch a mismatch).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .scoring import winners

if TYPE_CHECKING:
    from .state import MMState

DEFAULT_WEIGHTS = {
    "meaning": 1.5, "danger": 4.0, "column": 0.8, "collapse": 200.0, "doom": 150.0, "legacy": 1.0, "vitals": 0.4, "fragile": 2.0,
    "tokens": 0.2, "support": 0.55, "palette": 0.8, "layer": 0.3, "diversity": 0.6, "progress": 0.6,
    "marker": 0.8, "reachable": 0.7, "few_support": 0.25, "few_progress": 0.9, "completed": 4.0, "win": 60.0, "survive": 30.0,
    "card_value": 0.0,
}


_DEFAULTS_BY_SIZE: dict = {}


def _weights(weights, n: int) -> dict:
    if not weights:
        hit = _DEFAULTS_BY_SIZE.get(n)
        if hit is None:
            hit = _DEFAULTS_BY_SIZE[n] = _build_weights(None, n)
        return hit
    return _build_weights(weights, n)


def _build_weights(weights, n: int) -> dict:
    """Defaults, then the given weights; then the small-table additions (with the
    given ``few_*`` values) on top of ``support`` and ``progress``."""
    w = dict(DEFAULT_WEIGHTS)
    if weights:
        w.update(weights)
    few = max(0, 4 - n) / 2  # 1.5 solo, 1 for 2 players, 0.5 for 3, 0 from 4 on
    if few:
        # fewer hands share the load: Support and finishing cards matter more
        w["support"] += w["few_support"] * few
        w["progress"] += w["few_progress"] * few
    return w


def evaluate(state: MMState, seat: int, weights=None) -> float:
    # Called for every legal action of every greedy decision: the terms are
    # added in a fixed order (so equal positions get bit-identical values), the
    # weights are read from a tuple made once per weight set and table size,
    # and the loops avoid generator expressions. Any change here must keep the
    # order of every float operation (the differential test pins the games).
    rules = state.rules
    (w_collapse, w_survive, w_win, w_meaning, w_column, w_danger, w_legacy, w_vitals, w_fragile,
     w_support, w_tokens, w_palette, w_layer, w_diversity, w_progress2, w_marker, w_completed,
     w_reachable, w_doom, w_card_value) = _weight_tuple(weights, rules.num_players)
    p = state.players[seat]
    value = 0.0
    ending = state.ending
    if ending is not None:
        if ending == "collapsed":
            value -= w_collapse
        elif ending == "survived":
            value += w_survive
            if state.config.players[seat] in winners(state):
                value += w_win
    meaning = state.meaning
    if meaning <= 0 and ending is None and not rules.competitive and rescue(state, seat) + meaning <= 0:
        value -= w_doom
    value += w_meaning * meaning - w_column * (state.world_layer - 1)
    if meaning < 3:
        value -= w_danger * (3 - meaning)
    value += w_legacy * p.legacy + w_vitals * p.vitals
    if p.fragile:
        value -= w_fragile
    # Support is worth more the closer the world is to collapse: it becomes Meaning
    # in the Stability Window.
    s_value = w_support * (1 + 0.25 * (7 - meaning if meaning < 7 else 0))
    ei = p.E + p.I
    # a hoard is worth less than tokens put to work: beyond 6, each counts a fifth
    value += w_tokens * ((ei if ei < 6 else 6) + 0.2 * (ei - 6 if ei > 6 else 0)) + s_value * p.S
    if (p.S == 0 and p.E >= 2 and rules.conversion and not state.converted
            and state.phase == "turns" and state.seat == seat):
        # a conversion still open this turn is most of a Support token already
        value += 0.7 * (s_value - 2 * w_tokens)
    counts = p.layers
    climb = 0
    while climb < 6 and counts[climb + 1]:  # the unbroken ladder 1, 2, 3... counts toward "layer"
        climb += 1
    distinct = 0
    for c in counts:
        if c:
            distinct += 1
    value += (w_palette * len(p.palette) + w_layer * climb * (climb + 1) / 2
              + w_diversity * distinct)
    need_done = rules.completed_need
    done = None  # Layers of completed Initiatives, worked out only when a card asks
    box_tuple = rules.box_tuple
    layer_need = rules.layer_need
    players = state.players
    for name, prog in state.progress.items():
        needs = need_done[name]
        if needs:
            if done is None:
                done = _done_layers(state)
            if not _all_done(needs, done):
                continue  # still waits for an earlier completed Initiative
        f = prog.filled
        filled = f["E"] + f["I"] + f["S"] + f["V"]
        # token boxes in all, 1 for a card with none (a judgement of the bot's, so kept
        # here, not with the rules)
        t = box_tuple[name]
        total = (t[0] + t[1] + t[2] + t[3]) or 1
        frac = filled / total
        need = layer_need[name]
        markers = prog.markers
        if need:
            shown = wanted = 0
            for layer, n in need:
                have = counts[layer]
                for m in markers:
                    if m >= 0 and m != seat:
                        have += players[m].layers[layer]
                shown += n if n < have else have
                wanted += n
            frac *= (1 + shown) / (1 + wanted)
        # convex: the last tokens into a card are worth the most (they finish it)
        value += w_progress2 * total * frac * frac
        if seat in markers:
            rank = markers.index(seat)
            rewards = rules.order_rewards
            share = rewards[rank] if rank < len(rewards) else rules.other_reward
            value += w_marker * share * frac
    value += w_completed * len(state.completed)
    reachable = 0
    for slot in state.index:  # an Initiative's name or None (own name: typed apart from the loops above)
        if slot is not None:
            needs = need_done[slot]
            if needs:
                if done is None:
                    done = _done_layers(state)
                if not _all_done(needs, done):
                    continue
            reachable += 1
    value += w_reachable * reachable
    if w_card_value:
        value += w_card_value * w_tokens * palette_discount(state, seat)
    return value


_TUPLES: dict = {}


def _weight_tuple(weights, n: int) -> tuple:
    """The weights :func:`evaluate` reads, in its order; ``progress`` already
    doubled (``w * 2`` is the first product the original term formed)."""
    if not weights:
        hit = _TUPLES.get(n)
        if hit is not None:
            return hit
    w = _weights(weights, n)
    out = (w["collapse"], w["survive"], w["win"], w["meaning"], w["column"], w["danger"], w["legacy"],
           w["vitals"], w["fragile"], w["support"], w["tokens"], w["palette"], w["layer"], w["diversity"],
           w["progress"] * 2, w["marker"], w["completed"], w["reachable"], w["doom"], w["card_value"])
    if not weights:
        _TUPLES[n] = out
    return out


def rescue(state: MMState, seat: int | None = None) -> int:
    """How much Meaning the group can still add in this round's Stability Window:
    the Support held by players who may still donate (not Fragile; in the
    Window, only those not yet asked), plus one for the player on turn who can
    still convert 2 Energy into Support (holding none yet; counted when ``seat``
    is that player or None, so a look-ahead for another seat never reads the
    mover's Energy, which ``action_values`` relies on), capped by what is left
    of the round's donation cap. A lower bound on what the table can do, not a
    forecast of what it will do."""
    phase = state.phase
    rules = state.rules
    room = rules.stability_cap - state.donations
    if room <= 0 or phase not in ("turns", "touchpoint", "stability"):
        return 0
    n = len(state.players)
    seats: range | list[int]
    if phase == "stability":
        seats = [(state.first + k) % n for k in range(state.stab_next, n)]
    else:
        seats = range(n)
    support = 0
    for other in seats:
        p = state.players[other]
        if not p.fragile:
            support += p.S
    mover = state.players[state.seat]
    # read as the open conversion of evaluate() reads it (no Support yet, Energy
    # 2 or more): a mover who already holds Support is counted above
    if (phase == "turns" and rules.conversion and not state.converted and not mover.fragile
            and mover.S == 0 and mover.E >= 2 and (seat is None or seat == state.seat)):
        support += 1
    return support if support < room else room


def _done_layers(state: MMState) -> set:
    inits = state.cards.initiatives
    return {inits[c].layer for c in state.completed}


def _all_done(needs, done) -> bool:
    for layer, _ in needs:
        if layer not in done:
            return False
    return True


# -- card-value terms: what a card of the pool gives, read from its printed data --

def palette_discount(state: MMState, seat: int) -> float:
    """Tokens the seat's Palette saves on the loads still ahead: over the
    Patterns not yet loaded (the Prism and the deck, read as a set, never in
    order, so a look-ahead learns nothing of the next draw), the mean number of
    their Layer icons the Palette meets (each met icon is one token fewer to
    pay, :func:`.load_pattern.unmet_icons`), times the Prism's size (a Prism's
    worth of loads). Read from the pool's Patterns, so an edit of a Pattern's
    Layer or of the icons the others need changes what a Pattern is worth."""
    need = state.rules.icon_need
    counts = state.players[seat].layers
    met = 0
    ahead = 0
    for pile in (state.prism, state.pattern_deck):
        for name in pile:
            if name is None:
                continue
            ahead += 1
            for layer, n in need[name]:
                have = counts[layer]
                met += n if n < have else have
    if not ahead:
        return 0.0
    return met * state.rules.prism_size / ahead
