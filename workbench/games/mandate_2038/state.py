"""The position of a Mandate 2038 game as plain data, cheap to clone.

``MandateState`` holds the board, every player's tracks and pieces, the decks,
the Audit bag and where the game stands in its Era / cycle / decision flow. The
flow itself (who decides what next) lives in :mod:`.flow`; the rules of each
part live in the module named for it.

The classes are typed so that the compiled build (:mod:`workbench.native`)
makes them native classes with fixed fields, read directly by the compiled
rules. That is why :class:`MandateState` is registered with
:class:`~workbench.core.game.State` instead of subclassing it (a compiled class
cannot derive from an interpreted one) and copies itself field by field.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from workbench.core.game import TERMINAL, State
from workbench.core.errors import IllegalAction
from workbench.core.rng import Rng

from .data import CORE_ACTIONS


class Player:
    """One institution: tracks, pieces and per-Era records."""

    __slots__ = ("faction", "ability", "runway", "compute", "capability", "customers", "trust",
                 "mandate", "bag", "agents", "facilities", "generator", "projects", "ready",
                 "trust_cube", "cap_milestones", "agi", "start_trust", "rec")  # = PLAYER_FIELDS
    #: slots that copies share: always replaced, never changed in place
    SHARED_SLOTS: ClassVar[tuple] = ("projects", "cap_milestones", "rec")

    # the slots' types: the rules modules are compiled with mypyc (compiled.txt),
    # which checks what it reads against these
    faction: str
    ability: Any
    runway: int
    compute: int
    capability: int
    customers: int
    trust: int
    mandate: int
    bag: int                    # own Scrutiny cubes in the Audit bag
    agents: list                # per Agent: its position (a tile, the frontier) or None in the supply
    facilities: list[int | None]  # per Facility: its tile or None
    generator: Any              # the Generator's tile, or None
    projects: dict              # project id -> index of its host Facility
    ready: list                 # per Core Action: ready or exhausted
    trust_cube: int
    cap_milestones: list
    agi: bool
    start_trust: int
    rec: dict                   # the Era records Mandate criteria read

    def copy(self) -> "Player":
        # one assignment per slot, written out: a loop of getattr/setattr over
        # __slots__ was most of a greedy bot's look-ahead (every clone copies
        # every player); test_player_copy_copies_every_slot keeps this complete
        c = Player.__new__(Player)
        c.faction, c.ability, c.runway, c.compute = self.faction, self.ability, self.runway, self.compute
        c.capability, c.customers, c.trust, c.mandate = self.capability, self.customers, self.trust, self.mandate
        c.bag, c.generator, c.trust_cube, c.agi = self.bag, self.generator, self.trust_cube, self.agi
        c.start_trust = self.start_trust
        c.agents = self.agents[:]
        c.facilities = self.facilities[:]
        c.ready = self.ready[:]
        # copy-on-write: these change a few times a game and are always replaced,
        # never changed in place (build.resolve, milestones, Player.record), so
        # copies share them
        c.projects, c.cap_milestones, c.rec = self.projects, self.cap_milestones, self.rec
        return c

    def record(self, key: str, value) -> None:
        """Set one of the Era records a Mandate criterion reads (a new dict: copies share ``rec``)."""
        self.rec = {**self.rec, key: value}

    def ready_actions(self) -> list[str]:
        return [a for a, r in zip(CORE_ACTIONS, self.ready) if r]


def new_player(faction, supply_agents: int, facilities: int, starting_agents: int, frontier: int) -> Player:
    p = Player.__new__(Player)
    s = faction.start
    p.faction = faction.name
    p.ability = faction.ability
    p.runway, p.compute, p.capability = s.runway, s.compute, s.capability
    p.customers, p.trust, p.mandate = s.customers, s.trust, s.mandate
    p.start_trust = s.trust
    p.bag = 0                       # own Scrutiny cubes in the Audit bag
    p.agents = [frontier] * starting_agents + [None] * (supply_agents - starting_agents)
    p.facilities = [None] * facilities
    p.generator = None
    p.projects = {}                 # project id -> index of its host Facility
    p.ready = [True] * len(CORE_ACTIONS)
    p.trust_cube = 0
    p.cap_milestones = []
    p.agi = False
    p.rec = {}
    return p


class MandateState:
    """A Mandate 2038 position. See ``cards/mandate_2038/scenarios/README.md`` for
    what :meth:`Game.observe` reports of it."""

    #: the rules module (``legal_actions``, ``canonical``, ``why_illegal``,
    #: ``apply``), bound by :mod:`.game`: the state never imports the rules
    engine: ClassVar[Any] = None

    # flow phases
    SELECT: Final = "select"
    ACT: Final = "act"
    ANSWER: Final = "answer"
    RUN: Final = "run"
    TALENT: Final = "talent"
    AGI: Final = "agi"
    OVER: Final = "over"

    # What a position holds (set up by the game's ``new_initial_state``). Declared
    # because the rules modules are compiled with mypyc (compiled.txt), which
    # needs every attribute's type; ``Any`` where a value has more than one shape.
    config: Any
    options: dict
    content: Any
    rng: Rng
    tiles: Any
    tile_ids: Any
    # typed by element: the compiled rules then read a player's fields directly
    # (``state.players[seat].runway``), where an untyped list gave them a generic
    # attribute look-up each, about a sixth of a greedy game (callgrind, issue 47)
    players: list[Player]       # in seat order
    deck: list                  # the Training deck (replaced, never changed in place)
    discard: list
    headline_decks: list        # per Era: Headline names, top first
    mandate_decks: list         # per Era: Mandate names
    initiative: int             # the seat holding the Initiative
    timeline: list
    headline: Any               # this Era's Headline, or None
    mandate_card: Any           # this Era's Mandate, or None
    bag_black: int              # black Systemic Risk cubes in the Audit bag
    black_supply: int
    era: int
    cycle: int
    phase: str                  # one of the flow phases above
    decider: int                # the seat that decides next
    selections: list            # per seat: its face-down Core Action pick this cycle, or None
    order: list
    sel_index: int
    act_index: int
    offered: bool
    pending: Any                # a decision waiting for an answer (dict), or None
    acting: Any
    run: Any                    # the push-your-luck Training run under way (dict), or None
    pre_draw: Any
    ventures: list
    queue: list
    after_queue: str
    mandate_results: list
    events: tuple               # what happened, for the log (a tuple: clones share it)
    _legal: Any
    _legal_set: Any
    _sampled: Any
    _policy: Any                # hidden.rival_picks: (where the position stood, its event log, the answer), or None

    def __init__(self) -> None:
        self._legal = None
        self._legal_set = None
        self._sampled = None
        self._policy = None

    def shallow_copy(self) -> "MandateState":
        """A copy sharing every field with this state (no listing, no kept
        rival model): callers replace what they will change."""
        if _COMPILED:
            # a native class has fixed fields and no attribute dict
            return _shallow_copy_by_field(self)
        # interpreted: copy the attribute dict in one go (C speed)
        c = MandateState()
        d = self.__dict__.copy()
        d["_legal"] = d["_legal_set"] = d["_sampled"] = d["_policy"] = None
        c.__dict__ = d
        return c

    def __reduce__(self) -> tuple:
        # pickle and deepcopy by field: a compiled state has no attribute dict
        return _rebuild, (fields(self),)

    def clone(self) -> "MandateState":
        c = self.shallow_copy()
        c.rng = self.rng.copy()
        c.players = [p.copy() for p in self.players]
        # shared, never changed in place (a change replaces the list): the
        # Training deck and discard (research.draw), the Headline decks
        # (headlines.reveal), the Mandate decks (only read after setup), the
        # timeline and the Mandate results
        c.selections = list(self.selections)
        c.order = list(self.order)
        c.ventures = [dict(v) for v in self.ventures]
        c.queue = list(self.queue)
        c.pending = dict(self.pending) if self.pending else None
        c.run = _copy_run(self.run)
        # the same position has the same legal moves: a look-ahead's clone checks
        # its move against the listing already made here instead of redoing it
        # (the listing is never changed in place; apply_action drops it)
        c._legal = self._legal
        c._legal_set = None
        c._sampled = None
        return c

    # -- protocol -------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == self.OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == self.OVER

    def legal_actions(self) -> list:
        return list(self._legal_list())

    def legal_action_count(self) -> int:
        return len(self._legal_list())

    def legal_action(self, index: int):
        return self._legal_list()[index]

    def sample_legal_action(self, rng: Rng) -> tuple:
        # the draw of rng.choice(legal_actions()); an Action's resolutions are
        # indexed without being listed (flow.Resolutions)
        legal = self._legal_list()
        k = len(legal)
        if not k:
            raise IndexError("no legal action to sample")
        move = legal[rng.randbelow(k)]
        self._sampled = move              # apply_action knows this very object is listed here
        return move, k

    def forget_listing(self) -> None:
        """Drop the legal listing (and the last drawn move): for code that edits
        the position by hand instead of through :meth:`apply_action`."""
        self._legal = self._legal_set = self._sampled = None

    def _legal_list(self) -> Any:
        # Any, not list: an ``act`` decision's listing is a flow.Resolutions, which a
        # compiled ``-> list`` would refuse
        if self._legal is None:
            self._legal = self.engine.legal_actions(self)
            self._legal_set = None
        return self._legal

    def apply_action(self, action) -> None:
        flow = self.engine
        if self.phase == self.OVER:
            raise IllegalAction("the game is over")
        if action is not self._sampled or action is None:
            # a move not just drawn from this position's listing: canonical form, then
            # one membership test (a linear scan is cheaper than hashing the list)
            legal = self._legal_list()
            action = flow.canonical(self, action)
            if action not in legal:
                raise IllegalAction(flow.why_illegal(self, action))
        # dropped before the move: no rule lists the moves while one is applied
        self._legal = self._legal_set = self._sampled = None
        flow.apply(self, action)

    # -- helpers every rules module uses --------------------------------------
    def player_name(self, seat: int) -> str:
        return self.config.players[seat]

    @property
    def num_players(self) -> int:
        return len(self.config.players)

    @property
    def n(self) -> int:
        return len(self.players)

    def initiative_order(self) -> list[int]:
        """Seats clockwise from the Initiative holder."""
        # the count read once, not through the ``n`` property per seat: the rules
        # (compiled) ask for this order every turn
        n, first = len(self.players), self.initiative
        return [(first + i) % n for i in range(n)]

    def note(self, text: str) -> None:
        """Record what happened (for the dashboard's log and scenario reports)."""
        self.events = self.events + (text,)  # a tuple: clones share it for free


State.register(MandateState)

#: every slot of a :class:`Player` (a compiled Player, a native class, has no
#: ``__slots__`` to read; tests check the two agree on the interpreted build)
PLAYER_FIELDS = ("faction", "ability", "runway", "compute", "capability", "customers", "trust",
                 "mandate", "bag", "agents", "facilities", "generator", "projects", "ready",
                 "trust_cube", "cap_milestones", "agi", "start_trust", "rec")

#: every field of a :class:`MandateState` a position is made of (a compiled
#: state has no ``vars()``); :meth:`MandateState.shallow_copy` copies each
STATE_FIELDS = ("config", "options", "content", "rng", "tiles", "tile_ids", "players", "deck", "discard",
                "headline_decks", "mandate_decks", "initiative", "timeline", "headline", "mandate_card",
                "bag_black", "black_supply", "era", "cycle", "phase", "decider", "selections", "order",
                "sel_index", "act_index", "offered", "pending", "acting", "run", "pre_draw", "ventures",
                "queue", "after_queue", "mandate_results", "events")


def fields(state: MandateState) -> dict:
    """The state's fields by name (those set), compiled or not."""
    return {name: getattr(state, name) for name in STATE_FIELDS if hasattr(state, name)}


def _rebuild(data: dict) -> MandateState:
    """The state :meth:`MandateState.__reduce__` pickled."""
    state = MandateState()
    for name, value in data.items():
        setattr(state, name, value)
    return state


def _probe() -> None:
    """Only its type matters: see ``_COMPILED``."""


#: True when this module runs as the compiled build (:mod:`workbench.native`),
#: whose functions are built-in functions rather than Python ones
_COMPILED = type(_probe).__name__ != "function"


def _shallow_copy_by_field(old: MandateState) -> MandateState:
    """The compiled build's :meth:`MandateState.shallow_copy`: the same copy, field by
    field. ``tests/test_mandate_engine.py`` runs it on the interpreted build and compares
    it with ``shallow_copy()``."""
    c = MandateState()
    c.config, c.options, c.content, c.rng, c.tiles = old.config, old.options, old.content, old.rng, old.tiles
    c.tile_ids, c.players, c.deck, c.discard = old.tile_ids, old.players, old.deck, old.discard
    c.headline_decks, c.mandate_decks, c.initiative = old.headline_decks, old.mandate_decks, old.initiative
    c.timeline, c.headline, c.mandate_card = old.timeline, old.headline, old.mandate_card
    c.bag_black, c.black_supply, c.era, c.cycle = old.bag_black, old.black_supply, old.era, old.cycle
    c.phase, c.decider, c.selections, c.order = old.phase, old.decider, old.selections, old.order
    c.sel_index, c.act_index, c.offered, c.pending = old.sel_index, old.act_index, old.offered, old.pending
    c.acting, c.run, c.pre_draw, c.ventures = old.acting, old.run, old.pre_draw, old.ventures
    c.queue, c.after_queue, c.mandate_results = old.queue, old.after_queue, old.mandate_results
    c.events = old.events
    return c


#: the functions only the compiled build runs (the interpreted one copies through
#: the attribute dict): the mutation score plants no mutant in them
__compiled_only__ = ("_shallow_copy_by_field",)


def _copy_run(run):
    if run is None:
        return None
    r = dict(run)
    r["seen"] = list(run["seen"])
    r["revealed"] = list(run["revealed"])
    return r
