"""The turn: up to two actions (the same one twice is allowed), free hiring into
own Companies, ``end``; and routing of every decision inside an action to the
module that owns it. Everything is validated before anything changes: a refused
action raises :class:`IllegalAction` and leaves the state as it was.
"""

from __future__ import annotations

from workbench.core.errors import IllegalAction

from . import commercialize, effects, fundraise, hire, import_idea, placate, research, syndicate
from .ending import check_round_limit
from .notation import A, Action, Parser
from .setup import choose_secret

MAIN = ("fundraise", "syndicate", "commercialize", "hire", "research", "placate", "import", "end")


def legal_actions(state) -> list:
    if state.ending is not None:
        return []
    d = state.decision
    if d is not None:
        kind, seat = d["kind"], d["seat"]
        if kind == "secret":
            return [A("secret", c) for c in state.secret_offer[seat]]
        if kind == "fundraise":
            return fundraise.options(state, seat)
        if kind == "surge":
            return syndicate.surge_options(state, seat)
        return effects.decision_options(state)
    seat = state.turn
    if state.actions_left <= 0:
        return hire.legal(state, seat, free_only=True) + [A("end")]
    out = [A("fundraise")]
    out += syndicate.legal(state, seat)
    out += commercialize.legal(state, seat)
    out += hire.legal(state, seat)
    out += research.legal(state, seat)
    out += placate.legal(state, seat)
    out += import_idea.legal(state, seat)
    out.append(A("end"))
    return out


def apply_action(state, action) -> None:
    if isinstance(action, str):
        action = Parser(state.content.ideas, state.config.players).parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not a Pax Transhumanity action: {action!r}")
    if state.ending is not None:
        raise IllegalAction("the game is over")
    d = state.decision
    if d is not None:
        _answer(state, d, action)
        return
    seat = state.turn
    kind = action.kind
    if kind not in MAIN:
        raise IllegalAction(f"'{action}' answers a question, but nothing is being asked; "
                            f"it is {state.name(seat)}'s turn to act")
    if kind == "end":
        next_turn(state)
        return
    if state.actions_left <= 0 and kind != "hire":
        raise IllegalAction(f"{state.name(seat)} has used both actions; only hiring into an own Company "
                            "or 'end' remain")
    if kind == "hire":
        if state.actions_left <= 0 and not hire.is_free_action(state, seat, action.args[0]):
            raise IllegalAction(f"{state.name(seat)} has used both actions; hiring at {action.args[0]} "
                                "(not an own Company) needs an action")
        used = hire.apply(state, seat, action)
        action_done(state, used)
    elif kind == "fundraise":
        fundraise.start(state, seat)
    elif kind == "syndicate":
        syndicate.apply(state, seat, action)
        if state.decision is None:
            action_done(state)
    elif kind == "commercialize":
        commercialize.apply(state, seat, action)
    elif kind == "research":
        research.apply(state, seat, action)
        action_done(state)
    elif kind == "placate":
        placate.apply(state, seat, action)
        action_done(state)
    elif kind == "import":
        import_idea.apply(state, seat, action)
        action_done(state)


def _answer(state, d, action) -> None:
    kind, seat = d["kind"], d["seat"]
    if kind == "secret":
        if action.kind != "secret":
            raise IllegalAction(f"{state.name(seat)} must first choose a Secret sphere: 'secret <colour>'")
        choose_secret(state, seat, action.args[0])
    elif kind == "fundraise":
        if action.kind not in ("divest", "raise"):
            raise IllegalAction(f"{state.name(seat)} is fundraising: 'divest ...' or 'raise'")
        if fundraise.answer(state, seat, action):
            action_done(state)
    elif kind == "surge":
        if action.kind not in ("surge", "stop"):
            raise IllegalAction(f"{state.name(seat)} may syndicate along a Surge Arrow ('surge <Idea>') or 'stop'")
        if syndicate.answer_surge(state, seat, action):
            action_done(state)
    elif not effects.apply_decision(state, action):
        raise IllegalAction(f"unexpected decision {kind!r}")


def finish_task(state, task) -> None:
    """Tasks queued behind card effects."""
    if task[0] == "finish commercialize":
        commercialize.finish(state)
        action_done(state)
    else:
        raise ValueError(f"unknown task {task!r}")


effects.FLOW_TASKS["finish commercialize"] = finish_task


def action_done(state, used: bool = True) -> None:
    state.act = None
    state.game_end_flag = False if state.ending is None else state.game_end_flag
    if state.ending is not None:
        return
    if used:
        state.actions_left -= 1
    if state.actions_left <= 0 and not hire.legal(state, state.turn, free_only=True):
        next_turn(state)


def next_turn(state) -> None:
    state.decision = None
    state.turn = (state.turn + 1) % state.num_players
    state.actions_left = 2
    if state.turn == 0:
        state.round += 1
        check_round_limit(state)
