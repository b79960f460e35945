"""Registry of Python checks, each proving one or more rule clauses.

A check is a function of no arguments, registered with :func:`check` for clause
ids. It passes by returning (None, True or an empty list), fails by raising
``AssertionError`` or returning a list of problem strings. Games keep their
checks in ``workbench/games/<pkg>/checks.py``; :func:`load_game_checks` imports
that module so its decorators run.

Scenario files are the other kind of check; they are found by their
``checks:`` lists (see :mod:`workbench.core.scenario`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class PythonCheck:
    name: str
    clauses: tuple[str, ...]
    func: Callable[[], object]
    doc: str

    def run(self) -> tuple[bool, str]:
        """(passed, message)."""
        try:
            out = self.func()
        except AssertionError as exc:
            return False, str(exc) or "assertion failed"
        except Exception as exc:  # a crashing check is a failing check, with its reason
            return False, f"{type(exc).__name__}: {exc}"
        if out is None or out is True:
            return True, ""
        if isinstance(out, (list, tuple)):
            return (not out), "; ".join(map(str, out))
        return bool(out), "" if out else "returned false"


_REGISTRY: dict[str, PythonCheck] = {}


def check(*clauses: str):
    """Register the decorated function as a check of ``clauses``."""
    if not clauses:
        raise ValueError("a check proves at least one clause")

    def wrap(func):
        name = f"{func.__module__}.{func.__name__}"
        _REGISTRY[name] = PythonCheck(name, tuple(clauses), func, (func.__doc__ or "").strip())
        return func
    return wrap


def checks_module(game) -> str:
    """The dotted name of ``game``'s checks module: ``checks`` beside the module
    of its ``Game`` class, wherever that package is installed."""
    package = type(game).__module__.rpartition(".")[0]
    return f"{package}.checks" if package else "checks"


def load_game_checks(game_id: str) -> list[PythonCheck]:
    """Import the game's checks module (``checks`` beside the module of its
    ``Game`` class; a game without one has none) and return the checks of its clauses."""
    from workbench.core.registry import get_game
    name = checks_module(get_game(game_id))
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
    prefix = f"{game_id}/"
    return [c for c in _REGISTRY.values() if any(cl.startswith(prefix) for cl in c.clauses)]


def all_checks() -> list[PythonCheck]:
    return list(_REGISTRY.values())
