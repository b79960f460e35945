"""A scenario proposed for each surviving mutant: a position where it and the real engine differ.

The parent plays a few seeded games on the real engine, from the game's scenario setups
(``{seed, players}``, every player count in turn, each game after the first with a variant
and one ruling switch on its other side), half with random play and half with the greedy bot, recording after every step the action taken, the legal actions and
``Game.observe``. A child with the mutant planted replays the same actions from the same
setups and stops at the first difference:

- the mutant's observed state differs: the steps so far, with the differing values (the real
  engine's) as the ``expect``;
- the mutant refuses the action the real engine took: the steps up to and with it (the
  scenario fails on the mutant at that step);
- the mutant lists an action as legal that the real engine does not, or the other way
  round: the steps so far and a ``does_not_offer`` / ``offers`` step naming it.

The proposal is checked both ways before it is written: it must fail with the mutant planted
and pass on the real engine. A survivor for which the search finds no difference is listed
with what was searched: it may be equivalent, or differ only where random play did not go.
"""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import Any

from .forks import fork_each
from .run import MutationRun, Outcome

#: steps played per reference game at most
MAX_STEPS = 500
#: the seeds of the reference games start here (not the seeds any check is tuned on)
SEED_BASE = 7000


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def reference_games(game, games: int) -> list[dict]:
    """``games`` seeded games on the real engine, each ``{setup, steps: [{player, do, legal,
    observed}], initial}``."""
    from workbench.core.bots import GreedyBot, RandomBot
    from workbench.core.game import default_names
    from workbench.core.rng import Rng

    counts = list(range(game.min_players, game.max_players + 1))
    variants = [None] + list(game.variants)
    switches = _switches(game)
    out = []
    for g in range(games):
        n = counts[g % len(counts)]
        setup = {"seed": SEED_BASE + g, "players": list(default_names(n))}
        # every game but the first plays a variant and a ruling's other side, in turn
        if g and variants[g % len(variants)] is not None:
            setup["variants"] = [variants[g % len(variants)]]
        if g and switches:
            name, value = switches[(g - 1) % len(switches)]
            setup["options"] = {name: value}
        try:
            state = game.scenario_state(dict(setup))
        except Exception:  # a variant or switch this player count does not take: play it plain
            setup = {"seed": SEED_BASE + g, "players": list(default_names(n))}
            state = game.scenario_state(dict(setup))
        bot = RandomBot() if g % 2 == 0 else GreedyBot()
        rng = Rng(SEED_BASE + 1000 + g)
        trace = {"setup": setup, "initial": _plain(game.observe(state)), "steps": []}
        for _ in range(MAX_STEPS):
            if state.is_terminal():
                break
            seat = state.current_player()
            legal = sorted({game.format_action(state, a) for a in state.legal_actions()})
            action = bot.choose(game, state, rng)
            text = game.format_action(state, action)
            state.apply_action(game.coerce_action(state, text))
            trace["steps"].append({"player": state.player_name(seat) if seat >= 0 else None, "do": text,
                                   "legal": legal, "observed": _plain(game.observe(state))})
        out.append(trace)
    return out


#: a differing list longer than this (a list of every legal action) goes in the expect only
#: when nothing shorter differs
LONG_LIST = 20


def _switches(game) -> list[tuple[str, object]]:
    """(option, value other than its default) for every option with a closed list of values."""
    out = []
    for name, opt in sorted(game.options.items()):
        for value in opt.choices() or ():
            if value != opt.default:
                out.append((name, value))
                break
    return out


def _expect_of(reference: dict, diffs) -> dict:
    """The real engine's values at each differing path, nested as an ``expect`` block."""
    out: dict = {}
    short = [d for d in diffs if not (isinstance(d[1], list) and len(d[1]) > LONG_LIST)]
    for path, want, _got in short or diffs:
        if not path:
            continue
        parts = path.split(".")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = _plain(want)
    return out


def _step(player, text: str) -> dict:
    return {player: text} if player else {"do": text}


def _search(game, traces: list[dict]) -> dict:
    """Runs in the child with the mutant planted: the first difference from the traces."""
    from workbench.core.scenario import compare
    searched = 0
    for trace in traces:
        setup = trace["setup"]
        base = {"game": game.id, "setup": setup}
        try:
            state = game.scenario_state(dict(setup))
            diffs = compare(trace["initial"], _plain(game.observe(state)))
        except Exception as exc:
            return {**base, "steps": [], "expect": _top_level(trace["initial"]),
                    "summary": f"the setup fails on the mutant ({type(exc).__name__})"}
        if diffs:
            return {**base, "steps": [], "expect": _expect_of(trace["initial"], diffs),
                    "summary": f"differs at setup: {diffs[0][0]}"}
        done: list[dict] = []
        for i, step in enumerate(trace["steps"], start=1):
            searched += 1
            player, text = step["player"], step["do"]
            try:
                legal = sorted({game.format_action(state, a) for a in state.legal_actions()})
            except Exception as exc:
                return {**base, "steps": done + [_step(player, text)], "expect": _top_level(step["observed"]),
                        "summary": f"listing the legal actions fails on the mutant at step {i} "
                                   f"({type(exc).__name__})"}
            extra = [a for a in legal if a not in set(step["legal"])]
            if extra:
                return {**base, "steps": done + [{"does_not_offer": [extra[0]]}], "expect": None,
                        "summary": f"the mutant lists {extra[0]!r} as legal at step {i}"}
            missing = [a for a in step["legal"] if a not in set(legal)]
            if missing:
                return {**base, "steps": done + [{"offers": [missing[0]]}], "expect": None,
                        "summary": f"the mutant does not list {missing[0]!r} as legal at step {i}"}
            try:
                state.apply_action(game.coerce_action(state, text))
            except Exception as exc:
                return {**base, "steps": done + [_step(player, text)], "expect": _top_level(step["observed"]),
                        "summary": f"the mutant refuses {text!r} at step {i} ({type(exc).__name__})"}
            done.append(_step(player, text))
            diffs = compare(step["observed"], _plain(game.observe(state)))
            if diffs:
                return {**base, "steps": done, "expect": _expect_of(step["observed"], diffs),
                        "summary": f"{diffs[0][0]} differs after step {i}"}
    return {"summary": f"no difference in {len(traces)} games, {searched} steps of random and greedy play"}


def _top_level(observed: dict) -> dict:
    """The scalar top-level values of an observation (an expect for a step the mutant cannot take)."""
    return {k: v for k, v in observed.items() if isinstance(v, (int, float, str, bool)) or v is None}


def scenario_of(outcome: Outcome, found: dict) -> dict:
    m = outcome.mutant
    data: dict = {"game": found["game"],
                  "title": f"Proposed for the mutant at {m.module.rpartition('.')[2]}.py:{m.line} "
                           f"({outcome.before} => {outcome.after}): reword this title to the rule it pins"}
    if outcome.clause:
        data["checks"] = [outcome.clause]
    data["setup"] = found["setup"]
    data["steps"] = found["steps"]
    if found.get("expect"):
        data["expect"] = found["expect"]
    data["notes"] = (f"Written by workbench check --mutants: {found['summary']}. The expect holds the real "
                     "engine's values where the mutant differs; read it, say which rule it shows, and keep it.")
    return data


def _fails_on_mutant(outcome: Outcome, source: str, game, data: dict) -> dict:
    from workbench.core.scenario import ScenarioRunner

    from .plant import plant
    plant(outcome.mutant, source)
    res = ScenarioRunner(game).run(data, file="<proposal>")
    return {"fails": not res.passed}


def propose_all(run: MutationRun, folder: str | Path | None, *, games: int = 12, workers: int | None = None,
                sources: dict[str, str] | None = None) -> None:
    """Search a difference for every survivor of ``run`` and set ``Outcome.proposal``; with a
    folder, write each verified proposal there as ``<module>-<line>-<index>.yaml``."""
    import yaml

    from workbench.core import storage
    from workbench.core.registry import get_game
    from workbench.core.scenario import ScenarioRunner

    from .run import population
    game = get_game(run.game)
    if sources is None:
        _all, sources = population(run.modules)
    surv = [o for o in run.outcomes if o.status in ("survived", "unreached")]
    if not surv:
        return
    traces = reference_games(game, games)
    k = workers or os.cpu_count() or 1
    found: dict[int, dict] = {}

    def job(o: Outcome) -> dict:
        from .plant import plant
        plant(o.mutant, sources[o.mutant.module])
        return _search(game, traces)

    fork_each([(i, partial(job, o), 120.0) for i, o in enumerate(surv)], k,
              lambda i, answer, _s: found.__setitem__(i, answer))
    checks = []
    for i, o in enumerate(surv):
        answer = found.get(i) or {}
        if "steps" not in answer:
            o.proposal = {"summary": answer.get("summary") or _why(answer)}
            continue
        data = scenario_of(o, answer)
        passes = ScenarioRunner(game).run(data, file="<proposal>").passed
        o.proposal = {"summary": answer["summary"], "scenario": data, "passes_on_real_engine": passes}
        checks.append((i, partial(_fails_on_mutant, o, sources[o.mutant.module], game, data), 120.0))
    verdicts: dict[int, Any] = {}
    fork_each(checks, k, lambda i, answer, _s: verdicts.__setitem__(i, answer))
    out_dir = storage.make_folder(folder, "--propose") if folder is not None else None
    for i, o in enumerate(surv):
        if o.proposal is None or "scenario" not in o.proposal:
            continue
        v = verdicts.get(i) or {}
        o.proposal["fails_on_mutant"] = bool(v.get("fails") or "timeout" in v or "crashed" in v)
        if out_dir is not None and o.proposal["passes_on_real_engine"] and o.proposal["fails_on_mutant"]:
            name = f"mutant-{o.mutant.module.rpartition('.')[2]}-{o.mutant.line}-{o.mutant.index}.yaml"
            text = yaml.safe_dump(o.proposal["scenario"], sort_keys=False, allow_unicode=True, width=110)
            o.proposal["file"] = str(storage.write_text(storage.inside(out_dir, name, "--propose"), text,
                                                        "--propose"))


def _why(answer: dict) -> str:
    if "timeout" in answer:
        return "the search ran out of time"
    return f"the search failed: {answer.get('crashed') or 'the run died'}"
