"""Drawing layer: a bokeh figure of the Mandate 2038 board.

Hex tiles coloured by district kind with their ids, a thick outline in the
controller's colour, Facilities as numbered squares (filled when connected, hollow
when offline), Generators as triangles and Agents as small circles, all in
faction colours; the legend names each colour's player and faction and each shape. Imported only by drawing callers (notebook, dashboard), never by
the rules.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from workbench.graphs.hexboard import pixel

from . import board

if TYPE_CHECKING:
    from .state import MandateState

KIND_COLOURS = {
    "frontier": "#f2e8cf", "research": "#a8dadc", "cloud": "#bde0fe", "chip": "#cdb4db",
    "capital": "#ffd6a5", "talent": "#caffbf", "grid": "#fdffb6", "consumer": "#ffc6ff",
    "media": "#ffadad", "government": "#d3d3d3", "renewable": "#b7e4c7",
}
SEAT_COLOURS = ["#e63946", "#1d3557", "#2a9d8f", "#f4a261", "#6a4c93"]


def _corners(x: float, y: float, size: float) -> tuple[list[float], list[float]]:
    angles = [math.radians(60 * k + 30) for k in range(6)]
    return [x + size * math.cos(a) for a in angles], [y + size * math.sin(a) for a in angles]


def board_figure(state: MandateState, *, size: float = 1.0, title: str | None = None):
    from bokeh.models import ColumnDataSource, HoverTool
    from bokeh.plotting import figure

    xs, ys, fills, lines, widths, labels, cx, cy, kinds, controls = [], [], [], [], [], [], [], [], [], []
    for i, kind in enumerate(state.tiles):
        x, y = pixel(*board.COORDS[i], size)
        hx, hy = _corners(x, y, size * 0.97)
        owner = board.controller(state, i)
        xs.append(hx)
        ys.append(hy)
        fills.append(KIND_COLOURS.get(kind, "#eeeeee"))
        lines.append("#555555" if owner is None else SEAT_COLOURS[owner % len(SEAT_COLOURS)])
        widths.append(1 if owner is None else 5)
        labels.append(state.tile_ids[i])
        cx.append(x)
        cy.append(y + 0.55 * size)
        kinds.append(kind)
        controls.append("nobody" if owner is None else state.player_name(owner))
    fig = figure(title=title or f"Mandate 2038 board (seed {state.config.seed})", match_aspect=True,
                 width=640, height=600, toolbar_location="right", x_axis_type=None, y_axis_type=None)
    fig.grid.visible = False
    tiles = ColumnDataSource(dict(xs=xs, ys=ys, fill=fills, line=lines, width=widths, label=labels,
                                  kind=kinds, control=controls))
    r = fig.patches("xs", "ys", fill_color="fill", line_color="line", line_width="width", source=tiles)
    fig.add_tools(HoverTool(renderers=[r], tooltips=[("tile", "@label"), ("kind", "@kind"),
                                                     ("control", "@control")]))
    fig.text(cx, cy, text=labels, text_align="center", text_baseline="middle", text_font_size="9pt")

    fx, fy, fcol, falpha, ftext = [], [], [], [], []
    gx, gy, gcol = [], [], []
    ax, ay, acol = [], [], []
    for seat, p in enumerate(state.players):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        slot: dict[int, int] = {}
        for f, pos in enumerate(p.facilities):
            if pos is None:
                continue
            x, y = pixel(*board.COORDS[pos], size)
            k = slot.get(pos, 0) + sum(1 for s2 in range(seat) for q in state.players[s2].facilities if q == pos)
            slot[pos] = slot.get(pos, 0) + 1
            fx.append(x - 0.3 * size + 0.6 * size * (k % 2))
            fy.append(y + 0.05 * size)
            fcol.append(colour)
            falpha.append(1.0 if board.is_connected(state, seat, f) else 0.0)
            ftext.append(str(f + 1))
        if p.generator is not None:
            x, y = pixel(*board.COORDS[p.generator], size)
            gx.append(x - 0.35 * size + 0.25 * size * seat)
            gy.append(y - 0.45 * size)
            gcol.append(colour)
        for a in p.agents:
            if a is None:
                continue
            x, y = pixel(*board.COORDS[a], size)
            ax.append(x - 0.5 * size + 0.2 * size * seat)
            ay.append(y - 0.2 * size)
            acol.append(colour)
    if fx:
        fig.scatter(fx, fy, marker="square", size=18, line_color=fcol, fill_color=fcol, fill_alpha=falpha,
                    line_width=2)
        fig.text(fx, fy, text=ftext, text_align="center", text_baseline="middle", text_font_size="8pt",
                 text_color="#000000")
    if gx:
        fig.scatter(gx, gy, marker="triangle", size=14, color=gcol)
    if ax:
        fig.scatter(ax, ay, marker="circle", size=8, color=acol)
    _legend(fig, state, r)
    return fig


def _legend(fig, state: MandateState, tiles) -> None:
    """The legend: each seat's colour with its player and faction, then the piece
    shapes in grey (every piece, outline and control mark is drawn in its seat's
    colour). Swatches are single points outside the board, so the view is ranged
    on the tiles alone."""
    from bokeh.models import Legend, LegendItem
    fig.x_range.renderers = fig.y_range.renderers = [tiles]
    off = [-1000.0]
    items = []
    for seat, p in enumerate(state.players):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        swatch = fig.scatter(off, off, marker="square", size=12, color=colour)
        items.append(LegendItem(label=f"{state.player_name(seat)} ({p.faction})", renderers=[swatch]))
    grey = "#777777"
    for label, marker, size, fill in (("Facility (hollow = offline)", "square", 12, 1.0),
                                      ("Generator", "triangle", 11, 1.0), ("Agent", "circle", 8, 1.0)):
        shape = fig.scatter(off, off, marker=marker, size=size, line_color=grey, fill_color=grey,
                            fill_alpha=fill)
        items.append(LegendItem(label=label, renderers=[shape]))
    fig.add_layout(Legend(items=items, location="top_left", label_text_font_size="8pt", click_policy="none",
                          title="Seat colours and pieces", title_text_font_size="8pt", ncols=2), "below")
