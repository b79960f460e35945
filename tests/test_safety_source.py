"""No write bypasses the safety module (issue 38): a walk over the package's
source for the calls that create, change or delete files, allowed only in
``workbench/core/storage.py`` and the few places listed here with the reason."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"

#: the one module every write goes through
SAFETY = "core/storage.py"
#: places that write on their own, and why that is safe
ALLOWED = {
    # the card-save transaction: journal-committed multi-file saves with their own
    # confinement (a journal entry may only name files inside its folder, links to
    # card files only inside the card folder); built on storage's checks and
    # documented in docs/reliability.md ("Card saves", "An untrusted card folder")
    "core/cardfile.py",
    # the native build step (`python -m workbench.build_native`), run by a developer
    # or the installer on the package's own folder, never on a designer's data
    "build_native.py",
}

#: method names that write through pathlib or a library
WRITE_METHODS = {"write_text", "write_bytes", "mkdir", "unlink", "rmdir", "touch", "symlink_to", "hardlink_to",
                 "rename", "replace"}
#: module functions that write
WRITE_FUNCTIONS = {("os", "makedirs"), ("os", "mkdir"), ("os", "remove"), ("os", "unlink"), ("os", "rmdir"),
                   ("os", "rename"), ("os", "replace"), ("os", "symlink"), ("os", "mkfifo"),
                   ("shutil", "rmtree"), ("shutil", "copy"), ("shutil", "copy2"), ("shutil", "copyfile"),
                   ("shutil", "copytree"), ("shutil", "move"), ("sqlite3", "connect")}


def _literal_mode(args: list) -> str | None:
    for a in args:
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            return a.value
        return "?"          # a mode that is not a literal: counted as a write
    return None


def writes_in(source: str) -> list[tuple[int, str]]:
    """Every call in ``source`` that creates, changes or deletes a file, in order."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        keywords = [k.value for k in node.keywords if k.arg == "mode"]
        if isinstance(f, ast.Name) and f.id == "save" and any(k.arg == "filename" for k in node.keywords):
            found.append((node.lineno, node.col_offset, "save(filename=...)"))     # bokeh.io.save
        elif isinstance(f, ast.Name) and f.id == "open":
            mode = _literal_mode(list(node.args[1:2]) + keywords)
            if mode is not None and any(c in mode for c in "wax+?"):
                found.append((node.lineno, node.col_offset, f"open(..., {mode!r})"))
        elif isinstance(f, ast.Attribute):
            owner = f.value.id if isinstance(f.value, ast.Name) else None
            if (owner, f.attr) in WRITE_FUNCTIONS:
                found.append((node.lineno, node.col_offset, f"{owner}.{f.attr}"))
            elif owner == "storage":
                continue                  # the safety module's own functions
            elif f.attr == "open":
                mode = _literal_mode(list(node.args[:1]) + keywords)      # Path.open(mode); Image.open(file)
                if mode is not None and mode != "?" and any(c in mode for c in "wax+"):
                    found.append((node.lineno, node.col_offset, f".open({mode!r})"))
            elif owner not in ("os", "shutil", "sqlite3", "re", "str") and f.attr in WRITE_METHODS:
                # str.replace(a, b) takes two arguments and DataFrame.rename a mapping; a path's one path
                if f.attr in ("replace", "rename") and (len(node.args) != 1 or node.keywords
                                                        or isinstance(node.args[0], ast.Dict)):
                    continue
                found.append((node.lineno, node.col_offset, f".{f.attr}()"))
    return [(line, kind) for line, _, kind in sorted(found)]


def test_the_walker_finds_each_kind_of_write():
    sample = """
open(p, "w"); open(p, mode="ab"); open(p)
Path(p).write_text("x"); p.write_bytes(b""); p.mkdir(); p.unlink()
os.makedirs(p); os.remove(p); shutil.rmtree(p); shutil.copy2(a, b); shutil.copytree(a, b)
sqlite3.connect(p); p.open("w"); text.replace("a", "b"); frame.rename({"a": "A"})
save(fig, filename=p)
"""
    kinds = [k for _, k in writes_in(sample)]
    assert kinds == ["open(..., 'w')", "open(..., 'ab')", ".write_text()", ".write_bytes()", ".mkdir()",
                     ".unlink()", "os.makedirs", "os.remove", "shutil.rmtree", "shutil.copy2", "shutil.copytree",
                     "sqlite3.connect", ".open('w')", "save(filename=...)"]


def test_nothing_writes_a_file_outside_the_safety_module():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == SAFETY or rel in ALLOWED:
            continue
        for line, kind in writes_in(path.read_text(encoding="utf-8")):
            offenders.append(f"workbench/{rel}:{line}: {kind}")
    assert not offenders, "write through workbench.core.storage instead:\n" + "\n".join(offenders)


def test_the_allowed_list_is_still_needed():
    for rel in ALLOWED:
        assert writes_in((PACKAGE / rel).read_text(encoding="utf-8")), f"{rel} no longer writes: drop it"
