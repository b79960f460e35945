"""``workbench journal``: read the playtest journal (rooms played through
``workbench serve``'s Playtest page).

``list`` the rooms and their games; ``show GAME`` one game's moves (with the
time each took to decide), chat and surveys, ``--save FILE`` writing it as a
saved game the Play page opens and replays; ``export DIR`` every table as
Parquet; ``compare GAME_ID`` the people's games of one pool version beside bot
games of the same table on the same metrics, with intervals.

The journal is ``$WORKBENCH_JOURNAL``, else ``playtest-journal.sqlite`` in the
card folder (``--cards``/``$WORKBENCH_CARDS``), else in the current folder;
``--journal FILE`` names another. Reading never creates one."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("journal", help="list, show, export and compare playtest games",
                       description="Read the playtest journal: rooms, games, moves, chat and surveys.")
    jsub = p.add_subparsers(dest="journal_command", metavar="ACTION", required=True)

    def common(q):
        q.add_argument("--journal", default=None, metavar="FILE", help="the journal file (default: see --help)")
        q.add_argument("--json", action="store_true", help="print one JSON document")

    q = jsub.add_parser("list", help="rooms and their games")
    common(q)
    q.set_defaults(func=run_list)
    q = jsub.add_parser("show", help="one game: moves, chat, surveys")
    q.add_argument("game", type=int, help="the game's number in `workbench journal list`")
    q.add_argument("--save", metavar="FILE", default=None,
                   help="also write it as a saved game (open it on the Play page to replay it)")
    common(q)
    q.set_defaults(func=run_show)
    q = jsub.add_parser("export", help="every table as Parquet files in a folder")
    q.add_argument("folder", help="where to write <table>.parquet")
    common(q)
    q.set_defaults(func=run_export)
    q = jsub.add_parser("compare", help="people's games beside bot games on the same metrics")
    q.add_argument("game_id", help="the game (e.g. one of `workbench play --help`'s)")
    q.add_argument("--pool-version", default=None, help="pool version of the human games (default: the pool on disk)")
    q.add_argument("--bot-games", type=int, default=200, help="bot games to play (default 200)")
    q.add_argument("--bots", default="greedy", help="bots of the batch (default greedy)")
    q.add_argument("--resamples", type=int, default=200, help="bootstrap resamples per interval (default 200)")
    common(q)
    q.set_defaults(func=run_compare)


def _journal(args):
    from pathlib import Path

    from workbench.rooms.journal import Journal, journal_path
    return Journal(Path(args.journal) if args.journal else journal_path(), create=False)


def _when(ts) -> str:
    return "" if ts is None else datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def run_list(args) -> int:
    from pathlib import Path

    from workbench.rooms.journal import journal_path
    path = Path(args.journal) if args.journal else journal_path()
    # nothing played yet is an empty list, not an error: no file, or a file with nothing
    # recorded in it (the empty database a journal opened for recording leaves before
    # its first room); a file that is not a journal is still refused, by open_database
    from workbench.core import databases
    con = databases.open_database(path, databases.JOURNAL, write=False, timeout=3.0)
    if con is not None:
        con.close()
    if con is None:
        if args.json:
            emit_json({"journal": str(path), "rooms": []})
        else:
            print(f"no playtest journal yet at {path}: rooms opened on `workbench serve`'s Playtest page write one")
        return 0
    journal = _journal(args)
    doc = []
    for room in journal.rooms():
        games = []
        for g in journal.games(room["id"]):
            outcome = json.loads(g["outcome"]) if g["outcome"] else {}
            games.append({"game": g["id"], "number": g["number"], "status": g["status"],
                          "ending": outcome.get("ending"), "winners": outcome.get("winners", []),
                          "moves": len(journal.moves(g["id"])), "surveys": len(journal.surveys(g["id"])),
                          "pool_version": g["pool_version"], "started": _when(g["started"])})
        doc.append({"room": room["id"], "game": room["game"], "status": room["status"],
                    "created": _when(room["created"]),
                    "seats": [{"name": s["name"], "kind": s["kind"], "bot": s["bot"]} for s in journal.seats(room["id"])],
                    "games": games})
    if args.json:
        emit_json({"journal": str(journal.path), "rooms": doc})
        return 0
    if not doc:
        print(f"{journal.path}: no room yet")
    for room in doc:
        seats = ", ".join(s["name"] + ("" if s["kind"] == "person" else f" ({s['bot']})") for s in room["seats"])
        print(f"room {room['room']}  {room['game']}  {room['status']}  {room['created']}  seats: {seats}")
        for g in room["games"]:
            won = ", ".join(g["winners"]) or "-"
            print(f"  game {g['game']:>4}  #{g['number']}  {g['status']:<18} {g['moves']:>4} moves  "
                  f"ending {g['ending'] or '-'}  won {won}  surveys {g['surveys']}  pool {g['pool_version']}")
    return 0


def run_show(args) -> int:
    from workbench.core.errors import WorkbenchError
    journal = _journal(args)
    row = journal.game(args.game)
    if row is None:
        raise WorkbenchError(f"no game {args.game} in {journal.path} (see `workbench journal list`)")
    config = json.loads(row["config"])
    seats = {s["seat"]: s for s in journal.seats(row["room"])}
    moves = journal.moves(row["id"], include_undone=True)
    doc = {"game": row["id"], "room": row["room"], "number": row["number"], "status": row["status"],
           "pool_version": row["pool_version"], "config": config,
           "outcome": json.loads(row["outcome"]) if row["outcome"] else None,
           "moves": [{"ply": m["ply"], "seat": seats[m["seat"]]["name"], "by": m["by"], "action": m["action"],
                      "think_s": None if m["think_ms"] is None else round(m["think_ms"] / 1000, 2),
                      "undone": bool(m["undone"])} for m in moves],
           "surveys": [{**{k: s[k] for k in ("fun", "clarity", "length", "strongest", "weakest", "text")},
                        "seat": seats[s["seat"]]["name"]} for s in journal.surveys(row["id"])],
           "chat": [{"seat": None if c["seat"] is None else seats[c["seat"]]["name"], "text": c["text"]}
                    for c in journal.chat(row["room"]) if row["started"] <= c["at"] <= (row["ended"] or c["at"])]}
    if args.save:
        from pathlib import Path

        from workbench.core.storage import atomic_write_text
        saved = journal.saved_game(row["id"])
        atomic_write_text(Path(args.save), json.dumps(saved, indent=1, ensure_ascii=False) + "\n")
    if args.json:
        emit_json(doc)
        return 0
    outcome = doc["outcome"] or {}
    print(f"game {doc['game']} (room {doc['room']}, #{doc['number']}): {config['game']}, {doc['status']}, "
          f"ending {outcome.get('ending', '-')}, won {', '.join(outcome.get('winners', [])) or '-'}, "
          f"pool {doc['pool_version']}")
    for m in doc["moves"]:
        mark = "  (undone)" if m["undone"] else ""
        took = "" if m["think_s"] is None else f"{m['think_s']:>7.2f} s"
        print(f"  {m['ply'] + 1:>4}. {m['seat']:<10} {m['by']:<6} {took}  {m['action']}{mark}")
    for s in doc["surveys"]:
        print(f"  survey {s['seat']}: fun {s['fun']}, clarity {s['clarity']}, length {s['length']}, "
              f"strongest {s['strongest']}, weakest {s['weakest']}: {s['text'] or ''}")
    for c in doc["chat"]:
        print(f"  chat {c['seat'] or 'designer'}: {c['text']}")
    if args.save:
        print(f"saved as {args.save}: open it on the Play page (Load) to replay it", file=sys.stderr)
    return 0


def run_export(args) -> int:
    import io
    from pathlib import Path

    import polars as pl

    from workbench.rooms.journal import TABLES
    journal = _journal(args)
    from workbench.core import storage
    folder = Path(args.folder)
    real = storage.make_folder(folder, "FOLDER")
    written = {}
    for name in TABLES:
        rows = journal.table(name)
        if name == "seats":   # a token's hash stays in the journal
            rows = [{k: v for k, v in r.items() if k not in ("token_hash", "token_hint")} for r in rows]
        frame = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()
        buf = io.BytesIO()
        frame.write_parquet(buf)
        storage.write_bytes(storage.inside(real, f"{name}.parquet", "FOLDER"), buf.getvalue(), "FOLDER")
        written[name] = len(rows)
    if args.json:
        emit_json({"folder": str(folder), "tables": written})
    else:
        print(f"wrote {', '.join(f'{k}.parquet ({v} rows)' for k, v in written.items())} to {folder}")
    return 0


def run_compare(args) -> int:
    from workbench.core.errors import WorkbenchError
    from workbench.rooms.compare import side_by_side

    from . import validate
    validate.game(args.game_id)
    if not 1 <= args.bot_games <= 100_000:
        raise WorkbenchError(f"--bot-games is 1 to 100000, not {args.bot_games}")
    if not 0 <= args.resamples <= 10_000:
        raise WorkbenchError(f"--resamples is 0 to 10000, not {args.resamples}")
    from workbench.core.bots import make_bots
    from workbench.sim.intervals import MIN_GAMES
    make_bots(args.bots, 1)
    doc = side_by_side(_journal(args), args.game_id, args.pool_version, bot_games=args.bot_games, bots=args.bots,
                       resamples=args.resamples)
    if args.json:
        emit_json(doc)
        return 0
    print(f"{doc['game']}, pool {doc['pool_version']}, {doc['players']} players: {doc['human_games']} game(s) "
          f"with people beside {doc['bot_games']} {doc['bots']} bot games; {doc['level']:.0%} intervals")

    def cell(v, ci):
        if v is None:
            return "-"
        return f"{v:.3g}" + (" (too few games)" if ci[0] is None else f" [{ci[0]:.3g}, {ci[1]:.3g}]")
    width = max(len(r["metric"]) for r in doc["rows"])
    print(f"  {'metric':<{width}}  {'people':<24} {'bots':<24} people - bots")
    for r in doc["rows"]:
        print(f"  {r['metric']:<{width}}  {cell(r['people'], r['people_ci']):<24} {cell(r['bots'], r['bots_ci']):<24} "
              f"{cell(r['diff'], r['diff_ci'])}")
    if doc["human_games"] < 10:
        print(f"  ({doc['human_games']} human game(s): the people's intervals are wide, and below "
              f"{MIN_GAMES} games there are none; play more before reading much)")
    return 0
