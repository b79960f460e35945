"""``workbench compare``: what an edit of the cards does, played on paired seeds.

The edits go through the Cards page's tweak session (each one validated as a
file on disk would be, a bad one refused with one line); the old and the
edited pool then play the same games (:mod:`workbench.sim.progressive`), and
every look prints the verdicts it decided, so the first answer is on screen
after the first look. The run stops once every watched metric (the game's
leading metrics and the edited cards' own, :mod:`workbench.sim.verdicts`) is
decided, or when the budget is spent.
"""

from __future__ import annotations

import sys

from workbench.sim.verdicts import IDENTICAL

from .common import add_game_options, emit_json, game_setup


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="what an edit does: the old and the edited cards on the same seeds",
                       description="Apply one or more edits (CARD.FIELD=VALUE) to the cards, play the old and "
                                   "the edited pool on the same seeds, and say per metric: better, worse, "
                                   "higher, lower, no meaningful change (inside the margin) or cannot tell "
                                   "yet (with the games that would decide it). Stops once every leading "
                                   "metric is decided.")
    p.add_argument("game", help="game id (see `workbench check`)")
    p.add_argument("--edit", action="append", default=[], metavar="CARD.FIELD=VALUE",
                   help="one edit, e.g. Shell.E=4 or settings.meaning=3 (repeatable)")
    p.add_argument("--games", type=int, default=200, help="budget: games per arm at most (default 200)")
    p.add_argument("--margin", action="append", default=[], metavar="METRIC=M",
                   help="equivalence margin of a metric, e.g. track_low=1 (repeatable)")
    p.add_argument("--watch", action="append", default=[], metavar="METRIC",
                   help="watch this metric instead of the game's leading ones (repeatable; "
                        "card metrics as card_times:NAME)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes (default: every core; 0 plays in this process)")
    p.add_argument("--no-stop", action="store_true", help="play the whole budget even once all is decided")
    p.add_argument("--no-explain", action="store_true",
                   help="skip the explanation of a decided change (where paired games part ways, the cards "
                        "whose use moved, each edit's share)")
    p.add_argument("--explain-pairs", type=int, default=12, metavar="N",
                   help="paired games replayed to find where they part ways (default 12)")
    p.add_argument("--adapt", action="store_true",
                   help="seat in each arm a greedy bot tuned to that arm's pool by self-play (what players who "
                        "learned the new cards would do); cached per pool version and edits")
    p.add_argument("--adapt-trials", type=int, default=12, metavar="N",
                   help="tuning trials per arm with --adapt (default 12)")
    p.add_argument("--adapt-games", type=int, default=24, metavar="N",
                   help="self-play games per tuning trial with --adapt (default 24)")
    p.add_argument("--adapt-seconds", type=float, default=300.0, metavar="S",
                   help="wall-time bound of each arm's tuning with --adapt (default 300)")
    add_game_options(p)
    p.set_defaults(func=run)


def parse_edit(text: str, names) -> tuple[str, str, str]:
    """``CARD.FIELD=VALUE`` -> (card, field, value). A card name may hold dots:
    the longest prefix that names a card (case-insensitive) is the card;
    otherwise the text before the first dot."""
    from workbench.core.errors import WorkbenchError
    target, sep, value = text.partition("=")
    target = target.strip()
    if not sep or "." not in target:
        raise WorkbenchError(f"--edit {text!r}: write CARD.FIELD=VALUE, e.g. Shell.E=4")
    known = {str(n).lower() for n in names}
    cuts = [i for i, ch in enumerate(target) if ch == "."]
    for i in reversed(cuts):
        if target[:i].strip().lower() in known:
            return target[:i].strip(), target[i + 1:].strip(), value.strip()
    card, _, field = target.partition(".")
    if not card.strip() or not field.strip():
        raise WorkbenchError(f"--edit {text!r}: write CARD.FIELD=VALUE, e.g. Shell.E=4")
    return card.strip(), field.strip(), value.strip()


def _margins(pairs) -> dict:
    from workbench.core.errors import WorkbenchError
    out = {}
    for text in pairs:
        key, sep, value = text.partition("=")
        try:
            m = float(value)
        except ValueError:
            m = None
        if not sep or not key.strip() or m is None or not m >= 0 or m == float("inf"):
            raise WorkbenchError(f"--margin {text!r}: write METRIC=M with M a number, 0 or more")
        out[key.strip()] = m
    return out


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"


def describe(row: dict) -> str:
    """One verdict as a line: metric, verdict, old -> new, the interval (for
    identical pairs: the value every pair shared, and how many pairs)."""
    if row.get("identical") and row["verdict"] == IDENTICAL:
        return (f"{row['metric']}: {row['verdict']}  {_fmt(row['old'])} -> {_fmt(row['new'])} "
                f"(the same in both pools in all {row['games']['old']} paired games)")
    interval = (f"[{_fmt(row['low'])}, {_fmt(row['high'])}]" if row["low"] is not None else "[no interval]")
    line = (f"{row['metric']}: {row['verdict']}  {_fmt(row['old'])} -> {_fmt(row['new'])} "
            f"(diff {_fmt(row['diff'])}, interval {interval}")
    if row.get("margin") is not None:
        line += f", margin ±{_fmt(row['margin'])}"
    line += ")"
    if row["verdict"] == "cannot tell yet":
        need = row.get("games_needed")
        line += (f"; about {need} games per arm would decide it at this spread" if need
                 else "; no difference seen and no margin: more games cannot decide it")
    return line


def print_explanation(e: dict, part_only: bool = False, shares_only: bool = False) -> None:
    """The explanation under the verdict, in a few lines: the parting and the
    cards' use (``part_only``: printed as soon as they are known), then the
    edits' shares (``shares_only``: printed when their games are played)."""
    if not shares_only:
        print_parting(e)
    if not part_only:
        print_shares(e)


def print_parting(e: dict) -> None:
    from workbench.tweak.explain import parting_lines
    print("\n".join(parting_lines(e)))
    sys.stdout.flush()


def print_shares(e: dict) -> None:
    from workbench.tweak.explain import share_lines
    for line in share_lines(e):
        print(line)


def adapt(game, session, edits, args, players: int, options: dict) -> dict:
    """Tune a greedy bot to each arm's pool by self-play (:func:`workbench.sim.tune.tune`),
    bounded by ``--adapt-trials``, ``--adapt-games`` and ``--adapt-seconds``;
    cached by the pool version (the old arm) plus the edits (the new arm) in
    the card folder's ``.workbench/tuned``. Returns, per arm, the bot spec and
    the self-play scores of the tuned and of the plain greedy bot."""
    import json
    import os

    from workbench.core.errors import WorkbenchError
    from workbench.core.versions import HISTORY_DIR, game_folder, pool_version
    from workbench.sim.tune import tune
    if args.bots and args.bots != "greedy":
        raise WorkbenchError("--adapt tunes greedy bots to each pool; leave --bots out")
    if min(args.adapt_trials, args.adapt_games) < 1 or not args.adapt_seconds > 0:
        raise WorkbenchError("--adapt-trials, --adapt-games and --adapt-seconds must be above 0")
    version = pool_version(game)
    changed = json.dumps([[e["card"], e["field"], str(e["new"])] for e in edits])
    cache = None if os.environ.get("WORKBENCH_NO_HISTORY") else game_folder(game) / HISTORY_DIR / "tuned"
    out = {}
    for arm, ref, key in zip(("old", "new"), session.pool_refs(), (version, version + changed)):
        t = tune(ref, players=players, pool_key=key, trials=args.adapt_trials, games=args.adapt_games,
                 seconds=args.adapt_seconds, seed=args.seed, workers=args.workers, cache_dir=cache,
                 variants=tuple(args.variant), options=options)
        out[arm] = {"bot": t.bot, "score": t.score, "greedy_score": t.baseline, "trials": t.trials,
                    "games": t.games, "seconds": t.seconds, "cached": t.cached}
        if not args.json:
            print(f"  tuned to the {arm} pool ({t.trials} trials of {t.games} games, {t.seconds:.0f} s"
                  f"{', cached' if t.cached else ''}): self-play {t.baseline:.3f} -> {t.score:.3f}, {t.bot}")
    return out


def record_compare_run(game, params: dict, rows: list[dict]) -> str | None:
    """Enter the comparison in the pool's history against the version it
    compared from (the pool on disk, the old arm): the edits, and per metric
    old, new, the difference's interval and the verdict
    (:func:`workbench.core.versions.record_run`, as ``simulate`` and
    ``balance`` do), so ``workbench history`` lists it beside them."""
    from workbench.core.versions import record_run
    metrics = {r["key"]: {"before": r["old"], "after": r["new"], "diff": r["diff"], "low": r["low"],
                          "high": r["high"], "verdict": r["verdict"]} for r in rows}
    return record_run(game, None, "compare", params, metrics)


def run(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.tweak import open_session
    from workbench.sim.metrics import bot_summary
    from workbench.sim.verdicts import UNDECIDED, verdict_rows

    from . import validate
    game = validate.game(args.game)
    budget = validate.games(args.games)
    validate.workers(args.workers)
    players, seed, options, bots = game_setup(args, game)
    # a variant or option the game refuses is one line before any game is played
    # (both pools play the same ones, as `workbench simulate` takes them)
    game.new_initial_state(game.config(players or game.default_players, seed=seed, variants=args.variant,
                                       **options))
    margins = _margins(args.margin)
    if not args.edit:
        raise WorkbenchError("compare needs at least one --edit CARD.FIELD=VALUE")
    session = open_session(game.id)
    names = list(session.card_names()) + ["settings"]
    edits, typed = [], []
    for text in args.edit:
        card, field, value = parse_edit(text, names)
        typed.append((card, field, value))
        report = session.edit(card, field, value)
        # the value as the session stored it (a number, not the text typed)
        edits.append({"card": report.card, "field": report.field, "old": report.old,
                      "new": session.value_of(report.card, report.field), "analyses": report.lines()})
    change = "; ".join(f"{e['card']} {e['field']} {e['old']} -> {e['new']}" for e in edits)
    bots_new = None
    tuned = None
    if args.adapt:
        tuned = adapt(game, session, edits, args, players or game.default_players, options)
        bots, bots_new = tuned["old"]["bot"], tuned["new"]["bot"]
    stream = session.stream_playtest(n=budget, players=players, seed=seed, bots=bots, bots_new=bots_new,
                                     workers=args.workers,
                                     watch=tuple(args.watch) if args.watch else None, margins=margins,
                                     stop_early=not args.no_stop, variants=tuple(args.variant), options=options)
    if not args.json:
        rules = "".join(f", variant {v}" for v in args.variant) + "".join(f", {k}={v}" for k, v in options.items())
        arms = bots if not bots_new else f"{bots} (old pool), {bots_new} (new pool)"
        print(f"{game.name}, {players or game.default_players} players, bots {arms}, seed {seed}{rules}: {change}")
        sys.stdout.flush()
    shown: dict[str, str] = {}
    last = None
    for update in stream:
        last = update
        if args.json:
            continue
        rows = verdict_rows(update)
        if update.preview:
            continue
        fresh = [r for r in rows if r["verdict"] != UNDECIDED and shown.get(r["key"]) != r["verdict"]]
        for r in fresh:
            shown[r["key"]] = r["verdict"]
            print(f"  {update.games} games per arm ({update.elapsed:.1f} s): {describe(r)}")
        sys.stdout.flush()
    rows = verdict_rows(last)
    from workbench.sim.verdicts import card_notes
    renames = session.renamed_cards()
    old_name = {new: old for old, new in renames.items()}
    edited = list(dict.fromkeys(old_name.get(e["card"], e["card"]) for e in edits))
    notes = card_notes(rows, edited, renames)
    from workbench.core.rng import derive_seed
    params = {"games": last.games, "budget": budget, "players": players or game.default_players, "bots": bots,
              "seed": seed, "variants": list(args.variant), "options": options,
              "edits": [{k: e[k] for k in ("card", "field", "old", "new")} for e in edits]}
    record_compare_run(game, params, rows)
    per_bot = {"old": bot_summary(last.a), "new": bot_summary(last.b)}
    if not args.json:
        # the verdict first; the explanation's parts follow as each is known
        why = ("every metric decided" if last.decided else "budget spent")
        print(f"final at {last.games} games per arm, {last.elapsed:.1f} s ({why}):")
        for r in rows:
            print(f"  {describe(r)}")
        for note in notes:
            print(f"  {note}")
        if len(per_bot["old"]) > 1:
            print("per bot (skill level), old -> new pool:")
            for o, n in zip(per_bot["old"], per_bot["new"]):
                print(f"  {o['bot']}: win rate {o['win_rate']:.3f} -> {n['win_rate']:.3f}, "
                      f"mean score {o['mean_score']:.2f} -> {n['mean_score']:.2f} ({o['seats']} seats)")
        sys.stdout.flush()
    explanation = None
    if not args.no_explain and any(r.get("direction") for r in rows):
        from workbench.tweak.explain import explain
        explanation = explain(last, typed, game_id=game.id, workers=args.workers, pairs=args.explain_pairs,
                              rows=rows, on_parting=None if args.json else
                              (lambda e: print_explanation(e, part_only=True)))
        if not args.json:
            print_explanation(explanation, shares_only=True)
    doc = {"game": game.id, "players": params["players"], "bots": bots, "seed": seed,
           "variants": list(args.variant), "options": options, "edits": edits, "budget": budget, "games": last.games, "stopped_early": last.stopped_early,
           "decided": last.decided, "elapsed": round(last.elapsed, 3),
           "seeds": [derive_seed(seed, "game", i) for i in range(last.games)],
           "metrics": rows,
           # plain sentences about the edited cards ("the card is dead"), and the cards renamed (old -> new)
           "notes": notes, "renamed": renames,
           # with --adapt: each arm's tuned bot, its self-play score and the plain greedy bot's
           "adapted": tuned,
           # per bot (skill level) seated, on each pool: a mixed table read per level
           "per_bot": per_bot,
           # why a decided change happened (None when nothing was decided or with --no-explain)
           "explanation": explanation}
    if args.json:
        emit_json(doc)
    return 0
