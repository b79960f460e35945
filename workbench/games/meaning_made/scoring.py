"""End of the game and scoring: End Score = Vitals + Legacy; the highest wins,
ties broken by Legacy, then Vitals, then shared. A collapse (or a timeout) has
no winner; Cooperative play has everyone win or nobody. Also the two readings:
The World the Group Made (by final Meaning) and The Mark You Left (by Legacy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.game import GameResult

if TYPE_CHECKING:
    from .state import MMState


def end_score(player) -> int:
    return player.vitals + player.legacy


def winners(state: MMState) -> list[str]:
    names = state.config.players
    if state.ending != "survived":
        return []
    if state.rules.cooperative:
        return list(names)
    best = max(end_score(p) for p in state.players)
    tied = [i for i, p in enumerate(state.players) if end_score(p) == best]
    top_legacy = max(state.players[i].legacy for i in tied)
    tied = [i for i in tied if state.players[i].legacy == top_legacy]
    top_vitals = max(state.players[i].vitals for i in tied)
    tied = [i for i in tied if state.players[i].vitals == top_vitals]
    return [names[i] for i in tied]


def readings(state: MMState) -> dict:
    cards = state.cards
    world = cards.reading(cards.world_table, state.meaning)
    marks = {}
    for name, p in zip(state.config.players, state.players):
        r = cards.reading(cards.mark_table, p.legacy)
        marks[name] = {"legacy": p.legacy, "title": r.title if r else None, "reading": r.reading if r else None}
    return {
        "world": {"meaning": state.meaning, "title": world.title if world else None,
                  "reading": world.reading if world else None, "feeling": world.feeling if world else None},
        "marks": marks,
    }


def result(state: MMState) -> GameResult:
    names = state.config.players
    scores = {n: end_score(p) for n, p in zip(names, state.players)}
    ending = state.ending or "unfinished"
    details = {"meaning": state.meaning, "world_layer": state.world_layer,
               "completed": list(state.completed), **readings(state)}
    if state.rules.cooperative:
        details["cooperative"] = True
    rounds = state.round
    return GameResult(scores=scores, winners=winners(state) if state.ending else [], ending=ending,
                      turns=rounds, details=details)
