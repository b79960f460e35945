"""Action: Load Pattern. Pay the printed tokens exactly, meet each Layer icon
with a Pattern of that Layer in your Palette (checked, not spent) or with one
extra token of any kind, pay any Vitals cost; place the card in your Palette,
check the World Layer (+1 Legacy to you if it rises), resolve the Pattern Bonus
and the Pattern Consequence, and refill the Prism.

Default payment (no ``with``): the printed tokens, then each extra token from
the kind you hold most of once the printed tokens are set aside (ties: E, I, S).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .consequences import apply_effect, change_vitals, resolve_consequence
from .notation import format_tokens
from .setup import refill_prism_slot
from .tracks import gain_tokens, world_layer_check

if TYPE_CHECKING:
    from .state import MMState


def unmet_icons(have: list, need) -> int:
    """Layer icons not met by the Palette: ``have`` counts Patterns per Layer,
    ``need`` is ``((layer, icons), ...)`` (a Layer shown twice needs two)."""
    missing = 0
    for layer, n in need:
        if have[layer] < n:
            missing += n - have[layer]
    return missing


def extra_tokens(state: MMState, seat: int, card) -> int:
    """Tokens of any kind owed beyond the printed ones: unmet icons, Hard Mode's
    optional +1, and Pattern Fatigue's +1 from the 11th Pattern on."""
    rules = state.rules
    extra = unmet_icons(state.players[seat].layers, rules.icon_need[card.name]) + rules.pattern_extra
    if rules.fatigue_free is not None and len(state.players[seat].palette) >= rules.fatigue_free:
        extra += rules.fatigue_extra
    return extra


def default_payment(p, printed: tuple, extra: int):
    left = [p.E - printed[0], p.I - printed[1], p.S - printed[2]]
    if min(left) < 0:
        return None
    pay = list(printed)
    for _ in range(extra):
        k = max(range(3), key=lambda i: left[i])
        if left[k] <= 0:
            return None
        left[k] -= 1
        pay[k] += 1
    return pay


def plan_load(state: MMState, action):
    """Validate a load and return ``(slot, card, pay[E,I,S], vitals)``; raises
    :class:`IllegalAction` saying why, changing nothing."""
    if "load" in state.restricted:
        raise IllegalAction("loading Patterns is restricted this round")
    name = action.pattern
    if name not in state.prism:
        where = "in your Palette" if name in state.players[state.seat].palette else "not in the Prism"
        raise IllegalAction(f"{name} is {where}; face up: {', '.join(n for n in state.prism if n) or 'nothing'}")
    slot = state.prism.index(name)
    card = state.cards.patterns[name]
    p = state.players[state.seat]
    t = card.requirement.tokens
    printed = (t.E, t.I, t.S)
    extra = extra_tokens(state, state.seat, card)
    vit = card.requirement.vitals
    if action.pay is None:
        pay = default_payment(p, printed, extra)
        if pay is None:
            raise IllegalAction(f"{name} needs {format_tokens(printed + (0,)) or 'no printed tokens'}"
                                f" plus {extra} token(s) of any kind; you have {format_tokens((p.E, p.I, p.S, 0)) or 'none'}")
    else:
        pay = list(action.pay[:3])
        if action.pay[3] not in (0, vit):
            raise IllegalAction(f"{name} costs {vit} Vitals, not {action.pay[3]}")
        for k, kind in enumerate("EIS"):
            if pay[k] < printed[k]:
                raise IllegalAction(f"{name} needs {printed[k]} {kind} printed; the payment has {pay[k]}")
        total = sum(pay) - sum(printed)
        if total != extra:
            raise IllegalAction(f"{name} needs exactly {sum(printed) + extra} tokens "
                                f"({extra} beyond the printed ones); the payment has {sum(pay)}")
        for k, kind in enumerate("EIS"):
            if pay[k] > getattr(p, kind):
                raise IllegalAction(f"you have {getattr(p, kind)} {kind}, the payment needs {pay[k]}")
    if vit and p.vitals < vit:
        raise IllegalAction(f"{name} costs {vit} Vitals and you have {p.vitals}")
    return slot, card, pay, vit


def add_to_palette(p, card) -> None:
    """The card joins the Palette. New lists, because clones of the state share
    them (``Player.copy``)."""
    p.palette = p.palette + [card.name]
    layers = p.layers[:]
    layers[card.layer] += 1
    p.layers = layers


def load_pattern(state: MMState, plan) -> None:
    slot, card, pay, vit = plan
    seat = state.seat
    p = state.players[seat]
    p.E -= pay[0]
    p.I -= pay[1]
    p.S -= pay[2]
    add_to_palette(p, card)
    state.prism[slot] = None
    if vit:
        change_vitals(state, seat, -vit)
    world_layer_check(state, card.layer, (seat,))
    if card.bonus is not None:
        b = card.bonus
        gain_tokens(state, seat, b.E, b.I, b.S)
        if b.vitals:
            change_vitals(state, seat, b.vitals)
        rest = state.rules.bonus_rest[card.name]
        if rest is not None:
            apply_effect(state, rest, affected=seat)
    if card.consequence is not None:
        resolve_consequence(state, card.consequence.table, card.consequence.code, affected=seat)
    refill_prism_slot(state, slot)


def affordable_loads(state: MMState) -> list:
    """Prism Patterns the player to move can load with the default payment."""
    if "load" in state.restricted:
        return []
    p = state.players[state.seat]
    have = p.layers
    rules = state.rules
    fixed = rules.pattern_extra + (rules.fatigue_extra if rules.fatigue_free is not None
                                   and len(p.palette) >= rules.fatigue_free else 0)
    need, cost, made = rules.icon_need, rules.pattern_cost, rules.load_actions
    E, I, S, V = p.E, p.I, p.S, p.vitals
    total = E + I + S
    out = []
    for name in state.prism:
        if name is None:
            continue
        e, i, s_, v = cost[name]
        if E < e or I < i or S < s_ or V < v:
            continue
        extra = fixed
        for layer, n in need[name]:
            if have[layer] < n:
                extra += n - have[layer]
        if total - e - i - s_ >= extra:
            out.append(made[name])
    return out
