"""Monte Carlo tree search bot (UCT), for any game of the protocol.

Spec on the command line (``--bots``)::

    mcts                 200 iterations, random playouts
    mcts:500             500 iterations
    mcts:200:greedy      playouts choose by the game's evaluation (one ply)
    mcts:200:d=30        playouts stop after 30 actions and every leaf is scored
                         by ``Game.evaluate`` (see "Values" below)
    mcts:t=0.05          a time budget of 0.05 s per decision instead of a count
    mcts:time=0.2        the same, spelled out; with a time budget and no d= the
                         playouts stop after 40 actions (d=40), so a game whose
                         random playouts do not end (Pax) stays inside the budget
    mcts:200:c=1.0       exploration constant (default 1.4)

Options after the first may come in any order, separated by colons.

How it searches
---------------
Each iteration walks down the tree from the root by UCB1 on the mover's mean
value, expands one untried action, plays the game out, and backs up one value
per seat (multi-player UCT: every node keeps the value vector and the player
to move there picks by their own component).

Values. Without a depth limit a playout runs to the end and is worth
``1/len(winners)`` to each winner and 0 to everyone else (a game where all
lose is worth nothing to anybody). With ``d=`` every leaf, finished or cut
off, is worth each seat's ``Game.evaluate``: absolute, so a shared danger such
as Meaning Made's collapse lowers everybody's value, not just the relative
standing. Because evaluations have a game-specific scale, UCB uses each mean
normalised by the smallest and largest value backed up so far in this search
(as MuZero does), so the exploration constant means the same in every game.

Hidden information (determinization)
------------------------------------
A game with hidden parts (a shuffled deck, future dice) may offer the optional
hook ``Game.determinize(state, seat, rng) -> State``: a clone of ``state`` in
which everything ``seat`` cannot see is re-sampled from ``rng`` (the deck
re-shuffled, the state's own rng re-seeded). Each iteration then searches a
fresh sample, and the tree is keyed by actions, not states, so statistics are
shared across samples (single-observer information-set MCTS); a child is only
considered while its action is legal in the current sample. A game without the
hook is searched as it is, which lets the bot peek at the hidden order. That
is the honest limitation of that fallback.

Budget: with a time budget a playout also stops at the deadline (its leaf is
then scored by ``Game.evaluate``), so one decision takes about the budget plus
one look-ahead, whatever the game.

Determinism: with an iteration count the bot's choices depend only on the
state and its own rng. A time budget (``t=``) makes the number of iterations,
and thus the choice, depend on machine speed; use it for interactive play, not
for reproducible sweeps.
"""

from __future__ import annotations

import math
import time

from .bots import Bot, GreedyBot, register_bot
from .errors import WorkbenchError
from .rng import Rng


class _Node:
    __slots__ = ("children", "visits", "avail", "totals")

    def __init__(self, n_players: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * n_players


def terminal_rewards(game, state) -> list[float]:
    """One reward per seat for a finished game: winners share 1, the rest get 0."""
    res = game.result(state)
    names = state.config.players
    if not res.winners:
        return [0.0] * len(names)
    share = 1.0 / len(res.winners)
    winners = set(res.winners)
    return [share if n in winners else 0.0 for n in names]


class MCTSBot(Bot):
    """UCT with optional determinization, greedy playouts and a depth cut-off."""

    def __init__(self, iterations: int = 200, *, playout: str = "random", time_budget: float | None = None,
                 depth: int | None = None, exploration: float = 1.4, max_playout: int = 5000):
        if playout not in ("random", "greedy"):
            raise WorkbenchError(f"mcts playout must be random or greedy, not {playout!r}")
        if iterations < 1 and time_budget is None:
            raise WorkbenchError("mcts needs at least one iteration")
        if time_budget is not None and time_budget <= 0:
            raise WorkbenchError("mcts time budget must be more than 0 seconds")
        self._default_depth = time_budget is not None and depth is None
        if self._default_depth:
            depth = 40
        self._deadline: float | None = None
        self.iterations = iterations
        self.playout = playout
        self.time_budget = time_budget
        self.depth = depth
        self.exploration = exploration
        self.max_playout = max_playout
        self._greedy = GreedyBot() if playout == "greedy" else None
        parts = [f"t={time_budget}" if time_budget is not None else str(iterations)]
        if playout != "random":
            parts.append(playout)
        if depth is not None and not self._default_depth:
            parts.append(f"d={depth}")
        if exploration != 1.4:
            parts.append(f"c={exploration}")
        self.name = "mcts:" + ":".join(parts)

    def choose(self, game, state, rng: Rng):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        n = state.num_players
        root = _Node(n)
        deadline = time.perf_counter() + self.time_budget if self.time_budget is not None else None
        self._deadline = deadline
        done = 0
        bounds = [math.inf, -math.inf]  # smallest and largest value backed up
        while True:
            if deadline is not None:
                if done > 0 and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            sample = game.determinize(state, seat, rng)
            self._iterate(game, root, sample, rng, bounds, legal)
            done += 1
        # most visited root action; ties go to the higher mean, then list order
        best, best_key = None, None
        for action in legal:
            child = root.children.get(action)
            if child is None:
                continue
            key = (child.visits, child.totals[seat] / child.visits if child.visits else 0.0)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[0]

    def _iterate(self, game, root: _Node, state, rng: Rng, bounds: list[float], root_legal: list) -> None:
        path = [root]
        node = root
        # selection and expansion
        while not state.is_terminal():
            mover = state.current_player()
            # at the root, the caller's list: a restricted-play wrapper may
            # have shortened it, and search should not spend time on the rest
            legal = root_legal if node is root else state.legal_actions()
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[rng.randbelow(len(untried))]
                child = _Node(len(node.totals))
                node.children[action] = child
                for a in legal:
                    c = node.children.get(a)
                    if c is not None:
                        c.avail += 1
                state.apply_action(action)
                path.append(child)
                break
            lo, hi = bounds
            span = hi - lo if hi > lo else 0.0
            best, best_score = None, -math.inf
            for a in legal:
                c = node.children[a]
                c.avail += 1
                mean = c.totals[mover] / c.visits
                q = (mean - lo) / span if span else 0.5
                # availability count instead of parent visits (ISMCTS): a child
                # seen in few samples is not punished for the others
                score = q + self.exploration * math.sqrt(math.log(max(c.avail, 1)) / c.visits)
                if score > best_score:
                    best, best_score = a, score
            state.apply_action(best)
            node = node.children[best]
            path.append(node)
        rewards = self._playout(game, state, rng)
        low, high = min(rewards), max(rewards)
        if low < bounds[0]:
            bounds[0] = low
        if high > bounds[1]:
            bounds[1] = high
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, r in enumerate(rewards):
                totals[i] += r

    def _playout(self, game, state, rng: Rng) -> list[float]:
        steps = 0
        limit = self.depth if self.depth is not None else self.max_playout
        greedy = self._greedy
        evaluated = self.depth is not None
        deadline = self._deadline
        while not state.is_terminal():
            if steps >= limit or (deadline is not None and steps and steps % 8 == 0
                                  and time.perf_counter() >= deadline):
                if evaluated:
                    break
                return terminal_rewards(game, state)  # runaway playout: nobody won
            if greedy is not None:
                action = greedy.choose(game, state, rng)
            else:  # one randbelow(count), as listing and indexing would draw
                sample = getattr(state, "sample_legal_action", None)
                if sample is None:
                    legal = state.legal_actions()
                    action = legal[rng.randbelow(len(legal))]
                else:
                    action = sample(rng)[0]
            state.apply_action(action)
            steps += 1
        if evaluated:
            return [game.evaluate(state, s) for s in range(state.num_players)]
        return terminal_rewards(game, state)


def parse_mcts(arg: str | None) -> MCTSBot:
    """``MCTSBot`` from the text after ``mcts:`` (see the module docstring)."""
    kwargs: dict = {}
    iterations = 200
    for part in (arg or "").split(":"):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        try:
            if not eq and part.isdigit():
                iterations = int(part)
            elif not eq and part in ("random", "greedy"):
                kwargs["playout"] = part
            elif key in ("t", "time"):
                kwargs["time_budget"] = float(value)
            elif key == "d":
                kwargs["depth"] = int(value)
            elif key == "c":
                kwargs["exploration"] = float(value)
            elif key in ("n", "i"):
                iterations = int(value)
            else:
                raise ValueError
        except ValueError:
            raise WorkbenchError(f"cannot read mcts option {part!r}: use a number of iterations, "
                                 "random or greedy, t=SECONDS (or time=SECONDS), d=DEPTH or c=EXPLORATION") from None
    # bounds keep a typo (mcts:2000000) from becoming a game that never ends
    import math
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise WorkbenchError(f"mcts iterations must be from 1 to {MAX_ITERATIONS}, not {iterations}")
    t = kwargs.get("time_budget")
    if t is not None and not (math.isfinite(t) and 0 < t <= 600):
        raise WorkbenchError(f"mcts t= must be a number of seconds above 0 and at most 600, not {t}")
    if "depth" in kwargs and not 1 <= kwargs["depth"] <= 10_000:
        raise WorkbenchError(f"mcts d= must be from 1 to 10000, not {kwargs['depth']}")
    c = kwargs.get("exploration")
    if c is not None and not (math.isfinite(c) and 0 <= c <= 100):
        raise WorkbenchError(f"mcts c= must be a number from 0 to 100, not {c}")
    return MCTSBot(iterations, **kwargs)


#: the most MCTS iterations per decision a spec may ask for
MAX_ITERATIONS = 100_000


register_bot("mcts", parse_mcts)
