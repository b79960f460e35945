"""Mandate 2038 at the table, for the Play page (``Game.table_drawer``): a view of
``observe(state)`` drawn with the dashboard's table helpers. Imported only by
the dashboard; no rule lives here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import panel as pn

from workbench.dashboard.tabletop import _fmt, html_pane, mats, term_label, term_stat

if TYPE_CHECKING:
    from .state import MandateState


def draw_mandate(game, state: MandateState):
    """The hex board (the game's own bokeh drawing) beside the numbers and the
    players' boards."""
    obs = dict(game.observe(state))
    players = obs.pop("players", {})
    keep = ("era", "cycle", "phase", "decider", "initiative", "headline", "mandate_card",
            "collective_trust", "deck_size", "ending")
    strip = "".join(term_stat(game, k, obs[k]) for k in keep if k in obs)

    def board(name, p):
        keys = ("faction", "mandate", "capability", "trust", "runway", "compute", "customers",
                "scrutiny", "score", "ready", "agents")
        return "".join(f"<div>{term_label(game, k)}: <b>{escape(_fmt(p.get(k)))}</b></div>" for k in keys if k in p)
    fig = game.drawing(state)
    return pn.Column(html_pane(f"<div class='wb-strip'>{strip}</div>" + seat_legend(state)),
                     pn.Row(pn.pane.Bokeh(fig), html_pane(mats(players, obs.get("decider"), board))),
                     sizing_mode="stretch_width")


def seat_legend(state: MandateState) -> str:
    """Which colour is which player on the Mandate 2038 board (outlines,
    Facilities, Generators and Agents are drawn in the seat's colour)."""
    from .drawing import SEAT_COLOURS
    items = []
    for seat in range(len(state.players)):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        items.append(f"<span class='wb-card' style='border:3px solid {colour}'>"
                     f"<span style='display:inline-block;width:12px;height:12px;background:{colour};"
                     f"vertical-align:middle;margin-right:4px'></span>{escape(state.player_name(seat))}</span>")
    return f"<div class='wb-row wb-legend'><b>Players</b>{''.join(items)}</div>"
