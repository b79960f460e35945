"""``workbench history GAME``: the versions of a card pool, the edits between
any two, and the runs made on each (see :mod:`workbench.core.versions`)."""

from __future__ import annotations

from .common import emit_json


def add_parser(sub) -> None:
    p = sub.add_parser("history", help="versions of a card pool, their edits and the runs made on each",
                       description="List the versions of the game's card pool recorded in its card folder "
                                   "(every save from the Cards page or balance --apply; a pool first seen on "
                                   "disk), newest first, with the runs (simulate, balance...) made on each. "
                                   "--diff V1 V2 shows every value that differs between two versions "
                                   "(numbers or hash prefixes) and their runs side by side.")
    p.add_argument("game", help="game id")
    p.add_argument("--diff", nargs=2, metavar=("V1", "V2"), default=None,
                   help="compare two versions: their numbers (3, v3) or hash prefixes")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=run)


def _run_line(run: dict) -> str:
    from workbench.core.versions import metrics_text
    params = run["params"]
    size = f"{params['games']} games" if "games" in params else \
        f"{params.get('trials', '?')} trials x {params.get('games_per_trial', '?')} games"
    edits = params.get("edits") or []  # a comparison names the edits it played against this version
    what = f" of {'; '.join(_edit_text(e) for e in edits)}" if edits else ""
    return f"      {run['created']}  {run['kind']:<8} {size}{what}: {metrics_text(run)}"


def _edit_text(e: dict) -> str:
    from workbench.core.pool_values import format_value
    if e.get("field") is None:
        return f"{e['card']}: {e['old']} -> {e['new']}"
    return f"{e['card']} {e['field']}: {format_value(e['old'])} -> {format_value(e['new'])}"


def run(args) -> int:
    from workbench.core import versions
    from workbench.core.errors import WorkbenchError
    from workbench.core.registry import get_game

    from . import validate

    game = get_game(validate.game_id(args.game))
    if game.pool_spec is None:
        raise WorkbenchError(f"{game.id} has no card pool, so it has no versions")
    folder = versions.game_folder(game)
    current = versions.pool_version(game, folder)
    if args.diff:
        old, new = (versions.resolve(folder, v) for v in args.diff)
        changed = versions.diff(folder, *args.diff)
        sides = {name: {**v.to_dict(), "runs": [r.to_dict() for r in versions.runs(folder, v.hash)]}
                 for name, v in (("old", old), ("new", new))}
        if args.json:
            emit_json({"game": game.id, "folder": str(folder), **sides, "diff": changed})
            return 0
        print(f"{game.name}: version {old.number} ({old.hash}, {old.created}) -> "
              f"version {new.number} ({new.hash}, {new.created})")
        print(f"{len(changed)} value(s) differ" + (":" if changed else ""))
        for e in changed:
            print(f"  {_edit_text(e)}")
        for name, label in (("old", f"version {old.number}"), ("new", f"version {new.number}")):
            print(f"\nruns on {label}:" + ("" if sides[name]["runs"] else " none"))
            for r in sides[name]["runs"]:
                print(_run_line(r))
        return 0
    rows = versions.summary(folder)
    if args.json:
        emit_json({"game": game.id, "folder": str(folder), "current": current,
                   "recorded": any(r["hash"] == current for r in rows), "versions": rows})
        return 0
    print(f"{game.name}: {len(rows)} version(s) in {versions.history_path(folder)}")
    if not any(r["hash"] == current for r in rows):
        print(f"  the pool on disk ({current}) is not recorded yet: it is entered at the next save or run")
    for r in rows:
        mark = "  (on disk)" if r["hash"] == current else ""
        note = f" \u2014 {r['note']}" if r["note"] else ""
        print(f"  {r['number']:>3}  {r['hash']}  {r['created']}  {r['source']:<7}{note}{mark}")
        for e in r["edits"][:6]:
            print(f"        {_edit_text(e)}")
        if len(r["edits"]) > 6:
            print(f"        ... and {len(r['edits']) - 6} more edit(s)")
        for run_ in r["runs"]:
            print(_run_line(run_))
    return 0
