"""Action: Touchpoint. Give a token you hold, or request one the other player
holds: exactly 1 token of one kind; the other player answers (``accept``/``decline``). If the token changes hands both gain
+1 Vitals, or +2 each when either of them is Fragile (Social Requirement: no
Vitals while Meaning is 3 or lower). Once per round per player, whether it
succeeds or not. Not available in solo play (ruling ``solo-touchpoint``)."""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from .state import PHASE_TOUCHPOINT, MMState
from .consequences import change_vitals


def plan_touchpoint(state: MMState, action) -> int:
    if state.rules.solo:
        raise IllegalAction("there is no other player to make a Touchpoint with in solo play")
    if "touchpoint" in state.restricted:
        raise IllegalAction("Touchpoint is restricted this round")
    if state.touch_used[state.seat]:
        raise IllegalAction("you have already used your Touchpoint this round")
    other = state.rules.seat_by_name.get(action.other.lower())
    if other is None:
        from workbench.core.errors import suggest
        raise IllegalAction(f"no player named {action.other!r}{suggest(action.other, state.config.players)}")
    if other == state.seat:
        raise IllegalAction("a Touchpoint is made with another player")
    if action.mode == "give" and getattr(state.players[state.seat], action.token) < 1:
        raise IllegalAction(f"you have no {action.token} to give")
    if action.mode == "request" and getattr(state.players[other], action.token) < 1:
        # holdings are open information, so such a request could only be
        # declined; refused as the legal list leaves it out (touchpoint_options)
        raise IllegalAction(f"{state.player_name(other)} has no {action.token} to give")
    return other


def propose(state: MMState, action, other: int) -> None:
    state.touch_used[state.seat] = True
    if state.rules.options["touchpoint_limit"] == "both":
        state.touch_used[other] = True
    state.actions_left -= 1
    state.pending = (state.seat, other, action.mode, action.token)
    state.phase = PHASE_TOUCHPOINT
    state.decider = other


def exchange_possible(state: MMState) -> str | None:
    """None if the pending exchange can happen, else why not."""
    frm, to, mode, token = state.pending
    giver = frm if mode == "give" else to
    if getattr(state.players[giver], token) < 1:
        return f"{state.player_name(giver)} has no {token} to give"
    return None


def check_answer(state: MMState, accept: bool) -> None:
    if accept:
        why = exchange_possible(state)
        if why:
            raise IllegalAction(f"cannot accept: {why}")


def answer(state: MMState, accept: bool) -> None:
    frm, to, mode, token = state.pending
    state.pending = None
    if not accept:
        return
    giver, taker = (frm, to) if mode == "give" else (to, frm)
    g, t = state.players[giver], state.players[taker]
    setattr(g, token, getattr(g, token) - 1)
    setattr(t, token, getattr(t, token) + 1)
    rules = state.rules
    if rules.social_meaning is not None and state.meaning <= rules.social_meaning:
        return
    gain = 2 if (state.players[frm].fragile or state.players[to].fragile) else 1
    change_vitals(state, frm, gain)
    change_vitals(state, to, gain)
