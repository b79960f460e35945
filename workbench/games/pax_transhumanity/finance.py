"""The finance track (Capital -> Wealth -> Debt), Install and Divest, and money.

A player's board keeps agents in three boxes stacked Capital over Wealth over
Debt. Paying $1 moves the topmost agent one box down (Capital to Wealth, else
Wealth to Debt), so the track can pay ``2*capital + wealth`` in all. How a cost is
paid is the player's choice: the action may name the Patents to sell (the state's
``sell_choice`` while the action resolves); otherwise the default payment applies. Installing an
agent anywhere takes the topmost agent off the track; divesting one puts it in
Wealth. Selling a Patent pays its sale value and divests its agent (which may then
pay another $1 from Wealth). Money raised for one action is gone afterwards: the
surplus of a sale does not carry over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from workbench.core.errors import IllegalAction

from .regime import dominant_sphere

if TYPE_CHECKING:
    from .state import PaxState

# Final: the compiled build reads them as constants, not through the module's globals
CAPITAL: Final = 0
WEALTH: Final = 1
DEBT: Final = 2


def track_money(state: PaxState, seat: int) -> int:
    """What the finance track alone can still pay."""
    # the boxes read as machine integers in the compiled build: every listing asks this
    f: list = state.fin[seat]
    c: int = f[CAPITAL]
    w: int = f[WEALTH]
    return 2 * c + w


def has_patents(state: PaxState, seat: int) -> bool:
    """Does the player hold any Patent (something to sell)?"""
    held: dict = state.patents[seat]
    for n in held.values():
        if n:
            return True
    return False


def finance_agents(state: PaxState, seat: int) -> int:
    return sum(state.fin[seat])


def topmost_box(state: PaxState, seat: int):
    """Index of the box the next agent leaves from (Capital, then Wealth, then Debt)."""
    for box in (CAPITAL, WEALTH, DEBT):
        if state.fin[seat][box]:
            return box
    return None


def move_finance_agent(state: PaxState, seat: int) -> None:
    """Pay $1: the topmost finance agent goes one box down."""
    f = state.fin[seat]
    if f[CAPITAL]:
        f[CAPITAL] -= 1
        f[WEALTH] += 1
    elif f[WEALTH]:
        f[WEALTH] -= 1
        f[DEBT] += 1
    else:
        raise IllegalAction("no finance agent left in Capital or Wealth to pay with")


def install(state: PaxState, seat: int) -> None:
    """Take the topmost finance agent off the track (Capital > Wealth > Debt)."""
    box = topmost_box(state, seat)
    if box is None:
        raise IllegalAction(f"{state.name(seat)} has no agent on the finance track to install")
    state.fin[seat][box] -= 1


def divest(state: PaxState, seat: int, n: int = 1) -> None:
    """Agents come back to their owner's Wealth."""
    state.fin[seat][WEALTH] += n


def patent_value(state: PaxState, colour: str) -> int:
    """Sale value of a Patent: the visible bands of its colour in the Splay, doubled
    for the dominant sphere's discipline; under Paradigm Shift every one doubles."""
    value = 0
    for entry in state.splay:
        if entry[1] == colour:
            value += 1
    regime = state.regime
    if regime == "Paradigm Shift" or dominant_sphere(regime) == colour:
        value *= 2
    return value


def _units(state: PaxState, seat: int, reserve: dict) -> list:
    """``(sale value, colour)`` of every Patent the player may sell, the most
    valuable first (each colour's value worked out once)."""
    owned = []
    for c, n in state.patents[seat].items():
        n -= reserve.get(c, 0)
        if n > 0:
            owned += [(patent_value(state, c), c)] * n
    owned.sort(reverse=True)
    return owned


def chosen_sale(state: PaxState) -> tuple:
    """The Patents the action being resolved names for sale (empty: the default)."""
    return state.sell_choice or ()


def plan_payment(state: PaxState, seat: int, cost: int, reserve=None, sell=None):
    """How a cost is paid: ``(sales, finance_moves)`` or None if it cannot be.

    With a chosen sale (``sell``, else the action's ``sell_choice``) exactly those
    Patents are sold and the track pays the rest. Without one, the default (ruling
    payment-choice): the finance track pays if it can; only the shortfall is met by
    selling Patents, the most valuable first, and each sold Patent's agent may then
    pay $1 more from Wealth. ``reserve`` holds Patents (colour -> count) the action
    needs for itself; they are not sold."""
    sell = chosen_sale(state) if sell is None else sell
    if sell:
        return _plan_chosen(state, seat, cost, reserve or {}, tuple(sell))
    if cost <= 0:
        return (), 0
    money = track_money(state, seat)
    if money >= cost:
        return (), cost
    if not has_patents(state, seat):
        return None                 # short, with nothing to sell
    owned = _units(state, seat, reserve or {})
    sales, raised = [], 0
    for value, colour in owned:
        sales.append(colour)
        raised += value
        if raised + money + len(sales) >= cost:
            return tuple(sales), max(0, cost - raised)
    return None


def _plan_chosen(state: PaxState, seat: int, cost: int, reserve: dict, sell: tuple):
    """A payment with the Patents the player named; refuses a sale that is
    impossible or raises money nobody needs (it would be lost)."""
    listed = " ".join(sell)
    if cost <= 0:
        raise IllegalAction(f"this costs nothing: drop 'selling {listed}'")
    # counted in a plain dict, in the order first named (collections.Counter is
    # interpreted Python: a greedy bot's listing asks this per sale variant)
    named: dict = {}
    for colour in sell:
        named[colour] = named.get(colour, 0) + 1
    for colour, n in named.items():
        have = state.patents[seat].get(colour, 0) - reserve.get(colour, 0)
        if n > have:
            kept = " (the action itself uses the others)" if reserve.get(colour) else ""
            raise IllegalAction(f"{state.name(seat)} has {max(0, have)} {colour} Patent(s) to sell, "
                                f"not {n}{kept}")
    value_of = {c: patent_value(state, c) for c in set(sell)}
    values = [value_of[c] for c in sell]
    raised = sum(values)
    if raised - min(values) >= cost:
        raise IllegalAction(f"selling {listed} raises ${raised} for a cost of ${cost}: a Patent whose money "
                            "is not needed may not be sold (money left over is lost)")
    rest = max(0, cost - raised)
    if track_money(state, seat) + len(sell) < rest:
        return None
    return sell, rest


def sale_variant(state: PaxState, seat: int, cost: int, reserve=None) -> tuple | None:
    """The other sensible way to pay, offered to bots beside the default: sell
    Patents (most valuable first) before touching the finance track, which keeps
    Capital (it breaks ties and pays double). None when it equals the default or
    the player has nothing to sell."""
    if cost <= 0 or chosen_sale(state):
        return None
    reserve = reserve or {}
    owned = _units(state, seat, reserve)
    sales, raised = [], 0
    for value, colour in owned:
        if raised >= cost:
            break
        sales.append(colour)
        raised += value
    if not sales:
        return None
    default = plan_payment(state, seat, cost, reserve, sell=())
    if default is not None and tuple(default[0]) == tuple(sales):
        return None
    try:
        if _plan_chosen(state, seat, cost, reserve, tuple(sales)) is None:
            return None
    except IllegalAction:
        return None
    return tuple(sales)


def can_pay(state: PaxState, seat: int, cost: int, reserve=None) -> bool:
    if not state.sell_choice:
        # plan_payment's first cases, without building a plan
        if cost <= 0 or cost <= track_money(state, seat):
            return True
        if not has_patents(state, seat):
            return False            # short, with nothing to sell
    return plan_payment(state, seat, cost, reserve) is not None


def pay(state: PaxState, seat: int, cost: int, reserve=None, plan=None) -> None:
    """Pay ``cost`` (validated by the caller with :func:`can_pay`); ``plan``: the
    caller's :func:`plan_payment` of this very payment, when it has it."""
    if plan is None:
        plan = plan_payment(state, seat, cost, reserve)
    if plan is None:
        raise IllegalAction(f"{state.name(seat)} cannot raise ${cost}")
    sales, moves = plan
    state.sell_choice = ()      # the choice was for this payment; what the action does next pays by default
    for colour in sales:
        state.patents[seat][colour] -= 1
        divest(state, seat)
        state.bump("patents_sold")
    for _ in range(moves):
        move_finance_agent(state, seat)


def agents_after_payment(state: PaxState, seat: int, cost: int, sell=None) -> int:
    """Finance agents left to install after paying ``cost`` (sold Patents add theirs)."""
    if sell is None and not state.sell_choice:
        f: list = state.fin[seat]
        c: int = f[CAPITAL]
        w: int = f[WEALTH]
        d: int = f[DEBT]
        if cost <= 2 * c + w:       # the track pays it (plan_payment's first case)
            return c + w + d
        if not has_patents(state, seat):
            return -1               # nothing to sell either
    plan = plan_payment(state, seat, cost, sell=sell)
    if plan is None:
        return -1
    return finance_agents(state, seat) + len(plan[0])
