"""A generator of hostile inputs by class, for the surfaces of issue 38.

``generate(seed, per_class)`` draws cases of seven classes, each with its own
variations drawn from the seed (which command, which level of a path, which
database damage, which sheet, row and column, which number, which name):

- ``links``: a link out of the folder at some level of an output path, or as a
  file of a sheet folder, a journal, a history or its ``.workbench`` folder;
- ``special``: a FIFO or a device where a sheet, a sheet folder's file, a journal
  or an output is expected;
- ``databases``: another program's database (rollback or WAL), a future schema,
  a corrupt or truncated file, text, a folder, as the history or the journal;
- ``formulas``: an xlsx or ods formula saved without its value, in any cell;
- ``oversized``: a sheet declaring a million rows or 16,384 columns, a zip bomb,
  a cell of 10,001+ characters, more rows than a sheet holds, a 21 MB file,
  control characters;
- ``numbers``: absurd --trials, --games-per-trial, --players, --change-cost,
  --fresh-games, target bands and --vary bounds;
- ``names``: new-game names that are keywords, standard-library or installed
  modules, carry whitespace or a line end, capitals, are too long; and
  --base-url values with quotes, controls, bad ports, user names, 100 KB.

Every case is bad input: the answer must be exit 1 with one line on stderr, no
traceback, and nothing changed: outside the folder, in the folder handed over
(its databases included) or in the card folder.
``tests/test_hostile_classes.py`` runs a fixed seed in the suite; run

    python tests/hostile_cases.py --seed 2027 --per-class 12

for the figures per class on a seed nobody tuned on (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import keyword
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
GAME = "meaning-made"
CLASSES = ("links", "special", "databases", "formulas", "oversized", "numbers", "names")


@dataclass
class Case:
    cls: str
    id: str
    build: Callable[["Workspace"], list[str]]      # makes the files, returns the argv


@dataclass
class Workspace:
    """A fresh place for one case: ``folder`` (handed to the designer), ``outside``
    (must not change), ``cards`` (the card folder, must not change)."""

    root: Path
    folder: Path = field(init=False)
    outside: Path = field(init=False)
    cards: Path = field(init=False)

    def __post_init__(self):
        self.folder, self.outside, self.cards = self.root / "F", self.root / "outside", self.root / "cards"
        self.folder.mkdir()
        (self.outside / "dir").mkdir(parents=True)
        (self.outside / "dir" / "keep-0123456789abcdef.png").write_bytes(b"\x89PNG outside")
        (self.outside / "victim.csv").write_text("SECRET-FIRST-LINE,x\n", encoding="utf-8")
        con = sqlite3.connect(self.outside / "other.sqlite")
        con.execute("CREATE TABLE accounts (id INTEGER, owner TEXT)")
        con.commit()
        con.close()


def snapshot(folder: Path) -> dict:
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in files + dirs:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            if os.path.islink(path):
                out[rel] = "link:" + os.readlink(path)
            elif os.path.isfile(path):
                with open(path, "rb") as fh:
                    out[rel] = fh.read()
            else:
                out[rel] = "dir"
    return out


# -- sheets ------------------------------------------------------------------------------------
def _xlsx(path: Path, rows: list[list], title: str = "pattern") -> Path:
    import openpyxl
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def _patch_zip(path: Path, member_prefix: str, fn) -> None:
    raw = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item)
            zout.writestr(item, fn(data) if item.filename.startswith(member_prefix) else data)


HEADER = ["name", "layer", "E", "I", "S", "flavour"]


def _base_rows() -> list[list]:
    return [HEADER, ["Shell", 1, 1, 0, 0, "A first hard edge between inside and out."]]


# -- the classes --------------------------------------------------------------------------------
def _links(rng: random.Random, n: int) -> list[Case]:
    out_commands = [
        (["cards", "export", GAME, "--out"], ".xlsx"),
        (["cards", "export", GAME, "--format", "csv", "--out"], ""),
        (["export", "tts", GAME, "--out"], ".json"),
        (["simulate", GAME, "--games", "1", "--out"], ".parquet"),
        (["graph", GAME, "--html"], ".html"),
        (["new-game", "tiny-hostile-game"], ""),
        (["init"], ""),
    ]
    cases = []
    for k in range(n):
        kind = rng.choice(["out-level", "out-level", "sheet-file", "journal", "history-dir", "history-file",
                           "tts-images"])
        if kind == "out-level":
            argv, suffix = rng.choice(out_commands)
            depth = rng.randint(1, 3)
            level = rng.randint(0, depth)       # depth: the output itself

            def build(ws, argv=argv, suffix=suffix, depth=depth, level=level):
                parts = [f"d{i}" for i in range(depth)] + [f"out{suffix}"]
                path = ws.folder
                for i, part in enumerate(parts):
                    nxt = path / part
                    if i == level:
                        target = ws.outside / "victim.csv" if (i == depth and suffix) else ws.outside / "dir"
                        nxt.symlink_to(target, target_is_directory=target.is_dir())
                        break
                    if i < depth:
                        nxt.mkdir()
                    path = nxt
                return argv + [str(ws.folder.joinpath(*parts))]
            cases.append(Case("links", f"links-out-{argv[0]}-{depth}-{level}-{k}", build))
        elif kind == "sheet-file":
            def build(ws):
                sheets = ws.folder / "sheets"
                sheets.mkdir()
                (sheets / "pattern.csv").symlink_to(ws.outside / "victim.csv")
                return ["cards", "import", GAME, str(sheets)]
            cases.append(Case("links", f"links-sheet-file-{k}", build))
        elif kind == "journal":
            def build(ws):
                (ws.folder / "playtest-journal.sqlite").symlink_to(ws.outside / "other.sqlite")
                return ["journal", "list", "--journal", str(ws.folder / "playtest-journal.sqlite")]
            cases.append(Case("links", f"links-journal-{k}", build))
        elif kind == "history-dir":
            def build(ws):
                (ws.cards / "meaning_made" / ".workbench").symlink_to(ws.outside / "dir", target_is_directory=True)
                return ["history", GAME]
            cases.append(Case("links", f"links-history-dir-{k}", build))
        elif kind == "history-file":
            def build(ws):
                (ws.cards / "meaning_made" / ".workbench").mkdir()
                (ws.cards / "meaning_made" / ".workbench" / "history.sqlite").symlink_to(ws.outside / "other.sqlite")
                return ["history", GAME]
            cases.append(Case("links", f"links-history-file-{k}", build))
        else:
            def build(ws):
                (ws.folder / "save-images").symlink_to(ws.outside / "dir", target_is_directory=True)
                return ["export", "tts", GAME, "--out", str(ws.folder / "save.json")]
            cases.append(Case("links", f"links-tts-images-{k}", build))
    return cases


def _special(rng: random.Random, n: int) -> list[Case]:
    cases = []
    for k in range(n):
        kind = rng.choice(["sheet-fifo", "folder-fifo", "folder-devzero", "journal-fifo", "history-fifo",
                           "out-fifo", "sheet-devzero"])

        def build(ws, kind=kind):
            if kind == "sheet-fifo":
                os.mkfifo(ws.folder / "pattern.csv")
                return ["cards", "import", GAME, str(ws.folder / "pattern.csv")]
            if kind == "folder-fifo":
                (ws.folder / "s").mkdir()
                os.mkfifo(ws.folder / "s" / "pattern.csv")
                return ["cards", "import", GAME, str(ws.folder / "s")]
            if kind == "folder-devzero":
                (ws.folder / "s").mkdir()
                (ws.folder / "s" / "pattern.csv").symlink_to("/dev/zero")
                return ["cards", "import", GAME, str(ws.folder / "s")]
            if kind == "sheet-devzero":
                (ws.folder / "cards.xlsx").symlink_to("/dev/zero")
                return ["cards", "import", GAME, str(ws.folder / "cards.xlsx")]
            if kind == "journal-fifo":
                os.mkfifo(ws.folder / "j.sqlite")
                return ["journal", "list", "--journal", str(ws.folder / "j.sqlite")]
            if kind == "history-fifo":
                (ws.cards / "meaning_made" / ".workbench").mkdir()
                os.mkfifo(ws.cards / "meaning_made" / ".workbench" / "history.sqlite")
                return ["history", GAME]
            os.mkfifo(ws.folder / "out.xlsx")
            return ["cards", "export", GAME, "--out", str(ws.folder / "out.xlsx")]
        cases.append(Case("special", f"special-{kind}-{k}", build))
    return cases


def _plant_db(path: Path, damage: str, app_id: int, schema: int, rng: random.Random) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if damage == "folder":
        path.mkdir()
        return
    if damage == "text":
        path.write_text("not a database\n" * rng.randint(1, 50), encoding="utf-8")
        return
    if damage in ("corrupt", "truncated"):
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE versions (x)")
        con.execute(f"PRAGMA application_id={app_id}")
        con.commit()
        con.close()
        raw = bytearray(path.read_bytes())
        if damage == "truncated":
            path.write_bytes(bytes(raw[:rng.randint(20, 90)]))
        else:
            for i in range(100, len(raw)):
                raw[i] = rng.randrange(256)
            path.write_bytes(bytes(raw))
        return
    con = sqlite3.connect(path)
    if damage == "foreign-wal":
        con.execute("PRAGMA journal_mode=WAL")
    if damage == "future":
        con.execute(f"PRAGMA application_id={app_id}")
        con.execute(f"PRAGMA user_version={schema + rng.randint(1, 99)}")
    if damage == "foreign-id":
        con.execute(f"PRAGMA application_id={rng.randint(1, 2**31 - 1)}")
    con.execute(f"CREATE TABLE {rng.choice(['accounts', 'photos', 'moz_places', 'messages'])} (id INTEGER, v TEXT)")
    con.commit()
    con.close()


def _databases(rng: random.Random, n: int) -> list[Case]:
    from workbench.core.databases import HISTORY, JOURNAL
    cases = []
    for k in range(n):
        damage = rng.choice(["foreign", "foreign-wal", "foreign-id", "future", "corrupt", "truncated", "text",
                             "folder"])
        where = rng.choice(["history", "journal-list", "journal-show", "journal-export"])

        def build(ws, damage=damage, where=where, seed=rng.random()):
            r = random.Random(seed)
            if where == "history":
                _plant_db(ws.cards / "meaning_made" / ".workbench" / "history.sqlite", damage, HISTORY.application_id,
                          HISTORY.schema, r)
                return ["history", GAME]
            path = ws.folder / "playtest-journal.sqlite"
            _plant_db(path, damage, JOURNAL.application_id, JOURNAL.schema, r)
            if where == "journal-list":
                return ["journal", "list", "--journal", str(path)]
            if where == "journal-show":
                return ["journal", "show", "1", "--journal", str(path)]
            return ["journal", "export", str(ws.folder / "export"), "--journal", str(path)]
        cases.append(Case("databases", f"db-{where}-{damage}-{k}", build))
    return cases


def _formulas(rng: random.Random, n: int) -> list[Case]:
    cases = []
    for k in range(n):
        fmt = rng.choice(["xlsx", "xlsx", "ods"])
        col = rng.randrange(1, len(HEADER))
        formula = rng.choice(['=CONCAT("a","b")', "=1+2", "=SUM(C2:E2)", '=HYPERLINK("http://x","y")', "=B2*0"])

        def build(ws, fmt=fmt, col=col, formula=formula):
            rows = _base_rows()
            if fmt == "xlsx":
                path = _xlsx(ws.folder / "cards.xlsx", rows)

                def add(data, col=col):
                    ref = f"{chr(65 + col)}2"
                    data = re.sub(rf'<c r="{ref}"[^>]*?(/>|>.*?</c>)'.encode(),
                                  f'<c r="{ref}"><f>{formula[1:]}</f></c>'.replace("&", "&amp;")
                                  .replace('"a"', "&quot;a&quot;").encode(), data, count=1, flags=re.S)
                    return data
                _patch_zip(path, "xl/worksheets/", add)
                return ["cards", "import", GAME, str(path)]
            from odf.opendocument import OpenDocumentSpreadsheet
            from odf.table import Table, TableCell, TableRow
            from odf.text import P
            doc = OpenDocumentSpreadsheet()
            table = Table(name="pattern")
            for i, row in enumerate(rows):
                tr = TableRow()
                for j, v in enumerate(row):
                    if i == 1 and j == col:
                        cell = TableCell(formula="of:" + formula)
                    else:
                        cell = TableCell(valuetype="string")
                        cell.addElement(P(text=str(v)))
                    tr.addElement(cell)
                table.addElement(tr)
            doc.spreadsheet.addElement(table)
            path = ws.folder / "cards.ods"
            doc.save(str(path))
            return ["cards", "import", GAME, str(path)]
        cases.append(Case("formulas", f"formula-{fmt}-{HEADER[col]}-{k}", build))
    return cases


def _oversized(rng: random.Random, n: int) -> list[Case]:
    cases = []
    for k in range(n):
        kind = rng.choice(["rows", "cols", "bomb", "cell", "many-rows", "big-file", "control", "ods-repeat"])

        def build(ws, kind=kind, seed=rng.random()):
            r = random.Random(seed)
            path = ws.folder / "cards.xlsx"
            if kind in ("rows", "cols"):
                _xlsx(path, _base_rows())
                ref = f"A1:F{r.randint(100_000, 1_048_576)}" if kind == "rows" else f"A1:{r.choice(['XFD', 'ZZZ', 'AAA'])}2"
                _patch_zip(path, "xl/worksheets/", lambda d: re.sub(rb'<dimension ref="[^"]*"',
                                                                    f'<dimension ref="{ref}"'.encode(), d))
            elif kind == "bomb":
                with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                    z.writestr("xl/worksheets/sheet1.xml", b"<x/>" + b" " * r.randint(101_000_000, 150_000_000))
            elif kind == "cell":
                rows = _base_rows()
                rows[1][5] = "x" * r.randint(10_001, 32_000)
                _xlsx(path, rows)
            elif kind == "many-rows":
                path = ws.folder / "pattern.csv"
                path.write_text("name,flavour\n" + "".join(f"Shell,x{i}\n" for i in range(20_001)), encoding="utf-8")
            elif kind == "big-file":
                path = ws.folder / "pattern.csv"
                with open(path, "wb") as fh:
                    fh.truncate(r.randint(21, 60) * 1_000_000)       # sparse: costs nothing to make
            elif kind == "control":
                path = ws.folder / "pattern.csv"
                ch = r.choice(["\x00", "\x01", "\x07", "\x1b", "\x7f", "\x85", "\x9b"])
                path.write_text(f"name,flavour\nShell,a{ch}b\n", encoding="utf-8")
            else:
                from odf.opendocument import OpenDocumentSpreadsheet
                from odf.table import Table, TableCell, TableRow
                from odf.text import P
                doc = OpenDocumentSpreadsheet()
                table = Table(name="pattern")
                for i, row in enumerate(_base_rows()):
                    tr = TableRow(numberrowsrepeated=r.randint(200_000, 1_000_000) if i == 1 else 1)
                    for v in row:
                        cell = TableCell(valuetype="string")
                        cell.addElement(P(text=str(v)))
                        tr.addElement(cell)
                    table.addElement(tr)
                doc.spreadsheet.addElement(table)
                path = ws.folder / "cards.ods"
                doc.save(str(path))
            return ["cards", "import", GAME, str(path)]
        cases.append(Case("oversized", f"oversized-{kind}-{k}", build))
    return cases


def _numbers(rng: random.Random, n: int) -> list[Case]:
    absurd = ["0", "-1", "-5", "1000000000", str(10 ** 30), "99999999999999999999999"]
    floats = ["nan", "inf", "-inf", "-0.5", "1e308", "1e400"]
    base = ["balance", GAME, "--target", "survival=0.5..0.8", "--vary", "patterns.*.cost"]
    cases = []
    for k in range(n):
        kind = rng.choice(["trials", "games-per-trial", "fresh-games", "players", "change-cost", "band", "at-players",
                           "vary", "total"])
        if kind in ("trials", "games-per-trial", "fresh-games", "players"):
            argv = base + [f"--{kind}", rng.choice(absurd)]
        elif kind == "change-cost":
            argv = base + ["--change-cost", rng.choice(floats + ["-1", "1e9"])]
        elif kind == "band":
            argv = ["balance", GAME, "--target", f"survival=0.5..{'9' * rng.randint(320, 400)}", "--vary",
                    "patterns.*.cost"]
        elif kind == "at-players":
            argv = ["balance", GAME, "--target", f"survival=0.5..0.8 @players=2..{rng.choice(['99', '999999999999'])}",
                    "--vary", "patterns.*.cost"]
        elif kind == "vary":
            argv = ["balance", GAME, "--target", "survival=0.5..0.8", "--vary",
                    rng.choice(["patterns.*.cost+-", "patterns.Shell.E="]) + rng.choice(["99999", "1000000000"])
                    + ("" if rng.random() < 0.5 else "..2000000000")]
            if argv[-1].endswith("..2000000000") and "+-" in argv[-1]:
                argv[-1] = argv[-1].split("..")[0]
        else:
            argv = base + ["--trials", str(rng.randint(2_000, 10_000)), "--games-per-trial",
                           str(rng.randint(5_000, 100_000))]
        cases.append(Case("numbers", f"numbers-{kind}-{k}", lambda ws, argv=argv: list(argv)))
    return cases


def _names(rng: random.Random, n: int) -> list[Case]:
    stdlib = sorted(m for m in sys.stdlib_module_names if re.fullmatch(r"[a-z][a-z0-9]*", m))
    installed = ["workbench", "polars", "numpy", "yaml", "optuna", "openpyxl", "pydantic", "networkx", "bokeh"]
    bad_urls = ['"https://x.org/i"', "https://x.org/i\n", "https://x.org:99999/i", "https://x.org:0/i",
                "https://" + "a" * 100_000 + ".org", "https://user:pw@x.org/i", "ftp://x.org/i", "https://x .org",
                "https://x.org/i?q=1", "javascript:alert(1)", "https:///i", "https://-x.org/i", "http://[::1/i",
                "https://x.org/'i'", "https://x.org/<i>", "https://x.org/\x00"]
    cases = []
    for k in range(n):
        kind = rng.choice(["keyword", "stdlib", "installed", "space", "newline", "caps", "long", "unicode", "url",
                           "url"])
        if kind == "url":
            argv = ["export", "tts", GAME, "--base-url", rng.choice(bad_urls), "--out", "{folder}/s.json"]
        else:
            name = {"keyword": lambda: rng.choice([w for w in keyword.kwlist if w.islower()] + keyword.softkwlist),
                    "stdlib": lambda: rng.choice(stdlib),
                    "installed": lambda: rng.choice(installed),
                    "space": lambda: rng.choice([" tiny-game", "tiny game", "tiny-game ", "tiny\tgame"]),
                    "newline": lambda: rng.choice(["tiny-game\n", "tiny-game\r\n", "tiny\ngame"]),
                    "caps": lambda: rng.choice(["Tiny-Game", "TINY", "tinyGame"]),
                    "long": lambda: "a" * rng.randint(41, 400),
                    "unicode": lambda: rng.choice(["tíny-game", "tiny\u2011game", "ｔｉｎｙ"])}[kind]()
            argv = ["new-game", name, "{folder}/pkg"]
        cases.append(Case("names", f"names-{kind}-{k}", lambda ws, argv=argv: [a.replace("{folder}", str(ws.folder))
                                                                               for a in argv]))
    return cases


MAKERS = {"links": _links, "special": _special, "databases": _databases, "formulas": _formulas,
          "oversized": _oversized, "numbers": _numbers, "names": _names}


def generate(seed: int, per_class: int) -> list[Case]:
    rng = random.Random(seed)
    return [c for cls in CLASSES for c in MAKERS[cls](random.Random(rng.random()), per_class)]


# -- running -------------------------------------------------------------------------------------
@dataclass
class Outcome:
    case: Case
    verdict: str            # refused | damage | traceback | silent | unclear
    code: int | None
    line: str
    seconds: float


def run_case(case: Case, tmp: Path) -> Outcome:
    """Run one case in-process (``workbench.cli.main``) on a fresh workspace."""
    from workbench.cli import main
    from workbench.core.cards import forget
    ws = Workspace(tmp)
    shutil.copytree(ROOT / "cards", ws.cards, ignore=shutil.ignore_patterns(".workbench"))
    old_env = {k: os.environ.get(k) for k in ("WORKBENCH_CARDS", "WORKBENCH_JOURNAL")}
    os.environ["WORKBENCH_CARDS"] = str(ws.cards)
    os.environ.pop("WORKBENCH_JOURNAL", None)
    forget()
    try:
        argv = case.build(ws)
        outside, cards, given = snapshot(ws.outside), snapshot(ws.cards), snapshot(ws.folder)
        err, out = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException as exc:  # noqa: BLE001 - a traceback is what is measured
            err.write(f"Traceback: {type(exc).__name__}: {exc}\n")
            code = None
        seconds = time.perf_counter() - start
        text = err.getvalue()
        lines = [ln for ln in text.splitlines() if ln.strip()]
        changed = snapshot(ws.outside) != outside or snapshot(ws.cards) != cards or snapshot(ws.folder) != given
        if changed:
            verdict = "damage"
        elif code is None or "Traceback" in text or "internal error" in text:
            verdict = "traceback"
        elif code == 0:
            verdict = "silent"
        elif code == 1 and len(lines) == 1:
            verdict = "refused"
        else:
            verdict = "unclear"
        return Outcome(case, verdict, code, lines[0][:300] if lines else "", seconds)
    finally:
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        forget()


def figures(outcomes: list[Outcome]) -> dict:
    table = {}
    for cls in CLASSES:
        mine = [o for o in outcomes if o.case.cls == cls]
        table[cls] = {"cases": len(mine), **{v: sum(o.verdict == v for o in mine)
                                             for v in ("refused", "damage", "traceback", "silent", "unclear")},
                      "slowest_s": round(max((o.seconds for o in mine), default=0), 2)}
    return table


def main_cli() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--per-class", type=int, default=12)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    os.environ.setdefault("WORKBENCH_NO_HISTORY", "")
    outcomes = []
    for case in generate(opts.seed, opts.per_class):
        with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
            outcomes.append(run_case(case, Path(tmp)))
    table = figures(outcomes)
    if opts.json:
        print(json.dumps({"seed": opts.seed, "classes": table,
                          "cases": [{"id": o.case.id, "verdict": o.verdict, "code": o.code, "line": o.line,
                                     "s": round(o.seconds, 2)} for o in outcomes]}, indent=1))
    else:
        for o in outcomes:
            if o.verdict != "refused":
                print(f"{o.verdict:<9} {o.case.id}: {o.line}")
        print(f"seed {opts.seed}, load {os.getloadavg()[0]:.1f}")
        for cls, row in table.items():
            print(f"{cls:<10} {row}")
    return 0 if all(o.verdict == "refused" for o in outcomes) else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main_cli())
