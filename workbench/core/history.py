"""A game in progress with its whole history: push and pop like python-chess,
step back and forward through time like boardgame.io's debug panel, save and
load as JSON.

Time travel keeps the future: pushing, at an earlier position, the move the
game went on with just steps forward. Pushing a different move forks: the new
move becomes the main line and the line it replaced is kept as the
:attr:`Match.alternate` line, reachable with :meth:`Match.switch_line`, until
the next fork replaces it (one spare line, as a designer trying "what if"
needs, rather than a whole tree).

A saved game is its config plus the actions in notation; loading replays them,
so a save stays valid as long as the rules accept the same moves, and nothing
but the seed and the actions is needed to rebuild every position.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import WorkbenchError
from .game import Game, GameConfig, State
from .storage import atomic_write_text

SAVE_FORMAT = 1


@dataclass
class Line:
    """The future a fork replaced: it left the main line after ``ply`` actions."""

    ply: int
    actions: list[str] = field(default_factory=list)
    states: list[State] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.actions)


class Match:
    """A game plus every position it went through; ``cursor`` is the position shown."""

    def __init__(self, game: Game, config: GameConfig, state: State | None = None):
        self.game = game
        self.config = config
        self.states: list[State] = [state if state is not None else game.new_initial_state(config)]
        self.actions: list[str] = []
        self.cursor = 0
        self.alternate: Line | None = None

    # -- looking -------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[self.cursor]

    def legal_actions(self) -> list:
        return self.state.legal_actions()

    def legal_moves(self) -> list[str]:
        return [self.game.format_action(self.state, a) for a in self.state.legal_actions()]

    @property
    def ply(self) -> int:
        return self.cursor

    def __len__(self) -> int:
        return len(self.actions)

    # -- changing --------------------------------------------------------------
    def push(self, action) -> State:
        """Apply an action (object or text) at the cursor. The move the game
        already went on with steps forward and keeps the future; a different
        move forks (the replaced future becomes :attr:`alternate`). An illegal
        action raises and changes nothing."""
        current = self.state
        obj = self.game.coerce_action(current, action)
        text = self.game.format_action(current, obj)
        if self.cursor < len(self.actions) and self.actions[self.cursor] == text:
            self.cursor += 1
            return self.state
        nxt = current.clone()
        nxt.apply_action(obj)
        if self.cursor < len(self.actions):
            self.alternate = Line(self.cursor, self.actions[self.cursor:], self.states[self.cursor + 1:])
        del self.states[self.cursor + 1:]
        del self.actions[self.cursor:]
        self.states.append(nxt)
        self.actions.append(text)
        self.cursor += 1
        return nxt

    def switch_line(self) -> State:
        """Swap the main line's future with the :attr:`alternate` line (the one
        the last fork replaced) and show the first move where they differ."""
        if self.alternate is None:
            raise WorkbenchError("no other line: nothing was forked")
        alt = self.alternate
        mine = Line(alt.ply, self.actions[alt.ply:], self.states[alt.ply + 1:])
        del self.states[alt.ply + 1:]
        del self.actions[alt.ply:]
        self.states.extend(alt.states)
        self.actions.extend(alt.actions)
        self.alternate = mine
        self.cursor = alt.ply + 1 if alt.actions else alt.ply
        return self.state

    def pop(self) -> str:
        """Undo the last action for good; returns its notation."""
        if not self.actions or self.cursor == 0:
            raise WorkbenchError("nothing to undo")
        self.goto(len(self.actions))
        self.states.pop()
        self.cursor -= 1
        if self.alternate is not None and self.alternate.ply >= len(self.actions):
            self.alternate = None  # its branching position is gone
        return self.actions.pop()

    # -- time travel -------------------------------------------------------
    def back(self, steps: int = 1) -> State:
        return self.goto(max(0, self.cursor - steps))

    def forward(self, steps: int = 1) -> State:
        return self.goto(min(len(self.actions), self.cursor + steps))

    def goto(self, ply: int) -> State:
        if not 0 <= ply <= len(self.actions):
            raise WorkbenchError(f"no position {ply}; this game has 0..{len(self.actions)}")
        self.cursor = ply
        return self.state

    # -- saving ---------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": SAVE_FORMAT, "game": self.game.ref, "config": self.config.to_dict(),
                "actions": list(self.actions), "cursor": self.cursor}

    def save(self, path: str | Path) -> None:
        atomic_write_text(Path(path), json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def replay(cls, game: Game, config: GameConfig, actions, cursor: int | None = None) -> "Match":
        """Rebuild a match from its config and actions; says which action fails."""
        match = cls(game, config)
        for i, text in enumerate(actions):
            try:
                match.push(text)
            except WorkbenchError as exc:
                raise WorkbenchError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
        if cursor is not None:
            match.goto(cursor)
        return match

    @classmethod
    def from_dict(cls, data: dict, game: Game | None = None) -> "Match":
        if game is None:
            from .registry import get_game
            game = get_game(data["game"])
        return cls.replay(game, GameConfig.from_dict(data["config"]), data.get("actions", []),
                          data.get("cursor"))

    @classmethod
    def load(cls, path: str | Path) -> "Match":
        from .data import read_text_file
        try:
            data = json.loads(read_text_file(Path(path)))  # size, binary, encoding: one line
        except json.JSONDecodeError as exc:
            raise WorkbenchError(f"cannot read saved game {path}: {exc}") from None
        if not isinstance(data, dict):
            raise WorkbenchError(f"cannot read saved game {path}: expected a JSON object")
        return cls.from_dict(data)
