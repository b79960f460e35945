"""A bokeh drawing of a Pebble Race table: each player's score as a bar, the
market in the title. Imported only by drawing callers; it changes nothing."""

from __future__ import annotations

from .state import PebbleState


def scores_figure(state: PebbleState, *, width: int = 480, height: int = 260):
    from bokeh.plotting import figure
    names = list(state.config.players)
    fig = figure(x_range=names, width=width, height=height, toolbar_location=None,
                 title=f"round {state.round}; market: {', '.join(state.market) or 'empty'}")
    fig.vbar(x=names, top=list(state.scores), width=0.7, fill_color="#80b1d3", line_color="#333333")
    fig.xgrid.grid_line_color = None
    return fig
