"""The position of a Pax Transhumanity game, as plain Python data.

Where every agent is (each player's agents are counted in exactly one place):

- ``fin[seat]``: the finance track ``[capital, wealth, debt]``;
- ``pool[seat]``: own agents waiting in the pool (Growth brings them in);
- ``marker[seat]``: the agent on the Human Progress card (out of play, see rulings);
- ``synd[idea]``: seats with a Syndication on a Market idea, in the order they came;
- ``heat[idea]``: per Heat square of the idea, the seat whose agent covers it or None
  (an entry for every Market idea and for no other: Placate counts by walking it);
- ``splay``: the Splay, oldest first; each entry ``(idea, visible colour, owners)``
  where ``owners`` gives, per Heat square, the seat of its Future Shock agent or None;
- ``patents[seat]``: Patent agents per discipline;
- ``staff[place]``: seats with an Employee at a place (one, or one per player at a Utility);
- ``unemployed[sphere][seat]``: Employees in a sphere's unemployment row.

Cards: ``market[sphere]`` (6 slots, index = price, None = empty), ``deck`` (the Draw
Deck, top at the end), ``think_tank[seat]`` (top at the end). Tuples inside dicts are
replaced, never mutated, so :meth:`PaxState.clone` copies only the outer containers.

The fields are typed so that the compiled build (:mod:`workbench.native`) makes
:class:`PaxState` a native class with fixed fields: every rule reads them
directly instead of through an attribute dict. That is why it is registered with
:class:`~workbench.core.game.State` instead of subclassing it (a compiled class
cannot derive from an interpreted one) and carries the protocol's few concrete
methods itself.
"""

from __future__ import annotations

import operator

from typing import Any, ClassVar, Final

from workbench.core.game import TERMINAL, State
from workbench.core.rng import Rng

from .data import SPHERES

#: the spheres in their order, as a compiled constant: the rules modules walk it
#: natively and read it without a look-up (the card data module is interpreted)
SPHERE_ORDER: Final[tuple[str, ...]] = SPHERES


def seated(seats: tuple, seat: int) -> bool:
    """Is ``seat`` among ``seats`` (the seats of a Syndication, an Employee place or
    an idea's Heat squares, where None is an empty square)? A typed walk: the
    compiled build compares machine integers where ``in`` would compare boxed
    numbers through the generic protocol, in every listing of every position."""
    held: tuple[int | None, ...] = seats
    for s in held:
        if s is not None and s == seat:
            return True
    return False


class PaxState:
    #: the turn module (``legal_actions(state)``, ``apply_action(state, action)``),
    #: bound by :mod:`.game`, which sits above both
    engine: ClassVar[Any] = None

    def __init__(self, config: Any, content: Any, rng: Rng) -> None:
        self.config = config
        self.content = content
        self.rng = rng
        self.options: dict = {}
        self.sell_choice: Any = ()       # Patents the paying action being resolved sells (finance.py)
        self.colours: Any = ()
        self.fin: list = []
        self.pool: list = []
        self.marker: list = []
        self.patents: list = []          # per seat: {colour: count}
        self.solved: list = []           # per seat: {sphere: tokens}
        self.think_tank: list = []       # per seat: list of idea names (top last)
        self.secret: list = []           # per seat: colour or None
        self.secret_offer: list = []     # per seat: colours on the two dealt cards
        self.companies: dict = {}        # place -> seat
        self.staff: dict = {}            # place -> tuple of seats
        self.unemployed: dict = {s: () for s in SPHERES}   # sphere -> tuple counts per seat
        self.market: dict = {}           # sphere -> list of 6
        self.synd: dict = {}             # idea -> tuple of seats
        self.heat: dict = {}             # idea -> tuple of seat|None per square
        self.splay: list = []            # (idea, colour, owners tuple)
        self.deck: list = []
        self.set_aside: list = []
        self.out_of_game: list = []
        self.problems: dict = {}         # sphere -> tokens left
        self.regime: str = "Globalization"
        self.turn: int = 0
        self.actions_left: int = 2
        self.round: int = 1
        self.decision: Any = None        # dict: kind, seat, ... (a choice inside an action)
        self.tasks: list = []            # pending steps of the action being resolved
        self.act: Any = None             # dict or None: the action being resolved (commercialize, syndicate...)
        self.ending: Any = None          # None, tipping-point | singular | plurality | tycoon | timeout
        self.tycoon: Any = None          # None or a seat
        self.game_end_flag: bool = False
        self.stats: dict = {}

    # -- protocol --------------------------------------------------------------
    def current_player(self) -> int:
        if self.ending is not None:
            return TERMINAL
        if self.decision is not None:
            return self.decision["seat"]
        return self.turn

    def is_terminal(self) -> bool:
        return self.ending is not None

    def legal_actions(self) -> list:
        return self.engine.legal_actions(self)

    def legal_action_count(self) -> int:
        flow = self.engine
        return flow.legal_count(flow.legal_parts(self))

    def legal_action(self, index: int):
        flow = self.engine
        return flow.legal_at(flow.legal_parts(self), index)

    def sample_legal_action(self, rng: Rng) -> tuple:
        # the draw of rng.choice(legal_actions()), building only the action drawn
        # where the turn module can (see flow.sample)
        return self.engine.sample(self, rng)

    def apply_action(self, action) -> None:
        self.engine.apply_action(self, action)

    def player_name(self, seat: int) -> str:
        return self.config.players[seat]

    @property
    def num_players(self) -> int:
        return len(self.config.players)

    def clone(self) -> "PaxState":
        """A copy that shares no container with this state."""
        return self._copy(_COPY)

    def clone_for(self, kind: str) -> "PaxState":
        """A copy in which an action of ``kind`` may be applied: the containers
        that kind can change (:data:`WRITES`) are copied, every other one is
        shared with this state (look-ahead of the greedy bot, which applies one
        action to the copy and then only reads it). Kinds not listed get a full
        :meth:`clone`."""
        writes = WRITES.get(kind)
        return self.clone() if writes is None else self._copy(writes)

    def _copy(self, containers) -> "PaxState":
        """A copy with the named containers copied (:data:`_COPY` says how) and
        every other one shared; the decision, the action being resolved and the
        rng are always copied."""
        if _COMPILED:
            # a native class has fixed fields and no attribute dict
            new = _copy_by_field(self, containers)
        else:
            # interpreted: copy the attribute dict in one go (C speed)
            new = PaxState.__new__(PaxState)
            d = self.__dict__.copy()
            for key in containers:
                d[key] = _COPY[key](d[key])
            d["rng"] = self.rng.copy()
            new.__dict__ = d
        if self.decision is not None:
            new.decision = dict(self.decision)
        if self.act is not None:
            new.act = dict(self.act)
        return new

    def __reduce__(self) -> tuple:
        # pickle and deepcopy by field: a compiled state has no attribute dict
        return _rebuild, (fields(self),)

    # -- small queries used everywhere ----------------------------------------
    def name(self, seat: int) -> str:
        return self.config.players[seat]

    def idea(self, name: str):
        return self.content.ideas[name]

    def where_in_market(self, idea: str):
        """``(sphere, slot)`` of an idea in the Market, or None."""
        # walked slot by slot with the names compared as strings (the compiled
        # build's fast equality): every Import and many tests ask this
        market: dict = self.market
        spheres = SPHERE_ORDER
        for sphere in spheres:
            col: list = market[sphere]
            for slot in range(len(col)):
                held: str | None = col[slot]
                if held is not None and held == idea:
                    return sphere, slot
        return None

    def market_ideas(self) -> list:
        return [c for s in SPHERES for c in self.market[s] if c is not None]

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n


State.register(PaxState)

#: every field of a :class:`PaxState`, in the order ``__init__`` sets them (a
#: compiled state has no ``vars()``; tests compare positions through these)
STATE_FIELDS = ("config", "content", "rng", "options", "sell_choice", "colours", "fin", "pool", "marker",
                "patents", "solved", "think_tank", "secret", "secret_offer", "companies", "staff", "unemployed",
                "market", "synd", "heat", "splay", "deck", "set_aside", "out_of_game", "problems", "regime",
                "turn", "actions_left", "round", "decision", "tasks", "act", "ending", "tycoon",
                "game_end_flag", "stats")


def fields(state: PaxState) -> dict:
    """The state's fields by name, compiled or not."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def _rebuild(data: dict) -> PaxState:
    """The state :meth:`PaxState.__reduce__` pickled."""
    state = PaxState(data["config"], data["content"], data["rng"])
    for name, value in data.items():
        setattr(state, name, value)
    return state


def _copy_by_field(old: PaxState, containers) -> PaxState:
    """The compiled build's copy (:meth:`PaxState._copy` before the decision and
    the action being resolved): every field shared, then the named containers
    copied one by one. ``tests/test_pax_properties.py`` runs it on the
    interpreted build too and compares it with the attribute-dict copy."""
    new = PaxState(old.config, old.content, old.rng.copy())
    _share_fields(old, new)
    for key in containers:
        _copy_field(old, new, key)
    return new


def _share_fields(old: PaxState, new: PaxState) -> None:
    """Every field but the config, content and rng, shared (the compiled copy's
    first step; :meth:`PaxState._copy` then copies what it must)."""
    new.options, new.sell_choice, new.colours, new.fin = old.options, old.sell_choice, old.colours, old.fin
    new.pool, new.marker, new.patents, new.solved = old.pool, old.marker, old.patents, old.solved
    new.think_tank, new.secret, new.secret_offer = old.think_tank, old.secret, old.secret_offer
    new.companies, new.staff, new.unemployed, new.market = old.companies, old.staff, old.unemployed, old.market
    new.synd, new.heat, new.splay, new.deck = old.synd, old.heat, old.splay, old.deck
    new.set_aside, new.out_of_game, new.problems, new.regime = old.set_aside, old.out_of_game, old.problems, old.regime
    new.turn, new.actions_left, new.round, new.decision = old.turn, old.actions_left, old.round, old.decision
    new.tasks, new.act, new.ending, new.tycoon = old.tasks, old.act, old.ending, old.tycoon
    new.game_end_flag, new.stats = old.game_end_flag, old.stats


def _copy_field(old: PaxState, new: PaxState, key: str) -> None:
    """``new.<key>`` made a copy of ``old.<key>`` as :data:`_COPY` says; the
    containers an action kind writes (:data:`WRITES`) by direct field access,
    where a look-up by name, a getattr and a setattr per container were about a
    third of a look-ahead copy in the compiled build (callgrind, issue 47)."""
    if key == "fin":
        new.fin = [x.copy() for x in old.fin]
    elif key == "patents":
        new.patents = [x.copy() for x in old.patents]
    elif key == "synd":
        new.synd = old.synd.copy()
    elif key == "heat":
        new.heat = old.heat.copy()
    elif key == "stats":
        new.stats = old.stats.copy()
    elif key == "market":
        new.market = {s: col.copy() for s, col in old.market.items()}
    elif key == "staff":
        new.staff = old.staff.copy()
    elif key == "unemployed":
        new.unemployed = old.unemployed.copy()
    else:
        setattr(new, key, _COPY[key](getattr(old, key)))


def _probe() -> None:
    """Only its type matters: see ``_COMPILED``."""


#: True when this module runs as the compiled build (:mod:`workbench.native`),
#: whose functions are built-in functions rather than Python ones
_COMPILED = type(_probe).__name__ != "function"

#: the functions only the compiled build runs (the interpreted one copies through
#: the attribute dict): the mutation score plants its mutants in the interpreted
#: build, where no check can run these, so it leaves them out (docs/rules.md)
__compiled_only__ = ("_copy_by_field", "_share_fields", "_copy_field")


def _copy_rows(rows: list) -> list:
    return [x.copy() for x in rows]


def _copy_market(market: dict) -> dict:
    return {s: col.copy() for s, col in market.items()}


_shallow = operator.methodcaller("copy")

#: every container of the state and how a copy copies it (:meth:`PaxState.clone`
#: copies them all, :meth:`PaxState.clone_for` only an action kind's ``WRITES``)
_COPY: dict[str, Any] = {"fin": _copy_rows, "patents": _copy_rows, "solved": _copy_rows, "think_tank": _copy_rows,
         "market": _copy_market,
         **{key: _shallow for key in ("pool", "marker", "secret", "splay", "deck", "set_aside", "out_of_game",
                                      "tasks", "companies", "staff", "unemployed", "synd", "heat", "problems",
                                      "stats")}}

#: the containers an action of each kind changes in place, through
#: ``flow.apply_action`` and the end of the action and turn that follows it
#: (paying moves finance agents and may sell Patents; ``state.bump`` counts in
#: ``stats``; ``decision``, ``act`` and the turn counters are replaced, not
#: changed in place). :meth:`PaxState.clone_for` copies only these;
#: ``tests/test_pax_bots.py`` checks that applying such an action to the copy
#: leaves the original untouched and gives the same position as a full clone.
WRITES = {
    "import": ("market", "stats"),
    "syndicate": ("fin", "patents", "synd", "heat", "stats"),
    "hire": ("fin", "patents", "staff", "unemployed", "stats"),
    # a Fundraise's steps: a divestment gives one Syndication, Employee or
    # Patent back (its agent to Wealth); ``raise`` moves the finance track and
    # counts the Fundraise (a full clone per option before, issue 47)
    "divest": ("fin", "patents", "synd", "staff", "unemployed"),
    "raise": ("fin", "stats"),
    # a Placate takes one Heat agent back to Wealth; a Surge answer syndicates
    # one more idea (finance agents installed, Syndication and Heat placed) or
    # stops, which changes no container at all
    "placate": ("fin", "heat", "stats"),
    "surge": ("fin", "synd", "heat", "stats"),
    "stop": (),
}
