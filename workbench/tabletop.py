"""Drawing a position the way the table looks, for the Play page.

Everything drawn comes from the engine's own view of a position,
``GAME.observe(state)`` (the same values a scenario's ``expect`` may name), so
the dashboard never re-derives a rule. Each game gets a drawer that lays those
values out like its table (tracks, rows of cards, player mats): a game names
its drawer in ``Game.table_drawer`` (its own ``tabletop.py``, built from the
helpers here); a game without one is drawn by :func:`draw_generic`. Drawers
return Panel objects.

A playtest seat's page shows the same drawing, built by :func:`view_html` from
that seat's observation only (``Game.observation(state, seat)["table"]``, the
same shape as ``observe`` with what the seat may not see masked): a game names
the function in ``Game.view_drawer`` (``module:function(game, table, active)``
returning HTML), and its Play page drawer draws ``observe(state)`` with it, so
the two never drift apart. Everything interpolated is escaped here."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from html import escape
from typing import Callable

CSS = """
<style>
.wb-table {font-family: system-ui, sans-serif; font-size: 14px;}
.wb-strip {display:flex; flex-wrap:wrap; gap:8px; margin:4px 0 10px 0;}
.wb-stat {border:1px solid #ccd; border-radius:6px; padding:4px 10px; background:#f7f8fc;}
.wb-stat b {display:block; font-size:11px; color:#667; text-transform:uppercase;}
.wb-row {margin:6px 0;}
.wb-row > b {display:inline-block; min-width:120px; color:#334;}
.wb-card {display:inline-block; border:1px solid #99a; border-radius:5px; padding:3px 8px;
          margin:2px; background:#fff; box-shadow:1px 1px 0 #dde;}
.wb-card.done {background:#d8f5d0; border-color:#5a5;}
.wb-card sup.wb-cost {background:#fff3c4; border:1px solid #d9b650; border-radius:3px; padding:0 3px;
                      font-size:10px; color:#5d4300;}
.wb-card.event {background:#fde8c8; border-color:#c84;}
.wb-mats {display:flex; flex-wrap:wrap; gap:10px;}
.wb-mat {border:2px solid #aab; border-radius:8px; padding:6px 10px; min-width:170px; background:#fbfbff;}
.wb-mat.active {border-color:#e0a100; box-shadow:0 0 0 2px #ffe08a;}
.wb-mat h4 {margin:0 0 4px 0;}
.wb-track {display:flex; gap:2px; margin:2px 0 8px 0;}
.wb-track span {width:22px; height:22px; border:1px solid #bbc; border-radius:4px; text-align:center;
                font-size:11px; line-height:22px; background:#fff;}
.wb-track span.on {background:#2f5fb3; color:#fff; border-color:#1f4a96;}
.wb-track span.danger {border-color:#d44;}
.wb-box {display:inline-block; width:12px; height:12px; border:1px solid #777; margin:0 1px;
         vertical-align:middle;}
.wb-box.filled {background:#333;}
</style>
"""


@functools.cache
def emoji_font_available() -> bool:
    """Whether an emoji font is installed (fontconfig knows a font with the 🌟
    glyph). ``WORKBENCH_ICONS=text`` or ``=emoji`` decides instead."""
    forced = os.environ.get("WORKBENCH_ICONS", "").strip().lower()
    if forced in ("text", "emoji"):
        return forced == "emoji"
    if shutil.which("fc-list") is None:
        return False
    try:
        out = subprocess.run(["fc-list", ":charset=1f31f", "family"], capture_output=True, text=True,
                             timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.strip())


def icon(emoji: str, text: str) -> str:
    """An icon as an emoji, or as its text label where no emoji font would draw it."""
    return emoji if emoji_font_available() else f"<span class='wb-icon-text'>[{escape(text)}]</span>"


def term_label(game, key: str) -> str:
    """The label of the observed value ``key``: its term's icon and word from the
    game's terms file (``🪙 Coin``), the same icon the printed cards and the
    rulebook show (``Game.observation_terms`` names the term); the word alone
    without an emoji font, and the bare key for a value that is no term."""
    path = game.observation_terms.get(key)
    if path is None:
        return escape(key.replace("_", " "))
    from workbench.rules.term_icons import term
    t = term(game.id, path)
    return f"{t.icon} {escape(t.word)}" if t.icon and emoji_font_available() else escape(t.word)


#: CSS colour names the engines use, as sRGB hex (for contrast)
NAMED_COLOURS = {"yellow": "#ffff00", "green": "#008000", "blue": "#0000ff", "orange": "#ffa500",
                 "red": "#ff0000", "purple": "#800080", "black": "#000000", "white": "#ffffff",
                 "grey": "#808080", "gray": "#808080"}


def _luminance(colour: str) -> float:
    hexa = NAMED_COLOURS.get(colour.lower(), colour).lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    channels = [int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(background: str) -> str:
    """Black or white, whichever reads better on ``background``."""
    return "#000000" if contrast(background, "#000000") >= contrast(background, "#ffffff") else "#ffffff"


def draw_table(game, state):
    """A Panel object showing ``state`` of ``game``: the drawer its
    ``Game.table_drawer`` names (``module:function(game, state)``), else
    :func:`draw_generic`."""
    if game.table_drawer is None:
        return draw_generic(game, state)
    from workbench.core.game import resolve
    return resolve(game.table_drawer)(game, state)


def view_html(game, table: dict, active: str | None, config) -> str:
    """HTML of one seat's view of the table (``table``: its observation's
    ``table``; ``active``: who acts; ``config``: the game's public set-up):
    ``Game.view_drawer``, else the generic layout. Reads nothing but these (and
    the game's card data)."""
    if game.view_drawer is None:
        return CSS + f"<div class='wb-table'>{generic_body(dict(table), active)}</div>"
    from workbench.core.game import resolve
    return CSS + f"<div class='wb-table'>{resolve(game.view_drawer)(game, dict(table), active, config)}</div>"


# -- small HTML helpers used by the drawers ------------------------------------------

def stat(label: str, value) -> str:
    return f"<div class='wb-stat'><b>{escape(str(label))}</b>{escape(_fmt(value))}</div>"


def term_stat(game, key: str, value) -> str:
    """A :func:`stat` labelled with the term of the observed value ``key``."""
    return f"<div class='wb-stat'><b>{term_label(game, key)}</b>{escape(_fmt(value))}</div>"


def card(name, css: str = "", inner: str | None = None) -> str:
    """One card, named in ``data-card`` (a seat page plays a card by its click)."""
    text = escape(str(name))
    return f"<span class='wb-card {css}' data-card='{text}'>{inner if inner is not None else text}</span>"


def cards(names, css: str = "") -> str:
    if not names:
        return "<em>none</em>"
    return "".join(card(n, css) for n in names)


def track(value: int, low: int, high: int, *, danger_below: int | None = None) -> str:
    """A row of numbered boxes from ``low`` to ``high`` with ``value`` marked."""
    cells = []
    for v in range(low, high + 1):
        cls = "on" if v == value else ""
        if danger_below is not None and v < danger_below:
            cls += " danger"
        cells.append(f"<span class='{cls.strip()}'>{v}</span>")
    return "<div class='wb-track'>" + "".join(cells) + "</div>"


def _fmt(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_fmt(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_fmt(v)}" for k, v in value.items()) or "—"
    if isinstance(value, float):
        return f"{value:g}"
    return "—" if value is None else str(value)


def mats(players: dict, active: str | None, body: Callable[[str, dict], str]) -> str:
    out = []
    for name, values in players.items():
        cls = "wb-mat active" if name == active else "wb-mat"
        out.append(f"<div class='{cls}'><h4>{escape(str(name))}</h4>{body(name, values)}</div>")
    return "<div class='wb-mats'>" + "".join(out) + "</div>"


def to_move(state) -> str | None:
    return None if state.is_terminal() else state.player_name(state.current_player())


def html_pane(body: str, **kw):
    import panel as pn
    return pn.pane.HTML(CSS + f"<div class='wb-table'>{body}</div>", sizing_mode="stretch_width", **kw)


# -- the generic drawer -----------------------------------------------------------------

def generic_body(obs: dict, active: str | None) -> str:
    """Any game's view: its numbers as a strip, its card rows, one mat per player."""
    players = obs.pop("players", {}) or {}
    scalars = {k: v for k, v in obs.items() if not isinstance(v, (list, tuple, dict))}
    rows = {k: v for k, v in obs.items() if isinstance(v, (list, tuple))}
    other = {k: v for k, v in obs.items() if isinstance(v, dict)}
    body = "<div class='wb-strip'>" + "".join(stat(k, v) for k, v in scalars.items()) + "</div>"
    for key, value in rows.items():
        body += f"<div class='wb-row'><b>{escape(key)}</b>{cards(value)}</div>"
    for key, value in other.items():
        body += f"<div class='wb-row'><b>{escape(key)}</b>{escape(_fmt(value))}</div>"
    if players:
        body += mats(players, active,
                     lambda n, vals: "".join(f"<div>{escape(str(k))}: <b>{escape(_fmt(v))}</b></div>"
                                             for k, v in vals.items()))
    return body


def draw_generic(game, state):
    """Any game: its observed numbers as a strip, its card rows, one mat per
    player."""
    return html_pane(generic_body(dict(game.observe(state) or {}), to_move(state)))
