"""The turn: up to two actions (the same one twice is allowed), free hiring into
own Companies, ``end``; and routing of every decision inside an action to the
module that owns it. Everything is validated before anything changes: a refused
action raises :class:`IllegalAction` and leaves the state as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from workbench.core.errors import IllegalAction
from workbench.core.rng import Rng

from . import commercialize, effects, fundraise, hire, import_idea, placate, research, syndicate
from .ending import check_round_limit
from .finance import has_patents, sale_variant
from .labour import labour_keys
from .notation import PAYING, A, Action, Parser, new_action
from .setup import choose_secret

if TYPE_CHECKING:
    from .state import PaxState

MAIN: Final = ("fundraise", "syndicate", "commercialize", "hire", "research", "placate", "import", "end")


def legal_actions(state: PaxState) -> list:
    head, ideas, slots, tail = legal_parts(state)
    if not ideas:
        return head + tail if tail else head
    return head + import_idea.expand(ideas, slots) + tail


def legal_parts(state: PaxState) -> tuple:
    """The legal actions in their listed order as ``(head, ideas, slots, tail)``:
    ``head``, then the Imports (every idea of ``ideas`` to every slot of
    ``slots``, idea by idea), then ``tail``. Imports are most of a typical
    position's actions; kept as a product they are counted and indexed without
    being built (:func:`legal_count`, :func:`legal_at`)."""
    if state.ending is not None:
        return [], (), (), []
    d = state.decision
    if d is not None:
        kind, seat = d["kind"], d["seat"]
        if kind == "secret":
            return [A("secret", c) for c in state.secret_offer[seat]], (), (), []
        if kind == "fundraise":
            return fundraise.options(state, seat), (), (), []
        if kind == "surge":
            return syndicate.surge_options(state, seat), (), (), []
        return effects.decision_options(state), (), (), []
    seat = state.turn
    if state.actions_left <= 0:
        return with_sale_variants(state, seat, hire.legal(state, seat, free_only=True)) + [_END], (), (), []
    out = [_FUNDRAISE]
    out += syndicate.legal(state, seat)
    out += commercialize.legal(state, seat)
    out += hire.legal(state, seat)
    out += research.legal(state, seat)
    out = with_sale_variants(state, seat, out)
    out += placate.legal(state, seat)
    ideas, slots = import_idea.legal_product(state, seat)
    return out, ideas, slots, [_END]


def legal_count(parts) -> int:
    head, ideas, slots, tail = parts
    return len(head) + len(ideas) * len(slots) + len(tail)


def legal_at(parts, index: int):
    """The ``index``-th action of :func:`legal_actions`, from its parts."""
    head, ideas, slots, tail = parts
    if index < len(head):
        return head[index]
    index -= len(head)
    n = len(ideas) * len(slots)
    if index < n:
        return import_idea.nth(ideas, slots, index)
    return tail[index - n]


def sample(state: PaxState, rng: Rng) -> tuple:
    """``(action, count)``: the draw of ``rng.choice(legal_actions())`` (one
    ``randbelow(count)``, the same action), building as little as it can. In a
    main action of a player without Patents (no sale variants) the Syndicates,
    which with the Imports are most of the list, are only counted; the action
    drawn is built alone when it is an Import, ``end`` or ``fundraise``, and
    the Syndicates, Hires and Placates are listed only when one of them is drawn."""
    seat = state.turn
    if state.ending is not None or state.decision is not None or state.actions_left <= 0 \
            or has_patents(state, seat):
        parts = legal_parts(state)
        k = legal_count(parts)
        if not k:
            raise IndexError("no legal action to sample")
        return legal_at(parts, rng.randbelow(k)), k
    n_synd: int = syndicate.legal(state, seat, count_only=True)
    # the rest of legal_parts' head, in its order (with no Patent, no sale
    # variants); the player's labour places worked out once for both labours
    mine = labour_keys(state, seat)
    commercializes: list = commercialize.legal(state, seat, mine)
    n_hire: int = hire.legal(state, seat, count_only=True)
    researches: list = research.legal(state, seat, mine)
    n_placate: int = placate.legal(state, seat, count_only=True)
    product: tuple = import_idea.legal_product(state, seat)
    ideas: list | tuple = product[0]
    slots: list | tuple = product[1]
    head = 1 + n_synd + len(commercializes) + n_hire + len(researches) + n_placate
    k = head + len(ideas) * len(slots) + 1
    i = rng.randbelow(k)
    if i >= head:
        i -= head
        return (import_idea.nth(ideas, slots, i) if i < len(ideas) * len(slots) else _END), k
    if i == 0:
        return _FUNDRAISE, k
    if i <= n_synd:
        return syndicate.legal(state, seat)[i - 1], k
    i -= 1 + n_synd
    if i < len(commercializes):
        return commercializes[i], k
    i -= len(commercializes)
    if i < n_hire:
        return hire.legal(state, seat)[i], k
    i -= n_hire
    if i < len(researches):
        return researches[i], k
    return placate.legal(state, seat)[i - len(researches)], k


_FUNDRAISE: Final = A("fundraise")
_END: Final = A("end")


def payment_of(state: PaxState, seat: int, action) -> tuple[int, dict | None]:
    """What a paying action costs and which Patents it keeps for itself."""
    x = action.args
    if action.kind == "syndicate":
        return syndicate.price(state, seat, x[0]), None
    if action.kind == "commercialize":
        return commercialize.cost(state, x[0], x[3]), commercialize.reserved(state, x[0], x[2])
    if action.kind == "hire":
        return hire.hire_cost(state), None
    return research.cost(state, x[0], x[1]), None


def check_paying(state: PaxState, seat: int, action) -> None:
    """The module's own test of a paying action (raises IllegalAction)."""
    if action.kind == "syndicate":
        syndicate.check(state, seat, action.args[0], action.args[1], syndicate.price(state, seat, action.args[0]))
    elif action.kind == "commercialize":
        commercialize.check(state, seat, action)
    elif action.kind == "hire":
        hire.check(state, seat, *action.args)
    else:
        research.check(state, seat, action)


def with_sale_variants(state: PaxState, seat: int, actions: list) -> list:
    """``actions`` plus, for each paying one a Patent sale could pay differently, the
    variant that sells Patents before touching the finance track (so bots can weigh
    keeping Capital against keeping Patents)."""
    if not any(state.patents[seat].values()):
        return actions
    out = list(actions)
    variants: dict = {}         # (cost, reserve) -> sale_variant: every Hire costs the same
    for a in actions:
        if a.kind not in PAYING:
            continue
        cost, reserve = payment_of(state, seat, a)
        key = (cost, tuple(sorted(reserve.items())) if reserve else None)
        sell = variants.get(key, False)
        if sell is False:
            sell = variants[key] = sale_variant(state, seat, cost, reserve)
        if not sell:
            continue
        variant = new_action(a.kind, a.args, sell)     # a._replace, without its interpreted code
        state.sell_choice = sell
        try:
            check_paying(state, seat, variant)
            legal = True
        except IllegalAction:
            legal = False
        finally:
            state.sell_choice = ()
        if legal:  # (no `continue` inside the try: mypyc compiles this module)
            out.append(variant)
    return out


class _Sale:
    """While a paying action resolves, the state knows which Patents it sells."""

    def __init__(self, state: PaxState, action) -> None:
        self.state, self.sell = state, getattr(action, "sell", ())

    def __enter__(self):
        self.state.sell_choice = self.sell

    def __exit__(self, *exc):
        self.state.sell_choice = ()
        return False


def apply_action(state: PaxState, action) -> None:
    if isinstance(action, str):
        action = Parser(state.content.ideas, state.config.players).parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not a Pax Transhumanity action: {action!r}")
    if state.ending is not None:
        raise IllegalAction("the game is over")
    d = state.decision
    if d is not None:
        _answer(state, d, action)
        return
    seat = state.turn
    kind = action.kind
    if kind not in MAIN:
        raise IllegalAction(f"'{action}' answers a question, but nothing is being asked; "
                            f"it is {state.name(seat)}'s turn to act")
    if kind == "end":
        next_turn(state)
        return
    if state.actions_left <= 0 and kind != "hire":
        raise IllegalAction(f"{state.name(seat)} has used both actions; only hiring into an own Company "
                            "or 'end' remain")
    if action.sell and kind not in PAYING:
        raise IllegalAction(f"'{kind}' pays nothing, so it cannot sell Patents")
    if kind == "hire":
        if state.actions_left <= 0 and not hire.is_free_action(state, seat, action.args[0]):
            raise IllegalAction(f"{state.name(seat)} has used both actions; hiring at {action.args[0]} "
                                "(not one of the player's Companies) needs an action")
        with _Sale(state, action):
            used = hire.apply(state, seat, action)
        action_done(state, used)
    elif kind == "fundraise":
        fundraise.start(state, seat)
    elif kind == "syndicate":
        with _Sale(state, action):
            syndicate.apply(state, seat, action)
        if state.decision is None:
            action_done(state)
    elif kind == "commercialize":
        with _Sale(state, action):
            commercialize.apply(state, seat, action)
    elif kind == "research":
        with _Sale(state, action):
            research.apply(state, seat, action)
        action_done(state)
    elif kind == "placate":
        placate.apply(state, seat, action)
        action_done(state)
    elif kind == "import":
        import_idea.apply(state, seat, action)
        action_done(state)


def _answer(state: PaxState, d, action) -> None:
    kind, seat = d["kind"], d["seat"]
    if kind == "secret":
        if action.kind != "secret":
            raise IllegalAction(f"{state.name(seat)} must first choose a Secret sphere: 'secret <colour>'")
        choose_secret(state, seat, action.args[0])
    elif kind == "fundraise":
        if action.kind not in ("divest", "raise"):
            raise IllegalAction(f"{state.name(seat)} is fundraising: 'divest ...' or 'raise'")
        if fundraise.answer(state, seat, action):
            action_done(state)
    elif kind == "surge":
        if action.kind not in ("surge", "stop"):
            raise IllegalAction(f"{state.name(seat)} may syndicate along a Surge Arrow ('surge <Idea>') or 'stop'")
        if syndicate.answer_surge(state, seat, action):
            action_done(state)
    elif not effects.apply_decision(state, action):
        raise IllegalAction(f"unexpected decision {kind!r}")


def finish_task(state: PaxState, task) -> None:
    """Tasks queued behind card effects."""
    if task[0] == "finish commercialize":
        commercialize.finish(state)
        action_done(state)
    else:
        raise ValueError(f"unknown task {task!r}")


effects.FLOW_TASKS["finish commercialize"] = finish_task


def action_done(state: PaxState, used: bool = True) -> None:
    state.act = None
    state.game_end_flag = False if state.ending is None else state.game_end_flag
    if state.ending is not None:
        return
    if used:
        state.actions_left -= 1
    if state.actions_left <= 0 and not hire.legal(state, state.turn, free_only=True):
        next_turn(state)


def next_turn(state: PaxState) -> None:
    state.decision = None
    state.turn = (state.turn + 1) % state.num_players
    state.actions_left = 2
    if state.turn == 0:
        state.round += 1
        check_round_limit(state)
