"""The conformance kit, shipped with the workbench: everything a game is held
to, bundled or a designer's plugin, as functions any package calls from its own
tests (the scaffold of ``workbench new-game`` does) and ``workbench check GAME``
reports.

``conformance(game)`` runs every check of :data:`CHECKS` and returns
``{check name: [problem, ...]}`` (an empty list: the promise holds);
``conformance_problems(game)`` is the same as one flat list of lines;
``run_scenarios(game)`` runs the scenarios of its card folder. The workbench's
own tests call this same kit on the bundled games (tests/test_game_contract.py),
so a plugin is held to exactly what they are.

The checks: the declarations (player counts, options, weights, capabilities),
options (an unknown one refused, the defaults playing like none), a seed
rebuilding the same game, random games ending, player roles, the notation
round-tripping, refused actions changing nothing, unlisted accepted actions
being listed ones in effect, independent clones, ``observe()`` as JSON,
sampling agreeing with the listing, an injected pool being the one played,
the drawing, the scenario files loading, and the observation checks of
:mod:`.observation` (nothing a seat may not know, over ``determinize`` samples;
moves to act on; hidden information declared)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from workbench.core.game import Game

from . import contract, observation
from .observation import leaks


@dataclass(frozen=True)
class Kit:
    """How much each check plays: seeds, action limits, samples per position."""

    seeds: tuple[int, ...] = (1, 2)
    #: actions before a random game counts as never ending (well above any real game)
    action_limit: int = 20_000
    #: samples ``determinize`` draws per position and seat
    samples: int = 4
    observation_steps: int = 240
    observation_every: int = 17
    sampling_steps: int = 150
    #: seeded games of the quick made-up-action walk
    games: int = 5
    seed: int = 1
    bad_notation: tuple[str, ...] = ("", "xyzzy", "take", "123 456 789", "play Nowhere with Q")
    #: scenario files to load (None: the game's card folder's)
    scenario_files: tuple[Path, ...] | None = None


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[Game, Kit], list[str]]

    @property
    def doc(self) -> str:
        return (self.run.__doc__ or self.name).strip().split("\n\n")[0]


CHECKS: dict[str, Check] = {c.name: c for c in (
    Check("declarations", contract.check_declarations),
    Check("options", contract.check_options),
    Check("seed-rebuilds-the-game", contract.check_seed_rebuilds_the_game),
    Check("random-games-end", contract.check_random_games_end),
    Check("player-roles", contract.check_player_roles),
    Check("notation-round-trips", contract.check_notation_round_trips),
    Check("refused-actions-change-nothing", contract.check_refused_actions_change_nothing),
    Check("made-up-actions-refused", contract.check_fingerprint_walk),
    Check("unlisted-actions-are-listed-ones", contract.check_unlisted_actions_are_listed_ones_in_effect),
    Check("clones-are-independent", contract.check_clones_are_independent),
    Check("observe-is-json", contract.check_observe_is_json),
    Check("sampling-matches-the-listing", contract.check_sampling_matches_the_listing),
    Check("injected-pool-is-played", contract.check_injected_pool_is_played),
    Check("drawing", contract.check_drawing),
    Check("scenarios-load", contract.check_scenarios_load),
    Check("observation-leaks", observation.check_observation_leaks),
    Check("acting-from-the-observation", observation.check_acting_from_the_observation),
    Check("hidden-information-declared", observation.check_hidden_information_is_declared),
    Check("determinize-keeps-the-seat's-view", observation.check_determinize_keeps_what_the_seat_sees),
)}


def run_check(game: Game, name: str, kit: Kit | None = None) -> list[str]:
    """The problems one check finds (a crash in the game is one of them)."""
    try:
        return CHECKS[name].run(game, kit or Kit())
    except Exception as exc:  # noqa: BLE001 - a crashing game is a finding, not a crashed kit
        return [f"crashed: {type(exc).__name__}: {exc}"]


def conformance(game: Game, kit: Kit | None = None, only=None) -> dict[str, list[str]]:
    """``{check name: problems}`` for every check of :data:`CHECKS` (or those named in ``only``)."""
    return {name: run_check(game, name, kit) for name in CHECKS if only is None or name in only}


def conformance_problems(game: Game, *, games: int = 5, max_actions: int = 20_000, seed: int = 1,
                         kit: Kit | None = None) -> list[str]:
    """Every broken promise of the contract found on ``game``, one line each (empty: none)."""
    kit = kit or Kit(games=games, action_limit=max_actions, seed=seed)
    return [f"{name}: {p}" for name, problems in conformance(game, kit).items() for p in problems]


def run_scenarios(game: Game) -> list[str]:
    """One line per failing scenario of the game's card folder (empty: all pass)."""
    from workbench.core.scenario import run_file, scenario_files
    out = []
    for path in scenario_files(game.id):
        result = run_file(path, game=game)
        if not result.passed:
            out.append(f"{path.name}: " + "; ".join(str(d.to_dict()) for d in result.divergences[:3]))
    return out


__all__ = ["CHECKS", "Check", "Kit", "conformance", "conformance_problems", "leaks", "run_check", "run_scenarios"]
