"""What the whole table sees of a Pax Transhumanity move (``Game.public_move``).

Every move is played in the open except the choice of a Secret sphere: the
table sees that a player has chosen, never which sphere (it stays face down
until the final scoring reveals it)."""

from __future__ import annotations


def public_move(game, before, action, after) -> str:
    name = before.player_name(before.current_player())
    text = game.format_action(before, action)
    if text.split()[0] == "secret":
        return f"{name} chose a Secret sphere"
    return f"{name}: {text}"
