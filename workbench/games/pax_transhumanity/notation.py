"""The text notation of Pax Transhumanity's actions and decisions.

Every action is an :class:`Action` (a kind plus arguments) whose ``str()`` is its
notation; :func:`parse` reads the same text back. Idea names and player names
match case-insensitively; a misspelt name gets a suggestion.

Main actions (two a turn, the same one twice allowed)::

    fundraise
    syndicate <Idea> [cover black]
    commercialize <Idea> down <colour> via splay|patents|think tank labour <sphere> <T|M><row>
    hire <sphere> <T|M><row> [from unemployed]        (free of an action at an own company)
    research <sphere> labour <sphere> T<row> [to think tank | to patents <c> [<c>] | to discard]
    placate <Idea> white|black
    import <Idea> to <sphere> <slot 0-5>
    end                                                 (end the turn early)

A paying action (syndicate, commercialize, hire, research) may end in
``selling <colour> [<colour>...]``: the Patents the player sells to pay, one colour
per Patent; the finance track pays the rest. Without it the default payment applies:
the finance track pays if it can, and only a shortfall is met by selling Patents,
the most valuable first (ruling payment-choice).

Decisions inside an action (the state asks the deciding seat)::

    secret <colour>                      choose the Secret sphere (setup)
    divest syndication <Idea> | divest employee <place> | divest unemployed <sphere>
    divest patent <colour> | raise       Fundraise step 1, then steps 2-3
    surge <Idea> [cover black] | stop    chained syndication along Surge Arrows
    choose <effect>                      pick one side of an "or" effect
    found <place> | solve <sphere>       where a Company goes, which problem is solved
    remove heat|future shock of <Player> on <Idea> | skip      Social Resilience
    disrupt <Idea>                       the Splay card that Industry Disruption removes
    damp <Idea> | skip                   Heat-damping Growth
    discard company <place> | discard problem <sphere>         Nuclear Exchange
    fire <place> | fire unemployed <sphere>                    Exoglobal Recession
"""

from __future__ import annotations

import re
from typing import NamedTuple, Final

from workbench.core.errors import NotationError, suggest

from .data import SPHERES


class Action(NamedTuple):
    """An action or decision: its kind, its arguments and, for a paying action, the
    Patents chosen for sale (empty: the default payment). A named tuple rather than a
    dataclass because bots build hundreds of them per decision."""
    kind: str
    args: tuple = ()
    sell: tuple = ()

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"Action({format_action(self)!r})"


#: tuple.__new__ is what the named tuple's own __new__ does with its fields, minus
#: its interpreted frame; both kept as constants so that the compiled rules reach
#: them without a look-up (they build an Action per legal move)
_TUPLE_NEW: Final = tuple.__new__
_ACTION: Final = Action


def new_action(kind: str, args: tuple, sell: tuple = ()) -> Action:
    """``Action(kind, args, sell)``, built the quick way."""
    return _TUPLE_NEW(_ACTION, (kind, args, sell))


def A(kind: str, *args) -> Action:
    return _TUPLE_NEW(_ACTION, (kind, args, ()))


PAYING: Final = ("syndicate", "commercialize", "hire", "research")


def format_action(a: Action) -> str:
    text = _format_plain(a)
    return text + (" selling " + " ".join(a.sell) if a.sell else "")


def _format_plain(a: Action) -> str:
    k, x = a.kind, a.args
    if k in ("fundraise", "raise", "stop", "end", "skip"):
        return k
    if k == "secret":
        return f"secret {x[0]}"
    if k == "divest":
        return f"divest {x[0]} {x[1]}"
    if k in ("syndicate", "surge"):
        return f"{k} {x[0]}" + (" cover black" if x[1] else "")
    if k == "commercialize":
        return f"commercialize {x[0]} down {x[1]} via {x[2]} labour {x[3]}"
    if k == "hire":
        return f"hire {x[0]}" + (" from unemployed" if x[1] else "")
    if k == "research":
        text = f"research {x[0]} labour {x[1]}"
        if x[2] == "patents":
            return text + " to patents " + " ".join(x[3])
        return text + (f" to {x[2]}" if x[2] else "")
    if k == "placate":
        return f"placate {x[0]} {x[1]}"
    if k == "import":
        return f"import {x[0]} to {x[1]} {x[2]}"
    if k == "choose":
        return f"choose {x[0]}"
    if k in ("found", "solve", "disrupt", "damp"):
        return f"{k} {x[0]}"
    if k == "remove":
        return f"remove {x[0]} of {x[1]} on {x[2]}"
    if k == "discard":
        return f"discard {x[0]} {x[1]}"
    if k == "fire":
        return f"fire {x[0]}" if x[0] != "unemployed" else f"fire unemployed {x[1]}"
    raise ValueError(f"unknown action kind {k!r}")


_PLACE = r"(yellow|green|blue|orange) ([tm])(\d)"
_COL = "(yellow|green|blue|orange)"


def _place(sphere: str, side: str, row: str) -> str:
    return f"{sphere} {side.upper()}{int(row)}"


class Parser:
    """Parses notation against the names a state knows (ideas, players)."""

    def __init__(self, idea_names, player_names):
        self.ideas = {n.lower(): n for n in idea_names}
        self.players = {n.lower(): n for n in player_names}

    def idea(self, text: str) -> str:
        name = self.ideas.get(text.strip().lower())
        if name is None:
            raise NotationError(f"no idea named {text.strip()!r}{suggest(text.strip(), self.ideas.values())}")
        return name

    def player(self, text: str) -> str:
        name = self.players.get(text.strip().lower())
        if name is None:
            raise NotationError(f"no player named {text.strip()!r}{suggest(text.strip(), self.players.values())}")
        return name

    def parse(self, text: str) -> Action:
        raw = " ".join(str(text).split())
        m = re.fullmatch(r"(.+?) selling((?: \S+)+)", raw, flags=re.IGNORECASE)
        if m:
            colours = tuple(c.lower() for c in m[2].split())
            bad = [c for c in colours if c not in SPHERES]
            if bad:
                raise NotationError(f"{bad[0]!r} is not a Patent colour{suggest(bad[0], SPHERES)}; "
                                    "write 'selling <colour> [<colour>...]'")
            action = self.parse(m[1])
            if action.kind not in PAYING:
                raise NotationError(f"'{action.kind}' pays nothing, so it cannot sell Patents; "
                                    f"only {', '.join(PAYING)} can")
            return action._replace(sell=colours)
        t = raw.lower()
        if t in ("fundraise", "raise", "stop", "end", "skip"):
            return A(t)
        m = re.fullmatch("secret " + _COL, t)
        if m:
            return A("secret", m[1])
        m = re.fullmatch(r"(syndicate|surge) (.+?)( cover black)?", t)
        if m:
            return A(m[1], self.idea(raw[len(m[1]) + 1:m.end(2)]), bool(m[3]))
        m = re.fullmatch(r"commercialize (.+) down " + _COL + r" via (splay|patents|think tank) labour " + _PLACE, t)
        if m:
            return A("commercialize", self.idea(raw[14:m.end(1)]), m[2], m[3], _place(m[4], m[5], m[6]))
        m = re.fullmatch(r"hire " + _PLACE + r"( from unemployed)?", t)
        if m:
            return A("hire", _place(m[1], m[2], m[3]), bool(m[4]))
        m = re.fullmatch(r"research " + _COL + r" labour " + _PLACE
                         + r"(?: to (think tank|discard|patents((?: (?:yellow|green|blue|orange)){1,2})))?", t)
        if m:
            dest = m[5] if m[5] is None or not m[5].startswith("patents") else "patents"
            colours = tuple(m[6].split()) if dest == "patents" else ()
            return A("research", m[1], _place(m[2], m[3], m[4]), dest, colours)
        m = re.fullmatch(r"placate (.+) (white|black)", t)
        if m:
            return A("placate", self.idea(raw[8:m.end(1)]), m[2])
        m = re.fullmatch(r"import (.+) to " + _COL + r" (\d)", t)
        if m:
            return A("import", self.idea(raw[7:m.end(1)]), m[2], int(m[3]))
        m = re.fullmatch(r"divest (syndication|employee|unemployed|patent) (.+)", t)
        if m:
            what, rest = m[1], raw[m.start(2):]
            if what == "syndication":
                return A("divest", what, self.idea(rest))
            if what == "employee":
                pm = re.fullmatch(_PLACE, rest.lower())
                if not pm:
                    raise NotationError(f"{rest!r} is not a place such as 'yellow T2'")
                return A("divest", what, _place(*pm.groups()))
            if rest.lower() not in SPHERES:
                raise NotationError(f"{rest!r} is not a colour{suggest(rest, SPHERES)}")
            return A("divest", what, rest.lower())
        if t.startswith("choose "):
            return A("choose", t[7:])
        m = re.fullmatch(r"found " + _PLACE, t)
        if m:
            return A("found", _place(*m.groups()))
        m = re.fullmatch(r"solve " + _COL, t)
        if m:
            return A("solve", m[1])
        m = re.fullmatch(r"remove (heat|future shock) of (.+?) on (.+)", t)
        if m:
            return A("remove", m[1], self.player(raw[m.start(2):m.end(2)]), self.idea(raw[m.start(3):]))
        m = re.fullmatch(r"(disrupt|damp) (.+)", t)
        if m:
            return A(m[1], self.idea(raw[len(m[1]) + 1:]))
        m = re.fullmatch(r"discard company " + _PLACE, t)
        if m:
            return A("discard", "company", _place(*m.groups()))
        m = re.fullmatch(r"discard problem " + _COL, t)
        if m:
            return A("discard", "problem", m[1])
        m = re.fullmatch(r"fire unemployed " + _COL, t)
        if m:
            return A("fire", "unemployed", m[1])
        m = re.fullmatch(r"fire " + _PLACE, t)
        if m:
            return A("fire", _place(*m.groups()))
        verbs = ["fundraise", "syndicate", "commercialize", "hire", "research", "placate", "import", "end",
                 "secret", "divest", "raise", "surge", "stop", "choose", "found", "solve", "remove", "skip",
                 "disrupt", "damp", "discard", "fire"]
        first = t.split(" ")[0] if t else ""
        raise NotationError(f"cannot read {raw!r} as a Pax Transhumanity action{suggest(first, verbs)}; "
                            "see docs/pax-transhumanity.md for the notation")
