"""The build step of the compiled engine modules (see :mod:`workbench.native`
for what is compiled and how a stale build is refused).

The ordinary install runs :func:`build` (``setup.py``); ``python -m
workbench.build_native`` builds again by hand in a source checkout (after an
edit, say), ``... status`` says whether the compiled build is in use and why,
``... clean`` removes it. Building by hand needs the ``fast`` extra (mypy,
which carries mypyc) and a C compiler; without them it says so and changes
nothing. About half a minute of compiling a game on one core.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from workbench.native import COMPILED_MODULES, GROUP, HERE, MANIFEST, NATIVE_DIR, abi, check, digest, source_key, sources


def build(native_dir: Path = NATIVE_DIR) -> str:
    """Compile :data:`COMPILED_MODULES` with mypyc into ``native_dir`` and write
    the manifest; raises RuntimeError saying why when it cannot."""
    root = HERE.parent  # the folder that holds the workbench package
    if native_dir == NATIVE_DIR and not (root / "pyproject.toml").is_file():
        # nothing is ever written into an installed package (README)
        raise RuntimeError("the compiled build is made in a source checkout (pip install -e .), "
                           f"and {HERE} is an installed package")
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as err:
        raise RuntimeError(f"the compiled build needs mypy (pip install -e '.[fast]'): {err}") from None
    before = {source_key(p): digest(p) for p in sources()}
    paths = [name.replace(".", "/") + ".py" for name in COMPILED_MODULES]
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="workbench-native-") as tmp:
        os.chdir(root)  # mypyc names modules by their path from here
        try:
            # Third-party libraries count as Any (--no-site-packages): the compiled
            # modules use none of them, and checking pandas or pydantic takes minutes;
            # modules not compiled are read for their types only (silent).
            extensions = mypycify(["--ignore-missing-imports", "--no-site-packages", "--follow-imports=silent",
                                   "--disable-error-code=annotation-unchecked",
                                   "--cache-dir", str(Path(tmp) / "mypy-cache"), *paths], opt_level="3",
                                  group_name=GROUP, target_dir=str(Path(tmp) / "c"))
            dist = Distribution({"name": "workbench-native", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(Path(tmp) / "lib")
            cmd.build_temp = str(Path(tmp) / "tmp")
            cmd.inplace = False
            dist.run_command("build_ext")
        except SystemExit as err:  # mypyc reports type errors by exiting
            raise RuntimeError(f"mypyc refused the sources (type errors above; exit {err.code})") from None
        except Exception as err:  # a missing compiler or headers: say so, change nothing
            raise RuntimeError(f"the C build failed: {type(err).__name__}: {err}") from None
        finally:
            os.chdir(cwd)
        after = {source_key(p): digest(p) for p in sources()}
        if after != before:
            raise RuntimeError("a source changed during the build; build again")
        built = Path(tmp) / "lib"
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        staging = Path(tmp) / "out"
        staging.mkdir()
        modules: dict[str, str] = {}  # module name -> its file in native_dir
        for so in built.rglob(f"*{suffix}"):
            rel = so.relative_to(built).as_posix()[: -len(suffix)]
            name = rel.replace("/", ".")
            shutil.copy2(so, staging / f"{name}{suffix}")
            modules[name] = f"{name}{suffix}"
        expected = set(COMPILED_MODULES)
        if not expected <= set(modules):
            raise RuntimeError(f"the build made no module for {sorted(expected - set(modules))}")
        (staging / MANIFEST).write_text(json.dumps(
            {"abi": abi(), "modules": modules, "sources": before}, indent=1, sort_keys=True), encoding="utf-8")
        try:
            if native_dir.exists():
                shutil.rmtree(native_dir)
            shutil.copytree(staging, native_dir)
        except OSError as err:  # e.g. an installed, read-only package: build in a source checkout
            raise RuntimeError(f"cannot write {native_dir}: {err}") from None
    return f"compiled {len(COMPILED_MODULES)} modules into {native_dir}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in ([], ["build"]):
        try:
            print(build())
        except RuntimeError as err:
            print(f"native build: {err}; the workbench keeps running as plain Python", file=sys.stderr)
            return 1
        return 0
    if args == ["status"]:
        print(check()[1])
        return 0
    if args == ["clean"]:
        shutil.rmtree(NATIVE_DIR, ignore_errors=True)
        print(f"removed {NATIVE_DIR}")
        return 0
    print("usage: python -m workbench.build_native [build|status|clean]", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
