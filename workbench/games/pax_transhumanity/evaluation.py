"""How a Pax Transhumanity position is rated for greedy bots and the design
metrics: weighted features (``DEFAULT_WEIGHTS`` names them), money and Patents
held counting less as the game goes on, and what a finished game is worth to a
seat (:func:`ending_value`).

A seat's rating reads only what that seat can see: its own Secret sphere, never a
rival's (a rival's final score is estimated over the spheres its Secret could
be, :func:`public_scores`); a look-ahead into a Commercialize whose card still
waits for choices is played out to the card's end (:func:`played_out`), so a
Company placed or a game ended by a Tipping Point counts in the action that
brings it."""

from __future__ import annotations

from typing import Mapping

from . import scoring
from .commercialize import WAYS, cost as commercialize_cost, feasible
from .data import SPHERES
from .finance import can_pay, plan_payment
from .fundraise import fundraise_steps
from .hire import hire_cost
from .regime import commercialize_subsidized, dominant_sphere, surge_colours, syndication_is_free
from .syndicate import agents_needed, market_price
from .labour import action_cost, is_subsidized_labour, labour_keys, labour_places
from .research import lowest_card
from .flow import apply_action as flow_apply_action
from .state import PaxState

DEFAULT_WEIGHTS = {
    "score": 2.0,           # points under the scoring that would apply now
    "commercialized": 5.0,  # ideas this player has commercialized (the game's aim)
    "companies": 2.0,
    "solved": 1.5,
    "patents": 1.2,         # Patent agents held
    "patent_value": 0.1,    # their total sale value
    "syndications": 0.3,    # (counted up to 3)
    "feasible": 0.5,        # own Syndications that are feasible now (any of the three ways)
    "progress": 1.5,        # best own Syndication's readiness: feasible + Maker labour + affordable (0-3)
    "thinkers": 1.0,        # spheres with a card to research where the player has Thinker labour
    "employees": 0.5,       # (counted up to 4)
    "money": 0.1,           # what the player could pay, Patent sales included (counted up to $6:
                            # money kept beyond two Hires' worth does nothing, so bots spend it)
    "broke": -1.5,          # 1 when the finance track alone pays less than $3 (a Hire): Patents
                            # sold in a payment pay little, so a broke player should Fundraise them
    "debt": -0.4,           # agents in Debt (only Capital pairs them off in a Fundraise)
    "agents": 0.4,          # agents on the finance track, free to install
    "future_shock": 0.4,
    "think_tank": 0.3,
    "clock": 2.0,           # cards drawn, researched away or commercialized: bots move the game on
    "imports": -0.05,       # Imports made by anyone: moving cards is no progress in itself
    "tipping_points": 0.0,  # 1 with an own Syndication on a Tipping Point in the Market (the way to end
                            # the game); more would only tie up agents. Off by default: rewarding it
                            # made bots race for a Tipping Point and end games nobody led on points
    "tipping_ready": 0.0,   # ... of them, those at the bottom of their column (researchable now)
    "cash": 0.2,            # what the finance track alone pays (up to $6): a Fundraise needs track agents
    "tycoon": 1.0,          # Companies counted again, squared over the fifth: the closer to Tycoon the better
    "card_value": 0.0,      # per own syndicated Market idea, what its effects will give when it is
                            # commercialized, read from the card (see idea_worth): an edit of an idea's
                            # effects changes its worth to the bot. Off (0) for the plain greedy bot,
                            # whose games the fixtures pin; greedy:card_value=1 turns it on
    # how a finished game is valued: the features of the final position plus these
    "win": 50.0,            # the player wins on points (alone at the top of the scores)
    "tiebreak_win": -20.0,  # the player wins, but only on the tie-break (the top score is shared): less
                            # than playing on for points, until the stall charge outweighs it
    "loss": -40.0,          # a loss, scaled by rank: last place gets all of it, second of four a third
    "secret_caution": 0.0, # a rival's hidden Secret sphere: 0 counts the mean of the four it could be,
                            # 1 the one that scores best for them (the bot ends games only when sure)
    "margin": 2.0,          # per point ahead of (or behind) the best rival under the final scoring
    "stall": 0.5,           # per round played (counted in turns, rounds_elapsed), charged to unfinished
                            # positions only, so the longer a game drags on the more ending it (on the
                            # tie-break, later even second) beats going on
    "spend_by": 30.0,       # round (rounds_elapsed) by which money and Patents held are worth nothing
                            # (their weights shrink linearly to 0): scoring never counts money, so bots
                            # spend it
    "turn_clock": 1.0,      # 1: the time stall and spend_by read moves on by 1/players every turn
                            # (rounds_elapsed); 0: the round number alone, as before issue 15, which
                            # favoured the last seat (kept to reproduce that measurement)
}

#: keys that are not features: how endings, long games and held money are valued,
#: and the card-value term (added apart from the features, see syndicated_ideas_worth)
ENDING_KEYS = ("win", "tiebreak_win", "loss", "secret_caution", "margin", "stall", "spend_by", "turn_clock",
               "card_value")
#: features whose weight shrinks toward ``spend_by``
HOLDINGS = ("money", "cash", "broke", "agents", "debt", "patents", "patent_value")


#: features no Syndicate, Hire or Import can change (:data:`STATIC_KINDS`):
#: the greedy look-ahead takes them from the position it looks ahead from
STATIC = ("score", "companies", "solved", "commercialized", "clock", "future_shock", "think_tank", "tycoon")
#: action kinds that leave the :data:`STATIC` features as they were: they touch
#: neither Companies, solved problems, the Splay, the Deck nor Think Tanks, and
#: the only ending they can bring is the safety stop (scored like no ending)
STATIC_KINDS = ("syndicate", "hire", "import")


def static_features(state: PaxState, seat: int) -> dict:
    """The :data:`STATIC` features of ``seat``."""
    own_companies = sum(1 for s in state.companies.values() if s == seat)
    return {
        "score": scoring.score(state, seat),
        "companies": own_companies,
        "solved": sum(state.solved[seat].values()),
        "commercialized": state.stats.get(f"commercialized_by_{seat}", 0),
        "clock": len(state.splay) + len(state.out_of_game) - len(state.deck),
        "future_shock": scoring.singular_score(state, seat),
        "think_tank": len(state.think_tank[seat]),
        "tycoon": tycoon_progress(own_companies, state.content.settings),
    }


class PositionFacts:
    """What the evaluation of ``seat`` needs from the parts of a position that
    Syndicate, Hire and Import leave alone, worked out once: the sale value of a
    Patent of each colour and the discipline pairs the Splay and the own Think
    Tank make feasible (Splay, Regime, Think Tanks), and, lazily, the labour
    facts: per sphere the cheapest commercialization over the player's Maker
    places, the spheres where the player has Thinker labour and the number of
    own Employees (staff, Companies, Barriers, Regime). The greedy look-ahead
    builds it on the position it looks ahead from (see :func:`features`)."""

    def __init__(self, state: PaxState, seat: int) -> None:
        self.state, self.seat = state, seat
        bands: dict = {}
        for entry in state.splay:
            band = entry[1]
            bands[band] = bands.get(band, 0) + 1
        regime = state.regime
        dom = dominant_sphere(regime)
        every = regime == "Paradigm Shift"
        #: finance.patent_value per colour
        self.value_of = {c: (bands.get(c, 0) * 2 if (every or dom == c) else bands.get(c, 0)) for c in SPHERES}
        self.pairs = _feasible_pairs(state, seat)
        self._costs: dict | None = None
        self._thinkers: set = set()
        self._employees = 0

    def _labour(self) -> dict:
        state, seat = self.state, self.seat
        mine = labour_keys(state, seat)
        side_places = state.content.side_places
        costs: dict = {}
        thinkers = set()
        for sphere in SPHERES:
            places = [k for k in side_places["M"][sphere] if k in mine]      # labour_places(..., "M")
            if places:
                sub = commercialize_subsidized(state, sphere)
                costs[sphere] = min(action_cost(state, sphere, k, sub) for k in places)
            else:
                costs[sphere] = None
            if any(k in mine for k in side_places["T"][sphere]):
                thinkers.add(sphere)
        self._costs, self._thinkers = costs, thinkers
        self._employees = sum(1 for seats in state.staff.values() if seat in seats)
        return costs

    @property
    def cheapest(self) -> dict:
        """Sphere -> the cheapest commercialization over own Maker labour, or None."""
        return self._costs if self._costs is not None else self._labour()

    @property
    def thinker_spheres(self) -> set:
        if self._costs is None:
            self._labour()
        return self._thinkers

    @property
    def employees(self) -> int:
        if self._costs is None:
            self._labour()
        return self._employees


def features(state: PaxState, seat: int, static: dict | None = None, facts: PositionFacts | None = None,
             labour: bool = True) -> dict:
    """The named numbers :func:`evaluate` weighs for ``seat`` (the keys of
    ``DEFAULT_WEIGHTS`` that are not ``ENDING_KEYS``).

    Every per-position fact is worked out once (:class:`PositionFacts`)
    instead of once per idea or per colour; the values are those of the rule
    functions (``patent_value``, ``can_pay``, ``feasible``, ``labour_places``),
    which ``tests/test_pax_bots.py`` checks against them. ``static``: the
    :data:`STATIC` features, when the caller knows them already; ``facts``: the
    facts of a position with the same Splay, Regime and Think Tanks (the one a
    look-ahead started from), and, with ``labour``, the same staff, Companies
    and Barriers too."""
    return dict(zip(FEATURE_ORDER, feature_values(state, seat, static, facts, labour)))


def feature_values(state: PaxState, seat: int, static: dict | None = None, facts: PositionFacts | None = None,
                   labour: bool = True) -> list:
    """:func:`features`' values alone, in :data:`FEATURE_ORDER`: what
    :func:`evaluate` weighs, without a dict built per rated position."""
    if static is None:
        static = static_features(state, seat)
    if facts is None:
        facts = PositionFacts(state, seat)
    elif not labour:
        facts = _LabourOf(facts, state)
    return _values(state, seat, static, facts, state.fin[seat], state.patents[seat], None,
                   state.stats.get("imports", 0))


class _MarketScan:
    """What the features read of the Market for one seat, worked out once per
    position: per sphere the lowest card and the seat's syndicated ideas, the
    seat's Tipping Points there (and those lowest in their column), the spheres
    with a card, and the seat's Syndications. A Syndicate or a Hire leaves the
    Market as it is, so every one rated in a position shares its scan
    (:func:`action_values`), and a Syndicate's joined idea is added to it
    (:meth:`joining`) instead of the Market being read again: the scan was
    about a third of a rated Syndicate's instructions (callgrind, issue 47)."""

    __slots__ = ("lowest", "own", "tipping", "ready", "nonempty", "syndications")

    def __init__(self, state: PaxState, seat: int) -> None:
        market, synd = state.market, state.synd
        ideas = state.content.ideas
        tipping = ready = 0
        self.lowest: dict = {}
        #: sphere -> the seat's syndicated ideas there, in Market order (spheres without one left out)
        self.own: dict = {}
        self.nonempty: list = []
        for sphere in SPHERES:
            lowest = None
            own = None
            for idea in market[sphere]:
                if idea is None:
                    continue
                if lowest is None:
                    lowest = idea
                owners = synd.get(idea)
                if owners and seat in owners:
                    if own is None:
                        own = []
                    own.append(idea)
                    if ideas[idea].kind == "tipping point":
                        tipping += 1
                        ready += idea == lowest
            self.lowest[sphere] = lowest
            if lowest is not None:
                self.nonempty.append(sphere)
            if own:
                self.own[sphere] = own
        self.tipping: int = tipping
        self.ready: int = ready
        self.syndications: int = sum(1 for owners in synd.values() if seat in owners)

    def joining(self, state: PaxState, joined: str | None, sphere: str | None) -> tuple:
        """``(tipping, ready, mine)`` with the Market idea ``joined`` (in
        ``sphere``; None: none) counted as the seat's too, as the scan would
        read them once it is: ``mine`` lists (sphere, own ideas) in sphere order."""
        own = self.own
        tipping, ready = self.tipping, self.ready
        if joined is None or sphere is None or joined in own.get(sphere, ()):
            return tipping, ready, [(sp, own[sp]) for sp in SPHERES if sp in own]
        if state.content.ideas[joined].kind == "tipping point":
            tipping += 1
            ready += joined == self.lowest[sphere]
        mine = []
        for sp in SPHERES:
            if sp == sphere:
                mine.append((sp, own.get(sp, []) + [joined]))
            elif sp in own:
                mine.append((sp, own[sp]))
        return tipping, ready, mine


def _values(state: PaxState, seat: int, static: dict, facts: PositionFacts, fin: list, held: dict,
            joined: str | None, imports: int, scan: _MarketScan | None = None, sphere: str | None = None) -> list:
    """:func:`feature_values` with the player's finance track ``fin`` and
    Patents ``held`` given, and with the Market idea ``joined`` (None: none;
    in ``sphere``) counted as syndicated by the player although ``state.synd``
    does not say so yet: how a Syndicate is rated without applying it
    (:func:`syndicate_value`). ``scan``: the Market's :class:`_MarketScan` for
    ``seat`` when the caller has it (the Market as it is in ``state``)."""
    track = 2 * fin[0] + fin[1]                         # finance.track_money
    value_of = facts.value_of
    liquid = track + sum((value_of[c] + 1) * n for c, n in held.items())
    if scan is None:
        scan = _MarketScan(state, seat)
        if joined is not None:
            sphere = next(sp for sp in SPHERES if joined in state.market[sp])
    tipping, ready, mine = scan.joining(state, joined, sphere)
    nonempty = scan.nonempty
    ideas = state.content.ideas
    if not mine:
        feasible_count = best_progress = 0
    elif state.sell_choice:
        feasible_count, best_progress = syndication_outlook(state, seat)
    else:
        feasible_count, best_progress = _outlook(ideas, facts, liquid, held, mine)
    thinker_spheres = facts.thinker_spheres
    return [
        static["score"],                                                # score
        static["companies"],                                            # companies
        static["solved"],                                               # solved
        sum(held.values()),                                             # patents
        sum(value_of[c] * n for c, n in held.items()),                  # patent_value
        min(3, scan.syndications + (0 if joined is None else 1)),        # syndications
        feasible_count,                                                 # feasible
        best_progress,                                                  # progress
        static["commercialized"],                                       # commercialized
        sum(1 for sp in nonempty if sp in thinker_spheres),             # thinkers
        min(4, facts.employees),                                        # employees
        min(6, liquid),                                                 # money
        1 if track < 3 else 0,                                          # broke
        sum(fin),                                                       # agents
        fin[2],                                                         # debt
        imports,                                                        # imports
        static["clock"],                                                # clock
        static["future_shock"],                                         # future_shock
        static["think_tank"],                                           # think_tank
        min(1, tipping),                                                # tipping_points
        ready,                                                          # tipping_ready
        min(6, track),                                                  # cash
        static["tycoon"],                                               # tycoon
    ]


class _LabourOf(PositionFacts):
    """The Splay facts of ``facts`` with the labour facts of ``state`` (after a
    Hire, which changes staff but not the Splay)."""

    def __init__(self, facts: PositionFacts, state: PaxState) -> None:
        self.state, self.seat = state, facts.seat
        self.value_of, self.pairs = facts.value_of, facts.pairs
        self._costs = None


class _HiredLabour(PositionFacts):
    """The facts of ``facts``' position once its seat is staffed at the place
    ``key`` of ``sphere`` (``state`` has it staffed; ``was_there``: the seat was
    staffed there already). A Hire changes the staff of one place, and a place's
    Barriers and Maker and Thinker places are those of its own sphere, so only
    that sphere's cheapest Maker labour is worked out again, Thinker labour is
    added there when the place gives it, and an Employee is counted when the
    seat was not there: :meth:`PositionFacts._labour` over every sphere was
    worked out again per rated Hire before (issue 47). ``facts``' own labour
    facts must be known before ``state`` changes (:func:`hire_value`)."""

    def __init__(self, facts: PositionFacts, state: PaxState, key: str, sphere: str, was_there: bool) -> None:
        self.state, self.seat = state, facts.seat
        self.value_of, self.pairs = facts.value_of, facts.pairs
        costs = dict(facts.cheapest)
        places = labour_places(state, self.seat, sphere, "M")
        if places:
            sub = commercialize_subsidized(state, sphere)
            costs[sphere] = min(action_cost(state, sphere, k, sub) for k in places)
        else:
            costs[sphere] = None
        thinkers = facts.thinker_spheres
        if key in state.content.side_places["T"][sphere]:
            thinkers = thinkers | {sphere}
        self._costs, self._thinkers = costs, thinkers
        self._employees = facts.employees + (0 if was_there else 1)


def _outlook(ideas: dict, facts: PositionFacts, liquid: int, held: dict, mine: list) -> tuple:
    """:func:`syndication_outlook` from the position's facts: an idea is feasible
    by its discipline pair (Splay or Think Tank) or by the Patents held, and a
    sphere's commercialization is affordable when its cheapest Maker labour
    costs no more than ``liquid`` (what ``can_pay`` answers for a default
    payment). ``mine``: the player's syndicated Market ideas by sphere."""
    pairs, cheapest = facts.pairs, facts.cheapest
    count = best = 0
    for sphere, own in mine:
        cost = cheapest[sphere]
        # 0 or 1 for the labour, 1 more when it is affordable (-1: no Maker labour)
        labour = 0 if cost is None else (2 if cost <= liquid else 1)
        for idea in own:
            a, b = ideas[idea].disciplines
            pair = (a, b) if a <= b else (b, a)
            if pair in pairs:
                ok = True
            elif a == b:
                ok = held.get(a, 0) >= 2
            else:
                ok = held.get(a, 0) >= 1 and held.get(b, 0) >= 1
            count += ok
            points = int(ok) + labour
            if points > best:
                best = points
    return count, best


def _feasible_pairs(state: PaxState, seat: int) -> set:
    """Discipline pairs (sorted) that are feasible for ``seat`` via the Splay or
    the top of the own Think Tank (commercialize.splay_feasible, think_tank_feasible)."""
    out = set()
    splay = state.splay
    for i in range(len(splay) - 1):
        first, second = splay[i], splay[i + 1]
        a, b = first[1], second[1]
        pair = (a, b) if a <= b else (b, a)
        if pair in out:
            continue
        owners = [o for o in first[2] + second[2] if o is not None]
        if seat in owners or not owners:
            out.add(pair)
    tank = state.think_tank[seat]
    if tank:
        a, b = state.idea(tank[-1]).disciplines
        out.add((a, b) if a <= b else (b, a))
    return out


def evaluate(state: PaxState, seat: int, weights=None, static: dict | None = None,
             facts: PositionFacts | None = None, labour: bool = True) -> float:
    """Weighted features (see ``DEFAULT_WEIGHTS``; money and Patents held count
    less and less until round ``spend_by``). A finished game adds the
    ending's worth for ``seat`` (:func:`ending_value`); an unfinished one pays
    ``stall`` per round (time read by :func:`rounds_elapsed`), so the longer a game drags on the more an ending the
    player would not win beats going on. The safety stop (``timeout``) is
    valued like any unfinished position. ``static``, ``facts``, ``labour``:
    see :func:`features`."""
    if weights:
        w = dict(DEFAULT_WEIGHTS)
        w.update(weights)
    else:
        w = DEFAULT_WEIGHTS  # only read
    if state.ending is None and state.decision is not None and _resolving(state):
        state, static, facts = played_out(state, seat, w), None, None
    f = feature_values(state, seat, static, facts, labour)
    elapsed = rounds_elapsed(state, w["turn_clock"] != 0)
    keep = max(0.0, 1.0 - elapsed / w["spend_by"]) if w["spend_by"] > 0 else 1.0
    coef = _DEFAULT_COEF if w is DEFAULT_WEIGHTS else _Coefficients(w)
    value = coef.weigh(f, keep)
    if w["card_value"]:
        value += w["card_value"] * syndicated_ideas_worth(state, seat, w)
    if state.is_terminal() and state.ending != "timeout":
        return value + ending_value(state, seat, w)
    return value - w["stall"] * elapsed


def rounds_elapsed(state: PaxState, by_turn: bool = True) -> float:
    """Game time as the evaluation reads it: the round plus the share of it the
    seats before the one to move have played (``round + turn / players``).
    Every turn moves it on by the same step, so no seat sees the clock jump:
    with the round number alone (``by_turn=False``, weight ``turn_clock=0``),
    only the last seat's turn ended a round, and its look-ahead charged every
    move that did not end the game one round's ``stall`` more (and shrank its
    holdings by one round more) than the other seats' did, which made the last
    seat end games sooner and win them more often (issue 15)."""
    return _elapsed(state.round, state.turn, state.num_players, by_turn)


def _elapsed(round_: int, turn: int, players: int, by_turn: bool) -> float:
    """:func:`rounds_elapsed` of a position in round ``round_`` with ``turn`` to move."""
    if not by_turn:
        return round_
    return round_ + turn / players


def _resolving(state: PaxState) -> bool:
    """Is a Commercialize still resolving its card's effects (a Company to place,
    a problem to pick, a Nuclear Exchange before a Game End ...)?"""
    act = state.act
    return act is not None and act.get("kind") == "commercialize"


def played_out(state: PaxState, seat: int, w: Mapping, limit: int = 40) -> PaxState:
    """A copy of ``state`` with the rest of a Commercialize's effects resolved:
    ``seat``'s own choices by a one-step look-ahead (the option valued best,
    first on ties), everyone else's by their first option. A look-ahead thus
    sees what the card brings (the Company placed, the problem solved, the
    game ended and scored), not a position half-way through the card."""
    out = state.clone()
    for _ in range(limit):
        if out.ending is not None or out.decision is None or not _resolving(out):
            break
        options = out.legal_actions()
        pick = options[0]
        if out.decision["seat"] == seat and len(options) > 1:
            best = None
            for option in options:
                nxt = out.clone()
                nxt.apply_action(option)
                value = _value(nxt, seat, w)
                if best is None or value > best + 1e-12:
                    best, pick = value, option
        out.apply_action(pick)
    return out


def _value(state: PaxState, seat: int, w: Mapping) -> float:
    """:func:`evaluate` without playing out pending effects (one level only)."""
    f = features(state, seat)
    elapsed = rounds_elapsed(state, w["turn_clock"] != 0)
    keep = max(0.0, 1.0 - elapsed / w["spend_by"]) if w["spend_by"] > 0 else 1.0
    value = sum([c * v * (keep if held else 1.0) for (c, held), v in zip(_coefficients(w), f.values())])
    if state.is_terminal() and state.ending != "timeout":
        return value + ending_value(state, seat, w)
    return value - w["stall"] * elapsed


def _coefficients(w: Mapping) -> list:
    """Per feature, in :func:`features`' order: its weight and whether it is a holding."""
    return [(w.get(k, 0.0), k in HOLDINGS) for k in FEATURE_ORDER]


def public_scores(state: PaxState, seat: int, caution: float = 0.0) -> list:
    """The final scores as ``seat`` can know them: its own exactly; a rival's
    Secret sphere is hidden (chosen from two face-down cards), so a rival's
    score is estimated over the four spheres it could be: their mean, moved
    toward the best of them by ``caution`` (0: the mean, 1: the worst case)."""
    out: list = []
    for s in range(state.num_players):
        if s == seat:
            out.append(scoring.score(state, s))
            continue
        options = [scoring.score(state, s, sphere) for sphere in SPHERES]
        mean = sum(options) / len(options)
        out.append(mean + caution * (max(options) - mean) if caution else mean)
    return out


def public_winners(state: PaxState, pts: list) -> list:
    """:func:`.scoring.winners` on the scores ``pts`` (Capital and Wealth, the
    tie-breaks, are on the table for everyone to see)."""
    if state.ending == "tycoon":
        return [state.tycoon]
    key = [(pts[s], state.fin[s][0], state.fin[s][1]) for s in range(state.num_players)]
    best = max(key)
    return [s for s in range(state.num_players) if key[s] == best]


def ending_value(state: PaxState, seat: int, w: Mapping) -> float:
    """What a finished game is worth to ``seat`` on top of its features, judged
    on what the seat can see (:func:`public_scores`: rivals' Secret spheres
    are not read): ``win`` for a winner, else ``loss`` scaled by rank (last
    place all of it), plus ``margin`` per point ahead of (behind) the best
    rival. Solo: the margin is measured against the solo target."""
    n = state.num_players
    if n == 1:
        pts = scoring.scores(state)
        won = seat in scoring.winners(state)
        target = int(state.options.get("solo_target", state.content.settings["solo_target"]))
        return (w["win"] if won else w["loss"]) + w["margin"] * (pts[0] - target)
    pts = public_scores(state, seat, w.get("secret_caution", 0.0))
    winners = public_winners(state, pts)
    best_rival = max(pts[s] for s in range(n) if s != seat)
    margin = pts[seat] - best_rival
    if seat in winners:
        # a win the tie-break alone gives (top score shared) is worth less: bots play for points
        return (w["win"] if margin > 0 else w["tiebreak_win"]) + w["margin"] * margin
    # rank 1 = second place; everyone with strictly more points (or the winners) is ahead
    ahead = sum(1 for s in range(n) if s != seat and (pts[s] > pts[seat] or s in winners))
    rank = max(1, ahead)
    return w["loss"] * rank / (n - 1) + w["margin"] * margin


def held_tipping_points(state: PaxState, seat: int):
    """Tipping Points in the Market the player has a Syndication on."""
    for idea in state.market_ideas():
        if seat in state.synd.get(idea, ()) and state.idea(idea).kind == "tipping point":
            yield idea


def is_lowest(state: PaxState, idea: str) -> bool:
    where = state.where_in_market(idea)
    if where is None:
        return False
    low = lowest_card(state, where[0])
    return low is not None and low[1] == idea


def tycoon_progress(companies: int, settings) -> float:
    """Companies on the way to the fifth (the Tycoon): grows with the square, so
    the fourth Company is worth more than the first."""
    need = int(settings["tycoon_company"])
    return (min(companies, need) ** 2) / need


def syndication_outlook(state: PaxState, seat: int) -> tuple:
    """``(feasible, progress)`` of the player's Syndications: how many are feasible
    now, and how close the best one is to being commercialized (one point each for
    being feasible, for Maker labour in its sphere, and for the money: 0-3)."""
    count = best = 0
    for sphere in SPHERES:
        places = None
        for idea in state.market[sphere]:
            if idea is None or seat not in state.synd.get(idea, ()):
                continue
            ok = any(feasible(state, seat, idea, w) for w in WAYS)
            count += ok
            if places is None:
                places = labour_places(state, seat, sphere, "M")
            points = int(ok)
            if places:
                points += 1 + (1 if any(can_pay(state, seat, commercialize_cost(state, idea, k)) for k in places) else 0)
            best = max(best, points)
    return count, best


class LookaheadKeys:
    """What an action changes in the evaluation of ``seat``, as a key: actions
    with equal keys lead to positions of exactly equal value, so the greedy
    look-ahead works each key out once (``PaxGame.action_values``). Only the
    kinds that make up most of a position's actions get a key; ``key`` answers
    None for the others (they are looked ahead one by one).

    The evaluation reads the turn only through the round and the ending, and:

    - an Import moves one card: it changes which columns hold a card
      (``thinkers``), the sphere of the moved idea if the player syndicated it
      (``progress``) and which of the player's Tipping Points are lowest in
      their column (``tipping_ready``);
    - a Syndicate changes the finance track by its price and the agents it
      installs, the Patents by those it sells, and adds one held idea, which
      counts through whether it is feasible and the cheapest Maker labour of
      its sphere (``feasible``, ``progress``) and, for a Tipping Point, whether
      it is lowest; a Surge
      Arrow may keep the action open: the fewest agents a Surge from the idea
      would need decides whether it does;
    - a Hire pays the same for every place and installs from the track or not;
      the place counts only through whether it gives Thinker labour in a sphere
      with cards and none yet (``thinkers``), whether it is an own Company (no
      action used) and, in a sphere where the player holds a syndicated idea,
      its sphere, side, whether it is a Barrier and whether its labour is
      Subsidized (what the sphere's cheapest Maker labour becomes, ``progress``).

    A change of what :func:`features` reads must change these keys with it
    (``tests/test_pax_bots.py`` compares ``action_values`` with plain look-ahead
    over many positions and weights)."""

    def __init__(self, state: PaxState, seat: int, card_value: bool = False) -> None:
        self.state, self.seat = state, seat
        #: the card-value term reads which idea a Syndicate takes (its effects)
        self.card_value = card_value
        self.where = {idea: (sphere, slot) for sphere in SPHERES
                      for slot, idea in enumerate(state.market[sphere]) if idea is not None}
        ideas, synd = state.content.ideas, state.synd
        self.tipping = [idea for idea in self.where
                        if ideas[idea].kind == "tipping point" and seat in synd.get(idea, ())]
        #: the player's syndicated Market ideas, and their spheres
        self.held_ideas = {idea for idea in self.where if seat in synd.get(idea, ())}
        self.held_spheres = {self.where[idea][0] for idea in self.held_ideas}
        self._thinker_spheres: set | None = None
        self._counts = {sp: sum(1 for c in state.market[sp] if c is not None) for sp in SPHERES}
        self._pairs: set | None = None
        self._costs: dict = {}

    def key(self, action):
        kind = action.kind
        if kind == "import":
            return self._import(action)
        if kind == "syndicate":
            return self._syndicate(action)
        if kind == "hire":
            return self._hire(action)
        return None

    def _import(self, action) -> tuple:
        idea, to, slot = action.args
        src, i = self.where[idea]
        held = (idea, to) if self.seat in self.state.synd.get(idea, ()) else None
        if not self.tipping and src != to:
            # no Tipping Point to watch: only which columns hold a card matters
            count = self._counts
            filled = tuple(count[sp] - (sp == src) + (sp == to) > 0 for sp in SPHERES)
            return "import", filled, held, 0
        market = self.state.market
        cols = {src: list(market[src])}
        cols[src][i] = None
        if to not in cols:
            cols[to] = list(market[to])
        cols[to][slot] = idea
        lowest = {}
        columns = []
        for sphere in SPHERES:
            col = cols.get(sphere) or market[sphere]
            low = next((c for c in col if c is not None), None)
            lowest[sphere] = low
            columns.append(low is not None)
        ready = sum(1 for tp in self.tipping
                    if lowest[to if tp == idea else self.where[tp][0]] == tp)
        return "import", tuple(columns), held, ready

    def _syndicate(self, action) -> tuple:
        state = self.state
        idea, black = action.args
        card = state.idea(idea)
        sphere, slot = self.where[idea]
        colours = surge_colours(state, card)
        surge = None            # the fewest agents a Surge from here needs (syndicate.surge_targets)
        if colours:
            col = state.market[sphere]
            top = len(col) if state.options.get("surge_reach", "any") == "any" else min(slot + 2, len(col))
            for target in col[slot + 1:top]:
                if target is None or self.seat in state.synd.get(target, ()):
                    continue
                if set(colours) & set(state.idea(target).disciplines):
                    need = agents_needed(state, target, False)
                    surge = need if surge is None else min(surge, need)
        owners = state.synd.get(idea, ())
        price = 0 if syndication_is_free(state) else (slot * 2 if owners else slot)
        agents = agents_needed(state, idea, black)
        ok = self._feasible_after(card.disciplines, price, action.sell)
        tipping = None
        if card.kind == "tipping point":
            col = state.market[sphere]
            tipping = next(c for c in col if c is not None) == idea
        key = ("syndicate", price, agents, action.sell, ok, self._labour_cost(sphere), tipping, surge)
        return key + (card.effects,) if self.card_value else key

    def _feasible_after(self, disciplines, price: int, sell: tuple) -> bool:
        """Is an idea of these disciplines feasible for the player once the
        Patents paying ``price`` (as ``sell`` says) are gone (the test of
        ``_outlook``)?"""
        pairs = self._pairs
        if pairs is None:
            pairs = self._pairs = _feasible_pairs(self.state, self.seat)
        a, b = disciplines
        if ((a, b) if a <= b else (b, a)) in pairs:
            return True
        held = self.state.patents[self.seat]
        if not held.get(a) or not held.get(b):
            return False            # selling never adds a Patent
        plan = plan_payment(self.state, self.seat, price, sell=sell)     # as syndicate.apply pays
        held = dict(held)
        for colour in (plan[0] if plan else ()):
            held[colour] -= 1
        if a == b:
            return held.get(a, 0) >= 2
        return held.get(a, 0) >= 1 and held.get(b, 0) >= 1

    def _labour_cost(self, sphere: str):
        """The cheapest commercialization cost over the player's Maker places in
        ``sphere`` (None without one): all ``_outlook`` asks of the sphere."""
        cost = self._costs.get(sphere, False)
        if cost is False:
            state = self.state
            places = labour_places(state, self.seat, sphere, "M")
            sub = commercialize_subsidized(state, sphere)
            cost = min(action_cost(state, sphere, k, sub) for k in places) if places else None
            self._costs[sphere] = cost
        return cost

    def _hire(self, action) -> tuple:
        state, seat = self.state, self.seat
        place_key, from_unemployed = action.args
        place = state.content.places[place_key]
        free = state.companies.get(place_key) == seat
        thinkers = self._thinker_spheres
        if thinkers is None:
            thinkers = self._thinker_spheres = {sp for sp in SPHERES if labour_places(state, seat, sp, "T")}
        gain = (place.side == "T" and place.sphere not in thinkers
                and any(state.market[place.sphere]))
        if place.sphere in self.held_spheres:
            # the sphere's cheapest Maker labour: a Barrier covered lowers every
            # cost there; a Maker place adds labour, Subsidized or not
            return ("hire", from_unemployed, action.sell, free, gain, place.sphere, place.side,
                    place.kind == "barrier", is_subsidized_labour(state, place_key))
        return "hire", from_unemployed, action.sell, free, gain


def syndicate_value(state: PaxState, seat: int, action, where: dict, static: dict, facts: PositionFacts,
                    w: Mapping, coef: "_Coefficients", shared: "_Shared | None" = None):
    """:func:`evaluate` of the position a legal Syndicate ``action`` of ``seat``
    leads to, worked out from the position it is taken in without copying or
    applying anything, or None where this does not apply (the caller then
    looks ahead as usual). Most of a Pax greedy game's look-aheads were
    Syndicates, each a copy, the rules' checks and payment, and a whole
    evaluation (callgrind, issue 47).

    A Syndicate changes what the evaluation reads only through the player's
    finance track (the payment as ``syndicate.apply`` plans it, then one agent
    installed per Syndication and Heat square covered, as ``place_agents``
    does), the Patents sold, the idea now held, and the clock: the turn moves
    on when the action was the player's last one, unless a Surge Arrow opens a
    question (the test of ``syndicate.surge_targets``). The features the action
    cannot change come from ``static`` and ``facts`` (of the position looked
    ahead from, as :func:`action_values` passes them). ``where``: idea ->
    (sphere, slot) of the Market; ``shared``: what every Syndicate and Hire of
    the position shares (:class:`_Shared`). Not worked out here (None): a payment
    choice or a question being resolved, and the card-value term. ``tests/test_pax_bots.py`` and
    ``tests/test_greedy_fast_path.py`` compare the values with plain
    look-ahead, float for float."""
    if w["card_value"] or state.sell_choice or state.decision is not None:
        return None
    if shared is None:
        shared = _Shared(state, seat)
    idea, black = action.args
    sphere, slot = where[idea]
    cost = market_price(slot, bool(state.synd.get(idea, ())), syndication_is_free(state))
    plan = shared.plan(state, seat, cost, action.sell)
    if plan is None:
        return None                 # not legal: the rules refuse it
    fin, held = _paid(state, seat, plan)
    # syndicate.place_agents: the Syndication, then each Heat square it covers
    installs = 1
    owners = state.heat[idea]
    card = state.idea(idea)
    for i, colour in enumerate(card.heat):
        if owners[i] is None and (colour == "white" or black):
            installs += 1
    for _ in range(installs):
        _install(fin)
    if _surge_opens(state, seat, card, sphere, slot, fin[0] + fin[1] + fin[2]):
        elapsed = rounds_elapsed(state, w["turn_clock"] != 0)      # the action goes on
    else:
        elapsed = _elapsed_after(state, seat, fin, held, facts, w, state.actions_left - 1)
    f = _values(state, seat, static, facts, fin, held, idea, state.stats.get("imports", 0), shared.scan, sphere)
    return _unfinished(f, elapsed, w, coef)


def import_value(state: PaxState, seat: int, action, where: dict, static: dict, facts: PositionFacts,
                 w: Mapping, coef: "_Coefficients"):
    """:func:`evaluate` of the position a legal Import ``action`` of ``seat``
    leads to, as :func:`syndicate_value` works it out (None where that
    answers None): an Import moves one card and counts one Import more
    (``import_idea.apply``), so the card is moved in this very position's
    Market, the features read, and the card put back; then the turn moves on
    as after any action."""
    if w["card_value"] or state.sell_choice or state.decision is not None:
        return None
    idea, to, slot = action.args
    src, at = where[idea]
    market = state.market
    source, col = market[src], market[to]
    if col[slot] is not None:
        return None                 # not legal: the rules refuse it
    fin, held = state.fin[seat], state.patents[seat]
    source[at] = None
    col[slot] = idea
    try:
        f = _values(state, seat, static, facts, fin, held, None, state.stats.get("imports", 0) + 1)
    finally:
        col[slot] = None            # put back (the slot was empty)
        source[at] = idea
    return _unfinished(f, _elapsed_after(state, seat, fin, held, facts, w, state.actions_left - 1), w, coef)


def hire_value(state: PaxState, seat: int, action, static: dict, facts: PositionFacts, w: Mapping,
               coef: "_Coefficients", shared: "_Shared | None" = None):
    """:func:`evaluate` of the position a legal Hire ``action`` of ``seat``
    leads to, as :func:`syndicate_value` works it out (None where that answers
    None). A Hire pays (``hire.apply``), takes its Employee from the track or
    from the sphere's unemployed, and staffs the place: the staff and the
    unemployed are changed in this very position while the features are read
    (the labour facts of the Hire's sphere worked out again, :class:`_HiredLabour`), and put back; the
    action is used unless the place is an own Company."""
    if w["card_value"] or state.sell_choice or state.decision is not None:
        return None
    if shared is None:
        shared = _Shared(state, seat)
    key, from_unemployed = action.args
    plan = shared.plan(state, seat, hire_cost(state), action.sell)
    if plan is None:
        return None                 # not legal: the rules refuse it
    fin, held = _paid(state, seat, plan)
    if not from_unemployed:
        _install(fin)
    sphere = state.content.places[key].sphere
    staff, unemployed = state.staff, state.unemployed
    if facts._costs is None:
        facts._labour()                 # the labour facts of the position as it is, before the Hire
    had = key in staff
    before = staff.get(key)
    idle = unemployed[sphere]
    if from_unemployed:
        row = list(idle)
        row[seat] -= 1
        unemployed[sphere] = tuple(row)
    staff[key] = (before or ()) + (seat,)         # labour.add_staff
    try:
        hired = _HiredLabour(facts, state, key, sphere, before is not None and seat in before)
        f = _values(state, seat, static, hired, fin, held, None, state.stats.get("imports", 0), shared.scan)
        left = state.actions_left - (0 if state.companies.get(key) == seat else 1)
        elapsed = _elapsed_after(state, seat, fin, held, facts, w, left)
    finally:
        if had:
            staff[key] = before
        else:
            del staff[key]
        unemployed[sphere] = idle
    return _unfinished(f, elapsed, w, coef)


def standing_values(state: PaxState, seat: int, static: dict, facts: PositionFacts, shared: "_Shared"):
    """:func:`feature_values` of the position as it stands, with the Market scan
    the Syndicates and Hires share: what a Fundraise and an ``end`` leave the
    features at (:func:`stay_value`)."""
    return _values(state, seat, static, facts, state.fin[seat], state.patents[seat], None,
                   state.stats.get("imports", 0), shared.scan)


def stay_value(state: PaxState, seat: int, kind: str, f: list, w: Mapping, coef: "_Coefficients"):
    """:func:`evaluate` of the position a Fundraise or an ``end`` (``kind``) of
    ``seat`` leads to, worked out from the position it is taken in, whose
    features are ``f`` (:func:`standing_values`), or None where
    :func:`syndicate_value` answers None. Neither changes what the features
    read: a Fundraise only opens its first step, the question of what to
    divest (``fundraise.start``), and an open Fundraise is no Commercialize to
    play out; ``end`` only passes the turn (``flow.next_turn``), which moves
    the clock on, and the round limit's safety stop it may bring is valued as
    an unfinished position. Each was a copy and a whole evaluation in every
    position before (issue 47)."""
    if w["card_value"] or state.sell_choice or state.decision is not None:
        return None
    round_, turn = state.round, state.turn
    if kind == "end":
        turn = (turn + 1) % state.num_players
        if turn == 0:
            round_ += 1
    return _unfinished(f, _elapsed(round_, turn, state.num_players, w["turn_clock"] != 0), w, coef)


def fundraise_step_value(state: PaxState, seat: int, action, static: dict, facts: PositionFacts, w: Mapping,
                         coef: "_Coefficients", shared: "_Shared"):
    """:func:`evaluate` of the position an answer to ``seat``'s open Fundraise
    leads to, worked out from the position it is given in, or None where this
    does not apply (the caller then looks ahead as usual): ``raise`` (steps 2
    and 3 on the finance track, ``fundraise.answer``; then the action is over,
    ``flow.action_done``) and the divestment of a Patent or of an unemployed
    Employee (one fewer held, its agent to Wealth; the question stays open).
    Neither touches the Market, the Splay, the staff or anything
    :data:`STATIC`, so only the finance track and Patents are read anew. A
    divested Syndication or Employee changes the Market scan or the labour
    facts: looked ahead as usual. Not worked out here either: a question other
    than the seat's own Fundraise, and the card-value term."""
    d = state.decision
    if w["card_value"] or state.sell_choice or d is None or d["kind"] != "fundraise" or d["seat"] != seat:
        return None
    fin = list(state.fin[seat])
    held = state.patents[seat]
    if action.kind == "raise":
        fin[0], fin[1], fin[2] = fundraise_steps(fin[0], fin[1], fin[2])
        elapsed = _elapsed_after(state, seat, fin, held, facts, w, state.actions_left - 1)
    else:
        what, where = action.args
        if what == "patent":
            if not held.get(where):
                return None             # not legal: the rules refuse it
            held = dict(held)
            held[where] -= 1
        elif what != "unemployed" or not state.unemployed[where][seat]:
            return None
        fin[1] += 1                     # finance.divest: the agent goes to Wealth
        elapsed = rounds_elapsed(state, w["turn_clock"] != 0)
    f = _values(state, seat, static, facts, fin, held, None, state.stats.get("imports", 0), shared.scan)
    return _unfinished(f, elapsed, w, coef)


class _Shared:
    """What the Syndicates and Hires rated in one position share: the Market's
    :class:`_MarketScan` (neither kind moves a card) and the payments planned
    so far, by (cost, chosen sale): the rules plan a payment from the player's
    finance track and Patents alone, which are the same for every action of the
    position, and most of its Syndicates cost one of a few prices."""

    __slots__ = ("scan", "plans")

    def __init__(self, state: PaxState, seat: int) -> None:
        self.scan: _MarketScan = _MarketScan(state, seat)
        self.plans: dict = {}

    def plan(self, state: PaxState, seat: int, cost: int, sell):
        """:func:`.finance.plan_payment` of ``cost`` with the sale ``sell`` (None:
        the default), worked out once per position (a refused sale is refused
        every time: it is not kept)."""
        key = (cost, sell)
        plans = self.plans
        if key in plans:
            return plans[key]
        plan = plan_payment(state, seat, cost, sell=sell)
        plans[key] = plan
        return plan


def _paid(state: PaxState, seat: int, plan: tuple) -> tuple:
    """``(fin, held)``: copies of ``seat``'s finance track and Patents once the
    payment ``plan`` (:func:`.finance.plan_payment`) is paid as
    :func:`.finance.pay` pays it: a sold Patent's agent goes to Wealth, then
    each $1 moves the topmost agent one box down."""
    fin = list(state.fin[seat])
    held = dict(state.patents[seat])
    sales, moves = plan
    for colour in sales:
        held[colour] -= 1
        fin[1] += 1
    for _ in range(moves):
        if fin[0]:
            fin[0] -= 1
            fin[1] += 1
        else:
            fin[1] -= 1
            fin[2] += 1
    return fin, held


def _install(fin: list) -> None:
    """:func:`.finance.install` on a copy of a finance track: the topmost agent leaves."""
    fin[0 if fin[0] else (1 if fin[1] else 2)] -= 1


def _elapsed_after(state: PaxState, seat: int, fin: list, held: dict, facts: PositionFacts, w: Mapping,
                   left: int) -> float:
    """:func:`rounds_elapsed` once an action of ``seat`` is over that left its
    finance track ``fin``, its Patents ``held`` and ``left`` actions
    (``flow.action_done``): the turn goes on while actions are left or a free
    Hire into an own Company is legal (read on ``state`` as it stands), else it
    moves on (``flow.next_turn``)."""
    round_, turn = state.round, state.turn
    if left <= 0 and (seat not in state.companies.values()
                      or not _free_hire_after(state, seat, fin, held, facts.value_of)):
        turn = (turn + 1) % state.num_players
        if turn == 0:
            round_ += 1
    return _elapsed(round_, turn, state.num_players, w["turn_clock"] != 0)


def _unfinished(f: list, elapsed: float, w: Mapping, coef: "_Coefficients") -> float:
    """:func:`evaluate`'s value of an unfinished position with features ``f``
    (the round limit's safety stop, ``timeout``, is valued as one)."""
    keep = max(0.0, 1.0 - elapsed / w["spend_by"]) if w["spend_by"] > 0 else 1.0
    return coef.weigh(f, keep) - w["stall"] * elapsed


def _free_hire_after(state: PaxState, seat: int, fin: list, held: dict, value_of: dict) -> bool:
    """Is a Hire into one of ``seat``'s own Companies legal once the player's
    finance track is ``fin`` and its Patents ``held`` (``hire.legal`` with
    ``free_only``)? ``value_of``: a Patent's sale value per colour
    (:class:`PositionFacts`)."""
    cost = hire_cost(state)
    money = 2 * fin[0] + fin[1]
    sold = 0
    if cost > 0 and cost > money:
        # finance.plan_payment's default: the most valuable Patents sold first,
        # each sold one's agent paying $1 more, until the cost is met
        values = sorted([value_of[c] for c, n in held.items() for _ in range(n)], reverse=True)
        raised = 0
        paid = False
        for value in values:
            sold += 1
            raised += value
            if raised + money + sold >= cost:
                paid = True
                break
        if not paid:
            return False            # it cannot be paid
    from_track = fin[0] + fin[1] + fin[2] + sold >= 1     # finance.agents_after_payment
    companies, staff, unemployed = state.companies, state.staff, state.unemployed
    for key, kind, sphere in state.content.place_rows:
        if companies.get(key) != seat:
            continue
        here = staff.get(key)                       # labour.can_hire_at, as hire.legal inlines it
        if kind == "utility":
            if here and seat in here:
                continue
        elif here or (kind == "company" and key not in companies):
            continue
        if from_track or unemployed[sphere][seat]:
            return True
    return False


def _surge_opens(state: PaxState, seat: int, card, sphere: str, slot: int, agents: int) -> bool:
    """Does syndicating ``card`` (at ``slot`` of ``sphere``) leave a Surge
    question open, with ``agents`` left on the player's track
    (``syndicate.offer_surge``)?"""
    colours = surge_colours(state, card)
    if not colours:
        return False
    col = state.market[sphere]
    top = len(col) if state.options.get("surge_reach", "any") == "any" else min(slot + 2, len(col))
    for j in range(slot + 1, top):
        target = col[j]
        if target is None or seat in state.synd.get(target, ()):
            continue
        if set(colours) & set(state.idea(target).disciplines) and agents >= agents_needed(state, target, False):
            return True
    return False


def action_values(state: PaxState, seat: int, actions: list, weights=None) -> list:
    """What the greedy bot compares (:func:`evaluate` after each action), with
    three savings that leave every value exactly as plain look-ahead gives it
    (``PaxGame.action_values`` calls this; here so that the compiled build runs
    the loop too):

    - Imports, Syndicates and Hires are most of a position's actions; many
      lead to positions the evaluation cannot tell apart.
      :class:`LookaheadKeys` says which (its docstring lists what each kind
      changes that the evaluation reads); each key is looked ahead once.
    - The copy an action is applied to shares every container that action
      cannot change (:meth:`.PaxState.clone_for`).
    - Syndicate, Hire and Import leave some features as they were
      (:data:`STATIC`) and the Splay, Regime and Think Tanks alone (Syndicate
      and Import the labour too): those features and facts
      (:class:`PositionFacts`) are worked out once, on the position looked
      ahead from.
    - Syndicate, Hire, Import, Fundraise and ``end`` are rated from the
      position itself, with no copy and without the rules' checks
      (:func:`syndicate_value`, :func:`import_value`, :func:`hire_value`,
      :func:`stay_value`), and so are most answers to an open Fundraise
      (:func:`fundraise_step_value`): they were most of a greedy game's look-aheads
      (callgrind, issue 47). The other kinds, and these
      where those answer None, are copied and applied."""
    out: list = []
    if not actions:
        return out
    apply = flow_apply_action
    static: dict | None = None
    facts: PositionFacts | None = None
    keyer = LookaheadKeys(state, seat, bool(weights and weights.get("card_value")))
    routes = not keyer.tipping
    where, held = keyer.where, keyer.held_ideas
    seen: dict = {}
    # Imports by (from sphere, to sphere, the idea if the player syndicated
    # it): without a Tipping Point to watch, equal here means equal keys
    by_route: dict = {}
    w: Mapping = DEFAULT_WEIGHTS
    if weights:
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(weights)      # as evaluate() merges them
        w = merged
    coef = _DEFAULT_COEF if w is DEFAULT_WEIGHTS else _Coefficients(w)
    shared: _Shared | None = None
    standing: list | None = None
    for action in actions:
        kind = action.kind
        route = None
        if kind == "syndicate":
            # rated from the position itself (syndicate_value), no copy; their
            # keys rarely meet (each slot has its own price)
            if static is None or facts is None:
                static = static_features(state, seat)
                facts = PositionFacts(state, seat)
            if shared is None:
                shared = _Shared(state, seat)
            direct = syndicate_value(state, seat, action, where, static, facts, w, coef, shared)
            if direct is not None:
                out.append(direct)
                continue
        elif kind == "fundraise" or kind == "end":
            # the position's own features, read once for both
            if standing is None:
                if static is None or facts is None:
                    static = static_features(state, seat)
                    facts = PositionFacts(state, seat)
                if shared is None:
                    shared = _Shared(state, seat)
                standing = standing_values(state, seat, static, facts, shared)
            direct = stay_value(state, seat, kind, standing, w, coef)
            if direct is not None:
                out.append(direct)
                continue
        elif kind == "raise" or kind == "divest":
            if static is None or facts is None:
                static = static_features(state, seat)
                facts = PositionFacts(state, seat)
            if shared is None:
                shared = _Shared(state, seat)
            direct = fundraise_step_value(state, seat, action, static, facts, w, coef, shared)
            if direct is not None:
                out.append(direct)
                continue
        if routes and kind == "import":
            idea = action.args[0]
            route = (where[idea][0], action.args[1], idea if idea in held else None)
            value = by_route.get(route)
            if value is not None:
                out.append(value)
                continue
        key = keyer.key(action)
        if key is not None:
            value = seen.get(key)
            if value is not None:
                if route is not None:
                    by_route[route] = value
                out.append(value)
                continue
        direct = None
        if kind in STATIC_KINDS:
            if static is None or facts is None:
                static = static_features(state, seat)
                facts = PositionFacts(state, seat)
            if kind == "import":
                direct = import_value(state, seat, action, where, static, facts, w, coef)
            elif kind == "hire":
                if shared is None:
                    shared = _Shared(state, seat)
                direct = hire_value(state, seat, action, static, facts, w, coef, shared)
        if direct is not None:
            value = direct
        elif kind in STATIC_KINDS:
            nxt = state.clone_for(kind)
            apply(nxt, action)
            value = evaluate(nxt, seat, weights, static, facts, kind != "hire")
        else:
            nxt = state.clone_for(kind)
            apply(nxt, action)
            value = evaluate(nxt, seat, weights)
        if key is not None:
            seen[key] = value
            if route is not None:
                by_route[route] = value
        out.append(value)
    return out


#: the order of :func:`features`' keys, which :func:`evaluate` weighs by
#: position (``tests/test_pax_bots.py`` checks the two agree)
FEATURE_ORDER = ("score", "companies", "solved", "patents", "patent_value", "syndications", "feasible",
                 "progress", "commercialized", "thinkers", "employees", "money", "broke", "agents", "debt",
                 "imports", "clock", "future_shock", "think_tank", "tipping_points", "tipping_ready", "cash",
                 "tycoon")


class _Coefficients:
    """:func:`_coefficients` as two typed lists, so that the compiled build
    multiplies machine floats: the weighing of a rated position was about a third
    of :func:`evaluate` with the weights zipped with a features dict (callgrind,
    issue 47)."""

    __slots__ = ("weights", "holdings")

    def __init__(self, w: Mapping) -> None:
        self.weights: list[float] = [float(c) for c, _ in _coefficients(w)]
        self.holdings: list[bool] = [held for _, held in _coefficients(w)]

    def weigh(self, values: list, keep: float) -> float:
        """The weighted sum of :func:`feature_values`, holdings shrunk by ``keep``:
        the same products (a weight times a value, times ``keep`` or 1.0) summed
        by sum() in the same order as always (a loop of += would differ from
        sum() on Python versions that compensate)."""
        weights, holdings = self.weights, self.holdings
        terms: list[float] = []
        for i in range(len(weights)):
            terms.append(weights[i] * float(values[i]) * (keep if holdings[i] else 1.0))
        return sum(terms)


_DEFAULT_COEF = _Coefficients(DEFAULT_WEIGHTS)


# -- card-value terms: what a card of the pool gives, read from its printed data --

def effect_worth(effect: tuple, w: Mapping) -> float:
    """What one effect adds to the features when it resolves: a solved problem
    (``solve``) its ``solved`` weight, a Company (``found``) its ``companies``
    weight; the other effects move the table, not the player's holdings (0)."""
    if effect[0] == "solve":
        return w["solved"]
    if effect[0] == "found":
        return w["companies"]
    return 0.0


def idea_worth(idea, w: Mapping) -> float:
    """What ``idea``'s printed effects will give its commercializer (each term
    the best of its alternatives), read from the card, so an idea that gives
    more is worth more to the bot."""
    from .effects import card_terms
    total = 0.0
    for alts in card_terms(idea):
        total += max(effect_worth(e, w) for e in alts)
    return total


def syndicated_ideas_worth(state: PaxState, seat: int, w: Mapping) -> float:
    """:func:`idea_worth` summed over ``seat``'s syndicated ideas in the Market
    (the ones it is working toward commercializing)."""
    total = 0.0
    synd = state.synd
    for sphere in SPHERES:
        for idea in state.market[sphere]:
            if idea is not None and seat in synd.get(idea, ()):
                total += idea_worth(state.content.ideas[idea], w)
    return total
