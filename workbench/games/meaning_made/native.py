"""The optional compiled build of the Meaning Made rules, and the guard that
never lets it run stale.

The rules modules listed in :data:`COMPILED_MODULES` are ordinary typed Python.
``python -m workbench.games.meaning_made.build_native`` (:mod:`.build_native`)
compiles those same sources with mypyc (the ``fast`` extra:
``pip install -e '.[fast]'``, plus a C compiler) into ``_native/`` beside them,
with a manifest of the SHA-256 of every source the compiler read. Nothing builds them on install: without the step, or
without a compiler, the package runs as plain Python, exactly as before.

When the package is imported, :func:`install` compares the manifest with the
sources on disk. Only if every hash matches (and the interpreter is the one the
build was made for) does it put a finder in front of the import system that
loads the compiled modules; a single edited source, an unreadable manifest or
``WORKBENCH_PURE=1`` means plain Python for all of them. It is all or nothing
because compiled modules call each other directly, past the import system.

The compiled code is the same rules: ``tests/test_differential.py`` gives the
same bytes on both (``tests/test_meaning_made_native.py`` checks it where a
compiler is present).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = "workbench.games.meaning_made"
HERE = Path(__file__).resolve().parent
NATIVE_DIR = HERE / "_native"
MANIFEST = "manifest.json"
GROUP = "workbench_meaning_made"  # the shared library is GROUP + "__mypyc"

#: the rules modules the build compiles: the state, each action and phase, the
#: evaluation. Not compiled: notation, card data, variants and scenarios
#: (built once or read once; compiling them measured no gain or a loss).
COMPILED_MODULES = ("state", "actions", "contribute", "load_pattern", "flow", "recycle", "touchpoint",
                    "stability_window", "consequences", "tracks", "setup", "gather", "conversion",
                    "solo", "evaluation")

#: why the compiled build is or is not in use ("compiled" when it is)
status = "pure Python: not checked yet"


def _sources() -> list[Path]:
    """Every source the compiled code may have baked in assumptions about:
    the whole Meaning Made package and the core modules (their types)."""
    core = HERE.parent.parent / "core"
    return sorted(HERE.glob("*.py")) + sorted(core.glob("*.py"))


def _key(path: Path) -> str:
    return path.relative_to(HERE.parent.parent.parent).as_posix()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _abi() -> str:
    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


def check(native_dir: Path = NATIVE_DIR) -> tuple[dict[str, Path] | None, str]:
    """``(files, why)``: the compiled modules to load by module name, or None
    and why plain Python runs."""
    if os.environ.get("WORKBENCH_PURE"):
        return None, "pure Python: WORKBENCH_PURE is set"
    manifest = native_dir / MANIFEST
    if not manifest.is_file():
        return None, "pure Python: no compiled build (python -m workbench.games.meaning_made.build_native)"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        recorded: dict[str, str] = data["sources"]
        modules: dict[str, str] = data["modules"]
        abi = data["abi"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, f"pure Python: unreadable {manifest}"
    if abi != _abi():
        return None, f"pure Python: the build is for {abi}, this interpreter is {_abi()}"
    now = {_key(p): p for p in _sources()}
    if set(now) != set(recorded):
        added = sorted(set(now) ^ set(recorded))
        return None, f"pure Python: sources added or removed since the build ({', '.join(added[:3])})"
    for key, path in now.items():
        if _digest(path) != recorded[key]:
            return None, f"pure Python: {key} changed since the build; build again"
    files = {name: native_dir / file for name, file in modules.items()}
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        return None, f"pure Python: compiled file missing: {missing[0]}"
    return files, "compiled (mypyc)"


class _Finder(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their compiled files; nothing else."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname, path=None, target=None):
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, str(file), loader=loader)


def install(native_dir: Path = NATIVE_DIR) -> str:
    """Use the compiled build if it is current (see the module docstring);
    returns and records the status. Called once, by the package's ``__init__``,
    before any rules module is imported."""
    global status
    if any(f"{PACKAGE}.{m}" in sys.modules for m in COMPILED_MODULES):
        return status  # too late to switch: keep what is loaded
    files, status = check(native_dir)
    if files is not None:
        sys.meta_path.insert(0, _Finder(files))
    return status
