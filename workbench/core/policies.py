"""Policy bots over action kinds: a seat that always (or never) makes one kind
of move, and a seat that plays one fixed line.

Where :mod:`.restricted` bans or forces a *card*, these restrict a *kind* of
move, as the game names it: :meth:`Game.action_kind` when the game defines it,
else the first word of the move's notation (the word the move help and the
logs start with). A game's words never appear here; the kinds come from the
game at run time.

``always:KIND:BOT`` takes a move of kind KIND whenever one is legal (choosing
among those with BOT) and otherwise plays like BOT; ``never:KIND:BOT`` never
takes one unless every legal move is of that kind. ``always:pass`` is the
classic stalling seat. ``first`` always takes the first legal move in the
game's stable order: one fixed line of play, blind to the position's value.
These are the probes ``workbench hunt`` (:mod:`workbench.hunt`) races.
"""

from __future__ import annotations

from .bots import Bot, make_bot, register_bot
from .errors import WorkbenchError
from .rng import Rng
from .restricted import _RestrictedView


def action_kind_of(game, state, action) -> str:
    """The kind of ``action``: the game's own :meth:`Game.action_kind` when it
    names one, else the first word of its notation, lower-cased."""
    kind = game.action_kind(state, action)
    if kind:
        return str(kind).lower()
    text = game.format_action(state, action).strip()
    return text.split(maxsplit=1)[0].lower() if text else ""


class KindBot(Bot):
    """Always or never takes moves of one kind, delegating the rest to ``inner``."""

    def __init__(self, mode: str, kind: str, inner: Bot):
        if mode not in ("always", "never"):
            raise WorkbenchError(f"a kind policy is always or never, not {mode!r}")
        if not kind:
            raise WorkbenchError(f"{mode} needs a kind of move, e.g. {mode}:pass:greedy")
        self.mode, self.kind, self.inner = mode, kind.lower(), inner
        #: decisions at which a move of the kind was on offer (0 after a game hints at a misspelt kind)
        self.offered = 0
        self.name = f"{mode}:{kind}:{inner!r}"

    def choose(self, game, state, rng: Rng):
        legal = state.legal_actions()
        of_kind = [a for a in legal if action_kind_of(game, state, a) == self.kind]
        if of_kind:
            self.offered += 1
        if self.mode == "always":
            allowed = of_kind or legal
        else:
            allowed = [a for a in legal if a not in of_kind] or legal
        if len(allowed) == 1:
            return allowed[0]
        if len(allowed) == len(legal):
            return self.inner.choose(game, state, rng)
        return self.inner.choose(game, _RestrictedView(state, allowed), rng)


class FirstBot(Bot):
    """The first legal move, every time: one fixed line of play."""

    name = "first"

    def choose(self, game, state, rng: Rng):
        return state.legal_action(0)


def _factory(mode: str):
    def make(arg: str | None) -> KindBot:
        kind, _, inner = (arg or "").partition(":")
        kind = kind.strip()
        if not kind:
            raise WorkbenchError(f"bot {mode!r} needs a kind of move: write {mode}:KIND or {mode}:KIND:BOT")
        return KindBot(mode, kind, make_bot(inner or "greedy"))
    return make


def _first(arg: str | None) -> Bot:
    if arg:
        raise WorkbenchError(f"bot 'first' takes no options, not {arg!r}; write first")
    return FirstBot()


register_bot("always", _factory("always"))
register_bot("never", _factory("never"))
register_bot("first", _first)
