"""Pebble Race: a tiny card race used to exercise the playtesting machinery.

It is not one of the shipped games. It exists so that bots, batch simulation,
metrics and the OpenSpiel adapter can be tested (and demonstrated) without
depending on a full rules engine, and it has every trait those parts must cope
with: two to four seats, a shuffled deck whose order is hidden, a dice roll
inside an action, named cards, an ending where everybody loses, and shared
wins.

Rules
-----
* The deck holds six copies each of Pebble (1 point), Stone (2), Gem (4) and
  Shell (3 points, but a hand with three or more Shells loses 6 points once).
  It is shuffled at setup; three cards lie face up in the market.
* On your turn do one of: ``take <Card>`` (a market card; the slot is refilled
  from the deck), ``gamble`` (roll a die: 5-6 gains 2 points, 1 loses 1), or
  ``pass``.
* Reaching ``target`` points (option, default 12) wins at once (ending
  ``target``). When market and deck are empty, the highest score wins, ties
  share (ending ``exhausted``). After ``round_limit`` rounds (option, default
  12) nobody wins (ending ``collapsed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.errors import IllegalAction, NotationError, WorkbenchError, suggest
from workbench.core.game import TERMINAL, Game, GameConfig, GameResult, State
from workbench.core.rng import Rng

CARD_POINTS = {"Pebble": 1, "Stone": 2, "Gem": 4, "Shell": 3}
COPIES = 6
MARKET_SIZE = 3
SHELL_PENALTY_AT = 3
SHELL_PENALTY = 6


@dataclass(frozen=True)
class Take:
    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True)
class Gamble:
    def __str__(self) -> str:
        return "gamble"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


GAMBLE, PASS = Gamble(), Pass()


class PebbleState(State):
    __slots__ = ("config", "rng", "deck", "market", "scores", "hands", "turn", "actions",
                 "round", "over", "ending", "winners", "gambles", "target", "round_limit")

    def current_player(self) -> int:
        return TERMINAL if self.over else self.turn

    def legal_actions(self) -> list:
        if self.over:
            return []
        seen, out = set(), []
        for card in self.market:
            if card not in seen:
                seen.add(card)
                out.append(Take(card))
        out.append(GAMBLE)
        out.append(PASS)
        return out

    def apply_action(self, action) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        seat = self.turn
        if isinstance(action, Take):
            if action.card not in self.market:
                raise IllegalAction(f"{action.card} is not in the market")
            self.market = list(self.market)
            self.market.remove(action.card)
            if self.deck:
                self.deck = list(self.deck)
                self.market.append(self.deck.pop())
            hand = self.hands[seat] = self.hands[seat] + [action.card]
            gain = CARD_POINTS[action.card]
            if action.card == "Shell" and hand.count("Shell") == SHELL_PENALTY_AT:
                gain -= SHELL_PENALTY
            self._add(seat, gain)
        elif isinstance(action, Gamble):
            roll = self.rng.randint(1, 6)
            self.gambles += 1
            self._add(seat, 2 if roll >= 5 else (-1 if roll == 1 else 0))
        elif isinstance(action, Pass):
            pass
        else:
            raise IllegalAction(f"{action!r} is not a Pebble Race action")
        self.actions += 1
        if self.over:
            return
        if not self.market:
            best = max(self.scores)
            self._finish("exhausted", [i for i, s in enumerate(self.scores) if s == best])
            return
        self.turn = (seat + 1) % len(self.scores)
        if self.turn == 0:
            self.round += 1
            if self.round > self.round_limit:
                self.round -= 1
                self._finish("collapsed", [])

    def _add(self, seat: int, points: int) -> None:
        self.scores = list(self.scores)
        self.scores[seat] += points
        if self.scores[seat] >= self.target:
            self._finish("target", [seat])

    def _finish(self, ending: str, winners: list[int]) -> None:
        self.over, self.ending, self.winners = True, ending, winners

    def clone(self) -> "PebbleState":
        new = PebbleState.__new__(PebbleState)
        new.config, new.rng = self.config, self.rng.copy()
        # lists are replaced, never mutated in place, so sharing them is safe
        new.deck, new.market, new.scores = self.deck, self.market, self.scores
        new.hands = list(self.hands)
        new.turn, new.actions, new.round = self.turn, self.actions, self.round
        new.over, new.ending, new.winners = self.over, self.ending, self.winners
        new.gambles, new.target, new.round_limit = self.gambles, self.target, self.round_limit
        return new

    def is_terminal(self) -> bool:
        return self.over


class PebbleRace(Game):
    id = "pebble-race"
    name = "Pebble Race"
    min_players = 1
    max_players = 6
    default_players = 4
    ideal_rounds = (4, 8)

    def new_initial_state(self, config: GameConfig) -> PebbleState:
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise WorkbenchError(f"Pebble Race takes {self.min_players}-{self.max_players} players, not {n}")
        unknown = set(config.options) - {"target", "round_limit"}
        if unknown:
            raise WorkbenchError(f"unknown Pebble Race option {sorted(unknown)[0]!r}")
        s = PebbleState.__new__(PebbleState)
        s.config, s.rng = config, Rng(config.seed)
        deck = [card for card in CARD_POINTS for _ in range(COPIES)]
        s.rng.shuffle(deck)
        s.market = [deck.pop() for _ in range(MARKET_SIZE)]
        s.deck = deck
        s.scores, s.hands = [0] * n, [[] for _ in range(n)]
        s.turn = s.actions = s.gambles = 0
        s.round = 1
        s.over, s.ending, s.winners = False, "", []
        s.target = int(config.options.get("target", 12))
        s.round_limit = int(config.options.get("round_limit", 12))
        return s

    def parse_action(self, state, text: str):
        words = text.strip().split(None, 1)
        if not words:
            raise NotationError("empty action")
        verb = words[0].lower()
        if verb == "gamble" and len(words) == 1:
            return GAMBLE
        if verb == "pass" and len(words) == 1:
            return PASS
        if verb == "take" and len(words) == 2:
            for card in CARD_POINTS:
                if card.lower() == words[1].strip().lower():
                    return Take(card)
            raise NotationError(f"no card {words[1]!r}{suggest(words[1], CARD_POINTS)}")
        raise NotationError(f"cannot read {text!r}: write take <Card>, gamble or pass")

    def result(self, state: PebbleState) -> GameResult:
        names = state.config.players
        return GameResult(scores={names[i]: state.scores[i] for i in range(len(names))},
                          winners=[names[i] for i in state.winners],
                          ending=state.ending if state.over else "unfinished",
                          turns=state.round)

    def turn_count(self, state: PebbleState) -> int:
        return state.round

    def evaluate(self, state: PebbleState, seat: int, weights=None) -> float:
        w = {"points": 1.0, "shells": -0.5, **(weights or {})}
        shells = state.hands[seat].count("Shell")
        value = w["points"] * state.scores[seat] + w["shells"] * shells
        if state.over:
            value += 100.0 if seat in state.winners else -100.0
        return value

    def determinize(self, state: PebbleState, seat: int, rng: Rng) -> PebbleState:
        """The deck order and future dice are hidden from every seat: re-sample both."""
        new = state.clone()
        deck = list(state.deck)
        rng.shuffle(deck)
        new.deck = deck
        new.rng = Rng(rng.next64())
        return new

    def action_cards(self, state, action) -> tuple[str, ...]:
        return (action.card,) if isinstance(action, Take) else ()

    def game_stats(self, state: PebbleState) -> dict:
        return {"gambles": state.gambles, "cards_taken": sum(len(h) for h in state.hands)}

    def card_stats(self, state: PebbleState) -> list[dict]:
        rows = []
        for card in CARD_POINTS:
            held = sum(h.count(card) for h in state.hands)
            if held:
                rows.append({"card": card, "copies_held": held})
        return rows


GAME = PebbleRace()
