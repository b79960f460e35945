"""A bokeh drawing of a Pax Transhumanity table: the four Market columns (price
0 at the bottom), each idea with its Syndications, and the Regime, the round
and the Splay's length in the title. Imported only by drawing callers, never by
the rules; it reads the state and changes nothing."""

from __future__ import annotations

from .data import SPHERES
from .state import PaxState

COLOURS = {"yellow": "#ffd92f", "green": "#66c2a5", "blue": "#8da0cb", "orange": "#fc8d62"}


def market_figure(state: PaxState, *, width: int = 760, height: int = 420, title: str | None = None):
    """One column per sphere, one box per Market slot (empty slots pale)."""
    from bokeh.models import ColumnDataSource, HoverTool, LabelSet
    from bokeh.plotting import figure

    xs, ys, labels, fills, owners = [], [], [], [], []
    names = state.config.players
    for col, sphere in enumerate(SPHERES):
        for slot, idea in enumerate(state.market[sphere]):
            xs.append(col)
            ys.append(slot)
            labels.append(idea or "")
            fills.append(COLOURS[sphere] if idea else "#f4f4f4")
            owners.append(", ".join(names[s] for s in state.synd.get(idea, ())) if idea else "")
    source = ColumnDataSource({"x": xs, "y": ys, "idea": labels, "fill": fills, "syndications": owners})
    fig = figure(width=width, height=height, toolbar_location=None, x_range=(-0.6, len(SPHERES) - 0.4),
                 title=title or (f"{state.regime}, round {state.round}, Splay {len(state.splay)} cards, "
                                 f"deck {len(state.deck)}"))
    fig.rect(x="x", y="y", width=0.95, height=0.9, fill_color="fill", line_color="#555555", source=source)
    fig.add_layout(LabelSet(x="x", y="y", text="idea", source=source, text_font_size="7pt",
                            text_align="center", text_baseline="middle"))
    fig.add_tools(HoverTool(tooltips=[("idea", "@idea"), ("price", "@y"), ("syndications", "@syndications")]))
    fig.xaxis.ticker = list(range(len(SPHERES)))
    fig.xaxis.major_label_overrides = {i: s for i, s in enumerate(SPHERES)}
    fig.yaxis.axis_label = "price"
    fig.grid.visible = False
    return fig
