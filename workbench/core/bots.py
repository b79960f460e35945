"""Game-agnostic bots. Every bot is seeded and never touches global randomness.

A bot spec is text, so seats can be mixed on the command line:
``random``, ``greedy``, ``greedy:w=...`` and, where registered, ``mcts:200``.
"""

from __future__ import annotations

from typing import Callable, Mapping

from .errors import WorkbenchError, suggest
from .rng import Rng


class Bot:
    """Chooses one legal action for the seat to move."""

    name = "bot"

    def choose(self, game, state, rng: Rng):
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, game, state, rng: Rng):
        # the same single draw as rng.choice(state.legal_actions()); games that
        # can pick the i-th action without listing them all do so
        sample = getattr(state, "sample_legal_action", None)
        if sample is None:
            return rng.choice(state.legal_actions())
        return sample(rng)[0]


class GreedyBot(Bot):
    """One-ply greedy: applies each legal action to a clone and keeps the one whose
    resulting position ``game.evaluate`` rates best for the mover. Ties break by
    the bot's own rng, so it is not biased toward the first listed action."""

    name = "greedy"

    def __init__(self, weights: Mapping[str, float] | None = None):
        self.weights = dict(weights) if weights else None

    def choose(self, game, state, rng: Rng):
        seat = state.current_player()
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best, best_value = [], None
        for action, value in zip(actions, game.action_values(state, seat, actions, self.weights)):
            if best_value is None or value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[rng.randbelow(len(best))] if len(best) > 1 else best[0]


#: bot kind -> factory taking the text after ``kind:`` (or None)
BOT_FACTORIES: dict[str, Callable[[str | None], Bot]] = {
    "random": lambda arg: RandomBot(),
    "greedy": lambda arg: GreedyBot(_parse_weights(arg)),
}


def _parse_weights(arg: str | None) -> dict[str, float] | None:
    if not arg:
        return None
    import math
    weights = {}
    for part in arg.split(";"):
        key, _, value = part.partition("=")
        try:
            weights[key.strip()] = float(value)
        except ValueError:
            raise WorkbenchError(f"bad greedy weight {part!r}: write name=number") from None
        if not math.isfinite(weights[key.strip()]):
            raise WorkbenchError(f"bad greedy weight {part!r}: the number must be finite")
    return weights


def check_specs(game, specs) -> None:
    """Refuse, before any game is played, a bot spec that names a card
    (``ban:``/``force:``) or a greedy weight the game does not know; otherwise a
    misspelt name would quietly play the unrestricted or default bot."""
    if isinstance(specs, str):
        specs = [s for s in specs.split(",") if s.strip()]
    cards = game.card_names() if hasattr(game, "card_names") else None
    weights = game.weight_names() if hasattr(game, "weight_names") else None

    def check(spec: str) -> None:
        kind, _, arg = spec.strip().partition(":")
        kind = kind.lower()
        if kind in ("ban", "force"):
            card, _, inner = arg.partition(":")
            card = card.strip()
            if cards is not None and card and card.lower() not in {c.lower() for c in cards}:
                raise WorkbenchError(f"bot {spec!r}: {game.name} has no card {card!r}{suggest(card, cards)}")
            check(inner or "greedy")
        elif kind == "greedy" and arg:
            for name in _parse_weights(arg) or {}:
                if weights is not None and name not in weights:
                    raise WorkbenchError(f"bot {spec!r}: unknown greedy weight {name!r}"
                                         f"{suggest(name, weights)}; {game.name} weighs "
                                         f"{', '.join(sorted(weights))}")
        make_bot(spec)  # every other problem (unknown kind, bad number) is make_bot's

    for spec in specs:
        check(spec)


def register_bot(kind: str, factory: Callable[[str | None], Bot]) -> None:
    BOT_FACTORIES[kind] = factory


def make_bot(spec: str) -> Bot:
    """A bot from its text spec, e.g. ``greedy`` or ``mcts:200``."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in BOT_FACTORIES:
        _load_optional_bots()
    if kind not in BOT_FACTORIES:
        raise WorkbenchError(f"unknown bot {spec!r}; choose from {', '.join(sorted(BOT_FACTORIES))}")
    return BOT_FACTORIES[kind](arg or None)


def _load_optional_bots() -> None:
    """Bots defined outside this module register themselves on import."""
    import importlib
    for module in ("workbench.core.mcts", "workbench.core.restricted"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            pass


def make_bots(specs, n_players: int) -> list[Bot]:
    """One bot per seat from a comma list or sequence; a single spec fills every
    seat, and a shorter list repeats its last entry."""
    if isinstance(specs, str):
        specs = [s for s in specs.split(",") if s.strip()]
    specs = list(specs) or ["greedy"]
    if len(specs) > n_players:
        raise WorkbenchError(f"{len(specs)} bots given for {n_players} players")
    specs = specs + [specs[-1]] * (n_players - len(specs))
    return [make_bot(s) for s in specs]
