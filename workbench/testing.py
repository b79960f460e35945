"""The shared conformance suite as a helper any package can call from its own
tests (the scaffold of ``workbench new-game`` does): ``conformance_problems(game)``
plays the contract's promises on a game and lists every broken one, and
``run_scenarios(game)`` runs the scenarios of its card folder.

What it checks: a refused action changes nothing (its random stream included),
every legal action's notation parses back to the same action, clones are
independent, the same seed and actions give the same game, random games end
within ``max_actions``, ``observe()`` is JSON, every option has a doc line, and
the declared capabilities resolve. The workbench's own suite
(``tests/test_game_contract.py``) checks the bundled games more closely.
"""

from __future__ import annotations

import json

from .core.errors import IllegalAction, WorkbenchError
from .core.game import Game, resolve
from .core.rng import Rng


def _fingerprint(game: Game, state) -> str:
    return json.dumps(game.observe(state), sort_keys=True, default=str) + repr(state.rng.copy().next64())


def conformance_problems(game: Game, *, games: int = 5, max_actions: int = 20_000, seed: int = 1) -> list[str]:
    """Every broken promise of the contract found on ``game``, one line each (empty: none)."""
    problems: list[str] = []
    for name, option in game.options.items():
        if not option.doc:
            problems.append(f"option {name} has no doc line")
    for attr in ("card_graph", "tweak_session", "table_drawer", "board", "print_cards"):
        ref = getattr(game, attr)
        if ref is not None:
            try:
                resolve(ref)
            except Exception as exc:  # noqa: BLE001 - every failure is a finding
                problems.append(f"{attr} = {ref!r} does not import: {exc}")
    for g in range(games):
        rng = Rng(seed * 1000 + g)
        state = game.new_initial_state(game.config(game.default_players, seed=seed + g))
        log = []
        for _ in range(max_actions):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if not legal:
                problems.append(f"game {g}: no legal action in a position that is not over")
                break
            for action in legal:
                text = game.format_action(state, action)
                if game.parse_action(state, text) != action:
                    problems.append(f"game {g}: {text!r} does not parse back to the same action")
            before = _fingerprint(game, state)
            try:
                state.apply_action(_illegal_probe(game, state))
                problems.append(f"game {g}: a made-up action was accepted")
            except (IllegalAction, WorkbenchError, TypeError, ValueError, AttributeError):
                pass
            if _fingerprint(game, state) != before:
                problems.append(f"game {g}: a refused action changed the position")
            copy = state.clone()
            action = legal[rng.randbelow(len(legal))]
            log.append(game.format_action(state, action))
            state.apply_action(action)
            if _fingerprint(game, copy) != before:
                problems.append(f"game {g}: a clone changed with the original")
        else:
            problems.append(f"game {g}: not over after {max_actions} actions")
        try:
            json.dumps(game.observe(state))
        except TypeError as exc:
            problems.append(f"game {g}: observe() is not JSON: {exc}")
        again = game.new_initial_state(game.config(game.default_players, seed=seed + g))
        for text in log:
            again.apply_action(game.parse_action(again, text))
        if _fingerprint(game, again) != _fingerprint(game, state):
            problems.append(f"game {g}: the same seed and actions gave another game")
        if state.is_terminal():
            game.result(state)
        if len(problems) > 20:
            break
    return problems


class _Nothing:
    """An object no game's rules accept as an action."""

    def __repr__(self) -> str:
        return "<not an action>"


def _illegal_probe(game: Game, state):
    return _Nothing()


def run_scenarios(game: Game) -> list[str]:
    """One line per failing scenario of the game's card folder (empty: all pass)."""
    from .core.scenario import run_file, scenario_files
    out = []
    for path in scenario_files(game.id):
        result = run_file(path, game=game)
        if not result.passed:
            out.append(f"{path.name}: " + "; ".join(str(d.to_dict()) for d in result.divergences[:3]))
    return out
