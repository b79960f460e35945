"""``workbench new-game NAME DIR``: a working package for a designer's own game.

The package (pyproject with the ``workbench.games`` entry point, the rules in
one module per part, a card file with provenance, a scenario, a rulebook in
English with a Hungarian translation, tests running the shared conformance
suite) plays as soon as ``pip install -e DIR`` has run; nothing in the
workbench changes. See docs/adding-a-game.md."""

from __future__ import annotations

import re


def add_parser(sub) -> None:
    p = sub.add_parser("new-game", help="write a working package for your own game",
                       description="Write a pip-installable package for a new game (a small card market to "
                                   "rebuild into yours), then `pip install -e DIR`.")
    p.add_argument("name", metavar="NAME", help="the game id: lower-case words joined by hyphens, e.g. tiny-market")
    p.add_argument("dir", metavar="DIR", help="the new package's folder (must not exist or be empty)")
    p.set_defaults(func=run)


ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def run(args) -> int:
    from pathlib import Path

    from workbench.core import registry
    from workbench.core.errors import WorkbenchError

    gid = args.name
    if not ID.match(gid) or len(gid) > 40:
        raise WorkbenchError(f"{gid!r} is not a game id: use lower-case words joined by hyphens (tiny-market)")
    if gid in registry.game_ids():
        raise WorkbenchError(f"a game {gid!r} is installed already; choose another name")
    dest = Path(args.dir).expanduser()
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise WorkbenchError(f"{dest} exists and is not an empty folder; nothing written")
    written = write_package(gid, dest)
    print(f"wrote {len(written)} files into {dest}")
    print(f"next: pip install -e {dest} && workbench play {gid} --seed 1")
    return 0


def write_package(gid: str, dest) -> list:
    """Copy the template with the game's id, package and display name filled in."""
    from importlib import resources
    from pathlib import Path

    pkg = gid.replace("-", "_")
    words = {"__ID__": gid, "__PKG__": pkg, "__DIST__": gid, "__NAME__": gid.replace("-", " ").title()}
    root = Path(str(resources.files("workbench.scaffold") / "template"))
    written = []
    for src in sorted(root.rglob("*.tmpl")):
        rel = src.relative_to(root).as_posix()[:-len(".tmpl")]
        for key, value in words.items():
            rel = rel.replace(key, value)
        text = src.read_text(encoding="utf-8")
        for key, value in words.items():
            text = text.replace(key, value)
        out = Path(dest) / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        written.append(out)
    return written
