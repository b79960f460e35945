"""The mutation score of a game's checks: per rules module, per clause, and each survivor.

The kill rate is killed / (sampled - not planted); a mutant that no check reaches counts as a
survivor. A survivor the game rules equivalent (``equivalent_mutants.yaml`` beside its rules,
each with why) is listed as such and counted apart: the rate is given both ways.
"""

from __future__ import annotations

from collections import defaultdict

from workbench.core.counting import counted

from .run import MutationRun, Outcome


def _rate(killed: int, total: int) -> str:
    return f"{100.0 * killed / total:.1f} %" if total else "n/a"


def tallies(outcomes: list[Outcome]) -> dict:
    planted = [o for o in outcomes if o.status != "not planted"]
    killed = sum(o.status == "killed" for o in planted)
    equivalent = sum(o.status == "equivalent" for o in planted)
    return {"sampled": len(outcomes), "planted": len(planted), "killed": killed,
            "equivalent": equivalent, "survived": len(planted) - killed - equivalent,
            "unreached": sum(o.status == "unreached" for o in planted),
            "kill_rate": killed / len(planted) if planted else None,
            "kill_rate_of_non_equivalent": killed / (len(planted) - equivalent)
            if len(planted) > equivalent else None}


def by_module(run: MutationRun) -> dict[str, dict]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in run.outcomes:
        groups[o.mutant.module].append(o)
    return {m: tallies(groups[m]) for m in run.modules if groups.get(m)}


#: the clause row of mutants that no check with a clause reaches (the conformance kit's
#: checks, which have none, may reach them: the row says which lines no rule's check pins)
NO_CLAUSE = "(no check with a clause reaches the line)"


def by_clause(run: MutationRun) -> dict[str, dict]:
    """Each clause with the sampled mutants that belong to it (``Outcome.clause``: the
    narrowest check reaching the line), so the rows add up to the total."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in run.outcomes:
        groups[o.clause or NO_CLAUSE].append(o)
    return {cl: tallies(groups[cl]) for cl in sorted(groups)}


def to_dict(run: MutationRun) -> dict:
    return {"game": run.game, "seed": run.seed, "population": run.population, "modules": run.modules,
            "checks": run.checks, "checks_failing_on_the_real_engine": [list(b) for b in run.broken],
            "seconds": round(run.seconds, 1), "workers": run.workers, "total": tallies(run.outcomes),
            "by_module": by_module(run), "by_clause": by_clause(run),
            "mutants": [o.to_dict() for o in run.outcomes]}


def survivors(run: MutationRun) -> list[Outcome]:
    return [o for o in run.outcomes if o.status in ("survived", "unreached", "equivalent")]


def format_run(run: MutationRun) -> str:
    t = tallies(run.outcomes)
    out = [f"== mutants of {run.game}: {counted(t['sampled'], 'mutant')} sampled (seed {run.seed}) "
           f"of {run.population} in {counted(len(run.modules), 'rules module')} ==",
           f"  checks: {run.checks} passing on the real engine"
           + (f"; {len(run.broken)} failing there, not used: " + ", ".join(b[0] for b in run.broken)
              if run.broken else ""),
           f"  killed {t['killed']} of {t['planted']} planted: {_rate(t['killed'], t['planted'])}"
           + (f" ({_rate(t['killed'], t['planted'] - t['equivalent'])} of the "
              f"{t['planted'] - t['equivalent']} not ruled equivalent)" if t["equivalent"] else ""),
           f"  survived {t['survived']} ({t['unreached']} on lines no check reaches), "
           f"equivalent {t['equivalent']}, not planted {t['sampled'] - t['planted']}",
           f"  {run.seconds:.0f} s on {counted(run.workers, 'worker')}", "", "  per rules module:"]
    width = max([len(m.rpartition(".")[2]) for m in run.modules] + [6])
    for module, tm in by_module(run).items():
        out.append(f"    {module.rpartition('.')[2]:<{width}}  {tm['killed']:>4}/{tm['planted']:<4} "
                   f"{_rate(tm['killed'], tm['planted']):>8}")
    clauses = by_clause(run)
    if clauses:
        out += ["", "  per clause (each mutant under the clause of the narrowest check reaching its line):"]
        cw = max(len(c) for c in clauses)
        for cl, tc in clauses.items():
            out.append(f"    {cl:<{cw}}  {tc['killed']:>4}/{tc['planted']:<4} {_rate(tc['killed'], tc['planted']):>8}")
    surv = survivors(run)
    if surv:
        out += ["", "  survivors:"]
        for o in surv:
            m = o.mutant
            where = f"{m.module.rpartition('.')[2]}.py:{m.line}"
            clause = o.clause or "no check with a clause reaches this line"
            if len(o.clauses) > 1:
                clause += f" (checks of {len(o.clauses)} clauses reach it)"
            out.append(f"    {where} in {m.scope} [{m.operator}] {o.before}  =>  {o.after}")
            out.append(f"      clause: {clause}")
            if o.status == "equivalent":
                out.append(f"      equivalent: {o.why}")
            if o.proposal is not None:
                p = o.proposal
                if p.get("file"):
                    out.append(f"      proposed scenario: {p['file']} ({p['summary']})")
                elif "scenario" in p:
                    out.append(f"      a difference found ({p['summary']}), but its scenario "
                               + ("passes on the mutant" if p.get("passes_on_real_engine")
                                  else "fails on the real engine") + ": not written")
                else:
                    out.append(f"      no difference found: {p['summary']}")
    notp = [o for o in run.outcomes if o.status == "not planted"]
    if notp:
        out += ["", "  not planted:"] + [f"    {o.mutant.id}: {o.why}" for o in notp]
    return "\n".join(out)
