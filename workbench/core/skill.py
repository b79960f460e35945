"""Player skill as a dial: any bot played with a blunder rate and a temperature.

``skill:LEVEL[:BOT]`` plays like ``BOT`` (default ``greedy``; any spec, e.g.
``skill:casual:mcts:200``), except that at each decision with a choice, with
probability ``blunder`` the move is drawn instead from a softmax over the
game's action values (``Game.action_values``, the greedy bot's one-ply
values) at temperature ``temperature``. The values are first scaled to the
spread of this decision (best 0, worst -1), so a temperature means the same in
every game: at 0.1 a move a tenth of the spread worse than the best is drawn
``1/e`` as often as the best; at 1 every move keeps a fair chance; large
temperatures approach a random player.

Levels (our drafts, for a designer to compare tables of people):

========  =======  ===========  ==================================================
level     blunder  temperature  who it stands for
========  =======  ===========  ==================================================
strong    0        -            the bot itself: no extra draws, byte-identical play
steady    0.1      0.25         an experienced player's occasional slip
casual    0.3      0.5          a friendly table: one move in three by feel
novice    0.6      1.0          a first game: most moves by feel, few blunders kept out
========  =======  ===========  ==================================================

``skill:blunder=0.2;temperature=0.5[:BOT]`` sets both numbers. A mixed table
is a bot list: ``--bots skill:casual,skill:casual,greedy,greedy`` is two
casual players and two strong ones; the players table's ``bot`` column names
each seat's level, so reports can be read per level.
"""

from __future__ import annotations

import math

from .bots import Bot, make_bot, register_bot, split_spec
from .errors import WorkbenchError
from .rng import Rng

#: level -> (blunder rate, temperature)
LEVELS = {"strong": (0.0, 0.0), "steady": (0.1, 0.25), "casual": (0.3, 0.5), "novice": (0.6, 1.0)}


class SkillBot(Bot):
    """``inner`` with a blunder rate and a softmax temperature (see the module)."""

    def __init__(self, level: str, blunder: float, temperature: float, inner: Bot, inner_spec: str):
        self.level, self.blunder, self.temperature = level, blunder, temperature
        self.inner, self.inner_spec = inner, inner_spec

    @property
    def name(self) -> str:  # the players table's ``bot`` column
        return f"skill:{self.level}:{self.inner_spec}"

    def choose(self, game, state, rng: Rng):
        if self.blunder <= 0:
            return self.inner.choose(game, state, rng)
        actions = state.legal_actions()
        if len(actions) == 1 or rng.random() >= self.blunder:
            return self.inner.choose(game, state, rng)
        return actions[softmax_pick(game.action_values(state, state.current_player(), actions),
                                    self.temperature, rng)]


def softmax_pick(values, temperature: float, rng: Rng) -> int:
    """Index drawn with probability proportional to ``exp(z / temperature)``,
    ``z`` the values scaled to the decision's spread (best 0, worst -1); one
    ``rng.random()`` draw. Temperature 0 takes the first best."""
    best, worst = max(values), min(values)
    spread = best - worst
    if temperature <= 0 or spread <= 0:
        return values.index(best) if temperature <= 0 else rng.randbelow(len(values))
    weights = [math.exp((v - best) / spread / temperature) for v in values]
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    return len(values) - 1


def _numbers(text: str) -> tuple[float, float]:
    out = {}
    for part in text.split(";"):
        key, sep, value = part.partition("=")
        key = key.strip()
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not sep or key not in ("blunder", "temperature") or not math.isfinite(number) or number < 0:
            raise WorkbenchError(f"skill setting {part!r}: write blunder=0..1 and/or temperature=0 or more, "
                                 "e.g. skill:blunder=0.2;temperature=0.5")
        out[key] = number
    blunder = out.get("blunder", 0.3)
    if blunder > 1:
        raise WorkbenchError(f"skill blunder rate {blunder} is above 1: it is a share of decisions")
    return blunder, out.get("temperature", 0.5)


def parse_skill(arg: str | None) -> SkillBot:
    if not arg:
        raise WorkbenchError(f"bot 'skill' needs a level: skill:LEVEL or skill:LEVEL:BOT, LEVEL one of "
                             f"{', '.join(LEVELS)} or blunder=..;temperature=..")
    level, _, inner = arg.partition(":")
    level = level.strip()
    if level.lower() in LEVELS:
        level = level.lower()
        blunder, temperature = LEVELS[level]
    elif "=" in level:
        blunder, temperature = _numbers(level)
    else:
        from .errors import suggest
        raise WorkbenchError(f"unknown skill level {level!r}{suggest(level, list(LEVELS))}; choose from "
                             f"{', '.join(LEVELS)} or blunder=..;temperature=..")
    inner = inner.strip() or "greedy"
    kind, _ = split_spec(inner)
    if kind == "skill":
        raise WorkbenchError(f"bot 'skill:{arg}' sets a skill twice; name one level per seat")
    return SkillBot(level, blunder, temperature, make_bot(inner), inner)


register_bot("skill", parse_skill)
