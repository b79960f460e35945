"""The build step of the compiled engine modules (see :mod:`workbench.native`
for what is compiled and how a stale build is refused).

The ordinary install runs :func:`build` (``setup.py``); ``python -m
workbench.build_native`` builds again by hand in a source checkout (after an
edit, say), ``... status`` says whether the compiled build is in use and why,
``... clean`` removes it. Building by hand needs the ``fast`` extra (mypy,
which carries mypyc) and a C compiler; without them it says so and changes
nothing.

The build says what it is doing, one line a step (``module n of N`` as each
module's C file is compiled): on stderr, and, when pip is holding stderr back
(``pip install`` shows a build's output only with ``-v``), on the terminal the
install runs in. Each module is its own C file (mypyc's ``multi_file``), and
the files are compiled side by side on every core the process may use
(``WORKBENCH_BUILD_JOBS`` sets how many): one file of every module took one
core about five minutes. See docs/measurements/ for the figures.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from workbench.native import COMPILED_MODULES, GROUP, HERE, MANIFEST, NATIVE_DIR, abi, check, digest, source_key, sources


def jobs() -> int:
    """How many C files are compiled at once: ``WORKBENCH_BUILD_JOBS``, else the
    cores this process may run on."""
    text = os.environ.get("WORKBENCH_BUILD_JOBS", "").strip()
    if text.isdigit() and int(text) > 0:
        return int(text)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Progress:
    """One line per build step, to stderr and, when stderr is not a terminal
    (pip captures it), to the terminal itself where there is one."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.tty = None
        if not sys.stderr.isatty():
            try:
                self.tty = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 (closed in close())
            except OSError:  # no controlling terminal (CI, a service): stderr only
                self.tty = None

    def __call__(self, text: str) -> None:
        line = f"workbench build [{time.perf_counter() - self.start:5.1f} s] {text}"
        print(line, file=sys.stderr, flush=True)
        if self.tty is not None:
            try:
                print(line, file=self.tty, flush=True)
            except OSError:
                self.tty = None

    def close(self) -> None:
        if self.tty is not None:
            self.tty.close()
            self.tty = None


def _parallel_build_ext(base, say: Progress, n_jobs: int):
    """``base`` (setuptools' build_ext) compiling an extension's C files ``n_jobs``
    at a time, saying each one as it is done. The files are independent (one per
    module, plus mypyc's runtime): only the link needs them all."""

    class ParallelBuildExt(base):
        def build_extensions(self):
            shims = [e for e in self.extensions if len(e.sources) <= 1]
            if shims:   # each compiled module's own small entry point into the shared library
                say(f"then {len(shims)} small entry-point modules, one C file each")
            super().build_extensions()

        def build_extension(self, ext):
            compiler = self.compiler
            serial = compiler.compile
            # mypyc's multi_file mode: one C file per module, named __native_<module>.c
            modules = [s for s in ext.sources if Path(s).name.startswith("__native_")
                       and Path(s).stem != f"__native_{GROUP}"]      # the group's own file: shared tables
            lock = threading.Lock()
            done = [0, 0]   # C files, module files

            def one(source, **kw):
                objects = serial([source], **kw)
                with lock:
                    done[0] += 1
                    if source in modules:
                        done[1] += 1
                        name = Path(source).stem.removeprefix("__native_").replace("___", ".")
                        say(f"module {done[1]} of {len(modules)} compiled ({name}; "
                            f"{done[0]} of {len(ext.sources)} C files)")
                return objects

            def compile(sources, output_dir=None, **kw):
                if len(sources) <= 1 or n_jobs <= 1:
                    return [o for s in sources for o in one(s, output_dir=output_dir, **kw)]
                from concurrent.futures import ThreadPoolExecutor
                # the largest files first, so that no long one starts last and runs alone
                order = sorted(sources, key=lambda s: -os.path.getsize(s) if os.path.exists(s) else 0)
                with ThreadPoolExecutor(n_jobs) as pool:  # gcc runs outside the GIL
                    done_objects = dict(zip(order, pool.map(lambda s: one(s, output_dir=output_dir, **kw), order)))
                say(f"all {len(sources)} C files compiled; linking {ext.name} ...")
                return [o for s in sources for o in done_objects[s]]   # the linker's order, as given

            if len(ext.sources) > 1:
                say(f"{ext.name}: {len(ext.sources)} C files ({len(modules)} modules, "
                    f"the rest mypyc's runtime), {n_jobs} at a time")
            compiler.compile = compile
            try:
                return super().build_extension(ext)
            finally:
                del compiler.compile

    return ParallelBuildExt


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
    say = Progress()
    n_jobs = jobs()
    with tempfile.TemporaryDirectory(prefix="workbench-native-") as tmp:
        os.chdir(root)  # mypyc names modules by their path from here
        try:
            say(f"mypyc: type-checking {len(paths)} modules and writing them as C ...")
            # Third-party libraries count as Any (--no-site-packages): the compiled
            # modules use none of them, and checking pandas or pydantic takes minutes;
            # modules not compiled are read for their types only (silent).
            extensions = mypycify(["--ignore-missing-imports", "--no-site-packages", "--follow-imports=silent",
                                   "--disable-error-code=annotation-unchecked",
                                   "--cache-dir", str(Path(tmp) / "mypy-cache"), *paths], opt_level="3",
                                  group_name=GROUP, target_dir=str(Path(tmp) / "c"), multi_file=True)
            say("C written; compiling ...")
            from setuptools.command.build_ext import build_ext
            dist = Distribution({"name": "workbench-native", "ext_modules": extensions})
            dist.cmdclass["build_ext"] = _parallel_build_ext(build_ext, say, n_jobs)
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
            say.close()
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
    return (f"compiled {len(COMPILED_MODULES)} modules into {native_dir} in "
            f"{time.perf_counter() - say.start:.0f} s ({n_jobs} at a time)")


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
