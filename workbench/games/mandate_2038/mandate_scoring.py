"""Era Mandate scoring (after the Audit of every Era).

One Mandate card is revealed at the start of each Era; the other two of its deck
go back unseen. It names a criterion and a minimum. Nobody qualifies: nobody
scores. Otherwise the single qualifying leader scores two Mandate, and tied
qualifying leaders score one each (the card awards all tied players, so the
universal tie rule does not apply). History criteria compare with the value
recorded when the Era began (Runway, Capability) or with what the Era recorded
(best banked run, domains banked, Compute produced, Joint Ventures made).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board, influence

if TYPE_CHECKING:
    from .state import MandateState


def value(state: MandateState, seat: int, criterion: str) -> int:
    """``seat``'s count on ``criterion`` (board control: see :func:`values`)."""
    if criterion in CONTROL_CRITERIA:
        return values(state, criterion)[seat]
    p = state.players[seat]
    rec = p.rec
    if criterion == "customers":
        return p.customers
    if criterion == "capability":
        return p.capability
    if criterion == "trust":
        return p.trust
    if criterion == "capability_gained":
        return p.capability - rec["start_capability"]
    if criterion == "runway_gained":
        return p.runway - rec["start_runway"]
    if criterion == "best_run":
        return rec.get("best_run", 0)
    if criterion == "unique_domains":
        return len(rec.get("domains", ()))
    if criterion == "compute_produced":
        return rec.get("compute_produced", 0)
    if criterion == "connected_facilities":
        return len(board.connected_facilities(state, seat))
    if criterion == "new_joint_ventures":
        return sum(1 for v in state.ventures if v["era"] == state.era and seat in (v["a"], v["b"])
                   and influence.active(state, v))
    raise KeyError(criterion)


#: criteria read from board control: :func:`values` works the control out once for all seats
CONTROL_CRITERIA = frozenset({"controlled_hexes", "controlled_categories"})
#: criteria whose count for a seat reads only that seat's own Player (tracks,
#: records, own pieces): a change to one player leaves the others' counts alone
OWN_CRITERIA = frozenset({"customers", "capability", "trust", "capability_gained", "runway_gained", "best_run",
                          "unique_domains", "compute_produced", "connected_facilities"})


def values(state: MandateState, criterion: str, control: Any = None) -> list[int]:
    """Every seat's count on ``criterion``, in seat order. The board-control
    criteria are counted here, from one :func:`board.control_map` for all seats
    (``control``, when the caller has it): controlled districts (Frontier has no
    controller), and the district kinds among them."""
    n = len(state.players)
    if criterion in CONTROL_CRITERIA and control is None:
        control = board.control_map(state)
    if criterion == "controlled_hexes":
        counts = [0] * n
        for owner in control:
            if owner is not None:
                counts[owner] += 1
        return counts
    if criterion == "controlled_categories":
        kinds: list[set] = [set() for _ in range(n)]
        for pos, owner in enumerate(control):
            if owner is not None:
                kinds[owner].add(state.tiles[pos])
        return [len(k) for k in kinds]
    return [value(state, s, criterion) for s in range(n)]


def start_records(state: MandateState) -> None:
    """Era start: the cube records a history criterion compares against."""
    for p in state.players:
        p.rec = {"start_runway": p.runway, "start_capability": p.capability}


def score(state: MandateState) -> dict:
    card = state.content.mandate_by_name[state.mandate_card.lower()]
    r = state.content.rules
    counts = values(state, card.criterion)
    qualified = [s for s in range(state.n) if counts[s] >= card.minimum]
    outcome = {"era": state.era, "card": card.name, "values": counts, "scorers": []}
    if qualified:
        best = max(counts[s] for s in qualified)
        leaders = [s for s in qualified if counts[s] == best]
        award = r["eraMandateLeader"] if len(leaders) == 1 else r["eraMandateTied"]
        for s in leaders:
            state.players[s].mandate += award
        outcome["scorers"] = [state.player_name(s) for s in leaders]
        outcome["award"] = award
    state.mandate_results = state.mandate_results + [outcome]
    state.note(f"Mandate {card.name}: {', '.join(outcome['scorers']) or 'nobody'} scores")
    return outcome
