"""A Pebble Race position: plain data, cloned cheaply. ``legal_actions`` and
``apply_action`` hand over to the rules module the game binds as ``engine``
(:mod:`.game` sits above both, so the state never imports the rules)."""

from __future__ import annotations

from typing import Any, ClassVar

from workbench.core.game import TERMINAL, State


class PebbleState(State):
    __slots__ = ("config", "rng", "pool", "deck", "market", "scores", "hands", "turn", "actions",
                 "round", "over", "ending", "winners", "gambles", "target", "round_limit")

    #: the rules module (``legal_actions``, ``apply_action``), bound by :mod:`.game`
    engine: ClassVar[Any] = None

    def current_player(self) -> int:
        return TERMINAL if self.over else self.turn

    def legal_actions(self) -> list:
        return self.engine.legal_actions(self)

    def apply_action(self, action) -> None:
        self.engine.apply_action(self, action)

    def clone(self) -> "PebbleState":
        new = PebbleState.__new__(PebbleState)
        new.config, new.rng, new.pool = self.config, self.rng.copy(), self.pool
        # lists are replaced, never mutated in place, so sharing them is safe
        new.deck, new.market, new.scores = self.deck, self.market, self.scores
        new.hands = list(self.hands)
        new.turn, new.actions, new.round = self.turn, self.actions, self.round
        new.over, new.ending, new.winners = self.over, self.ending, self.winners
        new.gambles, new.target, new.round_limit = self.gambles, self.target, self.round_limit
        return new

    def is_terminal(self) -> bool:
        return self.over


def add_points(state: PebbleState, seat: int, points: int) -> None:
    """Score ``points``; reaching the target wins at once."""
    state.scores = list(state.scores)
    state.scores[seat] += points
    if state.scores[seat] >= state.target:
        finish(state, "target", [seat])


def finish(state: PebbleState, ending: str, winners: list[int]) -> None:
    state.over, state.ending, state.winners = True, ending, winners
