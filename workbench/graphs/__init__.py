"""Graphs the analyses and the dashboard share: card dependencies, hex boards."""
