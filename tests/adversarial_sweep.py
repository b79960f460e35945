"""The adversarial sweep: every command fed bad or edge input, as typed.

Run it with ``python tests/adversarial_sweep.py`` (``--json`` for the table,
``--only ID`` for some cases). Each case runs ``workbench`` in a subprocess on a
private copy of the card folder (``WORKBENCH_CARDS``) and is classified:

- ``refused``: exit 1 and one clear line on stderr (or, for ``check``-style
  commands that report, exit 1 and the report naming the problem);
- ``traceback``: a Python traceback or an ``internal error`` line;
- ``hang``: no answer within the time limit;
- ``silent``: exit 0 where the input is bad (a silent acceptance);
- ``unclear``: refused, but not with one line (several lines, or none);
- ``ok`` / ``wrong``: for the valid controls, which must succeed.

``tests/test_reliability_cli.py`` runs the quick part of the same table in the
test suite; docs/reliability.md gives the figures of a full run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: a case still running after this long is a hang; generous, so a loaded machine (load 8 and
#: more while the whole suite runs) is not mistaken for one
TIMEOUT = 300


@dataclass
class Case:
    id: str
    argv: list[str]
    expect: str = "refuse"          # refuse | report | ok
    mention: str = ""               # a word the refusal or report must contain (case-insensitive)
    mutate: tuple = ()              # (relative card file, function name) applied to the cards copy
    env: dict = field(default_factory=dict)
    quick: bool = False             # part of the test suite's table


# -- files the cases read ---------------------------------------------------------------

def _alias_bomb() -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def make_files(tmp: Path) -> None:
    """Every bad file the table names, in ``tmp``."""
    (tmp / "binary.yaml").write_bytes(bytes(range(256)) * 8)
    (tmp / "latin1.yaml").write_bytes("game: meaning-made\ntitle: K\xf6sz\xedv\n".encode("latin-1"))
    bomb = "".join(f"  {line}\n" for line in _alias_bomb().splitlines())
    (tmp / "bomb.yaml").write_text("game: meaning-made\nsource:\n" + bomb, encoding="utf-8")
    (tmp / "bomb2.yaml").write_text(_alias_bomb() + "game: meaning-made\n", encoding="utf-8")
    (tmp / "deep.yaml").write_text("game: meaning-made\nsetup: " + "[" * 5000 + "]" * 5000 + "\n",
                                   encoding="utf-8")
    (tmp / "big.yaml").write_text("game: meaning-made\nnotes: |\n" + ("  " + "x" * 99 + "\n") * 125_000,
                                  encoding="utf-8")
    (tmp / "big.md").write_text(("word " * 20 + "\n") * 130_000, encoding="utf-8")
    (tmp / "empty.yaml").write_text("", encoding="utf-8")
    (tmp / "steps5.yaml").write_text("game: meaning-made\nsteps: 5\n", encoding="utf-8")
    (tmp / "setuplist.yaml").write_text("game: meaning-made\nsetup: [1, 2]\n", encoding="utf-8")
    (tmp / "gamelist.yaml").write_text("game: [meaning-made]\n", encoding="utf-8")
    (tmp / "tag.yaml").write_text("game: meaning-made\nsetup: !!python/object/apply:os.getcwd []\n",
                                  encoding="utf-8")
    (tmp / "expectstr.yaml").write_text("game: meaning-made\nsetup: {players: 2}\nexpect: hello\n",
                                        encoding="utf-8")
    (tmp / "seat2.yaml").write_text("game: meaning-made\nsetup: {players: [Alex, Brooke]}\n"
                                    "steps:\n  - {player: 2, do: gather E E}\n", encoding="utf-8")
    (tmp / "seat-neg.yaml").write_text("game: meaning-made\nsetup: {players: [Alex, Brooke]}\n"
                                       "steps:\n  - {player: -1, do: gather E E}\n", encoding="utf-8")
    (tmp / "players-huge.yaml").write_text("game: meaning-made\nsetup: {players: 100000000}\n",
                                           encoding="utf-8")
    (tmp / "badsetup.yaml").write_text("game: mandate-2038\nsetup: {players: {a: 1}, seed: x}\n",
                                       encoding="utf-8")
    (tmp / "paxsteps.yaml").write_text("game: pax-transhumanity\nsetup: {players: 2}\n"
                                       "steps:\n  - {do: [1, 2]}\n  - {do: {x: 1}}\n", encoding="utf-8")
    (tmp / "dir.parquet").mkdir(exist_ok=True)
    if not (tmp / "fifo.parquet").exists():
        os.mkfifo(tmp / "fifo.parquet")
    (tmp / "text.txt").write_text("Tőkebevonás (Fundraise)\n", encoding="utf-8")


# -- changes to the cards copy ------------------------------------------------------------

def _replace(old: str, new: str):
    def change(path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return change


def _write_bytes(data: bytes):
    return lambda path: path.write_bytes(data)


def _append(text: str):
    return lambda path: path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _duplicate_po_entry(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    start = text.index('msgctxt "meaning-made/overview/goal"')
    end = text.index("\n\n", start)
    path.write_text(text + "\n" + text[start:end].replace('msgstr "', 'msgstr "MÁSIK ', 1) + "\n",
                    encoding="utf-8")


def _po_unknown_placeholder(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    marker = 'msgctxt "meaning-made/overview/goal"'
    i = text.index("msgstr", text.index(marker))
    path.write_text(text[:i] + 'msgstr "${nosuch.value} ' + text[i + len('msgstr "'):], encoding="utf-8")


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _link_to(target: str):
    def change(path: Path) -> None:
        path.unlink()
        path.symlink_to(target)
    return change


def _lookalike_pattern(path: Path) -> None:
    """A second Shell, its 'е' the Cyrillic letter: reads the same, another name."""
    text = path.read_text(encoding="utf-8")
    start = text.index("- name: Shell\n")
    end = text.index("\n- name:", start) + 1
    path.write_text(text + text[start:end].replace("Shell", "Sh\u0435ll", 1), encoding="utf-8")


MUTATIONS = {
    "lookalike-name": ("meaning_made/patterns.yaml", _lookalike_pattern),
    "tokens-2-64": ("meaning_made/patterns.yaml", _replace("tokens: {E: 1}", f"tokens: {{E: {2 ** 64}}}")),
    "fifo-patterns": ("meaning_made/patterns.yaml", _fifo),
    "devzero-patterns": ("meaning_made/patterns.yaml", _link_to("/dev/zero")),
    "empty-patterns": ("meaning_made/patterns.yaml", _write_bytes(b"")),
    "binary-patterns": ("meaning_made/patterns.yaml", _write_bytes(bytes(range(256)) * 4)),
    "latin1-settings": ("meaning_made/settings.yaml",
                        _write_bytes("end_initiative: Gondoskod\xe1s\n".encode("latin-1"))),
    "round-limit-neg": ("meaning_made/settings.yaml", _replace("round_limit: 50", "round_limit: -1")),
    "prism-zero": ("meaning_made/settings.yaml", _replace("prism_size: 6", "prism_size: 0")),
    "markers-neg": ("meaning_made/settings.yaml", _replace("markers: 4", "markers: -4")),
    "tokens-bool": ("meaning_made/patterns.yaml", _replace("tokens: {E: 1}", "tokens: {E: true}")),
    "html-name": ("meaning_made/patterns.yaml",
                  _replace("- name: Shell\n", "- name: \"<img src=x onerror=alert(1)>\"\n")),
    "bomb-name": ("meaning_made/patterns.yaml", lambda p: p.write_text(
        _alias_bomb() + p.read_text(encoding="utf-8"), encoding="utf-8")),
    "deep-tables": ("meaning_made/tables.yaml", _append("deep: " + "[" * 3000 + "]" * 3000 + "\n")),
    "dup-faction": ("mandate_2038/factions.yaml", _replace("- name: Orisonix", "- name: Mirevanta")),
    "pax-round-limit": ("pax_transhumanity/settings.yaml",
                        _replace("round_limit: {value: 80", "round_limit: {value: -1")),
    "pax-binary-ideas": ("pax_transhumanity/ideas.yaml", _write_bytes(b"\x00\x01\x02" * 100)),
    "po-duplicate": ("meaning_made/rules/hu.po", _duplicate_po_entry),
    "po-placeholder": ("meaning_made/rules/hu.po", _po_unknown_placeholder),
    "po-binary": ("meaning_made/rules/hu.po", _write_bytes(b"\xff\xfe\x00" * 50)),
    "md-binary": ("meaning_made/rules/en.md", _write_bytes(b"\x00" * 100)),
    "rulings-latin1": ("meaning_made/rulings.yaml", _write_bytes("- id: \xe9l\xe9s\n".encode("latin-1"))),
}


def cases() -> list[Case]:
    W = "{tmp}"
    mm, md, px = "meaning-made", "mandate-2038", "pax-transhumanity"
    c: list[Case] = []
    add = lambda *a, **k: c.append(Case(*a, **k))
    # -- play: every game option
    add("play-unknown-game", ["play", "chess"], mention="unknown game", quick=True)
    add("play-players-0", ["play", mm, "--players", "0"], mention="--players", quick=True)
    add("play-players-7", ["play", mm, "--players", "7"], mention="--players")
    add("play-players-neg", ["play", mm, "--players", "-1"], mention="--players")
    add("play-players-expr", ["play", mm, "--players", "2**70"], mention="--players", quick=True)
    add("play-players-huge", ["play", mm, "--players", str(2**70)], mention="--players")
    add("play-seed-neg", ["play", mm, "--seed", "-1"], mention="--seed")
    add("play-seed-huge", ["play", mm, "--seed", str(2**64)], mention="--seed")
    add("play-bots-module", ["play", mm, "--bots", "os:getcwd"], mention="unknown bot", quick=True)
    add("play-ban-misspelt", ["play", mm, "--bots", "ban:Shel:greedy"], mention="Shell", quick=True)
    add("play-force-misspelt", ["play", mm, "--bots", "force:Pluse:random"], mention="Pulse")
    add("play-greedy-weight", ["play", mm, "--bots", "greedy:foo=1"], mention="weight", quick=True)
    add("play-greedy-nan", ["play", mm, "--bots", "greedy:win=nan"], mention="finite")
    add("play-mcts-0", ["play", mm, "--bots", "mcts:0"], mention="iterations")
    add("play-mcts-huge", ["play", mm, "--bots", "mcts:10000000"], mention="iterations")
    add("play-mcts-inf", ["play", mm, "--bots", "mcts:t=inf"], mention="t=")
    add("play-mcts-word", ["play", mm, "--bots", "mcts:x"], mention="mcts")
    # bot lists and specs that used to play a silent default (issue 24)
    for bid, bots, word in [("empty", "", "empty"), ("comma", ",", "empty"), ("gap", "greedy,,random", "empty"),
                            ("colon", "greedy:", "no options"), ("random-arg", "random:5", "no options"),
                            ("ban-twice", "ban:Shell:ban:Shell:greedy", "twice"), ("ban-nocard", "ban::greedy", "card"),
                            ("weight-noeq", "greedy:win", "name=number"), ("kindless", ":greedy", "kind")]:
        add(f"play-bots-{bid}", ["play", mm, "--bots", bots], mention=word, quick=True)
    add("simulate-bots-empty", ["simulate", mm, "--games", "2", "--bots", ""], mention="empty", quick=True)
    add("play-too-many-bots", ["play", mm, "--players", "2", "--bots", "random,random,random"], mention="bots")
    add("play-option-tag", ["play", mm, "--option", "round_limit=!!python/name:os.getcwd"], mention="option",
        quick=True)
    add("play-option-neg", ["play", mm, "--option", "round_limit=-1"], mention="round_limit")
    add("play-option-zero", ["play", mm, "--option", "round_limit=0"], mention="round_limit")
    add("play-option-bool", ["play", mm, "--option", "round_limit=true"], mention="round_limit")
    add("play-option-unknown", ["play", mm, "--option", "nosuch=1"], mention="unknown option")
    add("play-option-nokey", ["play", mm, "--option", "=1"], mention="key=value")
    add("play-option-anchor", ["play", mm, "--option", "round_limit=&a [1]"], mention="option")
    add("play-option-nested", ["play", mm, "--option", "round_limit=[[1]]"], mention="option")
    add("play-option-flow-map", ["play", mm, "--option", "round_limit={a: 1}"], mention="option")
    add("play-variant-unknown", ["play", mm, "--variant", "nosuch"], mention="variant")
    add("play-dup-faction", ["play", md, "--players", "2", "--option", "factions=Mirevanta,Mirevanta"],
        mention="twice", quick=True)
    add("play-unknown-faction", ["play", md, "--players", "2", "--option", "factions=Mirevanta,Nobody"],
        mention="faction")
    add("play-pax-round-limit", ["play", px, "--option", "round_limit=-1"], mention="round_limit", quick=True)
    add("play-pax-round-limit-bool", ["play", px, "--option", "round_limit=true"], mention="round_limit")
    add("play-pax-players-5", ["play", px, "--players", "5"], mention="--players")
    add("play-mandate-ban-misspelt", ["play", md, "--bots", "ban:Fundd:greedy"], mention="Fund")
    add("play-pax-greedy-weight", ["play", px, "--bots", "greedy:nosuch=1"], mention="weight")
    add("play-missing-game", ["play"], mention="game")
    # -- simulate
    S = ["simulate", mm]
    add("sim-games-0", S + ["--games", "0"], mention="--games", quick=True)
    add("sim-games-neg", S + ["--games", "-5"], mention="--games")
    add("sim-games-huge", S + ["--games", str(2**70)], mention="--games", quick=True)
    add("sim-workers-400", S + ["--games", "4", "--workers", "400"], mention="--workers", quick=True)
    add("sim-workers-neg", S + ["--games", "4", "--workers", "-1"], mention="--workers")
    add("sim-workers-many-too-many", S + ["--games", "4", "--workers", "1000", "--many-workers"],
        mention="--workers")
    add("sim-scheduler-bogus", S + ["--games", "4", "--scheduler", "bogus"], mention="--scheduler", quick=True)
    add("sim-scheduler-port", S + ["--games", "4", "--scheduler", "tcp://host:70000"], mention="port")
    add("sim-max-actions-0", S + ["--games", "4", "--max-actions", "0"], mention="--max-actions", quick=True)
    add("sim-max-actions-neg", S + ["--games", "4", "--max-actions", "-1"], mention="--max-actions")
    # --out x.csv writes CSV (tests/test_sim_reliability.py reads it back); another suffix is refused
    add("sim-out-csv", S + ["--games", "4", "--out", f"{W}/x.csv"], "ok", quick=True)
    add("sim-out-txt", S + ["--games", "4", "--out", f"{W}/x.txt"], mention="parquet", quick=True)
    # one rule for outputs (issue 24): a missing folder is made; one under a file cannot be
    add("sim-out-under-a-file", S + ["--games", "4", "--out", f"{W}/text.txt/dir/x.parquet"],
        mention="not a folder", quick=True)
    add("sim-out-fifo", S + ["--games", "4", "--out", f"{W}/fifo.parquet"], mention="special file", quick=True)
    add("ok-sim-out-missing-dir", S + ["--games", "4", "--out", f"{W}/made/for/it/x.parquet"], "ok", quick=True)
    add("sim-out-unwritable", S + ["--games", "4", "--out", "/proc/x.parquet"], mention="cannot write")
    add("sim-out-dir", S + ["--games", "4", "--out", f"{W}/dir.parquet"], mention="folder")
    add("sim-ideal-reversed", S + ["--games", "4", "--ideal-rounds", "9-2"], mention="ideal")
    add("sim-ideal-word", S + ["--games", "4", "--ideal-rounds", "x"], mention="ideal")
    add("sim-ideal-zero", S + ["--games", "4", "--ideal-rounds", "0-5"], mention="ideal")
    add("sim-game-module", ["simulate", "os:getcwd", "--games", "2"], mention="not a game", quick=True)
    add("sim-game-json", ["simulate", "json:dumps", "--games", "2"], mention="not a game")
    add("sim-game-missing-module", ["simulate", "nosuchmodule:GAME", "--games", "2"], mention="cannot load")
    add("sim-card-rows-neg", S + ["--games", "4", "--card-rows", "-1"], mention="--card-rows")
    add("sim-players-0", S + ["--games", "4", "--players", "0"], mention="--players")
    add("sim-ban-misspelt", S + ["--games", "4", "--bots", "ban:Shel:greedy"], mention="Shell")
    add("sim-option-bad", S + ["--games", "4", "--option", "round_limit=-1"], mention="round_limit")
    add("sim-workers-and-scheduler", S + ["--games", "4", "--workers", "1", "--scheduler", "local"],
        mention="not allowed")
    # -- bench
    add("bench-unknown-game", ["bench", "--game", "chess", "--only", "startup"], mention="unknown game",
        quick=True)
    add("bench-unknown-figure", ["bench", "--only", "nosuch"], mention="figure")
    add("bench-players-0", ["bench", "--players", "0", "--only", "startup"], mention="--players")
    # -- serve (refused before a server starts)
    add("serve-host-256", ["serve", "--host", "256.1.1.1", "--no-browser"], mention="IPv4", quick=True)
    add("serve-host-unresolved", ["serve", "--host", "nosuch.invalid", "--no-browser"], mention="--host")
    add("serve-port-70000", ["serve", "--port", "70000", "--no-browser"], mention="--port", quick=True)
    add("serve-port-0", ["serve", "--port", "0", "--no-browser"], mention="--port")
    add("serve-port-word", ["serve", "--port", "abc", "--no-browser"], mention="--port")
    # on a port free at run time: the default 5006 may hold the designer's own
    # dashboard, and then the refusal would be about the port
    add("serve-short-password", ["serve", "--host", "0.0.0.0", "--port", "{free_port}", "--no-browser"],
        mention="WORKBENCH_PASSWORD",
        env={"WORKBENCH_PASSWORD": "abc"}, quick=True)
    add("serve-host-space", ["serve", "--host", "a b", "--no-browser"], mention="--host")
    # -- board and graph
    add("board-no-board", ["board", mm], mention="has no board")
    add("board-players-9", ["board", md, "--players", "9"], mention="--players")
    add("board-seed-neg", ["board", md, "--seed", "-3"], mention="--seed")
    add("graph-unknown", ["graph", "chess"], mention="unknown game")
    add("graph-html-under-a-file", ["graph", mm, "--html", f"{W}/text.txt/x.html"], mention="not a folder",
        quick=True)
    add("graph-html-suffix", ["graph", mm, "--html", f"{W}/x.txt"], mention=".html")
    add("graph-html-unwritable", ["graph", mm, "--html", "/proc/x.html"], mention="cannot write")
    # every bundled game has a card graph now (issue 14): a valid control
    add("graph-pax", ["graph", px, "--json"], "ok")
    # -- scenario files
    R = ["scenario", "run"]
    add("scen-missing", R + [f"{W}/nosuch.yaml"], "report", mention="no such file")
    add("scen-binary", R + [f"{W}/binary.yaml"], "report", mention="binary", quick=True)
    add("scen-latin1", R + [f"{W}/latin1.yaml"], "report", mention="UTF-8", quick=True)
    add("scen-alias-bomb", R + [f"{W}/bomb.yaml"], "report", mention="alias", quick=True)
    add("scen-alias-bomb-2", R + [f"{W}/bomb2.yaml"], "report", mention="alias")
    add("scen-deep", R + [f"{W}/deep.yaml"], "report", mention="nested", quick=True)
    add("scen-12mb", R + [f"{W}/big.yaml"], "report", mention="MB", quick=True)
    add("scen-empty", R + [f"{W}/empty.yaml"], "report", mention="mapping")
    add("scen-steps-int", R + [f"{W}/steps5.yaml"], "report", mention="steps", quick=True)
    add("scen-setup-list", R + [f"{W}/setuplist.yaml"], "report", mention="setup")
    add("scen-game-list", R + [f"{W}/gamelist.yaml"], "report", mention="game")
    add("scen-yaml-tag", R + [f"{W}/tag.yaml"], "report", mention="tag")
    add("scen-expect-str", R + [f"{W}/expectstr.yaml"], "report", mention="expect")
    add("scen-seat-2-of-2", R + [f"{W}/seat2.yaml"], "report", mention="seat", quick=True)
    add("scen-seat-neg", R + [f"{W}/seat-neg.yaml"], "report", mention="seat")
    add("scen-players-huge", R + [f"{W}/players-huge.yaml"], "report", mention="player")
    add("scen-bad-setup", R + [f"{W}/badsetup.yaml"], "report", mention="setup")
    add("scen-pax-bad-steps", R + [f"{W}/paxsteps.yaml"], "report", mention="step")
    add("scen-folder", R + [f"{W}/dir.parquet"], "report", mention="folder")
    # -- check over broken card data
    for name, what in (("empty-patterns", "empty"), ("binary-patterns", "binary"),
                       ("latin1-settings", "UTF-8"), ("round-limit-neg", "round_limit"),
                       ("prism-zero", "prism_size"), ("markers-neg", "markers"),
                       ("tokens-bool", "whole number"), ("html-name", "card name"), ("bomb-name", "alias"),
                       ("deep-tables", "nested"), ("dup-faction", "duplicate"),
                       ("pax-round-limit", "round_limit"), ("pax-binary-ideas", "binary"),
                       ("po-duplicate", "appears 2 times"), ("po-placeholder", "nosuch.value"),
                       ("po-binary", "binary"), ("md-binary", "binary")):
        game = {"dup": md, "pax": px}.get(name.split("-")[0], mm)
        add(f"check-{name}", ["check", game], "report", mention=what, mutate=MUTATIONS[name],
            quick=name in ("tokens-bool", "html-name", "po-duplicate", "po-placeholder", "round-limit-neg"))
    for name in ("empty-patterns", "round-limit-neg", "tokens-bool", "html-name", "pax-round-limit"):
        game = px if name.startswith("pax") else mm
        add(f"play-{name}", ["play", game], mention="", mutate=MUTATIONS[name])
    add("check-unknown-game", ["check", "chess"], mention="unknown game")
    # special files: refused from their stat, before anything opens them (issue 24)
    add("play-lookalike-name", ["play", mm], mention="CYRILLIC", mutate=MUTATIONS["lookalike-name"], quick=True)
    add("check-lookalike-name", ["check", mm], "report", mention="looks like", mutate=MUTATIONS["lookalike-name"])
    add("play-cost-2-64", ["play", mm], mention="64-bit", mutate=MUTATIONS["tokens-2-64"], quick=True)
    add("play-fifo-card-file", ["play", mm], mention="named pipe", mutate=MUTATIONS["fifo-patterns"], quick=True)
    add("play-devzero-card-file", ["play", mm], mention="device", mutate=MUTATIONS["devzero-patterns"],
        quick=True)
    add("rulings-latin1", ["play", mm], "ok", mutate=MUTATIONS["rulings-latin1"])
    # -- rules and translations
    add("rules-lang-path", ["rules", "render", mm, "--lang", "../../../x"], mention="--lang", quick=True)
    add("rules-lang-upper", ["rules", "render", mm, "--lang", "EN"], mention="--lang")
    add("rules-review-lang", ["rules", "review", mm, "--lang", "hu_x"], mention="--lang")
    add("rules-update-lang-zz", ["rules", "update", mm, "--lang", "zz"], mention="Babel", quick=True)
    add("rules-update-new-lang", ["rules", "update", mm, "--lang", "de"], mention="init-lang", quick=True)
    add("rules-init-lang-existing", ["rules", "init-lang", mm, "--lang", "hu"], mention="already", quick=True)
    add("render-lang-zz", ["rules", "render", mm, "--lang", "xx-YY"], mention="Babel")
    add("balance-study-text", ["balance", md, "--target", "survival=0.5..0.8", "--vary", "x",
                               "--study", f"{W}/text.txt"], mention="not a SQLite", quick=True)
    add("balance-study-folder", ["balance", md, "--target", "survival=0.5..0.8", "--vary", "x",
                                 "--study", f"{W}/dir.parquet"], mention="folder")
    add("rules-update-lang", ["rules", "update", mm, "--lang", "../x"], mention="--lang", quick=True)
    add("rules-import-lang", ["rules", "import", f"{W}/text.txt", "--lang", "x/y"], mention="--lang")
    add("rules-import-13mb", ["rules", "import", f"{W}/big.md", "--lang", "en"], mention="MB", quick=True)
    add("rules-import-binary", ["rules", "import", f"{W}/binary.yaml", "--lang", "en"], mention="binary")
    add("rules-import-latin1", ["rules", "import", f"{W}/latin1.yaml", "--lang", "en"], mention="UTF-8")
    add("rules-import-missing", ["rules", "import", f"{W}/nosuch.md", "--lang", "en"], mention="no such file")
    add("rules-import-rendered", ["rules", "import", f"{W}/rendered-hu.md", "--lang", "hu", "--game", md],
        mention="--force", quick=True)
    add("rules-glossary-binary", ["rules", "glossary", f"{W}/binary.yaml"], mention="binary")
    add("rules-glossary-missing", ["rules", "glossary", f"{W}/nosuch.md"], mention="no such file")
    add("rules-glossary-yaml-one", ["rules", "glossary", f"{W}/text.txt", "--yaml", "hu"], mention="--yaml")
    add("rules-glossary-yaml-path", ["rules", "glossary", f"{W}/text.txt", "--yaml", "hu,../x"],
        mention="--yaml")
    add("rules-template-binary", ["rules", "render", mm, "--lang", "hu", "--template", f"{W}/binary.yaml"],
        mention="binary")
    add("rules-update-dup-po", ["rules", "update", mm, "--lang", "hu"], mention="appears 2 times",
        mutate=MUTATIONS["po-duplicate"])
    add("rules-render-binary-md", ["rules", "render", mm, "--lang", "hu"], mention="binary",
        mutate=MUTATIONS["md-binary"])
    add("unknown-command", ["nosuch"], mention="invalid choice")
    # -- print, export, init and --cards
    add("print-unknown-game", ["print", "chess", "--out", f"{W}/x.pdf"], mention="unknown game")
    add("print-lang-path", ["print", mm, "--lang", "../x", "--out", f"{W}/x.pdf"], mention="--lang", quick=True)
    add("print-out-suffix", ["print", mm, "--out", f"{W}/x.txt"], mention=".pdf")
    add("print-out-under-a-file", ["print", mm, "--out", f"{W}/text.txt/x.pdf"], mention="not a folder")
    add("print-paper", ["print", mm, "--paper", "a0", "--out", f"{W}/x.pdf"], mention="--paper")
    add("rules-pdf-lang", ["rules", "pdf", mm, "--lang", "../x", "--out", f"{W}/x.pdf"], mention="--lang")
    add("rules-pdf-side-lang", ["rules", "pdf", mm, "--lang", "hu", "--side-by-side", "x/y", "--out",
                                f"{W}/x.pdf"], mention="--side-by-side")
    add("rules-pdf-out-suffix", ["rules", "pdf", mm, "--lang", "hu", "--out", f"{W}/x.txt"], mention=".pdf")
    add("export-out-suffix", ["export", "tts", mm, "--out", f"{W}/x.txt"], mention=".json")
    add("export-seats-0", ["export", "tts", mm, "--out", f"{W}/x.json", "--seats", "0"], mention="--seats")
    add("export-lang", ["export", "tts", mm, "--out", f"{W}/x.json", "--lang", "EN"], mention="--lang")
    add("export-seed-neg", ["export", "tts", md, "--out", f"{W}/x.json", "--seed", "-1"], mention="--seed")
    add("init-unwritable", ["init", "/proc/xyz"], mention="cannot write")
    add("init-a-file", ["init", "/etc/passwd"], mention="not a folder")
    add("init-unknown-game", ["init", f"{W}/mine", "--game", "chess"], mention="unknown game")
    add("cards-missing", ["play", mm, "--cards", "/nonexistent"], mention="--cards", quick=True)
    add("cards-a-file", ["play", mm, "--cards", "/etc/passwd"], mention="--cards")
    # -- valid controls: must still work
    add("ok-play", ["play", mm, "--players", "2", "--seed", "3", "--json"], "ok", quick=True)
    add("ok-play-factions", ["play", md, "--players", "2", "--option", "factions=Mirevanta,Orisonix",
                             "--json"], "ok")
    add("ok-play-option", ["play", mm, "--players", "2", "--option", "round_limit=30", "--json"], "ok")
    add("ok-play-ban", ["play", mm, "--players", "2", "--bots", "ban:Shell:random", "--json"], "ok")
    add("ok-simulate", ["simulate", mm, "--games", "4", "--workers", "0", "--players", "2",
                        "--out", f"{W}/ok.parquet", "--json"], "ok", quick=True)
    add("ok-scenario", ["scenario", "run", "{cards}/meaning_made/scenarios/stability-window-cap.yaml"], "ok")
    add("ok-render", ["rules", "render", md, "--lang", "hu"], "ok")
    add("ok-glossary", ["rules", "glossary", f"{W}/text.txt", "--json"], "ok")
    return c


# -- running ------------------------------------------------------------------------------

def _cards_source() -> Path:
    sys.path.insert(0, str(ROOT))
    from workbench.core.data import cards_root
    return cards_root()


def _free_port() -> int:
    """A TCP port the system has free now (it hands one out for port 0)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_case(case: Case, tmp: Path, python: str, runner=None) -> dict:
    """Run one case on a fresh cards copy; the classification and what was seen.
    ``runner``: a :class:`forked_cli.ForkedCli` that runs the command in a process
    forked from one that imported the workbench already (the test suite's way: the
    same process boundary without a second of imports per case); else a subprocess."""
    cards = tmp / f"cards-{case.id}"
    if cards.exists():
        shutil.rmtree(cards)
    shutil.copytree(_cards_source(), cards)
    if case.mutate:
        rel, change = case.mutate
        change(cards / rel)
    argv = [a.replace("{tmp}", str(tmp)).replace("{cards}", str(cards)) for a in case.argv]
    if "{free_port}" in argv:
        argv = [str(_free_port()) if a == "{free_port}" else a for a in argv]
    env = {**os.environ, "WORKBENCH_CARDS": str(cards), "PYTHONPATH": str(ROOT), **case.env}
    env.pop("WORKBENCH_DEBUG", None)
    start = time.perf_counter()
    try:
        if runner is not None and runner.can_run(env):
            out_dir = tmp / f"out-{case.id}"
            out_dir.mkdir(exist_ok=True)
            proc = subprocess.CompletedProcess(argv, *runner.run(argv, env, tmp, TIMEOUT, out_dir))
        else:
            proc = subprocess.run([python, "-m", "workbench.cli", *argv], capture_output=True, text=True,
                                  timeout=TIMEOUT, env=env, cwd=tmp)
    except subprocess.TimeoutExpired:
        shutil.rmtree(cards, ignore_errors=True)
        return {"id": case.id, "verdict": "hang", "seconds": TIMEOUT, "argv": argv}
    seconds = round(time.perf_counter() - start, 2)
    shutil.rmtree(cards, ignore_errors=True)
    err = proc.stderr.strip()
    lines = [line for line in err.splitlines() if line.strip()]
    said = (err + "\n" + proc.stdout).lower()
    if "traceback (most recent call last)" in said or "internal error" in said:
        verdict = "traceback"
    elif case.expect == "ok":
        verdict = "ok" if proc.returncode == 0 else "wrong"
    elif proc.returncode == 0:
        verdict = "silent"
    elif case.expect == "refuse":
        verdict = "refused" if proc.returncode == 1 and len(lines) == 1 else "unclear"
    else:  # report: exit 1 and the problem named in the report (or in one stderr line)
        verdict = "refused" if proc.returncode == 1 and len(lines) <= 1 else "unclear"
    if verdict == "refused" and case.mention and case.mention.lower() not in said:
        verdict = "unclear"
    return {"id": case.id, "verdict": verdict, "exit": proc.returncode, "seconds": seconds, "argv": argv,
            "stderr": err[-400:], "stdout_tail": proc.stdout.strip()[-300:] if verdict != "refused" else ""}


def prepare(tmp: Path, python: str) -> None:
    make_files(tmp)
    # a rulebook rendered into Hungarian: numbers where the original has placeholders
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORKBENCH_CARDS": str(_cards_source())}
    out = subprocess.run([python, "-m", "workbench.cli", "rules", "render", "mandate-2038", "--lang", "hu"],
                         capture_output=True, text=True, env=env, timeout=TIMEOUT)
    (tmp / "rendered-hu.md").write_text(out.stdout, encoding="utf-8")


def sweep(selected: list[Case], python: str = sys.executable) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="workbench-sweep-") as name:
        tmp = Path(name)
        prepare(tmp, python)
        return [run_case(case, tmp, python) for case in selected]


def summary(results: list[dict]) -> dict:
    bad = [r for r in results if r["verdict"] not in ("refused", "ok")]
    counts: dict[str, int] = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    slowest = max(results, key=lambda r: r["seconds"]) if results else None
    return {"inputs": len(results), **counts, "problems": [r["id"] for r in bad],
            "slowest": [slowest["id"], slowest["seconds"]] if slowest else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="only the cases the test suite runs")
    parser.add_argument("--only", action="append", default=[], metavar="ID")
    args = parser.parse_args(argv)
    selected = [c for c in cases() if (not args.quick or c.quick) and (not args.only or c.id in args.only)]
    results = sweep(selected)
    doc = summary(results)
    if args.json:
        print(json.dumps({"summary": doc, "results": results}, indent=1, ensure_ascii=False))
    else:
        for r in results:
            if r["verdict"] not in ("refused", "ok"):
                print(f"{r['verdict']:>9}  {r['id']}: {' '.join(r['argv'])}\n           {r.get('stderr', '')}")
        print(json.dumps(doc))
    return 0 if not doc["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
