"""A game's checks, one at a time: its scenario files, its Python checks and the quick
promises of the conformance kit every game is held to (:data:`KIT_CHECKS`).

Each :class:`Check` runs alone and answers with a *signature*: ``None`` when it passes, else
a short text of what failed. A worked example (a scenario replayed leniently to list the
errata of a rulebook's text) passes when it diverges exactly as it does on the real engine,
so a mutant that changes its errata list is caught too. :func:`baseline` runs every check
once on the real engine under line coverage (the ``coverage`` library, one context per
check) and keeps the checks that pass, with the lines of the rules modules each reaches.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

WORKED_PREFIX = "worked-example"


@dataclass
class Check:
    name: str                      # "scenario:<file>", "python:<function>" or "kit:<check>"
    clauses: tuple[str, ...]
    run: Callable[[], str | None]  # None: as on the real engine; else what differs
    #: signature on the real engine (worked examples diverge; others pass with None)
    expected: str | None = None
    seconds: float = 0.0
    #: (file, line) of the rules modules this check reaches
    lines: set = field(default_factory=set)

    def differs(self) -> str | None:
        """What this check reports differently from the real engine, or None."""
        try:
            got = self.run()
        except RecursionError:
            return "recursion too deep"
        except Exception as exc:  # a crash under a mutant is a failing check
            return f"crashed: {type(exc).__name__}: {' '.join(str(exc).split())[:160]}"
        return None if got == self.expected else (got or "now passes")


def _scenario_check(path: Path, game) -> Check:
    from workbench.core.scenario import load_scenario, run_file
    worked = path.name.startswith(WORKED_PREFIX)
    try:
        clauses = tuple(load_scenario(path).get("checks") or ())
    except Exception:
        clauses = ()

    def run() -> str | None:
        res = run_file(path, report=worked, game=game)
        if res.passed:
            return None
        if worked:
            return " | ".join(f"{d.step}:{d.kind}:{d.message}" for d in res.divergences)
        d = res.divergences[0]
        return f"step {d.step if d.step is not None else 'end'}: {d.message}"
    return Check(f"scenario:{path.name}", clauses, run)


def _python_check(chk) -> Check:
    def run() -> str | None:
        passed, message = chk.run()
        return None if passed else (message or "failed")
    return Check(f"python:{chk.name.rsplit('.', 1)[-1]}", tuple(chk.clauses), run)


#: the conformance kit's checks (workbench.testing) a mutant is also run against: the quick
#: ones (a second or two on a loaded machine). A copy that shares what it should own, a seed
#: that no longer rebuilds the game, a listed move the notation cannot read back or a sample
#: the listing lacks breaks a promise of the contract, though no rule's scenario shows it.
#: Left out for time: the made-up-action and refused-action walks, the observation-leak
#: samples, the drawing and the scenario loading (tens of seconds each).
KIT_CHECKS = ("options", "seed-rebuilds-the-game", "random-games-end", "player-roles",
              "notation-round-trips", "unlisted-actions-are-listed-ones", "clones-are-independent",
              "observe-is-json", "sampling-matches-the-listing", "acting-from-the-observation")


def _kit_check(name: str, game) -> Check:
    from workbench.testing import run_check

    def run() -> str | None:
        problems = run_check(game, name)
        return "; ".join(problems)[:300] if problems else None
    return Check(f"kit:{name}", (), run)


def game_checks(game_id: str) -> list[Check]:
    """Every scenario file and Python check of the game, and the kit's :data:`KIT_CHECKS`,
    as :class:`Check` objects."""
    from workbench.core.registry import get_game
    from workbench.core.scenario import scenario_files
    from workbench.rules.checks import load_game_checks

    game = get_game(game_id)
    out = [_scenario_check(p, game) for p in scenario_files(game_id)]
    out += [_python_check(c) for c in load_game_checks(game_id)]
    out += [_kit_check(name, game) for name in KIT_CHECKS]
    return out


def rules_modules(game) -> list[str]:
    """Dotted names of the modules the game declares as its rules (``Game.rules_modules``,
    else its ``compiled.txt`` less ``evaluation``)."""
    package = type(game).__module__.rpartition(".")[0]
    names = game.rules_modules
    if names is None:
        from workbench.native import DECLARATION
        pkg = importlib.import_module(package)
        manifest = Path(pkg.__file__).parent / DECLARATION
        names = []
        if manifest.exists():
            for line in manifest.read_text(encoding="utf-8").splitlines():
                line = line.split("#", 1)[0].strip()
                if line and line != "evaluation":
                    names.append(line)
    return [f"{package}.{n}" if package else n for n in names]


@dataclass
class Baseline:
    checks: list[Check]            # the checks that pass on the real engine
    broken: list[tuple[str, str]]  # (check, why) that fail on the real engine: not used
    files: dict[str, str]          # module -> file


def baseline(game_id: str, modules: list[str]) -> Baseline:
    """Run every check once on the real engine, timing it and recording the lines of
    ``modules`` it reaches."""
    import coverage

    files = {m: str(Path(importlib.import_module(m).__file__).resolve()) for m in modules}
    checks = game_checks(game_id)
    cov = coverage.Coverage(data_file=None, include=list(files.values()), branch=False,
                            config_file=False)
    cov.start()
    try:
        for chk in checks:
            cov.switch_context(chk.name)
            t0 = time.perf_counter()
            try:
                chk.expected = chk.run()
            except Exception as exc:
                chk.expected = f"crashed: {type(exc).__name__}: {exc}"
            chk.seconds = time.perf_counter() - t0
    finally:
        cov.stop()
    data = cov.get_data()
    by_name = {c.name: c for c in checks}
    for path in data.measured_files():
        for line, contexts in (data.contexts_by_lineno(path) or {}).items():
            for ctx in contexts:
                if ctx in by_name:
                    by_name[ctx].lines.add((str(Path(path).resolve()), line))
    kept, broken = [], []
    for c in checks:
        worked = c.name.startswith(f"scenario:{WORKED_PREFIX}")
        if c.expected is None or worked and not c.expected.startswith("crashed"):
            kept.append(c)
        else:
            broken.append((c.name, c.expected))
    return Baseline(kept, broken, files)
