"""Loading and validating Mandate 2038's card data (``cards/mandate_2038/``).

Each YAML file is checked with pydantic; a problem comes back as a ``DataError``
naming the file, the card and the field. The engine reads the validated
:class:`Content` (a game's injected pool, or the card folder's through the core
loader, which reloads it when a file changes), never raw YAML.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from workbench.core.cards import PoolSpec, load_pool
from workbench.core.data import CardName, load_yaml, validation_error
from workbench.core.extra_fields import ExtraFields
from workbench.core.errors import DataError

GAME_ID = "mandate-2038"
CORE_ACTIONS = ("fund", "research", "build", "organize", "deploy", "influence")
DOMAINS = ("Code", "Science", "Web", "Books", "Images", "Video", "Synthetic")
TRACKS = ("runway", "compute", "capability", "customers", "trust", "mandate")
Provenance = Literal["seed", "draft"]
Amount = Annotated[int, Field(ge=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: "2 Runway", "1 Compute" inside a tile's production text
_AMOUNT = re.compile(r"(\d+) (Runway|Compute)\b")


def production_text(text: str, yield_: dict) -> str:
    """The tile's printed production for ``yield_``, keeping any words after
    the amounts (Talent's "and reassign one Agent"). The numbers live in
    ``yield`` (what the engine produces); the text only says them, so a
    balance edit of the yield rewrites the text through this function."""
    rest = _AMOUNT.sub("", text).strip()
    rest = "" if rest == "None" else re.sub(r"^(and\b\s*)+", "", rest).strip()
    amounts = " and ".join(f"{n} {r.capitalize()}" for r, n in sorted(yield_.items(),
                                                                   key=lambda kv: kv[0] != "runway") if n)
    if not amounts:
        return rest[:1].upper() + rest[1:] if rest else "None"
    return f"{amounts} and {rest[:1].lower()}{rest[1:]}" if rest else amounts


class TileKind(_Model):
    key: str
    name: CardName
    contract: Optional[Literal["runway", "compute"]]
    visit: str
    production: str
    yield_: dict[Literal["runway", "compute"], Amount] = Field(alias="yield")
    provenance: Provenance
    draft_fields: list[str] = []
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)

    @model_validator(mode="after")
    def _name_is_one_word(self):
        # a district's name is how moves and the board name it ("... at Grid",
        # "relocate facility 1 to Grid2"), read word by word: a space would split it
        if not self.name.strip() or any(ch.isspace() for ch in self.name):
            raise ValueError(f"a district's name is how moves name it ('with agent 1 at NAME'), so it is one "
                             f"word: write {'-'.join(self.name.split())!r}")
        return self

    @model_validator(mode="after")
    def _production_says_the_yield(self):
        # the printed text and the engine's numbers are one fact written twice
        # in the file: refuse a file in which they disagree
        said = {r.lower(): int(n) for n, r in _AMOUNT.findall(self.production)}
        meant = {r: n for r, n in self.yield_.items() if n}
        if said != meant:
            raise ValueError(f"the production text {self.production!r} does not say the yield "
                             f"{dict(self.yield_)}: write {production_text(self.production, self.yield_)!r}")
        return self


class Start(_Model):
    runway: int = Field(ge=0, le=12)
    compute: int = Field(ge=0, le=10)
    capability: int = Field(ge=0)
    customers: int = Field(ge=0, le=5)
    trust: int = Field(ge=0, le=6)
    mandate: int = Field(ge=0)


ABILITIES = ("scientific_method", "crash_checkpoint", "patient_capital", "utility_permits",
             "public_charter", "reserved_capacity")


class Faction(_Model):
    name: CardName
    provenance: Provenance
    draft_fields: list[str] = []
    start: Start
    ability: Literal[ABILITIES]  # type: ignore[valid-type]
    ability_name: str
    ability_text: str
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


class TrainingCard(_Model):
    name: CardName
    kind: Literal["domain", "curated_corpus", "benchmark_leak", "human_evaluation"]
    copies: int = Field(ge=1)
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)

    @model_validator(mode="after")
    def _a_domain_card_is_named_by_its_domain(self):
        # the rules tell domains apart by these names (a Curated Corpus names one,
        # a Training draw counts them): another name would be a domain no rule knows
        if self.kind == "domain" and self.name not in DOMAINS:
            raise ValueError(f"a domain Training card is named by its domain, one of {', '.join(DOMAINS)}; "
                             f"{self.name!r} is none of them")
        return self


MEASURES = ("runway", "compute", "capability", "customers", "trust", "mandate", "scrutiny")


class HeadlineEffect(_Model):
    who: Optional[Literal["all", "highest", "lowest", "at_least"]] = None
    measure: Optional[Literal[MEASURES]] = None  # type: ignore[valid-type]
    value: int = 0
    gain: dict[Literal[TRACKS], int] = {}  # type: ignore[valid-type]
    lose: dict[Literal[TRACKS], int] = {}  # type: ignore[valid-type]
    scrutiny: int = 0
    remove_scrutiny: int = 0
    systemic_risk: int = 0
    produce: Optional[str] = None

    @model_validator(mode="after")
    def _who_needs_measure(self):
        if self.who in ("highest", "lowest", "at_least") and self.measure is None:
            raise ValueError(f"who: {self.who} needs a measure")
        if self.who is None and (self.gain or self.lose or self.scrutiny or self.remove_scrutiny):
            raise ValueError("an effect on players needs who: all, highest, lowest or at_least")
        return self


class Headline(_Model):
    name: CardName
    era: int = Field(ge=1, le=4)
    text: str
    effects: list[HeadlineEffect]
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


CRITERIA = ("customers", "capability_gained", "best_run", "compute_produced", "controlled_hexes",
            "unique_domains", "new_joint_ventures", "controlled_categories", "connected_facilities",
            "trust", "runway_gained", "capability")


class MandateCard(_Model):
    name: CardName
    era: int = Field(ge=1, le=4)
    criterion: Literal[CRITERIA]  # type: ignore[valid-type]
    minimum: int = Field(ge=0)
    text: str
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


class Project(_Model):
    name: CardName
    era: int = Field(ge=1, le=4)
    cost: dict[Literal["runway", "compute"], Amount]
    backText: str
    produces: dict[Literal["runway", "compute", "capability"], Amount]
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


class Generator(_Model):
    kind: Literal["emergency", "clean"]
    cost: int = Field(ge=0)
    trustOnBuild: int = Field(ge=0)
    productionScrutiny: int = Field(ge=0)
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)


class AgiThresholds(_Model):
    provenance: Provenance
    capability: int = Field(ge=0)
    poweredFacilities: int = Field(ge=0)
    trust: int = Field(ge=0)
    computeCost: int = Field(ge=0)
    mandate: int = Field(ge=0)
    scrutiny: int = Field(ge=0)


class RuleNumbers(BaseModel):
    """The costs and limits among ``content.rules`` a designer tunes; the other
    rules are read as they are."""
    model_config = ConfigDict(extra="allow", frozen=True)
    facilityCost: int = Field(ge=0)
    researchCost: int = Field(ge=0)
    recruitCost: int = Field(ge=0)
    deployCompute: int = Field(ge=0)
    runwayCap: int = Field(ge=1)
    computeCap: int = Field(ge=1)
    trustMax: int = Field(ge=1)
    eras: int = Field(ge=1, le=4)
    cyclesPerEra: int = Field(ge=1)


def _checked(model, row, *, file: Path, card: str):
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        raise validation_error(exc, file=str(file), card=card) from None


class Content:
    """Everything the engine reads from the card folder, validated."""

    def __init__(self, folder: Path):
        self.folder = folder
        game = self._load("game.yaml")
        try:
            c = game["content"]
            self.raw = game
            _checked(RuleNumbers, c["rules"], file=folder / "game.yaml", card="Facility")
            self.rules: dict = dict(c["rules"])
            board = c["gameConfig"]["board"]
            self.tile_kinds: dict[str, TileKind] = {}
            for i, row in enumerate(board["tiles"]):
                try:
                    kind = TileKind.model_validate(row)
                except ValidationError as exc:
                    label = row.get("name", f"tiles.{i}") if isinstance(row, dict) else f"tiles.{i}"
                    raise validation_error(exc, file=str(folder / "game.yaml"), card=label) from None
                self.tile_kinds[kind.key] = kind
            self.pools = {k: list(v) for k, v in board["pools"].items()}
            self.facility_spaces = int(board["facilitySpaces"])
            self.generator_slots = int(board["generatorSlots"])
            self.energy_tiles = tuple(board["energyTiles"])
            self.civic_tiles = tuple(board["civicTiles"])
            self.generators = {k: v for k, v in c["generators"].items() if k != "provenance"}
            for key, gen in self.generators.items():
                _checked(Generator, gen, file=folder / "game.yaml", card=f"{key} generator")
            self.customer_table = [dict(r) for r in c["customerTable"]["rows"]]
            _checked(AgiThresholds, c["gameConfig"]["agiAchievement"], file=folder / "game.yaml", card="agiAchievement")
            self.agi = {k: int(v) for k, v in c["gameConfig"]["agiAchievement"].items() if k != "provenance"}
            self.supply = dict(c["gameConfig"]["playerSupply"])
            self.shared = dict(c["gameConfig"]["sharedSupply"])
            self.projects: dict[str, Project] = {}
            for pid, row in c["projects"]["byId"].items():
                try:
                    self.projects[pid] = Project.model_validate(row)
                except ValidationError as exc:
                    label = row.get("name", pid) if isinstance(row, dict) else pid
                    raise validation_error(exc, file=str(folder / "game.yaml"), card=label) from None
        except (KeyError, TypeError) as exc:
            raise DataError(f"missing or malformed setting {exc}", file=str(folder / "game.yaml")) from None
        for key in self.pools["operational"] + self.pools["public"] + self.pools["center"]:
            if key not in self.tile_kinds:
                raise DataError(f"pool names unknown district {key!r}", file=str(folder / "game.yaml"),
                                field="board.pools")
        self.factions = self._cards("factions.yaml", "factions", Faction)
        self.training = self._cards("training.yaml", "cards", TrainingCard)
        self.headlines = self._cards("headlines.yaml", "cards", Headline)
        self.mandates = self._cards("mandates.yaml", "cards", MandateCard)
        for h in self.headlines:
            for e in h.effects:
                if e.produce is not None and e.produce not in self.tile_kinds:
                    raise DataError(f"unknown district {e.produce!r}", file=str(folder / "headlines.yaml"),
                                    card=h.name, field="effects.produce")
        self.faction_by_name = {f.name.lower(): f for f in self.factions}
        self.headline_by_name = {h.name.lower(): h for h in self.headlines}
        self.mandate_by_name = {m.name.lower(): m for m in self.mandates}
        self.card_kind = {c.name: c.kind for c in self.training}

    def _load(self, name: str):
        data = load_yaml(self.folder / name)
        if not isinstance(data, dict):
            raise DataError("expected a mapping at the top", file=str(self.folder / name))
        return data

    def _cards(self, name: str, key: str, model):
        data = self._load(name)
        rows = data.get(key)
        if not isinstance(rows, list):
            raise DataError(f"expected a list under {key!r}", file=str(self.folder / name))
        out, seen = [], set()
        for i, row in enumerate(rows):
            label = row.get("name", f"#{i + 1}") if isinstance(row, dict) else f"#{i + 1}"
            try:
                out.append(model.model_validate(row))
            except ValidationError as exc:
                raise validation_error(exc, file=str(self.folder / name), card=label) from None
            if out[-1].name.lower() in seen:  # a second card of a name would shadow the first
                raise DataError("duplicate name", file=str(self.folder / name), card=label, field="name")
            seen.add(out[-1].name.lower())
        return out

    def training_deck(self) -> list[str]:
        """The 40 card names in data order (shuffled at setup)."""
        return [c.name for c in self.training for _ in range(c.copies)]


FILES = ("game.yaml", "factions.yaml", "training.yaml", "headlines.yaml", "mandates.yaml")
#: how the core loader (:mod:`workbench.core.cards`) reads this game's pool
POOL = PoolSpec(GAME_ID, FILES, Content)


def load_content(folder: Path | None = None) -> Content:
    """The validated content of ``folder`` (default: the card folder), cached by
    the core loader and read again when a file changes."""
    return load_pool(POOL, folder)


def factions_start_consistent() -> list[str]:
    """Each faction's printed Mandate includes the Trust and Capability milestones its
    printed starts have already passed (they are never scored again)."""
    c = load_content()
    r = c.rules
    problems = []
    for f in c.factions:
        owed = r["milestoneMandate"] * (sum(1 for t in r["trustMilestones"] if t <= f.start.trust)
                                        + sum(1 for t in r["capabilityMilestones"] if t <= f.start.capability))
        if f.start.mandate < owed:
            problems.append(f"factions.yaml, faction {f.name!r}, field 'start.mandate': {f.start.mandate} "
                            f"is less than the {owed} its starting milestones already awarded")
    return problems
