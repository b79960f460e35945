"""Hunting for what the designer did not ask: restricted strategies raced by a
bandit, findings decided on fresh games, each with a witness game.

>>> from workbench.hunt import run_hunt
>>> report = run_hunt("my-game", players=4, budget=600)
>>> [f["title"] for f in report["findings"]]

:mod:`.space` holds the arms and questions, :mod:`.games` the games played and
their per-game values, :mod:`.search` the bandit and its stopping rules,
:mod:`.witness` the witness games. ``workbench hunt`` is the command.
"""

from __future__ import annotations

from .search import HuntResult, HuntSettings, hunt
from .space import BASELINE, KIND_WORDS, MARGINS

__all__ = ["HuntResult", "HuntSettings", "hunt", "run_hunt", "report", "MARGINS", "KIND_WORDS"]


def title(result: HuntResult, h) -> str:
    """One line naming a finding in plain words."""
    if h.kind == "seat-advantage":
        return f"seat {int(h.subject) + 1} wins more than its share"
    if h.kind == "role-advantage":
        return f"{h.subject} wins more than its share"
    if h.kind == "taker-wins":
        return f"whoever takes {h.subject} wins far more often"
    if h.kind == "taker-scores":
        return f"whoever takes {h.subject} scores far more"
    if h.kind == "ban-costs":
        return f"a seat that never takes {h.subject} scores far less"
    if h.kind == "timeouts":
        return "games time out"
    arm = result.arm(h.arm)
    what = {"force": f"always taking {arm.subject}", "ban": f"never taking {arm.subject}",
            "always": f"always making a {arm.subject!r} move", "never": f"never making a {arm.subject!r} move",
            "first": "playing the first legal move every time"}[arm.restriction.split(":")[0]]
    if arm.whole_table:
        return f"a table where every seat keeps {what[7:] if what.startswith('always ') else what} stalls"
    if h.kind == "stalls":
        return f"one seat {what} makes games time out"
    return f"{what} beats the field"


def report(result: HuntResult, *, out=None, game_id: str, extra: dict | None = None, witnesses: bool = True) -> dict:
    """The hunt as one JSON-ready document: settings, arms, findings (each
    with its effect, interval, the card or rule involved and its witness),
    the candidates not confirmed, and the games spent."""
    from . import witness as w
    played = result.played
    findings = []
    for k, h in enumerate(result.findings()):
        arm = result.arm(h.arm)
        doc = {"kind": h.kind, "title": title(result, h), "subject": h.subject,
               "involves": _involves(arm, h), "effect": h.confirm.get("mean"),
               "low": h.confirm.get("low"), "high": h.confirm.get("high"), "level": h.confirm.get("level"),
               "games": h.confirm.get("n"), "margin": h.margin,
               "screen": {"mean": h.screen.get("mean"), "games": h.screen.get("n")},
               "restriction": arm.restriction, "whole_table": arm.whole_table, "witness": None}
        if witnesses:
            wdoc = w.witness(result, h, lambda stage, arm_key, i: played.rows[stage].get(arm_key, {}).get(i))
            if wdoc is not None:
                if extra and extra.get("edits"):
                    wdoc["hunt"]["pool_edits"] = extra["edits"]
                path = w.save(wdoc, out, f"{game_id}-finding{k + 1}.json") if out is not None else None
                doc["witness"] = {"file": path, "index": wdoc["hunt"]["index"], "stage": wdoc["hunt"]["stage"],
                                  "replays": wdoc["hunt"]["replays"], "marks": wdoc["hunt"]["marks"],
                                  "winners": wdoc["hunt"]["winners"], "ending": wdoc["hunt"]["ending"],
                                  "seed": wdoc["config"]["seed"], "seats": wdoc["seats"],
                                  "moves": len(wdoc["actions"])}
        findings.append(doc)
    s = result.settings
    return {"game": game_id, **(extra or {}), "players": played.players, "bots": played.base_bots,
            "seed": played.seed, "variants": list(played.variants), "options": played.options,
            "budget": s.budget, "seconds_bound": s.seconds, "alpha": s.alpha,
            "max_confirmations": s.max_confirmations, "margins": s.margins,
            "score_scale": played.score_scale,
            "games": played.games, "elapsed": round(result.elapsed, 2), "stopped": result.stopped,
            "arms": len(result.arms) - 1, "questions": len(result.hypotheses),
            "findings": findings,
            "not_confirmed": [{"kind": h.kind, "subject": h.subject, "arm": h.arm, "screen": h.screen,
                               "confirm": h.confirm} for h in result.hypotheses if h.state == "not confirmed"],
            "open": sum(1 for h in result.hypotheses if h.state in ("screening", "candidate")),
            "dropped": sum(1 for h in result.hypotheses if h.state == "dropped")}


def _involves(arm, h) -> dict:
    if h.kind in ("taker-wins", "taker-scores", "ban-costs"):
        return {"card": h.subject}
    if h.kind in ("seat-advantage",):
        return {"seat": int(h.subject) + 1}
    if h.kind == "role-advantage":
        return {"role": h.subject}
    if arm.kind == "card":
        return {"card": arm.subject}
    if arm.kind in ("action-kind", "stall"):
        return {"move kind": arm.subject}
    if arm.kind == "fixed-line":
        return {"line": arm.subject}
    return {"rule": "the game's ending"}


def run_hunt(game_ref: str, *, players: int | None = None, bots: str = "greedy", seed: int = 1,
             variants=(), options=None, workers: int | None = None, scheduler=None, out=None,
             progress=None, witnesses: bool = True, extra: dict | None = None, **settings) -> dict:
    """Hunt ``game_ref`` (a game id or a session game's reference) and return
    :func:`report`'s document; ``settings`` go to :class:`HuntSettings`."""
    from workbench.sim.backends import default_workers, resolve_backend
    from workbench.sim.runner import resolve_game

    from .games import Played
    from .search import check_settings
    game = resolve_game(game_ref)
    n = players or game.default_players
    s = HuntSettings(**settings)
    check_settings(s)
    played = Played(game_ref, n, bots, seed, variants=variants, options=options)
    backend = resolve_backend(None, workers, scheduler, 2)
    w = workers or default_workers()
    result = hunt(game, played, s, backend=backend, workers=w, scheduler=scheduler, progress=progress)
    return report(result, out=out, game_id=game.id, extra=extra, witnesses=witnesses)
