"""The optional compiled build of the hot engine modules, and the guard that
never lets it run stale.

The modules in :data:`COMPILED_MODULES` (the Meaning Made rules and the seeded
random stream) are ordinary typed Python. ``python -m workbench.build_native``
(:mod:`workbench.build_native`) compiles those same sources with mypyc (the
``fast`` extra: ``pip install -e '.[fast]'``, plus a C compiler) into
``workbench/_native/``, with a manifest of the SHA-256 of every source the
compiler may have read. Nothing builds them on install: without that step, or
without a compiler, the workbench runs as plain Python, exactly as before.

When ``workbench`` is imported, :func:`install` compares the manifest with the
sources on disk. Only if every hash matches (and the interpreter is the one the
build was made for) does it put a finder in front of the import system that
loads the compiled modules; one edited source, an unreadable manifest or
``WORKBENCH_PURE=1`` means plain Python for all of them. It is all or nothing
because compiled modules call each other directly, past the import system.

The compiled code is the same rules: ``tests/test_differential.py`` gives the
same bytes on both (``tests/test_meaning_made_native.py`` checks it where a
compiler is present).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent  # the workbench package
NATIVE_DIR = HERE / "_native"
MANIFEST = "manifest.json"
GROUP = "workbench_native"  # the shared library is GROUP + "__mypyc"

_MM = "workbench.games.meaning_made."
#: what the build compiles: the Meaning Made state, each action and phase and
#: the evaluation, and the random stream every game draws from. Not compiled:
#: notation, card data, variants and scenarios (built or read once per game).
COMPILED_MODULES = tuple(_MM + m for m in (
    "state", "actions", "contribute", "load_pattern", "flow", "recycle", "touchpoint", "stability_window",
    "consequences", "tracks", "setup", "gather", "conversion", "solo", "evaluation", "variants"))

#: why the compiled build is or is not in use ("compiled (mypyc)" when it is)
status = "pure Python: not checked yet"


def sources() -> list[Path]:
    """Every source the compiled code may have baked assumptions about (types,
    constants): the whole Meaning Made package, the core package and this file."""
    return (sorted((HERE / "games" / "meaning_made").glob("*.py")) + sorted((HERE / "core").glob("*.py"))
            + [HERE / "native.py"])


def source_key(path: Path) -> str:
    return path.relative_to(HERE.parent).as_posix()


def digest(path: Path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def abi() -> str:
    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


def check(native_dir: Path = NATIVE_DIR) -> tuple[dict[str, Path] | None, str]:
    """``(files, why)``: the compiled modules to load by module name, or None
    and why plain Python runs."""
    if os.environ.get("WORKBENCH_PURE"):
        return None, "pure Python: WORKBENCH_PURE is set"
    manifest = native_dir / MANIFEST
    if not manifest.is_file():
        return None, "pure Python: no compiled build (python -m workbench.build_native)"
    import json
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        recorded: dict[str, str] = data["sources"]
        modules: dict[str, str] = data["modules"]
        built_for = data["abi"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, f"pure Python: unreadable {manifest}"
    if built_for != abi():
        return None, f"pure Python: the build is for {built_for}, this interpreter is {abi()}"
    now = {source_key(p): p for p in sources()}
    if set(now) != set(recorded):
        changed = sorted(set(now) ^ set(recorded))
        return None, f"pure Python: sources added or removed since the build ({', '.join(changed[:3])})"
    for key, path in now.items():
        if digest(path) != recorded[key]:
            return None, f"pure Python: {key} changed since the build; build again"
    files = {name: native_dir / file for name, file in modules.items()}
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        return None, f"pure Python: compiled file missing: {missing[0]}"
    return files, "compiled (mypyc)"


class _Finder:
    """A meta path finder that loads the listed modules from their compiled
    files and nothing else (no importlib.abc base: importing it costs start-up)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname, path=None, target=None):
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        spec = importlib.machinery.ModuleSpec(fullname, loader, origin=str(file))
        spec.has_location = True
        return spec


def install(native_dir: Path = NATIVE_DIR) -> str:
    """Use the compiled build if it is current (see the module docstring);
    returns and records the status. Called once, from ``workbench/__init__.py``,
    before any compiled module can have been imported."""
    global status
    if any(name in sys.modules for name in COMPILED_MODULES):
        return status  # too late to switch: keep what is loaded
    files, status = check(native_dir)
    if files is not None:
        sys.meta_path.insert(0, _Finder(files))
    return status
