"""Scenario positions for Mandate 2038: building a position from a scenario's
``setup``, the extra step kinds, and the values ``expect`` may name (``observe``).
The keys are documented in ``cards/mandate_2038/scenarios/README.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from workbench.core.errors import ScenarioError, WorkbenchError, suggest
from workbench.core.game import GameConfig, default_names

from . import board, build as build_rules, flow, influence, milestones, selection, world_ending
from .data import CORE_ACTIONS

if TYPE_CHECKING:
    from .state import MandateState

SETUP_KEYS = {"seed", "players", "options", "variants", "factions", "tiles", "era", "cycle", "mandate",
              "headlines", "headline", "initiative", "deck", "bag_black", "black_supply", "players_state",
              "ventures", "start", "selections"}
PLAYER_KEYS = {"runway", "compute", "capability", "customers", "trust", "mandate", "scrutiny", "agents",
               "facilities", "generator", "projects", "used", "agi", "trust_milestone", "records"}


def _tile(state: MandateState, name) -> int:
    lowered = {t.lower(): i for i, t in enumerate(state.tile_ids)}
    if str(name).lower() not in lowered:
        raise ScenarioError(f"no district named {name!r}{suggest(str(name), state.tile_ids)}")
    return lowered[str(name).lower()]


def _seat(state: MandateState, name) -> int:
    names = [n.lower() for n in state.config.players]
    if str(name).lower() not in names:
        raise ScenarioError(f"no player named {name!r}{suggest(str(name), state.config.players)}")
    return names.index(str(name).lower())


def build(game, setup: Mapping):
    try:
        return _build(game, setup)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ScenarioError(f"malformed value ({type(exc).__name__}: {exc})") from None


def _build(game, setup: Mapping):
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        bad = sorted(unknown)[0]
        raise ScenarioError(f"unknown setup key {bad!r}{suggest(bad, SETUP_KEYS)}")
    players = setup.get("players", 4)
    names = default_names(players) if isinstance(players, int) else tuple(players)
    options = dict(setup.get("options") or {})
    if "factions" in setup:
        f = setup["factions"]
        options["factions"] = [f[n] for n in names] if isinstance(f, Mapping) else list(f)
    config = GameConfig(players=names, seed=int(setup.get("seed", 0)),
                        variants=tuple(setup.get("variants", ())), options=options)
    s = game._setup(config)
    content = s.content
    if "tiles" in setup:
        kinds = [str(k).lower() for k in setup["tiles"]]
        if sorted(kinds[:6]) != sorted(content.pools["operational"]) or \
                sorted(kinds[6:]) != sorted(content.pools["public"]):
            raise ScenarioError("tiles: list the 6 inner districts then the 12 outer ones, from the ring pools")
        s.tiles = list(content.pools["center"]) + kinds
        s.tile_ids = board.tile_ids(s.tiles, content)
    era = int(setup.get("era", 1))
    if "initiative" in setup:
        s.initiative = _seat(s, setup["initiative"])
    if "deck" in setup:
        top = [str(c) for c in setup["deck"]]
        rest = list(s.deck)
        for card in top:
            if card not in rest:
                raise ScenarioError(f"deck: no {card!r} left in the Training deck{suggest(card, set(rest))}")
            rest.remove(card)
        s.deck = rest + list(reversed(top))       # the deck is drawn from its end
    for key in ("bag_black", "black_supply"):
        if key in setup:
            setattr(s, key, int(setup[key]))
    for name, values in (setup.get("players_state") or {}).items():
        _set_player(s, _seat(s, name), values or {})
    for v in setup.get("ventures") or []:
        s.ventures.append({"pair": int(v["pair"]), "a": _seat(s, v["a"]), "a_fac": int(v["a_facility"]) - 1,
                           "b": _seat(s, v["b"]), "b_fac": int(v["b_facility"]) - 1,
                           "era": int(v.get("era", era))})
    # the Era as it stands
    s.era = era
    mandate = setup.get("mandate")
    if mandate is not None:
        if str(mandate).lower() not in content.mandate_by_name:
            raise ScenarioError(f"no Mandate card {mandate!r}{suggest(str(mandate), [m.name for m in content.mandates])}")
        s.mandate_card = content.mandate_by_name[str(mandate).lower()].name
    else:
        s.mandate_card = s.mandate_decks[era - 1][0]
    for seat, p in enumerate(s.players):
        records = (setup.get("players_state") or {}).get(s.player_name(seat), {}) or {}
        p.rec = {"start_runway": p.runway, "start_capability": p.capability, **dict(records.get("records") or {})}
        if "domains" in p.rec:
            p.record("domains", tuple(p.rec["domains"]))
    for name in setup.get("headlines") or []:
        h = content.headline_by_name.get(str(name).lower())
        if h is None:
            raise ScenarioError(f"no Headline {name!r}{suggest(str(name), [x.name for x in content.headlines])}")
        s.headline_decks = list(s.headline_decks)  # shared with clones: changed on a copy
        deck = s.headline_decks[h.era - 1] = list(s.headline_decks[h.era - 1])
        if h.name in deck:
            deck.remove(h.name)
        deck.insert(0, h.name)
    cycle = int(setup.get("cycle", 1))
    start = setup.get("start", "select")
    if start == "select":
        s.cycle = cycle - 1
        flow.begin_cycle(s, headline=setup.get("headline", True) not in (False, "none", None))
    elif start == "act":
        s.cycle = cycle
        sel = setup.get("selections") or {}
        flow.start_selection(s)
        for seat in range(s.n):
            name = s.player_name(seat)
            action = sel.get(name)
            if action not in CORE_ACTIONS:
                raise ScenarioError(f"selections: give every player a Core Action (missing or unknown for {name})")
            s.selections[seat] = action
        s.act_index = 0
        flow._start_turn(s)
    elif start == "era_end":
        s.cycle = content.rules["cyclesPerEra"]
        flow.end_era(s)
    else:
        raise ScenarioError(f"start must be select, act or era_end, not {start!r}")
    s.forget_listing()
    return s


def _set_player(s, seat: int, values: Mapping) -> None:
    unknown = set(values) - PLAYER_KEYS
    if unknown:
        bad = sorted(unknown)[0]
        raise ScenarioError(f"unknown player key {bad!r}{suggest(bad, PLAYER_KEYS)}")
    p = s.players[seat]
    r = s.content.rules
    for key in ("runway", "compute", "capability", "customers", "trust", "mandate"):
        if key in values:
            setattr(p, key, int(values[key]))
    if "scrutiny" in values:
        p.bag = int(values["scrutiny"])
    if "agents" in values:
        spots = [_tile(s, t) for t in values["agents"]]
        p.agents = spots + [None] * (len(p.agents) - len(spots))
    if "facilities" in values:
        spots = [None if t is None else _tile(s, t) for t in values["facilities"]]
        p.facilities = spots + [None] * (len(p.facilities) - len(spots))
    if "generator" in values:
        p.generator = None if values["generator"] is None else _tile(s, values["generator"])
    if "projects" in values:
        p.projects = {build_rules.PROJECT_WORDS[str(k).lower()]: int(v) - 1 for k, v in values["projects"].items()}
    if "used" in values:
        p.ready = [a not in values["used"] for a in CORE_ACTIONS]
    if "agi" in values:
        p.agi = bool(values["agi"])
    p.trust_cube = int(values.get("trust_milestone", milestones.starting_trust_cube(p.trust, r["trustMilestones"])))
    p.cap_milestones = [t for t in r["capabilityMilestones"] if t <= p.capability]


#: the modifiers a ``cost`` step may name, as :func:`costs.modified_cost` takes them
COST_MODIFIERS = ("base", "replacement", "waived", "surcharges", "discounts")


def step(game, state: MandateState, raw: Mapping) -> bool:
    """Extra step kinds: ``{stack: [cards]}`` puts Training cards on top of the deck
    (first named is drawn first); ``{cost: {base, replacement, waived, surcharges,
    discounts}, is: N}`` states what a cost comes to under several modifiers at once, which
    the order of the modifiers decides (the engine's own cost rule is asked)."""
    if "cost" in raw:
        from . import costs
        mods, want = raw["cost"], raw.get("is")
        if not isinstance(mods, Mapping) or set(mods) - set(COST_MODIFIERS) or "base" not in mods \
                or isinstance(want, bool) or not isinstance(want, int):
            raise ScenarioError("a cost step is {cost: {base: N, replacement: N, waived: true, surcharges: N, "
                                "discounts: N}, is: N}")
        got = costs.modified_cost(int(mods["base"]), waived=bool(mods.get("waived", False)),
                                  replacement=None if mods.get("replacement") is None else int(mods["replacement"]),
                                  surcharges=int(mods.get("surcharges", 0)), discounts=int(mods.get("discounts", 0)))
        if got != want:
            raise ScenarioError(f"cost: the engine makes it {got}, the scenario says {want}")
        return True
    if "stack" in raw:
        top = [str(c) for c in raw["stack"]]
        rest = list(state.deck)
        for card in top:
            if card not in rest:
                raise ScenarioError(f"stack: no {card!r} left in the Training deck")
            rest.remove(card)
        state.deck = rest + list(reversed(top))
        state.forget_listing()
        return True
    return False


def observe(game, state: MandateState) -> dict:
    over = state.is_terminal()
    res = game.result(state)
    players = {}
    for seat, p in enumerate(state.players):
        players[state.player_name(seat)] = {
            "faction": p.faction,
            "runway": p.runway, "compute": p.compute, "capability": p.capability,
            "customers": p.customers, "trust": p.trust, "mandate": p.mandate, "score": p.mandate,
            "scrutiny": p.bag,
            "agents": [state.tile_ids[a] for a in p.agents if a is not None],
            "facilities": [None if f is None else state.tile_ids[f] for f in p.facilities],
            "connected": [f + 1 for f in board.connected_facilities(state, seat)],
            "offline": [f + 1 for f in board.offline_facilities(state, seat)],
            "generator": None if p.generator is None else state.tile_ids[p.generator],
            "projects": {build_rules.WORD_OF[k]: v + 1 for k, v in sorted(p.projects.items())},
            "ready": p.ready_actions(),
            "used": [a for a, r in zip(CORE_ACTIONS, p.ready) if not r],
            "agi": p.agi,
            "trust_milestone": p.trust_cube,
            "capability_milestones": list(p.cap_milestones),
            "selected": selection.visible(state, seat),
        }
    control = {state.tile_ids[pos]: (None if (c := board.controller(state, pos)) is None else state.player_name(c))
               for pos in range(len(state.tiles))}
    return {
        "era": state.era, "cycle": state.cycle, "phase": state.phase,
        "decider": None if over else state.player_name(state.decider),
        "initiative": state.player_name(state.initiative),
        "headline": state.headline, "timeline": list(state.timeline),
        "mandate_card": state.mandate_card,
        "mandate_results": [{"card": m["card"], "scorers": m["scorers"]} for m in state.mandate_results],
        "bag": {**{state.player_name(s): p.bag for s, p in enumerate(state.players)}, "black": state.bag_black},
        "systemic_risk_supply": state.black_supply,
        "deck_size": len(state.deck), "discard_size": len(state.discard),
        "run": None if state.run is None else {"player": state.player_name(state.run["seat"]),
                                               "provisional": state.run["prov"], "seen": list(state.run["seen"]),
                                               "revealed": list(state.run["revealed"])},
        "ventures": [{"pair": v["pair"], "a": state.player_name(v["a"]), "a_facility": v["a_fac"] + 1,
                      "b": state.player_name(v["b"]), "b_facility": v["b_fac"] + 1, "era": v["era"],
                      "active": influence.active(state, v)} for v in state.ventures],
        "venture_pairs": [v["pair"] for v in state.ventures],
        "control": control,
        "tiles": {state.tile_ids[i]: {"kind": k, "q": board.COORDS[i][0], "r": board.COORDS[i][1],
                                      "ring": board.RINGS[i]} for i, k in enumerate(state.tiles)},
        "collective_trust": world_ending.collective_trust(state),
        "over": over,
        "winners": list(res.winners),
        "ending": res.ending,
        "players": players,
    }
