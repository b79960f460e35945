"""The ``workbench`` command.

Each sub-command lives in ``workbench/commands/<name>.py`` with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``. Command modules import only
the standard library at module level; engines, polars, Panel, bokeh and Dask are
imported inside ``run`` so that ``workbench --help`` starts at once.

Exit codes: 0 success, 1 a failed check or bad input (one clear line on stderr),
2 a usage error (argparse's own).
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ["serve", "play", "simulate", "scenario", "check", "graph", "board", "rules", "bench", "print", "export"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Tabletop Design Workbench: play, analyse and playtest board games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"workbench.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"workbench.commands.{name}":
                raise
            continue  # a command not built yet is simply not offered
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    from workbench.core.errors import WorkbenchError
    try:
        return int(args.func(args) or 0)
    except WorkbenchError as exc:
        print(f"workbench {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
