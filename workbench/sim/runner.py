"""Playing one batch game and recording it as plain rows.

Everything here runs inside a worker (a pool process or a Dask worker), so it
takes and returns only picklable plain data: a :class:`SimSpec` and a game
index in, a record of dict rows out. Game ``i`` of a batch is seeded with
``derive_seed(master_seed, "game", i)`` and its bots with the usual per-seat
streams, so a record depends on (spec, i) alone, never on which worker played
it or in which order.

Besides the outcome, the runner keeps what the design metrics need and cannot
be recomputed afterwards: the number of options at each decision, and every
seat's evaluation (``Game.evaluate``) sampled once per round (at the first
look after the round changes; the runner looks every ``n_players`` actions)
and at the end, from which lead changes, drama and decisiveness follow.
"""

from __future__ import annotations

import importlib
import zlib
from dataclasses import asdict, dataclass, field

from workbench.core.bots import RandomBot, make_bots
from workbench.core.errors import WorkbenchError
from workbench.core.game import Game
from workbench.core.play import bot_rngs
from workbench.core.rng import derive_seed

TIMEOUT = "timeout"
#: the round written for the final scores in the games table's ``score_looks``
END_LOOK = 1_000_000

#: columns of the per-game table that the runner itself writes (the rest come
#: from ``Game.game_stats``)
GAME_COLUMNS = ("index", "seed", "players", "ending", "completed", "no_winner", "timeout", "n_winners",
                "winners", "turns", "actions", "decisions", "multi_option_decisions", "options_total",
                "score_spread", "lead_changes", "lead_change", "drama", "decisiveness",
                # only for a game with a shared track (Game.group_track)
                "track_low", "track_danger_rounds", "near_collapse")


@dataclass(frozen=True)
class SimSpec:
    """What a batch plays: a game, a seat count, bots, variants, options and a master seed.

    ``game`` is a registry id or ``package.module:ATTR`` for a game outside the
    registry (the tests' toy game is one).
    ``max_actions`` ends a runaway game with ending ``timeout``. ``trace=False``
    skips the evaluation samples (lead change, drama, decisiveness become null).
    ``taker_horizon`` > 0 reads every seat's score once per round, for what a
    card's taker gains in the rounds right after taking it."""

    game: str
    games: int
    players: int | None = None
    bots: str = "random"
    seed: int = 1
    variants: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)
    max_actions: int = 20000
    trace: bool = True
    #: rounds after a card's first take over which its taker's gain is read
    #: (the cards table's ``taker_soon_edge``, :func:`_soon_edges`); 0 writes no
    #: such column (``workbench simulate``'s tables stay as they were)
    taker_horizon: int = 0

    def to_dict(self) -> dict:
        d = asdict(self)
        d["variants"] = list(self.variants)
        return d

    @classmethod
    def from_dict(cls, data: dict) -> "SimSpec":
        data = dict(data)
        data["variants"] = tuple(data.get("variants", ()))
        return cls(**data)

    def with_(self, **changes) -> "SimSpec":
        d = self.to_dict()
        d.update(changes)
        return SimSpec.from_dict(d)


_GAMES: dict = {}


def resolve_game(ref: str):
    """The Game object for a registry id or a ``module:ATTR`` reference (cached per process)."""
    game = _GAMES.get(ref)
    if game is None:
        if ":" in ref:
            module, _, attr = ref.partition(":")
            try:
                game = getattr(importlib.import_module(module), attr)
            except (ImportError, AttributeError) as exc:
                raise WorkbenchError(f"cannot load game {ref!r}: {exc}") from None
        else:
            from workbench.core.registry import get_game
            game = get_game(ref)
        _GAMES[ref] = game
    return game


def player_count(spec: SimSpec, game) -> int:
    return spec.players or game.default_players


def game_config(spec: SimSpec, index: int):
    """The exact config of game ``index``: open it with ``workbench play`` or a Match."""
    game = resolve_game(spec.game)
    return game.config(player_count(spec, game), seed=derive_seed(spec.seed, "game", index),
                       variants=spec.variants, **spec.options)


def play_one(spec: SimSpec, index: int) -> dict:
    """Play game ``index`` of the batch; returns ``{"game": row, "players": [...], "cards": [...]}``."""
    game = resolve_game(spec.game)
    config = game_config(spec, index)
    n = len(config.players)
    bots = make_bots(spec.bots, n)
    rngs = bot_rngs(config)

    def decide(state, seat):
        # the bot is asked even for a forced move so that its random stream
        # advances exactly as in ``workbench play``: the same seed replays the game
        bot = bots[seat]
        if type(bot) is RandomBot:  # RandomBot.choose's draw, and the count with it
            return state.sample_legal_action(rngs[seat])
        k = state.legal_action_count()
        return bot.choose(game, state, rngs[seat]), k

    return game_record(game, config, index, decide, [repr(b) for b in bots], spec.trace, spec.max_actions,
                       horizon=spec.taker_horizon)


def replayed_record(game, config, actions: list[str], index: int, who: list[str], trace: bool = True) -> dict:
    """The batch record of a game already played (a playtest room's, with people
    at the table): the same row, players and cards columns as :func:`play_one`,
    so its metrics are computed by the same definitions. ``who`` names each seat's
    player kind (``person`` or the bot spec) for the players table's ``bot`` column."""
    from workbench.core.errors import WorkbenchError
    queue = iter(actions)

    def decide(state, seat):
        try:
            text = next(queue)
        except StopIteration:
            raise WorkbenchError("the recorded game stops before its end") from None
        k = state.legal_action_count()
        return game.parse_action(state, text), k

    return game_record(game, config, index, decide, who, trace, len(actions))


def game_record(game, config, index: int, decide, bot_names: list[str], trace: bool, max_actions: int,
                horizon: int = 0) -> dict:
    """Play one game from ``config``, each decision ``decide(state, seat) ->
    (action, legal count)``, and return its batch record. ``horizon`` > 0: every
    seat's score is read once per round and before each card's first take
    (``Game.result`` of the unfinished game), for :func:`_soon_edges`."""
    n = len(config.players)
    state = game.new_initial_state(config)
    evaluate, action_cards = game.evaluate, game.action_cards
    turn_count = game.turn_count
    samples: list[list[float]] = []
    sampled_round = None
    decisions = multi = options_sum = 0
    taken: dict[str, dict] = {}
    actions = 0
    # the shared track of a game the table loses together (Game.group_track),
    # read before every action: its lowest value and the rounds spent in danger
    track = game.group_track if type(game).group_track is not Game.group_track else None
    track_low, danger_rounds = None, set()
    # the action kinds a game counts through Game.action_kind (a game's
    # kinds of turn action), tallied per game into its action_kind_counts columns
    kind_of = game.action_kind if type(game).action_kind is not Game.action_kind else None
    kinds: dict[str, int] = {}
    # (round, every seat's score) at the first action of each round, when asked for
    snaps: list[tuple[int, list[float]]] = []
    # a digest of the actions played so far at each of those looks: two pools'
    # games played alike until a look when their digests there are equal
    digests: list[int] = []
    played = 0
    names = list(config.players)
    # what a take itself gave (_take_edges): read at the first take of each
    # card that can score (Game.scoring_take), until what it gives is given
    # (Game.take_settled): entries waiting for their look after
    scoring_take = game.scoring_take if horizon else None
    unsettled: list[dict] = []
    # what each card would give the seat on turn when a take of it is legal
    # (_offer_gains), once per round per card: for games whose takes score at once
    offers: dict[str, list[float]] = {} if horizon and game.take_scores else None
    offer_round: dict[str, int] = {}
    while not state.is_terminal():
        if actions >= max_actions:
            break
        if horizon and actions % n == 0:
            # looked at every n actions, as the evaluation samples (a game's
            # turn_count may read its whole result)
            res = game.result(state)
            if not snaps or snaps[-1][0] != res.turns:
                snaps.append((res.turns, [float(res.scores.get(name, 0)) for name in names]))
                digests.append(played)
        if track is not None:
            track_low, _ = _read_track(game, state, track, track_low, danger_rounds)
        # one evaluation sample per round: the round is looked at every n
        # actions (evaluations are the costly part of a random game)
        if trace and actions % n == 0:
            rnd = turn_count(state)
            if rnd != sampled_round:
                sampled_round = rnd
                samples.append([evaluate(state, s) for s in range(n)])
        seat = state.current_player()
        if offers is not None and seat is not None and seat >= 0:
            _offer_gains(game, state, seat, names, offers, offer_round)
        action, k = decide(state, seat)
        decisions += 1
        options_sum += k
        if k > 1:
            multi += 1
        cards = action_cards(state, action)
        firsts = []
        if cards:
            rnd = turn_count(state)
            for card in cards:
                entry = taken.get(card)
                if entry is None:
                    taken[card] = entry = {"times": 1, "seats": {seat}, "first_action": actions,
                                           "first_round": rnd, "first_seat": seat}
                    if horizon:
                        # every seat's score just before the take: where the taker's gain starts
                        now = game.result(state).scores
                        entry["scores"] = [float(now.get(name, 0)) for name in names]
                else:
                    entry["times"] += 1
                    entry["seats"].add(seat)
                if scoring_take is not None and "take_seat" not in entry and scoring_take(state, action):
                    # the first take of the card that can score: every seat's score just before it
                    now = game.result(state).scores
                    entry["take_seat"] = seat
                    entry["take_before"] = [float(now.get(name, 0)) for name in names]
                    firsts.append(entry)
        if kind_of is not None:
            kind = kind_of(state, action)
            if kind is not None:
                kinds[kind] = kinds.get(kind, 0) + 1
        if horizon:
            played = zlib.crc32(repr(action).encode(), played)
        state.apply_action(action)
        actions += 1
        unsettled += firsts
        if unsettled and (state.is_terminal() or game.take_settled(state)):
            # every seat's score once what the take gave is given: what the take itself gave
            now = game.result(state).scores
            for entry in unsettled:
                entry["after"] = [float(now.get(name, 0)) for name in names]
            unsettled = []
    # cut off here at the action limit, or by the game's own limit (ending "timeout")
    timed_out = not state.is_terminal()
    if track is not None:
        track_low, _ = _read_track(game, state, track, track_low, danger_rounds)
    if trace:
        samples.append([evaluate(state, s) for s in range(n)])
    res = game.result(state)
    timed_out = timed_out or res.ending == TIMEOUT
    winners = [] if timed_out else [names.index(w) for w in res.winners if w in names]
    ending = TIMEOUT if timed_out else res.ending
    scores = [float(res.scores.get(name, 0)) for name in names]
    row = {
        "index": index, "seed": config.seed, "players": n, "ending": ending,
        "completed": bool(winners), "no_winner": (not winners) and not timed_out, "timeout": timed_out,
        "n_winners": len(winners), "winners": ",".join(names[w] for w in winners),
        "turns": int(res.turns), "actions": actions, "decisions": decisions,
        "multi_option_decisions": multi, "options_total": options_sum,
        "score_spread": float(max(scores) - min(scores)) if scores else 0.0,
    }
    row.update(_trace_metrics(samples, winners) if trace else
               {"lead_changes": None, "lead_change": None, "drama": None, "decisiveness": None})
    if track is not None:
        collapse = game.group_track_collapse
        row.update({"track_low": track_low, "track_danger_rounds": len(danger_rounds),
                    "near_collapse": None if collapse is None or track_low is None
                    else bool(track_low <= collapse + 1)})
    for key, value in game.game_stats(state).items():
        row[key if key not in row else f"stat_{key}"] = value
    if kind_of is not None:
        for kind, column in game.action_kind_counts.items():
            row.setdefault(column, kinds.get(kind, 0))
    credit = 1.0 / len(winners) if winners else 0.0
    players = [{"index": index, "seed": config.seed, "seat": s, "name": names[s], "bot": bot_names[s],
                "role": game.player_role(state, s),
                "score": float(res.scores.get(names[s], 0)), "won": s in winners,
                "win_credit": credit if s in winners else 0.0}
               for s in range(n)]
    cards = _card_rows(game, state, taken, set(winners), index, config.seed, actions, scores)
    if offers:
        # a card offered but never taken gets its row here: what it would have given
        have = {r["card"]: r for r in cards}
        for card, gains in offers.items():
            row_c = have.get(card)
            if row_c is None:
                row_c = have[card] = {"index": index, "seed": config.seed, "card": card,
                                      "times_taken": 0, "takers": 0}
            row_c["taker_offer_edge"] = sum(gains) / len(gains)
        cards = [have[c] for c in sorted(have)]
    if horizon:
        # every seat's score once per round and at the end, for what the seat
        # that took a card in one pool gains in the other (metrics.paired_soon)
        row["score_looks"] = ";".join(f"{r}:" + ",".join(f"{v:g}" for v in sc)
                                      for r, sc in snaps + [(END_LOOK, scores)])
        row["play_digests"] = ";".join(str(d) for d in digests + [played])
        soon = _soon_edges(taken, snaps, scores, horizon)
        take = _take_edges(taken)
        for card_row in cards:
            card_row["taker_soon_edge"] = soon.get(card_row["card"])
            card_row["taker_take_edge"] = take.get(card_row["card"])
    return {"game": row, "players": players, "cards": cards}


def _read_track(game, state, track, low, danger_rounds: set):
    """One reading of the shared track: the lowest value so far, and the round
    noted in ``danger_rounds`` when the track is at or below the game's danger
    value (definitions in :mod:`workbench.sim.metrics`, Margin metrics)."""
    value = track(state)
    if value is None:
        return low, danger_rounds
    low = value if low is None or value < low else low
    danger = game.group_track_danger
    if danger is not None and value <= danger:
        danger_rounds.add(game.turn_count(state))
    return low, danger_rounds


def _taker_gain(takers: set, winner_set: set, scores: list[float]) -> dict:
    """What a card's takers gained over the other seats of the same game: their
    win (survival, at a cooperative table) share minus the others', their mean
    final score minus the others', and their mean margin over the best other
    seat (a taker's score minus the highest score of any other seat). None
    where there is no other seat to compare with (everyone took it, or solo)."""
    n = len(scores)
    others = [s for s in range(n) if s not in takers]
    out = {"taker_score": sum(scores[s] for s in takers) / len(takers) if n else None,
           "others_win_share": None, "taker_win_edge": None, "taker_score_edge": None, "taker_margin": None}
    if not others or not n:
        return out
    win_t = len(takers & winner_set) / len(takers)
    win_o = sum(1 for s in others if s in winner_set) / len(others)
    out["others_win_share"] = win_o
    out["taker_win_edge"] = win_t - win_o
    out["taker_score_edge"] = out["taker_score"] - sum(scores[s] for s in others) / len(others)
    out["taker_margin"] = sum(scores[s] - max(scores[o] for o in range(n) if o != s) for s in takers) / len(takers)
    return out


def _soon_edges(taken: dict, snaps: list, final: list[float], horizon: int) -> dict:
    """Per card taken, what its first taker gained over the other seats in the
    ``horizon`` rounds after taking it: the taker's score minus the other seats'
    mean score at the first look ``horizon`` rounds after the round of the take
    (``snaps``: every seat's score once per round; at the end when the game
    ends sooner), less the same just before the take.

    Why beside the final score's edge: what a card gives shows in the rounds
    right after the take, while the rest of the game adds its own spread (in a
    paired comparison the two pools' games part after the take, and every later
    round's choices differ); the final score also stops at a game's caps. The
    scores just before the take are the same in both pools of a paired game
    when they played alike until then, so the pair compares the gains alone."""
    out = {}
    for card, e in taken.items():
        if len(final) < 2 or "scores" not in e:
            out[card] = None
            continue
        end = next((sc for r, sc in snaps if r >= e["first_round"] + horizon), final)
        out[card] = _edge(end, e["first_seat"]) - _edge(e["scores"], e["first_seat"])
    return out


def _take_edges(taken: dict) -> dict:
    """Per card taken, what its first taker gained over the other seats from
    the take itself: the taker's score minus the other seats' mean score just
    after the action that took it, less the same just before. The take read
    is the card's first that can score (``Game.scoring_take``: every take,
    unless the game says which), and "just after" is once what it gives is
    given (``Game.take_settled``: at once, unless the game's effects wait on
    its players' choices); None where no such take was seen.

    Why beside the gain over the next rounds: a bot that sees a card made
    weaker passes it by where it can, so fewer games take it in the edited
    pool and the pools' takers are compared across different games, whose
    scores after the take spread by the rest of the game (a card planted
    weaker at 4 players, 120 greedy games: taken in 0.26 fewer games, its
    takers' score over the others -3.3 [-7.6, 1.1]; docs/verdicts.md); what
    the take itself gives has no such spread. It reads only what scores at
    once (a bonus of points, a loss): what a card gives later (resources spent
    on later takes, a yield each round) stays with the other taker metrics."""
    out = {}
    for card, e in taken.items():
        if "after" not in e or len(e["take_before"]) < 2:
            out[card] = None
            continue
        out[card] = _edge(e["after"], e["take_seat"]) - _edge(e["take_before"], e["take_seat"])
    return out


def _offer_gains(game, state, seat: int, names: list[str], offers: dict, offer_round: dict) -> None:
    """What taking each card offered now would give ``seat`` over the other
    seats (its score minus their mean, after the take less before), the best
    of the card's legal takes that can score (``Game.scoring_take``) and whose
    gift is given at once (``Game.take_settled``), read on a copy of the
    state; appended to ``offers[card]`` once per round per card (the first
    decision of the round that offers it).

    Why beside what the takers gained: a bot that sees a card made weaker
    passes it where the loss bites and takes it where it costs nothing, so
    the takers' readings come from the takes the bot still likes (a card
    planted with a loss of score: its takers lost about a point, not the 3
    planted, docs/verdicts.md). What the card would give whoever takes it
    where it is offered does not depend on who chose to; the games of the two
    pools play alike until its first offer (an edit changes nothing before the
    card can be taken), so the pairs start from the same positions."""
    if len(names) < 2:
        return
    rnd = None
    best: dict[str, float] = {}
    before = None
    for action in state.legal_actions():
        cards = game.action_cards(state, action)
        if not cards:
            continue
        if rnd is None:
            rnd = game.turn_count(state)
        todo = [c for c in cards if offer_round.get(c) != rnd]
        if not todo or not game.scoring_take(state, action):
            continue
        after_state = state.clone()
        after_state.apply_action(action)
        if not (after_state.is_terminal() or game.take_settled(after_state)):
            continue
        if before is None:
            now = game.result(state).scores
            before = _edge([float(now.get(name, 0)) for name in names], seat)
        now = game.result(after_state).scores
        gain = _edge([float(now.get(name, 0)) for name in names], seat) - before
        for card in todo:
            if card not in best or gain > best[card]:
                best[card] = gain
    for card, gain in best.items():
        offers.setdefault(card, []).append(gain)
        offer_round[card] = rnd


def _edge(scores: list[float], seat: int) -> float:
    """``seat``'s score minus the other seats' mean score."""
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - sum(others) / len(others)


def _card_rows(game, state, taken: dict, winner_set: set, index: int, seed: int, actions: int,
               scores: list[float] | None = None) -> list[dict]:
    """One row per card of a finished game: what the runner saw it taken for
    (with what its takers gained over the other seats, :func:`_taker_gain`),
    merged with the game's own ``card_stats`` rows."""
    card_rows = {}
    for card, e in taken.items():
        takers = e["seats"]
        card_rows[card] = {"index": index, "seed": seed, "card": card, "times_taken": e["times"],
                           "takers": len(takers), "first_action": e["first_action"],
                           "first_fraction": e["first_action"] / actions if actions else 0.0,
                           "first_round": e["first_round"], "first_seat": e["first_seat"],
                           "taker_won": bool(takers & winner_set),
                           "taker_win_share": len(takers & winner_set) / len(takers),
                           **_taker_gain(takers, winner_set, scores or [])}
    # a game may report several rows for one card (one per holder): the row
    # per card keeps the first non-null value of each field and counts the rows
    own = set()
    for extra in game.card_stats(state):
        card = extra["card"]
        base = card_rows.setdefault(card, {"index": index, "seed": seed, "card": card,
                                           "times_taken": 0, "takers": 0})
        if card not in own:
            own.add(card)
            base["stat_rows"] = 0
        base["stat_rows"] += 1
        for key, value in extra.items():
            if key == "card":
                continue
            if key in _RUNNER_CARD_KEYS:
                key = f"stat_{key}"
            if base.get(key) is None:
                base[key] = value
    return [card_rows[c] for c in sorted(card_rows)]


_RUNNER_CARD_KEYS = frozenset({"index", "seed", "card", "times_taken", "takers", "first_action",
                               "first_fraction", "first_round", "first_seat", "taker_won",
                               "taker_win_share", "taker_score", "others_win_share", "taker_win_edge",
                               "taker_score_edge", "taker_margin", "taker_soon_edge", "taker_take_edge",
                               "taker_offer_edge", "stat_rows"})


def _trace_metrics(samples: list[list[float]], winners: list[int]) -> dict:
    """Lead changes, drama and decisiveness of one game from its evaluation samples
    (definitions and formulas in :mod:`workbench.sim.metrics`)."""
    leaders = []
    for values in samples:
        best = max(values)
        tops = [i for i, v in enumerate(values) if v == best]
        leaders.append(tops[0] if len(tops) == 1 else None)
    changes, prev = 0, None
    for leader in leaders:
        if leader is None:
            continue
        if prev is not None and leader != prev:
            changes += 1
        prev = leader
    out = {"lead_changes": changes,
           "lead_change": changes / (len(samples) - 1) if len(samples) > 1 else 0.0,
           "drama": None, "decisiveness": None}
    if winners:
        gaps, last_behind = [], -1
        for i, values in enumerate(samples):
            hi, lo = max(values), min(values)
            w = max(values[s] for s in winners)
            gaps.append((hi - w) / (hi - lo) if hi > lo else 0.0)
            if w < hi or (w == hi and leaders[i] not in winners and len(winners) == 1):
                last_behind = i
        out["drama"] = sum(gaps) / len(gaps)
        out["decisiveness"] = 1.0 - (last_behind + 1) / len(samples)
    return out


class GameFailed(WorkbenchError):
    """A batch game raised: says which game, with the seed that reproduces it."""


def run_chunk(spec: SimSpec | dict, indices: list[int]):
    """Play several games of one batch (the unit of work sent to a worker) and
    return them as a compact :class:`workbench.sim.tables.Chunk` (columns of
    plain values; the main process turns them into polars frames)."""
    from .tables import chunk_from_records
    return chunk_from_records(indices, play_records(spec, indices))


def play_records(spec: SimSpec | dict, indices: list[int]) -> list[dict]:
    """The records of games ``indices`` (plain dicts, see :func:`play_one`)."""
    if isinstance(spec, dict):
        spec = SimSpec.from_dict(spec)
    out = []
    for i in indices:
        try:
            out.append(play_one(spec, i))
        except Exception as exc:
            seed = derive_seed(spec.seed, "game", i)
            # the message travels back from the worker as text, so it carries
            # everything needed to replay the game that broke
            raise GameFailed(f"game {i} (seed {seed}, bots {spec.bots}) raised "
                             f"{type(exc).__name__}: {exc}; {_replay_hint(spec, seed)}") from exc
    return out


def _replay_hint(spec: SimSpec, seed: int) -> str:
    """How to play the broken game again: a pool edited in memory (``compare --edit``,
    the Cards page) is a ``module:ATTR`` reference ``play`` does not know, so the
    hint names its game and says the edit must be in the card folder played."""
    if ":" not in spec.game:
        return f"replay it with workbench play {spec.game} --seed {seed} --bots {spec.bots}"
    try:
        game_id = resolve_game(spec.game).id
    except Exception:  # noqa: BLE001 - a hint must not hide the error it explains
        game_id = "GAME"
    return (f"replay it with workbench play {game_id} --cards FOLDER --seed {seed} --bots {spec.bots}, "
            "FOLDER holding the edited cards")
