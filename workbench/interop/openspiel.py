"""Workbench games through OpenSpiel's Python game API.

``register("my-game")`` registers the game with pyspiel under the short
name ``workbench_my_game``; ``pyspiel.load_game("workbench_my_game(players=4)")``
then gives an ordinary ``pyspiel.Game`` on which OpenSpiel's algorithms run
(its ``MCTSBot``, random rollouts, ``evaluate_bots`` ...). ``load(game_id, players=4)``
does both steps. Any game of the protocol works, a ``package.module:GAME`` reference outside
the registry included.

What OpenSpiel sees, and what it does not
-----------------------------------------
* **Chance.** Our engines keep their randomness in the state's own seeded
  stream: shuffles and draws happen inside ``apply_action`` from that stream,
  not as separate moves. The adapter turns that into explicit chance nodes:

  - the start is a chance node choosing one of ``seeds`` equally likely game
    seeds (parameter, default 1000); it fixes the setup shuffles;
  - with ``chance="draws"`` (the default) every later action that draws from
    the stream (a die, a reshuffle, a drawn card) is followed by a chance
    node: the adapter tries the action on a copy, sees the stream move, and
    asks chance for one of ``draw_outcomes`` (default 64) equally likely
    re-seedings of the stream before applying it for real. OpenSpiel thus
    sees when randomness happens and can sample or enumerate it, though each
    draw is a uniform choice among 64 streams, not the exact distribution of
    that particular shuffle or die (the engines do not expose those);
  - with ``chance="seed"`` only the start is a chance node and every later
    draw is fixed by the seed: exact as a distribution over whole games, but
    a search past a shuffle then knows the order of the deck.
* **Hidden information.** The game type says imperfect information, but the
  adapter provides no information-state or observation strings, so algorithms
  that need them refuse to run; OpenSpiel's MCTSBot searches the true state
  (it "sees" the deck). Our own ``mcts`` bot determinizes instead.
* **Actions.** An OpenSpiel action id is the position of the action in the
  state's legal list (which every engine keeps in a stable order), so the
  same id can mean different actions in different positions;
  ``action_to_string`` gives the notation. ``max_actions_per_decision``
  (parameter, default 4096) bounds the ids.
* **Rewards.** At the end each winner gets ``1/len(winners)`` and everyone
  else 0 (general-sum; a game where everybody loses pays nobody). A game
  still running after ``max_game_length`` actions is cut off with all zeros.
"""

from __future__ import annotations

from workbench.core.errors import WorkbenchError
from workbench.core.rng import Rng, derive_seed
from workbench.core.counting import counted

_REGISTERED: dict[str, str] = {}


def short_name(game_ref: str) -> str:
    """``workbench_<id>`` with hyphens (and module paths) turned into underscores."""
    tail = game_ref.split(":")[0].rsplit(".", 1)[-1] if ":" in game_ref else game_ref
    return "workbench_" + tail.replace("-", "_")


class _Box:
    """Holds the engine state. pyspiel clones Python states with ``deepcopy``;
    this makes that a cheap engine ``clone()`` instead of copying the card data."""

    __slots__ = ("state", "legal")

    def __init__(self, state):
        self.state = state
        self.legal = None

    def __deepcopy__(self, memo):
        return _Box(self.state.clone() if self.state is not None else None)


def register(game_ref: str, *, name: str | None = None) -> str:
    """Register a workbench game with pyspiel; returns its short name (idempotent)."""
    if game_ref in _REGISTERED:
        return _REGISTERED[game_ref]
    try:
        import pyspiel
    except ImportError:
        raise WorkbenchError("the OpenSpiel adapter needs the optional extra: "
                             "pip install 'tabletop-workbench[openspiel]'") from None
    from workbench.sim.runner import resolve_game
    from workbench.core.play import bot_rngs  # noqa: F401  (import check: engine core present)

    game = resolve_game(game_ref)
    sname = name or short_name(game_ref)
    default_players = game.default_players
    params = {"players": int(default_players), "seeds": 1000, "seed": 0, "max_game_length": 20000,
              "max_actions_per_decision": 4096, "chance": "draws", "draw_outcomes": 64}
    game_type = pyspiel.GameType(
        short_name=sname,
        long_name=f"Workbench {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=params)

    class SpielGame(pyspiel.Game):
        def __init__(self, params=None):
            p = {**game_type.parameter_specification, **(params or {})}
            self.players = int(p["players"])
            self.seeds = int(p["seeds"])
            self.base_seed = int(p["seed"])
            self.max_length = int(p["max_game_length"])
            self.max_ids = int(p["max_actions_per_decision"])
            self.chance = str(p["chance"])
            self.draw_outcomes = int(p["draw_outcomes"])
            if self.chance not in ("draws", "seed"):
                raise ValueError(f"chance must be 'draws' or 'seed', not {self.chance!r}")
            if not game.min_players <= self.players <= game.max_players:
                raise ValueError(f"{game.name} takes {game.min_players}-{game.max_players} players")
            info = pyspiel.GameInfo(num_distinct_actions=self.max_ids,
                                    max_chance_outcomes=max(self.seeds, self.draw_outcomes),
                                    num_players=self.players, min_utility=0.0, max_utility=1.0,
                                    utility_sum=None, max_game_length=self.max_length + 1)
            super().__init__(game_type, info, p)
            self.engine = game

        def new_initial_state(self):
            return SpielState(self)

        def config_for(self, outcome: int):
            """The workbench config of the game that chance outcome ``outcome`` starts."""
            return game.config(self.players, seed=derive_seed(self.base_seed, "openspiel", outcome))

    class SpielState(pyspiel.State):
        def __init__(self, spiel_game: SpielGame):
            super().__init__(spiel_game)
            self._box = _Box(None)
            self._n = 0
            self._pending = None  # index of a drawing action waiting for its chance outcome

        # -- engine access --------------------------------------------------
        @property
        def engine_state(self):
            """The workbench state (None before the chance node is resolved)."""
            return self._box.state

        def _engine_legal(self):
            box = self._box
            if box.legal is None:
                box.legal = box.state.legal_actions()
                if len(box.legal) > self.get_game().max_ids:
                    raise ValueError(f"{len(box.legal)} legal actions exceed max_actions_per_decision")
            return box.legal

        # -- OpenSpiel API ------------------------------------------------------
        def current_player(self):
            state = self._box.state
            if state is None or self._pending is not None:
                return pyspiel.PlayerId.CHANCE
            if state.is_terminal() or self._n >= self.get_game().max_length:
                return pyspiel.PlayerId.TERMINAL
            return state.current_player()

        def is_terminal(self):
            return self.current_player() == pyspiel.PlayerId.TERMINAL

        def chance_outcomes(self):
            spiel_game = self.get_game()
            k = spiel_game.seeds if self._box.state is None else spiel_game.draw_outcomes
            return [(i, 1.0 / k) for i in range(k)]

        def _legal_actions(self, player):
            return list(range(len(self._engine_legal())))

        def _apply_action(self, action):
            box = self._box
            if box.state is None:
                box.state = game.new_initial_state(self.get_game().config_for(action))
                box.legal = None
                return
            legal = self._engine_legal()
            spiel_game = self.get_game()
            if self._pending is not None:
                # the chance outcome re-seeds the stream, then the waiting action draws from it
                box.state.rng = Rng(derive_seed(spiel_game.base_seed, "draw", self._n, action))
                box.state.apply_action(legal[self._pending])
                self._pending = None
            elif spiel_game.chance == "draws":
                trial = box.state.clone()
                trial.apply_action(legal[action])
                if trial.rng.state != box.state.rng.state:
                    self._pending = action  # it draws: chance decides how
                    return
                box.state = trial
            else:
                box.state.apply_action(legal[action])
            box.legal = None
            self._n += 1

        def _action_to_string(self, player, action):
            if self._box.state is None:
                return f"seed outcome {action}"
            if self._pending is not None:
                return f"draw outcome {action}"
            return game.format_action(self._box.state, self._engine_legal()[action])

        def returns(self):
            state = self._box.state
            n = self.get_game().players
            if state is None or not state.is_terminal():
                return [0.0] * n
            res = game.result(state)
            names = list(state.config.players)
            if not res.winners:
                return [0.0] * n
            share = 1.0 / len(res.winners)
            return [share if name in res.winners else 0.0 for name in names]

        def __str__(self):
            state = self._box.state
            if state is None:
                return "(chance: choose the game seed)"
            res = game.result(state)
            return f"{res.ending}; scores {res.scores}; {counted(self._n, 'action')}"

    SpielGame.__name__ = f"{sname}_game"
    SpielState.__name__ = f"{sname}_state"
    pyspiel.register_game(game_type, SpielGame)
    _REGISTERED[game_ref] = sname
    return sname


def load(game_ref: str, **params):
    """Register ``game_ref`` if needed and load it, e.g. ``load("my-game", players=4)``."""
    import pyspiel
    sname = register(game_ref)
    return pyspiel.load_game(sname, params) if params else pyspiel.load_game(sname)


def register_all() -> list[str]:
    """Register every game of the registry whose engine loads; returns the short names."""
    from workbench.core.registry import game_ids
    names = []
    for game_id in game_ids():
        try:
            names.append(register(game_id))
        except (ImportError, WorkbenchError):
            continue
    return names


def heuristic_evaluator(spiel_game):
    """An OpenSpiel MCTS ``Evaluator`` that scores a leaf with ``Game.evaluate``
    instead of a random rollout (much cheaper for long games): each seat's
    evaluation relative to the best and worst, ``(v - min) / (max - min)``,
    scaled to sum to at most 1 like the real returns; finished games return
    their real returns. Priors are uniform."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    engine = spiel_game.engine

    class HeuristicEvaluator(mcts.Evaluator):
        def evaluate(self, state):
            if state.is_terminal() or state.engine_state is None:
                return np.array(state.returns(), dtype=float)
            values = np.array([engine.evaluate(state.engine_state, p) for p in range(state.num_players())],
                              dtype=float)
            lo, hi = values.min(), values.max()
            if hi - lo < 1e-12:
                return np.full(len(values), 1.0 / len(values))
            raw = (values - lo) / (hi - lo)
            return raw / raw.sum()

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    return HeuristicEvaluator()
