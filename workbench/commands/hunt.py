"""``workbench hunt``: search restricted strategies for what breaks a game.

The search, its budget and its stopping rules are :mod:`workbench.hunt`'s;
this command reads the options, applies ``--edit`` edits through the Cards
page's tweak session (the pool hunted, never saved), prints each finding with
its effect, interval and witness game, or the whole report with ``--json``.
"""

from __future__ import annotations

import sys

from .common import add_game_options, emit_json, game_setup


def add_parser(sub) -> None:
    p = sub.add_parser("hunt", help="search restricted strategies for broken cards, lines, seats and stalls",
                       description="Race restricted strategies (always or never take a card or a kind of move, "
                                   "one fixed line, a stalling table) against the field with a bandit, and "
                                   "report each finding decided on fresh games with its effect, interval and a "
                                   "saved witness game (open it on the Play page). Also asks the baseline games "
                                   "about seat and role advantages, cards whose takers win far more often, "
                                   "and timeouts.")
    p.add_argument("game", help="game id (see `workbench check`)")
    p.add_argument("--edit", action="append", default=[], metavar="CARD.FIELD=VALUE",
                   help="hunt the pool with this edit, without saving it (repeatable)")
    p.add_argument("--budget", type=int, default=1200, help="games at most, all arms and stages (default 1200)")
    p.add_argument("--seconds", type=float, default=540.0, help="wall-clock bound in seconds (default 540)")
    p.add_argument("--confirm-games", type=int, default=64, help="fewest fresh games to confirm a finding (default 64)")
    p.add_argument("--confirmations", type=int, default=20,
                   help="confirmations one run may make; the error level is shared among them (default 20)")
    p.add_argument("--alpha", type=float, default=0.05, help="chance of any false finding in a run (default 0.05)")
    p.add_argument("--margin", action="append", default=[], metavar="KIND=M",
                   help="smallest effect worth a finding, e.g. beats-field=0.15 (repeatable)")
    p.add_argument("--out", default="out/hunt", metavar="DIR",
                   help="folder for the witness games (default out/hunt)")
    p.add_argument("--no-witness", action="store_true", help="do not replay and save witness games")
    p.add_argument("--workers", type=int, default=None,
                   help="processes (default: every core; 0 plays in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS|local", help="play on a Dask cluster")
    add_game_options(p)
    p.set_defaults(func=run)


def _margins(pairs) -> dict:
    from workbench.core.errors import WorkbenchError
    from workbench.hunt import MARGINS
    out = dict(MARGINS)
    for text in pairs:
        key, sep, value = text.partition("=")
        try:
            m = float(value)
        except ValueError:
            m = None
        if not sep or key.strip() not in MARGINS or m is None or not 0 <= m < float("inf"):
            raise WorkbenchError(f"--margin {text!r}: write KIND=M, KIND one of {', '.join(MARGINS)}, "
                                 "M a number, 0 or more")
        out[key.strip()] = m
    return out


def _fmt(v) -> str:
    return "-" if v is None else f"{v:+.3f}"


def run(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.hunt import run_hunt

    from . import validate
    from .compare import parse_edit
    game = validate.game(args.game)
    validate.workers(args.workers)
    players, seed, options, bots = game_setup(args, game)
    game.new_initial_state(game.config(players or game.default_players, seed=seed, variants=args.variant,
                                       **options))
    margins = _margins(args.margin)
    if args.budget < 1 or args.seconds <= 0:
        raise WorkbenchError("--budget and --seconds must be above 0")
    validate.out_path(args.out, "--out", None, folder_ok=True)
    ref, edits = game.id, []
    if args.edit:
        if args.scheduler:
            raise WorkbenchError("--edit hunts a pool held in this process; play it with --workers, "
                                 "not --scheduler")
        from workbench.tweak import open_session
        session = open_session(game.id)
        names = list(session.card_names()) + ["settings"]
        for text in args.edit:
            card, field, value = parse_edit(text, names)
            r = session.edit(card, field, value)
            edits.append({"card": r.card, "field": r.field, "old": r.old,
                          "new": session.value_of(r.card, r.field)})
        ref = session.pool_refs()[1]
    say = None if args.json else (lambda line: (print(line), sys.stdout.flush()))
    if not args.json:
        change = "; ".join(f"{e['card']} {e['field']} {e['old']} -> {e['new']}" for e in edits)
        print(f"hunting {game.name}, {players or game.default_players} players, bots {bots}, seed {seed}"
              + (f", edited: {change}" if change else ""))
    doc = run_hunt(ref, players=players, bots=bots, seed=seed, variants=tuple(args.variant), options=options,
                   workers=args.workers, scheduler=args.scheduler, out=None if args.no_witness else args.out,
                   progress=say, witnesses=not args.no_witness, extra={"edits": edits},
                   budget=args.budget, seconds=args.seconds, confirm_games=args.confirm_games,
                   max_confirmations=args.confirmations, alpha=args.alpha, margins=margins)
    if args.json:
        emit_json(doc)
        return 0
    print(f"{doc['games']} games in {doc['elapsed']:.0f} s ({doc['stopped']}); {doc['arms']} restricted arms, "
          f"{doc['questions']} questions, {doc['dropped']} dropped, {doc['open']} still open")
    if not doc["findings"]:
        print("no finding decided: nothing beat the field, stalled or stood out by more than its margin "
              "on fresh games (the open questions above could not be decided within the budget)")
    for k, f in enumerate(doc["findings"], 1):
        print(f"finding {k}: {f['title']}: effect {_fmt(f['effect'])} "
              f"(interval [{_fmt(f['low'])}, {_fmt(f['high'])}] at {f['level']:.4f}, {f['games']} fresh games, "
              f"margin {f['margin']:g})")
        wit = f["witness"]
        if wit:
            print(f"  witness: {wit['file'] or '(not saved)'}: seed {wit['seed']}, {wit['moves']} moves, "
                  f"winners {', '.join(wit['winners']) or 'none'} ({wit['ending']})"
                  f"{'' if wit['replays'] else ' - WARNING: the replay ended differently'}")
            for m in wit["marks"][:4]:
                print(f"    move {m['ply'] + 1}: {m['why']}")
    for c in doc["not_confirmed"]:
        print(f"not confirmed: {c['kind']} {c['subject']} "
              f"(screen {c['screen'].get('mean') or 0:+.3f} on {c['screen'].get('n')} games"
              + (f", confirm {c['confirm']['mean']:+.3f} on {c['confirm']['n']}" if c['confirm'].get('n') else "")
              + ")")
    return 0
