"""Variants and options: turns a :class:`GameConfig` into the resolved rule
parameters (:class:`Rules`) every other module reads.

Each variant of the rulebook is a switch in ``config.variants``; each ruling
alternative and each variant's optional part is a key in ``config.options``
(defaults below). Unknown variants or options, or bad values, are refused with
one clear line that suggests the nearest name.
"""

from __future__ import annotations

from typing import Any

from workbench.core.errors import WorkbenchError, suggest

VARIANTS = {
    "faster-game": "Meaning starts at 6 (option two_initiatives: the Index has 2 slots)",
    "hard-mode": "each Event costs 1 extra Meaning (option hard_pattern_token: +1 token per Pattern)",
    "cooperative": "Legacy decides nothing: everyone wins if the End Initiative completes, else nobody",
    "competitive": "collapse is ignored; the game lasts a fixed number of rounds (option rounds)",
    "long-game": "2 extra Index slots; the End Initiative needs 2 more tokens (option long_game_tokens)",
    "high-instability": "Meaning starts at 4; 2 Events are revealed each round",
    "limited-recycle": "Recycle at most once per round",
    "pattern-fatigue": "from a player's 11th Pattern on, each Pattern needs 1 extra token",
    "social-requirement": "while Meaning is 3 or lower, Touchpoint gives no Vitals",
}

#: option -> (default, allowed values or a type, one-line description)
OPTIONS = {
    "round_limit": (None, int, "rounds after which the game ends with 'timeout' (default from settings.yaml)"),
    "difficulty": ("standard", ("easy", "standard", "hard"), "solo starting values"),
    "end_initiative": (None, str, "the Initiative in the End Initiative slot (default Stewardship)"),
    "contributors": ("scaled", ("scaled", "printed"), "contributor counts scale to min(N, players), or as printed"),
    "conversion": (True, bool, "the optional 2 Energy -> 1 Support conversion"),
    "events": ("table", ("table", "scripted"), "Events resolve from the table, or by scenario 'event' steps"),
    "rounds": (None, int, "Competitive variant: rounds played (default from settings.yaml)"),
    "two_initiatives": (False, bool, "Faster Game's optional part: only 2 Index slots"),
    "hard_pattern_token": (False, bool, "Hard Mode's optional part: +1 token per Pattern"),
    "long_game_tokens": ("E I", str, "Long Game: the End Initiative's extra tokens"),
    "recycle_marker_only": ("started", ("started", "unstarted"),
                            "an Initiative holding only markers counts as started, or may be recycled"),
    "prerequisites": ("completion", ("completion", "contribution"),
                      "'requires completed Layer N' gates completing, or already contributing"),
    "solo_end_slot": (False, bool, "solo: the Community may also land on the End Initiative"),
    "limited_recycle_scope": ("player", ("player", "table"), "Limited Recycle: once per round per player or per table"),
    "first_player": (None, str, "name of the starting player (default: the first seat)"),
    "first_player_rotates": (False, bool, "the first player passes clockwise each round"),
    "fragile_table": ("individual", ("individual", "group"), "the table a Vitals-at-0 Consequence uses"),
    "fragile_repeat": (False, bool, "a Fragile player who loses Vitals again resolves another Consequence"),
    "touchpoint_limit": ("initiator", ("initiator", "both"),
                         "once-per-round Touchpoint counts for the player who starts it, or for both players"),
    "conversion_action": (False, bool, "the 2 Energy -> 1 Support conversion uses one of the two actions"),
    "marker_only": ("layers_or_contributors", ("layers_or_contributors", "layers"),
                    "a marker-only contribution may supply a missing Layer or a missing contributor, or only a Layer"),
    "bare_marker": (False, bool, "a first contribution may place a marker with no tokens at any time"),
    "solo_community": ("rightmost", ("rightmost", "next_left"),
                       "Community already on the rightmost eligible card: no placement, or the next one to the left"),
    "cooperative_legacy": ("recorded", ("recorded", "none"),
                           "Cooperative: Legacy is still recorded for the readings, or not gained at all"),
    "initiative_refill": ("reshuffle", ("reshuffle", "empty"),
                          "after a completion an empty Initiative deck is refilled from the discard, or the space stays empty"),
    "chain_player": ("first_contributor", ("first_contributor", "actor"),
                     "a card completed in a chain: its bonus/penalty's single player is its first contributor, "
                     "or the acting player"),
    "start_meaning": ("variant", ("variant", "lowest"),
                      "starting Meaning when several settings give one: the variant's, or the lowest"),
}


def _check_option(key, value, spec):
    default, allowed, _ = spec
    if isinstance(allowed, tuple):
        if value not in allowed:
            raise WorkbenchError(f"option {key}={value!r}: choose one of {', '.join(map(str, allowed))}")
        return value
    if allowed is bool:
        if not isinstance(value, bool):
            raise WorkbenchError(f"option {key}={value!r}: write true or false")
        return value
    if allowed is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise WorkbenchError(f"option {key}={value!r}: write a positive whole number")
        return value
    if not isinstance(value, str):
        raise WorkbenchError(f"option {key}={value!r}: write a name")
    return value


def _counted(layers) -> tuple[tuple[int, int], ...]:
    counts: dict[int, int] = {}
    for layer in layers:
        counts[layer] = counts.get(layer, 0) + 1
    return tuple(sorted(counts.items()))


class Rules:
    """The rule parameters of one game, resolved once from config and settings."""

    # The types the rules modules read these as (the compiled build trusts them;
    # see .native). Scalars read from the card files stay untyped.
    options: dict[str, Any]
    variants: frozenset[str]
    num_players: int
    solo: bool
    limited_recycle: bool
    cooperative: bool
    competitive: bool
    order_rewards: list[int]
    boxes: dict[str, dict[str, int]]
    box_tuple: dict[str, tuple[int, int, int, int]]
    needed: dict[str, int]
    icon_need: dict[str, tuple[tuple[int, int], ...]]
    layer_need: dict[str, tuple[tuple[int, int], ...]]
    completed_need: dict[str, tuple[tuple[int, int], ...]]
    pattern_cost: dict[str, tuple[int, int, int, int]]
    order_spaces: dict[str, int]
    load_actions: dict[str, Any]
    contribute_actions: dict[str, tuple[Any, ...]]
    touchpoint_actions: list[list[tuple[Any, Any]]]
    touchpoint_cache: dict[tuple, list]
    seat_by_name: dict[str, int]
    bonus_rest: dict[str, Any]
    made_from: tuple[Any, Any]

    def __init__(self, config, cards):
        self.made_from = (config, cards)  # what pickling rebuilds it from (__reduce__)
        s = cards.settings
        n = len(config.players)
        if not 1 <= n <= 6:
            raise WorkbenchError(f"Meaning Made is for 1 to 6 players, not {n}")
        lowered = [p.lower() for p in config.players]
        if len(set(lowered)) != n:
            raise WorkbenchError("player names must be different")
        for v in config.variants:
            if v not in VARIANTS:
                raise WorkbenchError(f"unknown variant {v!r}{suggest(v, VARIANTS)}; "
                                     f"choose from {', '.join(VARIANTS)}")
        if {"cooperative", "competitive"} <= set(config.variants):
            raise WorkbenchError("variants cooperative and competitive contradict each other (a shared win or loss "
                                 "against a fixed-length race for one winner); choose one")
        opts = {}
        for key, value in dict(config.options).items():
            if key not in OPTIONS:
                raise WorkbenchError(f"unknown option {key!r}{suggest(key, OPTIONS)}")
            opts[key] = _check_option(key, value, OPTIONS[key])
        for key, spec in OPTIONS.items():
            opts.setdefault(key, spec[0])
        self.options = opts
        self.variants = frozenset(config.variants)
        var = s.variants
        has = self.variants.__contains__
        self.num_players = n
        self.solo = n == 1
        # starting values (solo difficulty first, then variants that set Meaning)
        level = s.solo.get(opts["difficulty"], {}) if self.solo else {}
        self.start_tokens = {k: level.get(k, getattr(s.tokens, k)) for k in ("E", "I", "S")}
        self.start_vitals = level.get("vitals", s.vitals)
        # Ruling variant-start-meaning: a variant's starting Meaning replaces the solo
        # difficulty's, and High Instability's replaces Faster Game's; the option
        # start_meaning=lowest takes the lowest of all that apply instead.
        starts = [level.get("meaning", s.meaning)]
        if has("faster-game"):
            starts.append(var["faster-game"]["meaning"])
        if has("high-instability"):
            starts.append(var["high-instability"]["meaning"])
        self.start_meaning = min(starts) if opts["start_meaning"] == "lowest" else starts[-1]
        self.start_legacy = s.legacy
        self.markers = s.markers
        self.community_markers = s.community_markers if self.solo else 0
        self.prism_size = s.prism_size
        self.index_size = s.index_size
        if has("faster-game") and opts["two_initiatives"]:
            self.index_size = var["faster-game"]["index_size_optional"]
        if has("long-game"):
            self.index_size += var["long-game"]["extra_index"]
        self.order_rewards = list(s.order_rewards)
        self.other_reward = s.other_reward
        self.stability_cap = s.stability_cap
        self.meaning_max = s.tracks["meaning"][1]
        self.vitals_max = s.tracks["vitals"][1]
        self.legacy_max = s.tracks["legacy"][1]
        self.layer_max = s.tracks["world_layer"][1]
        self.events_per_round = var["high-instability"]["events_per_round"] if has("high-instability") else 1
        self.event_extra_meaning = var["hard-mode"]["event_extra_meaning"] if has("hard-mode") else 0
        self.pattern_extra = (var["hard-mode"]["pattern_extra_tokens_optional"]
                              if has("hard-mode") and opts["hard_pattern_token"] else 0)
        self.fatigue_free = var["pattern-fatigue"]["free_patterns"] if has("pattern-fatigue") else None
        self.fatigue_extra = var["pattern-fatigue"]["extra_tokens"] if has("pattern-fatigue") else 0
        self.social_meaning = var["social-requirement"]["meaning_at_most"] if has("social-requirement") else None
        self.limited_recycle = has("limited-recycle")
        self.cooperative = has("cooperative")
        self.competitive = has("competitive")
        self.rounds = opts["rounds"] or s.competitive_rounds
        self.round_limit = opts["round_limit"] or s.round_limit
        self.conversion = opts["conversion"]
        self.scripted_events = opts["events"] == "scripted"
        end = opts["end_initiative"] or s.end_initiative
        name = cards.initiative_name(end)
        if name is None:
            raise WorkbenchError(f"no Initiative named {end!r}{suggest(end, cards.initiatives)}")
        self.end_initiative = name
        # effective token boxes and contributor counts of every Initiative
        self.boxes: dict[str, dict[str, int]] = {}
        self.needed: dict[str, int] = {}
        extra = self._long_game_tokens(opts["long_game_tokens"]) if has("long-game") else {}
        for iname, card in cards.initiatives.items():
            boxes = {k: card.requirement.tokens.get(k, 0) for k in ("E", "I", "S", "V")}
            if iname == name:
                for k, v in extra.items():
                    boxes[k] += v
            self.boxes[iname] = boxes
            need = card.requirement.contributors
            self.needed[iname] = min(need, n) if opts["contributors"] == "scaled" else need
        # Layer icons per card as ((layer, count), ...), for quick requirement checks
        self.icon_need = {n: _counted(c.requirement.layers) for n, c in cards.patterns.items()}
        self.layer_need = {n: _counted(c.requirement.layers) for n, c in cards.initiatives.items()}
        self.completed_need = {n: _counted(c.requirement.completed) for n, c in cards.initiatives.items()}
        self.box_tuple = {n: (b["E"], b["I"], b["S"], b["V"]) for n, b in self.boxes.items()}
        self.pattern_cost = {n: (c.requirement.tokens.E, c.requirement.tokens.I, c.requirement.tokens.S,
                                 c.requirement.vitals) for n, c in cards.patterns.items()}
        self.order_spaces = {n: c.order_spaces for n, c in cards.initiatives.items()}
        # every action object the listing can offer, built once (frozen dataclasses are slow to make)
        from . import notation as N
        self.load_actions = {n: N.Load(n) for n in cards.patterns}
        self.contribute_actions = {n: (N.Contribute(n),) + tuple(N.Contribute(n, t) for t in
                                                                  ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)))
                                   for n in cards.initiatives}
        self.touchpoint_actions = [[(N.Touchpoint("give", k, config.players[o]), N.Touchpoint("request", k, config.players[o]))
                                    for k in ("E", "I", "S")] for o in range(n)]
        self.touchpoint_cache: dict = {}  # see actions.touchpoint_options
        self.seat_by_name = {p: i for i, p in enumerate(lowered)}
        # a Pattern Bonus's effects beyond tokens and Vitals (Meaning, Legacy, token
        # loss, a restriction), applied after them; None when it has none
        self.bonus_rest = {}
        for pname, card in cards.patterns.items():
            b = card.bonus
            self.bonus_rest[pname] = (b.model_copy(update={"E": 0, "I": 0, "S": 0, "vitals": 0})
                                      if b is not None and (b.meaning or b.legacy or b.lose_tokens or b.restrict)
                                      else None)
        self.first_player = 0
        if opts["first_player"] is not None:
            if opts["first_player"].lower() not in lowered:
                raise WorkbenchError(f"option first_player: no player named {opts['first_player']!r}"
                                     f"{suggest(opts['first_player'], config.players)}")
            self.first_player = lowered.index(opts["first_player"].lower())

    def __reduce__(self):
        # rebuilt from its sources: a compiled Rules (.native) cannot be made empty
        return Rules, self.made_from

    @staticmethod
    def _long_game_tokens(text: str) -> dict[str, int]:
        from .notation import parse_tokens
        counts = parse_tokens(text, allowed="EIS")
        return {k: v for k, v in zip("EISV", counts) if v}
