"""Plant one mutant in the running process (a forked child that is thrown away afterwards).

The module is not re-imported: its mutated source is compiled, and the code object of the
function holding the change replaces the code of every live function made from the original
(``function.__code__``), so every reference to it (imports into other modules, dispatch
tables, bound methods) runs the mutant at once and no module body runs twice. A mutated
module-level constant is re-evaluated and rebound in the module and wherever another module
imported the same object under the same name within the game's package.
"""

from __future__ import annotations

import ast
import gc
import importlib
import sys
import types

from .operators import Mutant, apply


class NotPlanted(Exception):
    """The mutant cannot be planted in the live process (e.g. it changes a closure's cells)."""


def _code_named(code: types.CodeType, qualname: str) -> types.CodeType | None:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_qualname == qualname:
                return const
            found = _code_named(const, qualname)
            if found is not None:
                return found
    return None


def plant(mutant: Mutant, source: str) -> int:
    """Plant ``mutant`` of ``source`` (its module's text); returns how many live objects
    were changed. Raises :class:`NotPlanted` when none could be."""
    module = importlib.import_module(mutant.module)
    filename = module.__file__
    tree = apply(source, mutant)
    if mutant.kind == "constant":
        return _plant_constant(module, tree, mutant)
    code = compile(tree, filename, "exec", dont_inherit=True)
    new = _code_named(code, mutant.scope)
    if new is None:
        raise NotPlanted(f"{mutant.id}: no function {mutant.scope} in the compiled mutant")
    changed = 0
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType):
            old = obj.__code__
            if old.co_filename == filename and old.co_qualname == mutant.scope:
                try:
                    obj.__code__ = new
                except ValueError as exc:  # the mutant reads other closure cells
                    raise NotPlanted(f"{mutant.id}: {exc}") from None
                changed += 1
    if not changed:
        raise NotPlanted(f"{mutant.id}: no live function {mutant.scope}")
    return changed


def _plant_constant(module, tree: ast.Module, mutant: Mutant) -> int:
    for stmt in tree.body:
        if getattr(stmt, "lineno", None) == mutant.stmt_line and isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            expr = ast.Expression(stmt.value)
            ast.fix_missing_locations(expr)
            value = eval(compile(expr, module.__file__, "eval"), dict(vars(module)))  # literals only
            break
    else:
        raise NotPlanted(f"{mutant.id}: constant {mutant.scope} not found")
    old = getattr(module, mutant.scope)
    package = module.__name__.rpartition(".")[0]
    changed = 0
    for other in list(sys.modules.values()):
        d = getattr(other, "__dict__", None)
        if d is not None and d.get(mutant.scope, None) is old and (
                other is module or str(getattr(other, "__name__", "")).startswith(package + ".")):
            d[mutant.scope] = value
            changed += 1
    return changed
