"""Sample mutants of a game's rules modules and run the game's checks against each.

The parent process loads the game, runs the checks once under coverage
(:func:`workbench.mutation.suite.baseline`) and then forks one child per mutant, ``workers``
at a time: the child plants the mutant (:mod:`.plant`), runs only the checks that reach the
mutated line (fastest first, stopping at the first that differs) and writes its verdict to a
pipe. A child that overruns its time (a mutant that loops) is killed, and that counts as
killed: a designer's check would hang too. A mutant no check reaches survives without a run.

Outcomes: ``killed`` (with the check), ``survived`` (reached, no check differs),
``unreached`` (no check reaches its line: survives), ``not planted`` (cannot be planted in a
live process; left out of the rate and listed).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from .operators import Mutant, mutants
from .suite import Baseline, baseline, rules_modules

#: seconds a mutant's checks may take: this many times their time on the real engine ...
SLOWDOWN = 10.0
#: ... and never less than this
MIN_TIMEOUT = 20.0


@dataclass
class Outcome:
    mutant: Mutant
    status: str                 # killed | survived | unreached | not planted
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


def _covering(base: Baseline, mutant: Mutant, files: dict[str, str]):
    key = (files[mutant.module], mutant.stmt_line)
    return sorted((c for c in base.checks if key in c.lines), key=lambda c: c.seconds)


def _narrowest(covering, file: str) -> str | None:
    with_clauses = [c for c in covering if c.clauses]
    if not with_clauses:
        return None
    best = min(with_clauses, key=lambda c: (sum(f == file for f, _ in c.lines), c.name))
    return best.clauses[0]


def _child(mutant: Mutant, source: str, checks, fd: int) -> None:
    """Runs in the forked child: plant, run the checks, write one JSON line, never return."""
    from .plant import NotPlanted, plant
    out: dict = {"status": "survived", "checks_run": 0}
    try:
        try:
            plant(mutant, source)
        except NotPlanted as exc:
            out = {"status": "not planted", "why": str(exc)}
        else:
            for chk in checks:
                out["checks_run"] += 1
                diff = chk.differs()
                if diff is not None:
                    out.update(status="killed", by=chk.name, why=diff[:300])
                    break
    except BaseException as exc:  # anything else the mutant breaks kills it
        out.update(status="killed", by="(the check run)", why=f"{type(exc).__name__}: {exc}"[:300])
    try:
        os.write(fd, (json.dumps(out) + "\n").encode())
    finally:
        os._exit(0)


def run_mutants(game_id: str, *, budget: int | None = 300, seed: int = 1, workers: int | None = None,
                progress=None) -> MutationRun:
    from workbench.core.registry import get_game

    from .operators import snippet
    t0 = time.perf_counter()
    game = get_game(game_id)
    modules = rules_modules(game)
    everything, sources = population(modules)
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
    running: dict[int, tuple[Outcome, int, float, float, bytearray]] = {}
    done = 0
    total = len(pending)
    while pending or running:
        while pending and len(running) < run.workers:
            out, covering = pending.pop(0)
            timeout = max(MIN_TIMEOUT, SLOWDOWN * sum(c.seconds for c in covering))
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _child(out.mutant, sources[out.mutant.module], covering, w)
            os.close(w)
            running[pid] = (out, r, time.monotonic(), timeout, bytearray())
        fds = {v[1]: pid for pid, v in running.items()}
        ready, _, _ = select.select(list(fds), [], [], 0.5)
        for fd in ready:
            chunk = os.read(fd, 65536)
            running[fds[fd]][4].extend(chunk)
        now = time.monotonic()
        for pid in list(running):
            out, fd, started, timeout, buf = running[pid]
            finished = os.waitpid(pid, os.WNOHANG)[0] == pid
            if finished:
                while True:
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    buf.extend(chunk)
            elif now - started > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                out.status, out.by, out.why = "killed", "(time limit)", f"no answer in {timeout:.0f} s"
                finished = True
                buf = bytearray()
            if finished:
                os.close(fd)
                out.seconds = now - started
                if buf:
                    try:
                        verdict = json.loads(bytes(buf).decode().strip().splitlines()[-1])
                    except (ValueError, IndexError):
                        verdict = {"status": "killed", "by": "(the check run)", "why": "the run died"}
                    out.status = verdict.get("status", "killed")
                    out.by, out.why = verdict.get("by"), verdict.get("why")
                    out.checks_run = verdict.get("checks_run", 0)
                elif out.status == "unreached":
                    out.status, out.by, out.why = "killed", "(the check run)", "the run died"
                del running[pid]
                done += 1
                if progress is not None:
                    progress(done, total, out)
    run.seconds = time.perf_counter() - t0
    return run
