"""Scenario files: executable checks written in YAML instead of Python.

A scenario names a game, builds a position from ``setup``, plays ``steps`` and
compares what must hold (``expect``). See docs/reference/scenario-format.md and each game's
``cards/<game>/scenarios/README.md`` for the state keys it understands.

A scenario states the card values its rule leans on in ``setup.cards``
(``{Shell: {requirement.tokens: {E: 1}}}``, paths as
:mod:`workbench.core.pool_values` flattens a pool): they are laid over the pool
it runs with, so it proves the rule whatever the designer's folder holds for
those cards. ``workbench check`` says where the folder holds other values
(information, not a failure); see :mod:`workbench.rules.report`.

Step forms:

- ``{Alex: donate}``: the named player takes the action (it must be their turn);
- ``{player: Alex, do: donate, illegal: true}``: the action must be refused; with a text
  instead of ``true``, the refusal's message must contain it (the reason a player is told);
- ``{do: gather 2E}``: whoever is to move takes the action;
- ``{expect: {...}}``: values that must hold at this point;
- ``{offers: [...], does_not_offer: [...]}``: actions the engine must / must not list as
  legal at this point (the text it lists them by; an action it accepts when typed need not
  be listed, so this pins the list a player is shown);
- any other key is offered to the game (``Game.scenario_step``), e.g. a worked
  example stating what a drawn Storm did.

Three kinds state what a position and steps cannot:

- ``expect_refused: true`` (or a text the refusal must contain): the ``setup`` itself is one
  the rules forbid (a player count outside the range, a variant that needs another count),
  and the game must refuse it;
- ``seen_by: {Alex: {...}}`` inside any ``expect``: what that seat's observation
  (``Game.observation``, the view a playtest seat receives) shows; the value ``not shown``
  says a key must be missing from that view;
- ``over_seeds: {seeds: N, key: PATH, takes: [...]}``: a choice the rules make at random.
  The scenario runs once per seed 1..N (its ``setup.seed`` replaced), each run must pass,
  and the observed value at ``PATH`` (dotted: ``players.Alex.secret``) must take every listed
  value at least once and no other. A choice fixed instead is a ``setup`` key of the game.

Strict mode stops at the first failure. Report mode (``--report``) records every
divergence and goes on: an illegal step is skipped, and a value that differs is
reported and, where the game supports it (``Game.scenario_force``), set to the
value the text claims so one mistake is reported once, not at every later step;
a refused action still uses up that player's decision where the game supports
it (``Game.scenario_skip``), so the replay keeps the text's turn order.
That is how a rulebook's worked example becomes an errata list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .data import load_yaml
from .errors import ScenarioError, WorkbenchError
from .game import Game, resolve_seat

STEP_KEYS = {"player", "do", "illegal", "expect", "note", "because"}
#: the step keys stating which actions the engine lists as legal now (``Game.format_action`` of
#: ``State.legal_actions``): each one named must be listed / none of them may be
OFFER_KEYS = ("offers", "does_not_offer")
#: the ``setup`` key stating the card values a scenario relies on (see
#: :func:`stated_pool_game`); read here, never passed to the game
CARDS_KEY = "cards"

#: what a malformed scenario can make an engine raise while reading it; caught at
#: the scenario's edge and reported as that step's error (the scenario fails)
MALFORMED = (TypeError, ValueError, KeyError, AttributeError, IndexError, LookupError)
#: the most steps a scenario may hold
MAX_STEPS = 10_000

#: top-level key -> (accepted types, how to write it)
_SHAPE = {"game": ((str,), "a game id"), "title": ((str,), "a line of text"),
          "checks": ((list,), "a list of clause ids"), "setup": ((dict,), "a mapping"),
          "steps": ((list,), "a list of steps"), "expect": ((dict,), "a mapping"),
          "notes": ((str, list), "text"), "source": ((str, dict, list), "text"),
          "expect_refused": ((bool, str), "true or a text the refusal contains"),
          "over_seeds": ((dict,), "a mapping: seeds, key, takes")}
#: the ``expect`` key naming what each seat's own observation shows
SEEN_BY = "seen_by"
#: the value saying a key is missing from a seat's observation
NOT_SHOWN = "not shown"
#: the most seeds ``over_seeds`` may run
MAX_SEEDS = 500


@dataclass
class Divergence:
    step: int | None          # 1-based step number, None for the final expect
    kind: str                 # illegal | legal | value | error | turn
    message: str
    claimed: Any = None
    actual: Any = None
    line: str | None = None   # the step as written

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class ScenarioResult:
    file: str
    title: str
    game: str
    checks: list[str]
    divergences: list[Divergence] = field(default_factory=list)
    steps_run: int = 0
    #: the card values the scenario states it relies on (``setup.cards``), if any
    stated_cards: dict | None = None

    @property
    def passed(self) -> bool:
        return not self.divergences

    def to_dict(self) -> dict:
        return {"file": self.file, "title": self.title, "game": self.game, "checks": self.checks,
                "passed": self.passed, "steps_run": self.steps_run,
                "divergences": [d.to_dict() for d in self.divergences]}


#: a step's note naming a recorded erratum of a worked example ("erratum W03: ...")
ERRATUM_NOTE = re.compile(r"\berratum ([A-Z]+\d+)\b")


@dataclass
class ErrataCheck:
    """How a report of a scenario that records errata (steps whose notes say
    ``erratum ID: ...``) compares with them: the report *matches* when every
    recorded erratum diverges and every divergence sits on a recorded step."""

    recorded: list[str]
    found: list[str]
    missing: list[str]
    unexplained: list[Divergence]

    @property
    def matches(self) -> bool:
        return not self.missing and not self.unexplained

    def summary(self) -> str:
        if self.matches:
            return f"the divergences are exactly the {len(self.recorded)} recorded errata"
        parts = []
        if self.missing:
            parts.append(f"recorded but not found: {', '.join(self.missing)}")
        if self.unexplained:
            parts.append(f"{len(self.unexplained)} divergence(s) not recorded as errata "
                         f"(first: step {self.unexplained[0].step})")
        return "the report differs from the recorded errata: " + "; ".join(parts)

    def to_dict(self) -> dict:
        return {"matches": self.matches, "recorded": self.recorded, "found": self.found,
                "missing": self.missing, "unexplained": [d.to_dict() for d in self.unexplained]}


def errata_check(path: Path, result: ScenarioResult) -> ErrataCheck | None:
    """The :class:`ErrataCheck` of ``result`` (a report-mode run of ``path``), or
    None when the scenario records no errata."""
    from .data import read_text_file
    try:
        recorded = sorted(set(ERRATUM_NOTE.findall(read_text_file(Path(path)))))
    except WorkbenchError:
        return None
    if not recorded:
        return None
    found: set[str] = set()
    unexplained = []
    for d in result.divergences:
        tags = set(ERRATUM_NOTE.findall(d.line or "")) & set(recorded)
        if tags and d.kind != "error":
            found |= tags
        else:
            unexplained.append(d)
    return ErrataCheck(recorded, sorted(found), sorted(set(recorded) - found), unexplained)


def load_scenario(path: Path) -> dict:
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping with game, setup, steps, expect")
    if "game" not in data:
        raise ScenarioError(f"{path}: missing 'game'")
    unknown = set(data) - set(_SHAPE)
    if unknown:
        raise ScenarioError(f"{path}: unknown top-level key(s) {', '.join(sorted(map(str, unknown)))}")
    for key, (types, how) in _SHAPE.items():
        if data.get(key) is not None and not isinstance(data[key], types):
            raise ScenarioError(f"{path}: '{key}' must be {how}, not {type(data[key]).__name__}")
    if not all(isinstance(c, str) for c in data.get("checks") or []):
        raise ScenarioError(f"{path}: 'checks' lists clause ids (text)")
    if len(data.get("steps") or []) > MAX_STEPS:
        raise ScenarioError(f"{path}: more than {MAX_STEPS} steps")
    if data.get("expect_refused") not in (None, False) and (data.get("steps") or data.get("expect")):
        raise ScenarioError(f"{path}: a scenario with expect_refused states a setup only (no steps, no expect)")
    seeds = data.get("over_seeds")
    if seeds is not None:
        n, key, takes = seeds.get("seeds"), seeds.get("key"), seeds.get("takes")
        if set(seeds) - {"seeds", "key", "takes"} or not isinstance(n, int) or isinstance(n, bool) \
                or not 1 <= n <= MAX_SEEDS or not isinstance(key, str) or not isinstance(takes, list) or not takes:
            raise ScenarioError(f"{path}: over_seeds is {{seeds: 1..{MAX_SEEDS}, key: a dotted state key, "
                                "takes: [the values it must take]}")
    return data


def compare(expected: Any, observed: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Differences between an ``expect`` block and observed values, as
    ``(path, expected, actual)``; only keys named in ``expected`` are compared.
    Names compare case-insensitively; lists of names compare as ordered lists."""
    out: list[tuple[str, Any, Any]] = []
    if isinstance(expected, Mapping):
        if not isinstance(observed, Mapping):
            return [(path, expected, observed)]
        lowered = {str(k).lower(): k for k in observed}
        for key, want in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            real = lowered.get(str(key).lower())
            if real is None:
                out.append((sub, want, "<not observable>"))
                continue
            out.extend(compare(want, observed[real], sub))
        return out
    if isinstance(expected, (list, tuple)) and isinstance(observed, (list, tuple)):
        norm = lambda xs: [x.lower() if isinstance(x, str) else x for x in xs]
        return [] if norm(expected) == norm(observed) else [(path, list(expected), list(observed))]
    if isinstance(expected, str) and isinstance(observed, str):
        return [] if expected.lower() == observed.lower() else [(path, expected, observed)]
    if isinstance(expected, bool) or isinstance(observed, bool):
        return [] if expected == observed else [(path, expected, observed)]
    if isinstance(expected, (int, float)) and isinstance(observed, (int, float)):
        return [] if abs(expected - observed) < 1e-9 else [(path, expected, observed)]
    return [] if expected == observed else [(path, expected, observed)]


def seen_differences(expected: Any, view: Any, path: str) -> list[tuple[str, Any, Any]]:
    """:func:`compare` for one seat's observation, where the value ``not shown`` says the
    key must be missing from that view."""
    if not isinstance(expected, Mapping) or not isinstance(view, Mapping):
        return compare(expected, view, path)
    out: list[tuple[str, Any, Any]] = []
    lowered = {str(k).lower(): k for k in view}
    for key, want in expected.items():
        sub = f"{path}.{key}"
        real = lowered.get(str(key).lower())
        if isinstance(want, str) and want.lower() == NOT_SHOWN:
            if real is not None:
                out.append((sub, NOT_SHOWN, view[real]))
        elif real is None:
            out.append((sub, want, "<not observable>"))
        else:
            out.extend(seen_differences(want, view[real], sub))
    return out


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:200]
    return f"{text} ({type(exc).__name__})" if text else type(exc).__name__


def _describe(step: Mapping) -> str:
    return ", ".join(f"{k}: {v}" for k, v in step.items())


class ScenarioRunner:
    def __init__(self, game: Game, *, report: bool = False, folder: Path | None = None):
        self.game = game
        self.report = report
        #: the card folder stated card values are laid over (default: the game's)
        self.folder = folder

    def run(self, data: Mapping, file: str = "<scenario>") -> ScenarioResult:
        if data.get("over_seeds") is not None:
            return self._over_seeds(data, file)
        result = ScenarioResult(file=file, title=str(data.get("title", Path(file).stem)),
                                game=self.game.id, checks=list(data.get("checks") or []))
        setup = dict(data.get("setup") or {})
        stated = result.stated_cards = setup.pop(CARDS_KEY, None)
        refused = data.get("expect_refused")
        try:
            game = self.game if stated is None else stated_pool_game(self.game, stated, self.folder)
            state = game.scenario_state(setup)
        except WorkbenchError as exc:
            if refused not in (None, False):
                if isinstance(refused, str) and refused.lower() not in str(exc).lower():
                    result.divergences.append(Divergence(0, "value", f"setup refused, but not for {refused!r}: "
                                                                     f"{exc}", claimed=refused, actual=str(exc)))
                return result
            result.divergences.append(Divergence(0, "error", f"setup: {exc}"))
            return result
        except MALFORMED as exc:
            result.divergences.append(Divergence(0, "error", f"setup cannot be read: {_reason(exc)}"))
            return result
        if refused not in (None, False):
            result.divergences.append(Divergence(0, "legal", "the setup was accepted but the rules forbid it"))
            return result
        runner = self if game is self.game else ScenarioRunner(game, report=self.report, folder=self.folder)
        runner._play(state, data, result)
        return result

    def _over_seeds(self, data: Mapping, file: str) -> ScenarioResult:
        """Run the scenario once per seed and compare the values its key takes with ``takes``."""
        spec = data["over_seeds"]
        result = ScenarioResult(file=file, title=str(data.get("title", Path(file).stem)),
                                game=self.game.id, checks=list(data.get("checks") or []))
        seen: list = []
        for seed in range(1, spec["seeds"] + 1):
            one = {k: v for k, v in data.items() if k != "over_seeds"}
            one["setup"] = {**(data.get("setup") or {}), "seed": seed}
            sub = ScenarioRunner(self.game, folder=self.folder)
            res = ScenarioResult(file=file, title=result.title, game=self.game.id, checks=result.checks)
            try:
                setup = dict(one["setup"])
                stated = setup.pop(CARDS_KEY, None)
                game = self.game if stated is None else stated_pool_game(self.game, stated, self.folder)
                state = game.scenario_state(setup)
            except (WorkbenchError, *MALFORMED) as exc:
                result.divergences.append(Divergence(0, "error", f"seed {seed}: setup: {exc}"))
                return result
            (sub if game is self.game else ScenarioRunner(game, folder=self.folder))._play(state, one, res)
            if res.divergences:
                d = res.divergences[0]
                result.divergences.append(Divergence(d.step, d.kind, f"seed {seed}: {d.message}", d.claimed,
                                                     d.actual, d.line))
                return result
            value: Any = game.observe(state)
            for part in spec["key"].split("."):
                lowered = {str(k).lower(): k for k in value} if isinstance(value, Mapping) else {}
                if part.lower() not in lowered:
                    result.divergences.append(Divergence(None, "error", f"over_seeds: {spec['key']} is not "
                                                                        "observable"))
                    return result
                value = value[lowered[part.lower()]]
            if value not in seen:
                seen.append(value)
            result.steps_run = len(data.get("steps") or [])
        norm = lambda v: v.lower() if isinstance(v, str) else v
        want = [norm(v) for v in spec["takes"]]
        got = [norm(v) for v in seen]
        missing = [v for v, w in zip(spec["takes"], want) if w not in got]
        extra = [v for v, g in zip(seen, got) if g not in want]
        if missing or extra:
            result.divergences.append(Divergence(
                None, "value", f"over {spec['seeds']} seeds {spec['key']} took {seen!r}"
                + (f"; never {missing!r}" if missing else "") + (f"; also {extra!r}" if extra else ""),
                claimed=spec["takes"], actual=seen))
        return result

    def _play(self, state, data: Mapping, result: ScenarioResult) -> None:
        steps = data.get("steps") or []
        for number, raw in enumerate(steps, start=1):
            if not isinstance(raw, Mapping):
                result.divergences.append(Divergence(number, "error", f"a step is a mapping, got {raw!r}"))
                if not self.report:
                    return
                continue
            try:
                stop = self._step(state, raw, number, result)
            except MALFORMED as exc:
                stop = self._fail(result, Divergence(number, "error", f"cannot be read: {_reason(exc)}",
                                                     line=_describe(raw)))
            result.steps_run = number
            if stop:
                return
        if data.get("expect"):
            try:
                self._expect(state, data["expect"], None, result, "final expect")
            except MALFORMED as exc:
                result.divergences.append(Divergence(None, "error", f"expect cannot be read: {_reason(exc)}"))

    # ------------------------------------------------------------------
    def _fail(self, result: ScenarioResult, div: Divergence) -> bool:
        result.divergences.append(div)
        return not self.report

    def _step(self, state, raw: Mapping, number: int, result: ScenarioResult) -> bool:
        game = self.game
        line = _describe(raw)
        if "expect" in raw and len(set(raw) - {"note", "because"}) == 1:
            return self._expect(state, raw["expect"], number, result, line)
        if set(raw) & set(OFFER_KEYS) and not set(raw) - set(OFFER_KEYS) - {"note", "because"}:
            return self._offers(state, raw, number, result, line)
        player, action, illegal = None, None, bool(raw.get("illegal", False))
        # a text: the refusal must give this reason (what the player reads), not just any
        reason = raw["illegal"] if isinstance(raw.get("illegal"), str) else None
        if "do" in raw:
            player, action = raw.get("player"), raw["do"]
        else:
            free = [k for k in raw if k not in STEP_KEYS]
            names = {n.lower() for n in state.config.players}
            if len(free) == 1 and str(free[0]).lower() in names:
                player, action = free[0], raw[free[0]]
            else:
                try:
                    handled = game.scenario_step(state, raw)
                except WorkbenchError as exc:
                    return self._fail(result, Divergence(number, "error", str(exc), line=line))
                if not handled:
                    return self._fail(result, Divergence(number, "error", f"unknown step kind: {line}", line=line))
                return False
        if state.is_terminal() and not illegal:
            return self._fail(result, Divergence(number, "legal", "the game is already over", line=line))
        if player is not None:
            try:
                seat = resolve_seat(state, player)
            except WorkbenchError as exc:
                return self._fail(result, Divergence(number, "error", str(exc), line=line))
            if state.current_player() != seat and not illegal:
                whose = state.current_player()
                who = state.player_name(whose) if whose >= 0 else "nobody"
                return self._fail(result, Divergence(
                    number, "turn", f"it is {who}'s decision, not {state.player_name(seat)}'s", line=line))
            if state.current_player() != seat and illegal:
                return False  # refused because it is not their turn: what the step claims
        try:
            obj = game.coerce_action(state, str(action))
            state.apply_action(obj)
        except WorkbenchError as exc:
            if illegal and reason is not None and reason.lower() not in str(exc).lower():
                return self._fail(result, Divergence(
                    number, "illegal", f"refused, but not because {reason!r}: {exc}", line=line))
            if illegal:
                return False
            stop = self._fail(result, Divergence(number, "illegal", f"refused: {exc}", line=line))
            if self.report:
                self._skip(state, player, str(action))
            return stop
        if illegal:
            return self._fail(result, Divergence(number, "legal", "was accepted but must be refused", line=line))
        return False

    def _skip(self, state, player, action: str) -> None:
        """Report mode: a refused step still uses up the decision the text gives
        that player (an action, a donation, an answer), so the replay keeps the
        text's turn order instead of waiting for an action that never comes.
        Games opt in by overriding ``Game.scenario_skip(state, action_text)`` and
        decide whether the refused action belonged to the decision now open; the
        default does nothing."""
        if state.is_terminal():
            return
        if player is not None and state.current_player() != resolve_seat(state, player):
            return
        try:
            self.game.scenario_skip(state, action)
        except WorkbenchError:
            pass

    def _offers(self, state, raw: Mapping, number, result: ScenarioResult, line: str) -> bool:
        listed = {self.game.format_action(state, a).lower() for a in state.legal_actions()}
        stop = False
        for key in OFFER_KEYS:
            named = raw.get(key) or []
            if not isinstance(named, list):
                raise TypeError(f"{key} is a list of actions")
            for text in named:
                if (str(text).lower() in listed) != (key == "offers"):
                    what = "is not listed as legal" if key == "offers" else "is listed as legal"
                    stop = self._fail(result, Divergence(number, "value", f"{text!r} {what}", line=line)) or stop
        return stop

    def _expect(self, state, expect: Mapping, number, result: ScenarioResult, line: str) -> bool:
        seats = expect.get(SEEN_BY) if isinstance(expect, Mapping) else None
        if seats is not None:
            expect = {k: v for k, v in expect.items() if k != SEEN_BY}
        diffs = compare(expect, self.game.observe(state)) if expect else []
        if seats is not None:
            if not isinstance(seats, Mapping):
                raise TypeError(f"{SEEN_BY} is a mapping of seat names to what each sees")
            for who, want in seats.items():
                view = self.game.observation(state, resolve_seat(state, str(who)))
                diffs += seen_differences(want, view, f"{SEEN_BY}.{who}")
        if not diffs:
            return False
        for path, want, got in diffs:
            result.divergences.append(Divergence(number, "value", f"{path}: expected {want!r}, engine has {got!r}",
                                                 claimed=want, actual=got, line=line))
        if self.report:
            self.game.scenario_force(state, expect)
            return False
        return True


def run_file(path: Path, *, report: bool = False, game: Game | None = None,
             options: dict | None = None, folder: Path | None = None) -> ScenarioResult:
    """Run one scenario file; ``options`` (from ``--option KEY=VALUE``) are laid over
    the file's ``setup.options``, so a rule can be replayed under a ruling's switch."""
    path = Path(path)
    try:
        data = load_scenario(path)
        if options:
            setup = data.setdefault("setup", {}) if isinstance(data.get("setup", {}), dict) else None
            if setup is None:
                raise WorkbenchError("the scenario's setup is not a mapping, so options cannot be added")
            setup["options"] = {**(setup.get("options") or {}), **options}
        if game is None:
            from .registry import get_game
            game = get_game(data["game"])
        return ScenarioRunner(game, report=report, folder=folder).run(data, file=str(path))
    except WorkbenchError as exc:
        res = ScenarioResult(file=str(path), title=path.stem, game="?", checks=[])
        res.divergences.append(Divergence(None, "error", str(exc)))
        return res
    except MALFORMED as exc:
        res = ScenarioResult(file=str(path), title=path.stem, game="?", checks=[])
        res.divergences.append(Divergence(None, "error", f"cannot be read: {_reason(exc)}"))
        return res


_STATED: dict[tuple, Any] = {}


def stated_pool_game(game: Game, values: Mapping, folder: Path | None = None) -> Game:
    """``game`` bound to its card folder's pool with a scenario's stated card
    values (``setup.cards``) laid over it, so the scenario proves its rule
    whatever the folder holds for those cards. The folder is the game's card
    folder (``--cards``/``$WORKBENCH_CARDS``/bundled); a card it lacks or a value
    its loader refuses is a setup error naming it. Pools are cached per folder
    content and stated values (the same few scenarios run at every check)."""
    import json

    from .data import cards_dir
    from .pool_values import overlay_pool
    from .versions import pool_version

    if game.pool_spec is None:
        raise ScenarioError(f"{game.id} has no card pool, so a scenario cannot state card values")
    folder = Path(folder) if folder is not None else cards_dir(game.id)
    key = (game.id, str(folder), pool_version(game, folder),
           json.dumps(values, sort_keys=True, default=str))
    pool = _STATED.get(key)
    if pool is None:
        if len(_STATED) > 256:
            _STATED.clear()
        pool = _STATED[key] = overlay_pool(game.pool_spec, folder, values)
    return game.with_cards(pool)


def scenario_files(game_id: str) -> list[Path]:
    from .data import cards_dir
    folder = cards_dir(game_id) / "scenarios"
    return sorted(folder.rglob("*.yaml")) if folder.exists() else []
