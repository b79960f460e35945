"""The game protocol every bundled game implements.

Modelled on OpenSpiel's State API and python-chess: a :class:`Game` makes
:class:`State` objects; a state lists its legal actions, applies one in place
(or refuses it and stays unchanged), clones cheaply, and knows when it is over.
Actions are small immutable objects whose ``str()`` is the game's text notation;
``Game.parse_action`` turns that text back into the same object, so logs,
scenarios, the dashboard and the API all speak one notation.

All randomness comes from ``state.rng`` (one :class:`~workbench.core.rng.Rng`
per game), so a seed and a list of actions always rebuild the same game.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .errors import IllegalAction, NotationError
from .rng import Rng

TERMINAL = -1
"""``current_player()`` of a finished game."""


@dataclass(frozen=True)
class GameConfig:
    """What a new game is made from: seat names, the seed, variants, options.

    ``options`` holds game-specific switches (ruling alternatives, round limits,
    difficulty...); each game documents and validates its own."""

    players: tuple[str, ...]
    seed: int = 0
    variants: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "variants", tuple(self.variants))
        object.__setattr__(self, "options", dict(self.options))

    def to_dict(self) -> dict:
        return {"players": list(self.players), "seed": self.seed,
                "variants": list(self.variants), "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping) -> "GameConfig":
        return cls(players=tuple(data["players"]), seed=int(data.get("seed", 0)),
                   variants=tuple(data.get("variants", ())), options=dict(data.get("options", {})))


@dataclass
class GameResult:
    """How a finished (or abandoned) game came out.

    ``ending`` names how it ended (``survived``, ``collapsed``, ``timeout``, a World
    Ending...). ``winners`` may be empty (everyone lost) or hold several names."""

    scores: dict[str, float]
    winners: list[str]
    ending: str
    turns: int
    details: dict = field(default_factory=dict)


class State(abc.ABC):
    """One position of a game. Subclasses hold plain data only."""

    rng: Rng
    config: GameConfig

    @abc.abstractmethod
    def current_player(self) -> int:
        """Seat index of whoever must decide now, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> list:
        """Every action the current decision maker may take, in a stable order."""

    def legal_action_count(self) -> int:
        """``len(self.legal_actions())``; a game may count without listing."""
        return len(self.legal_actions())

    def legal_action(self, index: int):
        """``self.legal_actions()[index]``; a game may build just that one action."""
        return self.legal_actions()[index]

    def sample_legal_action(self, rng) -> tuple:
        """``(action, count)``: the action a uniformly random player takes, with
        the number of legal actions. Draws exactly what ``rng.choice(legal_actions())``
        draws (one ``randbelow(count)``) and picks the same action, so a game that
        overrides this to skip building the whole list plays the same games."""
        legal = self.legal_actions()
        k = len(legal)
        if not k:
            raise IndexError("no legal action to sample")
        return legal[rng.randbelow(k)], k

    @abc.abstractmethod
    def apply_action(self, action) -> None:
        """Apply ``action`` in place. Raises :class:`IllegalAction` (saying why)
        and leaves the state unchanged if the rules forbid it."""

    @abc.abstractmethod
    def clone(self) -> "State":
        """An independent copy (its rng included)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True once the game has ended."""

    def player_name(self, seat: int) -> str:
        return self.config.players[seat]

    @property
    def num_players(self) -> int:
        return len(self.config.players)


class Game(abc.ABC):
    """A game's rules as a factory of states plus notation and scoring."""

    id: str
    name: str
    min_players: int
    max_players: int
    #: variant id -> one-line description
    variants: Mapping[str, str] = {}

    # -- making states -------------------------------------------------
    @abc.abstractmethod
    def new_initial_state(self, config: GameConfig) -> State:
        """A fresh game set up from ``config`` (validates players and variants)."""

    def config(self, players: int | Sequence[str] = 4, seed: int = 0,
               variants: Iterable[str] = (), **options) -> GameConfig:
        """Convenience: a :class:`GameConfig` with default seat names."""
        names = default_names(players) if isinstance(players, int) else tuple(players)
        return GameConfig(players=names, seed=seed, variants=tuple(variants), options=options)

    # -- notation --------------------------------------------------------
    @abc.abstractmethod
    def parse_action(self, state: State, text: str):
        """Parse ``text`` in the game's notation for ``state``; raises
        :class:`NotationError` with a suggestion for misspelt names."""

    def format_action(self, state: State, action) -> str:
        return str(action)

    def coerce_action(self, state: State, action):
        """Accept an action object or its text."""
        return self.parse_action(state, action) if isinstance(action, str) else action

    def apply(self, state: State, action) -> State:
        """Pure reducer: a new state after ``action``; ``state`` is untouched."""
        nxt = state.clone()
        nxt.apply_action(self.coerce_action(state, action))
        return nxt

    # -- outcome -------------------------------------------------------------
    @abc.abstractmethod
    def result(self, state: State) -> GameResult:
        """Scores, winners, ending and turns of a finished game (or the current
        standing of an unfinished one, ending ``unfinished``)."""

    def evaluate(self, state: State, seat: int, weights: Mapping[str, float] | None = None) -> float:
        """Heuristic value of ``state`` for ``seat`` (higher is better), used by
        greedy bots and by the Drama/Lead-change metrics. ``weights`` are a
        designer's setting; each game documents its features and defaults."""
        return 0.0

    def action_values(self, state: State, seat: int, actions, weights: Mapping[str, float] | None = None) -> list[float]:
        """``evaluate`` of the position each action leads to, for ``seat``, in the
        order given (what the greedy bot compares). A game may override this to
        skip look-aheads it knows give equal values; the result must be the same."""
        out = []
        for action in actions:
            nxt = state.clone()
            nxt.apply_action(action)
            out.append(self.evaluate(nxt, seat, weights))
        return out

    def turn_count(self, state: State) -> int:
        """Rounds (or cycles) played so far."""
        return self.result(state).turns

    # -- statistics hooks (used by batch simulation and restricted-play bots) --
    def action_cards(self, state: State, action) -> tuple[str, ...]:
        """Names of the cards ``action`` takes, loads or plays in ``state`` (empty
        for actions that involve no card). Restricted-play bots ban or force a
        card through this, and card-use statistics count it."""
        return ()

    def game_stats(self, state: State) -> dict:
        """Game-specific numbers for one finished game (flat, JSON-able), e.g.
        Initiatives completed; they become columns of the per-game table."""
        return {}

    def card_stats(self, state: State) -> list[dict]:
        """Per-card rows for one finished game, each with at least ``card``; e.g.
        an Initiative's number of contributors when it completed."""
        return []

    # -- scenarios -----------------------------------------------------------
    def scenario_state(self, setup: Mapping) -> State:
        """A position built from a scenario's ``setup`` block."""
        players = setup.get("players", 4)
        cfg = self.config(players, seed=int(setup.get("seed", 0)),
                          variants=setup.get("variants", ()), **dict(setup.get("options", {})))
        return self.new_initial_state(cfg)

    def scenario_step(self, state: State, step: Mapping) -> bool:
        """Handle a game-specific step kind (e.g. stating what an Event did).
        Return True if handled; the default handles none."""
        return False

    def observe(self, state: State) -> dict:
        """The values a scenario's ``expect`` block may name (see each game's docs).
        Per-player values live under ``players: {name: {...}}``."""
        return {}

    def validate_data(self) -> list[str]:
        """Problems found in the game's card data (empty when valid)."""
        return []


def default_names(n: int) -> tuple[str, ...]:
    base = ["Alex", "Brooke", "Casey", "Drew", "Eva", "Finn"]
    return tuple(base[i] if i < len(base) else f"P{i + 1}" for i in range(n))


def resolve_seat(state: State, who: str | int) -> int:
    """Seat index from a player name (case-insensitive) or index."""
    if isinstance(who, int):
        return who
    names = [n.lower() for n in state.config.players]
    try:
        return names.index(str(who).lower())
    except ValueError:
        from .errors import suggest
        raise NotationError(f"no player named {who!r}{suggest(str(who), state.config.players)}") from None


__all__ = ["TERMINAL", "GameConfig", "GameResult", "State", "Game", "IllegalAction",
           "NotationError", "default_names", "resolve_seat"]
