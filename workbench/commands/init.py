"""``workbench init DIR``: a card folder the designer owns.

Copies the bundled card folders (cards, tables, rules texts, translations,
scenarios, print templates) of one game or of all games into ``DIR``, so edits
go into files the designer versions, never into the installed package. Every
command then reads them with ``--cards DIR`` (or ``WORKBENCH_CARDS=DIR``)."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("init", help="copy the bundled cards into a folder you own",
                       description="Copy a game's card folder (or every game's) into DIR, to edit and "
                                   "version; then pass --cards DIR to any command.")
    p.add_argument("dir", metavar="DIR", help="the new card folder (must not hold the game already)")
    p.add_argument("--game", default=None, help="one game id (default: every installed game with card data)")
    p.set_defaults(func=run)


def run(args) -> int:
    import shutil
    from pathlib import Path

    from workbench.core import registry
    from workbench.core.data import bundled_cards_dir
    from workbench.core.errors import WorkbenchError

    ids = [args.game] if args.game else registry.providing("cards")
    if args.game:
        registry.require(args.game, "cards", "card folder")  # an unknown id gets the known ones
    sources = {registry.data_package(gid): bundled_cards_dir(gid) for gid in ids}
    folders = list(sources)
    dest = Path(args.dir).expanduser()
    if dest.exists() and not dest.is_dir():
        raise WorkbenchError(f"{dest} exists and is not a folder")
    clashes = [f for f in folders if (dest / f).exists()]
    if clashes:
        # Never overwrite a designer's edits: init only ever creates.
        raise WorkbenchError(f"{dest / clashes[0]} already exists; nothing copied (choose another DIR)")
    from workbench.core import storage
    try:
        real = storage.make_folder(dest, "DIR")
        for folder in folders:
            storage.copy_tree(sources[folder], storage.inside(real, folder, "DIR"), "DIR",
                              ignore=shutil.ignore_patterns("*.bak", "__pycache__", ".*.tmp", ".workbench"))
    except OSError as exc:
        raise WorkbenchError(f"cannot write {dest}: {exc.strerror or exc}") from None
    for folder in folders:
        print(f"{dest / folder}")
    print(f"edit these files, then run commands with --cards {dest}")
    return 0
