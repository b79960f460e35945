"""Research: pay one Compute (waived on Cloud) and make a Training run.

Cards are drawn one at a time. The first card of each ordinary domain adds one
provisional Capability; a domain seen twice crashes the run (provisional
Capability lost, one Scrutiny added). After any card that is not a repeat the
player banks or draws again. Curated Corpus stands for an unseen domain of the
player's choice (a repeat when all seven are seen); Benchmark Leak adds two
provisional Capability and one Scrutiny; Human Evaluation gives one Trust and banks
at once. Banking on a Research district adds one Capability. Mirevanta's Scientific
Method may pay Runway to bank on a repeat instead of crashing; Orisonix keeps one
provisional Capability when it crashes. Revealed cards are discarded after the run;
when the deck runs out, the discard is shuffled to form a new deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import audit, costs
from .data import DOMAINS
from .notation import Move

if TYPE_CHECKING:
    from .state import MandateState


def compute_cost(state: MandateState, pos: int) -> int:
    return costs.modified_cost(state.content.rules["researchCost"], waived=state.tiles[pos] == "cloud")


#: the district kinds the effects and their resolution tell apart; every other
#: district (Frontier included) is treated alike. The listing asks :func:`effects`
#: once per class of district (flow.effect_table) and the greedy evaluation
#: rates one district per class (evaluation._alike_by_kind); keep this in step
#: with the kind tests below (tests compare both with asking every district)
KINDS_READ = frozenset({"cloud", "research"})


def effects(state: MandateState, seat: int, pos: int) -> list[str]:
    return [""] if state.players[seat].compute >= compute_cost(state, pos) else []


def resolve(state: MandateState, seat: int, pos: int, mode: str) -> None:
    state.players[seat].compute -= compute_cost(state, pos)
    state.run = {"seat": seat, "pos": pos, "prov": 0, "seen": [], "revealed": [], "await": "draw"}
    draw(state)


def _draw_card(state: MandateState) -> str:
    # the deck and the discard are shared between clones: replaced, never changed in place
    if not state.deck:
        state.deck, state.discard = _shuffled(state, state.discard), []
    card = state.deck[-1]
    state.deck = state.deck[:-1]
    if not state.deck and state.discard:
        # the deck has just emptied: the discard becomes the new deck at once
        state.deck, state.discard = _shuffled(state, state.discard), []
    return card


def _shuffled(state: MandateState, cards: list) -> list:
    pile = list(cards)
    state.rng.shuffle(pile)
    return pile


def can_draw(state: MandateState) -> bool:
    return bool(state.deck or state.discard)


def draw(state: MandateState) -> None:
    """Reveal and resolve one card; leaves ``run['await']`` saying what comes next:
    ``choice`` (bank or draw), ``corpus`` (name a domain), ``method`` (Scientific
    Method), or the run has ended (``state.run`` is None)."""
    run = state.run
    seat = run["seat"]
    card = _draw_card(state)
    run["revealed"].append(card)
    kind = state.content.card_kind[card]
    if kind == "domain":
        if card in run["seen"]:
            return duplicate(state)
        run["seen"].append(card)
        run["prov"] += 1
    elif kind == "curated_corpus":
        if all(d in run["seen"] for d in DOMAINS):
            return duplicate(state)
        run["await"] = "corpus"
        return None
    elif kind == "benchmark_leak":
        run["prov"] += 2
        audit.add_scrutiny(state, seat, 1)
    elif kind == "human_evaluation":
        costs.gain(state, seat, "trust", 1)
        return bank(state)
    run["await"] = "choice" if can_draw(state) else "bank"
    return None


def choose_corpus(state: MandateState, domain: str) -> None:
    run = state.run
    run["seen"].append(domain)
    run["prov"] += 1
    run["await"] = "choice" if can_draw(state) else "bank"


def duplicate(state: MandateState) -> None:
    run = state.run
    p = state.players[run["seat"]]
    if p.ability == "scientific_method" and p.runway >= state.content.rules["scientificMethodCost"]:
        run["await"] = "method"
        return None
    return crash(state)


def pay_method(state: MandateState) -> None:
    """Scientific Method: pay its Runway and bank the run despite the repeat."""
    state.players[state.run["seat"]].runway -= state.content.rules["scientificMethodCost"]
    bank(state)


def crash(state: MandateState) -> None:
    run = state.run
    seat = run["seat"]
    kept = min(1, run["prov"]) if state.players[seat].ability == "crash_checkpoint" else 0
    if kept:
        costs.gain(state, seat, "capability", kept)
    audit.add_scrutiny(state, seat, 1)
    state.note(f"{state.player_name(seat)}'s Training run crashes after {len(run['revealed'])} cards")
    _end(state)


def bank(state: MandateState) -> None:
    run = state.run
    seat = run["seat"]
    amount = run["prov"] + (1 if state.tiles[run["pos"]] == "research" else 0)
    costs.gain(state, seat, "capability", amount)
    p = state.players[seat]
    p.record("best_run", max(p.rec.get("best_run", 0), amount))
    p.record("domains", tuple(sorted(set(p.rec.get("domains", ())) | set(run["seen"]))))
    state.note(f"{state.player_name(seat)} banks {amount} Capability")
    _end(state)


def _end(state: MandateState) -> None:
    state.discard = state.discard + state.run["revealed"]
    state.run = None


#: the run's fixed decisions, built once (a Move is an immutable tuple; a call of
#: the named tuple's class runs interpreted code)
_BANK: Final = Move("bank")
_DRAW: Final = Move("draw")
_PAY: Final = Move("method", "pay")
_DECLINE: Final = Move("method", "decline")


def decisions(state: MandateState) -> list:
    run = state.run
    wait = run["await"]
    if wait == "choice":
        return [_BANK, _DRAW]
    if wait == "bank":
        return [_BANK]
    if wait == "corpus":
        return [Move("corpus", d) for d in DOMAINS if d not in run["seen"]]
    if wait == "method":
        return [_PAY, _DECLINE]
    return []


def apply_decision(state: MandateState, move) -> None:
    if move.verb == "bank":
        bank(state)
    elif move.verb == "draw":
        draw(state)
    elif move.verb == "corpus":
        choose_corpus(state, move.mode)
    elif move.verb == "method":
        pay_method(state) if move.mode == "pay" else crash(state)
