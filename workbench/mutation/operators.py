"""The mutation operators: every small change that can be planted in a Python module.

A mutant is one change to one node of a module's syntax tree, inside a function or method
body (where the rules run) or in the value of a module-level ``NAME = ...`` constant:

- ``compare``: a comparison swapped for its boundary or its negation (``<`` for ``<=``,
  ``==`` for ``!=``, ``in`` for ``not in``);
- ``arith``: an arithmetic operator swapped (``+`` and ``-``, ``*`` for ``+``, ``//`` for
  ``*``, ``%`` for ``//``), in expressions and augmented assignments; ``min`` and ``max``;
- ``constant``: a number one higher (0 becomes 1, 1 becomes 0, others n+1), ``True`` and
  ``False`` swapped;
- ``boolean``: ``and`` and ``or`` swapped, a ``not`` dropped;
- ``branch``: an ``if``/``while`` condition or a conditional expression negated (the
  branches swapped);
- ``remove``: a statement that only acts (a call, an assignment to an attribute or an item,
  an augmented assignment) removed, a ``break``/``continue`` removed.

Docstrings, annotations, strings, decorators and default values are never changed, nor the
functions a module names in its ``__compiled_only__`` tuple: mutants are planted in the
interpreted build, where code only the compiled build runs is never reached. Mutants
are numbered in tree order, so ``(module, index)`` names one across runs of the same source;
:func:`apply` rebuilds the tree with one of them planted.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

OPERATORS = ("compare", "arith", "constant", "boolean", "branch", "remove")

_COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
            ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mult,
          ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
_SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
           ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
           ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
           ast.And: "and", ast.Or: "or"}


@dataclass(frozen=True)
class Mutant:
    module: str          # dotted module name
    index: int           # position among the module's mutants, in tree order
    line: int            # line of the changed node
    stmt_line: int       # first line of the statement holding it (what line coverage records)
    operator: str        # one of OPERATORS
    change: str          # what changed, e.g. "< -> <="
    scope: str           # qualified name of the outermost function holding it, or "NAME" for a constant
    kind: str            # "function" or "constant"

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.index}"

    def to_dict(self) -> dict:
        return {"id": self.id, "module": self.module, "line": self.line, "operator": self.operator,
                "change": self.change, "scope": self.scope}


def _changes(node: ast.AST, parent_stmt: ast.stmt | None) -> list[tuple[str, str]]:
    """(operator, change) for each mutant of ``node`` itself, in a fixed order."""
    out: list[tuple[str, str]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            new = _COMPARE.get(type(op))
            if new is not None:
                out.append(("compare", f"{_SYMBOL[type(op)]} -> {_SYMBOL[new]}"))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        new = _ARITH.get(type(node.op))
        if new is not None:
            out.append(("arith", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[new]}"))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        out.append(("arith", f"{node.func.id} -> {'max' if node.func.id == 'min' else 'min'}"))
    elif isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            out.append(("constant", f"{v} -> {not v}"))
        elif isinstance(v, int):
            out.append(("constant", f"{v} -> {_bump(v)}"))
        elif isinstance(v, float):
            out.append(("constant", f"{v} -> {v + 1}"))
    elif isinstance(node, ast.BoolOp):
        other = "or" if isinstance(node.op, ast.And) else "and"
        out.append(("boolean", f"{_SYMBOL[type(node.op)]} -> {other}"))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("boolean", "not x -> x"))
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
        out.append(("branch", "condition negated"))
    if isinstance(node, ast.stmt) and _removable(node):
        out.append(("remove", f"{type(node).__name__.lower()} statement removed"))
    return out


def _bump(v: int) -> int:
    return 1 if v == 0 else 0 if v == 1 else v + 1


def _removable(node: ast.stmt) -> bool:
    if isinstance(node, (ast.Break, ast.Continue, ast.AugAssign)):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Call)
    if isinstance(node, ast.Assign):
        return all(isinstance(t, (ast.Attribute, ast.Subscript)) for t in node.targets)
    return False


def _skip_children(node: ast.AST) -> set[int]:
    """ids of child nodes never mutated: annotations, decorators, default values, docstrings,
    the parts of f-strings and the exception types of handlers."""
    skip: set[int] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        for d in node.decorator_list:
            skip.add(id(d))
        if not isinstance(node, ast.ClassDef):
            skip.add(id(node.args))
            if node.returns is not None:
                skip.add(id(node.returns))
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            skip.add(id(body[0]))
    if isinstance(node, ast.AnnAssign):
        skip.add(id(node.annotation))
    if isinstance(node, ast.JoinedStr):
        skip.update(id(v) for v in node.values)
    if isinstance(node, ast.ExceptHandler) and node.type is not None:
        skip.add(id(node.type))
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _is_type_hint(node):
        skip.add(id(node.slice))
    return skip


def _is_type_hint(node: ast.Subscript) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in {"Literal", "Final", "ClassVar", "Annotated"}


def _walk(tree: ast.Module):
    """Yield ``(node, scope, kind, stmt)`` for every node that may be mutated, in a fixed order.
    ``scope`` is the outermost function's qualified name (or the constant's name)."""

    def visit(node, scope, kind, stmt, classes, skip):
        if id(node) in skip:
            return
        here_skip = skip | _skip_children(node)
        if isinstance(node, ast.stmt):
            stmt = node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if scope is None:
                scope, kind = ".".join(classes + [node.name]), "function"
            for child in node.body:
                visit(child, scope, kind, stmt, classes, here_skip)
            return
        if isinstance(node, ast.ClassDef):
            if scope is None:
                for child in node.body:
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        visit(child, None, None, child, classes + [node.name], here_skip)
                return
        if scope is not None:
            yield_list.append((node, scope, kind, stmt))
        for child in ast.iter_child_nodes(node):
            visit(child, scope, kind, stmt, classes, here_skip)

    yield_list: list = []
    compiled_only = _compiled_only(tree)
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) and top.name in compiled_only:
            continue
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            visit(top, None, None, top, [], set())
        elif isinstance(top, ast.Assign) and len(top.targets) == 1 and isinstance(top.targets[0], ast.Name) \
                and top.targets[0].id not in ("__all__", "__compiled_only__") and _constant_value(top.value):
            visit(top.value, top.targets[0].id, "constant", top, [], set())
        elif isinstance(top, ast.AnnAssign) and isinstance(top.target, ast.Name) and top.value is not None \
                and _constant_value(top.value):
            visit(top.value, top.target.id, "constant", top, [], set())
    return yield_list


def _compiled_only(tree: ast.Module) -> set[str]:
    """The names in the module's ``__compiled_only__ = ("name", ...)``, if it has one."""
    for top in tree.body:
        if isinstance(top, ast.Assign) and len(top.targets) == 1 and isinstance(top.targets[0], ast.Name) \
                and top.targets[0].id == "__compiled_only__" and isinstance(top.value, (ast.Tuple, ast.List)):
            return {e.value for e in top.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _constant_value(node: ast.AST) -> bool:
    """A module-level value made only of literals and operators (a rule's number or table),
    which can be re-evaluated on its own."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Call, ast.Lambda, ast.Name, ast.Attribute, ast.ListComp, ast.SetComp,
                            ast.DictComp, ast.GeneratorExp, ast.NamedExpr)):
            return False
    return True


def mutants(source: str, module: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``), numbered in tree order."""
    tree = ast.parse(source)
    out: list[Mutant] = []
    for node, scope, kind, stmt in _walk(tree):
        for operator, change in _changes(node, stmt):
            out.append(Mutant(module, len(out), node.lineno, stmt.lineno, operator, change, scope, kind))
    return out


def apply(source: str, mutant: Mutant) -> ast.Module:
    """The syntax tree of ``source`` with ``mutant`` planted (line numbers kept)."""
    tree = ast.parse(source)
    n = 0
    for node, scope, kind, stmt in _walk(tree):
        for k, (operator, change) in enumerate(_changes(node, stmt)):
            if n == mutant.index:
                if (operator, change) != (mutant.operator, mutant.change):
                    raise ValueError(f"{mutant.id}: the source changed since the mutant was found")
                _plant(tree, node, operator, change, k)
                ast.fix_missing_locations(tree)
                return tree
            n += 1
    raise ValueError(f"{mutant.id}: no such mutant in the source")


def _plant(tree: ast.Module, node: ast.AST, operator: str, change: str, k: int) -> None:
    if operator == "compare":
        # the k-th mutable op of this comparison
        mutable = [i for i, op in enumerate(node.ops) if type(op) in _COMPARE]
        i = mutable[k]
        node.ops[i] = _COMPARE[type(node.ops[i])]()
    elif operator == "arith" and isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = _ARITH[type(node.op)]()
    elif operator == "arith":
        node.func = ast.copy_location(ast.Name("max" if node.func.id == "min" else "min", ast.Load()), node.func)
    elif operator == "constant":
        v = node.value
        node.value = (not v) if isinstance(v, bool) else _bump(v) if isinstance(v, int) else v + 1
    elif operator == "boolean" and isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif operator == "boolean":
        _replace(tree, node, node.operand)
    elif operator == "branch":
        node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
    elif operator == "remove":
        _replace(tree, node, ast.copy_location(ast.Pass(), node))


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise ValueError("node not found")


def snippet(source: str, mutant: Mutant) -> tuple[str, str]:
    """The statement holding the mutant, before and after (one line each, for the report;
    a compound statement shows its header only)."""
    def render(tree: ast.Module) -> str:
        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.stmt) and stmt.lineno == mutant.stmt_line:
                if isinstance(stmt, (ast.If, ast.While)):
                    text = f"{'while' if isinstance(stmt, ast.While) else 'if'} {ast.unparse(stmt.test)}:"
                elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                    text = f"for {ast.unparse(stmt.target)} in {ast.unparse(stmt.iter)}:"
                elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.Try)):
                    continue
                else:
                    text = ast.unparse(stmt)
                return " ".join(text.split())[:160]
        return source.splitlines()[mutant.line - 1].strip()
    return render(ast.parse(source)), render(apply(source, mutant))


__all__ = ["Mutant", "OPERATORS", "mutants", "apply", "snippet"]
