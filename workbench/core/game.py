"""The game protocol every bundled game implements.

Modelled on OpenSpiel's State API and python-chess: a :class:`Game` makes
:class:`State` objects; a state lists its legal actions, applies one in place
(or refuses it and stays unchanged), clones cheaply, and knows when it is over.
Actions are small immutable objects whose ``str()`` is the game's text notation;
``Game.parse_action`` turns that text back into the same object, so logs,
scenarios, the dashboard and the API all speak one notation.

All randomness comes from ``state.rng`` (one :class:`~workbench.core.rng.Rng`
per game), so a seed and a list of actions always rebuild the same game.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from .errors import IllegalAction, NotationError, WorkbenchError
from .rng import Rng

TERMINAL = -1
"""``current_player()`` of a finished game."""


@dataclass(frozen=True)
class GameConfig:
    """What a new game is made from: seat names, the seed, variants, options.

    ``options`` holds game-specific switches (ruling alternatives, round limits,
    difficulty...); each game documents and validates its own."""

    players: tuple[str, ...]
    seed: int = 0
    variants: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "variants", tuple(self.variants))
        object.__setattr__(self, "options", dict(self.options))

    def to_dict(self) -> dict:
        return {"players": list(self.players), "seed": self.seed,
                "variants": list(self.variants), "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping) -> "GameConfig":
        return cls(players=tuple(data["players"]), seed=int(data.get("seed", 0)),
                   variants=tuple(data.get("variants", ())), options=dict(data.get("options", {})))


@dataclass
class GameResult:
    """How a finished (or abandoned) game came out.

    ``ending`` names how it ended (``survived``, ``collapsed``, ``timeout``, a World
    Ending...). ``winners`` may be empty (everyone lost) or hold several names."""

    scores: dict[str, float]
    winners: list[str]
    ending: str
    turns: int
    details: dict = field(default_factory=dict)


class State(abc.ABC):
    """One position of a game. Subclasses hold plain data only."""

    rng: Rng
    config: GameConfig

    @abc.abstractmethod
    def current_player(self) -> int:
        """Seat index of whoever must decide now, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> list:
        """Every action the current decision maker may take, in a stable order."""

    def legal_action_count(self) -> int:
        """``len(self.legal_actions())``; a game may count without listing."""
        return len(self.legal_actions())

    def legal_action(self, index: int):
        """``self.legal_actions()[index]``; a game may build just that one action."""
        return self.legal_actions()[index]

    def sample_legal_action(self, rng) -> tuple:
        """``(action, count)``: the action a uniformly random player takes, with
        the number of legal actions. Draws exactly what ``rng.choice(legal_actions())``
        draws (one ``randbelow(count)``) and picks the same action, so a game that
        overrides this to skip building the whole list plays the same games."""
        legal = self.legal_actions()
        k = len(legal)
        if not k:
            raise IndexError("no legal action to sample")
        return legal[rng.randbelow(k)], k

    @abc.abstractmethod
    def apply_action(self, action) -> None:
        """Apply ``action`` in place. Raises :class:`IllegalAction` (saying why)
        and leaves the state unchanged if the rules forbid it."""

    @abc.abstractmethod
    def clone(self) -> "State":
        """An independent copy (its rng included)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True once the game has ended."""

    def player_name(self, seat: int) -> str:
        return self.config.players[seat]

    @property
    def num_players(self) -> int:
        return len(self.config.players)


@dataclass(frozen=True)
class Option:
    """One game option (a ``GameConfig.options`` key): its default, what it may
    be and what it does. ``allowed`` is a tuple of the allowed values, a type
    (any value of that type) or None (anything)."""

    default: Any
    allowed: tuple | type | None
    doc: str

    def choices(self) -> tuple | None:
        """The allowed values when they are a closed list (for a selector)."""
        if isinstance(self.allowed, tuple):
            return self.allowed
        if self.allowed is bool:
            return (False, True)
        return None


def options_from_tuples(table: Mapping[str, tuple]) -> dict[str, Option]:
    """``{name: (default, allowed, doc)}`` (a game's ``OPTIONS`` table) as
    :class:`Option` objects."""
    return {name: Option(*spec) for name, spec in table.items()}


class Game(abc.ABC):
    """A game's rules as a factory of states plus notation and scoring.

    This class is the whole contract: everything a game may provide is declared
    here with a default, so callers use the attribute or method directly and a
    game overrides only what it has. Required: ``id``, ``name``,
    ``min_players``, ``max_players``, :meth:`new_initial_state`,
    :meth:`parse_action` and :meth:`result`. A game with card data takes an
    injected pool (``Game(cards=...)``) and reads it through :meth:`cards`.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    #: seats of a game started without a player count (defaults to ``min_players``)
    default_players: int | None = None
    #: variant id -> one-line description
    variants: Mapping[str, str] = {}
    #: option name -> :class:`Option` (default, allowed values, doc)
    options: Mapping[str, Option] = {}
    #: the game's rules version (bumped when play changes for the same seed)
    version: str = "1"
    #: rounds a game should last (lo, hi), for the Duration metric; None: not set
    ideal_rounds: tuple[int, int] | None = None
    #: what the Completion metric (games that ended with a winner) means at this
    #: table, as pages name it: "survival rate" where the table falls together
    completion_label: str = "games with a winner"
    #: the whole table can lose together (a cooperative game: a lost game has no
    #: winner), so pages lead with the completion rate under ``completion_label``
    #: before any seat's win rate; declared, never inferred from games played
    group_fate: bool = False
    #: the class of the card pool :meth:`cards` returns (None: no card data)
    card_pool_type: ClassVar[type | None] = None
    #: how the core loader reads the pool (:class:`workbench.core.cards.PoolSpec`)
    pool_spec: ClassVar[Any] = None
    #: set on a game registered for this session with an edited pool
    #: (:func:`workbench.core.registry.register_session_game`); saved games name it
    session_id: str | None = None
    #: what the asymmetric role each seat plays is called at this table
    #: ("faction"); None for a game whose seats play no roles (see :meth:`player_role`)
    role_label: str | None = None
    #: feature name -> default weight of :meth:`evaluate` (empty: not weighted)
    default_weights: Mapping[str, float] = {}
    #: the file values behind an injected pool, when known (file name -> parsed
    #: values; a Cards page session sets them): a playtest room keeps them so a
    #: game resumes on its own pool (:mod:`workbench.rooms.pools`)
    pool_files: Any = None
    #: the injected pool (None: the card folder's); a class default, so a
    #: subclass whose ``__init__`` skips ours still reads the folder
    _cards: Any = None

    # -- capabilities (issue 26): what the game offers the pages and commands.
    # Each is declared here with its default ("not offered"); the registry answers
    # "which games provide X" from them (:func:`workbench.core.registry.providing`)
    # and no page or command names a game. A part of the game is registered as a
    # :class:`Part` object, ``part(".module")`` or ``part(".module", "attribute")``
    # relative to the game's package, imported only when used, so declaring a
    # capability costs nothing at start-up (a "package.module:attribute" string is
    # still read). See docs/reference/game-contract.md.
    #: where the game stands in the lists pages offer (lower first, then the
    #: order plugins are found); the first game listed is the one pages open on
    listing_order: ClassVar[int] = 100
    #: the bundled card folder (None: ``cards/<id with underscores>`` of the
    #: workbench checkout or wheel); a plugin game points at its own folder
    card_folder: ClassVar[Any] = None
    #: module of the card graph: ``CATALOGUE`` (editable kinds and columns),
    #: ``build_graph(pool)``, ``analyses(pool, graph)``; None with card data and
    #: :attr:`card_fields` set: the generic graph (:mod:`workbench.graphs.generic`)
    card_graph: ClassVar[Part | str | None] = None
    #: what the generic card graph reads where the game writes no graph module:
    #: a :class:`workbench.graphs.generic.CardFields` (kinds, cost and reward fields)
    card_fields: ClassVar[Any] = None
    #: the live-tweak session class behind the Cards page ("module:Class");
    #: None: :class:`workbench.tweak.pool_session.PoolTweakSession` over the card graph
    tweak_session: ClassVar[Part | str | None] = None
    #: the Play page's table drawer, "module:function" taking (game, state) and
    #: returning a Panel object; None: the generic drawing of ``observe(state)``
    table_drawer: ClassVar[Part | str | None] = None
    #: "module:function(game, table, active, config)" returning the HTML of one seat's
    #: view of the table (its observation's ``table``), for the playtest seat page and the
    #: Play page alike (workbench.tabletop.view_html); None: a generic layout
    view_drawer: ClassVar[Part | str | None] = None
    #: how a game ended (``GameResult.ending``) -> one sentence in the game's words,
    #: for the end-of-game screen of a playtest seat
    ending_words: ClassVar[Mapping[str, str]] = {}
    #: move kind (the notation's first word) -> one line telling a player what the
    #: move does, from the rules' clauses (the seat page's help beside its buttons)
    move_help: ClassVar[Mapping[str, str]] = {}
    #: module of a board (``document(state)``, ``analyses(state)``,
    #: ``tables(state)``, ``caption(state)``, ``figure(state, title)``) for
    #: ``workbench board``, ``workbench graph`` without a card graph and the Board page
    board: ClassVar[Part | str | None] = None
    #: module of the printed cards: ``cards(words) -> {kind: [card dict]}``,
    #: optionally ``tts_table(deck, seats, seed)`` (the Tabletop Simulator
    #: export's table); templates live in the card folder's ``print/``
    print_cards: ClassVar[Part | str | None] = None
    #: the balance search's defaults for this game (a dict: ``targets``, ``vary``,
    #: ``trials``, ``games_per_trial``, ``fresh_games``, optional ``players``);
    #: None: the game is not offered to ``workbench balance`` and the Balance page
    balance: ClassVar[Mapping[str, Any] | None] = None
    #: languages the rulebook is written in (``rules/<lang>.md`` of the card
    #: folder), the source language first; empty: no rulebook
    rulebook_languages: ClassVar[tuple[str, ...]] = ()
    #: ``workbench bench``: a vary pattern the paired-playtest figure edits, and
    #: the greedy games per second the figure aims at (None: no target)
    bench_edit: ClassVar[str | None] = None
    bench_greedy_target: ClassVar[float | None] = None
    #: the cards a new player learns first: which card kind the Cards page opens on
    #: (None: the catalogue's first)
    first_card_kind: ClassVar[str | None] = None
    #: the modules of the game's package that hold its rules, which ``workbench check
    #: --mutants`` plants mutants in (names relative to the package); None: the modules its
    #: ``compiled.txt`` lists, less ``evaluation`` (a bot's judgement, not a rule)
    rules_modules: ClassVar[tuple[str, ...] | None] = None

    # -- cards a designer adds, duplicates and deletes (issue 26; the Cards page,
    # workbench.tweak.card_ops) ---------------------------------------------------
    #: card kind (a kind of the card catalogue) -> the card a new one starts as
    #: (every field the loader needs, ``provenance: draft``; its name is made
    #: unique). Only these kinds can be added, duplicated and deleted; every
    #: other card can be edited. Default: none (the Cards page offers no add).
    card_blanks: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    def provides(self, capability: str) -> bool:
        """Whether this game offers ``capability`` (one of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise WorkbenchError(f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}")
        return CAPABILITIES[capability](self)

    # -- terms of observed values (issue 24: one icon per term) ----------------
    #: observation key -> path of its term in ``cards/<game>/terms/<lang>.yaml``
    #: (``{"E": "tokens.energy"}``). Pages label such a value with the term's icon and
    #: word (``workbench.rules.term_icons``), the same icon the printed cards and the
    #: rulebook show. Default: none, and a page shows the bare key.
    observation_terms: Mapping[str, str] = {}
    #: the rulebook's own words for a generic concept of the translation review and its
    #: planted-mistake measure (:mod:`workbench.rules.meaning`, :mod:`workbench.rules.planting`):
    #: concept -> language -> words as the rulebook writes them, e.g. a named stretch of
    #: several rounds, ``{"time.span": {"en": ("Chapter",), "hu": ("Fejezet",)}}``. The
    #: review's language lexicons name no game's words; each game adds its own here.
    #: Concepts a game may name: :data:`RULES_CONCEPTS`. Default: none
    rules_words: ClassVar[Mapping[str, Mapping[str, tuple[str, ...]]]] = {}

    # -- verdicts of a paired comparison (issue 25; workbench.sim.verdicts) ------
    #: metric keys (workbench.sim.metrics) that lead this game's verdict, most
    #: telling first; ``workbench compare``, the Cards page and Sweeps show them
    #: first and stop a paired playtest once every one is decided. An edit of a
    #: card adds that card's own metrics (``card_times:NAME``...) after them
    leading_metrics: tuple[str, ...] = ("completion", "duration_rounds", "score_spread")
    #: metric key -> equivalence margin: a difference whose interval lies inside
    #: ``[-m, m]`` is "no meaningful change" (the designer overrides it with
    #: ``--margin KEY=M``); a key left out takes the metric's own default
    equivalence_margins: Mapping[str, float] = {}
    #: metric key -> +1 (higher is better for this game), -1 (lower is better);
    #: a metric with no declared goal reports "higher"/"lower" instead of
    #: "better"/"worse" (the metric's own ``goal`` applies when left out)
    metric_goals: Mapping[str, int] = {}
    #: for a game the table can lose together: the value of the shared track at
    #: which the group has fallen (e.g. 0), and the value at or
    #: below which it is in danger (e.g. 2). None: no shared track
    group_track_collapse: float | None = None
    group_track_danger: float | None = None
    #: rounds (``turn_count``) after a card's first take over which a paired
    #: comparison reads what its taker gained (``card_taker_soon``): long
    #: enough for what the card gives to be spent, short enough that the
    #: rest of the game has not yet added its spread (our draft: 2 rounds)
    taker_horizon: int = 2
    #: whether taking a card can change a score at once (a card that pays
    #: points when taken): then a comparison also reads what the take itself
    #: gave its taker (``card_taker_take``); False where every take scores
    #: only later (the reading would be 0 in every game, saying nothing)
    take_scores: bool = False

    def scoring_take(self, state: State, action) -> bool:
        """Whether ``action``, which takes a card (:meth:`action_cards`), is a
        take that can score at once: the take ``card_taker_take`` reads is a
        card's first such. Every take by default; a game whose cards give
        their points only one way (a card's effects when it is brought to
        market, not when it is backed) names that way."""
        return True

    def take_settled(self, state: State) -> bool:
        """Whether what the last take gave has been given in ``state``, for
        ``card_taker_take``'s look after it: at once by default; a game whose
        effects wait on its players' choices says when none is pending."""
        return True

    # -- action kinds counted per game (issue 25; metrics.ActionUsage) ---------
    #: action kind -> the games-table column counting how often it was chosen
    #: in a game (e.g. ``{"Research": "n_researches", ...}``), for
    #: the share of choices by action kind. The column is the game's own
    #: ``game_stats`` count, or, for a game that defines :meth:`action_kind`,
    #: the runner's tally of the actions it names. Empty: the game names its
    #: kinds another way (``action_kinds`` that are card names, or a game's
    #: own action cards) or not at all
    action_kind_counts: Mapping[str, str] = {}
    #: kinds of move (``Game.action_kind``, else the notation's first word) that
    #: let a seat wait without doing anything ("pass"): ``workbench hunt`` seats a
    #: whole table on each to see whether a stalling table can keep a game from
    #: ending. Empty: the game declares none
    passing_kinds: tuple[str, ...] = ()

    def group_track(self, state: State) -> float | None:
        """The shared track the whole table survives or falls by (a cooperative
        game's common score), read once per round by batch simulation for the margin
        metrics (lowest value reached, rounds in danger, near-collapse); None
        for a game without one (the default: the runner then reads nothing)."""
        return None

    def __init__(self, cards: Any = None) -> None:
        """``cards``: an in-memory card pool (e.g. a designer's edited copy) that
        every new game plays with; None reads the game's card folder (reloaded
        when a file changes)."""
        self._cards = cards

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("default_players") is None and "min_players" in cls.__dict__:
            cls.default_players = cls.min_players
        # a part named relative to the game's package (``part(".tabletop", "draw")``)
        # is bound to that package here, where the class says which one it is
        for name in PARTS:
            ref = cls.__dict__.get(name)
            if isinstance(ref, Part) and ref.module.startswith("."):
                setattr(cls, name, ref.bound(cls.__module__.rpartition(".")[0]))

    # -- card data -------------------------------------------------------------
    def cards(self) -> Any:
        """The card pool new games use: the injected one, else the files on disk."""
        return self._cards if self._cards is not None else self.load_cards()

    def load_cards(self, folder=None) -> Any:
        """The pool read from ``folder`` (default: the game's card folder),
        validated; cached until a file changes. None for a game without data."""
        if self.pool_spec is None:
            return None
        return self.pool_spec.read(folder)

    @property
    def ref(self) -> str:
        """The id that finds this very game again in the registry: the session
        id of a game bound to an edited pool, else the game id."""
        return self.session_id or self.id

    def with_cards(self, cards: Any) -> "Game":
        """A game of the same rules bound to ``cards``."""
        return type(self)(cards=cards)

    @property
    def has_injected_cards(self) -> bool:
        return self._cards is not None

    # -- making states -------------------------------------------------
    @abc.abstractmethod
    def new_initial_state(self, config: GameConfig) -> State:
        """A fresh game set up from ``config`` (validates players and variants)."""

    def config(self, players: int | Sequence[str] = 4, seed: int = 0,
               variants: Iterable[str] = (), **options) -> GameConfig:
        """Convenience: a :class:`GameConfig` with default seat names. A player
        count outside the game's range is refused here, before a name is made."""
        low, high = getattr(self, "min_players", 1), getattr(self, "max_players", 1)
        if isinstance(players, bool) or (isinstance(players, int) and not low <= players <= high):
            raise WorkbenchError(f"{getattr(self, 'name', 'this game')} is for {low} to {high} players, "
                                 f"not {players!r}")
        names = default_names(players) if isinstance(players, int) else tuple(players)
        return GameConfig(players=names, seed=seed, variants=tuple(variants), options=options)

    # -- notation --------------------------------------------------------
    @abc.abstractmethod
    def parse_action(self, state: State, text: str):
        """Parse ``text`` in the game's notation for ``state``; raises
        :class:`NotationError` with a suggestion for misspelt names."""

    def format_action(self, state: State, action) -> str:
        return str(action)

    def coerce_action(self, state: State, action):
        """Accept an action object or its text."""
        return self.parse_action(state, action) if isinstance(action, str) else action

    def apply(self, state: State, action) -> State:
        """Pure reducer: a new state after ``action``; ``state`` is untouched."""
        nxt = state.clone()
        nxt.apply_action(self.coerce_action(state, action))
        return nxt

    # -- outcome -------------------------------------------------------------
    @abc.abstractmethod
    def result(self, state: State) -> GameResult:
        """Scores, winners, ending and turns of a finished game (or the current
        standing of an unfinished one, ending ``unfinished``)."""

    def evaluate(self, state: State, seat: int, weights: Mapping[str, float] | None = None) -> float:
        """Heuristic value of ``state`` for ``seat`` (higher is better), used by
        greedy bots and by the Drama/Lead-change metrics. ``weights`` are a
        designer's setting; each game documents its features and defaults."""
        return 0.0

    def action_values(self, state: State, seat: int, actions, weights: Mapping[str, float] | None = None) -> list[float]:
        """``evaluate`` of the position each action leads to, for ``seat``, in the
        order given (what the greedy bot compares). A game may override this to
        skip look-aheads it knows give equal values; the result must be the same."""
        out = []
        for action in actions:
            nxt = state.clone()
            nxt.apply_action(action)
            out.append(self.evaluate(nxt, seat, weights))
        return out

    def features(self, state: State, seat: int) -> dict[str, float]:
        """The named numbers :meth:`evaluate` weighs for ``seat`` (the keys of
        :attr:`default_weights`); empty for a game that does not expose them."""
        return {}

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        """A copy of ``state`` in which what ``seat`` cannot see (deck orders, the
        future random stream) is re-drawn from ``rng``; used by search bots. The
        default hides nothing: a plain clone that leaves ``rng`` untouched."""
        return state.clone()

    def turn_count(self, state: State) -> int:
        """Rounds (or cycles) played so far."""
        return self.result(state).turns

    # -- names a bot spec may use (checked before a game starts) --
    def card_names(self) -> frozenset[str] | None:
        """Every card name :meth:`action_cards` can return, so ``ban:X``/``force:X``
        can refuse a misspelt X; None when the game names no cards."""
        return None

    def weight_names(self) -> frozenset[str] | None:
        """The greedy-weight names :meth:`evaluate` reads; None when unchecked."""
        return None

    # -- statistics hooks (used by batch simulation and restricted-play bots) --
    def action_cards(self, state: State, action) -> tuple[str, ...]:
        """Names of the cards ``action`` takes, loads or plays in ``state`` (empty
        for actions that involve no card). Restricted-play bots ban or force a
        card through this, and card-use statistics count it."""
        return ()

    def action_kind(self, state: State, action) -> str | None:
        """The kind of ``action`` (a key of :attr:`action_kind_counts`), for a
        game whose state does not count its kinds itself: batch simulation
        tallies every action played per kind into that kind's column of the
        games table (0 when never chosen). None: not counted. A game that does
        not define it (the default) is not asked, and its ``game_stats`` columns
        are read as they are."""
        return None

    def player_role(self, state: State, seat: int) -> str | None:
        """The asymmetric role ``seat`` plays in ``state`` (e.g. its
        faction), fixed from setup to the end; None for a game without roles
        (:attr:`role_label` None). Batch simulation records it in the players
        table's ``role`` column, and the role metrics read it."""
        return None

    def game_stats(self, state: State) -> dict:
        """Game-specific numbers for one finished game (flat, JSON-able), e.g.
        quests completed; they become columns of the per-game table."""
        return {}

    def card_stats(self, state: State) -> list[dict]:
        """Per-card rows for one finished game, each with at least ``card``; e.g.
        a quest's number of contributors when it completed."""
        return []

    # -- scenarios -----------------------------------------------------------
    def scenario_state(self, setup: Mapping) -> State:
        """A position built from a scenario's ``setup`` block."""
        players = setup.get("players", 4)
        cfg = self.config(players, seed=int(setup.get("seed", 0)),
                          variants=setup.get("variants", ()), **dict(setup.get("options", {})))
        return self.new_initial_state(cfg)

    def scenario_step(self, state: State, step: Mapping) -> bool:
        """Handle a game-specific step kind (e.g. stating what a drawn Storm did).
        Return True if handled; the default handles none."""
        return False

    def scenario_skip(self, state: State, action_text: str) -> None:
        """Report mode: use up the decision a refused scenario step gave its
        player, so the replay keeps the text's turn order. Default: nothing."""

    def scenario_force(self, state: State, expect: Mapping) -> None:
        """Report mode: set the values an ``expect`` block claims, so a replay
        can go on from the text's position after a divergence. Default: nothing."""

    def observe(self, state: State) -> dict:
        """The values a scenario's ``expect`` block may name (see each game's docs).
        Per-player values live under ``players: {name: {...}}``."""
        return {}

    def validate_data(self) -> list[str]:
        """Problems found in the game's card data (empty when valid)."""
        return []

    # -- per-seat observation (playtest rooms) -----------------------------------
    # A room sends each seat's browser ONLY ``observation(state, seat)``; a game
    # that keeps anything from some seat (a hand, a face-down pick, a deck order)
    # declares ``hidden_information`` and overrides ``observation`` to mask it.
    # tests/test_observation.py checks, for every game, that the observation is
    # the same in every position ``determinize`` could have drawn for the seat
    # (so it holds nothing hidden) and that its legal moves match the state's.

    #: True when some seat may not see part of the position; False for a
    #: perfect-information game, whose observation is the whole public view
    hidden_information: bool = False
    #: how chance enters play (:data:`workbench.core.gametype.CHANCE`): "sampled"
    #: when the rules draw from the game's seeded stream, "deterministic" otherwise
    chance: ClassVar[str] = "sampled"
    #: "simultaneous" when some decisions are made at once (face-down picks
    #: revealed together), else "sequential" (:data:`workbench.core.gametype.SIMULTANEITY`)
    simultaneity: ClassVar[str] = "sequential"

    def game_type(self):
        """What the game is, apart from its rules: a frozen
        :class:`~workbench.core.gametype.GameType` built from its declarations."""
        from .gametype import GameType
        return GameType(
            id=self.id, name=self.name, version=self.version, min_players=self.min_players,
            max_players=self.max_players, default_players=self.default_players or self.min_players,
            information="imperfect" if self.hidden_information else "perfect", chance=self.chance,
            simultaneity=self.simultaneity, role_label=self.role_label, group_fate=bool(self.group_fate),
            offers=tuple((name, bool(test(self))) for name, test in CAPABILITIES.items()),
            options=tuple(self.options), variants=tuple(self.variants))

    def public_move(self, before: State, action, after: State) -> str:
        """What the whole table saw of ``action`` (played in ``before``, giving
        ``after``), as one line naming the player: the move log of every seat, a
        spectator and the designer shows it. Default: the move in full for a
        perfect-information game, only who moved otherwise; a game with hidden
        information says in its own package what each kind of move shows
        ("Brooke chose an action card", then the picks once revealed)."""
        name = before.player_name(before.current_player())
        if not self.hidden_information:
            return f"{name}: {self.format_action(before, action)}"
        return f"{name} moved"

    def observation(self, state: State, seat: int) -> dict:
        """What ``seat`` may know of ``state``, JSON-ready: ``seat``,
        ``to_move``, ``legal`` (its moves in notation, when it must act) and
        ``table`` (the position as that seat sees it). The default, for a
        perfect-information game, shows :meth:`observe` whole."""
        from .observation import seat_observation
        return seat_observation(self, state, seat, self.observe(state))

    # -- rulebook and drawing --------------------------------------------------
    def rules_context(self, lang: str) -> dict:
        """Extra namespaces (``game``, ``facts``, ``content`` ...) the rulebook's
        placeholders may use in ``lang``; default none."""
        return {}

    def drawing(self, state: State) -> Any | None:
        """A bokeh figure of the table (e.g. a hex board) or None
        for a game without one. Imports bokeh only when called."""
        return None


def _has_card_graph(game: "Game") -> bool:
    return game.pool_spec is not None and (game.card_graph is not None or game.card_fields is not None
                                           or game.tweak_session is not None)


#: capability name -> whether a game offers it (what :meth:`Game.provides` and
#: :func:`workbench.core.registry.providing` answer)
CAPABILITIES = {
    "cards": lambda g: g.pool_spec is not None,
    "card_graph": _has_card_graph,
    "table_drawing": lambda g: g.table_drawer is not None,
    "board": lambda g: g.board is not None,
    "print": lambda g: g.print_cards is not None,
    "balance": lambda g: g.balance is not None and _has_card_graph(g),
    "rulebook": lambda g: bool(g.rulebook_languages),
    "hidden_information": lambda g: g.hidden_information,
}


#: the concepts of the rules review a game gives its own words for
#: (``Game.rules_words``); the language lexicons (workbench/rules/lexicon/) hold these
#: with no words of their own, and a test holds the two to each other
RULES_CONCEPTS = {"time.span": "a named stretch of several rounds (an age, a season)",
                  "time.repeat": "a stretch that repeats inside a game (a cycle of actions)"}


def rules_words_problems(rules_words: Any) -> list[str]:
    """One line per entry of a game's ``rules_words`` the review cannot take: a concept
    not in :data:`RULES_CONCEPTS`, or words that are not a list of texts."""
    out = []
    for concept, by_lang in (rules_words or {}).items():
        if concept not in RULES_CONCEPTS:
            out.append(f"rules_words: {concept!r} is not a concept a game names "
                       f"(one of {', '.join(RULES_CONCEPTS)})")
            continue
        for lang, words in (by_lang or {}).items():
            if isinstance(words, str) or not all(isinstance(w, str) and w.strip() for w in words):
                out.append(f"rules_words: {concept} {lang}: the words must be a list of texts")
    return out


#: the class attributes of :class:`Game` that name a part of the game the workbench
#: imports when a page or command needs it (see :func:`part`)
PARTS = ("card_graph", "tweak_session", "table_drawer", "view_drawer", "board", "print_cards")


@dataclass(frozen=True)
class Part:
    """A part of a game registered as an object and imported on first use: a module
    of the game (``attr`` empty) or one of its attributes. Made by :func:`part`."""
    module: str
    attr: str = ""

    def bound(self, package: str) -> "Part":
        """This part with a module relative to ``package`` (``.tabletop``) made absolute."""
        import importlib.util
        if not package:
            raise WorkbenchError(f"part {self.module!r} is relative, and the game's class is in no package: "
                                 "put the game in a package, or name the module in full")
        return Part(importlib.util.resolve_name(self.module, package), self.attr)

    def load(self) -> Any:
        import importlib
        if self.module.startswith("."):
            raise WorkbenchError(f"part {self.module!r} is relative and was never bound to a game's package")
        obj = importlib.import_module(self.module)
        return getattr(obj, self.attr) if self.attr else obj

    def __str__(self) -> str:
        return f"{self.module}:{self.attr}" if self.attr else self.module


def part(module: str, attr: str = "") -> Part:
    """A game's part, named relative to the game's own package and imported only when
    a page or command uses it (the registry loads every game; a page may never need
    the part): ``card_graph = part(".card_graph")``, ``table_drawer =
    part(".tabletop", "draw")``. No module path of the workbench's is written out, and
    a scaffolded or renamed package keeps working."""
    if not module or not isinstance(module, str):
        raise WorkbenchError("a part names a module of the game's package, e.g. part('.card_graph')")
    return Part(module, attr)


def resolve(ref: Any) -> Any:
    """The object a capability names: a :class:`Part` (see :func:`part`) is imported;
    a string ``"pkg.mod"`` is that module and ``"pkg.mod:attr"`` an attribute of it (the
    older way of naming one, still read); anything else (a module, a class, a function
    registered as itself: ``tweak_session = MySession``) is returned as it is."""
    import importlib
    if isinstance(ref, Part):
        return ref.load()
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


#: more seats than any table game has; a bigger count is a typo, refused before
#: a name is made (``players: 100000000`` would otherwise build a huge tuple)
MAX_SEATS = 64


def default_names(n: int) -> tuple[str, ...]:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_SEATS:
        raise WorkbenchError(f"a game has 1 to {MAX_SEATS} players, not {n!r}")
    base = ["Alex", "Brooke", "Casey", "Drew", "Eva", "Finn"]
    return tuple(base[i] if i < len(base) else f"P{i + 1}" for i in range(n))


def resolve_seat(state: State, who: str | int) -> int:
    """Seat index from a player name (case-insensitive) or index."""
    n = len(state.config.players)
    if isinstance(who, bool):
        raise NotationError(f"{who!r} is not a player: give a name or a seat number")
    if isinstance(who, int):
        if not 0 <= who < n:
            raise NotationError(f"no seat {who}: this game has seats 0 to {n - 1}")
        return who
    names = [n.lower() for n in state.config.players]
    try:
        return names.index(str(who).lower())
    except ValueError:
        from .errors import suggest
        raise NotationError(f"no player named {who!r}{suggest(str(who), state.config.players)}") from None


__all__ = ["TERMINAL", "CAPABILITIES", "RULES_CONCEPTS", "rules_words_problems", "PARTS", "Part", "part", "resolve", "GameConfig", "GameResult", "State", "Game", "Option", "options_from_tuples", "IllegalAction",
           "NotationError", "default_names", "resolve_seat"]
