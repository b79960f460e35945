"""The Meaning Made card data: pydantic models of every file in
``cards/meaning_made/`` and the loader that validates them.

A broken file raises :class:`~workbench.core.errors.DataError` naming the file,
the card and the field. The loaded :class:`CardSet` is plain lookups (name ->
model) that the engine reads; it never changes during play.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from workbench.core.cards import PoolSpec, load_pool
from workbench.core.data import CardName, Int, cards_dir, load_yaml, validation_error
from workbench.core.extra_fields import ExtraFields
from workbench.core.errors import DataError, suggest

GAME_ID = "meaning-made"
TOKEN_KINDS = ("E", "I", "S")
BOX_KINDS = ("E", "I", "S", "V")
PATTERN_LAYERS = (1, 2, 3, 4, 5, 6)
INITIATIVE_LAYERS = (7, 8, 9, 10)
LAYER_NAMES = {1: "Boundary", 2: "Balance", 3: "Form", 4: "Membership", 5: "Prediction",
               6: "Reinforcement", 7: "Presence", 8: "Social", 9: "Story", 10: "Stewardship"}
TARGETS = ("all", "first", "affected", "contributors")
RESTRICTABLE = ("load", "contribute", "touchpoint", "recycle", "convert")

Provenance = Literal["seed", "draft"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Strict):
    """One outcome: a Resolution Table cell, a Pattern Bonus or a Completion Bonus.

    ``meaning`` changes the shared track; ``vitals``, ``legacy``, ``E``, ``I``,
    ``S`` change each targeted player; ``lose_tokens`` takes that many tokens from
    each targeted player (from their largest pile); ``restrict`` forbids an action
    for everyone until the round ends."""

    meaning: Int = 0
    vitals: Int = 0
    legacy: Int = 0
    E: Int = 0
    I: Int = 0
    S: Int = 0
    lose_tokens: Int = Field(0, ge=0)
    target: Literal["all", "first", "affected", "contributors"] = "affected"
    restrict: Optional[Literal["load", "contribute", "touchpoint", "recycle", "convert"]] = None
    consequence: Optional[Literal["group", "individual"]] = None

    def is_empty(self) -> bool:
        return not (self.meaning or self.vitals or self.legacy or self.E or self.I or self.S
                    or self.lose_tokens or self.restrict or self.consequence)


class ConsequenceRef(_Strict):
    """A Consequence Code printed on a card and the table it is looked up in."""

    table: Literal["group", "individual"]
    code: Int = Field(ge=1)


class Tokens(_Strict):
    E: Int = Field(0, ge=0)
    I: Int = Field(0, ge=0)
    S: Int = Field(0, ge=0)

    def as_dict(self) -> dict:
        return {"E": self.E, "I": self.I, "S": self.S}


class PatternRequirement(_Strict):
    tokens: Tokens = Tokens()
    layers: list[Int] = []
    vitals: Int = Field(0, ge=0)

    @field_validator("layers")
    @classmethod
    def _pattern_layers(cls, v):
        for layer in v:
            if layer not in PATTERN_LAYERS:
                raise ValueError(f"Layer icon {layer} is not a Pattern Layer (1-6)")
        return sorted(v)


class Pattern(_Strict):
    name: CardName
    layer: Int
    requirement: PatternRequirement
    bonus: Optional[Effect] = None
    consequence: Optional[ConsequenceRef] = None
    provenance: Provenance
    draft_fields: list[str] = []
    flavour: str = ""
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)

    @field_validator("layer")
    @classmethod
    def _layer(cls, v):
        if v not in PATTERN_LAYERS:
            raise ValueError("a Pattern's Layer is 1 to 6")
        return v

    @model_validator(mode="after")
    def _lower_layers_gate(self):
        if any(layer >= self.layer for layer in self.requirement.layers) and self.layer > 1:
            raise ValueError(f"requirement.layers must be below the card's own Layer {self.layer}")
        return self


class InitiativeRequirement(_Strict):
    contributors: Int = Field(1, ge=1)
    tokens: dict[Literal["E", "I", "S", "V"], Int] = {}
    layers: list[Int] = []
    completed: list[Int] = []
    patterns_in_play: Int = Field(0, ge=0)

    @field_validator("tokens")
    @classmethod
    def _non_negative(cls, v):
        for kind, n in v.items():
            if n < 0:
                raise ValueError(f"token count for {kind} is negative")
        return {k: v[k] for k in BOX_KINDS if v.get(k)}

    @field_validator("layers")
    @classmethod
    def _layers(cls, v):
        for layer in v:
            if layer not in PATTERN_LAYERS:
                raise ValueError(f"required Layer {layer} is not a Pattern Layer (1-6)")
        return sorted(v)

    @field_validator("completed")
    @classmethod
    def _completed(cls, v):
        for layer in v:
            if layer not in INITIATIVE_LAYERS:
                raise ValueError(f"required completed Layer {layer} is not an Initiative Layer (7-10)")
        return sorted(v)


class Initiative(_Strict):
    name: CardName
    layer: Int
    requirement: InitiativeRequirement
    order_spaces: Int = Field(ge=1, le=6)
    meaning: Int = Field(ge=0)
    bonus: Optional[Effect] = None
    penalty: Optional[ConsequenceRef] = None
    provenance: Provenance
    draft_fields: list[str] = []
    flavour: str = ""
    extra: ExtraFields = {}  # the designer's own fields (workbench.core.extra_fields)

    @field_validator("layer")
    @classmethod
    def _layer(cls, v):
        if v not in INITIATIVE_LAYERS:
            raise ValueError("an Initiative's Layer is 7 to 10")
        return v

    @model_validator(mode="after")
    def _spaces_fit(self):
        if self.order_spaces < self.requirement.contributors:
            raise ValueError(f"order_spaces ({self.order_spaces}) is fewer than the "
                             f"{self.requirement.contributors} contributors required")
        if any(layer >= self.layer for layer in self.requirement.completed):
            raise ValueError("requirement.completed must name Layers below the card's own")
        return self


class Event(_Strict):
    id: str = Field(pattern=r"^[A-Z]{1,2}$")
    code: Int = Field(ge=1)
    provenance: Provenance
    draft_fields: list[str] = []


class TableRow(_Strict):
    """One row of a Resolution Table: an outcome for every Layer column 1-10."""

    key: str
    outcomes: dict[Int, Effect]
    provenance: Provenance
    note: str = ""

    @field_validator("outcomes")
    @classmethod
    def _ten_columns(cls, v):
        missing = [c for c in range(1, 11) if c not in v]
        extra = [c for c in v if c not in range(1, 11)]
        if missing or extra:
            raise ValueError(f"needs one outcome per Layer column 1-10 (missing {missing}, extra {extra})")
        return v


class Reading(_Strict):
    low: Int
    high: Int
    title: str
    reading: str
    feeling: str = ""
    provenance: Provenance
    draft_fields: list[str] = []


class Settings(_Strict):
    """Starting values, track ranges, solo difficulties and variant parameters."""

    # ranges: what the rules can play (a value outside is a typo, refused on load)
    meaning: Int = Field(ge=0, le=100)
    vitals: Int = Field(ge=1, le=100)
    legacy: Int = Field(ge=0, le=1000)
    tokens: Tokens
    markers: Int = Field(ge=1, le=50)
    prism_size: Int = Field(ge=1, le=60)
    index_size: Int = Field(ge=1, le=20)
    order_rewards: list[Annotated[Int, Field(ge=0, le=100)]] = Field(max_length=6)
    other_reward: Int = Field(ge=0, le=100)
    stability_cap: Int = Field(ge=0, le=100)
    tracks: dict[str, tuple[Int, Int]]
    solo: dict[str, dict]
    community_markers: Int = Field(ge=0, le=50)
    variants: dict[str, dict]
    round_limit: Int = Field(ge=1, le=10_000)
    competitive_rounds: Int = Field(ge=1, le=10_000)
    end_initiative: str
    provenance: dict[str, Provenance] = {}

    @field_validator("tracks")
    @classmethod
    def _tracks(cls, v):
        for name in ("meaning", "world_layer", "vitals", "legacy"):
            if name not in v:
                raise ValueError(f"missing track range {name!r}")
        return v

    @field_validator("solo")
    @classmethod
    def _solo(cls, v):
        for level in ("easy", "standard", "hard"):
            if level not in v:
                raise ValueError(f"missing solo difficulty {level!r}")
            unknown = set(v[level]) - {"E", "I", "S", "vitals", "meaning"}
            if unknown:
                raise ValueError(f"solo {level}: unknown key(s) {sorted(unknown)}")
        return v


class CardSet:
    """Every validated card and table, with name lookups (case-insensitive)."""

    def __init__(self, patterns, initiatives, events, tables, world_table, mark_table, settings, folder):
        self.folder = folder
        self.patterns: dict[str, Pattern] = {p.name: p for p in patterns}
        self.initiatives: dict[str, Initiative] = {i.name: i for i in initiatives}
        self.events: dict[str, Event] = {e.id: e for e in events}
        self.tables: dict[str, dict[str, TableRow]] = tables
        self.world_table: list[Reading] = world_table
        self.mark_table: list[Reading] = mark_table
        self.settings: Settings = settings
        self._pattern_lc = {n.lower(): n for n in self.patterns}
        self._initiative_lc = {n.lower(): n for n in self.initiatives}

    def pattern_name(self, text: str) -> str | None:
        return self._pattern_lc.get(text.strip().lower())

    def initiative_name(self, text: str) -> str | None:
        return self._initiative_lc.get(text.strip().lower())

    def pattern_or_error(self, text: str, where: str = "") -> str:
        name = self.pattern_name(text)
        if name is None:
            raise DataError(f"no Pattern named {text!r}{suggest(text, self.patterns)}", file=where or None)
        return name

    def outcome(self, table: str, key, column: Int) -> Effect:
        row = self.tables[table].get(str(key))
        if row is None:
            return Effect()
        return row.outcomes[max(1, min(10, column))]

    def reading(self, table: list[Reading], value: Int) -> Reading | None:
        for r in table:
            if r.low <= value <= r.high:
                return r
        return None


FILES = ("patterns.yaml", "initiatives.yaml", "events.yaml", "tables.yaml", "settings.yaml")


class _Problems:
    """Where the loader reports a problem: ``strict`` raises the first one (what
    :func:`load_cards` wants), otherwise every problem is kept (what a designer
    fixing a file wants, see :func:`card_problems`)."""

    def __init__(self, strict: bool):
        self.strict = strict
        self.found: list[DataError] = []

    def add(self, error: DataError) -> None:
        if self.strict:
            raise error
        self.found.append(error)

    def invalid(self, exc: ValidationError, *, file: Path, card: str) -> None:
        """A card that failed validation: the first failing field when strict
        (with a count of the others), else one problem per failing field."""
        if self.strict:
            raise validation_error(exc, file=str(file), card=card) from None
        from workbench.core.data import designer_message
        for err in exc.errors(include_url=False):
            loc = [str(p) for p in err.get("loc", ())]
            self.found.append(DataError(designer_message(err), file=str(file), card=card,
                                        field=".".join(loc) if loc else None))


def _items(data, file: Path, key: str, report: _Problems) -> list:
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        report.add(DataError(f"expected a mapping with a list under {key!r}", file=str(file)))
        return []
    return data[key]


def _model_list(model, items, file: Path, name_key: str, report: _Problems) -> list:
    out, seen = [], {}
    for n, raw in enumerate(items, start=1):
        label = raw.get(name_key) if isinstance(raw, dict) else None
        card = str(label) if label is not None else f"#{n}"
        if not isinstance(raw, dict):
            report.add(DataError("each entry must be a mapping", file=str(file), card=card))
            continue
        try:
            obj = model.model_validate(raw)
        except ValidationError as exc:
            report.invalid(exc, file=file, card=card)
            continue
        key = str(getattr(obj, name_key)).lower()
        if key in seen:
            report.add(DataError(f"duplicate name (also entry {seen[key]})", file=str(file), card=card,
                                 field=name_key))
            continue
        seen[key] = n
        out.append(obj)
    return out


def _table(rows, file: Path, table: str, report: _Problems) -> dict[str, TableRow]:
    out = {}
    for n, raw in enumerate(rows, start=1):
        card = f"{table} {raw.get('key', '#' + str(n))}" if isinstance(raw, dict) else f"{table} #{n}"
        try:
            row = TableRow.model_validate(raw)
        except ValidationError as exc:
            report.invalid(exc, file=file, card=card)
            continue
        if row.key in out:
            report.add(DataError("duplicate row", file=str(file), card=card, field="key"))
            continue
        out[row.key] = row
    return out


def _read(folder: Path, report: _Problems) -> CardSet | None:
    """Read and validate every file, reporting each problem to ``report``; the
    CardSet of what validated, or None when a whole file could not be used."""
    f = {name: folder / name for name in FILES}

    def data_of(name):
        try:
            data = load_yaml(f[name])
        except DataError as exc:
            report.add(exc)
            return None
        if data is None:  # an empty file would otherwise read as "no cards" silently
            report.add(DataError("the file is empty", file=str(f[name])))
        return data

    # file by file, in the order of FILES, so the strict mode's first problem is
    # the first a reader of the files meets
    pdata = data_of("patterns.yaml")
    patterns = _model_list(Pattern, _items(pdata, f["patterns.yaml"], "patterns", report) if pdata is not None
                           else [], f["patterns.yaml"], "name", report)
    idata = data_of("initiatives.yaml")
    initiatives = _model_list(Initiative, _items(idata, f["initiatives.yaml"], "initiatives", report)
                              if idata is not None else [], f["initiatives.yaml"], "name", report)
    edata = data_of("events.yaml")
    events = _model_list(Event, _items(edata, f["events.yaml"], "events", report) if edata is not None else [],
                         f["events.yaml"], "id", report)
    tdata = data_of("tables.yaml")
    usable = all(d is not None for d in (pdata, idata, edata, tdata))
    tables, world, mark = {}, [], []
    if tdata is not None and not isinstance(tdata, dict):
        report.add(DataError("expected a mapping of tables", file=str(f["tables.yaml"])))
        usable = False
    elif tdata is not None:
        for table in ("event", "group", "individual"):
            tables[table] = _table(_items(tdata, f["tables.yaml"], table, report), f["tables.yaml"], table, report)
        world = _model_list(Reading, _items(tdata, f["tables.yaml"], "world", report), f["tables.yaml"], "title",
                            report)
        mark = _model_list(Reading, _items(tdata, f["tables.yaml"], "mark", report), f["tables.yaml"], "title",
                           report)
    settings = None
    sdata = data_of("settings.yaml")
    if sdata is not None:
        try:
            settings = Settings.model_validate(sdata)
        except ValidationError as exc:
            report.invalid(exc, file=f["settings.yaml"], card="settings")
    if not usable or settings is None:
        return None
    cards = CardSet(patterns, initiatives, events, tables, world, mark, settings, folder)
    # cross-file checks also run on a partly broken pool: what they say holds for
    # the cards that did validate
    for file, card, field, message in cross_check(cards):
        report.add(DataError(message, file=str(folder / file), card=card, field=field))
    return cards


def load_cards(folder: Path | None = None) -> CardSet:
    """Read and validate every file; the first problem raises :class:`DataError`."""
    folder = Path(folder) if folder else cards_dir(GAME_ID)
    return _read(folder, _Problems(strict=True))


def card_problems(folder: Path | None = None) -> list[DataError]:
    """Every problem in the card files at once (file, card, field each), in the
    order :func:`load_cards` meets them: its first is the one it raises."""
    folder = Path(folder) if folder else cards_dir(GAME_ID)
    report = _Problems(strict=False)
    try:
        _read(folder, report)
    except (KeyError, TypeError, AttributeError) as exc:  # a cross-check tripping over a missing table
        report.found.append(DataError(f"cannot check across files: {type(exc).__name__}: {exc}", file=str(folder)))
    return report.found


def cross_check(cards: CardSet) -> list[tuple[str, str, str, str]]:
    """Checks that span files: counts per Layer, codes that exist, readings that
    cover their range. Each problem is ``(file, card, field, message)``."""
    problems = []
    per_layer = {layer: 0 for layer in PATTERN_LAYERS}
    for p in cards.patterns.values():
        per_layer[p.layer] += 1
        if p.consequence and str(p.consequence.code) not in cards.tables[p.consequence.table]:
            problems.append(("patterns.yaml", p.name, "consequence.code",
                             f"code {p.consequence.code} is not a row of the {p.consequence.table} table"))
    for layer, n in per_layer.items():
        if n != 10:
            problems.append(("patterns.yaml", f"Layer {layer}", "layer", f"needs 10 Patterns, has {n}"))
    for i in cards.initiatives.values():
        if i.penalty and str(i.penalty.code) not in cards.tables[i.penalty.table]:
            problems.append(("initiatives.yaml", i.name, "penalty.code",
                             f"code {i.penalty.code} is not a row of the {i.penalty.table} table"))
    for e in cards.events.values():
        if e.id not in cards.tables["event"]:
            problems.append(("events.yaml", e.id, "id", "no row in the Event Resolution Table"))
        for table in ("group", "individual"):
            if str(e.code) not in cards.tables[table]:
                problems.append(("events.yaml", e.id, "code", f"code {e.code} has no row in the {table} table"))
    for table in ("group", "individual"):
        for key, row in cards.tables[table].items():
            for col, eff in row.outcomes.items():
                if eff.consequence:
                    problems.append(("tables.yaml", f"{table} {key}", f"outcomes.{col}.consequence",
                                     "only Event outcomes may trigger a further Consequence"))
    for i in cards.initiatives.values():
        if i.bonus is not None and i.bonus.consequence:
            problems.append(("initiatives.yaml", i.name, "bonus.consequence",
                             "a Completion Bonus cannot trigger a Consequence; use penalty"))
    for p in cards.patterns.values():
        if p.bonus is not None and p.bonus.consequence:
            problems.append(("patterns.yaml", p.name, "bonus.consequence",
                             "a Pattern Bonus cannot trigger a Consequence; use consequence"))
    end = cards.settings.end_initiative
    if end not in cards.initiatives:
        problems.append(("settings.yaml", "settings", "end_initiative",
                         f"no Initiative named {end!r}{suggest(end, cards.initiatives)}"))
    for name, table, top in (("world", cards.world_table, 12), ("mark", cards.mark_table, 30)):
        covered = sorted(v for r in table for v in range(r.low, r.high + 1))
        if covered != list(range(0, top + 1)):
            problems.append(("tables.yaml", name, "low/high", f"rows must cover 0-{top} exactly once"))
    return problems


#: how the core loader (:mod:`workbench.core.cards`) reads this game's pool
POOL = PoolSpec(GAME_ID, FILES, load_cards)


def cards_for(folder: Path | None = None) -> CardSet:
    """The validated pool of ``folder`` (default: the card folder), cached by the
    core loader and read again when a file changes."""
    return load_pool(POOL, folder)


def rulings_problems(path) -> list[str]:
    """Problems in ``rulings.yaml``: the format of docs/conventions.md, unique ids,
    and every ``switch`` naming a real option or variant. (A check of the file, not a
    rule of play, so it lives here beside :func:`card_problems`.)"""
    from .variants import OPTIONS, VARIANTS
    if not path.exists():
        return []
    try:
        data = load_yaml(path)
    except DataError as exc:
        return [str(exc)]
    if not isinstance(data, list):
        return [f"file {path}: a list of rulings is expected"]
    out, seen = [], set()
    keys = {"id", "clause", "question", "decision", "alternative", "switch"}
    for n, entry in enumerate(data, start=1):
        rid = entry.get("id", f"#{n}") if isinstance(entry, dict) else f"#{n}"
        if not isinstance(entry, dict) or set(entry) != keys:
            out.append(f"file {path}, ruling {rid!r}: needs exactly the keys {', '.join(sorted(keys))}")
            continue
        if rid in seen:
            out.append(f"file {path}, ruling {rid!r}, field 'id': duplicate id")
        seen.add(rid)
        switch = entry["switch"]
        if switch is not None and switch not in OPTIONS and switch not in VARIANTS:
            out.append(f"file {path}, ruling {rid!r}, field 'switch': no option or variant {switch!r}"
                       f"{suggest(str(switch), list(OPTIONS) + list(VARIANTS))}")
    return out
