"""Tabletop Design Workbench: engines, analyses and dashboards for board-game designers."""

from __future__ import annotations

from . import native

# the optional compiled build of the hot engine modules, used only when it was
# built from exactly these sources (see native.py); before anything imports them
native.install()


def __getattr__(name: str):
    # The version comes from the installed package's metadata (pyproject.toml is
    # its one source); read lazily so importing the package stays quick.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version("tabletop-workbench")
        except PackageNotFoundError:
            return "0+unknown"
    raise AttributeError(name)
