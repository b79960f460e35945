"""The space a hunt searches: restricted strategies ("arms") and the questions
("hypotheses") asked of the games they play.

An arm is one way of playing the field: every seat on the base bot (the
*baseline*), or one seat restricted (``force:CARD``, ``ban:CARD``,
``always:KIND``, ``never:KIND``, ``first``) against base bots, or the whole
table on one stalling policy (``always:KIND`` at every seat). The restricted
seat rotates with the game index (game ``i``: seat ``i mod n``), so a seat's
own advantage cancels, and game ``i`` of an arm is paired with game ``i`` of
the baseline (same seed, same shuffle).

A hypothesis is one number per game whose mean, if its interval lies on the
far side of zero and the estimate reaches the hypothesis' margin, is a
finding: a restriction that beats the field, a card whose takers win or score
far more, a card a seat scores far less without, a seat or role (faction)
advantage, games that time out. Score questions are in units of the spread
of the seats' final scores in the first baseline games, so one margin fits
every game's scale. The kinds,
their per-game values and their default margins are all here; nothing names a
game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BASELINE = "baseline"

#: finding kinds -> the default margin: the smallest effect worth a finding
#: (win credit for restrictions, seats and roles; taker edge for cards; share
#: of games for timeouts). ``workbench hunt --margin KIND=M`` overrides one.
MARGINS = {
    "beats-field": 0.10,      # the restricted seat's win credit above the same seat's in the baseline
    "stalls": 0.05,           # share of games that time out, above the baseline's
    "seat-advantage": 0.08,   # a seat's win credit above the table's mean credit
    "role-advantage": 0.08,   # a role's (faction's) win credit above the table's mean credit
    "taker-wins": 0.30,       # takers' win share above the other seats' in games where the card was taken
    "taker-scores": 1.0,      # takers' score above the other seats', in score spreads (the baseline's sd)
    "ban-costs": 0.5,         # what never taking a card costs the seat's score, in score spreads
    "timeouts": 0.05,         # share of baseline games that time out
}

KIND_WORDS = {
    "beats-field": "a restriction that beats the field",
    "stalls": "a policy that stalls the game (games time out)",
    "seat-advantage": "a seat advantage",
    "role-advantage": "a role advantage",
    "taker-wins": "a card whose takers win far more often",
    "taker-scores": "a card whose takers score far more",
    "ban-costs": "a card a seat scores far less without",
    "timeouts": "games that time out",
}


@dataclass(frozen=True)
class Arm:
    """One way the table plays: ``restriction`` is the restricted seat's bot
    spec prefix (``force:Shell``) or ``None`` for the baseline; ``whole_table``
    puts it at every seat (a stalling table)."""

    key: str
    restriction: str | None
    kind: str                     # baseline | card | action-kind | fixed-line | stall
    subject: str = ""             # the card, kind of move or line it involves
    whole_table: bool = False
    prior: float = 0.0            # what the baseline already hints (higher: looked at first)

    def seat_bots(self, base: str, players: int, seat: int) -> str:
        """The comma list of bots for a game whose restricted seat is ``seat``."""
        if self.restriction is None:
            return base
        spec = self.restriction if self.restriction == "first" else f"{self.restriction}:{base}"
        if self.whole_table:
            return spec
        return ",".join(spec if s == seat else base for s in range(players))


@dataclass
class Hypothesis:
    """One question: ``kind`` (a key of :data:`MARGINS`), the arm whose games
    answer it, the subject (card, seat, role, restriction) and its margin."""

    kind: str
    arm: str
    subject: str
    margin: float
    # what the screening games said so far (mean, its standard error, games)
    state: str = "screening"      # screening | dropped | candidate | finding | not confirmed
    screen: dict = field(default_factory=dict)
    confirm: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.arm}:{self.subject}"


def arms_for(cards: list[tuple[str, float]], kinds: list[str], *, stall_kinds=(), fixed_line: bool = True,
             card_limit: int | None = None) -> list[Arm]:
    """Every arm of a hunt: the baseline, force and ban of each card taken in
    the baseline games (``cards``: name and what the baseline hints of it, the
    takers' edge; highest first), always and never of each kind of move seen,
    the fixed line, and the whole table on each stalling kind."""
    arms = [Arm(BASELINE, None, BASELINE)]
    ranked = sorted(cards, key=lambda c: (-c[1], c[0]))
    if card_limit is not None:
        ranked = ranked[:card_limit]
    for name, hint in ranked:
        arms.append(Arm(f"force:{name}", f"force:{name}", "card", name, prior=hint))
        # a ban is worth a look both for a trap card (takers lose) and for a card
        # far too strong (what a seat loses without it): the hint's size, not its sign
        arms.append(Arm(f"ban:{name}", f"ban:{name}", "card", name, prior=abs(hint)))
    for kind in kinds:
        arms.append(Arm(f"always:{kind}", f"always:{kind}", "action-kind", kind))
        arms.append(Arm(f"never:{kind}", f"never:{kind}", "action-kind", kind))
    if fixed_line:
        arms.append(Arm("first", "first", "fixed-line", "the first legal move every time"))
    for kind in stall_kinds:
        arms.append(Arm(f"table-always:{kind}", f"always:{kind}", "stall", kind, whole_table=True))
    return arms


def hypotheses_for(arms: list[Arm], players: int, roles: list[str], margins: dict,
                   cards: list[str], *, score_cards: list[str] | None = None) -> list[Hypothesis]:
    """The questions asked: of each restricted arm whether it beats the field
    and whether it stalls, of each ban arm whether the seat scores far less
    without the card, of the baseline each seat's and role's advantage, each
    card's takers' win edge (and, of ``score_cards``, their score edge) and
    the timeouts. ``score_cards`` None: the games' scores have no spread to
    measure by, and no score question is asked."""
    out = []
    for arm in arms:
        if arm.restriction is None:
            continue
        if not arm.whole_table:
            out.append(Hypothesis("beats-field", arm.key, arm.key, margins["beats-field"]))
            # a card far too strong is one the base bot takes anyway, so forcing it
            # changes little: banning it shows what it is worth to its taker
            if score_cards is not None and arm.restriction.startswith("ban:"):
                out.append(Hypothesis("ban-costs", arm.key, arm.subject, margins["ban-costs"]))
        out.append(Hypothesis("stalls", arm.key, arm.key, margins["stalls"]))
    if players > 1:
        out += [Hypothesis("seat-advantage", BASELINE, str(s), margins["seat-advantage"]) for s in range(players)]
    out += [Hypothesis("role-advantage", BASELINE, r, margins["role-advantage"]) for r in roles]
    out += [Hypothesis("taker-wins", BASELINE, c, margins["taker-wins"]) for c in cards]
    out += [Hypothesis("taker-scores", BASELINE, c, margins["taker-scores"]) for c in score_cards or ()]
    out.append(Hypothesis("timeouts", BASELINE, "all seats", margins["timeouts"]))
    return out
