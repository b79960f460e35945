"""The workbench is layered without import circles, and so is every game package.

The import graph is built from the source with :mod:`ast`: every module of
``workbench/`` a node, every import of another of its modules an edge, imports
inside functions included (a late import hides a circle from Python, not from
a reader, and it runs all the same). Imports under ``if TYPE_CHECKING:`` are
left out: they never run, and they are how a lower layer names a higher
layer's type in an annotation. ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg`` (its ``__init__``); the
parent packages Python also runs on the way are not counted (every module
would then import its package's ``__init__``).

Two rules hold over that graph (docs/architecture.md, "Layers"):

* no circle anywhere, between any modules of ``workbench/``;
* between the packages, imports go down the declared :data:`LAYERS` only:
  a module imports its own package or a package of a lower layer, never a
  sibling of its own layer or anything above.

Each game package is also a DAG of its own and has the same file roles, so a
reader finds the same thing in the same place in every game
(docs/reference/game-contract.md)."""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKBENCH = ROOT / "workbench"
GAMES_DIR = WORKBENCH / "games"
PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())

#: the layer order between the parts of ``workbench/`` (a package, or a module
#: at the top), lowest first; the same table is in docs/architecture.md
#: ("Layers"), which a test below holds to this one. ``workbench`` is the
#: top-level ``__init__``.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("native",),                               # the optional compiled build: standard library only
    ("workbench", "build_native", "core"),     # the game contract, files, registry, bots
    ("rules", "sim", "graphs", "testing"),     # rulebook model; batch play; card graphs; conformance kit
    ("print", "tweak", "tabletop", "mutation"),  # printing; live-tweak sessions; the table drawing; mutation score
    ("rooms", "balance", "interop", "callgrind", "hunt"),  # playtest rooms; auto-balancing; OpenSpiel, sheets; callgrind; hunts
    ("bench", "bench_table"),                  # the measurements of `workbench bench`; their README table
    ("dashboard",),                            # the Panel pages
    ("commands", "cli", "games", "scaffold"),  # the command line; game plugins (named by no one)
    ("__main__", "docs_reference"),            # `python -m workbench`; the reference pages made from the parsers
)

#: the roles every game package has (docs/reference/game-contract.md); a game with no
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


def _modules(folder: Path, name: str) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's ``__init__``) under ``folder``,
    the package called ``name``."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [name, *path.relative_to(folder).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def module_graph(folder: Path, name: str) -> nx.DiGraph:
    """The run-time import graph of package ``name`` (the folder ``folder``):
    module -> module it imports, each edge carrying ``where`` (file:line)."""
    modules = _modules(folder, name)
    g = nx.DiGraph()
    for mod, (path, is_package) in modules.items():
        g.add_node(mod)
        package = mod if is_package else mod.rpartition(".")[0]
        for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                           for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:  # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != mod:
                    g.add_edge(mod, target, where=f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                                                  f":{node.lineno}")
    return g


def import_graph(package: str) -> nx.DiGraph:
    """Module -> module edges inside ``workbench.games.<package>``, by file stem
    (the package's own ``__init__`` is ``__init__``)."""
    prefix = f"workbench.games.{package}"
    g = module_graph(GAMES_DIR / package, prefix)
    return nx.relabel_nodes(g, {n: n[len(prefix) + 1:] or "__init__" for n in g})


def _circles(g: nx.DiGraph, limit: int = 5) -> str:
    """The first circles of ``g``, each with the file:line of its imports."""
    lines = []
    for cycle in nx.simple_cycles(g):
        steps = [f"{a} -> {b} ({g.edges[a, b]['where']})" for a, b in zip(cycle, cycle[1:] + cycle[:1])]
        lines.append("; ".join(steps))
        if len(lines) == limit:
            break
    return "\n".join(lines)


def unit_of(module: str) -> str:
    """The part of the workbench a module belongs to: its package under
    ``workbench/`` or, for a module at the top, that module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer_violations(g: nx.DiGraph, layers=LAYERS) -> list[str]:
    """Every import that climbs the layers or crosses to a sibling of its own
    layer, and every part of the workbench no layer names."""
    rank = {unit: i for i, row in enumerate(layers) for unit in row}
    problems = sorted({f"{unit_of(n)} is in no layer (add it to LAYERS and docs/architecture.md)"
                       for n in g if unit_of(n) not in rank})
    for a, b in g.edges:
        ua, ub = unit_of(a), unit_of(b)
        if ua != ub and ua in rank and ub in rank and rank[ua] <= rank[ub]:
            how = "a sibling of its layer" if rank[ua] == rank[ub] else "a higher layer"
            problems.append(f"{a} imports {b}, {how} ({g.edges[a, b]['where']})")
    return problems


@functools.cache
def workbench_graph() -> nx.DiGraph:
    return module_graph(WORKBENCH, "workbench")


def test_no_import_circle_in_the_workbench():
    g = workbench_graph()
    assert len(g) == len(list(WORKBENCH.rglob("*.py"))) and g.number_of_edges() > 900  # the whole tree was read
    assert nx.is_directed_acyclic_graph(g), "import circles:\n" + _circles(g)


def test_packages_import_only_lower_layers():
    problems = layer_violations(workbench_graph())
    assert not problems, "\n".join(problems)


def test_the_layers_in_the_docs_are_the_tested_ones():
    """docs/architecture.md's layer table, row by row, is :data:`LAYERS`."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("<!-- layers -->")[1]
    rows = [re.findall(r"`([A-Za-z_]+)`", line.split("|")[2])
            for line in block.splitlines() if re.match(r"\|\s*\d+\s*\|", line)]
    assert tuple(tuple(r) for r in rows) == LAYERS


def test_the_layer_checker_sees_a_climb_and_a_sibling(tmp_path):
    """An import up the layers or sideways within one is reported with its line;
    a part no layer names is reported too."""
    pkg = tmp_path / "wb"
    for sub in ("low", "mid", "side", "top"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "top" / "a.py").write_text("from wb.low import x\n")             # down: fine
    (pkg / "low" / "x.py").write_text("def f():\n    from wb.top import a\n")  # up, late
    (pkg / "mid" / "m.py").write_text("from ..side import s\n")             # sideways
    (pkg / "side" / "s.py").write_text("")
    (pkg / "extra.py").write_text("")
    g = module_graph(pkg, "wb")
    problems = layer_violations(g, layers=(("wb", "low"), ("mid", "side"), ("top",)))
    assert problems == ["extra is in no layer (add it to LAYERS and docs/architecture.md)",
                        f"wb.low.x imports wb.top.a, a higher layer ({pkg / 'low' / 'x.py'}:2)",
                        f"wb.mid.m imports wb.side.s, a sibling of its layer ({pkg / 'mid' / 'm.py'}:1)"]
    assert not nx.is_directed_acyclic_graph(g)  # low -> top -> low
    assert "wb.low.x -> wb.top.a" in _circles(g)


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


@pytest.mark.parametrize("package", PACKAGES)
def test_the_state_never_imports_the_rules(package):
    """docs/reference/game-contract.md: a state hands ``legal_actions`` and ``apply_action``
    to the ``engine`` its game binds; it imports (at run time, late imports
    included, through any module) neither the flow, nor the actions, nor the game."""
    reached = nx.descendants(import_graph(package), "state")
    assert not reached & {"flow", "actions", "game", "__init__"}, sorted(reached)

