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
    check_name(gid)
    if gid in registry.game_ids():
        raise WorkbenchError(f"a game {gid!r} is installed already; choose another name")
    from workbench.core import storage
    dest = Path(args.dir).expanduser()
    storage.check_path(dest, "DIR")          # no link out of its folder, at any level
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise WorkbenchError(f"{dest} exists and is not an empty folder; nothing written")
    written = write_package(gid, dest)
    print(f"wrote {len(written)} files into {dest}")
    print(f"next: pip install -e {dest} && workbench play {gid} --seed 1")
    return 0


def check_name(gid: str) -> None:
    """Refuse, in one line, a name that is no game id (whitespace, a trailing line
    end, capitals...) or whose package would shadow or be shadowed by another
    module: a Python keyword, a standard-library module, a module or distribution
    already installed (``workbench``, ``json``, ``polars``)."""
    import importlib.metadata
    import importlib.util
    import keyword
    import sys

    from workbench.core.errors import WorkbenchError
    if not isinstance(gid, str) or not ID.fullmatch(gid) or len(gid) > 40:
        raise WorkbenchError(f"{gid!r} is not a game id: use lower-case words joined by hyphens (tiny-market), "
                             "no spaces or line ends, at most 40 characters")
    pkg = gid.replace("-", "_")
    if keyword.iskeyword(pkg) or keyword.issoftkeyword(pkg):
        raise WorkbenchError(f"{gid!r} is a Python keyword, so it cannot name the game's package; choose another name")
    if pkg in sys.stdlib_module_names or pkg in sys.builtin_module_names:
        raise WorkbenchError(f"{gid!r} is a module of Python's standard library; its package would shadow it, "
                             "choose another name")
    try:
        installed = importlib.util.find_spec(pkg) is not None
    except (ImportError, ValueError):
        installed = True
    if not installed:
        try:
            importlib.metadata.distribution(gid)
            installed = True
        except importlib.metadata.PackageNotFoundError:
            pass
    if installed:
        raise WorkbenchError(f"{gid!r} names a module or package already installed ({pkg}); the game's package "
                             "would clash with it, choose another name")


def class_name(gid: str) -> str:
    """The game's class name, its id in CamelCase (``tiny-market``: ``TinyMarket``;
    a leading digit gets ``Game`` before it, as a class name cannot start with one)."""
    name = "".join(part[:1].upper() + part[1:] for part in gid.split("-"))
    return name if name[:1].isalpha() else f"Game{name}"


def write_package(gid: str, dest) -> list:
    """Copy the template with the game's id, package and display name filled in."""
    from importlib import resources
    from pathlib import Path

    from workbench.core import storage
    pkg = gid.replace("-", "_")
    storage.make_folder(dest, "DIR")
    words = {"__ID__": gid, "__PKG__": pkg, "__DIST__": gid, "__NAME__": gid.replace("-", " ").title(),
             "__CLASS__": class_name(gid)}
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
        storage.write_text(storage.inside(dest, rel, "DIR"), text, "DIR")
        written.append(out)
    return written
