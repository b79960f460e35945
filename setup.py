"""Build hook: ship the bundled card folders inside the package.

The designer-facing data lives in ``cards/`` at the top of the repository (where
designers and the docs expect it). A wheel copies it to ``workbench/_cards`` so
an installed workbench reads it through :mod:`importlib.resources`; an editable
install keeps reading ``cards/`` in the checkout. Everything else about the
package is declared in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithCards(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # editable installs read cards/ in place
        target = Path(self.build_lib) / "workbench" / "_cards"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(HERE / "cards", target,
                        ignore=shutil.ignore_patterns("*.bak", "__pycache__", ".*.tmp", "*.lock"))


setup(cmdclass={"build_py": BuildWithCards})
