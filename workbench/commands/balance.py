"""``workbench balance``: search draft card values toward the designer's targets."""

from __future__ import annotations

import math

import sys

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "balance", help="search draft card values toward target metrics (Optuna TPE)",
        description="Search the draft values of the card files for values that bring bot playtests "
                    "within the targets. Trials play the same seeds (paired); the proposal is checked "
                    "on fresh seeds and shown as a card-file diff. Values with provenance: seed never "
                    "change unless --allow-seed.")
    p.add_argument("game", help="a registered game id (an unknown one is answered with the list)")
    p.add_argument("--target", action="append", default=[], metavar="EXPR",
                   help="e.g. 'survival=0.55..0.8 @players=2..5' or 'legacy_cap_share<=0.1' (repeatable)")
    p.add_argument("--vary", action="append", default=[], metavar="PATTERN",
                   help="card values to search: KIND.NAME.FIELD with a range, e.g. 'cards.*.cost=0..3' "
                        "(the kinds and fields are the game's: without --vary the command names the "
                        "game's own example); PATTERN+=LO..HI moves every value it names by one searched "
                        "step; see docs/balancing.md (repeatable)")
    p.add_argument("--trials", type=int, default=20, help="trials in the study (default 20)")
    p.add_argument("--games-per-trial", type=int, default=16,
                   help="games per player count in each trial (default 16)")
    p.add_argument("--fresh-games", type=int, default=None,
                   help="games per player count for the before/after check (default 2 x games per trial)")
    p.add_argument("--players", type=int, default=None, help="player count of targets without @players")
    p.add_argument("--bots", default="greedy", help="bots of every trial (default greedy)")
    p.add_argument("--seed", type=int, default=1, help="master seed of the trials' games and of the sampler")
    p.add_argument("--allow-seed", action="store_true", help="also vary values whose provenance is seed")
    p.add_argument("--change-cost", type=float, default=0.002,
                   help="loss per step of change from the current values (default 0.002)")
    p.add_argument("--margin", type=float, default=0.0,
                   help="aim this far inside every target's band during the search, so the proposal "
                        "does not land on the line (e.g. 0.01; the fresh check judges the band itself)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, help="processes in the pool (default every core)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS|local", help="run the trials on Dask")
    p.add_argument("--study", default=None, metavar="FILE.sqlite",
                   help="keep the study in this SQLite file; running again resumes it (missing folders "
                        "on the way are created)")
    p.add_argument("--plot", default=None, metavar="FILE.html",
                   help="the search plot (default: beside --study as .html; none without either; "
                        "missing folders on the way are created)")
    p.add_argument("--apply", action="store_true", help="write the proposal into the card files (through "
                                                        "the tweak session; .bak files kept)")
    p.add_argument("--undo", action="store_true", help="take back the proposal of --study applied earlier")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def _fmt(value, ci=None) -> str:
    if value is None:
        return "-"
    text = f"{value:.3f}"
    if ci and ci[0] is not None:
        text += f" [{ci[0]:.2f}, {ci[1]:.2f}]"
    elif ci:
        text += " (too few games)"
    return text


#: the most trials of one study (each plays games at every player count a target names)
MAX_TRIALS = 10_000
#: the most games per trial and player count, and per fresh check
MAX_GAMES_PER_TRIAL = 100_000
#: the most games one balance run may play in all (trials x games x player counts)
MAX_TOTAL_GAMES = 10_000_000
#: the largest --change-cost (a loss per changed value; a share or rate is under 1)
MAX_CHANGE_COST = 1000.0
#: the largest bound or step a --vary pattern may give (card values are small counts)
MAX_VARY_VALUE = 10_000


def check_sizes(args, game, targets) -> None:
    """Caps on what a balance run plays, checked before any trial runs: one clear
    line rather than a run that never ends or a library's traceback."""
    import re

    from workbench.core.errors import WorkbenchError

    from . import validate
    trials = validate.whole(args.trials, "--trials", 1, MAX_TRIALS)
    per = validate.whole(args.games_per_trial, "--games-per-trial", 1, MAX_GAMES_PER_TRIAL)
    if args.fresh_games is not None:
        validate.whole(args.fresh_games, "--fresh-games", 1, MAX_GAMES_PER_TRIAL)
    validate.seed(args.seed)
    players = validate.players(game, args.players)
    counts = set()
    for t in targets:
        for n in t.players or ():
            if not game.min_players <= n <= game.max_players:
                raise WorkbenchError(f"--target {t.text!r}: {game.name} plays {game.min_players} to "
                                     f"{game.max_players} players, not {n}")
            counts.add(n)
        for bound in (t.low, t.high):
            if bound is not None and (not math.isfinite(bound) or abs(bound) > 1e12):
                raise WorkbenchError(f"--target {t.text!r}: {bound} is not a value a metric takes")
        if not t.players:
            counts.add(players or 0)
    total = trials * per * max(1, len(counts))
    if total > MAX_TOTAL_GAMES:
        raise WorkbenchError(f"{trials:,} trials x {per:,} games x {max(1, len(counts))} player count(s) = "
                             f"{total:,} games; a balance run plays at most {MAX_TOTAL_GAMES:,} (fewer trials or "
                             "games per trial)")
    for pattern in args.vary:
        for number in re.findall(r"(?:\+-|±|=|\.\.)\s*(\d+)", pattern):
            if int(number) > MAX_VARY_VALUE:
                raise WorkbenchError(f"--vary {pattern!r}: {int(number):,} is beyond the {MAX_VARY_VALUE:,} a card "
                                     "value may be varied to")


def run(args) -> int:
    from pathlib import Path

    from workbench.balance.report import apply_edits, plot_search, undo_edits
    from workbench.balance.search import BalanceSpec, open_session
    from workbench.balance.verdict import propose, record_balance_run, summary_line
    from workbench.balance.targets import parse_target
    from workbench.core.errors import WorkbenchError

    from workbench.balance.search import check_study_file

    from . import validate
    check_study_file(Path(args.study) if args.study else None)  # before the pool is even read
    validate.out_path(args.study, "--study", (".sqlite", ".sqlite3", ".db"))
    validate.out_path(args.plot, "--plot", (".html", ".htm"))
    session = open_session(args.game)
    from workbench.core.bots import check_specs
    check_specs(session.game, args.bots)
    targets = [parse_target(t) for t in args.target]
    # the examples are the game's own declared defaults, in its own words
    declared = dict(session.game.balance or {})
    if not targets:
        example = next(iter(declared.get("targets") or ()), "seat_gap<=0.1")
        raise WorkbenchError(f"give at least one --target, e.g. --target '{example}'")
    if not args.vary:
        example = next(iter(declared.get("vary") or ()), "KIND.NAME.FIELD")
        raise WorkbenchError(f"give at least one --vary, e.g. --vary '{example}'")
    if args.undo and not args.study:
        raise WorkbenchError("--undo takes back the proposal of a study: give its --study file")
    check_sizes(args, session.game, targets)
    if not math.isfinite(args.change_cost) or not 0 <= args.change_cost <= MAX_CHANGE_COST:
        raise WorkbenchError(f"--change-cost must be a number from 0 to {MAX_CHANGE_COST:g}, not {args.change_cost}")
    if not 0 <= args.margin < 1:
        raise WorkbenchError("--margin must be 0 or more and under 1 (a share or rate, e.g. 0.01)")
    if args.workers is not None and args.workers < 0:
        raise WorkbenchError("--workers must be 0 or more")
    spec = BalanceSpec(args.game, targets, list(args.vary), trials=args.trials,
                       games_per_trial=args.games_per_trial, seed=args.seed, bots=args.bots,
                       players=args.players, allow_seed=args.allow_seed, change_cost=args.change_cost,
                       margin=args.margin, workers=args.workers, scheduler=args.scheduler,
                       study_path=Path(args.study) if args.study else None)
    if args.undo:
        from workbench.balance.search import proposal_of
        edits = proposal_of(spec)
        written = undo_edits(session, edits)
        msg = {"undone": edits, "written": [str(p) for p in written]}
        if args.json:
            emit_json(msg)
        else:
            print(f"took back {len(edits)} edit{'' if len(edits) == 1 else 's'}; wrote {', '.join(str(p) for p in written) or 'nothing'}")
        return 0

    bar = None
    try:
        from tqdm import tqdm
        bar = tqdm(total=spec.trials, desc="balance trials", unit="trial", file=sys.stderr, disable=None)
    except ImportError:  # pragma: no cover - tqdm is a dependency
        pass

    def progress(done: int, total: int, best) -> None:
        if bar is not None:
            bar.n = done
            bar.set_postfix_str(f"best loss {best:.3f}" if best is not None else "")
            bar.refresh()

    fresh_games = args.fresh_games or 2 * spec.games_per_trial
    run = propose(spec, session, fresh_games=fresh_games, progress=progress,
                  on_fresh=bar.close if bar is not None else None)
    result, searched, diff, rows, verdict = (run["result"], run["searched"], run["diff"], run["rows"],
                                             run["verdict"])
    plot_path = Path(args.plot) if args.plot else (Path(args.study).with_suffix(".html") if args.study else None)
    if plot_path is not None:
        plot_search(result.trials, plot_path, f"balance {args.game}: {', '.join(t.text for t in targets)}")
    refused = args.apply and bool(result.edits) and not verdict["offered"]
    # recorded against the version searched from, before an apply makes a new one
    record_balance_run(args.game, session.folder, spec, rows, result.edits, verdict,
                       applied=bool(args.apply and result.edits and verdict["offered"]))
    written = apply_edits(session, result.edits, note=f"balance: {', '.join(t.text for t in targets)}") \
        if args.apply and verdict["offered"] else []
    doc = {
        "game": args.game, "targets": [t.text for t in targets], "vary": spec.vary,
        "variables": len(result.variables), "protected_seed_values": result.protected,
        "trials": len(result.trials), "ran": result.ran, "study": args.study,
        "best_trial": result.best["number"] if result.best else None,
        "best_loss": result.best["loss"] if result.best else None,
        "baseline_loss": result.baseline["loss"] if result.baseline else None,
        "edits": result.edits, "edits_before_pruning": searched, "diff": diff, "fresh_check": rows,
        "offered": bool(result.edits) and verdict["offered"], "verdict": verdict,
        "plot": str(plot_path) if plot_path else None, "applied": [str(p) for p in written],
    }
    if args.json:
        emit_json(doc)
        return 1 if refused else 0
    seeds = sum(v.provenance == "seed" for v in result.variables)
    print(f"{args.game}: " + (f"{len(result.variables)} values searched ({seeds} seed)" if seeds
                              else f"{len(result.variables)} draft values searched")
          + (f" ({len(result.protected)} seed values left alone)" if result.protected else "")
          + f"; {len(result.trials)} trials ({result.ran} run now)")
    if result.best:
        print(f"best trial {result.best['number']}: loss {result.best['loss']:.3f} "
              f"(the cards as they are: {doc['baseline_loss']:.3f})" if doc["baseline_loss"] is not None
              else f"best trial {result.best['number']}: loss {result.best['loss']:.3f}")
    pruned = f" (pruned from {searched}: the others did not help)" if searched > len(result.edits) else ""
    print(f"\nproposal: {len(result.edits)} edit{'' if len(result.edits) == 1 else 's'}{pruned}"
          + (":" if result.edits else " (the cards as they are fit best)"))
    for e in result.edits:
        print(f"  {e['card']} {e['field']}: {e['old']} -> {e['new']}")
    if diff:
        print("\n" + diff.rstrip())
    print(f"\non fresh seeds ({fresh_games} games per player count, seed {rows[0]['seed'] if rows else '-'}), "
          "95% intervals:")
    width = max(len(r["target"]) for r in rows) if rows else 10
    print(f"  {'target':<{width}}  players  {'before':<22}  {'after':<22}  met")
    for r in rows:
        met = ("yes" if r["met_after"] else "no") + (" (was yes)" if r["met_before"] and not r["met_after"] else "")
        print(f"  {r['target']:<{width}}  {r['players']:>7}  {_fmt(r['before'], (r['before_low'], r['before_high'])):<22}  "
              f"{_fmt(r['after'], (r['after_low'], r['after_high'])):<22}  {met}")
    shown = set()
    for r in rows:  # a mixed table: each skill level's results, once per player count
        if r.get("by_bot") and r["players"] not in shown:
            shown.add(r["players"])
            print(f"  per bot (skill level) at {r['players']} players, before -> after:")
            for b in r["by_bot"]:
                print(f"    {b['bot']}: win rate {_fmt(b['win_rate_before'])} -> {_fmt(b['win_rate_after'])}, "
                      f"mean score {_fmt(b['mean_score_before'])} -> {_fmt(b['mean_score_after'])} "
                      f"({b['seats']} seats)")
    if plot_path:
        print(f"\nsearch plot: {plot_path}")
    print("\n" + summary_line(verdict, len(result.edits)))
    for reason in ([] if verdict["offered"] or not result.edits else verdict["reasons"]):
        print(f"  - {reason}")
    if written:
        print(f"applied: wrote {', '.join(str(p) for p in written)} (undo: the same command with --undo)")
    elif refused:
        print("not applied: --apply writes only a proposal the fresh check vouches for", file=sys.stderr)
        return 1
    elif result.edits and verdict["offered"]:
        print("not applied: add --apply to write the proposal into the card files")
    return 0
