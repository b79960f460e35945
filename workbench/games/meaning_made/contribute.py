"""Action: Contribute to an Initiative, and Initiative completion.

Contributing: choose a face-up Initiative, commit tokens into its unfilled
boxes (never into filled ones), and on your first contribution place your
marker in the highest-scoring open Contribution Order space (one marker per
player per Initiative; the order never changes). When the token boxes are all
filled but a Layer (or, by ruling, a contributor) is missing, a player may
contribute their marker alone to supply it.

Completion: the moment every box is filled, the contributors' Palettes show
every required Layer, and the card's other requirements hold (contributor
count, earlier completed Initiatives, Patterns in play), the Initiative
completes: Legacy by Contribution Order (5 / 3 / 1...), the Meaning reward, the
Completion Bonus, the World Layer check (+1 Legacy to each contributor if it
rises), the Completion Penalty, markers go home, the Index slot refills. The End
Initiative ends the game instead of refilling.

Default payment (no ``with``): every open E, I and S box you can fill from what
you hold; never Vitals (name ``V`` to commit Vitals).
"""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .consequences import apply_effect, change_vitals, resolve_consequence
from .notation import KINDS, format_tokens
from .setup import progress_of, refill_index_slot
from .state import COMMUNITY, MMState, finish
from .tracks import change_legacy, change_meaning, world_layer_check


def open_boxes(state: MMState, name: str) -> list[int]:
    b = state.rules.box_tuple[name]
    prog = state.progress.get(name)
    if prog is None:
        return list(b)
    f = prog.filled
    return [b[0] - f["E"], b[1] - f["I"], b[2] - f["S"], b[3] - f["V"]]


def missing_layers(state: MMState, name: str, seats) -> list[int]:
    """Required Layers the given contributors' Palettes do not show (a Layer
    shown twice on the card needs two Patterns of it among them)."""
    out = []
    players = state.players
    for layer, n in state.rules.layer_need[name]:
        have = 0
        for seat in seats:
            have += players[seat].layers[layer]
        if have < n:
            out.extend([layer] * (n - have))
    return out


def earlier_missing(state: MMState, name: str) -> list[int]:
    """Layers of earlier completed Initiatives the card needs and the game lacks."""
    need = state.rules.completed_need[name]
    if not need:
        return []
    inits = state.cards.initiatives
    out = []
    for layer, n in need:
        done = sum(1 for c in state.completed if inits[c].layer == layer)
        if done < n:
            out.append(layer)
    return out


def prerequisites_missing(state: MMState, name: str) -> list[str]:
    """The card's requirements beyond boxes and Layers that do not hold yet."""
    req = state.cards.initiatives[name].requirement
    out = [f"a completed Layer {layer} Initiative" for layer in earlier_missing(state, name)]
    if req.patterns_in_play:
        in_play = sum(len(p.palette) for p in state.players)
        if in_play < req.patterns_in_play:
            out.append(f"{req.patterns_in_play} Patterns in play (now {in_play})")
    return out


def plan_contribute(state: MMState, action):
    """Validate; returns ``(name, pay[E,I,S,V], first_time)``."""
    if "contribute" in state.restricted:
        raise IllegalAction("contributing is restricted this round")
    name = action.initiative
    if name not in state.face_up_initiatives():
        if name in state.completed:
            raise IllegalAction(f"{name} is already completed")
        raise IllegalAction(f"{name} is not face up; face up: {', '.join(state.face_up_initiatives()) or 'nothing'}")
    seat = state.seat
    p = state.players[seat]
    card = state.cards.initiatives[name]
    prog = state.progress.get(name)
    markers = prog.markers if prog else []
    first_time = seat not in markers
    if first_time:
        if p.markers <= 0:
            raise IllegalAction(f"all your {state.rules.markers} contribution markers are out")
        if len(markers) >= card.order_spaces:
            raise IllegalAction(f"every Contribution Order space on {name} is taken")
    if state.rules.options["prerequisites"] == "contribution":
        missing = earlier_missing(state, name)
        if missing:
            raise IllegalAction(f"{name} needs a completed Initiative of Layer "
                                f"{', '.join(map(str, missing))} before anyone contributes")
    opened = open_boxes(state, name)
    if action.pay is None:
        pay = [min(opened[0], p.E), min(opened[1], p.I), min(opened[2], p.S), 0]
    else:
        pay = list(action.pay)
        for k, kind in enumerate(KINDS):
            if pay[k] > opened[k]:
                have = "no open box" if opened[k] <= 0 else f"only {opened[k]} open box(es)"
                raise IllegalAction(f"{name} has {have} for {kind}; filled boxes take no more tokens")
            if pay[k] > p.tokens(kind):
                raise IllegalAction(f"you have {p.tokens(kind)} {'Vitals' if kind == 'V' else kind}, "
                                    f"the contribution needs {pay[k]}")
    if sum(pay) == 0:
        why = marker_only_refusal(state, name, seat, first_time, opened)
        if why:
            raise IllegalAction(why)
    return name, pay, first_time


def marker_only_refusal(state: MMState, name: str, seat: int, first_time: bool, opened) -> str | None:
    """None if ``seat`` may contribute only a marker to ``name``, else why not."""
    if not first_time:
        return "a contribution commits at least one token (your marker is already there)"
    if state.rules.options["bare_marker"]:
        return None
    if any(n > 0 for n in opened[:4]):
        return (f"a contribution commits at least one token into an open box "
                f"(open: {format_tokens(tuple(max(0, n) for n in opened)) or 'none'}); "
                f"a marker alone is allowed only once every token box is filled")
    now = state.contributors(name)
    missing_now = missing_layers(state, name, now)
    if missing_now and len(missing_layers(state, name, now + [seat])) < len(missing_now):
        return None
    if len(now) < state.rules.needed[name] and state.rules.options["marker_only"] == "layers_or_contributors":
        return None
    return "your Palette supplies none of the missing Layers" + (
        " and no contributor is missing" if state.rules.options["marker_only"] == "layers_or_contributors" else "")


def contribute(state: MMState, plan) -> None:
    name, pay, first_time = plan
    seat = state.seat
    p = state.players[seat]
    prog = progress_of(state, name)
    p.E -= pay[0]
    p.I -= pay[1]
    p.S -= pay[2]
    f = prog.filled
    f["E"] += pay[0]
    f["I"] += pay[1]
    f["S"] += pay[2]
    f["V"] += pay[3]
    if first_time:
        prog.markers.append(seat)
        p.markers -= 1
    if pay[3]:
        change_vitals(state, seat, -pay[3])


def completion_missing(state: MMState, name: str) -> list[str]:
    """Everything but tokens still missing before ``name`` completes (empty: it completes
    once its boxes are full, which :func:`completes`, the only caller, checks first)."""
    out = []
    seats = state.contributors(name)
    miss = missing_layers(state, name, seats)
    if miss:
        out.append("Layers " + ", ".join(map(str, miss)))
    need = state.rules.needed[name]
    if len(seats) < need:
        out.append(f"{need} contributors (now {len(seats)})")
    out.extend(prerequisites_missing(state, name))
    return out


def completes(state: MMState, name: str) -> bool:
    """True when every requirement of a face-up Initiative holds: its boxes first
    (quick), then the rest, contributors included (:func:`completion_missing`)."""
    prog = state.progress.get(name)
    if prog is None:
        return False
    f, boxes = prog.filled, state.rules.boxes[name]
    if f["E"] < boxes["E"] or f["I"] < boxes["I"] or f["S"] < boxes["S"] or f["V"] < boxes["V"]:
        return False
    return not completion_missing(state, name)


def check_completions(state: MMState, actor: int, names) -> None:
    """Complete every face-up Initiative whose requirements all hold: an
    Initiative completes the moment its last requirement is met. That moment
    can come from a contribution (``names``: that card), from a load (a
    contributor's Palette now shows a Layer, or Patterns in play rise) or from
    another completion (an earlier completed Initiative it needed), after which
    every face-up card is checked again."""
    candidates = [n for n in names if n in state.progress]
    while state.ending is None:
        for name in candidates:
            if completes(state, name):
                complete(state, name, actor)
                break
        else:
            return
        candidates = state.face_up_initiatives()


def legacy_for_rank(rules, rank: int) -> int:
    return rules.order_rewards[rank] if rank < len(rules.order_rewards) else rules.other_reward


def complete(state: MMState, name: str, actor: int) -> None:
    card = state.cards.initiatives[name]
    prog = state.progress[name]
    rules = state.rules
    seats = [m for m in prog.markers if m != COMMUNITY]
    # Legacy by Contribution Order; a Community marker takes its rank (solo).
    # Cooperative play ignores Legacy, but it is still recorded for the readings.
    for rank, who in enumerate(prog.markers):
        if who != COMMUNITY:
            change_legacy(state, who, legacy_for_rank(rules, rank))
    change_meaning(state, card.meaning)
    # Ruling chain-completion-player: "the player who completed it" is the acting
    # player only if they contributed to this card; a card completed in a chain by
    # someone else's action names its first contributor instead.
    affected = actor
    if actor not in seats and seats and rules.options["chain_player"] == "first_contributor":
        affected = seats[0]
    if card.bonus is not None:
        apply_effect(state, card.bonus, affected=affected, contributors=seats)
    world_layer_check(state, card.layer, seats)
    if card.penalty is not None:
        resolve_consequence(state, card.penalty.table, card.penalty.code, affected=affected, contributors=seats)
    for who in prog.markers:
        if who == COMMUNITY:
            state.community += 1
        else:
            state.players[who].markers += 1
    del state.progress[name]
    # shared with clones (MMState.clone): replaced, never changed in place
    state.completed = state.completed + [name]
    state.completions = state.completions + [(name, state.round, tuple(seats), actor)]
    if name == state.end:
        state.end = None
        finish(state, "survived")
        return
    slot = state.index.index(name)
    refill_index_slot(state, slot, after_completion=True)


def contribution_options(state: MMState) -> list:
    """Contributions the player to move may make: per face-up Initiative the
    default payment, plus one token of each single kind that fits (E, I, S, V)."""
    if "contribute" in state.restricted:
        return []
    seat = state.seat
    p = state.players[seat]
    rules = state.rules
    made, boxes, spaces = rules.contribute_actions, rules.box_tuple, rules.order_spaces
    bare = rules.options["bare_marker"]
    prereq_gate = rules.options["prerequisites"] == "contribution"
    E, I, S, V = p.E, p.I, p.S, p.vitals
    has_marker = p.markers > 0
    out = []
    progress = state.progress
    names = [n for n in state.index if n is not None]
    if state.end is not None:
        names.append(state.end)
    for name in names:
        prog = progress.get(name)
        b = boxes[name]
        if prog is None:
            if not has_marker:
                continue
            first_time = True
            oe, oi, os_, ov = b
        else:
            first_time = seat not in prog.markers
            if first_time and (not has_marker or len(prog.markers) >= spaces[name]):
                continue
            f = prog.filled
            oe, oi, os_, ov = b[0] - f["E"], b[1] - f["I"], b[2] - f["S"], b[3] - f["V"]
        if prereq_gate and earlier_missing(state, name):
            continue
        de = oe if oe < E else E
        di = oi if oi < I else I
        ds = os_ if os_ < S else S
        actions = made[name]
        if de > 0 or di > 0 or ds > 0:
            out.append(actions[0])
        elif first_time and (bare or (oe <= 0 and oi <= 0 and os_ <= 0 and ov <= 0
                                      and marker_only_refusal(state, name, seat, True, [oe, oi, os_, ov]) is None)):
            out.append(actions[0])
        # single-kind contributions, unless the default payment is that very token
        dsum = (de > 0) + (di > 0) + (ds > 0)
        if oe > 0 and E > 0 and not (dsum == 1 and de == 1):
            out.append(actions[1])
        if oi > 0 and I > 0 and not (dsum == 1 and di == 1):
            out.append(actions[2])
        if os_ > 0 and S > 0 and not (dsum == 1 and ds == 1):
            out.append(actions[3])
        if ov > 0 and V > 0:
            out.append(actions[4])
    return out
