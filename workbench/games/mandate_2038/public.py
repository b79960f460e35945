"""What the whole table sees of a Mandate 2038 move (``Game.public_move``).

Core Actions are picked face down in Initiative order and revealed together
(selection.py): while picks are being made the table sees only that a player
has picked; the last pick reveals them all, in Initiative order. Every other
move (Actions, offers and answers, Risk draws) is played in the open."""

from __future__ import annotations


def public_move(game, before, action, after) -> str:
    seat = before.current_player()
    name = before.player_name(seat)
    text = game.format_action(before, action)
    words = text.split()
    if words[0] != "select":
        return f"{name}: {text}"
    picks = list(before.selections)
    picks[seat] = " ".join(words[1:])
    said = f"{name} chose a Core Action"
    if any(p is None for p in picks):
        return said
    order = getattr(before, "order", None) or range(len(picks))
    return said + "; revealed: " + ", ".join(f"{before.player_name(s)} {picks[s]}" for s in order)
