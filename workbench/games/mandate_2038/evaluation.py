"""How a Mandate 2038 position is rated for greedy bots and the design metrics:
weighted features of a seat's position (``DEFAULT_WEIGHTS`` names them), with
the outlook of a selected Core Action still to resolve and a Training draw's
expected value in place of the card drawn, and the standing on the Era's
revealed Mandate card (issue 15: bots that play for points)."""

from __future__ import annotations

import weakref
from typing import Any, Final, Mapping

from . import agi, board, costs, flow, influence, mandate_scoring, odds, research
from .actions import ACTION_RULES
from .data import CORE_ACTIONS, Content
from .state import MandateState

DEFAULT_WEIGHTS = {
    "mandate": 1.0, "capability": 0.35, "customers": 0.5, "trust": 0.45, "runway": 0.12,
    "compute": 0.15, "connected": 0.7, "offline": -0.9, "scrutiny": -0.3,
    # an Agent on the board is presence for every later Action: worth more than
    # the two Runway a Recruit costs (at 0.2 Organize was never chosen, issue 15)
    "agents": 0.9,
    # each Runway below 4 counts this much more: a player who cannot pay for a
    # Build or a Recruit gains most from Fund
    "short_runway": 0.25,
    "generator": 0.4, "projects": 0.6, "provisional": 0.35, "blocked_selection": -1.5,
    "agi_readiness": 2.0, "outlook": 1.0, "ventures": 0.6,
    # the Era's revealed Mandate card: progress toward its minimum (0-1) plus 1
    # for leading the qualifiers alone, 0.5 tied (see era_mandate_standing)
    "era_mandate": 1.5,
    # Runway valued by what it buys: the pieces still open to the seat that its
    # Runway pays for (see purchasing_power), at this share of their own worth
    # (buying still takes an Action)
    "buys": 0.4,
    # what the connected Facilities will still produce: each unit of their
    # printed output per Production left in the game (this Era's included).
    # With these two, one bot in a rotating seat against three of the former
    # evaluation wins 0.38 of 400 four-player games (fair 0.25; docs/balancing.md)
    "output": 0.2,
    # what the seat's own projects will still yield, read from the pool's cards
    # (each unit of a project's printed production, weighed as the track it
    # feeds, per Production left; see project_yield_worth): an edit of a
    # project's yield changes its worth to the bot. Off (0) for the plain
    # greedy bot, whose games the fixtures pin; ``greedy:card_value=1`` turns it on
    "card_value": 0.0,
}



class Weights:
    """``DEFAULT_WEIGHTS`` with a caller's changes, each feature's weight a typed
    field: the compiled build reads and multiplies them as machine floats, where a
    dict of weights cost a lookup and a boxed product per term of every rated
    candidate (about a tenth of a greedy game, callgrind, issue 47). ``mapping``
    keeps the merged dict for the terms that read a weight by name."""

    __slots__ = ("mapping", "mandate", "capability", "customers", "trust", "runway", "compute",
                 "connected", "offline", "scrutiny", "agents", "short_runway", "generator", "projects",
                 "provisional", "blocked_selection", "agi_readiness", "outlook", "ventures",
                 "era_mandate", "buys", "output", "card_value")

    mapping: dict
    mandate: float
    capability: float
    customers: float
    trust: float
    runway: float
    compute: float
    connected: float
    offline: float
    scrutiny: float
    agents: float
    short_runway: float
    generator: float
    projects: float
    provisional: float
    blocked_selection: float
    agi_readiness: float
    outlook: float
    ventures: float
    era_mandate: float
    buys: float
    output: float
    card_value: float

    def __init__(self, w: dict) -> None:
        self.mapping = w
        self.mandate, self.capability = float(w["mandate"]), float(w["capability"])
        self.customers, self.trust = float(w["customers"]), float(w["trust"])
        self.runway, self.compute = float(w["runway"]), float(w["compute"])
        self.connected, self.offline = float(w["connected"]), float(w["offline"])
        self.scrutiny, self.agents = float(w["scrutiny"]), float(w["agents"])
        self.short_runway, self.generator = float(w["short_runway"]), float(w["generator"])
        self.projects, self.provisional = float(w["projects"]), float(w["provisional"])
        self.blocked_selection, self.agi_readiness = float(w["blocked_selection"]), float(w["agi_readiness"])
        self.outlook, self.ventures = float(w.get("outlook", 1.0)), float(w["ventures"])
        self.era_mandate, self.buys = float(w["era_mandate"]), float(w["buys"])
        self.output, self.card_value = float(w["output"]), float(w.get("card_value", 0.0))


def weights_of(weights: Any) -> Weights:
    """The :class:`Weights` of ``weights`` (None: the defaults, made once; a
    :class:`Weights` as it is; a mapping: the defaults updated with it)."""
    if isinstance(weights, Weights):
        return weights
    if not weights:
        return _DEFAULT
    w = dict(DEFAULT_WEIGHTS)
    w.update(weights)
    return Weights(w)


_DEFAULT: Final = Weights(dict(DEFAULT_WEIGHTS))

#: Mandate criteria that Training runs decide: left out of the standing, because
#: the run's own valuation (expected banked Capability, no peeking at the deck)
#: already plays for them, and counting their realised values mid-run made the
#: bots bank too early (Clean Benchmarks scored in 3 of 8 games instead of 8)
RUN_CRITERIA = frozenset({"best_run", "unique_domains", "capability_gained"})


def _era_card(state: MandateState):
    """The Era's revealed Mandate card, or None when there is none or it is
    decided by Training runs (:data:`RUN_CRITERIA`)."""
    name = state.mandate_card
    if not name:
        return None
    # asked for every rated position: the lookup is kept per content and card name
    cards = _ERA_CARDS.get(state.content)
    if cards is None:
        cards = _ERA_CARDS.put(state.content, {})
    card = cards.get(name, False)
    if card is False:
        card = state.content.mandate_by_name.get(name.lower())
        card = cards[name] = None if card is None or card.criterion in RUN_CRITERIA else card
    return card


class _PerPool:
    """Values worked out once per card pool (a :class:`Content`), kept weakly
    (an edited pool's values go with it). The pool asked for last is checked
    first, by identity: a WeakKeyDictionary's ``get`` is interpreted Python
    (a weak reference made and hashed per call), and a greedy game asked it
    about 15,000 times, an eighth of its time (cProfile, issue 47)."""

    __slots__ = ("table", "last", "value")

    def __init__(self) -> None:
        self.table: "weakref.WeakKeyDictionary[Content, Any]" = weakref.WeakKeyDictionary()
        self.last: Any = None           # a weak reference to the pool asked for last
        self.value: Any = None          # its value

    def get(self, content: Content) -> Any:
        last = self.last
        if last is not None and last() is content:
            return self.value
        value = self.table.get(content)
        if value is not None:
            self.last, self.value = weakref.ref(content), value
        return value

    def put(self, content: Content, value: Any) -> Any:
        self.table[content] = value
        self.last, self.value = weakref.ref(content), value
        return value


#: content -> {card name: card or None} for :func:`_era_card`
_ERA_CARDS: Final = _PerPool()


def _count(state: MandateState, seat: int, criterion: str) -> int:
    """``seat``'s count on the card's criterion as the bots read it: Compute
    produced is only recorded at Production, so before that the connected
    Facilities (which produce it) stand in for it."""
    v = mandate_scoring.value(state, seat, criterion)
    if criterion == "compute_produced" and not v:
        v = len(board.connected_facilities(state, seat))
    return v


def _counts(state: MandateState, criterion: str) -> list[int]:
    """Every seat's :func:`_count`, board control worked out once for all seats."""
    values = mandate_scoring.values(state, criterion)
    if criterion == "compute_produced":
        values = [v or len(board.connected_facilities(state, s)) for s, v in enumerate(values)]
    return values


def readiness_for_agi(state: MandateState, seat: int, capability: float, connected: float, trust: float) -> float:
    """How close ``seat`` stands to qualifying, 0 to 1 (1 once recognized): the mean
    share of each threshold met. Only bots read it (a planning feature from Era III
    on, when recognition is one Era away); it is no rule, so it lives with the bot's
    evaluation rather than in agi.py."""
    p = state.players[seat]
    if p.agi:
        return 1.0
    if state.era < agi.AGI_ERA - 1:
        return 0.0
    t = state.content.agi
    # written out (the greedy outlook asks this for every candidate); the same
    # additions, in the same order, as summing the four shares
    return (min(1.0, capability / t["capability"]) + min(1.0, connected / t["poweredFacilities"])
            + min(1.0, trust / t["trust"]) + min(1.0, p.compute / t["computeCost"])) / 4


def control_after(state: MandateState, seat: int, base_presence: dict[int, list[int]], base_control: list,
                  base_pieces: dict[int, int]) -> list[int | None]:
    """The control map of ``state``, known to differ from a position whose
    :func:`board.presence_map`, :func:`board.control_map` and ``seat``'s :func:`board.pieces_at`
    are given only in ``seat``'s own pieces: only the districts where those
    moved are worked out again (a bot's look-ahead: no rule reads it)."""
    now = board.pieces_at(state.players[seat])
    control = base_control
    for pos in now.keys() | base_pieces.keys():
        k = now.get(pos, 0)
        if k == base_pieces.get(pos, 0) or pos == board.FRONTIER_POS:
            continue
        if control is base_control:
            control = list(base_control)
        c = base_presence.get(pos)
        c = list(c) if c is not None else [0] * len(state.players)
        c[seat] = k
        control[pos] = board.leader(c)
    return control


class StandingBase:
    """The Era card's counts on one position, kept for rating copies of it that
    differ only in ``seat``'s own Player (look-ahead candidates, see
    :func:`_scratch`): for a criterion that reads each player's own pieces
    (``mandate_scoring.OWN_CRITERIA``) the other seats' counts are reused; for
    board control only the districts where the seat's pieces moved are worked
    out again (:func:`control_after`)."""

    __slots__ = ("card", "seat", "counts", "presence", "control", "pieces", "buys", "taken")

    def __init__(self, state: MandateState, seat: int) -> None:
        self.card = card = _era_card(state)
        self.seat = seat
        #: purchasing_power's offers by the seat's pieces (the rest of the board is
        #: the same for every copy rated against this base)
        self.buys: dict[tuple, list] = {}
        #: Facilities of the other seats on each district (:func:`_open_yield_beside`)
        self.taken: dict[int, int] | None = None
        self.counts = self.presence = self.control = self.pieces = None
        if card is None:
            return
        if card.criterion in mandate_scoring.CONTROL_CRITERIA:
            self.presence = board.presence_map(state)
            self.control = board.control_map(state, self.presence)
            self.pieces = board.pieces_at(state.players[seat])
        elif card.criterion in mandate_scoring.OWN_CRITERIA:
            self.counts = _counts(state, card.criterion)

    def values(self, state: MandateState) -> list[int]:
        """Every seat's count on ``state``, a copy differing only in the seat's Player."""
        criterion = self.card.criterion
        if self.counts is not None:
            values = list(self.counts)
            values[self.seat] = _count(state, self.seat, criterion)
            return values
        presence, control, pieces = self.presence, self.control, self.pieces
        if control is not None and presence is not None and pieces is not None:   # set together
            control = control_after(state, self.seat, presence, control, pieces)
            return mandate_scoring.values(state, criterion, control)
        return _counts(state, criterion)


def era_mandate_standing(state: MandateState, seat: int, base: StandingBase | None = None) -> float:
    """How well ``seat`` stands on the Era's revealed Mandate card (0 for the
    Training-run criteria, see :data:`RUN_CRITERIA`): its criterion
    value's share of the card's minimum (capped at 1), plus 1 when it alone
    leads the players who reach the minimum, 0.5 when it leads tied.

    ``base``: the counts of a position this one differs from only in ``seat``'s
    own Player (a look-ahead candidate), so that only what changed is counted again."""
    card = _era_card(state)
    if card is None:
        return 0.0
    if base is not None and base.card is card and base.seat == seat:
        values = base.values(state)
    else:
        values = _counts(state, card.criterion)
    mine = values[seat]
    minimum = card.minimum                # read once: an attribute of interpreted card data
    out = min(1.0, mine / minimum) if minimum > 0 else 1.0
    qualified = [v for v in values if v >= minimum]
    if mine >= minimum and mine == max(qualified):
        out += 1.0 if qualified.count(mine) == 1 else 0.5
    return out


#: Core Action -> its index in ``CORE_ACTIONS``: a compiled dictionary read where
#: ``CORE_ACTIONS.index`` was a method call on interpreted card data, once per
#: rated position (callgrind, issue 47)
_ACTION_INDEX: Final[dict[str, int]] = {a: i for i, a in enumerate(CORE_ACTIONS)}


def _unresolved_selection(state: MandateState, seat: int) -> str | None:
    """The Core Action ``seat`` has selected this cycle and not yet resolved (None
    outside selection and resolution, and once its resolution has begun)."""
    if state.phase not in ("select", "act", "answer") or state.run is not None:
        return None
    action = state.selections[seat]
    if action is None or not state.players[seat].ready[_ACTION_INDEX[action]]:
        return None
    if state.acting is not None and state.acting[0] == seat:
        return None
    return action


#: content -> {on_research: expected banked Capability}; weak, so an edited pool's
#: values go with it
_RUN_VALUE: Final = _PerPool()


def _expected_run(content: Content, on_research: bool) -> int:
    """A Training run's expected banked Capability under the best stopping rule from
    a full deck of ``content`` (odds.py), rounded: what a bot expects of selecting
    Research."""
    values = _RUN_VALUE.get(content)
    if values is None:
        values = _RUN_VALUE.put(content, {})
    if on_research not in values:
        comp = odds.full_deck(content)
        values[on_research] = round(odds.optimal_run(comp, 1 if on_research else 0)["expected"])
    return values[on_research]


def evaluate(state: MandateState, seat: int, weights: Any = None) -> float:
    """Weighted features of ``seat``'s position (``DEFAULT_WEIGHTS`` names them).

    While ``seat`` has a selected Core Action still to resolve, the position is
    rated as it would stand after the best resolution of that Action (its
    *outlook*), so a one-ply greedy bot selects the Action that will do most for
    it instead of picking blind. After a Training draw the realised card is
    replaced by the draw's expected value, so the look-ahead cannot peek at the
    deck. ``weights``: a mapping of changed weights, or :class:`Weights`."""
    w = weights_of(weights)
    action = _unresolved_selection(state, seat)
    if action is not None and w.outlook:
        return _outlook(state, seat, action, w)
    return features_value(state, seat, w)


def _outlook(state: MandateState, seat: int, action: str, weights: Any) -> float:
    """The best feature value among the resolutions of ``seat``'s selected Action,
    each applied to a copy of the position (a Training run counts its expected
    banked Capability from a full deck, never the real cards). ``weights``: a
    :class:`Weights` or a mapping (:func:`weights_of`)."""
    w = weights_of(weights)
    rules = ACTION_RULES[action]
    index = CORE_ACTIONS.index(action)
    best, tried = None, set()
    # the candidates change only the seat's own Player: the Mandate counts of
    # the position are kept once here (era_mandate_standing)
    base = StandingBase(state, seat) if w.era_mandate else None
    kinds = _alike_by_kind(state, action, w)
    listed = flow.resolutions(state, seat, action)
    if not listed.agents:
        return features_value(state, seat, w)
    # the listing's rows read directly, in its order (district, effect, Agent):
    # no Move is built, and of identical Agents only the first listed is tried,
    # since which one moves changes nothing rated here (the key names no Agent)
    agent = listed.agents[0]
    positions = tile_positions(state)
    # candidates that leave the seat's Player and the shared fields the rating
    # reads alike share one rating (about two in three did, issue 47)
    by_position = _reads_control(state, w)
    rated: dict = {}
    for tile, modes in listed.rows:
        pos = positions[tile]
        for mode in modes:
            # nor, when the Action and the evaluation read the district only
            # through its kind, which district of that kind (_alike_by_kind)
            key = _district_key(state, mode, pos, kinds) if kinds is not None else (mode, tile)
            if key in tried:
                continue
            tried.add(key)
            c = _scratch(state, seat)
            c.players[seat].agents[agent] = pos
            if mode != "blocked":
                if action == "research":
                    c.players[seat].compute -= research.compute_cost(c, pos)
                    costs.gain(c, seat, "capability", _expected_run(c.content, c.tiles[pos] == "research"))
                elif rules.resolve(c, seat, pos, mode):
                    influence.accept(c)       # a proposal is rated as if the partner agreed
                    c.pending = None
            if pos == board.FRONTIER_POS:
                costs.gain(c, seat, "runway", 1)
            c.players[seat].ready[index] = False
            same = candidate_key(c, state, seat, by_position)
            value = rated.get(same) if same is not None else None
            if value is None:
                value = features_value(c, seat, w, base)
                if same is not None:
                    rated[same] = value
            if best is None or value > best:
                best = value
    return best if best is not None else features_value(state, seat, w)


def candidate_key(c: MandateState, state: MandateState, seat: int, by_position: bool) -> Any:
    """What :func:`features_value` reads of ``c``, a look-ahead candidate made
    from ``state`` by changing only ``seat``'s Player and replacing shared fields
    (:func:`_scratch`), as a key: two candidates with equal keys are rated alike.
    None when the candidate changed something the key does not cover (it is
    then rated on its own). ``by_position``: where the seat's Agents stand is
    read (board control, :func:`_reads_control`); else only how many are out.

    The seat's tracks, pieces and records, and of the shared fields the Joint
    Ventures and a pending proposal (the only ones a Core Action's resolution
    replaces that the rating reads) and where the flow stands; a Training run
    or draw under way, the board, the Era and the other players are the same
    for every candidate."""
    p, p0 = c.players[seat], state.players[seat]
    if (p.rec is not p0.rec or c.run is not state.run or c.pre_draw is not state.pre_draw
            or (c.pending is not state.pending and c.pending is not None)):
        return None
    agents: Any = tuple(p.agents) if by_position else p.agents.count(None)
    ventures: Any = None
    if c.ventures is not state.ventures:
        ventures = tuple(tuple(sorted(v.items())) for v in c.ventures)
    return (p.runway, p.compute, p.capability, p.customers, p.trust, p.mandate, p.bag, p.agi,
            p.trust_cube, agents, tuple(p.facilities), p.generator, tuple(p.projects.items()),
            tuple(p.ready), tuple(p.cap_milestones), c.pending is None, ventures,
            c.phase, c.decider, c.acting)


class _TilePositions:
    """District id -> board position, for the board asked about last (a board's
    ``tile_ids`` list is shared by every copy of its game): a dictionary read
    where ``tile_ids.index`` scanned the list, about a twentieth of a greedy
    game (callgrind, issue 47)."""

    __slots__ = ("ids", "positions")

    def __init__(self) -> None:
        self.ids: Any = None
        self.positions: dict[str, int] = {}


_TILES: Final = _TilePositions()


def tile_positions(state: MandateState) -> dict[str, int]:
    """``{district id: position}`` of ``state``'s board."""
    ids = state.tile_ids
    if _TILES.ids is not ids:
        _TILES.positions = {tile: pos for pos, tile in enumerate(ids)}
        _TILES.ids = ids
    return _TILES.positions


def _reads_control(state: MandateState, w: Weights) -> bool:
    """Whether the evaluation reads where Agents stand beyond their number: only
    board control does, and only through an Era card that counts control."""
    if not w.era_mandate:
        return False
    card = _era_card(state)
    return card is not None and card.criterion in mandate_scoring.CONTROL_CRITERIA


def _alike_by_kind(state: MandateState, action: str, w: Weights):
    """The district kinds ``action``'s resolutions are told apart by, when two
    districts of one class (a kind named there, or all other kinds; Frontier's
    visit bonus is its own) are rated alike: the Action reads the district only
    through those kinds (its module's ``KINDS_READ``), and the evaluation does
    not read where the Agent stands (:func:`_reads_control`). Else None."""
    kinds = getattr(ACTION_RULES[action], "KINDS_READ", None)
    return None if kinds is None or _reads_control(state, w) else kinds


def _district_key(state: MandateState, mode: str, pos: int, kinds) -> tuple:
    """The class of a move's district (its effect ``mode``, at ``pos``) under
    :func:`_alike_by_kind`'s ``kinds``."""
    kind = state.tiles[pos]
    return (mode, kind if kind in kinds else "", pos == board.FRONTIER_POS)


def resolution_values(state: MandateState, seat: int, moves, weights: Mapping[str, float] | None = None):
    """:func:`evaluate` of the position after each of ``moves`` (``seat`` resolving
    its selected Action now), looked ahead here where that is known to give the
    same number, else None for that move (the caller plays it out on a full clone).

    A resolution of a turn that does not end the cycle, played by the flow's own
    :func:`flow.apply`, changes only the acting player in place (the Agent, the
    effect, Frontier's Runway, the exhausted Action; a Training run's first card
    comes from the deck, which is replaced, with the copy's own random stream),
    so it is played on a copy that shares the other players (:func:`_scratch`).
    The last turn of a cycle is played on a full clone (the next Headline
    follows); the last turn of an Era is left to the caller (Production, the
    Audit and the Era's scoring follow).

    Moves the evaluation cannot tell apart share one rating: another Agent of
    the same player when control is not read, another district of the same class
    for an Action that names the kinds it reads (:func:`_alike_by_kind`). The
    Headline that ends a cycle reads tracks and Facilities, never where Agents
    stand, so this holds for the last turn of a cycle too."""
    out: list[float | None] = [None] * len(moves)
    if state.phase != "act" or state.decider != seat or state.run is not None or state.pending is not None:
        return out
    last = state.act_index + 1 >= state.n
    if last and state.cycle >= state.content.rules["cyclesPerEra"]:
        return out
    action = state.selections[seat]
    w = weights_of(weights)
    base = StandingBase(state, seat) if w.era_mandate else None
    kinds = _alike_by_kind(state, action, w)
    by_agent = not _reads_control(state, w)
    positions = tile_positions(state)
    rated: dict = {}
    alike: dict = {}
    for i, move in enumerate(moves):
        if getattr(move, "verb", None) != action:
            continue
        pos = positions[move.tile]
        if kinds is not None:
            key = _district_key(state, move.mode, pos, kinds)
        elif by_agent:
            key = (move.mode, move.tile)
        else:
            key = (move.mode, move.tile, move.agent)
        value = rated.get(key)
        if value is None:
            if last:
                c = state.clone()
                c.apply_action(move)
                value = evaluate(c, seat, w)
            else:
                c = _scratch(state, seat)
                c.rng = state.rng.copy()  # a Training run may reshuffle the discard
                flow.apply(c, move)
                if _unresolved_selection(c, seat) is None:
                    # resolutions that leave alike what the rating reads share it
                    same = candidate_key(c, state, seat, not by_agent)
                    value = alike.get(same) if same is not None else None
                    if value is None:
                        value = features_value(c, seat, w, base)
                        if same is not None:
                            alike[same] = value
                else:                     # not reached after a resolution; kept exact all the same
                    value = evaluate(c, seat, w)
            rated[key] = value
        out[i] = value
    return out


def _scratch(state: MandateState, seat: int) -> MandateState:
    """A copy of ``state`` for one look-ahead candidate: only ``seat``'s Player is
    copied, the other players and the random stream are shared (a caller that
    may draw gives the copy its own stream). Safe because a Core Action's
    resolution changes only the acting player's pieces and tracks in place;
    shared state (ventures, pending, events, the decks, the Systemic Risk counts)
    is replaced, never changed in place. Tests keep this true:
    ``test_outlook_copies_only_the_mover_and_rates_as_a_full_clone_would`` and
    ``test_mandate_action_values_equal_one_look_ahead_per_action``. A full
    :meth:`MandateState.clone` per candidate was most of a greedy game's time."""
    c = state.shallow_copy()              # no listing: edited by hand, not through apply_action
    players = list(state.players)
    players[seat] = players[seat].copy()
    c.players = players
    return c


class _Economy:
    """What the Runway valuation reads of a card pool, worked out once per pool:
    each district kind's printed output, the base prices, the projects."""

    __slots__ = ("kind_yield", "facility_cost", "recruit_cost", "generator_cost", "projects", "by_yield",
                 "last_tiles", "last_order")

    def __init__(self, content: Content) -> None:
        r = content.rules
        self.kind_yield = {k: sum(t.yield_.values()) for k, t in content.tile_kinds.items()}
        self.facility_cost = r["facilityCost"]
        self.recruit_cost = r["recruitCost"]
        self.generator_cost = min(g["cost"] for g in content.generators.values())
        self.projects = [(pid, proj.era, proj.cost.get("runway", 0)) for pid, proj in content.projects.items()]
        self.by_yield: dict[tuple, list[tuple[int, int]]] = {}   # board layout -> (output, position), best first
        #: the board asked about last (a game's ``tiles`` list is shared by every
        #: copy of its position and replaced, never changed in place) and its order:
        #: checked by identity before the layout is made a key (a tuple built and
        #: hashed per rated candidate was half of _best_open_yield, callgrind, issue 47)
        self.last_tiles: Any = None
        self.last_order: list[tuple[int, int]] = []

    def districts_by_yield(self, tiles: list[str]) -> list[tuple[int, int]]:
        if tiles is self.last_tiles:
            return self.last_order
        key = tuple(tiles)
        order = self.by_yield.get(key)
        if order is None:
            order = self.by_yield[key] = sorted(
                ((self.kind_yield[kind], pos) for pos, kind in enumerate(tiles) if pos != board.FRONTIER_POS),
                key=lambda t: -t[0])
        self.last_tiles, self.last_order = tiles, order
        return order


_ECONOMY: Final = _PerPool()


def _economy(content: Content) -> _Economy:
    eco: _Economy | None = _ECONOMY.get(content)
    if eco is None:
        eco = _ECONOMY.put(content, _Economy(content))
    return eco


def purchasing_power(state: MandateState, seat: int, runway: int, w: Mapping[str, float]) -> float:
    """The worth (by the evaluation's own weights) of the pieces ``runway`` still
    buys for ``seat``: its next Facility, an Agent from supply, a Generator (from
    Era II), the projects unlocked in this Era; bought best value per Runway
    first, while the Runway lasts. Before, a Runway was worth 0.12 whatever it
    could pay for (issue 15: Fund was 2.6% of greedy selections; it still is
    about 3%, but now follows Fund's yield, see docs/balancing.md)."""
    return _spend(_offers(state, seat, w), runway)


def _offers(state: MandateState, seat: int, w: Mapping[str, float],
            open_yield: int | None = None) -> list[tuple[float, int, float]]:
    """What :func:`purchasing_power` may buy for ``seat``, best worth per Runway
    first: ``(-worth per Runway, Runway cost, worth)``. The same for every Runway
    amount, so a look-ahead keeps it per piece holdings (:func:`features_value`).
    ``open_yield``: :func:`_best_open_yield`, when the caller has it."""
    p = state.players[seat]
    eco = _economy(state.content)
    offers: list[tuple[float, int, float]] = []   # (-worth per Runway, Runway cost, worth)

    def offer(worth: float, cost: int) -> None:
        offers.append((-worth / max(cost, 1), cost, worth))

    if None in p.facilities:
        discount = 1 if p.ability == "utility_permits" else 0
        # a Facility is worth being connected plus what it will produce on the
        # best district kind with a free space (see future_output)
        if open_yield is None:
            open_yield = _best_open_yield(state, eco)
        offer(w["connected"] + w["output"] * open_yield * _productions_left(state),
              costs.modified_cost(eco.facility_cost, discounts=discount))
    if None in p.agents:
        offer(w["agents"], eco.recruit_cost)
    if p.generator is None and state.era >= 2:
        offer(w["generator"], eco.generator_cost)
    card_value = w.get("card_value", 0.0)
    for pid, era, cost in eco.projects:
        if pid not in p.projects and state.era >= era:
            if card_value:
                offer(w["projects"] + card_value * project_yield_worth(state, pid, w), cost)
            else:
                offer(w["projects"], cost)
    offers.sort()                         # best worth per Runway first, then the cheaper
    return offers


def _spend(offers: list[tuple[float, int, float]], runway: int) -> float:
    """The worth of the :func:`_offers` that ``runway`` buys, best first, while it lasts."""
    total, left = 0.0, runway
    for _, cost, worth in offers:
        if cost <= left:
            total += worth
            left -= cost
    return total


def _productions_left(state: MandateState) -> int:
    """Productions still to come: one per Era, this Era's included."""
    return max(0, state.content.rules["eras"] - state.era + 1)


def _best_open_yield(state: MandateState, eco: _Economy) -> int:
    """The largest printed output of a district with a free Facility space."""
    room = state.content.facility_spaces
    # Facilities standing on each district, counted once (not per district)
    taken: dict[int, int] = {}
    for q in state.players:
        for at in q.facilities:
            if at is not None:
                taken[at] = taken.get(at, 0) + 1
    for output, pos in eco.districts_by_yield(state.tiles):
        if taken.get(pos, 0) < room:
            return output
    return 0


def _open_yield_beside(state: MandateState, seat: int, base: StandingBase) -> int:
    """:func:`_best_open_yield` of a look-ahead candidate that differs from
    ``base``'s position only in ``seat``'s Player: the other seats' Facilities
    are counted once per base, the seat's own per candidate."""
    taken = base.taken
    if taken is None:
        taken = {}
        for s, q in enumerate(state.players):
            if s != seat:
                for at in q.facilities:
                    if at is not None:
                        taken[at] = taken.get(at, 0) + 1
        base.taken = taken
    own = state.players[seat].facilities
    room = state.content.facility_spaces
    for output, pos in _economy(state.content).districts_by_yield(state.tiles):
        n = taken.get(pos, 0)
        for at in own:
            if at == pos:
                n += 1
        if n < room:
            return output
    return 0


def future_output(state: MandateState, seat: int, connected: list[int] | None = None) -> int:
    """Units of Runway and Compute the seat's connected Facilities (``connected``,
    when the caller has them) will still produce: their printed output times the
    Productions left (one per Era, this Era's included)."""
    left = _productions_left(state)
    if left <= 0:
        return 0
    p = state.players[seat]
    kind_yield = _economy(state.content).kind_yield
    total = 0
    if connected is None:
        connected = board.connected_facilities(state, seat)
    for f in connected:
        total += kind_yield[state.tiles[p.facilities[f]]]
    return total * left


def features_value(state: MandateState, seat: int, weights: Any, base: StandingBase | None = None) -> float:
    """The weighted sum of ``seat``'s features (``weights``: :class:`Weights` or a
    mapping; ``base``: see :func:`era_mandate_standing`)."""
    w = weights_of(weights)
    p = state.players[seat]
    trust: float    # an expected value after a Training draw (the compiled build checks types)
    bag: float
    # made floats here, as the compiled build always did (the products below are
    # the same for an int and its float)
    capability, trust, bag, mandate, runway = p.capability, float(p.trust), float(p.bag), p.mandate, p.runway
    prov = 0.0
    if state.pre_draw is not None and state.pre_draw[0] == seat:
        snap = state.pre_draw
        capability, trust, bag, mandate, runway = snap[3], snap[4], snap[5], snap[6], snap[8]
        step = odds.one_draw(odds.composition_of(state.content, snap[7]), set(snap[2]), snap[1])
        prov = step["expected_prov"]
        bag += step["expected_scrutiny"]
        trust += step["p_human_eval"]
    elif state.run is not None and state.run["seat"] == seat:
        prov = state.run["prov"]
    blocked = 0
    if _unresolved_selection(state, seat) is not None:
        # a pick whose Action will have no legal effect wastes one of the Era's three turns
        blocked = flow.is_blocked(state, seat, state.selections[seat])
    connected_list = board.connected_facilities(state, seat)
    connected = len(connected_list)
    built = len(p.facilities) - p.facilities.count(None)
    ventures: float = sum(1 for v in state.ventures if seat in (v["a"], v["b"]) and influence.active(state, v)) \
        if state.ventures else 0
    pend = state.pending
    if pend is not None and pend["kind"] == "venture" and pend["from"] == seat:
        ventures += 0.5                   # a proposal waiting for the partner's answer
    readiness = readiness_for_agi(state, seat, capability, connected, trust) if w.agi_readiness else 0.0
    standing = era_mandate_standing(state, seat, base) if w.era_mandate else 0.0
    short = 4 - runway if runway < 4 else 0
    if not w.buys:
        buys = 0.0
    elif base is not None and base.seat == seat:
        # what the Runway may buy depends on what _offers reads (whether a
        # Facility, an Agent, the Generator, which projects are still to buy, and
        # the best district with room for a Facility), not on the Runway: kept
        # per those, spent per Runway amount
        free = None in p.facilities
        open_yield = _open_yield_beside(state, seat, base) if free else 0
        key = (free, open_yield, None in p.agents, p.generator is None, tuple(p.projects))
        offers = base.buys.get(key)
        if offers is None:
            offers = base.buys[key] = _offers(state, seat, w.mapping, open_yield)
        buys = _spend(offers, runway)
    else:
        buys = purchasing_power(state, seat, runway, w.mapping)
    output = future_output(state, seat, connected_list) if w.output else 0
    # the same products summed in the same order as ever (the fast-path tests
    # compare values float for float)
    value = (w.era_mandate * standing + w.short_runway * short + w.agi_readiness * readiness + w.mandate * mandate + w.capability * capability
            + w.customers * p.customers
            + w.trust * trust + w.runway * runway + w.compute * p.compute
            + w.connected * connected + w.offline * (built - connected)
            + w.scrutiny * bag + w.agents * (len(p.agents) - p.agents.count(None))
            + w.generator * (p.generator is not None) + w.projects * len(p.projects)
            + w.provisional * prov + w.blocked_selection * blocked + w.ventures * ventures
            + w.buys * buys + w.output * output)
    if w.card_value:
        value += w.card_value * own_projects_worth(state, seat, w.mapping, connected_list)
    return value


# -- card-value terms: what a card of the pool gives, read from its printed data --

def project_yield_worth(state: MandateState, pid: str, w: Mapping[str, float]) -> float:
    """What project ``pid`` will still produce if attached now and kept
    connected: each unit of its printed ``produces`` weighed as the evaluation
    weighs that track (Runway, Compute, Capability), times the Productions left
    (this Era's included). Read from the pool, so a project that yields more is
    worth more to the bot, and one that yields nothing only its chip."""
    left = _productions_left(state)
    if left <= 0:
        return 0.0
    total = 0.0
    for track, amount in state.content.projects[pid].produces.items():
        total += w.get(track, 0.0) * amount
    return total * left


def own_projects_worth(state: MandateState, seat: int, w: Mapping[str, float],
                       connected: list[int] | None = None) -> float:
    """:func:`project_yield_worth` of ``seat``'s attached projects whose host
    Facility is connected (a project produces only then)."""
    p = state.players[seat]
    if not p.projects:
        return 0.0
    if connected is None:
        connected = board.connected_facilities(state, seat)
    total = 0.0
    for pid, host in sorted(p.projects.items()):
        if host in connected:
            total += project_yield_worth(state, pid, w)
    return total
