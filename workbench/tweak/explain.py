"""Why an edit mattered: where paired games part ways, which cards' use moved,
and, for several edits at once, each edit's share of the effect.

A paired comparison says *what* moved (:mod:`workbench.sim.verdicts`); this
module says *why*, from the same paired seeds:

* :func:`divergence` replays pairs of games (the same seed on the old and the
  new pool) and finds the first decision where they part ways; it counts
  those decisions by kind of move (``Game.action_kind``, else the notation's
  first word) and by the card either move involves (``Game.action_cards``).
  Before that decision the two games are move for move the same, so the edit
  first mattered there.
* :func:`card_use_shift`: the cards whose times taken per game moved most.
* :func:`edit_shares`: each edit's share of the change of one metric. With
  at most :data:`SHAPLEY_MAX` edits, the exact Shapley value (every subset of
  the edits played on the same seeds); with more, leave one out (the effect
  lost when that edit alone is reverted, over the whole effect). A share is
  a point estimate on the batch's seeds, not an interval: it says where to
  look first, and reverting the largest edit is the check.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

SHAPLEY_MAX = 3


def _player(spec, index: int):
    """Game ``index`` of a batch set up to be played again: (game, state, bots, rngs)."""
    from workbench.core.bots import make_bots
    from workbench.core.play import bot_rngs

    from workbench.sim.runner import game_config, resolve_game
    game = resolve_game(spec.game)
    config = game_config(spec, index)
    bots, rngs = make_bots(spec.bots, len(config.players)), bot_rngs(config)
    return game, game.new_initial_state(config), bots, rngs


def _step(game, state, bots, rngs) -> tuple[str, str, tuple[str, ...]]:
    """The seat to move chooses and plays; returns the move's text, kind and cards."""
    from workbench.core.policies import action_kind_of
    seat = state.current_player()
    action = bots[seat].choose(game, state, rngs[seat])
    move = (game.format_action(state, action), action_kind_of(game, state, action),
            tuple(game.action_cards(state, action)))
    state.apply_action(action)
    return move


def record(spec, index: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """Game ``index`` of a batch played again: per move its text, kind and cards."""
    game, state, bots, rngs = _player(spec, index)
    out = []
    while not state.is_terminal() and len(out) < spec.max_actions:
        out.append(_step(game, state, bots, rngs))
    return out


def parting(spec_a, spec_b, index: int):
    """Where game ``index`` of the two batches first part ways: (move number
    from 0, the old pool's move, the new pool's move), a move None where that
    game had ended; None when the two games are move for move the same. Both
    games are played side by side and stop at the parting, so the answer costs
    the moves up to it, not two whole games (the explanation comes seconds
    after the verdict, not a batch's time)."""
    ga, sa, ba, ra = _player(spec_a, index)
    gb, sb, bb, rb = _player(spec_b, index)
    limit = min(spec_a.max_actions, spec_b.max_actions)
    at = 0
    while at < limit:
        end_a, end_b = sa.is_terminal(), sb.is_terminal()
        if end_a and end_b:
            return None
        old = None if end_a else _step(ga, sa, ba, ra)
        new = None if end_b else _step(gb, sb, bb, rb)
        if old is None or new is None or old[0] != new[0]:
            return at, old, new
        at += 1
    return None


def divergence(spec_a, spec_b, indices) -> dict:
    """Where the paired games ``indices`` first part ways: counts by kind of
    move and by card, the median move number, and a few examples."""
    indices = list(indices)
    kinds, cards, plies, examples, same = Counter(), Counter(), [], [], 0
    for i in indices:
        found = parting(spec_a, spec_b, i)
        if found is None:
            same += 1
            continue
        at, old, new = found
        kind = (old or new)[1]
        kinds[kind] += 1
        for card in set((old[2] if old else ()) + (new[2] if new else ())):
            cards[card] += 1
        plies.append(at)
        if len(examples) < 3:
            examples.append({"index": i, "move": at + 1, "old": old[0] if old else None,
                             "new": new[0] if new else None})
    n = len(plies)
    return {"games": len(indices),
            "parted": n, "identical": same,
            "by_kind": [{"kind": k, "games": c, "share": c / n} for k, c in kinds.most_common()] if n else [],
            "by_card": [{"card": k, "games": c, "share": c / n} for k, c in cards.most_common(8)] if n else [],
            "median_move": (sorted(plies)[n // 2] + 1) if n else None, "examples": examples}


def card_use_shift(a, b, top: int = 6) -> list[dict]:
    """The cards whose mean times taken per game moved most from batch ``a``
    to batch ``b`` (same games): old, new and the change."""
    import polars as pl
    n = max(1, a.games.height)

    def per_card(r) -> dict:
        if r.cards.height == 0 or "times_taken" not in r.cards.columns:
            return {}
        t = r.cards.group_by("card").agg(pl.col("times_taken").sum())
        return {c: v / n for c, v in t.iter_rows()}

    old, new = per_card(a), per_card(b)
    rows = [{"card": c, "old": old.get(c, 0.0), "new": new.get(c, 0.0), "change": new.get(c, 0.0) - old.get(c, 0.0)}
            for c in set(old) | set(new)]
    rows.sort(key=lambda r: (-abs(r["change"]), r["card"]))
    return [r for r in rows[:top] if r["change"]]


def _flat(result) -> dict:
    from workbench.sim.metrics import compute_all, flatten
    return flatten(compute_all(result.metric_data()))


def metric_value(result, key: str) -> float | None:
    return _flat(result).get(key)


def edit_shares(game_id: str, edits, spec, key: str, *, workers=None, baseline=None, full=None,
                folder=None) -> dict:
    """Each edit's share of the change of metric ``key`` between the pool
    without the edits and with all of them, on ``spec``'s seeds (its game is
    replaced by each pool). ``baseline``/``full``: the metric on the old and
    the fully edited pool when already known. ``edits``: (card, field, value)."""
    from workbench.tweak import open_session

    from workbench.sim import simulate
    k = len(edits)
    cache: dict[frozenset, float | None] = {}
    if baseline is not None:
        cache[frozenset()] = baseline
    if full is not None:
        cache[frozenset(range(k))] = full
    played = 0

    def value(subset: frozenset) -> float | None:
        nonlocal played
        if subset not in cache:
            session = open_session(game_id, folder)
            for j in sorted(subset):
                session.edit(*edits[j])
            ref = session.pool_refs()[1] if subset else session.pool_refs()[0]
            cache[subset] = metric_value(simulate(spec.with_(game=ref), workers=workers), key)
            played += spec.games
        return cache[subset]

    everything = frozenset(range(k))
    v0, v1 = value(frozenset()), value(everything)
    if v0 is None or v1 is None:
        return {"metric": key, "method": None, "shares": [], "games": played}
    total = v1 - v0
    shares = []
    if k <= SHAPLEY_MAX:
        method = "shapley"
        for j in range(k):
            others = [x for x in range(k) if x != j]
            phi = 0.0
            for size in range(k):
                for sub in itertools.combinations(others, size):
                    s = frozenset(sub)
                    with_j, without = value(s | {j}), value(s)
                    if with_j is None or without is None:
                        continue
                    w = math.factorial(size) * math.factorial(k - size - 1) / math.factorial(k)
                    phi += w * (with_j - without)
            shares.append(phi)
    else:
        method = "leave one out"
        for j in range(k):
            rest = value(everything - {j})
            shares.append(v1 - rest if rest is not None else 0.0)
    reverted = {}
    for j in range(k):
        rest = value(everything - {j})
        reverted[j] = (v1 - rest) / total if total and rest is not None else None
    return {"metric": key, "method": method, "old": v0, "new": v1, "effect": total, "games": played,
            "shares": [{"edit": list(edits[j]), "contribution": shares[j],
                        "share": shares[j] / total if total else None,
                        # the part of the effect that reverting this edit alone takes back
                        "revert_share": reverted[j]} for j in range(k)]}


def explain(update, edits, *, game_id: str, folder=None, workers=None, pairs: int = 12, shares: bool = True,
            rows=None, on_parting=None) -> dict:
    """The explanation of a streamed comparison's last update (what
    ``workbench compare`` prints under the verdict): the decided metric it
    explains, where the paired games part ways (the flipped games first), the
    cards whose use moved most and, for several edits, each edit's share.
    ``on_parting(doc)`` is called with the explanation so far as soon as the
    parting and the cards' use are known, before the shares' games are played
    (so a reader sees the first part seconds after the verdict)."""
    import time

    from workbench.sim.compare import flipped_games
    from workbench.sim.verdicts import HIGHER, LOWER
    start = time.perf_counter()
    # only a metric of the whole batch can be recomputed on each subset of the edits
    known = set(_flat(update.a))
    decided = [r for r in (rows or []) if r.get("direction") in (HIGHER, LOWER) and r.get("diff") is not None
               and r["key"] in known]
    main = None
    if decided:
        def size(r):
            m = r.get("margin") or 0
            return abs(r["diff"]) / m if m else abs(r["diff"]) / (abs(r.get("old") or 0) + 1e-9)
        main = max(decided, key=size)
    flipped = [f["index"] for f in flipped_games(update.a, update.b)]
    indices = (flipped + [i for i in range(update.games) if i not in flipped])[:pairs]
    out = {"metric": main["key"] if main else None,
           "parting": divergence(update.a.spec, update.b.spec, indices),
           "card_use": card_use_shift(update.a, update.b)}
    out["seconds_to_parting"] = round(time.perf_counter() - start, 2)
    if on_parting is not None:
        on_parting(dict(out))
    if shares and main and len(edits) > 1:
        spec = update.a.spec.with_(games=update.games)
        out["shares"] = edit_shares(game_id, edits, spec, main["key"], workers=workers, folder=folder,
                                    baseline=metric_value(update.a, main["key"]),
                                    full=metric_value(update.b, main["key"]))
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out


def parting_lines(e: dict) -> list[str]:
    """The first part of the explanation in lines (``compare`` prints them
    under the verdict, the Cards page shows them beside it): where the paired
    games part ways, and the cards whose use moved most."""
    part = e["parting"]
    out = [f"why ({e['seconds_to_parting']:.1f} s after the verdict):"]
    if part["parted"]:
        kinds = ", ".join(f"{k['kind']} {k['games']}" for k in part["by_kind"][:4])
        cards = ", ".join(f"{c['card']} {c['games']}" for c in part["by_card"][:4])
        out.append(f"  paired games part ways in {part['parted']} of {part['games']} replayed "
                   f"(median move {part['median_move']}): by kind of move {kinds}"
                   + (f"; by card {cards}" if cards else ""))
        for x in part["examples"][:2]:
            out.append(f"    game {x['index']}, move {x['move']}: {x['old']!r} on the old pool, "
                       f"{x['new']!r} on the new")
    else:
        out.append(f"  the {part['games']} replayed paired games are move for move the same")
    if e["card_use"]:
        out.append("  cards whose use moved most (times taken per game): "
                   + ", ".join(f"{c['card']} {c['old']:.2f} -> {c['new']:.2f}" for c in e["card_use"][:5]))
    return out


def share_lines(e: dict) -> list[str]:
    """Each edit's share of the explained metric, largest first (none: no lines)."""
    sh = e.get("shares")
    if not (sh and sh.get("shares")):
        return []
    out = [f"  each edit's share of {e['metric']} {sh['old']:.3g} -> {sh['new']:.3g} ({sh['method']}, "
           f"{sh['games']} more games, {e['seconds']:.1f} s after the verdict):"]
    for s in sorted(sh["shares"], key=lambda s: -abs(s["contribution"])):
        share = "-" if s["share"] is None else f"{s['share']:.0%}"
        out.append(f"    {s['edit'][0]}.{s['edit'][1]}={s['edit'][2]}: {s['contribution']:+.3g} ({share})")
    return out
