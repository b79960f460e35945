"""Action: Recycle. Discard the whole Pattern Prism and reveal 6 new cards, or
discard every unstarted Initiative in the Index and reveal replacements. A
started Initiative (one with tokens on it; by default also one holding a
marker) is never recycled, nor is the End Initiative. Limited Recycle allows
one Recycle per round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import IllegalAction

from .setup import refill_index_slot, refill_prism_slot

if TYPE_CHECKING:
    from .state import MMState


def started(state: MMState, name: str) -> bool:
    prog = state.progress.get(name)
    if prog is None:
        return False
    if prog.has_tokens():
        return True
    players = [m for m in prog.markers if m >= 0]
    return bool(players) and state.rules.options["recycle_marker_only"] == "started"


def unstarted_slots(state: MMState) -> list[int]:
    return [i for i, n in enumerate(state.index) if n is not None and not started(state, n)]


def has_unstarted(state: MMState) -> bool:
    """Whether some Index Initiative is unstarted (the quick form of
    :func:`unstarted_slots`, asked on every legal-action listing)."""
    progress = state.progress
    for name in state.index:
        if name is not None and (name not in progress or not started(state, name)):
            return True
    return False


def check_recycle(state: MMState, area: str) -> None:
    if "recycle" in state.restricted:
        raise IllegalAction("Recycle is restricted this round")
    if state.rules.limited_recycle:
        used = any(state.recycled) if state.rules.options["limited_recycle_scope"] == "table" \
            else state.recycled[state.seat]
        if used:
            raise IllegalAction("Limited Recycle: Recycle was already used this round")
    if area == "prism":
        if not any(state.prism):
            raise IllegalAction("the Prism is empty; there is nothing to recycle")
    elif not unstarted_slots(state):
        raise IllegalAction("every Initiative in the Index is started (or the Index is empty)")


def recycle(state: MMState, area: str) -> None:
    state.recycled[state.seat] = True
    if area == "prism":
        state.pattern_discard = state.pattern_discard + [n for n in state.prism if n is not None]
        state.prism = [None] * len(state.prism)
        for slot in range(len(state.prism)):
            refill_prism_slot(state, slot)
        return
    slots = unstarted_slots(state)
    for slot in slots:
        name = state.index[slot]
        prog = state.progress.pop(name, None)
        if prog is not None:  # markers only (option recycle_marker_only: unstarted) go home
            for who in prog.markers:
                if who >= 0:
                    state.players[who].markers += 1
                else:
                    state.community += 1
        state.init_discard = state.init_discard + [name]  # shared with clones: replaced
        state.index[slot] = None
    for slot in slots:
        refill_index_slot(state, slot)
