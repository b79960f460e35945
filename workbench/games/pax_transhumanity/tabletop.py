"""Pax Transhumanity at the table, for the Play page (``Game.table_drawer``): a view of
``observe(state)`` drawn with the dashboard's table helpers. Imported only by
the dashboard; no rule lives here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from workbench.tabletop import _fmt, card, cards, html_pane, mats, term_label, term_stat, text_on, to_move

if TYPE_CHECKING:
    from .state import PaxState


def draw_pax(game, state: PaxState):
    """The Market by colour, the Splay with its Cutting Edge and the Regime,
    and each player's board (:func:`pax_view` of the whole position)."""
    return html_pane(pax_view(game, dict(game.observe(state)), to_move(state)))


def pax_view(game, obs: dict, active: str | None, config=None) -> str:
    """The same drawing of one seat's view (``Game.view_drawer``): only what
    ``obs`` (the seat's observation) holds."""
    players = obs.pop("players", {})
    keep = ("round", "turn", "actions_left", "decision", "regime", "deck_size", "ending", "scoring")
    strip = "".join(term_stat(game, k, obs[k]) for k in keep if k in obs)
    body = f"<div class='wb-strip'>{strip}</div>"
    market = obs.get("market") or {}
    rows = []
    for colour, slots in market.items():
        cells = "".join(_market_card(n, slot, obs, players) if n else "<span class='wb-card'>·</span>"
                        for slot, n in enumerate(slots))
        rows.append(f"<div><span class='wb-card wb-colour' style='background:{escape(colour)};"
                    f"color:{text_on(colour)};"
                    f"min-width:60px'>{escape(colour)}</span> {cells} "
                    f"<small>patent value {obs.get('patent_values', {}).get(colour, '—')}, "
                    f"problems {obs.get('problems', {}).get(colour, '—')}</small></div>")
    body += (f"<div class='wb-row'><b>{term_label(game, 'market')}</b> <small>(<sup class='wb-cost'>$</sup> "
             f"the price to Syndicate an idea)</small>{''.join(rows) or '<em>empty</em>'}</div>")
    body += f"<div class='wb-row'><b>{term_label(game, 'splay')}</b>{cards(obs.get('splay', []))}</div>"
    body += (f"<div class='wb-row'><b>{term_label(game, 'cutting_edge')}</b>{cards(obs.get('cutting_edge', []), 'event')}"
             f" → {term_label(game, 'regime')} <span class='wb-card done'>{escape(str(obs.get('regime')))}</span></div>")

    # while the secret choice is still being made, show only who has chosen: at a
    # shared screen the others should not read a choice off the mats
    hide_secret = obs.get("decision") == "secret"

    def board(name, p):
        rows = []
        for k, v in p.items():
            if k == "secret" and (hide_secret or v == "hidden"):
                v = "chosen, face down" if v is not None else "—"
            if k in ("dealt", "secret_offer") and isinstance(v, list):
                rows.append(f"<div>{term_label(game, str(k))}: {cards(v) if k == 'dealt' else escape(_fmt(v))}</div>")
                continue
            rows.append(f"<div>{term_label(game, str(k))}: <b>{escape(_fmt(v))}</b></div>")
        return "".join(rows)
    body += mats(players, obs.get("to_move") or obs.get("turn") or active, board)
    return body


def _market_card(name: str, slot: int, obs: dict, players: dict) -> str:
    """A Market idea with its Syndicate price in the corner: its height, doubled
    once anyone holds a Syndication on it (a rival to whoever may still join), free
    under Paradigm Shift (:func:`.syndicate.market_price`, the rule's own function)."""
    from .regime import FREE_SYNDICATION
    from .syndicate import market_price
    on_it = [p for p, values in players.items() if name in (values.get("syndications") or ())]
    cost = market_price(slot, bool(on_it), obs.get("regime") == FREE_SYNDICATION)
    why = f"Syndicate price ${cost}: height {slot}" + (", doubled: " + ", ".join(on_it) + " already on it"
                                                      if on_it and cost else "")
    inner = (f"{escape(name)} <sup class='wb-cost' title='{escape(why)}'>${cost}</sup>")
    return card(name, inner=inner)
