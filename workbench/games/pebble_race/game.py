"""Pebble Race: a tiny card race used to exercise the playtesting machinery, and
the template of a new game (docs/reference/game-contract.md): this module ties the parts
(:mod:`.data`, :mod:`.state`, :mod:`.actions`, :mod:`.flow`, :mod:`.notation`,
:mod:`.scenario`, :mod:`.evaluation`, :mod:`.checks`, :mod:`.drawing`) into the
workbench's :class:`~workbench.core.game.Game` contract.

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

from typing import Mapping

from workbench.core.errors import WorkbenchError
from workbench.core.game import Game, GameConfig, GameResult, Option
from workbench.core.rng import Rng

from . import evaluation, flow, notation, scenario
from .checks import pool_problems
from .data import MARKET_SIZE, POOL, Pool, load_cards
from .notation import Take
from .state import PebbleState

# The state hands legal_actions and apply_action to the flow; the game layer,
# which sits above both, wires them.
PebbleState.engine = flow


class PebbleRace(Game):
    id = "pebble-race"
    name = "Pebble Race"
    min_players = 1
    max_players = 6
    default_players = 4
    ideal_rounds = (4, 8)
    version = "1"
    #: one line per move kind beside a playtest seat page's buttons
    passing_kinds = ("pass",)
    move_help = {"take": "Take a card from the market (the slot is refilled from the deck); a third Shell costs 6.",
                 "gamble": "Roll a die: 5 or 6 gains 2 points, 1 loses 1.",
                 "pass": "Do nothing this turn."}
    options = {
        "target": Option(12, int, "points that win at once"),
        "round_limit": Option(12, int, "rounds after which the game ends with nobody winning"),
    }
    default_weights = evaluation.DEFAULT_WEIGHTS
    #: the deck order (the scenario view shows its size only)
    hidden_information = True
    card_pool_type = Pool
    pool_spec = POOL

    def load_cards(self, folder=None) -> Pool:
        return load_cards(folder)

    def new_initial_state(self, config: GameConfig) -> PebbleState:
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise WorkbenchError(f"Pebble Race takes {self.min_players}-{self.max_players} players, not {n}")
        unknown = set(config.options) - set(self.options)
        if unknown:
            raise WorkbenchError(f"unknown Pebble Race option {sorted(unknown)[0]!r}")
        pool = self.cards()
        s = PebbleState.__new__(PebbleState)
        s.config, s.rng, s.pool = config, Rng(config.seed), pool
        deck = pool.deck()
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

    def parse_action(self, state: PebbleState, text: str):
        return notation.parse(text, list(state.pool.points))

    def result(self, state: PebbleState) -> GameResult:
        names = state.config.players
        return GameResult(scores={names[i]: state.scores[i] for i in range(len(names))},
                          winners=[names[i] for i in state.winners],
                          ending=state.ending if state.over else "unfinished",
                          turns=state.round)

    def turn_count(self, state: PebbleState) -> int:
        return state.round

    def features(self, state: PebbleState, seat: int) -> dict[str, float]:
        return evaluation.features(state, seat)

    def evaluate(self, state: PebbleState, seat: int, weights: Mapping[str, float] | None = None) -> float:
        return evaluation.evaluate(state, seat, weights)

    def determinize(self, state: PebbleState, seat: int, rng: Rng) -> PebbleState:
        """The deck order and future dice are hidden from every seat: re-sample both."""
        new = state.clone()
        deck = list(state.deck)
        rng.shuffle(deck)
        new.deck = deck
        new.rng = Rng(rng.next64())
        return new

    def action_cards(self, state: PebbleState, action) -> tuple[str, ...]:
        return (action.card,) if isinstance(action, Take) else ()

    def game_stats(self, state: PebbleState) -> dict:
        return {"gambles": state.gambles, "cards_taken": sum(len(h) for h in state.hands)}

    def card_stats(self, state: PebbleState) -> list[dict]:
        rows = []
        for card in state.pool.points:
            held = sum(h.count(card) for h in state.hands)
            if held:
                rows.append({"card": card, "copies_held": held})
        return rows

    def scenario_state(self, setup: Mapping) -> PebbleState:
        return scenario.build(self, setup)

    def observe(self, state: PebbleState) -> dict:
        return scenario.observe(state)

    def drawing(self, state: PebbleState):
        from .drawing import scores_figure
        return scores_figure(state)

    def validate_data(self) -> list[str]:
        return pool_problems(self.cards())


GAME = PebbleRace()
