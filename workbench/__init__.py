"""Tabletop Design Workbench: engines, analyses and dashboards for board-game designers."""

__version__ = "0.1.0"
