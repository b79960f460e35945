"""Planted edits of Pax Transhumanity whose effect the rules make certain in
direction (see :mod:`workbench.tweak.planted`), each kind with many variations
(which idea, which Heat square, by how much, at which player count).

* ``dearer-card``: an idea that games take (in at least a fifth of baseline
  games) gets one or two more *white* Heat squares: it is taken in fewer
  games, or later. Not "fewer times": Placating an Idea counts as
  taking it, and a white square more is one more Heat agent to Placate.
* ``dearer-end``: every way the game ends gets dearer together: the Ideas
  whose effect ends the game (the four Tipping Points and Plurality) each
  get the same one or two more white Heat squares, the Singular run needs
  1-2 more bands and the Tycoon 1-2 more Companies: games last longer, in
  rounds and above all in Ideas commercialized (three Ends fire on a
  Commercialization, so that count is the game's own clock).
  Not one End alone: Pax ends by the first of four Ends, so when one gets
  dearer the games end by another in as many rounds (measured, greedy, 3
  players, 120 paired games, every game-end Idea one white square more:
  Tipping Point endings 81 -> 69, Singular 9 -> 18, mean rounds of the
  games that ended by the rules 19.15 -> 18.97). Until 2026-12-02 the generator made
  one End dearer, where baseline games end by it. Plurality researched
  away still ends the game at the old price (no card value prices it).
* ``stronger-card``: an idea that games take (in at least a fifth of
  baseline games), not one that ends the game, gives much more: two more
  ``solve any`` terms (two problems of the commercializer's choice solved):
  its takers end further ahead of the other seats of the same game
  (``card_taker_score``, ``card_taker_margin``, ``card_taker_win``, ``card_taker_soon``, and
  ``card_taker_take``, what its first Commercialization gave once its effects
  were resolved, higher).
* ``weaker-card``: such an idea gives nothing (its effects removed): its
  takers fall behind the other seats (the same metrics lower). Both go round
  the player counts (2, 3, 4, 2, ...). Both are planted only on an Idea whose
  effects act in baseline games: one Commercialized in at least
  :data:`ACTS_SHARE` of them (:func:`commercialized_share`), since an Idea's
  effects act only when it is Commercialized (:mod:`.commercialize`): taken
  any other way its effects change nothing, so removing them (or adding two
  ``solve any``) is no change in play (held-out seed 6221's Neural Lace with
  its effects removed at 2 players: 40 paired games per arm, every metric
  *the bots never chose differently*). "Taking" an idea is any of the ways
  :data:`.actions.TAKES_NAMED_IDEA` counts (Syndicating, Placating,
  Commercializing, Researching it away), so a taker need not be the one who
  commercializes it: the metrics are diluted by the other ways. The plain
  greedy bot sees an idea's effects only in the look-ahead of its
  Commercialization; with the card-value term (``greedy:card_value=1``,
  :func:`.evaluation.syndicated_ideas_worth`) also while it syndicates.
* ``rename``: one card renamed: nothing the rules read (a card is dealt by its
  place in its file, not its name).
* ``no-op``: a card's provenance mark (seed or draft): nothing the rules read.

Only white squares make an Idea dearer: a Syndication must cover every
uncovered white square with an agent, while a black one *may* be covered
(:mod:`.syndicate`; the deck's own note: "white must be covered when
syndicating, black may"). A black square costs nothing to take the Idea and is an option
(a Damping target, a Future Shock agent that shields its owner in a Nuclear
Exchange), so "one more black square" is no dearer card: the generator
planted such edits until 2026-12-02, and they were most of its Pax misses.

Not planted: a shared track (the table does not fall together) and larger
rewards (the scores are counts the rules fix, not values of the cards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.tweak.planted import (NO_OP, RENAME, PlantedEdit, baseline_games, player_count, provenance_flip,
                                    rename)

if TYPE_CHECKING:
    from .state import PaxState

KINDS = ("dearer-card", "dearer-end", "stronger-card", "weaker-card", RENAME, NO_OP)
#: what a stronger or weaker card moves: what its takers gain over the other seats
#: (the Commercialization itself too: a problem its effects solve is score at
#: once, Game.take_scores, PaxGame.scoring_take)
TAKER_KEYS = ("card_taker_score", "card_taker_margin", "card_taker_win", "card_taker_soon", "card_taker_take")
#: the terms a much stronger idea gains
STRONGER = ("solve any", "solve any")
PLAYERS = (2, 3, 4)
#: the Heat square a Syndication must cover (the only one that makes an Idea dearer)
DEARER_HEAT = "white"
#: the setting of each End that is not an Idea, and the ending it brings
END_SETTINGS = (("tycoon_company", "tycoon"), ("singular_run", "singular"))
#: the effect of the Ideas that end the game
GAME_END = "game end"


def planted_edits(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedEdit]:
    table = session.table()
    ideas = table.filter(table["kind"] == "idea")
    out = []
    for i in range(count):
        n = player_count(kind, i, rng, players or PLAYERS)
        if kind == "dearer-card":
            rates = pick_rates(n) if pick_rates else {}
            names = sorted(c for c in ideas["name"].to_list() if rates.get(c, 0) >= 0.2) or sorted(ideas["name"])
            card = rng.choice(names)
            old = ideas.filter(ideas["name"] == card)["heat"][0] or ""
            added = [DEARER_HEAT] * rng.randint(1, 2)
            new = " ".join(old.split() + added)
            out.append(PlantedEdit(kind, [(card, "heat", new)], n,
                                   # not card_times: Placating counts as taking the Idea
                                   # (actions.TAKES_NAMED_IDEA), and each white square more
                                   # is one more Heat agent to Placate
                                   [(f"card_use:{card}", "lower"), (f"card_first_round:{card}", "higher")],
                                   f"{card} heat '{old}' -> '{new}'"))
        elif kind == "dearer-end":
            # every End at once: make one dearer and games end by another in
            # as many rounds (see the module docstring)
            enders = ideas.filter(ideas["effects"].fill_null("").str.contains(GAME_END, literal=True))
            added = [DEARER_HEAT] * rng.randint(1, 2)
            edits = [(card, "heat", " ".join((heat or "").split() + added))
                     for card, heat in enders.select("name", "heat").iter_rows()]
            notes = [f"every game-end Idea heat + '{' '.join(added)}'"]
            for name, _ in END_SETTINGS:
                old = session.value_of(name, "value")
                new = old + rng.randint(1, 2)
                edits.append((name, "value", new))
                notes.append(f"{name} {old} -> {new}")
            # longer by the game's own clock, the Ideas commercialized (Game.leading_metrics)
            out.append(PlantedEdit(kind, edits, n, [("duration_rounds", "higher"),
                                                    ("stat:n_commercializations", "higher")], ", ".join(notes)))
        elif kind in ("stronger-card", "weaker-card"):
            rates = pick_rates(n) if pick_rates else {}
            plain = ideas.filter(ideas["type"].is_null()
                                 & ~ideas["effects"].fill_null("").str.contains(GAME_END, literal=True))
            names = sorted(c for c in plain["name"].to_list() if rates.get(c, 0) >= 0.2) or sorted(plain["name"])
            if pick_rates:
                # only where the effects act in play (read from baseline games
                # only when the generator has them, as ``pick_rates``)
                acts = commercialized_share(session, n)
                if kind == "weaker-card":
                    names = [c for c in names if session.value_of(c, "effects")] or names
                names = ([c for c in names if acts.get(c, 0) >= ACTS_SHARE]
                         or [c for c in names if acts.get(c, 0) == max(acts.get(x, 0) for x in names)])
            card = rng.choice(names)
            old = list(session.value_of(card, "effects") or [])
            new = old + list(STRONGER) if kind == "stronger-card" else []
            want = "higher" if kind == "stronger-card" else "lower"
            out.append(PlantedEdit(kind, [(card, "effects", "; ".join(new))], n,
                                   [(f"{k}:{card}", want) for k in TAKER_KEYS],
                                   f"{card} effects {'; '.join(old) or 'none'} -> {'; '.join(new) or 'none'}"))
        elif kind == RENAME:
            out.append(rename(kind, session, rng, n))
        elif kind == NO_OP:
            out.append(provenance_flip(kind, table, rng, n))
        else:
            raise ValueError(f"no planted kind {kind!r}; choose from {', '.join(KINDS)}")
    return out


#: the share of baseline games in which an Idea must be Commercialized (its
#: effects act) to be planted stronger or weaker (our draft, as ``pick_rates``'
#: fifth of games for a card taken)
ACTS_SHARE = 0.2
#: baseline games read by :func:`commercialized_share` (``baseline_games``' own seed)
ACTS_GAMES = 40
_acts: dict = {}


def commercialized_share(session, players: int, games: int = ACTS_GAMES) -> dict[str, float]:
    """Per Idea, the share of ``games`` baseline greedy games at ``players`` in
    which it is Commercialized at least once (its effects act), the session's
    pool as it is before the edit."""
    key = (id(session), players, games)
    if key in _acts:
        return _acts[key]
    game = session.game
    seen: set[tuple[int, str]] = set()

    def see(index: int, state: PaxState, seat: int, action) -> None:
        act = game.coerce_action(state, action)
        if act.kind == "commercialize":
            seen.add((index, act.args[0]))

    baseline_games(game, players, games, see)
    counts: dict[str, int] = {}
    for _, card in seen:
        counts[card] = counts.get(card, 0) + 1
    _acts[key] = {card: k / games for card, k in counts.items()}
    return _acts[key]
