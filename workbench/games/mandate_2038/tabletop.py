"""Mandate 2038 at the table, for the Play page (``Game.table_drawer``): a view of
``observe(state)`` drawn with the dashboard's table helpers. Imported only by
the dashboard; no rule lives here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from workbench.tabletop import _fmt, html_pane, mats, term_label, term_stat

if TYPE_CHECKING:
    from .state import MandateState


def draw_mandate(game, state: MandateState):
    """The hex board (the game's own bokeh drawing) beside the numbers and the
    players' boards."""
    import panel as pn
    obs = dict(game.observe(state))
    players = obs.pop("players", {})
    fig = game.drawing(state)
    return pn.Column(html_pane(_strip(game, obs) + training_run(obs.get("run")) + seat_legend(list(players))),
                     pn.Row(pn.pane.Bokeh(fig), html_pane(mats(players, obs.get("decider"), _board(game)))),
                     sizing_mode="stretch_width")


KEEP = ("era", "cycle", "phase", "decider", "initiative", "headline", "mandate_card",
        "collective_trust", "deck_size", "ending")


def _strip(game, obs: dict) -> str:
    return "<div class='wb-strip'>" + "".join(term_stat(game, k, obs[k]) for k in KEEP if k in obs) + "</div>"


def _board(game):
    keys = ("faction", "mandate", "capability", "trust", "runway", "compute", "customers",
            "scrutiny", "score", "selected", "ready", "agents")

    def board(name, p):
        return "".join(f"<div>{term_label(game, k)}: <b>{escape(_fmt(p.get(k)))}</b></div>" for k in keys if k in p)
    return board


def mandate_view(game, obs: dict, active: str | None, config=None) -> str:
    """One seat's view (``Game.view_drawer``): the same numbers, legend and
    players' boards, and the hex board drawn from the observation's tiles,
    control and agents (an SVG that fits its panel)."""
    players = obs.pop("players", {})
    return (_strip(game, obs) + training_run(obs.get("run")) + seat_legend(list(players))
            + "<div style='display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start'>"
            + hex_map(obs.get("tiles") or {}, obs.get("control") or {}, players)
            + f"<div style='flex:1;min-width:320px'>{mats(players, obs.get('decider') or active, _board(game))}</div>"
            + "</div>")


def hex_map(tiles: dict, control: dict, players: dict) -> str:
    """The board as an SVG of pointy hexes at their axial coordinates: each
    district's kind as its fill, its controller as its outline, the Agents on it
    as dots in their seat's colour."""
    import math

    from .drawing import KIND_COLOURS, SEAT_COLOURS
    if not tiles:
        return ""
    names = list(players)
    colour = {n: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, n in enumerate(names)}
    agents: dict[str, list[str]] = {}
    for name, p in players.items():
        for where in p.get("agents") or []:
            agents.setdefault(str(where), []).append(name)
    size = 30
    centres = {t: (size * math.sqrt(3) * (v["q"] + v["r"] / 2), size * 1.5 * v["r"]) for t, v in tiles.items()}
    xs, ys = [c[0] for c in centres.values()], [c[1] for c in centres.values()]
    pad = size + 4
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    out = [f"<svg class='wb-hexmap' viewBox='{left:.0f} {top:.0f} {width:.0f} {height:.0f}' "
           f"style='width:100%;max-width:460px;height:auto' role='img' aria-label='the board'>"]
    for tile, (x, y) in centres.items():
        kind = str(tiles[tile].get("kind", ""))
        points = " ".join(f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},"
                          f"{y + size * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
        owner = control.get(tile)
        stroke = colour.get(owner, "#778") if owner else "#778"
        # one group per district, named in data-card: a seat page shows the moves
        # naming the district clicked (an Agent's destination, a relocation)
        out.append(f"<g data-card='{escape(tile)}'>")
        out.append(f"<polygon points='{points}' fill='{escape(KIND_COLOURS.get(kind, '#eee'))}' "
                   f"stroke='{stroke}' stroke-width='{4 if owner else 1}'><title>{escape(tile)} ({escape(kind)})"
                   f"{', controlled by ' + escape(str(owner)) if owner else ''}</title></polygon>")
        out.append(f"<text x='{x:.1f}' y='{y - 4:.1f}' font-size='8' text-anchor='middle'>{escape(tile)}</text>")
        for i, who in enumerate(agents.get(tile, [])):
            out.append(f"<circle cx='{x - 12 + 8 * i:.1f}' cy='{y + 10:.1f}' r='3.5' fill='{colour[who]}'>"
                       f"<title>{escape(who)}'s Agent</title></circle>")
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def training_run(run: dict | None) -> str:
    """The Training run being turned (who, the cards revealed so far, the domains
    seen, the provisional Capability at stake), or nothing between runs: the player
    deciding to draw or bank reads the risk here."""
    if not run:
        return ""
    revealed = "".join(f"<span class='wb-card'>{escape(str(c))}</span>" for c in run.get("revealed") or [])
    return (f"<div class='wb-row'><b>Training run</b>{escape(str(run.get('player')))}'s: "
            f"{revealed or '<em>no card yet</em>'}"
            f" <small>domains seen: {escape(_fmt(run.get('seen') or []))}; provisional Capability "
            f"{escape(_fmt(run.get('provisional')))}</small></div>")


def seat_legend(names: list[str]) -> str:
    """Which colour is which player on the Mandate 2038 board (outlines,
    Facilities, Generators and Agents are drawn in the seat's colour)."""
    from .drawing import SEAT_COLOURS
    items = []
    for seat, name in enumerate(names):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        items.append(f"<span class='wb-card' style='border:3px solid {colour}'>"
                     f"<span style='display:inline-block;width:12px;height:12px;background:{colour};"
                     f"vertical-align:middle;margin-right:4px'></span>{escape(name)}</span>")
    return f"<div class='wb-row wb-legend'><b>Players</b>{''.join(items)}</div>"
