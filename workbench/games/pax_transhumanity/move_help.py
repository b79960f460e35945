"""One plain line per kind of Pax Transhumanity move (``Game.move_help``): what a
player reads beside the buttons of that kind on a playtest seat page. The kind is
the notation's first word (:mod:`.notation`); the lines restate the rulebook's
clauses in a player's words and carry no number the source does not give."""

from __future__ import annotations

MOVE_HELP = {
    # set-up
    "secret": "Keep one band of your two dealt ideas as your Secret sphere: face down, it scores for you at the end.",
    # the seven actions (two a turn) and ending the turn early
    "fundraise": "Refill your Capital: divest what you like, then Capital pays off Debt and all Wealth returns to "
                 "Capital.",
    "syndicate": "Put an Agent on a Market idea: its price is the idea's height ($0-5), doubled if a rival is on it; "
                 "cover its white Heat.",
    "commercialize": "Turn an idea you syndicated into Patents (it joins the Splay); needs Maker labour, pays the "
                     "sphere's open Barriers.",
    "hire": "Place an Employee at a Barrier, Company or Utility for $3 (no action when it is your own Company).",
    "research": "With Thinker labour, take the lowest idea out of a column: to your Think Tank, to Patents, or "
                "the discard.",
    "placate": "Take one of your Heat agents back off an idea.",
    "import": "Move an idea no rival has an Agent on to an empty slot of the Market.",
    "end": "End your turn now, leaving your remaining action unused.",
    # decisions inside an action
    "divest": "Fundraise, first step: take one of your Syndications, Employees or Patents back to Wealth.",
    "raise": "Stop divesting and let the Fundraise pay out.",
    "surge": "Follow a Surge Arrow: syndicate a higher idea of that colour in the same column for free.",
    "stop": "End the chain of free syndications here.",
    "choose": "Pick one side of an effect that offers a choice.",
    "found": "Place one of your Companies on a free Thinker or Maker place of the icon's sphere.",
    "solve": "Solve a problem of that sphere and take its token.",
    "remove": "Social Resilience: take one Heat or Future Shock agent off a card, even a rival's.",
    "skip": "Let this optional effect pass.",
    "disrupt": "Industry Disruption: choose the Splay card of the disrupted colour that leaves the game.",
    "damp": "Heat-damping Growth: cover an open black Heat square with an Agent from your pool.",
    "discard": "Nuclear Exchange: give up one of your Companies or solved problems in the struck sphere.",
    "fire": "Exoglobal Recession: send one of your Employees back to your pool.",
}
