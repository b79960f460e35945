"""Per-card impact, as the Cards page's card-impact table shows it: what the
takers of each card gained in a batch of games (their win share, survival at a
cooperative table, and their edge over the other seats of the same game, each
with its interval), and what banning one card changes (paired games of one
seat that never takes it against the same seat free to take it).

The takers' figures are associations read from games already played: takers
may win because leaders take the card. The ban is the causal test, played on
request (it costs games): the hunt's ``ban:CARD`` arm and its per-game values
(:mod:`.games`), so the two read alike. It lives with the hunt, whose paired
games it plays; the Cards page (a higher layer) calls it.
"""

from __future__ import annotations

import polars as pl

from workbench.sim.intervals import mean


def card_impact(result, level: float = 0.95) -> list[dict]:
    """One row per card taken in ``result`` (a batch's
    :class:`~workbench.sim.runner.BatchResult`), most-taken first: games that
    took it, the takers' win share and win edge over the other seats (mean and
    interval over the games that took it; None bounds with too few games)."""
    cards = result.cards
    if cards.height == 0 or "times_taken" not in cards.columns:
        return []
    taken = cards.filter(pl.col("times_taken") > 0)
    out = []
    for card, group in taken.group_by("card"):
        name = card[0] if isinstance(card, tuple) else card
        row = {"card": name, "games": group.height}
        for key, column in (("win_share", "taker_win_share"), ("win_edge", "taker_win_edge")):
            x = group[column].drop_nulls().drop_nans().to_numpy() if column in group.columns else []
            iv = mean(x, level)
            row[key] = float(x.mean()) if len(x) else None
            row[f"{key}_low"], row[f"{key}_high"] = iv.pair()
        out.append(row)
    out.sort(key=lambda r: (-r["games"], r["card"]))
    return out


def ban_impact(game_ref: str, card: str, *, players: int, bots: str = "greedy", seed: int = 1, games: int = 40,
               workers: int | None = 1, level: float = 0.95, options=None) -> dict:
    """What never taking ``card`` does to a seat: ``games`` paired games (the
    banned seat rotating, so a seat's own advantage cancels) of one seat on
    ``ban:CARD`` against the same seat of the base game, on the same seeds.
    Returns the change in that seat's win credit and in its final score (in
    score spreads of the base games), each with its interval: negative means
    the card helps its seat."""
    from .games import Played, values
    from .space import BASELINE, Arm
    from workbench.sim.backends import resolve_backend
    if ":" in card or "," in card:
        raise ValueError(f"{card!r} cannot be banned: a bot spec cannot hold ':' or ','")
    n = -(-games // players) * players
    played = Played(game_ref, players, bots, seed, options=options)
    backend = resolve_backend(None, workers, None, 2)
    base = Arm(BASELINE, None, BASELINE)
    ban = Arm(f"ban:{card}", f"ban:{card}", "card", card)
    played.play([(base, "screen", n)], backend=backend, workers=max(1, workers or 1))
    scale = played.fix_score_scale()
    played.play([(ban, "screen", n)], backend=backend, workers=max(1, workers or 1))
    out = {"card": card, "games": n, "players": players, "score_scale": scale}
    # beats-field: the banned seat's credit minus its credit unbanned; ban-costs: the
    # score it lost (unbanned minus banned), turned so both read "banned minus free"
    for key, kind, sign in (("win_change", "beats-field", 1.0), ("score_change", "ban-costs", -1.0)):
        x = sign * values(played, "screen", kind, ban.key, ban.key if kind == "beats-field" else card)
        if kind == "ban-costs" and not scale:
            out[key], out[f"{key}_low"], out[f"{key}_high"] = None, None, None
            continue
        iv = mean(x, level)
        out[key] = float(x.mean()) if len(x) else None
        out[f"{key}_low"], out[f"{key}_high"] = iv.pair()
    return out
