"""Planted edits: does ``workbench compare`` see an edit whose effect is known?

For every registered game with a ``planted`` module (see
:mod:`workbench.tweak.planted`), draws ``--per-kind`` edits of each kind the
game offers (seeded: ``--seed``), plays each one through the same tweak
session and paired playtest as ``workbench compare`` within its default
budget, and writes:

* ``analyses/out/planted_<game>_seed<seed>.jsonl``: one line per edit (the edits, the
  player count, the expected metrics, the outcome, the games played, the
  seconds and every decided verdict), appended as each edit finishes, so a
  long run can be read (and resumed: edits already in the file are skipped)
  while it goes on;
* a Markdown table on stdout per game: for each kind the edits, hits, wrong
  directions and misses (for no-op and rename edits: false calls), the share
  of hits with its 95 % Wilson interval, the hits per player count, and the
  median games per arm and seconds.

The kinds include a card made much stronger or much weaker in what it gives
(``stronger-card``, ``weaker-card`` in every game, expecting the taker
metrics ``card_taker_*``) and a rename (``rename``, a quiet kind like
``no-op``: any decided change is a false call).

Run: ``.venv/bin/python analyses/planted_edits.py [--game ID ...] [--per-kind 10]
[--budget 200] [--workers N] [--bots greedy:card_value=1] [--report-only]``. Too slow for the test suite
(tests/test_verdicts.py runs the machinery on a few games).

``--first-verdict N`` measures what a designer waits for instead: for each game,
the first N edits of the seed's draw that are not quiet kinds are each played by
a fresh child process, ``python analyses/planted_edits.py --one-edit ...``, doing
only what ``workbench compare`` does (imports, the card session, the edit, the
streamed paired playtest); the seconds from the child's start (the moment it is
spawned) to its first look with a decided verdict are printed per edit, with the
median and the largest per game. A wall-clock figure: run it on a quiet machine
and say the load beside it. Choosing the edits (``pick_rates``' baseline games)
happens before any child starts and is not timed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def _wilson(k: int, n: int) -> tuple[float, float]:
    if not n:
        return (0.0, 1.0)
    from scipy.stats import binomtest
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def generate(game_id: str, per_kind: int, seed: int, workers) -> list:
    from workbench.tweak import open_session
    from workbench.tweak.planted import kinds_of, pick_rates, planted_module
    from workbench.core.registry import get_game
    game = get_game(game_id)
    module = planted_module(game)
    session = open_session(game_id)
    rates: dict[int, dict] = {}

    def rates_at(n: int) -> dict:
        if n not in rates:
            rates[n] = pick_rates(game_id, n, workers=workers)
        return rates[n]

    by_kind = []
    for kind in kinds_of(game):
        rng = random.Random(f"{seed}:{game_id}:{kind}")
        by_kind.append(module.planted_edits(session, rng, kind, per_kind, pick_rates=rates_at))
    # the kinds taken in turn (the same edits as kind by kind): a run cut short
    # has measured every kind about as often
    return [edits[k] for k in range(per_kind) for edits in by_kind if k < len(edits)]


def report(game_id: str, lines: list[dict]) -> str:
    kinds = list(dict.fromkeys(r["kind"] for r in lines))
    from workbench.tweak.planted import QUIET_KINDS
    rows = ["| kind | edits | hits | wrong | missed / false calls | hit share [95 %] | by players | "
            "median games per arm | median s |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for kind in kinds:
        rs = [r for r in lines if r["kind"] == kind]
        n = len(rs)
        games = statistics.median(r["games"] for r in rs)
        secs = statistics.median(r["seconds"] for r in rs)
        good = "quiet" if kind in QUIET_KINDS else "hit"
        counts = sorted({r["players"] for r in rs})
        by_players = ", ".join(f"{c}p {sum(r['outcome'] == good for r in rs if r['players'] == c)}/"
                               f"{sum(r['players'] == c for r in rs)}" for c in counts)
        if kind in QUIET_KINDS:
            false = sum(r["outcome"] == "false call" for r in rs)
            lo, hi = _wilson(false, n)
            rows.append(f"| {kind} | {n} | - | - | {false} false calls | false-call share "
                        f"{false / n:.2f} [{lo:.2f}, {hi:.2f}] | quiet {by_players} | {games:g} | {secs:.1f} |")
            continue
        hits = sum(r["outcome"] == "hit" for r in rs)
        wrong = sum(r["outcome"] == "wrong" for r in rs)
        missed = sum(r["outcome"] == "missed" for r in rs)
        lo, hi = _wilson(hits, n)
        rows.append(f"| {kind} | {n} | {hits} | {wrong} | {missed} | {hits / n:.2f} [{lo:.2f}, {hi:.2f}] | "
                    f"hits {by_players} | {games:g} | {secs:.1f} |")
    # every edit not seen as planted, with what the last look said of its expected metrics
    notes = []
    for r in lines:
        if r["outcome"] in ("hit", "quiet"):
            continue
        said = "; ".join(f"{e['key']} {e['verdict']} (diff {e['diff']:.3g}"
                         + (f", about {e['games_needed']} games per arm would decide it" if e.get("games_needed") else "")
                         + ")" for e in r.get("expected_rows", []) if e.get("diff") is not None)
        notes.append(f"* {r['kind']}: {r['note']} at {r['players']} players: {r['outcome']} after {r['games']} games"
                     + (f": {said}" if said else ""))
    return f"### {game_id}\n\n" + "\n".join(rows) + ("\n\n" + "\n".join(notes) if notes else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", default=[], help="game id (default: every game with planted edits)")
    ap.add_argument("--per-kind", type=int, default=10)
    ap.add_argument("--budget", type=int, default=200, help="games per arm at most (compare's default)")
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--kind", action="append", default=[], help="only these kinds")
    ap.add_argument("--bots", default="greedy",
                    help="the bots of both arms (default greedy; e.g. greedy:card_value=1, the bots that value "
                         "what a card gives); a run with other bots writes its own file")
    ap.add_argument("--report-only", action="store_true", help="print the tables of the files written so far")
    ap.add_argument("--first-verdict", type=int, default=0, metavar="N",
                    help="seconds from a fresh process's start to the first decided verdict, for the first N "
                         "edits of each game that are not quiet kinds (nothing written to analyses/out)")
    ap.add_argument("--one-edit", default=None, help=argparse.SUPPRESS)   # the child of --first-verdict
    args = ap.parse_args(argv)
    if args.one_edit is not None:
        return one_edit(args.game[0], json.loads(args.one_edit), args.budget, args.workers)
    if args.first_verdict:
        return first_verdicts(args)
    from workbench.core.registry import game_ids, get_game
    from workbench.tweak.planted import planted_module, run_planted
    ids = args.game or [g for g in game_ids() if planted_module(get_game(g))]
    OUT.mkdir(exist_ok=True)
    for game_id in ids:
        # one file per generator seed: a fresh seed's figures never mix with the seed developed against
        tag = "" if args.bots == "greedy" else "_" + "".join(c if c.isalnum() else "-" for c in args.bots)
        path = OUT / f"planted_{game_id}_seed{args.seed}{tag}.jsonl"
        done = [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []
        if not args.report_only:
            seen = {json.dumps([d["kind"], d["edits"], d["players"]]) for d in done}
            for planted in generate(game_id, args.per_kind, args.seed, args.workers):
                if args.kind and planted.kind not in args.kind:
                    continue
                key = json.dumps([planted.kind, [list(e) for e in planted.edits], planted.players])
                if key in seen:
                    continue
                line = run_planted(game_id, planted, budget=args.budget, workers=args.workers, bots=args.bots)
                done.append(line)
                seen.add(key)
                with path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(line) + "\n")
                print(f"{game_id} {line['kind']}: {line['note']} at {line['players']} players -> "
                      f"{line['outcome']} ({line['games']} games, {line['seconds']} s)", file=sys.stderr)
        if done:
            print(report(game_id, done) + "\n")
    return 0


def one_edit(game_id: str, edit: dict, budget: int, workers) -> int:
    """The child of ``--first-verdict``: what ``workbench compare`` does for one
    edit (a card session, the edit, the streamed paired playtest of the game's
    leading metrics, the edited cards' and the expected ones), printing one
    JSON line and stopping at the first look with a decided verdict."""
    from workbench.sim.verdicts import leading_watch, verdict_rows
    from workbench.tweak import open_session
    session = open_session(game_id)
    for card, column, value in edit["edits"]:
        session.edit(card, column, value)
    old_name = {new: old for old, new in session.renamed_cards().items()}
    now_name = {old: new for new, old in old_name.items()}
    cards = [c for c, _, _ in edit["edits"]
             if session._played(now_name.get(c, c)) and not session._is_cell(now_name.get(c, c))]
    watch = leading_watch(session.game, list(dict.fromkeys(old_name.get(c, c) for c in cards)))
    watch += [k for k, _ in edit["expect"] if k not in watch]
    expected = dict((k, want) for k, want in edit["expect"])
    found = None
    for update in session.stream_playtest(n=budget, players=edit["players"], seed=1, bots="greedy",
                                          workers=workers, watch=tuple(watch), first_preview=None):
        decided = [r for r in verdict_rows(update) if r["verdict"] != "cannot tell yet"]
        if decided:
            found = {"games": update.games, "decided": [r["key"] for r in decided],
                     "expected_right": [k for k in expected for r in decided
                                        if r["key"] == k and r.get("direction") == expected[k]]}
            break
    print(json.dumps(found), flush=True)
    return 0


def first_verdicts(args) -> int:
    """``--first-verdict N``: per game, N edits (quiet kinds left out), each in a
    fresh child process timed from its spawn to its first decided verdict."""
    from workbench.core.registry import game_ids, get_game
    from workbench.tweak.planted import QUIET_KINDS, planted_module
    ids = args.game or [g for g in game_ids() if planted_module(get_game(g))]
    print(f"first decided verdict, seconds from a fresh process's start (seed {args.seed}, "
          f"budget {args.budget} games per arm, workers {args.workers or 'default'}); load at start: "
          f"{' '.join(f'{x:.2f}' for x in __import__('os').getloadavg())}")
    for game_id in ids:
        edits = [e for e in generate(game_id, max(1, args.per_kind), args.seed, args.workers)
                 if e.kind not in QUIET_KINDS and (not args.kind or e.kind in args.kind)][: args.first_verdict]
        took = []
        for planted in edits:
            cmd = [sys.executable, __file__, "--game", game_id, "--budget", str(args.budget),
                   "--one-edit", json.dumps(planted.to_dict())]
            if args.workers is not None:
                cmd += ["--workers", str(args.workers)]
            start = time.perf_counter()
            child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            line = child.stdout.readline()          # written at the first decided look
            seconds = time.perf_counter() - start
            child.wait()
            found = json.loads(line) if line.strip() else None
            if found is None:
                print(f"  {game_id} {planted.kind}: {planted.note}: nothing decided within "
                      f"{args.budget} games per arm ({seconds:.1f} s)")
                continue
            took.append(seconds)
            print(f"  {game_id} {planted.kind}: {planted.note} at {planted.players} players: first decided "
                  f"verdict at {seconds:.2f} s ({found['games']} games per arm: {', '.join(found['decided'])}"
                  f"{'; expected metric decided right' if found['expected_right'] else ''})", flush=True)
        if took:
            print(f"{game_id}: median {statistics.median(took):.2f} s, largest {max(took):.2f} s over "
                  f"{len(took)} edits (target 3 s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
