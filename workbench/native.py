"""The compiled build of the hot engine modules, and the guard that never
lets it run stale.

A game package that wants its rules compiled lists the modules in a file
``compiled.txt`` beside them (one module name per line, relative to the
package; ``#`` starts a comment): the engine names no game. Of its own, the
engine compiles only the random stream every game draws from
(:data:`ENGINE_MODULES`). Those modules are ordinary typed Python. The
ordinary install (``pip install .``, ``pip install -e .``, a wheel build: see
``setup.py``) compiles those same sources with mypyc
into ``workbench/_native/`` where a C compiler is present, with a manifest of
the SHA-256 of every source the compiler may have read; ``python -m
workbench.build_native`` builds again by hand. Where no compiler is present or
the build fails, the install goes on and records why in ``NOT_BUILT``: the
workbench runs as plain Python, the same rules, and ``workbench --version`` and
``workbench bench`` say so in one line.

When ``workbench`` is imported, :func:`install` compares the manifest with the
sources on disk. Only if every hash matches (and the interpreter is the one the
build was made for) does it put a finder in front of the import system that
loads the compiled modules; one edited source, an unreadable manifest or
``WORKBENCH_PURE=1`` means plain Python for all of them. It is all or nothing
because compiled modules call each other directly, past the import system.

The compiled code is the same rules: ``tests/test_differential.py`` gives the
same bytes on both (``tests/test_meaning_made_native.py`` runs it on the build
the install made, and on CI refuses to skip).
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

#: the file in a game package that lists its compiled modules
DECLARATION = "compiled.txt"
#: the file the install leaves in the build folder when it could not compile
NOT_BUILT = "NOT_BUILT"


def compiled_packages() -> list[Path]:
    """The game package folders that declare compiled modules, in name order."""
    return sorted(p.parent for p in (HERE / "games").glob(f"*/{DECLARATION}"))


def declared_modules() -> tuple[str, ...]:
    """Every module the build compiles, from each package's ``compiled.txt``:
    a game's state, actions, phases and evaluation. Not compiled: notation,
    card data, variants' loading and scenarios (built or read once per game)."""
    names: list[str] = []
    for folder in compiled_packages():
        package = "workbench.games." + folder.name
        for line in (folder / DECLARATION).read_text(encoding="utf-8").splitlines():
            name = line.split("#", 1)[0].strip()
            if name:
                names.append(f"{package}.{name}")
    return tuple(names)


#: engine modules the build compiles besides the games' own: the random stream
#: every game draws from (SplitMix64 on 32-bit halves, see its docstring)
ENGINE_MODULES = ("workbench.core.rng",)

COMPILED_MODULES = ENGINE_MODULES + declared_modules()

#: why the compiled build is or is not in use ("compiled (mypyc)" when it is)
status = "pure Python: not checked yet"


def sources() -> list[Path]:
    """Every source the compiled code may have baked assumptions about (types,
    constants): each compiling game's whole package, the core package and this file."""
    files: list[Path] = []
    for folder in compiled_packages():
        files += sorted(folder.glob("*.py")) + [folder / DECLARATION]
    return files + sorted((HERE / "core").glob("*.py")) + [HERE / "native.py"]


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
        not_built = native_dir / NOT_BUILT
        if not_built.is_file():
            why = not_built.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            return None, f"pure Python: the install did not compile the rules ({why[0] if why else 'no reason given'})"
        return None, "pure Python: no compiled build (pip install -e . or python -m workbench.build_native)"
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
