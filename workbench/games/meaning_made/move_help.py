"""One plain line per kind of Meaning Made move (``Game.move_help``): what a player
reads beside the buttons of that kind on a playtest seat page. The kind is the
notation's first word (:mod:`.notation`); the lines restate the rulebook's clauses
in a player's words."""

from __future__ import annotations

MOVE_HELP = {
    "gather": "Take 2 tokens from the supply, any mix of Energy and Insight (never Support).",
    "load": "Pay a Prism Pattern's requirement, less your Palette's Discounts, and add it to your Pattern Palette.",
    "contribute": "Put tokens into an Initiative's open boxes; your first contribution claims the best free "
                  "Contribution Order space.",
    "touchpoint": "Offer another player 1 token or ask them for 1; if it changes hands you both gain 1 Vitals.",
    "recycle": "Refresh one shared area: deal a new Pattern Prism, or replace the unstarted Initiatives.",
    "convert": "Return 2 Energy to the supply for 1 Support (once a turn; not one of your actions).",
    "accept": "Agree to the Touchpoint: the token changes hands and you both gain Vitals.",
    "decline": "Refuse the Touchpoint; the other player's action is spent.",
    "donate": "Stability Window: give 1 Support back to the supply to raise Meaning by 1.",
    "pass": "Do not donate Support this round.",
}
