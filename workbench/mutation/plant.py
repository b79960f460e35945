"""Plant one mutant in the running process (a forked child that is thrown away afterwards).

The module is not re-imported: its mutated source is compiled, and the code object of the
function holding the change replaces the code of the live function made from the original
(``function.__code__``; found by its qualified name, or by a search of every live function
when a decorator hides it), so every reference to it (imports into other modules, dispatch
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
    targets = _by_name(module, mutant.scope, filename)
    if not targets:  # made some other way (a factory, a decorator that copies): look everywhere
        targets = [obj for obj in gc.get_objects() if isinstance(obj, types.FunctionType)
                   and obj.__code__.co_filename == filename and obj.__code__.co_qualname == mutant.scope]
    for obj in targets:
        try:
            obj.__code__ = new
        except ValueError as exc:  # the mutant reads other closure cells
            raise NotPlanted(f"{mutant.id}: {exc}") from None
    if not targets:
        raise NotPlanted(f"{mutant.id}: no live function {mutant.scope}")
    return len(targets)


def _by_name(module, qualname: str, filename: str) -> list[types.FunctionType]:
    """The function ``qualname`` names in ``module`` (through classes, static and class
    methods, properties and wrappers that keep ``__wrapped__``), if it is the one compiled
    from ``filename``."""
    obj = module
    for part in qualname.split("."):
        holder = getattr(obj, "__dict__", {})
        if part not in holder:
            return []
        obj = holder[part]
    found = []
    for candidate in (obj, getattr(obj, "__func__", None), getattr(obj, "fget", None),
                      getattr(obj, "fset", None)):
        while candidate is not None and not isinstance(candidate, types.FunctionType):
            candidate = getattr(candidate, "__wrapped__", None)
        while isinstance(candidate, types.FunctionType):
            if candidate.__code__.co_filename == filename and candidate.__code__.co_qualname == qualname:
                found.append(candidate)
                break
            candidate = getattr(candidate, "__wrapped__", None)
    return found


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
