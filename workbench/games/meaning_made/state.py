"""The Meaning Made position as plain Python data, and its hand-written clone.

Everything a rule reads or changes lives here: the tracks, the decks and face-up
cards, each player's tokens, Vitals, Legacy and Pattern Palette, the progress on
face-up Initiatives, and the bookkeeping of the round (whose decision it is,
Touchpoints used, donations made, actions restricted). Rules live in the
sibling modules named after the rulebook; this module only holds and copies.

The classes are typed so that the optional compiled build (:mod:`.native`)
can make them native classes with fixed fields. That is why :class:`MMState`
is registered with :class:`~workbench.core.game.State` instead of subclassing
it (a compiled class cannot derive from an interpreted one) and carries the
protocol's few concrete methods itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from workbench.core.game import TERMINAL, State
from workbench.core.rng import Rng

if TYPE_CHECKING:
    from .variants import Rules

COMMUNITY: Final = -1
"""Seat number recorded for a Community marker (solo mode)."""

PHASE_TURNS: Final = "turns"
PHASE_TOUCHPOINT: Final = "touchpoint"
PHASE_STABILITY: Final = "stability"
PHASE_OVER: Final = "over"


class Player:
    """One player's mat and supply. Copies share the ``palette`` and ``layers``
    lists, so those are replaced, never changed in place."""

    __slots__ = ("E", "I", "S", "vitals", "legacy", "palette", "fragile", "markers", "layers")  # = PLAYER_FIELDS

    def __init__(self, E: int = 0, I: int = 0, S: int = 0, vitals: int = 5, legacy: int = 0,
                 palette: list[str] | None = None, fragile: bool = False, markers: int = 4,
                 layers: list[int] | None = None) -> None:
        self.E, self.I, self.S = E, I, S
        self.vitals, self.legacy = vitals, legacy
        self.palette: list[str] = palette if palette is not None else []
        self.fragile = fragile
        self.markers = markers
        # Patterns in the Palette per Layer (index 1-6), kept with ``palette``
        self.layers: list[int] = layers if layers is not None else [0] * 7

    def copy(self) -> "Player":
        # ``palette`` and ``layers`` are shared with the copy: rules never change
        # them in place but replace them (see ``load_pattern.add_to_palette``).
        # every field passed in: a compiled class's __new__ runs __init__, which
        # would otherwise build a palette and layers only to drop them
        return Player(self.E, self.I, self.S, self.vitals, self.legacy, self.palette, self.fragile,
                      self.markers, self.layers)

    def tokens(self, kind: str) -> int:
        return self.vitals if kind == "V" else getattr(self, kind)


class Progress:
    """Tokens committed to a face-up Initiative and its Contribution Order
    markers (seat numbers in order; :data:`COMMUNITY` for a Community marker).

    Clones of a state share these entries, so rules never change one in place:
    they take it from ``setup.progress_of``, which hands out a fresh copy."""

    __slots__ = ("filled", "markers")

    def __init__(self, filled: dict[str, int] | None = None, markers: list[int] | None = None) -> None:
        self.filled: dict[str, int] = filled if filled is not None else {"E": 0, "I": 0, "S": 0, "V": 0}
        self.markers: list[int] = markers if markers is not None else []

    def copy(self) -> "Progress":
        return Progress(dict(self.filled), self.markers[:])

    def has_tokens(self) -> bool:
        f = self.filled
        return bool(f["E"] or f["I"] or f["S"] or f["V"])


#: lists a clone shares with its original: replaced on change, never changed in place
SHARED_PILES = ("pattern_deck", "pattern_discard", "init_deck", "init_discard", "event_deck",
                "event_discard", "events", "completed", "completions")


class MMState:
    """A Meaning Made position. ``rules`` (the resolved settings, variants and
    options) and ``cards`` are shared, read-only, by every clone."""

    #: the rules module (``legal_actions(state)``, ``apply_action(state, action)``),
    #: bound by :mod:`.game`, which sits above both
    engine: ClassVar[Any] = None

    # set by flow.start_round and flow.begin_turn (see __init__)
    phase: str
    seat: int                   # whose turn it is in Phase B
    decider: int                # who decides now (turn, Touchpoint answer, donation)
    actions_left: int
    converted: bool             # conversion used this turn
    pending: Any                # (from_seat, to_seat, "give"|"request", token)
    donations: int              # Meaning raised in this round's Stability Window
    stab_next: int              # next offset from the first player to ask in Phase C
    restricted: list[str]
    touch_used: list[bool]
    recycled: list[bool]

    def __init__(self, config: Any, rules: Rules, cards: Any, rng: Rng, blank: bool = False) -> None:
        self.config = config
        self.rules = rules
        self.cards = cards
        self.rng = rng
        if blank:
            return                  # clone() sets every other field itself
        # the round's bookkeeping (declared above) is set by flow.start_round, which
        # every game and scenario runs before play: not set here too
        self.meaning = rules.start_meaning
        self.world_layer = 1
        self.round = 1
        self.first = rules.first_player  # the round's first player (the starting player)
        self.pattern_deck: list[str] = []
        self.pattern_discard: list[str] = []
        self.prism: list[Any] = []  # slots: Pattern name or None
        self.init_deck: list[str] = []
        self.init_discard: list[str] = []
        self.index: list[Any] = []  # slots: Initiative name or None
        self.end: str | None = None
        self.progress: dict[str, Progress] = {}
        self.completed: list[str] = []
        self.event_deck: list[str] = []
        self.event_discard: list[str] = []
        self.events: list[str] = []  # Events revealed this round
        self.code: int | None = None  # the round's Consequence Code
        self.players: list[Player] = []
        self.community = rules.community_markers
        self.ending: str | None = None
        self.actions_taken = 0
        self.completions: list[tuple] = []  # (name, round, player contributors, actor)
        self.aside: list[str] = []  # cards a scenario set out of play (never changes during play)

    # -- protocol --------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == PHASE_OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def legal_actions(self) -> list:
        return self.engine.legal_actions(self)

    def legal_action_count(self) -> int:
        return len(self.engine.legal_actions(self))

    def legal_action(self, index: int) -> Any:
        return self.engine.legal_actions(self)[index]

    def sample_legal_action(self, rng: Rng) -> tuple:
        """``(action, count)``: the same single draw as ``State.sample_legal_action``."""
        legal = self.engine.legal_actions(self)
        k = len(legal)
        if not k:
            raise IndexError("no legal action to sample")
        return legal[rng.randbelow(k)], k

    def player_name(self, seat: int) -> str:
        return self.config.players[seat]

    @property
    def num_players(self) -> int:
        return len(self.config.players)

    def apply_action(self, action) -> None:
        self.engine.apply_action(self, action)

    def clone(self) -> "MMState":
        # Progress entries are shared: they are copied on write by
        # ``setup.progress_of``. The piles in SHARED_PILES are shared too: play
        # replaces them, never changes them in place (``setup.draw``, recycling,
        # discarding Events, completing); scenario code that edits them calls
        # ``scenario.own_piles`` first. Everything else play changes in place is copied.
        if _COMPILED:
            # a native class has fixed fields and no attribute dict (and its
            # __new__ runs __init__)
            return _clone_by_field(self)
        # interpreted: copy the attribute dict in one go (C speed), then
        # replace what play mutates in place
        s = MMState.__new__(MMState)
        d = self.__dict__.copy()
        d["rng"] = self.rng.copy()
        d["prism"] = self.prism[:]
        d["index"] = self.index[:]
        d["progress"] = self.progress.copy()
        d["restricted"] = self.restricted[:]
        d["touch_used"] = self.touch_used[:]
        d["recycled"] = self.recycled[:]
        d["players"] = [p.copy() for p in self.players]
        s.__dict__ = d
        return s

    def __reduce__(self) -> tuple:
        # pickle and deepcopy by field: a compiled state cannot be made empty.
        # The Rules are left out and made again from the state's own config and
        # cards: the shared Rules object was made from whichever game came
        # first, and pickling it would make two games of one seed differ in bytes
        data = fields(self)
        del data["rules"]
        return _rebuild, (data,)

    # -- small lookups used by several rules ------------------------------------
    def face_up_initiatives(self) -> list[str]:
        """Face-up Initiatives, Index slots left to right, then the End Initiative."""
        out = [n for n in self.index if n is not None]
        if self.end is not None:
            out.append(self.end)
        return out

    def contributors(self, name: str) -> list[int]:
        prog = self.progress.get(name)
        return [m for m in prog.markers if m != COMMUNITY] if prog else []

    def __repr__(self) -> str:
        return (f"<MeaningMade round {self.round} {self.phase} meaning {self.meaning} "
                f"layer {self.world_layer} decider {self.decider}>")


State.register(MMState)

#: every field of an :class:`MMState`, in the order ``__init__`` sets them (a
#: compiled state has no ``vars()``; tests compare positions through these)
STATE_FIELDS = ("config", "rules", "cards", "rng", "meaning", "world_layer", "round", "phase", "first",
                "seat", "decider", "actions_left", "converted", "pending", "donations", "stab_next",
                "pattern_deck", "pattern_discard", "prism", "init_deck", "init_discard", "index", "end",
                "progress", "completed", "event_deck", "event_discard", "events", "code", "restricted",
                "touch_used", "recycled", "players", "community", "ending", "actions_taken",
                "completions", "aside")
PLAYER_FIELDS = ("E", "I", "S", "vitals", "legacy", "palette", "fragile", "markers", "layers")


def fields(state: MMState) -> dict[str, Any]:
    """The state's fields by name, compiled or not."""
    return {name: getattr(state, name) for name in STATE_FIELDS}


def _rebuild(data: dict[str, Any]) -> MMState:
    """The state :meth:`MMState.__reduce__` pickled."""
    from .variants import Rules
    state = MMState(data["config"], Rules(data["config"], data["cards"]), data["cards"], data["rng"])
    for name, value in data.items():
        setattr(state, name, value)
    return state

def _probe() -> None:
    """Only its type matters: see ``_COMPILED``."""


#: True when this module runs as the compiled build (:mod:`.native`), whose
#: functions are built-in functions rather than Python ones
_COMPILED = type(_probe).__name__ != "function"


def _clone_by_field(old: MMState) -> MMState:
    """The compiled build's :meth:`MMState.clone`: the same copy, field by field.
    ``tests/test_meaning_made_native.py`` runs it on the interpreted build and
    compares it with ``clone()``."""
    s = MMState(old.config, old.rules, old.cards, old.rng.copy(), blank=True)
    s.meaning, s.world_layer, s.round, s.phase = old.meaning, old.world_layer, old.round, old.phase
    s.first, s.seat, s.decider, s.actions_left = old.first, old.seat, old.decider, old.actions_left
    s.converted, s.pending, s.donations, s.stab_next = old.converted, old.pending, old.donations, old.stab_next
    s.pattern_deck, s.pattern_discard, s.prism = old.pattern_deck, old.pattern_discard, old.prism[:]
    s.init_deck, s.init_discard, s.index, s.end = old.init_deck, old.init_discard, old.index[:], old.end
    s.progress, s.completed = old.progress.copy(), old.completed
    s.event_deck, s.event_discard, s.events, s.code = old.event_deck, old.event_discard, old.events, old.code
    s.restricted, s.touch_used, s.recycled = old.restricted[:], old.touch_used[:], old.recycled[:]
    s.players = [p.copy() for p in old.players]
    s.community, s.ending, s.actions_taken = old.community, old.ending, old.actions_taken
    s.completions, s.aside = old.completions, old.aside
    return s


#: the functions only the compiled build runs (the interpreted one copies through
#: the attribute dict): the mutation score plants no mutant in them
__compiled_only__ = ("_clone_by_field",)


def finish(state: MMState, ending: str) -> None:
    """The game ends (``survived``, ``collapsed``, ``timeout``): nobody decides any more."""
    state.ending = ending
    state.phase = PHASE_OVER
    state.pending = None
