"""The generated pages of the documentation's reference: every command and
option of ``workbench`` (read from the argparse parsers themselves) and every
design metric with its definition (read from :data:`workbench.sim.metrics.METRICS`).

The docs site builds them on each build (``docsite/hooks.py``), so the reference
cannot drift from the code: a new option, command or metric appears the next
time the site is built, and a test checks that every one of them is on the page.
"""

from __future__ import annotations

import argparse
import inspect
import re


def _escape(text: str) -> str:
    """Text for a Markdown table cell: pipes escaped, lines joined."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if not action.help:
        return ""
    formatter = parser._get_formatter()
    return _escape(formatter._expand_help(action))


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    """``(name, parser, one-line help)`` of each sub-command, in the order added."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            seen = set()
            for name, child in action.choices.items():
                if id(child) in seen:   # an alias of a command already listed
                    continue
                seen.add(id(child))
                out.append((name, child, helps.get(name, "")))
    return out


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            name = ", ".join(f"`{s}`" for s in action.option_strings)
            takes = action.nargs != 0
            if takes:
                metavar = action.metavar or (action.dest.upper() if not action.choices else None)
                name += f" `{metavar}`" if metavar else ""
        else:
            name = f"`{action.metavar or action.dest}`"
        notes = []
        if action.choices and not isinstance(action.choices, dict):
            notes.append("one of " + ", ".join(f"`{c}`" for c in action.choices))
        if isinstance(action, argparse._AppendAction):
            notes.append("repeatable")
        if action.required and action.option_strings:
            notes.append("required")
        if action.nargs in ("*", "?") and not action.option_strings:
            notes.append("optional")
        text = _help(parser, action)
        if notes:
            text = (text + " " if text else "") + f"({'; '.join(notes)})"
        rows.append(f"| {name} | {text} |")
    return rows


def _section(prog: str, parser: argparse.ArgumentParser, summary: str, level: int, out: list[str]) -> None:
    anchor = re.sub(r"[^a-z0-9]+", "-", prog.lower()).strip("-")
    out.append(f"{'#' * level} `{prog}` {{ #{anchor} }}")
    out.append("")
    text = parser.description or summary
    if text:
        out.append(_escape(text))
        out.append("")
    usage = " ".join(parser.format_usage().replace("usage: ", "", 1).split())
    out.append("```")
    out.append(usage)
    out.append("```")
    out.append("")
    rows = _option_rows(parser)
    if rows:
        out.append("| argument or option | what it does |")
        out.append("| --- | --- |")
        out.extend(rows)
        out.append("")
    if parser.epilog:
        out.append(_escape(parser.epilog))
        out.append("")
    for name, child, child_help in _subcommands(parser):
        _section(f"{prog} {name}", child, child_help, min(level + 1, 4), out)


def commands_markdown() -> str:
    """Every command, sub-command and option of ``workbench``, as one Markdown page."""
    from workbench.cli import build_parser
    parser = build_parser()
    out = ["# Every command and option", "",
           "Generated from the command line's own parsers each time this site is built: "
           "what is here is what `workbench COMMAND --help` prints. Every command exits 0 on "
           "success, 1 with one clear line on bad input or a failed check, 130 when interrupted; "
           "`--json`, where a command has it, prints one JSON document and nothing else.", ""]
    out.append("| command | what it does |")
    out.append("| --- | --- |")
    for name, _, summary in _subcommands(parser):
        anchor = re.sub(r"[^a-z0-9]+", "-", f"workbench {name}").strip("-")
        out.append(f"| [`{name}`](#{anchor}) | {_escape(summary)} |")
    out.append("")
    rows = _option_rows(parser)
    if rows:
        out.append("Options of `workbench` itself:")
        out.append("")
        out.append("| option | what it does |")
        out.append("| --- | --- |")
        out.extend(rows)
        out.append("")
    for name, child, summary in _subcommands(parser):
        _section(f"workbench {name}", child, summary, 2, out)
    return "\n".join(out).rstrip() + "\n"


def metrics_markdown() -> str:
    """Every design metric, its key, range, goal and definition, as one Markdown page."""
    from workbench.sim.metrics import ALIASES, CARD_METRICS, METRICS
    aliases: dict[str, list[str]] = {}
    for alias, key in ALIASES.items():
        aliases.setdefault(key, []).append(alias)
    goal = {1: "higher is better", -1: "lower is better", 0: "neither (a verdict says higher or lower)"}
    out = ["# Metrics", "",
           "Generated from the metric definitions (`workbench/sim/metrics.py`) each time this site is "
           "built. `simulate`, `compare`, `balance` and the dashboard's Sweeps, Cards and Balance pages "
           "all read these same definitions. Notation: `G` games, `S` seats, `W_g` the winners of "
           "game `g`, `won[g, s]` 1 when seat `s` won game `g`. A metric that does not apply to a "
           "game (no shared track, no roles) is not computed for it. The margin is the difference a "
           "verdict treats as no meaningful change unless the game declares its own.", ""]
    out.append("| key | name | range | goal | default margin |")
    out.append("| --- | --- | --- | --- | --- |")
    for m in METRICS + CARD_METRICS:
        low, high = m.range
        rng = f"[{'−∞' if low is None else format(low, 'g')}, {'∞' if high is None else format(high, 'g')}]"
        out.append(f"| [`{m.key}`](#{m.key.replace('_', '-')}) | {_escape(m.label)} | {rng} | {goal[m.goal]} | "
                   f"{'' if m.margin is None else format(m.margin, 'g')} |")
    out.append("")
    for m in METRICS + CARD_METRICS:
        out.append(f"## `{m.key}` {{ #{m.key.replace('_', '-')} }}")
        out.append("")
        doc = inspect.cleandoc(type(m).__doc__ or "")
        doc = re.sub(r":(?:class|func|data|mod|meth):`~?([^`]+)`", r"`\1`", doc).replace("``", "`")
        doc = re.sub(r"\s*\(issue \d+\)", "", doc)
        out.append(doc)
        out.append("")
        if m.per:
            out.append(f"One value per {m.per}: the flat names read `{m.key}_<{m.per}>`.")
            out.append("")
        if aliases.get(m.key):
            out.append("Also named " + ", ".join(f"`{a}`" for a in aliases[m.key]) + " in targets.")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def pool_files_markdown() -> str:
    """Each registered game's pool files, with the opening comment of each file."""
    from workbench.core.registry import load_all
    out = []
    for game_id, game in load_all().items():
        spec = getattr(game, "pool_spec", None)
        if spec is None:
            continue
        from workbench.core.data import cards_dir
        folder = cards_dir(game_id)
        out.append(f"### {game.name} (`{game_id}`)")
        out.append("")
        out.append("| file | what it holds |")
        out.append("| --- | --- |")
        for name in spec.files:
            path = folder / name
            lines = []
            if path.is_file():
                for line in path.read_text(encoding="utf-8").splitlines():
                    if not line.startswith("#"):
                        break
                    lines.append(line.lstrip("#").strip())
            out.append(f"| `{name}` | {_escape(' '.join(lines)) or '(no opening comment)'} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
