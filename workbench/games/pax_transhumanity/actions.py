"""The actions of a turn, each in the module named for it (:mod:`.fundraise`,
:mod:`.syndicate`, :mod:`.commercialize`, :mod:`.hire`, :mod:`.research`,
:mod:`.placate`, :mod:`.import_idea`), and the list of those open to a player
at the start of an action, in the order the notation lists them. :mod:`.flow`
routes decisions inside an action and passes the turn."""

from __future__ import annotations

from . import commercialize, hire, import_idea, placate, research, syndicate
from .notation import A
from .state import PaxState


def main_actions(state: PaxState, seat: int) -> list:
    """Every action ``seat`` may start now: Fundraise, then each action's legal
    forms, then ``end``."""
    out = [A("fundraise")]
    out += syndicate.legal(state, seat)
    out += commercialize.legal(state, seat)
    out += hire.legal(state, seat)
    out += research.legal(state, seat)
    out += placate.legal(state, seat)
    out += import_idea.legal(state, seat)
    out.append(A("end"))
    return out
