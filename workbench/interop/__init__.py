"""Bridges from workbench games to other frameworks (OpenSpiel)."""
