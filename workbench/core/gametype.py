"""What a game *is*, apart from how it plays: a small frozen record in the manner
of OpenSpiel's ``GameType`` (players, information, chance, simultaneity, what it
offers each page), built from a game's declarations by :meth:`Game.game_type`.

Pages and commands that only need to know what a game is read this record
rather than the rules object; the record holds no behaviour, imports nothing of
a game, and is the same on every machine (``to_dict`` is plain JSON)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

#: the information a seat has: everything (perfect) or not (imperfect)
INFORMATION = ("perfect", "imperfect")
#: how chance enters: none, or drawn from the game's seeded stream while it plays
CHANCE = ("deterministic", "sampled")
#: whether seats decide one after another, or some decisions are made at once
#: (face-down picks revealed together) and played one at a time
SIMULTANEITY = ("sequential", "simultaneous")


@dataclass(frozen=True)
class GameType:
    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    default_players: int
    information: str
    chance: str
    simultaneity: str
    #: what the asymmetric role of a seat is called (None: seats play no roles)
    role_label: str | None
    #: the whole table can lose together
    group_fate: bool
    #: capability (a page's or command's need) -> offered
    offers: tuple[tuple[str, bool], ...]
    options: tuple[str, ...]
    variants: tuple[str, ...]

    def __post_init__(self) -> None:
        for value, allowed, what in ((self.information, INFORMATION, "information"),
                                     (self.chance, CHANCE, "chance"),
                                     (self.simultaneity, SIMULTANEITY, "simultaneity")):
            if value not in allowed:
                raise ValueError(f"{self.id}: {what} {value!r} is not one of {', '.join(allowed)}")

    def offered(self) -> list[str]:
        return [name for name, yes in self.offers if yes]

    def to_dict(self) -> dict:
        out = asdict(self)
        out["offers"] = dict(self.offers)
        out["options"], out["variants"] = list(self.options), list(self.variants)
        return out
