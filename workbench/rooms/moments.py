"""The end-of-game survey's questions about the person's own game.

Generic surveys ("how fun, 1-5?") get few and shallow answers; a question about
a moment the person lived gets a real one. From the journal's record of the
game (its moves, each with the time its player took and what the table saw),
:func:`moments` picks up to three moments of one seat's game:

* ``longest``: the seat's longest decision (only when it took 5 s or more);
* ``swing``: the move after which the lead changed hands with the biggest
  swing in the scores (``Game.result`` of the position before and after, read
  on the positions the moves replay to);
* ``passed``: a card the seat could have named in a move at least 3 times and
  never did (the card names are the game's, read from its legal moves).

Each comes with one short question; a short tester profile is asked once per
person (seat) per room. Nothing here names a game: it reads the engine's
notation, the public move texts and ``Game.card_names``.
"""

from __future__ import annotations

import re

LONG_DECISION_MS = 5_000
PASSED_AT_LEAST = 3
PROFILE = {"key": "profile", "moment": None,
           "question": "How often do you play games of this kind?",
           "choices": ["this was my first", "a few times a year", "monthly", "weekly or more"]}


def _scores(game, state) -> dict[str, float] | None:
    try:
        return dict(game.result(state).scores)
    except Exception:   # noqa: BLE001 - a game without mid-game scores has no swing moment
        return None


def _leader(scores: dict[str, float]) -> tuple[str | None, float]:
    """The player ahead and their margin over the next (None on a tie)."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None, 0.0
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def moments(game, config, moves: list[dict], seat: int, limit: int = 3) -> list[dict]:
    """Up to ``limit`` questions about ``seat``'s game: ``{key, moment, question}``.
    ``moves``: the game's moves as the journal holds them (ply order, not undone)."""
    out: list[dict] = []
    mine = [m for m in moves if m["seat"] == seat]
    slow = max(mine, key=lambda m: m["think_ms"] or 0, default=None)
    if slow is not None and (slow["think_ms"] or 0) >= LONG_DECISION_MS:
        out.append({"key": "longest",
                    "moment": f"Move {slow['ply'] + 1}: {slow.get('public') or slow['action']} "
                              f"(you took {slow['think_ms'] / 1000:.0f} s)",
                    "question": "What were you weighing before this move?"})
    names = sorted(game.card_names() or (), key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(n) for n in names)) if names else None
    offered: dict[str, int] = {}
    taken: set[str] = set()
    best_swing, swing = 0.0, None
    state = game.new_initial_state(config)
    before = _scores(game, state)
    for m in moves:
        if pattern is not None and m["seat"] == seat and not state.is_terminal() \
                and state.current_player() == seat:
            seen = set()
            for a in state.legal_actions():
                seen.update(pattern.findall(game.format_action(state, a)))
            for name in seen:
                offered[name] = offered.get(name, 0) + 1
            taken.update(pattern.findall(m["action"]))
        state.apply_action(game.parse_action(state, m["action"]))
        after = _scores(game, state)
        if before is not None and after is not None:
            (lead_a, margin_a), (lead_b, margin_b) = _leader(before), _leader(after)
            if lead_b is not None and lead_a != lead_b and margin_a + margin_b > best_swing:
                best_swing, swing = margin_a + margin_b, (m, lead_a, lead_b)
        before = after
    if swing is not None:
        m, was, now = swing
        out.append({"key": "swing",
                    "moment": f"Move {m['ply'] + 1}: {m.get('public') or m['action']}; the lead went from "
                              f"{was or 'a tie'} to {now}",
                    "question": "Did you see this coming, and what did it change for you?"})
    passed = sorted(((n, c) for n, c in offered.items() if n not in taken and c >= PASSED_AT_LEAST),
                    key=lambda nc: (-nc[1], nc[0]))
    if passed:
        name, count = passed[0]
        out.append({"key": "passed",
                    "moment": f"You could have played or taken {name} {count} times and never did",
                    "question": f"Why did you pass over {name}?"})
    return out[:limit]
