"""A bokeh drawing of a Meaning Made table: each player's tokens, Vitals and
Legacy as grouped bars, with Meaning, the World Layer and the round in the
title. Imported only by drawing callers (notebooks, the dashboard), never by the
rules; it reads the state and changes nothing."""

from __future__ import annotations

from .state import MMState

MEASURES = ("E", "I", "S", "vitals", "legacy")
COLOURS = {"E": "#fdb462", "I": "#80b1d3", "S": "#b3de69", "vitals": "#fb8072", "legacy": "#bebada"}


def table_figure(state: MMState, *, width: int = 640, height: int = 320, title: str | None = None):
    """Grouped bars (player, measure); Fragile players are named with a mark."""
    from bokeh.models import ColumnDataSource, FactorRange, HoverTool
    from bokeh.plotting import figure

    names = [f"{name}{' (Fragile)' if p.fragile else ''}"
             for name, p in zip(state.config.players, state.players)]
    factors = [(n, m) for n in names for m in MEASURES]
    values = [getattr(p, m) for p in state.players for m in MEASURES]
    source = ColumnDataSource({"x": factors, "value": values, "colour": [COLOURS[m] for _, m in factors]})
    fig = figure(x_range=FactorRange(*factors), width=width, height=height, toolbar_location=None,
                 title=title or (f"Meaning {state.meaning}, World Layer {state.world_layer}, "
                                 f"round {state.round}"))
    fig.vbar(x="x", top="value", width=0.85, fill_color="colour", line_color="#333333", source=source)
    fig.add_tools(HoverTool(tooltips=[("", "@x"), ("value", "@value")]))
    fig.y_range.start = 0
    fig.xaxis.major_label_orientation = 1.0
    fig.xgrid.grid_line_color = None
    return fig
