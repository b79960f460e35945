"""Planted edits of Meaning Made whose effect the rules make certain in
direction (see :mod:`workbench.tweak.planted`): each kind draws many
variations (which card, which token, by how much, at which player count).

* ``dearer-card``: one Pattern that games take (in at least a fifth of
  baseline games) needs 2-4 more of one token: it is taken fewer times per
  game, in fewer games, or later.
* ``lower-track``: the world starts 1-3 Meaning lower: the lowest Meaning
  reached falls, or games come nearer collapse.
* ``larger-rewards``: a Contribution Order reward (first or second place,
  or every later contributor's, where a game has more seats than places)
  grows by 3-8 Legacy: players end with more (End Score = Vitals + Legacy),
  and more of them at the top of the Legacy track. Not "the score spread
  widens": Legacy stops at 30 (seed value), so larger rewards push the table
  against the cap and the spread narrows as often as it widens (measured:
  5 of 9 such edits named the spread lower, docs/verdicts.md). Planted only
  at a player count where baseline games leave room under the cap (at most
  :data:`CAP_ROOM` of the players end there, ``pick_rates``' ``stat:players_at_cap``):
  where nearly every player already ends at the cap (greedy 2-player games:
  96 %, 40 games) a larger reward cannot raise what they end with, so
  neither effect is certain there, as a card no game takes cannot be taken
  less.
* ``dearer-end``: the End Initiative needs 2-5 more of one token: games last
  longer, with fewer rounds to spare.
* ``stronger-card``: one Pattern that games take (in at least a fifth of
  baseline games) gives much more: 2-4 more Legacy and 2-4 more of each of
  one or two of E, I and S in its one-time Pattern Bonus (the Shell case of
  docs/verdicts.md is one such edit): its takers end further ahead of the
  other seats of the same game (``card_taker_score``, ``card_taker_margin``, ``card_taker_soon``,
  ``card_taker_win``, ``card_taker_take`` higher). Legacy is in every such bonus because the End
  Score is Vitals + Legacy: Legacy is score the moment it is gained, while
  tokens turn into score only through later loads, which a bonus of tokens
  alone does not make certain (held-out seed 6733: every stronger card the
  verdict named carried Legacy; ``E+1 -> E+4 S+4`` moved its taker by
  -0.01 points over the next two rounds).
* ``weaker-card``: one Pattern that games take has its bonus replaced by a
  loss of 3-6 Legacy (our draft of "much weaker in what it gives"): its
  takers fall behind the other seats (the same metrics lower). Planted only
  on a Pattern whose takers hold at least that much Legacy when they take it
  in three loads of four (the 25th percentile over baseline greedy games,
  :data:`HELD_QUANTILE`, :func:`legacy_at_take`): Legacy stops at 0
  (``tracks.change_legacy``), so a loss taken while holding none costs
  nothing and the card is not weaker by the rules (seed 6733's Homeostat,
  taken in round 2). Until 2026-12-07 night the cutoff was the median, which
  left half the loads below it: a bot that sees the loss passes the card
  where it bites and keeps loading it where it costs nothing (Metabolic
  Reserve ``legacy-3`` at 4 players, 60 greedy games: loads at 3 Legacy or
  more 9 -> 4, at 0 or 1 Legacy 8 -> 6), so its remaining takers lost about a
  point at the take, not 3 (held-out seed 3391's miss, Salience Filter, read
  -1.86 after 200 games); what the take itself gave (``card_taker_take``)
  reads that loss without the rest of the game's spread (docs/verdicts.md,
  "The take itself"), and what a take would give wherever the card is
  offered (``card_taker_offer``) reads it where the bot no longer takes the
  card too (held-out seed 9157's misses: Symbiosis and Model Update, passed
  where the loss bit).
  The stronger and weaker kinds go round the player counts that leave room
  under the Legacy cap (as ``larger-rewards``, :data:`CAP_ROOM`; greedy
  games: 3, 4, 5, 3, ...), so each such count is measured. Not at 2 players:
  96 % of greedy players end at the cap there (40 games), so a bonus worth
  Legacy or tokens cannot raise what its taker ends with, nor a loss of a
  few Legacy lower it (seen on the first such edit of seed 3907: Homeostat
  E+1 -> E+5 legacy+3 at 2 players, the takers' score over the others
  -0.016 [-1.2, 1.2] after 200 games; the rule is the one larger-rewards
  already had).
* ``rename``: one card renamed: nothing the rules read (the decks are dealt
  from the files' order, so the renamed card lands where it did).
* ``no-op``: a card's flavour text, or its provenance mark: nothing the rules read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.tweak.planted import NO_OP, RENAME, PlantedEdit, baseline_games, rename

if TYPE_CHECKING:
    from .state import MMState

KINDS = ("dearer-card", "lower-track", "larger-rewards", "dearer-end", "stronger-card", "weaker-card", RENAME,
         NO_OP)
#: what a stronger or weaker card moves: what its takers gain over the other seats
#: (the take itself too: a Bonus's Legacy is score at once, Game.take_scores)
TAKER_KEYS = ("card_taker_score", "card_taker_margin", "card_taker_win", "card_taker_soon", "card_taker_take",
              "card_taker_offer")
PLAYERS = (2, 3, 4, 5)
#: the largest share of players ending at the Legacy cap (baseline games at that
#: player count) at which a larger reward is planted (our draft: a quarter of the
#: players with room below the cap; greedy games: 2 players 0.96, 3 players 0.33,
#: 4 players 0.35, 5 players 0.13)
CAP_ROOM = 0.75
WORDS = ("quiet", "river", "lantern", "glass", "ember", "orbit", "thread", "harbour", "moss", "signal")


def planted_edits(session, rng, kind: str, count: int, players=None, pick_rates=None) -> list[PlantedEdit]:
    """``count`` planted edits of ``kind`` drawn with ``rng`` (a
    ``random.Random``); ``pick_rates(players)`` gives the baseline share of
    games taking each card at that player count."""
    cards = session.cards
    settings = cards.settings
    end = settings.end_initiative
    out = []

    def room_under_cap(n: int) -> bool:
        rates = pick_rates(n) if pick_rates else {}
        return rates.get("stat:players_at_cap", 0.0) / n <= CAP_ROOM

    def taken_at(n: int) -> list[str]:
        rates = pick_rates(n) if pick_rates else {}
        return sorted(p for p in cards.patterns if rates.get(p, 0) >= 0.2) or sorted(cards.patterns)

    for i in range(count):
        if kind == "larger-rewards":
            n = rng.choice([p for p in players or PLAYERS if room_under_cap(p)] or list(players or PLAYERS))
        elif kind in ("stronger-card", "weaker-card"):
            counts = [p for p in players or PLAYERS if room_under_cap(p)] or list(players or PLAYERS)
            n = counts[i % len(counts)]
        else:
            n = rng.choice(players or PLAYERS)
        if kind == "dearer-card":
            rates = pick_rates(n) if pick_rates else {}
            names = sorted(p for p in cards.patterns if rates.get(p, 0) >= 0.2) or sorted(cards.patterns)
            card = rng.choice(names)
            token = rng.choice(("E", "I", "S"))
            old = session.value_of(card, token)
            new = old + rng.randint(2, 4)
            out.append(PlantedEdit(kind, [(card, token, new)], n,
                                   [(f"card_times:{card}", "lower"), (f"card_use:{card}", "lower"),
                                    (f"card_first_round:{card}", "higher")], f"{card} {token} {old} -> {new}"))
        elif kind == "lower-track":
            old = settings.meaning
            new = max(1, old - rng.randint(1, 3))
            out.append(PlantedEdit(kind, [("settings", "meaning", new)], n,
                                   [("track_low", "lower"), ("near_collapse", "higher"),
                                    ("track_danger_rounds", "higher"), ("completion", "lower")],
                                   f"starting Meaning {old} -> {new}"))
        elif kind == "larger-rewards":
            # the reward of contributors after the listed places only pays with three or more
            places = len(settings.order_rewards)
            which = rng.choice([f"order_rewards[{k}]" for k in range(places)]
                               + (["other_reward"] if n > places else []))
            old = session.value_of("settings", which)
            new = old + rng.randint(3, 8)
            out.append(PlantedEdit(kind, [("settings", which, new)], n,
                                   [("score_mean", "higher"), ("cap_saturation", "higher")],
                                   f"{which} {old} -> {new}"))
        elif kind == "dearer-end":
            token = rng.choice(("E", "I", "S"))
            old = session.value_of(end, token)
            new = old + rng.randint(2, 5)
            out.append(PlantedEdit(kind, [(end, token, new)], n,
                                   [("duration_rounds", "higher"), ("rounds_to_spare", "lower")],
                                   f"{end} {token} {old} -> {new}"))
        elif kind == "stronger-card":
            card = rng.choice(taken_at(n))
            old = dict(session.value_of(card, "bonus") or {})
            new = dict(old)
            for key in ["legacy"] + rng.sample(("E", "I", "S"), rng.randint(1, 2)):
                new[key] = new.get(key, 0) + rng.randint(2, 4)
            out.append(PlantedEdit(kind, [(card, "bonus", _text(new))], n,
                                   [(f"{k}:{card}", "higher") for k in TAKER_KEYS],
                                   f"{card} bonus {_text(old) or 'none'} -> {_text(new)}"))
        elif kind == "weaker-card":
            loss = rng.randint(3, 6)
            # read from baseline games only when the generator has them (as
            # ``pick_rates``): without, every taken Pattern may be drawn
            held = legacy_at_take(session, n) if pick_rates else {}
            # only where the takers hold what the loss takes away (Legacy stops at 0)
            names = [c for c in taken_at(n) if held.get(c, 0) >= loss] if held else taken_at(n)
            if not names:
                # no Pattern's takers hold that much: the largest loss some hold (at least 3)
                most = max((held.get(c, 0) for c in taken_at(n)), default=0)
                loss = int(max(3, min(loss, most)))
                # and where none holds 3, the Patterns whose takers hold the most
                names = ([c for c in taken_at(n) if held.get(c, 0) >= loss]
                         or [c for c in taken_at(n) if held.get(c, 0) == most])
            card = rng.choice(names)
            old = dict(session.value_of(card, "bonus") or {})
            new = {"legacy": -loss}
            out.append(PlantedEdit(kind, [(card, "bonus", _text(new))], n,
                                   [(f"{k}:{card}", "lower") for k in TAKER_KEYS],
                                   f"{card} bonus {_text(old) or 'none'} -> {_text(new)}"))
        elif kind == RENAME:
            out.append(rename(kind, session, rng, n))
        elif kind == NO_OP:
            card = rng.choice(sorted(cards.patterns) + sorted(cards.initiatives))
            if rng.random() < 0.7:
                text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))).capitalize() + "."
                out.append(PlantedEdit(kind, [(card, "flavour", text)], n, [], f"{card} flavour text"))
            else:
                out.append(PlantedEdit(kind, [(card, "provenance", rng.choice(("seed", "draft")))], n, [],
                                       f"{card} provenance mark"))
        else:
            raise ValueError(f"no planted kind {kind!r}; choose from {', '.join(KINDS)}")
    return out


#: baseline games read by :func:`legacy_at_take` (``baseline_games``' own seed)
HELD_GAMES = 40
#: the share of a Pattern's loads whose loader may hold less Legacy than a
#: weaker plant's loss (our draft: a quarter; the median left half the loads
#: where the loss cost little or nothing, see the module docstring)
HELD_QUANTILE = 0.25
_held: dict = {}


def legacy_at_take(session, players: int, games: int = HELD_GAMES) -> dict[str, float]:
    """Per Pattern, the Legacy its taker holds just before loading it in all
    but :data:`HELD_QUANTILE` of its loads (that quantile of the loads), over
    ``games`` baseline greedy games at ``players`` (every load of the card
    counted; the session's pool as it is before the edit)."""
    import numpy as np

    key = (id(session), players, games)
    if key in _held:
        return _held[key]
    game = session.game
    held: dict[str, list[int]] = {}

    def see(index: int, state: MMState, seat: int, action) -> None:
        for card in game.action_cards(state, action):
            if card in state.cards.patterns:
                held.setdefault(card, []).append(state.players[seat].legacy)

    baseline_games(game, players, games, see)
    _held[key] = {card: float(np.quantile(v, HELD_QUANTILE, method="lower")) for card, v in held.items()}
    return _held[key]


def _text(bonus: dict) -> str:
    """A bonus as the Cards page writes it (``E+3 legacy-4``)."""
    return " ".join(f"{k}{v:+d}" for k, v in bonus.items() if isinstance(v, int) and v)
