"""Game-agnostic bots. Every bot is seeded and never touches global randomness.

A bot spec is text, so seats can be mixed on the command line:
``random``, ``greedy``, ``greedy:w=...`` and, where registered, ``mcts:200``,
``ban:CARD:BOT`` / ``force:CARD:BOT`` (:mod:`.restricted`) and
``skill:LEVEL:BOT`` (:mod:`.skill`: a blunder rate and a softmax temperature).
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


def _no_options(kind: str, make: Callable[[], Bot]) -> Callable[[str | None], Bot]:
    """A factory for a bot that takes no options: ``random:5`` is refused
    instead of quietly playing ``random``."""
    def factory(arg: str | None) -> Bot:
        if arg:
            raise WorkbenchError(f"bot {kind!r} takes no options, not {arg!r}; write {kind}")
        return make()
    return factory


#: bot kind -> factory taking the text after ``kind:`` (or None)
BOT_FACTORIES: dict[str, Callable[[str | None], Bot]] = {
    "random": _no_options("random", RandomBot),
    "greedy": lambda arg: GreedyBot(_parse_weights(arg)),
}


def _parse_weights(arg: str | None) -> dict[str, float] | None:
    if not arg:
        return None
    import math
    weights = {}
    for part in arg.split(";"):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise WorkbenchError(f"bad greedy weight {part!r}: write name=number")
        if key.strip() in weights:
            raise WorkbenchError(f"greedy weight {key.strip()!r} is given twice")
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
    specs = split_specs(specs)
    cards = game.card_names() if hasattr(game, "card_names") else None
    weights = game.weight_names() if hasattr(game, "weight_names") else None

    def check(spec: str) -> None:
        kind, arg = split_spec(spec)
        arg = arg or ""
        if kind in ("ban", "force"):
            card, inner = split_card_arg(arg)
            if cards is not None and card and card.lower() not in {c.lower() for c in cards}:
                raise WorkbenchError(f"bot {spec!r}: {game.name} has no card {card!r}{suggest(card, cards)}")
            check(inner or "greedy")
        elif kind in ("skill", "always", "never"):
            # skill:LEVEL:BOT and always/never:KIND:BOT play BOT: its cards and weights are checked too
            check(arg.partition(":")[2].strip() or "greedy")
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


def split_specs(specs) -> list[str]:
    """The bot specs of a comma list (or a sequence), refused with one line when
    the list is empty or holds an empty entry (``--bots ''``, ``','``,
    ``greedy,,random``): a seat left to a silent default is a seat the designer
    did not choose. The one place the command line's bot lists are split."""
    if isinstance(specs, str):
        text = specs
        specs = specs.split(",")
    else:
        specs = list(specs)
        text = ",".join(str(s) for s in specs)
    if not specs or not any(str(s).strip() for s in specs):
        raise WorkbenchError("the bot list is empty; name a bot per seat, e.g. greedy or greedy,random")
    if any(not str(s).strip() for s in specs):
        raise WorkbenchError(f"the bot list {text!r} has an empty entry; write one bot per seat "
                             "between the commas, e.g. greedy,random")
    return [str(s).strip() for s in specs]


def split_spec(spec: str) -> tuple[str, str | None]:
    """``(kind, options)`` of one bot spec: ``greedy`` -> ("greedy", None),
    ``mcts:200`` -> ("mcts", "200"). A spec ending in ``:`` (``greedy:``) or with
    an empty kind is refused: it names options and gives none. Every bot parser
    (``make_bot``, the ``ban:``/``force:`` wrappers) starts here."""
    kind, colon, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    if not kind:
        raise WorkbenchError(f"bot {spec!r} has no kind; choose from {', '.join(sorted(_kinds()))}")
    if colon and not arg.strip():
        raise WorkbenchError(f"bot {spec!r} ends with ':' but gives no options; write {kind} alone "
                             f"or {kind}:OPTIONS")
    return kind, (arg.strip() if colon else None)


def split_card_arg(arg: str | None) -> tuple[str, str]:
    """``(card, bot spec)`` of the options of ``ban:``/``force:``: ``Shell`` ->
    ("Shell", ""), ``Shell:mcts:200`` -> ("Shell", "mcts:200"). A card's name may hold a
    colon ("Relic: Crown of Ash"), so the card ends at the first ':' that a
    bot's name follows; failing that, at the first ':' not followed by a space (the
    colon inside a name is followed by one, and "Shell:gredy" is then refused as an
    unknown bot rather than an unknown card); failing that, the whole text is the card.
    The one place these options are split."""
    text = arg or ""
    kinds = set(_kinds())
    colons = [i for i, ch in enumerate(text) if ch == ":"]
    for i in colons:
        if text[i + 1:].partition(":")[0].strip().lower() in kinds:
            return text[:i].strip(), text[i + 1:].strip()
    for i in colons:
        if not text[i + 1:i + 2].isspace():
            return text[:i].strip(), text[i + 1:].strip()
    return text.strip(), ""


def _kinds() -> list[str]:
    _load_optional_bots()
    return list(BOT_FACTORIES)


def make_bot(spec: str) -> Bot:
    """A bot from its text spec, e.g. ``greedy`` or ``mcts:200``."""
    kind, arg = split_spec(spec)
    if kind not in BOT_FACTORIES:
        _load_optional_bots()
    if kind not in BOT_FACTORIES:
        raise WorkbenchError(f"unknown bot {spec!r}; choose from {', '.join(sorted(BOT_FACTORIES))}")
    return BOT_FACTORIES[kind](arg or None)


def _load_optional_bots() -> None:
    """Bots defined outside this module register themselves on import."""
    import importlib
    for module in ("workbench.core.mcts", "workbench.core.restricted", "workbench.core.skill",
                   "workbench.core.policies"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            pass


def make_bots(specs, n_players: int) -> list[Bot]:
    """One bot per seat from a comma list or sequence; a single spec fills every
    seat, and a shorter list repeats its last entry."""
    specs = split_specs(specs)
    if len(specs) > n_players:
        raise WorkbenchError(f"{len(specs)} bots given for {n_players} players")
    specs = specs + [specs[-1]] * (n_players - len(specs))
    return [make_bot(s) for s in specs]
