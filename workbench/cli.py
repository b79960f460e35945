"""The ``workbench`` command.

Each sub-command lives in ``workbench/commands/<name>.py`` with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``. Command modules import only
the standard library at module level; engines, polars, Panel, bokeh and Dask are
imported inside ``run`` so that ``workbench --help`` starts at once.

Exit codes: 0 success, 1 a failed check or bad input, a usage error included
(one clear line on stderr, never a traceback), 130 interrupted. An error the
workbench did not foresee is still one line (``internal error: ...``) with exit 1;
``WORKBENCH_DEBUG=1`` shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ["serve", "play", "simulate", "scenario", "check", "graph", "board", "rules", "bench", "init",
            "print", "export", "balance", "cards", "journal", "new_game", "compare", "history", "hunt"]


def _leaf_parsers(parser: argparse.ArgumentParser):
    """Every parser that runs a command (``rules render``, not ``rules``)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield parser
        return
    for action in subs:
        for child in dict.fromkeys(action.choices.values()):
            yield from _leaf_parsers(child)


def _add_cards_option(parser: argparse.ArgumentParser) -> None:
    # One option on every command rather than in each module, so no command can
    # forget it: it points every card read (and write) at the designer's folder.
    if any("--cards" in a.option_strings for a in parser._actions):
        return
    parser.add_argument("--cards", metavar="DIR", default=None,
                        help="your card folder (made by `workbench init`); default: $WORKBENCH_CARDS, "
                             "else the cards bundled with the workbench")


def _version() -> str:
    import workbench
    from workbench import native
    # which build of the rules runs: a new user sees at once whether the install compiled them
    return f"{workbench.__version__} (rules: {native.status})"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit 1, like every other refusal."""

    def error(self, message: str):  # noqa: D401 - argparse's hook
        self.exit(1, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="workbench",
        description="Tabletop Design Workbench: play, analyse and playtest board games.")
    parser.add_argument("--version", action="version", version=f"workbench {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"workbench.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"workbench.commands.{name}":
                raise
            continue  # a command not built yet is simply not offered
        module.add_parser(sub)
    for leaf in _leaf_parsers(parser):
        if leaf is not parser:
            _add_cards_option(leaf)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    from workbench.core.errors import WorkbenchError
    try:
        from workbench.core.workspace import using
        args.workspace = _workspace(getattr(args, "cards", None))
        with using(args.workspace):
            return int(args.func(args) or 0)
    except WorkbenchError as exc:
        print(f"workbench {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (MemoryError, RecursionError) as exc:
        print(f"workbench {args.command}: the input is too large or too deeply nested "
              f"({type(exc).__name__})", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the last guard: one line, never a traceback
        import os
        if os.environ.get("WORKBENCH_DEBUG"):
            raise
        text = " ".join(str(exc).split())[:300]
        print(f"workbench {args.command}: internal error: {type(exc).__name__}: {text} "
              "(set WORKBENCH_DEBUG=1 for the traceback, and please report it)", file=sys.stderr)
        return 1


def _workspace(folder: str | None):
    """The run's workspace: the environment's, reading the cards of ``folder``
    when ``--cards DIR`` is given."""
    import os
    from pathlib import Path

    from workbench.core.errors import WorkbenchError
    from workbench.core.workspace import Workspace
    workspace = Workspace.from_environment()
    if folder is None:
        return workspace
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise WorkbenchError(f"--cards {folder}: no such folder (make one with `workbench init {folder}`)")
    workspace = workspace.with_cards(path.resolve())
    # a worker process started without fork (Dask's) builds its workspace from the environment
    os.environ.update(workspace.environment({}))
    return workspace


if __name__ == "__main__":
    sys.exit(main())
