"""Build hook: ship the bundled card folders inside the package, and compile
the games' rules modules.

The designer-facing data lives in ``cards/`` at the top of the repository (where
designers and the docs expect it). A wheel copies it to ``workbench/_cards`` so
an installed workbench reads it through :mod:`importlib.resources`; an editable
install keeps reading ``cards/`` in place.

Every install (``pip install .``, ``pip install -e .``, a wheel build) also
compiles the modules the game packages list in ``compiled.txt`` with mypyc
(mypy is a build requirement, see pyproject.toml), as black and mypy ship
their own compiled code: into ``workbench/_native`` of the checkout for an
editable install, of the wheel otherwise. Where there is no C compiler or the
build fails, the install still succeeds: the reason goes to
``workbench/_native/NOT_BUILT`` and the workbench runs as plain Python, saying
so in ``workbench --version`` (see workbench/native.py).
``WORKBENCH_BUILD=pure`` skips the compile. Everything else about the package
is declared in pyproject.toml."""

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def compile_rules(target: Path) -> None:
    """Compile the declared rules modules into ``target``; never fails the install."""
    def not_built(why: str) -> None:
        target.mkdir(parents=True, exist_ok=True)
        (target / "NOT_BUILT").write_text(why.strip() + "\n", encoding="utf-8")
        print(f"workbench: the rules were not compiled ({why.strip().splitlines()[0]}); "
              "the workbench runs as plain Python", file=sys.stderr)

    if os.environ.get("WORKBENCH_BUILD", "").strip().lower() == "pure":
        not_built("WORKBENCH_BUILD=pure was set at install")
        return
    sys.path.insert(0, str(HERE))
    try:
        from workbench.build_native import build
        print(f"workbench: {build(target)}", file=sys.stderr)
    except Exception as err:  # no compiler, no headers, mypyc refused: plain Python
        not_built(f"{type(err).__name__}: {err}" if not isinstance(err, RuntimeError) else str(err))
    finally:
        sys.path.remove(str(HERE))


class BuildWithCards(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            compile_rules(HERE / "workbench" / "_native")
            return  # editable installs read cards/ in place
        compile_rules(Path(self.build_lib) / "workbench" / "_native")
        target = Path(self.build_lib) / "workbench" / "_cards"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(HERE / "cards", target,
                        ignore=shutil.ignore_patterns("*.bak", "__pycache__", ".*.tmp", "*.lock", ".workbench*"))


setup(cmdclass={"build_py": BuildWithCards})
