"""Every game package is layered without import cycles.

The import graph of each package under ``workbench/games/`` is built from the
source with :mod:`ast` (imports inside functions included: a late import hides a
cycle from Python, not from a reader) and must be a DAG. Imports under
``if TYPE_CHECKING:`` are left out: they never run, and they are how a lower
layer names a higher layer's type in an annotation. Each package also has
the same file roles, so a reader finds the same thing in the same place in
every game (docs/adding-a-game.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx
import pytest

GAMES_DIR = Path(__file__).resolve().parents[1] / "workbench" / "games"
PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())

#: the roles every game package has (docs/adding-a-game.md); a game with no
#: board has ``drawing.py`` say so
ROLES = ("data", "state", "actions", "flow", "notation", "scenario", "evaluation", "checks", "drawing", "game")


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_nodes(tree: ast.AST):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks
    (their ``else`` branches do run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def import_graph(package: str) -> nx.DiGraph:
    """Module -> module edges inside ``workbench.games.<package>``."""
    root = GAMES_DIR / package
    g = nx.DiGraph()
    for path in sorted(root.glob("*.py")):
        mod = path.stem
        g.add_node(mod)
        for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                elif node.level == 0 and node.module and node.module.startswith(f"workbench.games.{package}"):
                    rest = node.module.split(".")[3:]
                    targets = [rest[0]] if rest else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name.split(".")[3] for a in node.names
                           if a.name.startswith(f"workbench.games.{package}.")]
            for t in targets:
                if (root / f"{t}.py").exists() and t != mod:
                    g.add_edge(mod, t)
    return g


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    g = import_graph(package)
    cycles = list(nx.simple_cycles(g))
    assert nx.is_directed_acyclic_graph(g), f"{package}: import cycles {cycles[:3]}"


@pytest.mark.parametrize("package", PACKAGES)
def test_same_file_roles(package):
    missing = [r for r in ROLES if not (GAMES_DIR / package / f"{r}.py").exists()]
    assert not missing, f"{package} lacks {', '.join(missing)}"


def test_the_checker_sees_a_cycle(tmp_path, monkeypatch):
    """The graph builder finds cycles through late (function-level) imports."""
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    monkeypatch.setattr(sys.modules[__name__], "GAMES_DIR", tmp_path)
    assert not nx.is_directed_acyclic_graph(import_graph("cyc"))


def test_the_checker_ignores_type_checking_imports(tmp_path, monkeypatch):
    """An import that only type checkers run adds no edge; one in the ``else``
    branch, or a late one next to it, still does."""
    pkg = tmp_path / "tc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (pkg / "c.py").write_text("import typing\nif typing.TYPE_CHECKING:\n    from .a import x\nelse:\n    from .b import y\n")
    monkeypatch.setattr(sys.modules[__name__], "GAMES_DIR", tmp_path)
    g = import_graph("tc")
    assert nx.is_directed_acyclic_graph(g)
    assert set(g.edges) == {("a", "b"), ("c", "b")}
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\n"
                              "def f():\n    from .a import x\n")
    assert not nx.is_directed_acyclic_graph(import_graph("tc"))


def _unannotated_state_params(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            out += [f"{path.name}:{node.lineno} {node.name}" for a in params
                    if a.arg == "state" and a.annotation is None]
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_engine_modules_annotate_their_states(package):
    """Every module of every game names its state type on every ``state``
    parameter (``state: MMState`` ...), importing it under ``if TYPE_CHECKING:``
    where a run-time import would climb the layers."""
    paths = sorted((GAMES_DIR / package).glob("*.py"))
    missing = [m for p in paths for m in _unannotated_state_params(p)]
    assert not missing, missing
