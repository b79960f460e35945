"""A tiny card game used to test the game-agnostic machinery without depending
on any bundled game's rules.

"Market": a shuffled deck of numbered cards (1..9, two copies each); three lie
face up. On a turn a player takes one face-up card (``take 7``) or, once per game,
refreshes the row (``refresh``). The game ends when the deck and row run out;
highest total wins, ties share the win."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.errors import IllegalAction, NotationError
from workbench.core.game import TERMINAL, Game, GameConfig, GameResult, State
from workbench.core.rng import Rng


@dataclass(frozen=True)
class Take:
    value: int

    def __str__(self):
        return f"take {self.value}"


@dataclass(frozen=True)
class Refresh:
    def __str__(self):
        return "refresh"


class MarketState(State):
    def __init__(self, config: GameConfig):
        self.config = config
        self.rng = Rng(config.seed)
        self.deck = [v for v in range(1, 10) for _ in range(2)]
        self.rng.shuffle(self.deck)
        self.row = [self.deck.pop() for _ in range(3)]
        self.hands = [[] for _ in config.players]
        self.refreshed = [False] * len(config.players)
        self.turn = 0
        self.actions_taken = 0

    def clone(self):
        c = object.__new__(MarketState)
        c.config, c.rng = self.config, self.rng.copy()
        c.deck, c.row = list(self.deck), list(self.row)
        c.hands = [list(h) for h in self.hands]
        c.refreshed = list(self.refreshed)
        c.turn, c.actions_taken = self.turn, self.actions_taken
        return c

    def is_terminal(self):
        return not self.row

    def current_player(self):
        return TERMINAL if self.is_terminal() else self.turn

    def legal_actions(self):
        if self.is_terminal():
            return []
        acts = [Take(v) for v in sorted(set(self.row))]
        if not self.refreshed[self.turn] and self.deck:
            acts.append(Refresh())
        return acts

    def apply_action(self, action):
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if isinstance(action, Take):
            if action.value not in self.row:
                raise IllegalAction(f"no {action.value} in the row")
            self.row.remove(action.value)
            self.hands[self.turn].append(action.value)
            if self.deck:
                self.row.append(self.deck.pop())
        elif isinstance(action, Refresh):
            if self.refreshed[self.turn] or not self.deck:
                raise IllegalAction("refresh is allowed once per game while the deck lasts")
            self.refreshed[self.turn] = True
            self.deck[:0] = self.row
            self.rng.shuffle(self.deck)
            self.row = [self.deck.pop() for _ in range(min(3, len(self.deck)))]
        else:
            raise IllegalAction(f"not an action of this game: {action!r}")
        self.actions_taken += 1
        self.turn = (self.turn + 1) % len(self.hands)


class MarketGame(Game):
    id = "toy-market"
    name = "Toy Market"
    min_players, max_players, default_players = 2, 4, 2

    def new_initial_state(self, config):
        return MarketState(config)

    def parse_action(self, state, text):
        t = text.strip().lower()
        if t == "refresh":
            return Refresh()
        if t.startswith("take "):
            try:
                return Take(int(t[5:]))
            except ValueError:
                pass
        raise NotationError(f"cannot read {text!r}: write 'take N' or 'refresh'")

    def result(self, state):
        totals = {n: sum(h) for n, h in zip(state.config.players, state.hands)}
        best = max(totals.values())
        return GameResult(scores=totals, winners=[n for n, v in totals.items() if v == best],
                          ending="finished" if state.is_terminal() else "unfinished",
                          turns=state.actions_taken // len(state.hands))

    def evaluate(self, state, seat, weights=None):
        mine = sum(state.hands[seat])
        other = max(sum(h) for i, h in enumerate(state.hands) if i != seat)
        return mine - other

    def action_cards(self, state, action):
        return (f"card {action.value}",) if isinstance(action, Take) else ()

    def observe(self, state):
        return {"row": sorted(state.row), "deck": len(state.deck), "over": state.is_terminal(),
                "players": {n: {"total": sum(h), "cards": len(h)}
                            for n, h in zip(state.config.players, state.hands)}}


GAME = MarketGame()
