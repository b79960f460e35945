"""Pax Transhumanity's data: the idea deck, the infrastructure boards and the
settings, read from ``cards/pax_transhumanity/`` and validated with pydantic.

A broken file raises :class:`DataError` naming the file, the card and the field.
The loaded :class:`Content` is immutable in spirit and shared by every state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from workbench.core.cards import PoolSpec, load_pool
from workbench.core.data import CardName, cards_dir, load_yaml, validation_error
from workbench.core.extra_fields import ExtraFields
from workbench.core.errors import DataError

GAME_ID = "pax-transhumanity"
SPHERES = ("yellow", "green", "blue", "orange")
Colour = Literal["yellow", "green", "blue", "orange"]
EFFECT_WORDS = ("growth", "solve", "found", "resilience", "disruption", "recession",
                "damping", "nuclear", "game end")


# -- the effect grammar (data: the loader checks every card's terms with it) ----
SIDES = {"thinker": "T", "maker": "M"}


def parse_effect(text: str) -> tuple:
    words = text.strip().lower().split()
    if not words:
        raise ValueError("an empty effect")
    head = words[0]
    if words == ["growth"] or words == ["resilience"] or words == ["disruption"] \
            or words == ["recession"] or words == ["damping"]:
        return (head,)
    if words == ["game", "end"]:
        return ("game end",)
    if head == "solve" and len(words) == 2 and (words[1] in SPHERES or words[1] == "any"):
        return ("solve", words[1])
    if head == "nuclear" and len(words) == 2 and words[1] in SPHERES:
        return ("nuclear", words[1])
    if head == "found" and len(words) in (3, 4) and words[1] in SPHERES and words[2] in SIDES:
        brash = None
        if len(words) == 4:
            if not (words[3].startswith("!") and words[3][1:].isdigit()):
                raise ValueError(f"{text!r}: a Brash row is written like !2")
            brash = int(words[3][1:])
        return ("found", words[1], SIDES[words[2]], brash)
    raise ValueError(f"{text!r} is not an effect; use growth, solve <sphere|any>, "
                     "found <sphere> thinker|maker [!row], resilience, disruption, recession, "
                     "damping, nuclear <sphere> or game end")


def parse_effect_term(term: str) -> tuple:
    """A term as a tuple of alternatives ("or" binds tighter than "+")."""
    return tuple(parse_effect(part) for part in term.lower().split(" or "))


class Idea(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: CardName
    kind: Literal["idea", "tipping point", "plurality"] = "idea"
    disciplines: tuple[Colour, Colour]
    arrows: tuple[Colour, ...] = ()
    heat: tuple[Literal["white", "black"], ...] = ()
    effects: tuple[str, ...] = ()
    provenance: Literal["seed", "draft"]
    draft_fields: tuple[str, ...] = ()
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)

    @field_validator("effects")
    @classmethod
    def _effects_parse(cls, value):
        for term in value:
            parse_effect_term(term)  # raises ValueError with the reason
        return value


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    T: Literal["barrier", "company", "utility"]
    M: Literal["barrier", "company", "utility"]


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    provenance: Literal["seed", "draft"]
    developing_world: bool
    problem: str
    problem_tokens: int = Field(strict=True, ge=0, le=20)  # strict: true is not 1
    rows: tuple[Row, ...]
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


class Setting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    value: object
    provenance: Literal["seed", "draft"]
    note: str | None = None
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


@dataclass(frozen=True)
class Place:
    """One place on a sphere's board, e.g. ``yellow T2`` (row 2, Thinker side)."""
    key: str
    sphere: str
    side: str      # "T" (Thinker, left) or "M" (Maker, right)
    row: int       # 1 = top
    kind: str      # "barrier", "company" (a site for a Company disc) or "utility"


@dataclass(frozen=True)
class Content:
    ideas: dict            # name -> Idea
    boards: dict           # sphere -> Board
    settings: dict         # key -> value
    places: dict           # key -> Place
    sphere_places: dict    # sphere -> tuple of Place keys, top row first, T before M
    folder: str

    # Derived tables, worked out on first use and kept (cached_property writes the
    # instance's __dict__, which a frozen dataclass allows): the rules read them
    # for every idea in every position, so a plain attribute read matters.
    @cached_property
    def place_order(self) -> dict:
        """Place key -> its position in board order (sphere, row, Thinker before Maker)."""
        return {k: i for i, k in enumerate(self.places)}

    @cached_property
    def heat_squares(self) -> dict:
        """Idea -> (indices of its white Heat squares, indices of its black ones)."""
        return {n: (tuple(i for i, c in enumerate(idea.heat) if c == "white"),
                    tuple(i for i, c in enumerate(idea.heat) if c == "black"))
                for n, idea in self.ideas.items()}

    @cached_property
    def side_places(self) -> dict:
        """side -> sphere -> the keys of that side's places in the sphere, in board
        order (nested rather than keyed by pairs: no pair is built per look-up)."""
        return {side: {sphere: tuple(k for k in keys if self.places[k].side == side)
                       for sphere, keys in self.sphere_places.items()}
                for side in ("T", "M")}

    @cached_property
    def barriers(self) -> dict:
        """Sphere -> the keys of its Barrier places."""
        return {sphere: tuple(k for k in keys if self.places[k].kind == "barrier")
                for sphere, keys in self.sphere_places.items()}

    @cached_property
    def utilities(self) -> frozenset:
        """The keys of the Utility places."""
        return frozenset(k for k, p in self.places.items() if p.kind == "utility")

    @cached_property
    def developing_spheres(self) -> frozenset:
        """The spheres whose board is the Developing World."""
        return frozenset(s for s, b in self.boards.items() if b.developing_world)

    @cached_property
    def place_rows(self) -> tuple:
        """``(key, kind, sphere)`` of every place in board order: the hiring
        listing walks them all in every position without reading Place objects."""
        return tuple((k, p.kind, p.sphere) for k, p in self.places.items())

    def idea(self, name: str) -> Idea:
        return self.ideas[name]

    @cached_property
    def tipping_points(self) -> tuple[str, ...]:
        return tuple(n for n, c in self.ideas.items() if c.kind == "tipping point")

    @cached_property
    def plurality(self) -> str:
        return next(n for n, c in self.ideas.items() if c.kind == "plurality")

    @cached_property
    def plain_ideas(self) -> tuple[str, ...]:
        return tuple(n for n, c in self.ideas.items() if c.kind == "idea")


def _load(folder, name):
    path = folder / name
    return path, load_yaml(path)


def load_content(folder=None) -> Content:
    """Read and validate the game's data files (``folder`` defaults to the cards folder)."""
    folder = cards_dir(GAME_ID) if folder is None else folder
    path, raw = _load(folder, "ideas.yaml")
    if not isinstance(raw, dict) or not isinstance(raw.get("ideas"), list):
        raise DataError("expected a mapping with a list 'ideas'", file=str(path))
    ideas = {}
    for i, entry in enumerate(raw["ideas"]):
        label = entry.get("name", f"#{i + 1}") if isinstance(entry, dict) else f"#{i + 1}"
        try:
            idea = Idea.model_validate(entry)
        except ValidationError as exc:
            raise validation_error(exc, file=str(path), card=str(label)) from None
        if idea.name in ideas:
            raise DataError("the name is used twice", file=str(path), card=idea.name, field="name")
        ideas[idea.name] = idea
    kinds = [c.kind for c in ideas.values()]
    if kinds.count("tipping point") != 4 or kinds.count("plurality") != 1:
        raise DataError("the deck needs exactly 4 Tipping Points and 1 Plurality", file=str(path))

    bpath, braw = _load(folder, "boards.yaml")
    boards, places, sphere_places = {}, {}, {}
    spheres = (braw or {}).get("spheres") if isinstance(braw, dict) else None
    if not isinstance(spheres, dict) or sorted(spheres) != sorted(SPHERES):
        raise DataError(f"'spheres' must define exactly {', '.join(SPHERES)}", file=str(bpath))
    for sphere in SPHERES:
        try:
            board = Board.model_validate(spheres[sphere])
        except ValidationError as exc:
            raise validation_error(exc, file=str(bpath), card=sphere) from None
        boards[sphere] = board
        keys = []
        for r, row in enumerate(board.rows, start=1):
            for side in ("T", "M"):
                key = f"{sphere} {side}{r}"
                places[key] = Place(key, sphere, side, r, getattr(row, side))
                keys.append(key)
        sphere_places[sphere] = tuple(keys)

    spath, sraw = _load(folder, "settings.yaml")
    settings = {}
    for key, entry in (sraw or {}).items():
        try:
            settings[key] = Setting.model_validate(entry).value
        except ValidationError as exc:
            raise validation_error(exc, file=str(spath), card=key) from None
    needed = ("player_colours", "agents_in_play", "agents_in_pool", "finance_start", "draw_deck",
              "market_slots", "market_deal", "secret_cards", "hire_cost", "singular_run",
              "tycoon_company", "solo_target", "round_limit")
    for key in needed:
        if key not in settings:
            raise DataError("missing setting", file=str(spath), card=key, field="value")
    # counts the rules play with: whole numbers (true is not 1) within sense
    for key, low, high in (("agents_in_play", 1, 50), ("agents_in_pool", 0, 50), ("draw_deck", 1, 500),
                           ("market_slots", 1, 20), ("secret_cards", 0, 10), ("hire_cost", 0, 100),
                           ("singular_run", 1, 20), ("tycoon_company", 1, 20), ("solo_target", 1, 1000),
                           ("round_limit", 1, 10_000)):
        value = settings[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DataError(f"must be a whole number from {low} to {high}, not {value!r}",
                            file=str(spath), card=key, field="value")
    start = settings["finance_start"]
    if not isinstance(start, dict) or sorted(start) != ["capital", "debt", "wealth"]:
        raise DataError("must give capital, wealth and debt", file=str(spath), card="finance_start", field="value")
    for part, value in start.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 50:
            raise DataError(f"{part} must be a whole number from 0 to 50, not {value!r}",
                            file=str(spath), card="finance_start", field=f"value.{part}")
    if sum(start.values()) > settings["agents_in_play"] - 1:
        # the Finance agents are taken from the agents in play, but one of them always
        # starts on the Human Progress card (the source: 8 of 9 on the board, 1 there)
        raise DataError(f"capital + wealth + debt ({sum(start.values())}) is more than the "
                        f"{settings['agents_in_play']} agents in play less the one on the Human Progress card",
                        file=str(spath), card="finance_start", field="value")
    settings["player_colours"] = {int(k): list(v) for k, v in settings["player_colours"].items()}
    plain = sum(1 for k in kinds if k == "idea")
    if plain < settings["draw_deck"] + 2 * 4:
        raise DataError(f"{plain} ideas cannot fill a Draw Deck of {settings['draw_deck']} "
                        "and deal secret-sphere cards to four players", file=str(path))
    return Content(ideas, boards, settings, places, sphere_places, str(folder))


FILES = ("ideas.yaml", "boards.yaml", "settings.yaml")
#: how the core loader (:mod:`workbench.core.cards`) reads this game's pool
POOL = PoolSpec(GAME_ID, FILES, load_content)


def content(folder=None) -> Content:
    """The content of ``folder`` (default: the card folder), cached by the core
    loader and read again when a file changes."""
    return load_pool(POOL, folder)
