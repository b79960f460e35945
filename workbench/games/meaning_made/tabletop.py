"""Meaning Made at the table, for the Play page (``Game.table_drawer``): a view of
``observe(state)`` drawn with the dashboard's table helpers. Imported only by
the dashboard; no rule lives here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from workbench.tabletop import (cards, emoji_font_available, html_pane, mats, stat, term_label, term_stat,
                                          track)

if TYPE_CHECKING:
    from .state import MMState


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


def draw_meaning_made(game, state: MMState):
    """The Meaning and World Layer tracks, the Event, the Prism, the Initiative
    Index with each Initiative's boxes (filled ones dark) and contribution
    markers in order, and each player's mat (:func:`mm_view` of the whole position)."""
    obs = game.observe(state)
    return html_pane(mm_view(game, obs, obs.get("turn"), state.config, pool=state.cards))


def mm_view(game, obs: dict, active: str | None, config=None, pool=None) -> str:
    """The same drawing of one seat's view (``Game.view_drawer``): what ``obs``
    holds, with the cards' printed data from the game's pool."""
    pool = pool if pool is not None else game.cards()
    patterns, initiatives = pool.patterns, pool.initiatives
    meaning_max = game.rules(config, pool).meaning_max

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
        prism.append(f"<span class='wb-card' data-card='{escape(name)}' title='{escape(_mm_requirement(game, card))}'>{escape(layer)}"
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
        index.append(f"<span class='wb-card' data-card='{escape(name)}' style='vertical-align:top'>{head}{boxes}"
                     f"<div><small>order:</small> {order}</div></span>")
    body += f"<div class='wb-row'><b>{term_label(game, 'index')}</b>{''.join(index) or '<em>empty</em>'}</div>"
    if obs.get("completed"):
        body += f"<div class='wb-row'><b>Completed</b>{cards(obs['completed'], 'done')}</div>"
    if obs.get("restricted"):
        body += f"<div class='wb-row'><b>Restricted</b>{escape(', '.join(obs['restricted']))}</div>"

    def mat(name, p):
        palette = "".join(
            f"<span class='wb-card' data-card='{escape(n)}'>"
            f"{escape(('L%d ' % _card(patterns, n).layer) if _card(patterns, n) else '')}"
            f"{escape(n)}</span>" for n in p.get("palette", []))
        flags = " · fragile" if p.get("fragile") else ""
        def value(key):
            return f"{term_label(game, key)} <b>{p.get(key)}</b>"
        return (f"<div>{value('E')} · {value('I')} · {value('S')}</div>"
                f"<div>{value('vitals')} · {value('legacy')}{flags}</div>"
                f"<div>markers {p.get('markers', '—')} · score <b>{p.get('score')}</b></div>"
                f"<div>{term_label(game, 'palette')}: {palette or '<em>empty</em>'}</div>")
    body += mats(obs.get("players", {}), obs.get("turn") or active, mat)
    return body


def cards_html_events(events) -> str:
    return cards(events, "event") if events else "<em>none revealed</em>"
