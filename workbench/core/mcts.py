"""Monte Carlo tree search bot (UCT, or PUCT guided by the game's evaluation),
for any game of the protocol.

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
    mcts:64:k=4          at every node of the tree consider only the 4 actions
                         the mover's one-ply evaluation rates best (what the
                         greedy bot compares), tried best first
    mcts:64:prior=greedy PUCT: a node's children are explored in proportion to
                         a prior, the softmax of the mover's one-ply values
    mcts:64:tau=0.5      the prior's temperature, in standard deviations of the
                         one-ply values at that node (default 1.0: an action one
                         deviation below the best gets e^-1 of its weight)
    mcts:64:greedy:eps=0.2  epsilon-greedy playouts: each playout step is a
                         uniformly random action with probability 0.2

Options after the first may come in any order, separated by colons, e.g. the
guided search ``mcts:32:prior=greedy:k=6:greedy:d=4``.

How it searches
---------------
Each iteration walks down the tree from the root, expands one new action,
plays the game out, and backs up one value per seat (multi-player UCT: every
node keeps the value vector and the player to move there picks by their own
component). Plain UCT picks by UCB1 on the mover's mean value and tries every
untried action once first (in random order).

Guided search (``k=`` or ``prior=greedy``) uses the game's own one-ply
ratings, ``Game.action_values(state, mover, legal)`` (the numbers the greedy
bot compares), worked out once per node, the first time the walk passes it:

* ``k=N`` keeps only the N best-rated actions at that node (progressive
  narrowing: a small budget is spent on moves worth comparing, which matters
  in Pax, where a position has dozens of legal actions); untried candidates
  are tried best-rated first.
* ``prior=greedy`` picks by PUCT, ``q + c * P(a) * sqrt(N) / (1 + n(a))``,
  with ``P`` the softmax of the ratings (standardised at that node, divided by
  ``tau``) and an untried action valued at its parent's mean (first-play
  urgency). A search that sees nothing better keeps the greedy bot's move;
  it departs from it only where its playouts find the later cost of a move
  that looks good one ply ahead.

With neither, the search is plain UCT as before.

Values. Without a depth limit a playout runs to the end and is worth
``1/len(winners)`` to each winner and 0 to everyone else (a game where all
lose is worth nothing to anybody). With ``d=`` every leaf, finished or cut
off, is worth each seat's ``Game.evaluate``: absolute, so a shared danger such
as a table that can collapse together lowers everybody's value, not just the relative
standing. Because evaluations have a game-specific scale, the tree compares
each mean normalised by the smallest and largest value backed up so far in
this search for that seat (as MuZero does, per seat: one seat's evaluation may
sit far above another's, and a range shared by all seats would shrink every
seat's differences between moves to nothing beside the exploration term), so
the exploration constant means the same in every game. Win/loss values (no
``d=``) share the range 0..1 of all seats.

Hidden information (determinization)
------------------------------------
A game with hidden parts (a shuffled deck, future dice) may offer the optional
hook ``Game.determinize(state, seat, rng) -> State``: a clone of ``state`` in
which everything ``seat`` cannot see is re-sampled from ``rng`` (the deck
re-shuffled, the state's own rng re-seeded). Each iteration then searches a
fresh sample, and the tree is keyed by actions, not states, so statistics are
shared across samples (single-observer information-set MCTS); a child is only
considered while its action is legal in the current sample (an action first
seen in a later sample is rated then). A game without the
hook is searched as it is, which lets the bot peek at the hidden order. That
is the honest limitation of that fallback.

Budget: with a time budget a playout also stops at the deadline (its leaf is
then scored by ``Game.evaluate``), so one decision takes about the budget plus
one look-ahead, whatever the game. With an iteration count, one decision costs
about ``iterations * (d + 1)`` greedy look-aheads when the playouts are greedy
and the search guided: the skill ladder in docs/playtesting.md gives the
milliseconds per decision its spec took in each game.

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
    __slots__ = ("children", "visits", "avail", "totals", "ratings", "guide")

    def __init__(self, n_players: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * n_players
        #: guided search: the mover's one-ply value of each action seen here
        self.ratings: dict | None = None
        #: guided search: (legal list, candidates, priors) of the last visit
        self.guide: tuple | None = None


def terminal_rewards(game, state) -> list[float]:
    """One reward per seat for a finished game: winners share 1, the rest get 0."""
    res = game.result(state)
    names = state.config.players
    if not res.winners:
        return [0.0] * len(names)
    share = 1.0 / len(res.winners)
    winners = set(res.winners)
    return [share if n in winners else 0.0 for n in names]


def softmax_prior(values: list[float], tau: float) -> list[float]:
    """Prior weights of actions rated ``values``: the softmax of the values
    standardised (minus the best, over their standard deviation), divided by
    ``tau``. Equal values give equal weights; the result sums to 1."""
    n = len(values)
    best = max(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    if sd <= 1e-12:
        return [1.0 / n] * n
    weights = [math.exp((v - best) / (sd * tau)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


class MCTSBot(Bot):
    """UCT (or PUCT with the game's one-ply ratings as prior) with optional
    determinization, greedy playouts and a depth cut-off."""

    def __init__(self, iterations: int = 200, *, playout: str = "random", time_budget: float | None = None,
                 depth: int | None = None, exploration: float = 1.4, max_playout: int = 5000,
                 prior: str | None = None, top_k: int | None = None, tau: float = 1.0,
                 epsilon: float = 0.0):
        if playout not in ("random", "greedy"):
            raise WorkbenchError(f"mcts playout must be random or greedy, not {playout!r}")
        if iterations < 1 and time_budget is None:
            raise WorkbenchError("mcts needs at least one iteration")
        if time_budget is not None and time_budget <= 0:
            raise WorkbenchError("mcts time budget must be more than 0 seconds")
        if prior not in (None, "greedy"):
            raise WorkbenchError(f"mcts prior must be greedy (or left out), not {prior!r}")
        if top_k is not None and top_k < 1:
            raise WorkbenchError(f"mcts k= must be at least 1, not {top_k}")
        if not tau > 0:
            raise WorkbenchError(f"mcts tau= must be above 0, not {tau}")
        if not 0.0 <= epsilon <= 1.0:
            raise WorkbenchError(f"mcts eps= must be from 0 to 1, not {epsilon}")
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
        self.prior = prior
        self.top_k = top_k
        self.tau = tau
        self.epsilon = epsilon
        self.guided = prior is not None or top_k is not None
        self._greedy = GreedyBot() if playout == "greedy" else None
        #: iterations the last decision ran (a time budget's count varies) and
        #: the root actions they visited (for reports: iterations per action)
        self.last_iterations = 0
        self.last_root_actions = 0
        parts = [f"t={time_budget}" if time_budget is not None else str(iterations)]
        if prior is not None:
            parts.append(f"prior={prior}")
        if top_k is not None:
            parts.append(f"k={top_k}")
        if tau != 1.0:
            parts.append(f"tau={tau}")
        if playout != "random":
            parts.append(playout)
        if epsilon:
            parts.append(f"eps={epsilon}")
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
        # smallest and largest value backed up, per seat; win/loss values
        # (no d=) share one range, as every seat's lies in 0..1
        if self.depth is None:
            shared = [math.inf, -math.inf]
            bounds = [shared] * n
        else:
            bounds = [[math.inf, -math.inf] for _ in range(n)]
        while True:
            if deadline is not None:
                if done > 0 and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            sample = game.determinize(state, seat, rng)
            self._iterate(game, root, sample, rng, bounds, legal)
            done += 1
        self.last_iterations = done
        self.last_root_actions = len(root.children)
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

    def _candidates(self, game, node: _Node, state, mover: int, legal: list) -> tuple[list, list | None]:
        """The actions guided search considers at ``node`` (best-rated first)
        and their prior weights (None without ``prior=``). Ratings are worked
        out once per action per node; the candidates once per legal list."""
        guide = node.guide
        if guide is not None and guide[0] == legal:
            return guide[1], guide[2]
        ratings = node.ratings
        if ratings is None:
            ratings = node.ratings = {}
        missing = [a for a in legal if a not in ratings]
        if missing:
            for action, value in zip(missing, game.action_values(state, mover, missing)):
                ratings[action] = value
        order = sorted(range(len(legal)), key=lambda i: (-ratings[legal[i]], i))
        if self.top_k is not None:
            order = order[:self.top_k]
        candidates = [legal[i] for i in order]
        priors = softmax_prior([ratings[a] for a in candidates], self.tau) if self.prior else None
        node.guide = (list(legal), candidates, priors)
        return candidates, priors

    def _iterate(self, game, root: _Node, state, rng: Rng, bounds: list, root_legal: list) -> None:
        path = [root]
        node = root
        guided = self.guided
        # selection and expansion
        while not state.is_terminal():
            mover = state.current_player()
            # at the root, the caller's list: a restricted-play wrapper may
            # have shortened it, and search should not spend time on the rest
            legal = root_legal if node is root else state.legal_actions()
            priors = None
            if guided:
                legal, priors = self._candidates(game, node, state, mover, legal)
            lo, hi = bounds[mover]
            span = hi - lo if hi > lo else 0.0
            if priors is not None:
                action = self._puct(node, legal, priors, mover, lo, span)
                child = node.children.get(action)
                for a in legal:
                    c = node.children.get(a)
                    if c is not None:
                        c.avail += 1
                if child is None:
                    child = node.children[action] = _Node(len(node.totals))
                    child.avail = 1
                    state.apply_action(action)
                    path.append(child)
                    break
                state.apply_action(action)
                node = child
                path.append(node)
                continue
            untried = [a for a in legal if a not in node.children]
            if untried:
                # plain UCT tries them in random order; guided, best-rated first
                action = untried[0] if guided else untried[rng.randbelow(len(untried))]
                child = _Node(len(node.totals))
                node.children[action] = child
                for a in legal:
                    c = node.children.get(a)
                    if c is not None:
                        c.avail += 1
                state.apply_action(action)
                path.append(child)
                break
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
        for i, r in enumerate(rewards):
            b = bounds[i]
            if r < b[0]:
                b[0] = r
            if r > b[1]:
                b[1] = r
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, r in enumerate(rewards):
                totals[i] += r

    def _puct(self, node: _Node, legal: list, priors: list[float], mover: int, lo: float, span: float):
        """The child PUCT walks to: the highest ``q + c * P * sqrt(N) / (1 + n)``;
        an untried action is valued at the parent's mean (first-play urgency),
        so before any value is known the prior alone decides, best-rated first."""
        children = node.children
        if node.visits and span:
            parent_q = (node.totals[mover] / node.visits - lo) / span
        else:
            parent_q = 0.5
        scale = self.exploration * math.sqrt(max(node.visits, 1))
        best, best_score = None, -math.inf
        for a, p in zip(legal, priors):
            c = children.get(a)
            if c is None or not c.visits:
                q, n = parent_q, 0
            else:
                q = (c.totals[mover] / c.visits - lo) / span if span else 0.5
                n = c.visits
            score = q + scale * p / (1 + n)
            if score > best_score + 1e-12:
                best, best_score = a, score
        return best

    def _playout(self, game, state, rng: Rng) -> list[float]:
        steps = 0
        limit = self.depth if self.depth is not None else self.max_playout
        greedy = self._greedy
        epsilon = self.epsilon
        evaluated = self.depth is not None
        deadline = self._deadline
        while not state.is_terminal():
            if steps >= limit or (deadline is not None and steps and steps % 8 == 0
                                  and time.perf_counter() >= deadline):
                if evaluated:
                    break
                return terminal_rewards(game, state)  # runaway playout: nobody won
            if greedy is not None and not (epsilon and rng.random() < epsilon):
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
            elif key == "prior" and value in ("greedy",):
                kwargs["prior"] = value
            elif key == "k":
                kwargs["top_k"] = int(value)
            elif key == "tau":
                kwargs["tau"] = float(value)
            elif key == "eps":
                kwargs["epsilon"] = float(value)
            else:
                raise ValueError
        except ValueError:
            raise WorkbenchError(f"cannot read mcts option {part!r}: use a number of iterations, "
                                 "random or greedy, t=SECONDS (or time=SECONDS), d=DEPTH, c=EXPLORATION, "
                                 "prior=greedy, k=CANDIDATES, tau=TEMPERATURE or eps=SHARE") from None
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
    if "top_k" in kwargs and not 1 <= kwargs["top_k"] <= 10_000:
        raise WorkbenchError(f"mcts k= must be from 1 to 10000, not {kwargs['top_k']}")
    tau = kwargs.get("tau")
    if tau is not None and not (math.isfinite(tau) and 0 < tau <= 100):
        raise WorkbenchError(f"mcts tau= must be a number above 0 and at most 100, not {tau}")
    eps = kwargs.get("epsilon")
    if eps is not None and not (math.isfinite(eps) and 0 <= eps <= 1):
        raise WorkbenchError(f"mcts eps= must be a number from 0 to 1, not {eps}")
    return MCTSBot(iterations, **kwargs)


#: the most MCTS iterations per decision a spec may ask for
MAX_ITERATIONS = 100_000


register_bot("mcts", parse_mcts)
