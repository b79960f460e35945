"""Sample mutants of a game's rules modules and run the game's checks against each.

The parent process loads the game, runs the checks once under coverage
(:func:`workbench.mutation.suite.baseline`) and then forks one child per mutant, ``workers``
at a time: the child plants the mutant (:mod:`.plant`), runs only the checks that reach the
mutated line (fastest first, stopping at the first that differs) and writes its verdict to a
pipe (:mod:`.forks`). A child that overruns its time (a mutant that loops) is killed, and that counts as
killed: a designer's check would hang too. A mutant no check reaches survives without a run.

Outcomes: ``killed`` (with the check), ``survived`` (reached, no check differs),
``unreached`` (no check reaches its line: survives), ``equivalent`` (a survivor the game's
``equivalent_mutants.yaml`` rules cannot change play, with why), ``not planted`` (cannot be
planted in a live process; left out of the rate and listed).
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .forks import fork_each
from .operators import Mutant, mutants
from .suite import Baseline, baseline, rules_modules

#: seconds a mutant's checks may take: this many times their time on the real engine ...
SLOWDOWN = 10.0
#: ... and never less than this
MIN_TIMEOUT = 20.0


@dataclass
class Outcome:
    mutant: Mutant
    status: str                 # killed | survived | unreached | equivalent | not planted
    by: str | None = None       # the check that killed it
    why: str | None = None      # what the check reported, or why it was not planted
    checks_run: int = 0
    seconds: float = 0.0
    clauses: tuple[str, ...] = ()   # clauses of the checks that reach the mutated line
    #: the clause the mutant belongs to: the first clause of the narrowest check reaching its
    #: line (fewest lines reached in the mutated module), None when no check reaches it
    clause: str | None = None
    before: str = ""
    after: str = ""
    proposal: dict | None = None    # set by :mod:`.propose`

    def to_dict(self) -> dict:
        d = self.mutant.to_dict()
        d.update({"status": self.status, "by": self.by, "why": self.why, "checks_run": self.checks_run,
                  "clause": self.clause, "clauses": list(self.clauses), "before": self.before, "after": self.after})
        if self.proposal is not None:
            d["proposal"] = self.proposal
        return d


@dataclass
class MutationRun:
    game: str
    seed: int
    population: int                 # mutants of the rules modules in all
    modules: list[str]
    outcomes: list[Outcome] = field(default_factory=list)
    broken: list[tuple[str, str]] = field(default_factory=list)
    checks: int = 0
    seconds: float = 0.0
    workers: int = 1


def population(modules: list[str]) -> tuple[list[Mutant], dict[str, str]]:
    """Every mutant of ``modules`` and each module's source."""
    import importlib
    sources, out = {}, []
    for name in modules:
        path = Path(importlib.import_module(name).__file__)
        sources[name] = path.read_text(encoding="utf-8")
        out += mutants(sources[name], name)
    return out, sources


def sample(all_mutants: list[Mutant], budget: int | None, seed: int) -> list[Mutant]:
    """``budget`` mutants drawn without replacement by a stream seeded with ``seed`` (all of
    them when the budget is None or larger), in module and line order."""
    if budget is None or budget >= len(all_mutants):
        return list(all_mutants)
    picked = random.Random(seed).sample(range(len(all_mutants)), budget)
    return [all_mutants[i] for i in sorted(picked)]


def only_selector(game_id: str, specs: list[str]):
    """A ``select`` for :func:`run_mutants` keeping the mutants ``specs`` name: each
    ``FILE:LINE`` (every mutant on that line of a rules module, ``flow.py:78`` or ``flow:78``)
    or ``FILE:LINE:N`` (the one numbered N in its module, as a proposed scenario's file name
    ``mutant-flow-78-44.yaml`` says). A spec that is malformed or names no mutant is refused."""
    from workbench.core.errors import WorkbenchError
    from workbench.core.registry import get_game

    modules = rules_modules(get_game(game_id))
    everything, _sources = population(modules)
    wanted: list[tuple[str, int, int | None]] = []
    for spec in specs:
        parts = spec.strip().split(":")
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
            raise WorkbenchError(f"--only {spec!r}: write FILE:LINE or FILE:LINE:N (flow.py:78 or flow.py:78:44)")
        short = parts[0].removesuffix(".py")
        module = next((m for m in modules if short in (m, m.rpartition(".")[2])), None)
        if module is None:
            raise WorkbenchError(f"--only {spec!r}: {short} is not a rules module of {game_id} (they are "
                                 + ", ".join(m.rpartition(".")[2] for m in modules) + ")")
        key = (module, int(parts[1]), int(parts[2]) if len(parts) == 3 else None)
        if not any(_named(m, key) for m in everything):
            raise WorkbenchError(f"--only {spec!r}: no mutant there")
        wanted.append(key)
    return lambda m: any(_named(m, key) for key in wanted)


def _named(m: Mutant, key: tuple[str, int, int | None]) -> bool:
    module, line, index = key
    return m.module == module and m.line == line and index in (None, m.index)


def _covering(base: Baseline, mutant: Mutant, files: dict[str, str]):
    if mutant.kind == "constant":
        # a module constant's line runs at import, before any check: coverage cannot say
        # which checks read it, so every check does (fastest first, as always)
        return sorted(base.checks, key=lambda c: c.seconds)
    key = (files[mutant.module], mutant.stmt_line)
    return sorted((c for c in base.checks if key in c.lines), key=lambda c: c.seconds)


def _narrowest(covering, file: str) -> str | None:
    with_clauses = [c for c in covering if c.clauses]
    if not with_clauses:
        return None
    best = min(with_clauses, key=lambda c: (sum(f == file for f, _ in c.lines), c.name))
    return best.clauses[0]


#: beside a game's rules: the survivors its designer ruled equivalent, each with why
EQUIVALENTS = "equivalent_mutants.yaml"


def _ruling_key(out: Outcome) -> tuple[str, str, str, str]:
    # the statement before and after, not the line: a ruling outlives edits above it
    return (out.mutant.module.rpartition(".")[2], out.mutant.scope, out.before, out.after)


def equivalence_rulings(game) -> dict[tuple[str, str, str, str], str]:
    """``equivalent_mutants.yaml`` of the game's package: a list of ``{module, scope, before,
    after, why}`` (as the report prints them), each a mutant that cannot change play."""
    import importlib

    from workbench.core.data import load_yaml
    package = type(game).__module__.rpartition(".")[0]
    path = Path(importlib.import_module(package).__file__).parent / EQUIVALENTS
    if not path.exists():
        return {}
    out = {}
    for entry in load_yaml(path) or []:
        out[(str(entry["module"]), str(entry["scope"]), str(entry["before"]), str(entry["after"]))] = \
            str(entry["why"])
    return out


def _verdict(mutant: Mutant, source: str, checks) -> dict:
    """Runs in the forked child: plant, run the checks, answer with the verdict."""
    from .plant import NotPlanted, plant
    try:
        plant(mutant, source)
    except NotPlanted as exc:
        return {"status": "not planted", "why": str(exc)}
    for n, chk in enumerate(checks, start=1):
        diff = chk.differs()
        if diff is not None:
            return {"status": "killed", "by": chk.name, "why": diff[:300], "checks_run": n}
    return {"status": "survived", "checks_run": len(checks)}


def run_mutants(game_id: str, *, budget: int | None = 300, seed: int = 1, workers: int | None = None,
                progress=None, select=None) -> MutationRun:
    """Sample ``budget`` mutants (all: None) of the game's rules modules, those ``select``
    keeps when given, and run the checks reaching each."""
    from workbench.core.registry import get_game

    from .operators import snippet
    t0 = time.perf_counter()
    game = get_game(game_id)
    modules = rules_modules(game)
    everything, sources = population(modules)
    if select is not None:
        everything = [m for m in everything if select(m)]
    chosen = sample(everything, budget, seed)
    base = baseline(game_id, modules)
    run = MutationRun(game_id, seed, len(everything), modules, broken=base.broken, checks=len(base.checks),
                      workers=workers or os.cpu_count() or 1)
    files = base.files
    pending: list[tuple[Outcome, list]] = []
    for m in chosen:
        covering = _covering(base, m, files)
        clauses = tuple(sorted({cl for c in covering for cl in c.clauses}))
        before, after = snippet(sources[m.module], m)
        out = Outcome(m, "unreached", clauses=clauses, clause=_narrowest(covering, files[m.module]),
                      before=before, after=after)
        run.outcomes.append(out)
        if covering:
            pending.append((out, covering))
    count = [0]

    def done(out: Outcome, answer: dict, seconds: float) -> None:
        out.seconds = seconds
        if "timeout" in answer:
            out.status, out.by, out.why = "killed", "(time limit)", f"no answer in {answer['timeout']:.0f} s"
        elif "crashed" in answer or "died" in answer:  # the mutant broke the check run itself
            out.status, out.by = "killed", "(the check run)"
            out.why = answer.get("crashed", "the run died")
        else:
            out.status, out.by, out.why = answer["status"], answer.get("by"), answer.get("why")
            out.checks_run = answer.get("checks_run", 0)
        count[0] += 1
        if progress is not None:
            progress(count[0], len(pending), out)

    rulings = equivalence_rulings(game)
    for out in run.outcomes:
        if out.status == "unreached" and (why := rulings.get(_ruling_key(out))):
            out.status, out.why = "equivalent", why
    jobs = [(out, partial(_verdict, out.mutant, sources[out.mutant.module], covering),
             max(MIN_TIMEOUT, SLOWDOWN * sum(c.seconds for c in covering))) for out, covering in pending]
    fork_each(jobs, run.workers, done)
    for out in run.outcomes:
        if out.status == "survived" and (why := rulings.get(_ruling_key(out))):
            out.status, out.why = "equivalent", why
    run.seconds = time.perf_counter() - t0
    return run
