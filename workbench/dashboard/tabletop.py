"""Drawing a position the way the table looks, for the Play page.

Everything drawn comes from the engine's own view of a position,
``GAME.observe(state)`` (the same values a scenario's ``expect`` may name), so
the dashboard never re-derives a rule. Each game gets a drawer that lays those
values out like its table (tracks, rows of cards, player mats); a game without
one is drawn by :func:`draw_generic`. Drawers return Panel objects."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from html import escape
from typing import Callable

import panel as pn

#: game id -> drawer(game, state) -> Panel object
DRAWERS: dict[str, Callable] = {}

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
    game's terms file (``☀️ Energy``), the same icon the printed cards and the
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


def register_drawer(game_id: str):
    def deco(fn):
        DRAWERS[game_id] = fn
        return fn
    return deco


def draw_table(game, state):
    """A Panel object showing ``state`` of ``game``."""
    drawer = DRAWERS.get(game.id, draw_generic)
    return drawer(game, state)


# -- small HTML helpers used by the drawers ------------------------------------------

def stat(label: str, value) -> str:
    return f"<div class='wb-stat'><b>{escape(str(label))}</b>{escape(_fmt(value))}</div>"


def term_stat(game, key: str, value) -> str:
    """A :func:`stat` labelled with the term of the observed value ``key``."""
    return f"<div class='wb-stat'><b>{term_label(game, key)}</b>{escape(_fmt(value))}</div>"


def cards(names, css: str = "") -> str:
    if not names:
        return "<em>none</em>"
    return "".join(f"<span class='wb-card {css}'>{escape(str(n))}</span>" for n in names)


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
    return pn.pane.HTML(CSS + f"<div class='wb-table'>{body}</div>", sizing_mode="stretch_width", **kw)


# -- the generic drawer -----------------------------------------------------------------

def draw_generic(game, state):
    """Any game: its observed numbers as a strip, its card rows, one mat per
    player."""
    obs = dict(game.observe(state) or {})
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
        body += mats(players, to_move(state),
                     lambda n, vals: "".join(f"<div>{escape(str(k))}: <b>{escape(_fmt(v))}</b></div>"
                                             for k, v in vals.items()))
    return html_pane(body)


# -- Meaning Made ---------------------------------------------------------------------------

def _card(cards_by_name, name):
    try:
        return cards_by_name.get(name)
    except AttributeError:
        return None


def _short(game, key: str) -> str:
    """A term's icon where the emoji font draws it, else the key (``☀️`` or ``E``)."""
    from workbench.rules.term_icons import term_icon
    path = game.observation_terms.get(key)
    mark = term_icon(game.id, path) if path else ""
    return mark if mark and emoji_font_available() else key


def _mm_requirement(game, card) -> str:
    """A card's printed requirement as the table shows it (data, not rules):
    each amount with its term's icon (``2☀️ 1🛡️``), as on the printed card."""
    if card is None:
        return ""
    req = card.requirement
    tokens = req.tokens if isinstance(req.tokens, dict) else req.tokens.model_dump()
    parts = [f"{n}{_short(game, k)}" for k, n in tokens.items() if n]
    parts += [f"L{layer}" for layer in getattr(req, "layers", [])]
    if getattr(req, "vitals", 0):
        parts.append(f"{req.vitals}{_short(game, 'V')}")
    return " ".join(parts)


@register_drawer("meaning-made")
def draw_meaning_made(game, state):
    """The Meaning and World Layer tracks, the Event, the Prism, the Initiative
    Index with each Initiative's boxes (filled ones dark) and contribution
    markers in order, and each player's mat."""
    obs = game.observe(state)
    patterns, initiatives = state.cards.patterns, state.cards.initiatives
    meaning_max = state.rules.meaning_max

    strip = "".join([stat("round", obs.get("round")), stat("phase", obs.get("phase")),
                     stat("to act", obs.get("turn") or "—"), stat("actions left", obs.get("actions_left")),
                     term_stat(game, "consequence_code", obs.get("consequence_code")),
                     term_stat(game, "end_initiative", obs.get("end_initiative")),
                     term_stat(game, "community", obs.get("community")),
                     stat("decks P/I/E", "/".join(str(v) for v in (obs.get("decks") or {}).values()))])
    if obs.get("over"):
        strip += stat("ending", obs.get("ending")) + stat("winners", obs.get("winners") or "nobody")
    body = f"<div class='wb-strip'>{strip}</div>"
    body += (f"<div class='wb-row'><b>{term_label(game, 'meaning')}</b>"
             + track(obs.get("meaning", 0), 0, meaning_max, danger_below=1) + "</div>")
    body += (f"<div class='wb-row'><b>{term_label(game, 'world_layer')}</b>"
             + track(obs.get("world_layer", 1), 1, 10) + "</div>")
    event = obs.get("event")
    events = event if isinstance(event, list) else [event] if event else []
    body += f"<div class='wb-row'><b>{term_label(game, 'event')}</b>{cards_html_events(events)}</div>"
    prism = []
    for name in obs.get("prism", []):
        card = _card(patterns, name)
        layer = f"L{card.layer} " if card is not None else ""
        prism.append(f"<span class='wb-card' title='{escape(_mm_requirement(game, card))}'>{escape(layer)}"
                     f"{escape(name)}<br><small>{escape(_mm_requirement(game, card))}</small></span>")
    body += f"<div class='wb-row'><b>{term_label(game, 'prism')}</b>{''.join(prism) or '<em>empty</em>'}</div>"
    index = []
    contributions = obs.get("contributions") or {}
    for name in obs.get("index", []):
        card = _card(initiatives, name)
        prog = contributions.get(name, {})
        filled = prog.get("filled", {})
        boxes = ""
        if card is not None:
            for kind, need in card.requirement.tokens.items():
                have = filled.get(kind, 0)
                boxes += (f"<div title='{term_label(game, kind)}'>{_short(game, kind)} "
                          + "".join(f"<span class='wb-box{' filled' if i < have else ''}'></span>"
                                    for i in range(need)) + "</div>")
            spaces = card.order_spaces
            markers = prog.get("markers", [])
            order = " ".join(f"<span class='wb-card' style='padding:0 4px'>{i + 1}: "
                             f"{escape(markers[i]) if i < len(markers) else '·'}</span>" for i in range(spaces))
            head = f"L{card.layer} {escape(name)} <small>(+{card.meaning} Meaning)</small>"
        else:
            order, head = escape(", ".join(prog.get("markers", []))), escape(name)
        index.append(f"<span class='wb-card' style='vertical-align:top'>{head}{boxes}"
                     f"<div><small>order:</small> {order}</div></span>")
    body += f"<div class='wb-row'><b>{term_label(game, 'index')}</b>{''.join(index) or '<em>empty</em>'}</div>"
    if obs.get("completed"):
        body += f"<div class='wb-row'><b>Completed</b>{cards(obs['completed'], 'done')}</div>"
    if obs.get("restricted"):
        body += f"<div class='wb-row'><b>Restricted</b>{escape(', '.join(obs['restricted']))}</div>"

    def mat(name, p):
        palette = "".join(
            f"<span class='wb-card'>{escape(('L%d ' % _card(patterns, n).layer) if _card(patterns, n) else '')}"
            f"{escape(n)}</span>" for n in p.get("palette", []))
        flags = " · fragile" if p.get("fragile") else ""
        def value(key):
            return f"{term_label(game, key)} <b>{p.get(key)}</b>"
        return (f"<div>{value('E')} · {value('I')} · {value('S')}</div>"
                f"<div>{value('vitals')} · {value('legacy')}{flags}</div>"
                f"<div>markers {p.get('markers', '—')} · score <b>{p.get('score')}</b></div>"
                f"<div>{term_label(game, 'palette')}: {palette or '<em>empty</em>'}</div>")
    body += mats(obs.get("players", {}), obs.get("turn"), mat)
    return html_pane(body)


def cards_html_events(events) -> str:
    return cards(events, "event") if events else "<em>none revealed</em>"


# -- Mandate 2038 ----------------------------------------------------------------------------

@register_drawer("mandate-2038")
def draw_mandate(game, state):
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


def seat_legend(state) -> str:
    """Which colour is which player on the Mandate 2038 board (outlines,
    Facilities, Generators and Agents are drawn in the seat's colour)."""
    from workbench.games.mandate_2038.drawing import SEAT_COLOURS
    items = []
    for seat in range(len(state.players)):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        items.append(f"<span class='wb-card' style='border:3px solid {colour}'>"
                     f"<span style='display:inline-block;width:12px;height:12px;background:{colour};"
                     f"vertical-align:middle;margin-right:4px'></span>{escape(state.player_name(seat))}</span>")
    return f"<div class='wb-row wb-legend'><b>Players</b>{''.join(items)}</div>"


# -- Pax Transhumanity ---------------------------------------------------------------------------

@register_drawer("pax-transhumanity")
def draw_pax(game, state):
    """The Market by colour, the Splay with its Cutting Edge and the Regime,
    and each player's board."""
    obs = dict(game.observe(state))
    players = obs.pop("players", {})
    keep = ("round", "turn", "actions_left", "decision", "regime", "deck_size", "ending", "scoring")
    strip = "".join(term_stat(game, k, obs[k]) for k in keep if k in obs)
    body = f"<div class='wb-strip'>{strip}</div>"
    market = obs.get("market") or {}
    rows = []
    for colour, slots in market.items():
        cells = "".join(f"<span class='wb-card'>{escape(str(n)) if n else '·'}</span>" for n in slots)
        rows.append(f"<div><span class='wb-card wb-colour' style='background:{escape(colour)};"
                    f"color:{text_on(colour)};"
                    f"min-width:60px'>{escape(colour)}</span> {cells} "
                    f"<small>patent value {obs.get('patent_values', {}).get(colour, '—')}, "
                    f"problems {obs.get('problems', {}).get(colour, '—')}</small></div>")
    body += f"<div class='wb-row'><b>{term_label(game, 'market')}</b>{''.join(rows) or '<em>empty</em>'}</div>"
    body += f"<div class='wb-row'><b>{term_label(game, 'splay')}</b>{cards(obs.get('splay', []))}</div>"
    body += (f"<div class='wb-row'><b>{term_label(game, 'cutting_edge')}</b>{cards(obs.get('cutting_edge', []), 'event')}"
             f" → {term_label(game, 'regime')} <span class='wb-card done'>{escape(str(obs.get('regime')))}</span></div>")

    # while the secret choice is still being made, show only who has chosen: at a
    # shared screen the others should not read a choice off the mats
    hide_secret = obs.get("decision") == "secret"

    def board(name, p):
        rows = []
        for k, v in p.items():
            if k == "secret" and hide_secret:
                v = "chosen" if v is not None else "—"
            rows.append(f"<div>{term_label(game, str(k))}: <b>{escape(_fmt(v))}</b></div>")
        return "".join(rows)
    body += mats(players, obs.get("to_move") or obs.get("turn"), board)
    return html_pane(body)
