"""Scenario support for Meaning Made: building a position from a scenario's
``setup`` block, the extra step kinds (``event``, ``set``), what ``expect`` can
name (``observe``) and report mode's ``scenario_force``. The keys are documented
in ``cards/meaning_made/scenarios/README.md``."""

from __future__ import annotations

from workbench.core.errors import ScenarioError, WorkbenchError, suggest
from workbench.core.game import GameConfig, default_names
from pydantic import ValidationError

from .data import Effect
from .flow import begin_turn, open_stability_window, start_round
from .scoring import end_score, winners
from .setup import new_state, progress_of
from .state import COMMUNITY, PHASE_OVER, SHARED_PILES, MMState
from .variants import Rules

SETUP_KEYS = {"seed", "players", "variants", "options", "start", "turn", "world", "players_state"}
WORLD_KEYS = {"meaning", "world_layer", "round", "prism", "index", "end_initiative", "events", "completed",
              "consequence_code", "event", "contributions", "patterns", "initiatives", "pattern_discard",
              "initiative_discard", "event_discard", "decks", "discards"}
PILES = {  # kind -> (deck attribute, discard attribute, name lookup)
    "patterns": ("pattern_deck", "pattern_discard", "_pattern"),
    "initiatives": ("init_deck", "init_discard", "_initiative"),
    "events": ("event_deck", "event_discard", "_event"),
}
PLAYER_KEYS = {"E", "I", "S", "vitals", "legacy", "palette", "fragile", "touchpoint_used", "markers"}


def own_piles(state: MMState) -> None:
    """Give ``state`` its own copies of the piles clones share, before changing one in
    place (scenario steps that reorder decks; play itself only replaces them)."""
    for name in SHARED_PILES:
        setattr(state, name, getattr(state, name)[:])


def _set_palette(p, names, cards) -> None:
    """A position's Palette as a scenario states it, with its Patterns counted per Layer
    (play itself adds to a Palette through load_pattern.add_to_palette)."""
    p.palette = list(names)
    p.layers = [0] * 7
    for name in p.palette:
        p.layers[cards.patterns[name].layer] += 1


def _unknown(keys, allowed, where):
    bad = [k for k in keys if k not in allowed]
    if bad:
        raise ScenarioError(f"{where}: unknown key {bad[0]!r}{suggest(str(bad[0]), allowed)}")


def _seat(state: MMState, who) -> int:
    names = [n.lower() for n in state.config.players]
    if str(who).lower() not in names:
        raise ScenarioError(f"no player named {who!r}{suggest(str(who), state.config.players)}")
    return names.index(str(who).lower())


def _pattern(state: MMState, text) -> str:
    name = state.cards.pattern_name(str(text))
    if name is None:
        raise ScenarioError(f"no Pattern named {text!r}{suggest(str(text), state.cards.patterns)}")
    return name


def _initiative(state: MMState, text) -> str:
    name = state.cards.initiative_name(str(text))
    if name is None:
        raise ScenarioError(f"no Initiative named {text!r}{suggest(str(text), state.cards.initiatives)}")
    return name


def _event(state: MMState, text) -> str:
    letter = str(text).upper()
    if letter not in state.cards.events:
        raise ScenarioError(f"no Event {text!r}{suggest(letter, state.cards.events)}")
    return letter


def _order_piles(state: MMState, world: dict) -> None:
    """Deck and discard order from ``world``: ``patterns``/``initiatives``/``events``
    put the named cards on top (top first) with the rest below in seeded order;
    ``decks: {kind: [...]}`` gives a whole deck, the cards not named going to the
    discard pile (or, when the discard is given too, set aside out of play);
    ``discards: {kind: [...]}`` (or ``pattern_discard`` etc.) gives a discard pile."""
    lookup = {"_pattern": _pattern, "_initiative": _initiative, "_event": _event}
    decks = dict(world.get("decks") or {})
    discards = dict(world.get("discards") or {})
    _unknown(decks, PILES, "setup.world.decks")
    _unknown(discards, PILES, "setup.world.discards")
    singular = {"patterns": "pattern_discard", "initiatives": "initiative_discard", "events": "event_discard"}
    for kind, (deck_attr, discard_attr, find) in PILES.items():
        top = world.get(kind)
        whole = decks.get(kind)
        disc = discards.get(kind, world.get(singular[kind]))
        if top is None and whole is None and disc is None:
            continue
        free = getattr(state, deck_attr) + getattr(state, discard_attr)
        def names(items, where):
            out = []
            for text in items or []:
                name = lookup[find](state, text)
                if name not in free:
                    raise ScenarioError(f"{where}: {name} is already placed elsewhere")
                if name in out:
                    raise ScenarioError(f"{where}: {name} is named twice")
                out.append(name)
            return out
        discard = names(disc, f"setup.world discard of {kind}") if disc is not None else []
        rest = [n for n in free if n not in discard]
        if whole is not None:
            deck = names(whole, f"setup.world.decks.{kind}")
            if any(n in discard for n in deck):
                raise ScenarioError(f"setup.world: a card of {kind} is both in the deck and the discard")
            left = [n for n in rest if n not in deck]
            if disc is not None:
                state.aside.extend(left)
            else:
                discard = left
        else:
            head = names(top, f"setup.world.{kind}")
            deck = head + [n for n in rest if n not in head]
        setattr(state, deck_attr, deck)
        setattr(state, discard_attr, discard)


def _take_pattern(state: MMState, name: str, placed: set) -> None:
    """Take a Pattern out of wherever it is (deck, discard, Prism) so it can be
    placed elsewhere; a second placement is an error."""
    if name in placed:
        raise ScenarioError(f"{name} is placed twice (every card is in exactly one place)")
    placed.add(name)
    for pile in (state.pattern_deck, state.pattern_discard):
        if name in pile:
            pile.remove(name)
            return
    if name in state.prism:
        state.prism[state.prism.index(name)] = None


def _take_initiative(state: MMState, name: str, placed: set) -> None:
    if name in placed:
        raise ScenarioError(f"{name} is placed twice (every card is in exactly one place)")
    placed.add(name)
    for pile in (state.init_deck, state.init_discard):
        if name in pile:
            pile.remove(name)
            return
    if name in state.index:
        state.index[state.index.index(name)] = None
        state.progress.pop(name, None)


def scenario_state(game, setup: dict):
    setup = dict(setup or {})
    _unknown(setup, SETUP_KEYS, "setup")
    players = setup.get("players", 4)
    names = default_names(players) if isinstance(players, int) else tuple(str(p) for p in players)
    config = GameConfig(players=names, seed=int(setup.get("seed", 0)),
                        variants=tuple(setup.get("variants") or ()), options=dict(setup.get("options") or {}))
    cards = game.cards()
    rules = Rules(config, cards)
    state = new_state(config, rules, cards)
    world = dict(setup.get("world") or {})
    _unknown(world, WORLD_KEYS, "setup.world")
    pstates = dict(setup.get("players_state") or {})
    placed_p: set = set()
    placed_i: set = set()
    start = setup.get("start", "event")
    if start not in ("event", "turns", "stability"):
        raise ScenarioError(f"setup.start: {start!r}; choose event, turns or stability")
    if "turn" in setup:
        state.first = _seat(state, setup["turn"])
    # End Initiative and the Index
    if "end_initiative" in world:
        end = _initiative(state, world["end_initiative"])
        if end != state.end:
            if state.end is not None:
                state.init_deck.append(state.end)
            _take_initiative(state, end, placed_i)
            state.end = end
    if state.end is not None:
        placed_i.add(state.end)
    if "completed" in world:
        for text in world["completed"] or []:
            name = _initiative(state, text)
            _take_initiative(state, name, placed_i)
            state.completed.append(name)
    if "index" in world:
        for name in state.index:
            if name is not None:
                state.init_deck.append(name)
        wanted = list(world["index"] or [])
        if len(wanted) > len(state.index):
            raise ScenarioError(f"setup.world.index: {len(wanted)} cards for {len(state.index)} slots")
        state.index = [None] * len(state.index)
        for slot, text in enumerate(wanted):
            if text is None or text == "-":
                continue
            name = _initiative(state, text)
            _take_initiative(state, name, placed_i)
            state.index[slot] = name
    else:
        from .setup import refill_index_slot
        for slot, name in enumerate(state.index):  # a card named as completed may have left its slot
            if name is None:
                refill_index_slot(state, slot)
        placed_i.update(n for n in state.index if n is not None)
    # Prism and palettes
    if "prism" in world:
        for name in state.prism:
            if name is not None:
                state.pattern_deck.append(name)
        wanted = list(world["prism"] or [])
        if len(wanted) > len(state.prism):
            raise ScenarioError(f"setup.world.prism: {len(wanted)} cards for {len(state.prism)} slots")
        state.prism = [None] * len(state.prism)
        for slot, text in enumerate(wanted):
            name = _pattern(state, text)
            _take_pattern(state, name, placed_p)
            state.prism[slot] = name
    for who, values in pstates.items():
        seat = _seat(state, who)
        values = dict(values or {})
        _unknown(values, PLAYER_KEYS, f"setup.players_state.{who}")
        p = state.players[seat]
        for key in ("E", "I", "S", "vitals", "legacy"):
            if key in values:
                v = values[key]
                if not isinstance(v, int) or v < 0:
                    raise ScenarioError(f"setup.players_state.{who}.{key}: a whole number >= 0, not {v!r}")
                setattr(p, key, v)
        if "palette" in values:
            names = []
            for text in values["palette"] or []:
                name = _pattern(state, text)
                _take_pattern(state, name, placed_p)
                names.append(name)
            _set_palette(p, names, state.cards)
        p.fragile = bool(values.get("fragile", p.vitals == 0))
        if values.get("touchpoint_used"):
            state.touch_used[seat] = True
    if "prism" not in world:  # refill slots emptied by palettes
        from .setup import refill_prism_slot
        for slot, name in enumerate(state.prism):
            if name is None:
                refill_prism_slot(state, slot)
    # progress on face-up Initiatives
    placed = [0] * len(state.players)
    for text, prog in (world.get("contributions") or {}).items():
        name = _initiative(state, text)
        if name not in state.face_up_initiatives():
            raise ScenarioError(f"setup.world.contributions: {name} is not face up")
        prog = dict(prog or {})
        _unknown(prog, {"filled", "markers"}, f"setup.world.contributions.{name}")
        entry = progress_of(state, name)
        for kind, n in dict(prog.get("filled") or {}).items():
            if kind not in entry.filled:
                raise ScenarioError(f"setup.world.contributions.{name}.filled: unknown token {kind!r}")
            if n > state.rules.boxes[name][kind]:
                raise ScenarioError(f"setup.world.contributions.{name}.filled: {n} {kind} but the card has "
                                    f"{state.rules.boxes[name][kind]} box(es)")
            entry.filled[kind] = int(n)
        for who in prog.get("markers") or []:
            if str(who).lower() == "community":
                entry.markers.append(COMMUNITY)
                state.community = max(0, state.community - 1)
            else:
                seat = _seat(state, who)
                if seat in entry.markers:
                    raise ScenarioError(f"{who} has two markers on {name}")
                entry.markers.append(seat)
                placed[seat] += 1
    # markers in supply: as given, else what is left after the placed ones
    for seat, p in enumerate(state.players):
        name = state.config.players[seat]
        given = next((v.get("markers") for k, v in pstates.items()
                      if str(k).lower() == name.lower() and isinstance(v, dict) and "markers" in v), None)
        if given is not None and (not isinstance(given, int) or given < 0):
            raise ScenarioError(f"setup.players_state.{name}.markers: a whole number >= 0, not {given!r}")
        supply = given if given is not None else state.rules.markers - placed[seat]
        if supply < 0 or supply + placed[seat] > state.rules.markers:
            raise ScenarioError(f"setup: {name} would have {supply} markers in supply and {placed[seat]} placed, "
                                f"more than the {state.rules.markers} each player has")
        p.markers = supply
    # tracks
    for key in ("meaning", "world_layer", "round"):
        if key in world:
            setattr(state, key, int(world[key]))
    if "world_layer" not in world:
        top = max([state.cards.patterns[n].layer for p in state.players for n in p.palette] +
                  [state.cards.initiatives[n].layer for n in state.completed] + [1])
        state.world_layer = top
    if "consequence_code" in world:
        state.code = int(world["consequence_code"])
    if "event" in world:
        letter = str(world["event"]).upper()
        if letter not in state.cards.events:
            raise ScenarioError(f"setup.world.event: no Event {letter!r}")
        if letter in state.event_deck:
            state.event_deck.remove(letter)
        state.events = [letter]
        if "consequence_code" not in world:
            state.code = state.cards.events[letter].code
    _order_piles(state, world)
    number = state.round
    if start == "event":
        start_round(state, number)
    else:
        start_round(state, number, reveal=False)
        if start == "stability":
            open_stability_window(state)
        else:
            begin_turn(state, state.first)
    for who, values in pstates.items():  # start_round cleared once-per-round marks
        if (values or {}).get("touchpoint_used"):
            state.touch_used[_seat(state, who)] = True
    return state


def scenario_step(state: MMState, step: dict) -> bool:
    own_piles(state)  # the steps below may reorder piles that clones share
    if "event" in step:
        _event_step(state, step["event"])
        return True
    if "set" in step:
        scenario_force(state, step["set"])
        return True
    return False


def _event_step(state: MMState, spec) -> None:
    if not state.rules.scripted_events:
        raise WorkbenchError("an 'event' step needs options: {events: scripted}")
    spec = dict(spec or {})
    _unknown(spec, {"id", "code", "outcome"}, "event step")
    letter = str(spec.get("id", "")).upper()
    if letter and letter not in state.cards.events:
        raise WorkbenchError(f"event step: no Event {letter!r}{suggest(letter, state.cards.events)}")
    if letter:
        if letter not in state.events:
            if state.events and state.events[-1] != letter:
                state.event_deck.insert(0, state.events.pop())
            if letter in state.event_deck:
                state.event_deck.remove(letter)
            elif letter in state.event_discard:
                state.event_discard.remove(letter)
            state.events.append(letter)
    code = spec.get("code", state.cards.events[letter].code if letter else state.code)
    state.code = int(code) if code is not None else None
    outcome = spec.get("outcome")
    from .consequences import resolve_event
    if outcome is None:
        if not letter:
            raise WorkbenchError("event step: give an id (to look up) or an outcome")
        resolve_event(state, letter)
        return
    try:
        effect = Effect.model_validate(outcome)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise WorkbenchError(f"event step outcome: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    if "target" not in outcome:
        effect = effect.model_copy(update={"target": "first"})
    resolve_event(state, letter, effect)


def observe(state: MMState) -> dict:
    names = state.config.players
    over = state.phase == PHASE_OVER
    players = {}
    cards = state.cards
    for seat, (n, p) in enumerate(zip(names, state.players)):
        mark = cards.reading(cards.mark_table, p.legacy)
        players[n] = {"E": p.E, "I": p.I, "S": p.S, "vitals": p.vitals, "legacy": p.legacy,
                      "palette": list(p.palette), "fragile": p.fragile, "score": end_score(p),
                      "markers": p.markers, "touchpoint_used": state.touch_used[seat],
                      "mark": mark.title if mark else None,
                      # which Pattern Layers (1-6) the Palette shows: lets a scenario check a
                      # claim such as "Drew supplies Layer 4 and Layer 5" (keys compared only if named)
                      "shows_layer": {layer: p.layers[layer] > 0 for layer in range(1, len(p.layers))}}
    world = cards.reading(cards.world_table, state.meaning)
    contributions = {}
    for name, prog in state.progress.items():
        contributions[name] = {"filled": {k: v for k, v in prog.filled.items() if v},
                               "markers": ["community" if m == COMMUNITY else names[m] for m in prog.markers]}
    if len(state.events) > 1:
        event = list(state.events)
    else:
        event = state.events[0] if state.events else None
    return {
        "meaning": state.meaning, "world_layer": state.world_layer, "round": state.round,
        "phase": state.phase, "turn": None if over else names[state.decider],
        "actions_left": state.actions_left, "over": over, "ending": state.ending,
        "winners": winners(state) if over else [], "completed": list(state.completed),
        "prism": [n for n in state.prism if n is not None],
        "index": [n for n in state.index if n is not None],
        "end_initiative": state.end, "event": event, "consequence_code": state.code,
        "world_reading": world.title if world else None,
        "community": state.community, "contributions": contributions, "restricted": list(state.restricted),
        "shows_layer": {layer: any(p.layers[layer] for p in state.players)
                        for layer in range(1, len(state.players[0].layers))},
        "decks": {"patterns": len(state.pattern_deck), "initiatives": len(state.init_deck),
                  "events": len(state.event_deck)},
        "players": players,
    }


def scenario_force(state: MMState, expect: dict) -> None:
    """Set the values named in ``expect`` (report mode: the text's claim wins, so
    one divergence is reported once)."""
    own_piles(state)  # completing by hand edits piles that clones share
    for key in ("meaning", "world_layer", "round"):
        if key in expect and isinstance(expect[key], int):
            setattr(state, key, expect[key])
    if "prism" in expect and isinstance(expect["prism"], list):
        try:
            names = [_pattern(state, t) for t in expect["prism"]]
            state.prism = names + [None] * max(0, len(state.prism) - len(names))
        except ScenarioError:
            pass
    if "index" in expect and isinstance(expect["index"], list):
        try:
            names = [_initiative(state, t) for t in expect["index"]]
            state.index = names + [None] * max(0, len(state.index) - len(names))
        except ScenarioError:
            pass
    if isinstance(expect.get("completed"), list):
        _force_completed(state, expect["completed"])
    for text, prog in (expect.get("contributions") or {}).items():
        try:
            name = _initiative(state, text)
        except ScenarioError:
            continue
        if name in state.face_up_initiatives() and isinstance((prog or {}).get("filled"), dict):
            entry = progress_of(state, name)
            for kind in ("E", "I", "S", "V"):
                entry.filled[kind] = min(int(prog["filled"].get(kind, 0)), state.rules.boxes[name][kind])
    if expect.get("over") is True or isinstance(expect.get("ending"), str):
        from .flow import finish
        finish(state, expect.get("ending") if isinstance(expect.get("ending"), str) else "survived")
    for who, values in (expect.get("players") or {}).items():
        try:
            seat = _seat(state, who)
        except ScenarioError:
            continue
        p = state.players[seat]
        for key in ("E", "I", "S", "vitals", "legacy", "markers"):
            if isinstance((values or {}).get(key), int):
                setattr(p, key, max(0, values[key]))
        if "palette" in (values or {}):
            try:
                _set_palette(p, [_pattern(state, t) for t in values["palette"]], state.cards)
            except ScenarioError:
                pass
        if isinstance((values or {}).get("fragile"), bool):
            p.fragile = values["fragile"]
        elif "vitals" in (values or {}):
            p.fragile = p.vitals == 0


def _force_completed(state: MMState, wanted) -> None:
    """Make the completed list what the text claims: a claimed card still face up
    leaves its slot (which refills; the End Initiative's slot stays empty and the
    game ends as a success). Markers on it go home."""
    for text in wanted:
        try:
            name = _initiative(state, text)
        except ScenarioError:
            continue
        if name in state.completed:
            continue
        prog = state.progress.pop(name, None)
        if prog is not None:
            for who in prog.markers:
                if who == COMMUNITY:
                    state.community += 1
                else:
                    state.players[who].markers += 1
        state.completed.append(name)
        if state.cards.initiatives[name].layer > state.world_layer:
            state.world_layer = state.cards.initiatives[name].layer
        if name == state.end:
            state.end = None
            from .flow import finish
            finish(state, "survived")
        elif name in state.index:
            from .setup import refill_index_slot
            refill_index_slot(state, state.index.index(name))
        else:
            for pile in (state.init_deck, state.init_discard):
                if name in pile:
                    pile.remove(name)


def scenario_skip(state: MMState, action_text: str) -> None:
    """Report mode: a refused step uses up the decision it was meant to be, but
    only when it belongs to the decision now open (a refused donation when the
    window is closed does not eat someone's turn action)."""
    from . import notation as N
    from .flow import action_done, next_donor
    from .stability_window import donation
    from .state import PHASE_STABILITY, PHASE_TOUCHPOINT, PHASE_TURNS
    verb = action_text.strip().split()[0].lower() if action_text.strip() else ""
    if state.phase == PHASE_STABILITY and verb in ("donate", "pass"):
        donation(state, False)
        next_donor(state)
    elif state.phase == PHASE_TOUCHPOINT and verb in ("accept", "decline"):
        state.apply_action(N.DECLINE)
    elif state.phase == PHASE_TURNS and verb in ("gather", "load", "contribute", "touchpoint", "recycle"):
        state.actions_left -= 1
        action_done(state)
