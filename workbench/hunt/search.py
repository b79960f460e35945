"""The hunt itself: a bandit that spends games on promising restrictions, and
a confirm stage that decides each finding on fresh games.

Budget and stopping rules (docs/hunt.md says the same for designers):

1. **Probe.** The baseline (every seat on the base bot) plays ``first_games``
   screen games; the cards its seats took and the kinds of move seen make
   the arms (:func:`workbench.hunt.space.arms_for`).
2. **Screen.** Each round spends about a sixth of the budget. The arms
   are ranked: one already screened by how far the upper confidence bound
   of its best open question (mean + 2 standard errors, the spread floored
   at ``SD_FLOOR`` so a few alike games do not look certain) reaches past
   the question's margin, in margins; one not yet screened at
   ``UNSCREENED`` plus ``PRIOR_WEIGHT`` x its prior (for a card: its takers'
   mean edge in the baseline, shrunk when few games took it). From the top,
   an unscreened arm gets ``2 x players`` games (each seat restricted in
   turn), a screened one its games doubled (at most ``step`` more). A
   question whose screening interval (mean ± 2 se) lies wholly below its
   margin is dropped; one whose interval is above zero with the estimate at
   its margin becomes a *candidate*.
3. **Confirm.** A candidate is played again on the confirm stage's own seeds
   (games never looked at while searching): ``max(confirm_games, 2 x its
   screen games)`` games of the arm and as many of the baseline. It is a
   **finding** when the confirm games' interval (Wilson for a share of games, t otherwise), at the level
   1 - ``alpha`` / ``max_confirmations`` (Bonferroni over every confirmation
   a run may make), lies above zero and the estimate is at least half its
   margin. Otherwise it is reported as *not confirmed*, never as a finding.
   So a run makes a false finding with probability at most ``alpha``.
4. **Stop** when every question is decided or dropped, when the games budget
   is spent, or when ``seconds`` have passed (checked between rounds).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from workbench.core.errors import WorkbenchError

from .games import Played, summary, t_interval, values
from .space import BASELINE, KIND_WORDS, MARGINS, Arm, Hypothesis, arms_for, hypotheses_for

#: screening: the bound's width in standard errors, and the spread assumed at least
Z_SCREEN = 2.0
SD_FLOOR = 0.3
#: the allocation score of an arm not yet screened (a screened one scores how far
#: its upper bound reaches past its margin, in margins) and the weight of its prior
UNSCREENED = 2.0
PRIOR_WEIGHT = 10.0
#: the weight of a card's takers' score edge (in score spreads) in its hint,
#: beside their win edge
SCORE_HINT = 0.2


def _shrunk(v: list[float]) -> float:
    """The mean of a card's per-game edges, shrunk toward 0 when few games took it."""
    return sum(v) / len(v) * min(1.0, len(v) / 8) if v else 0.0


@dataclass
class HuntSettings:
    """What a hunt may spend and how strict it is."""

    budget: int = 1200             # games at most, every arm and stage counted
    seconds: float = 540.0         # wall-clock bound (checked between rounds)
    first_games: int = 32          # baseline screen games before the arms are made
    step: int = 32                 # most screen games an arm gets in one round
    confirm_games: int = 64        # fewest confirm games of a candidate
    max_confirmations: int = 20    # Bonferroni: confirmations one run may make
    alpha: float = 0.05            # chance of any false finding in a run
    margins: dict = field(default_factory=lambda: dict(MARGINS))
    card_limit: int | None = None  # force/ban only the cards the baseline hints most at


@dataclass
class HuntResult:
    arms: list[Arm]
    hypotheses: list[Hypothesis]
    played: Played
    settings: HuntSettings
    elapsed: float
    stopped: str                   # why the hunt stopped

    def findings(self) -> list[Hypothesis]:
        found = [h for h in self.hypotheses if h.state == "finding"]
        return sorted(found, key=lambda h: -(h.confirm.get("mean") or 0) / max(h.margin, 1e-9))

    def arm(self, key: str) -> Arm:
        return next(a for a in self.arms if a.key == key)


def probe_kinds(game, played: Played, games: int = 2) -> list[str]:
    """The kinds of move seen in a few baseline games (played here, on the
    screen stage's first seeds, so they are the screen games' own)."""
    from workbench.core.bots import make_bots
    from workbench.core.play import bot_rngs
    from workbench.core.policies import action_kind_of
    from workbench.sim.runner import game_config
    seen: dict[str, int] = {}
    arm = Arm(BASELINE, None, BASELINE)
    for i in range(games):
        spec = played.spec(arm, "screen", 0)
        config = game_config(spec, i)
        bots, rngs = make_bots(spec.bots, len(config.players)), bot_rngs(config)
        state = game.new_initial_state(config)
        steps = 0
        while not state.is_terminal() and steps < played.max_actions:
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1:
                for a in legal:
                    kind = action_kind_of(game, state, a)
                    seen[kind] = seen.get(kind, 0) + 1
            state.apply_action(bots[seat].choose(game, state, rngs[seat]))
            steps += 1
    return sorted(k for k in seen if k)


def hunt(game, played: Played, settings: HuntSettings, *, backend: str = "pool", workers: int = 2,
         scheduler=None, progress=None) -> HuntResult:
    """Run a hunt on ``played`` (its game, players, base bots and seed)."""
    start = time.perf_counter()
    say = progress or (lambda text: None)
    s = settings
    baseline = Arm(BASELINE, None, BASELINE)
    run = dict(backend=backend, workers=workers, scheduler=scheduler)
    played.play([(baseline, "screen", s.first_games)], **run)
    # the cards the baseline took, ranked by how much their takers gained: their
    # win edge, and (in score spreads, a fifth of the weight) their score edge,
    # since a card far too strong shows in its takers' scores before their wins
    scale = played.fix_score_scale()
    edges: dict[str, list[float]] = {}
    score_edges: dict[str, list[float]] = {}
    for row in played.rows["screen"][BASELINE].values():
        for card, e in row.taker_edge.items():
            edges.setdefault(card, []).append(e)
        for card, e in row.taker_score.items():
            score_edges.setdefault(card, []).append(e / scale if scale else 0.0)
    taken = sorted(set(edges) | set(score_edges))
    # a card's hint: its takers' mean edge, shrunk toward 0 when few games took it
    # (a card whose name holds ':' or ',' cannot be written inside a bot spec: no
    # force or ban arm for it; the baseline's questions about it still stand)
    cards = [(c, _shrunk(edges.get(c, [])) + SCORE_HINT * max(0.0, _shrunk(score_edges.get(c, []))))
             for c in taken if ":" not in c and "," not in c]
    kinds = probe_kinds(game, played)
    stall = [k for k in kinds if k in {p.lower() for p in game.passing_kinds}]
    arms = arms_for(cards, kinds, stall_kinds=stall, card_limit=s.card_limit)
    roles = sorted({r for row in played.rows["screen"][BASELINE].values() for r in row.roles if r})
    hyps = hypotheses_for(arms, played.players, roles, s.margins, sorted(edges),
                          score_cards=sorted(score_edges) if scale else None)
    by_arm = {a.key: a for a in arms}
    say(f"{len(arms) - 1} restricted arms ({len(cards)} cards taken, {len(kinds)} kinds of move), "
        f"{len(hyps)} questions; budget {s.budget} games, {s.seconds:.0f} s")
    level = 1 - s.alpha / s.max_confirmations
    confirmations = 0
    first = 2 * played.players
    stopped = "every question decided or dropped"
    while True:
        if played.games >= s.budget:
            stopped = "games budget spent"
            break
        if time.perf_counter() - start > s.seconds:
            stopped = "time bound reached"
            break
        # screen: every arm its first games, then the most promising ones more
        open_ = [h for h in hyps if h.state == "screening"]
        for h in open_:
            h.screen = summary(values(played, "screen", h.kind, h.arm, h.subject), Z_SCREEN, sd_floor=SD_FLOOR)
            n, lo, hi, mean = h.screen["n"], h.screen["low"], h.screen["high"], h.screen["mean"]
            if n >= first and hi is not None and hi < h.margin:
                h.state = "dropped"
            elif n >= max(first, 8) and lo is not None and lo > 0 and mean >= h.margin:
                h.state = "candidate"
        # confirm candidates, strongest first, while confirmations and budget last
        for h in sorted((h for h in hyps if h.state == "candidate"),
                        key=lambda h: -(h.screen["mean"] / h.screen["se"] if h.screen["se"] else 0)):
            if confirmations >= s.max_confirmations:
                h.state = "not confirmed"
                h.confirm = {"why": f"the run's {s.max_confirmations} confirmations were used"}
                continue
            m = max(s.confirm_games, 2 * h.screen["n"])
            m = -(-m // played.players) * played.players
            need = [(baseline, "confirm", m)] + ([(by_arm[h.arm], "confirm", m)] if h.arm != BASELINE else [])
            cost = sum(max(0, n - played.have(st, a.key)) for a, st, n in need)
            if played.games + cost > s.budget:
                continue
            played.play(need, **run)
            confirmations += 1
            x = values(played, "confirm", h.kind, h.arm, h.subject)
            h.confirm = t_interval(x, level)
            lo, mean = h.confirm["low"], h.confirm["mean"]
            h.state = "finding" if lo is not None and lo > 0 and mean >= h.margin / 2 else "not confirmed"
            say(f"  {KIND_WORDS[h.kind]}: {h.subject} -> {h.state} "
                f"(confirm {h.confirm['n']} games, mean {mean:+.3f}, interval "
                f"[{_f(h.confirm['low'])}, {_f(h.confirm['high'])}])")
        open_ = [h for h in hyps if h.state == "screening"]
        if not open_:
            break
        # allocate this round's screen games by upper confidence bound: an arm
        # not yet screened ranks first (the baseline's hint about it breaking
        # ties), then the questions whose bound reaches furthest past their margin
        want: dict[str, int] = {}
        best: dict[str, float] = {}
        for h in open_:
            n = played.have("screen", h.arm)
            if n < first:
                # not yet screened: as promising as an arm whose bound reaches twice past
                # its margin, moved by what the baseline hints about it (its prior)
                score = UNSCREENED + PRIOR_WEIGHT * by_arm[h.arm].prior
            else:
                score = ((h.screen["high"] or 0) - h.margin) / max(h.margin, 1e-9)
            best[h.arm] = max(best.get(h.arm, -float("inf")), score)
        ranked = sorted(best, key=lambda k: (-best[k], k))
        room = s.budget - played.games
        # one round spends about a sixth of the budget, so later rounds can follow the leaders
        spend = min(room, max(s.budget // 6, 4 * played.players))
        base_have = played.have("screen", BASELINE)
        for key in ranked:
            n = played.have("screen", key)
            extra = first if n < first else min(s.step, max(played.players, n))
            target = -(-(n + extra) // played.players) * played.players
            cost = (target - n) + max(0, target - max(base_have, max(want.values(), default=0)))
            if key == BASELINE:
                cost = target - n
            if cost > spend:
                if want:
                    break
                continue
            want[key] = target
            spend -= cost
        if not want:
            stopped = "games budget spent"
            break
        top = max(want.values())
        need = [(baseline, "screen", max(top, played.have("screen", BASELINE)))]
        need += [(by_arm[k], "screen", n) for k, n in want.items() if k != BASELINE]
        if played.play(need, **run) == 0:
            stopped = "nothing left worth a game"
            break
    for h in hyps:
        if h.state in ("screening", "candidate"):
            h.screen = summary(values(played, "screen", h.kind, h.arm, h.subject), Z_SCREEN, sd_floor=SD_FLOOR)
    return HuntResult(arms, hyps, played, s, time.perf_counter() - start, stopped)


def _f(v) -> str:
    return "-" if v is None else f"{v:+.3f}"


def check_settings(s: HuntSettings) -> None:
    if s.budget < 1 or s.seconds <= 0 or s.first_games < 2 or s.confirm_games < 5 or s.max_confirmations < 1:
        raise WorkbenchError("hunt: --budget, --seconds, --confirm-games and --confirmations must be positive")
    if not 0 < s.alpha < 1:
        raise WorkbenchError(f"hunt: --alpha must lie between 0 and 1, not {s.alpha}")
