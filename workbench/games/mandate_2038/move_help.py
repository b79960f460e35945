"""One plain line per kind of Mandate 2038 move (``Game.move_help``): what a player
reads beside the buttons of that kind on a playtest seat page. The kind is the
notation's first word (:mod:`.notation`); the lines restate the rulebook's clauses
in a player's words and name no draft value."""

from __future__ import annotations

MOVE_HELP = {
    "select": "Pick one of your ready Core Actions in secret; all picks are shown together, then resolve in "
              "Initiative order.",
    "offer": "Before acting, propose to one rival a swap of one Runway for one Compute (either way round).",
    "accept": "Agree to what you were offered (the swap, or the Joint Venture).",
    "reject": "Refuse what you were offered; nothing changes hands.",
    "fund": "Take Runway: conservative takes less, venture takes more but adds Scrutiny; the Capital gives one "
            "more.",
    "research": "Pay one Compute and turn Training cards: each new domain adds provisional Capability, a repeat "
                "crashes the run.",
    "build": "Pay Runway for your next Facility on the Agent's district, and/or build an unlocked project there.",
    "organize": "Recruit an Agent for Runway (cheaper at Talent), or move one of your Facilities next door for free.",
    "deploy": "Gain your next Customer when your Capability reaches its mark (one Compute, free at Consumer); "
              "adds Scrutiny.",
    "influence": "At Capital, Government or Media take Scrutiny back or gain Trust; from Era III start or end a "
                 "Joint Venture.",
    "draw": "Turn the next Training card; a domain seen twice in this run crashes it.",
    "bank": "Stop the Training run and keep its provisional Capability on your track.",
    "corpus": "Name the domain, not yet seen in this run, that your Curated Corpus card stands for.",
    "method": "Scientific Method: pay Runway to bank the run instead of crashing on the repeat, or decline.",
    "reassign": "Your Talent Facility produced: move one of your Agents to any district.",
    "declare": "Pay Compute to declare recognized AGI: it scores Mandate and adds Scrutiny.",
    "decline": "Do not declare AGI now.",
}
