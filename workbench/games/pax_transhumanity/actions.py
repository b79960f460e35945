"""The actions of a turn and what each takes.

Each action has the module named for it (:mod:`.fundraise`, :mod:`.syndicate`,
:mod:`.commercialize`, :mod:`.hire`, :mod:`.research`, :mod:`.placate`,
:mod:`.import_idea`) with its ``legal`` list, its check and its effect;
:mod:`.flow` lists them in notation order and routes the decisions inside an
action. This module says which idea an action takes, the card that restricted
bots ban or force and that card-use statistics count.
"""

from __future__ import annotations

from .notation import Action
from .research import lowest_card
from .state import PaxState

#: action kinds whose first argument is the idea they take or play
TAKES_NAMED_IDEA = ("syndicate", "surge", "commercialize", "placate", "import", "disrupt", "damp")


def cards_taken(state: PaxState, action: Action) -> tuple[str, ...]:
    """The idea ``action`` takes in ``state``: the one it names, or for Research
    the lowest card of the column (empty for actions that take none)."""
    kind, args = action.kind, action.args
    if kind in TAKES_NAMED_IDEA:
        return (args[0],)
    if kind == "research":
        low = lowest_card(state, args[0])
        return (low[1],) if low else ()
    return ()
