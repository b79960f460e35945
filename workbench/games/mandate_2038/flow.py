"""The Era and cycle flow: who decides what next, and the automatic steps between.

An Era: reveal its Mandate card, ready all Core Actions, then three cycles. A
cycle: reveal and resolve a Headline; every player selects an Action in secret
(one seat at a time in Initiative order, picks hidden until all chose); then in
Initiative order each player may offer the exchange and resolves (assign an Agent,
apply the effect, Frontier's Runway, exhaust the Action); then Initiative passes
clockwise. After the third cycle: Production (with Talent reassignments), AGI
recognition in Era IV, the Public Audit, the Era Mandate; after Era IV, final
scoring. Decisions wait in ``state.phase``; everything else runs here at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Sequence

from workbench.core.errors import IllegalAction

from . import (agi, audit, board, exchange, final_scoring, headlines, influence, mandate_scoring, production,
               research, selection, tables)
from .actions import ACTION_RULES
from .data import CORE_ACTIONS
from .notation import Move

if TYPE_CHECKING:
    from .state import MandateState, Player


# -- what may be done now ----------------------------------------------------------

def resolutions(state: MandateState, seat: int, action: str, head=()) -> "Resolutions":
    """Every (Agent, district, effect) for the selected Action, after ``head``
    (the exchange offers); only if none exists, the bare assignment ('blocked').

    Returned as a :class:`Resolutions` sequence: the per-district effect table is
    worked out here, but a move is built only when it is asked for (by index,
    by iteration or by a membership test), so a random player's draw and the
    legality check of an applied move never build the whole list."""
    rules = ACTION_RULES[action]
    agents = distinct_agents(state.players[seat])
    table = effect_table(rules, state, seat)
    tile_ids: list[str] = state.tile_ids
    rows: list[tuple[str, Sequence[str]]] = []
    count = 0
    for pos in range(len(table)):
        modes = table[pos]
        if modes:
            rows.append((tile_ids[pos], modes))
            count += len(modes)
    blocked = not rows
    if blocked:
        rows = [(tile, _BLOCKED) for tile in tile_ids]
        count = len(rows)
    return Resolutions(list(head), action, rows, agents, blocked, count)


def effect_table(rules, state: MandateState, seat: int) -> list[list[str]]:
    """The Action's effects on every district (board order): its own
    ``effects_by_tile`` when it has one, else its ``effects`` asked once per
    class of district (``KINDS_READ`` modules) or per district."""
    # read from the module's dict: getattr with a default raises (and formats)
    # an AttributeError inside for every module that has no such name
    found: dict = rules.__dict__
    by_tile = found.get("effects_by_tile")
    if by_tile is not None:
        return by_tile(state, seat)
    kinds_read = found.get("KINDS_READ")
    if kinds_read is not None:
        return tables.by_kind(state, seat, rules.effects, kinds_read)
    return [rules.effects(state, seat, pos) for pos in range(len(state.tiles))]


def is_blocked(state: MandateState, seat: int, action: str) -> bool:
    """True when the selected Action has no legal effect on any district (its
    resolutions would be the bare 'blocked' assignments): the same effect rules
    as :func:`resolutions`, asked district by district until one answers."""
    rules = ACTION_RULES[action]
    if rules.__dict__.get("effects_by_tile") is not None:   # see effect_table
        return not any(rules.effects_by_tile(state, seat))
    effects = rules.effects
    for pos in range(len(state.tiles)):
        if effects(state, seat, pos):
            return False
    return True


_BLOCKED: Final = ("blocked",)


class Resolutions:
    """The legal moves of an ``act`` decision, in the listed order: ``head``, then
    per district (board order) per effect per Agent ``Move(verb, effect, agent,
    district)``. Behaves as the list of those moves (``len``, indexing, ``in``,
    iteration, ``list(...)``) without building it."""

    __slots__ = ("head", "verb", "rows", "agents", "blocked", "_modes", "_agent_set", "_n")

    # typed: the compiled build reads them (and unpacks the rows) natively
    head: list
    verb: str
    rows: list[tuple[str, Sequence[str]]]     # (district, its effects) where it has any
    agents: list[int]
    blocked: bool

    def __init__(self, head: list, verb: str, rows: list[tuple[str, Sequence[str]]], agents: list[int],
                 blocked: bool, modes: int):
        # ``modes``: the number of (district, effect) pairs in ``rows``, counted by the caller
        self.head, self.verb, self.rows, self.agents, self.blocked = head, verb, rows, agents, blocked
        self._modes: Any = None       # district -> its effects, built on the first membership test
        self._agent_set: Any = None
        self._n = len(head) + len(agents) * modes

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: int) -> Move:
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("legal move index out of range")
        head = self.head
        if index < len(head):
            return head[index]
        index -= len(head)
        per = len(self.agents)
        for tile, modes in self.rows:
            block = per * len(modes)
            if index < block:
                return tuple.__new__(Move, (self.verb, modes[index // per], self.agents[index % per] + 1, tile))
            index -= block
        raise IndexError("legal move index out of range")  # not reached: index < len(self)

    def __iter__(self):
        yield from self.head
        new, verb, agents = tuple.__new__, self.verb, self.agents
        for tile, modes in self.rows:
            for mode in modes:
                for a in agents:
                    yield new(Move, (verb, mode, a + 1, tile))

    def __contains__(self, move) -> bool:
        if move in self.head:
            return True
        if not isinstance(move, tuple) or len(move) != 4 or move[0] != self.verb:
            return False
        if self._modes is None:
            self._modes = {tile: modes for tile, modes in self.rows}
            self._agent_set = {a + 1 for a in self.agents}
        modes = self._modes.get(move[3])
        return modes is not None and move[1] in modes and move[2] in self._agent_set


def distinct_agents(p: Player) -> list[int]:
    """Agents are identical pieces: of several on one district only the lowest-numbered
    is listed (any of them is accepted, see :func:`canonical`)."""
    seen, out = set(), []
    for i, at in enumerate(p.agents):
        if at is not None and at not in seen:
            seen.add(at)
            out.append(i)
    return out


def canonical(state: MandateState, move):
    """The listed form of ``move``: an Agent standing with a lower-numbered Agent of
    the same player acts as that one (the positions that result are the same)."""
    if not isinstance(move, Move) or move.agent < 1 or state.phase not in ("act", "talent"):
        return move
    p = state.players[state.decider]
    if move.agent > len(p.agents) or p.agents[move.agent - 1] is None:
        return move
    first = p.agents.index(p.agents[move.agent - 1]) + 1
    return move if first == move.agent else move._replace(agent=first)


#: the fixed answers, built once (a Move is an immutable tuple; a call of the
#: named tuple's class runs interpreted code)
_ACCEPT: Final = Move("accept")
_REJECT: Final = Move("reject")
_DECLARE_AGI: Final = Move("agi", "declare")
_DECLINE_AGI: Final = Move("agi", "decline")


def legal_actions(state: MandateState) -> "list[Move] | Resolutions":
    ph, seat = state.phase, state.decider
    if ph == "select":
        return selection.choices(state, seat)
    if ph == "act":
        return resolutions(state, seat, state.selections[seat], () if state.offered else exchange.offers(state, seat))
    if ph == "answer":
        return [_ACCEPT, _REJECT]
    if ph == "run":
        return research.decisions(state)
    if ph == "talent":
        return [Move("reassign", "", a + 1, tile) for a in distinct_agents(state.players[seat])
                for tile in state.tile_ids]
    if ph == "agi":
        return [_DECLARE_AGI, _DECLINE_AGI]
    return []


def why_illegal(state: MandateState, move) -> str:
    """One sentence saying why ``move`` is refused here."""
    who = state.player_name(state.decider) if state.phase != "over" else "nobody"
    if not isinstance(move, Move):
        return f"not a Mandate 2038 action: {move!r}"
    ph = state.phase
    expected = {"select": "select an Action", "act": f"resolve {state.selections[state.decider] if ph == 'act' else ''}",
                "answer": "accept or reject", "run": "bank or draw (or name the Curated Corpus domain)",
                "talent": "reassign an Agent", "agi": "declare or decline AGI"}.get(ph, "")
    if ph == "select":
        if move.verb != "select":
            return f"{who} must first select a Core Action"
        if move.mode not in state.players[state.decider].ready_actions():
            return f"{who} has already used {move.mode} this Era"
    if ph == "act":
        action = state.selections[state.decider]
        p = state.players[state.decider]
        if move.verb == "offer":
            return (f"{who} has already made the one exchange offer" if state.offered
                    else f"{move} is not a legal exchange (each side needs the resource and room under its cap)")
        if move.verb != action:
            return f"{who} selected {action}, so must resolve {action}, not {move.verb}"
        if not 1 <= move.agent <= len(p.agents) or p.agents[move.agent - 1] is None:
            return f"{who} has no Agent {move.agent} on the board"
        if move.tile not in state.tile_ids:
            return f"there is no district {move.tile!r} on this board"
        if move.mode == "blocked":
            return f"{action} still has a legal effect, so it cannot be spent as a bare assignment"
        pos = state.tile_ids.index(move.tile)
        modes = ACTION_RULES[action].effects(state, state.decider, pos)
        if not modes:
            return f"{action} has no legal effect on {move.tile} for {who} (cost, space, unlock or target)"
        return f"'{move.mode or action}' is not a legal {action} effect on {move.tile}; legal there: " + \
            ", ".join(m or action for m in modes)
    return f"{move} is not legal now: {who} must {expected}"


# -- doing it ------------------------------------------------------------------------

def apply(state: MandateState, move: Move) -> None:
    state.pre_draw = None
    ph, seat = state.phase, state.decider
    if ph == "select":
        if selection.choose(state, seat, move.mode):
            state.act_index = 0
            _start_turn(state)
    elif ph == "act":
        if move.verb == "offer":
            give, get, rival = exchange.parse_offer(state, move)
            state.pending = {"kind": "trade", "from": seat, "to": rival, "give": give, "get": get}
            state.offered = True
            state.phase, state.decider = "answer", rival
            return
        _resolve_action(state, seat, move)
    elif ph == "answer":
        pend = state.pending
        if pend["kind"] == "trade":
            if move.verb == "accept":
                exchange.accept(state)
            state.note(f"{state.player_name(pend['to'])} {move.verb}s the exchange")
            state.pending = None
            state.phase, state.decider = "act", pend["from"]
        else:
            if move.verb == "accept":
                influence.accept(state)
            else:
                state.note(f"{state.player_name(pend['to'])} rejects the Joint Venture")
            state.pending = None
            _finish_action(state)
    elif ph == "run":
        if move.verb == "draw":
            p = state.players[seat]
            state.pre_draw = (seat, state.run["prov"], tuple(state.run["seen"]), p.capability, p.trust,
                              p.bag, p.mandate, tuple(state.deck or state.discard), p.runway)
        research.apply_decision(state, move)
        if state.run is None:
            _finish_action(state)
    elif ph == "talent":
        state.players[seat].agents[move.agent - 1] = state.tile_ids.index(move.tile)
        state.queue = state.queue[1:]
        _next_queued(state)
    elif ph == "agi":
        if move.verb == "agi" and move.mode == "declare":
            agi.declare(state, seat)
        state.queue = state.queue[1:]
        _next_agi(state)


def _resolve_action(state: MandateState, seat: int, move: Move) -> None:
    pos = state.tile_ids.index(move.tile)
    state.players[seat].agents[move.agent - 1] = pos      # the assignment happens even when blocked
    state.acting = (seat, pos, move.verb)
    if move.mode == "blocked":
        state.note(f"{state.player_name(seat)}'s {move.verb} is blocked: Agent assigned only")
        return _finish_action(state)
    waits = ACTION_RULES[move.verb].resolve(state, seat, pos, move.mode)
    if move.verb == "research" and state.run is not None:
        state.phase = "run"
        return None
    if move.verb == "influence" and waits:
        state.phase, state.decider = "answer", state.pending["to"]
        return None
    _finish_action(state)


def _finish_action(state: MandateState) -> None:
    seat, pos, action = state.acting
    board.frontier_runway(state, seat, pos)
    state.players[seat].ready[CORE_ACTIONS.index(action)] = False
    state.acting = None
    state.act_index += 1
    if state.act_index < state.n:
        _start_turn(state)
    else:
        _end_cycle(state)


def _start_turn(state: MandateState) -> None:
    state.phase = "act"
    state.decider = state.order[state.act_index]
    state.offered = False


def _end_cycle(state: MandateState) -> None:
    state.initiative = (state.initiative + 1) % state.n
    if state.cycle < state.content.rules["cyclesPerEra"]:
        begin_cycle(state)
    else:
        end_era(state)


# -- automatic steps -----------------------------------------------------------------

def begin_era(state: MandateState, era: int) -> None:
    state.era = era
    state.cycle = 0
    state.mandate_card = state.mandate_decks[era - 1][0]
    mandate_scoring.start_records(state)
    for p in state.players:
        p.ready = [True] * len(CORE_ACTIONS)
    state.note(f"Era {era} begins; Mandate: {state.mandate_card}")
    begin_cycle(state)


def begin_cycle(state: MandateState, *, headline: bool = True) -> None:
    state.cycle += 1
    state.headline = None
    if headline:
        headlines.reveal(state)
    state.after_queue = "select"
    if state.queue:
        state.phase, state.decider = "talent", state.queue[0]
    else:
        start_selection(state)


def start_selection(state: MandateState) -> None:
    selection.start(state)


def end_era(state: MandateState) -> None:
    production.run(state)
    state.after_queue = "production"
    if state.queue:
        state.phase, state.decider = "talent", state.queue[0]
    else:
        after_production(state)


def _next_queued(state: MandateState) -> None:
    if state.queue:
        state.decider = state.queue[0]
    elif state.after_queue == "select":
        start_selection(state)
    else:
        after_production(state)


def after_production(state: MandateState) -> None:
    if state.era == agi.AGI_ERA:
        state.queue = [s for s in state.initiative_order() if agi.qualifies(state, s)]
        if state.queue:
            state.phase, state.decider = "agi", state.queue[0]
            return
    audit_and_score(state)


def _next_agi(state: MandateState) -> None:
    if state.queue:
        state.decider = state.queue[0]
    else:
        audit_and_score(state)


def audit_and_score(state: MandateState) -> None:
    audit.public_audit(state)
    mandate_scoring.score(state)
    if state.era < state.content.rules["eras"]:
        begin_era(state, state.era + 1)
    else:
        finish(state)


def finish(state: MandateState) -> None:
    final_scoring.offline_penalty(state)
    state.phase = "over"
    state.decider = -1
    state.note("Game over")
