"""Restricted-play bots: the classic test for a dominant or a useless card.

``ban:<Card>:<bot>`` plays like ``<bot>`` but never takes an action that
involves ``<Card>`` (as ``Game.action_cards`` reports it), unless every legal
action does. ``force:<Card>:<bot>`` takes an action involving ``<Card>``
whenever one is legal (choosing among those with ``<bot>``), and otherwise
plays like ``<bot>``. The inner bot may be any spec, e.g. ``ban:Shell:mcts:100``;
it defaults to ``greedy``. Card names match case-insensitively.

Comparing a pool of ``greedy`` seats against the same seeds with one seat on
``ban:X:greedy`` (see ``workbench.sim.compare``) says what card X is worth: a
card whose ban changes nothing is dead weight, one whose ban costs many wins
is dominant.
"""

from __future__ import annotations

from .bots import Bot, make_bot, register_bot, split_card_arg
from .errors import WorkbenchError
from .rng import Rng


class _RestrictedView:
    """The state as the inner bot sees it: the same position with a shorter
    list of legal actions. Everything else (clone, apply_action, ...) is the
    real state's, so look-ahead beyond this decision is unrestricted."""

    __slots__ = ("_state", "_legal")

    def __init__(self, state, legal):
        self._state = state
        self._legal = legal

    def legal_actions(self):
        return list(self._legal)

    # the sampling side of the contract must see the same shorter list (a random
    # inner bot samples instead of listing)
    def legal_action_count(self) -> int:
        return len(self._legal)

    def legal_action(self, index: int):
        return self._legal[index]

    def sample_legal_action(self, rng) -> tuple:
        k = len(self._legal)
        if not k:
            raise IndexError("no legal action to sample")
        return self._legal[rng.randbelow(k)], k

    def __getattr__(self, name):
        return getattr(self._state, name)


class RestrictedBot(Bot):
    """Bans or forces one card, delegating every remaining choice to ``inner``."""

    def __init__(self, mode: str, card: str, inner: Bot):
        if mode not in ("ban", "force"):
            raise WorkbenchError(f"restriction must be ban or force, not {mode!r}")
        if not card:
            raise WorkbenchError(f"{mode} needs a card name, e.g. {mode}:Shell:greedy")
        self.mode, self.card, self.inner = mode, card, inner
        self._key = card.lower()
        #: decisions at which the card was on offer (0 after a game hints at a misspelt name)
        self.offered = 0
        self.name = f"{mode}:{card}:{inner!r}"

    def _involves(self, game, state, action) -> bool:
        return any(c.lower() == self._key for c in game.action_cards(state, action))

    def choose(self, game, state, rng: Rng):
        legal = state.legal_actions()
        with_card = [a for a in legal if self._involves(game, state, a)]
        if with_card:
            self.offered += 1
        if self.mode == "ban":
            allowed = [a for a in legal if a not in with_card] if with_card else legal
            if not allowed:
                allowed = legal  # every option uses the card: the ban cannot bind
        else:
            allowed = with_card or legal
        if len(allowed) == 1:
            return allowed[0]
        if len(allowed) == len(legal):
            return self.inner.choose(game, state, rng)
        return self.inner.choose(game, _RestrictedView(state, allowed), rng)


def _factory(mode: str):
    def make(arg: str | None) -> RestrictedBot:
        card, inner = split_card_arg(arg)
        if not card:
            raise WorkbenchError(f"bot {mode!r} needs a card: write {mode}:CARD or {mode}:CARD:BOT")
        bot = make_bot(inner or "greedy")
        # ban:Shell:ban:Shell:greedy says the same thing twice (or, with force and
        # ban, two contrary things): one restriction per card
        wrapped = bot
        while isinstance(wrapped, RestrictedBot):
            if wrapped.card.lower() == card.lower():
                raise WorkbenchError(f"bot '{mode}:{arg}' restricts {card!r} twice; name each card once")
            wrapped = wrapped.inner
        return RestrictedBot(mode, card, bot)
    return make


register_bot("ban", _factory("ban"))
register_bot("force", _factory("force"))
