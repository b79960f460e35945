"""Play a whole game with bots and report it in the JSON shape of the command
line (docs/reference/json-output.md)."""

from __future__ import annotations

from .bots import Bot
from .game import Game, GameConfig
from .rng import Rng, derive_seed


def bot_rngs(config: GameConfig) -> list[Rng]:
    """Each seat's bot gets its own stream derived from the game seed, so a bot's
    choices never disturb the game's own random stream."""
    return [Rng(derive_seed(config.seed, "bot", seat)) for seat in range(len(config.players))]


def play_game(game: Game, config: GameConfig, bots: list[Bot], *, max_actions: int = 1_000_000,
              on_action=None):
    """Play to the end; returns ``(final_state, log)`` where ``log`` holds the
    actions in notation, in order."""
    state = game.new_initial_state(config)
    rngs = bot_rngs(config)
    log: list[str] = []
    while not state.is_terminal() and len(log) < max_actions:
        seat = state.current_player()
        action = bots[seat].choose(game, state, rngs[seat])
        log.append(game.format_action(state, action))
        state.apply_action(action)
        if on_action is not None:
            on_action(state, action)
    return state, log


def result_json(game: Game, config: GameConfig, state, log: list[str], bots=None) -> dict:
    """The document ``workbench play --json`` prints."""
    res = game.result(state)
    doc = {
        "game": game.id,
        "seed": config.seed,
        "variants": list(config.variants),
        "players": [{"name": n, "score": res.scores.get(n, 0),
                     **({"bot": repr(bots[i])} if bots else {})}
                    for i, n in enumerate(config.players)],
        "winners": list(res.winners),
        "ending": res.ending,
        "turns": res.turns,
        "log": list(log),
    }
    if res.details:
        doc["details"] = res.details
    return doc
