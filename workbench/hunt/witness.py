"""Witness games: one confirm game per finding that shows it, replayed move
by move, with the decisive moves marked, saved as a game the Play page opens.

A witness is chosen among the finding's own confirm games: for a restriction,
a game the restricted seat won where the same seat in the paired baseline
game (same seed) did not; for a ban that costs score, the game where the
seat without the card fell furthest below its paired game; for a seat or
role, a game that seat won; for a card, a game its taker won (or, for its
takers' score, the game they outscored the others most); for timeouts, a game
that timed out. It is played
again here with the same bots and seed, and ``replays`` says whether that
replay ended as the batch game did (it must: the same seed and actions give
the same game). Marks name the moves that carry the finding: where the
restriction bound (the card or kind taken, or refused while on offer), where
the paired games first part ways, where the winning seat took the lead for
good.
"""

from __future__ import annotations

import json

from workbench.core.bots import make_bots
from workbench.core.history import SAVE_FORMAT
from workbench.core.play import bot_rngs
from workbench.core.policies import action_kind_of
from workbench.sim.runner import TIMEOUT, game_config, resolve_game

from .space import BASELINE


def replay(played, arm, stage: str, index: int) -> dict:
    """Play game ``index`` of ``arm`` in ``stage`` again, recording every move:
    the config, bots, moves (notation, seat, cards, kind), result."""
    seat = index % played.players
    spec = played.spec(arm, stage, seat)
    game = resolve_game(spec.game)
    config = game_config(spec, index)
    bots = make_bots(spec.bots, len(config.players))
    rngs = bot_rngs(config)
    state = game.new_initial_state(config)
    moves = []
    while not state.is_terminal() and len(moves) < spec.max_actions:
        who = state.current_player()
        action = bots[who].choose(game, state, rngs[who])
        moves.append({"ply": len(moves), "seat": who, "move": game.format_action(state, action),
                      "cards": list(game.action_cards(state, action)), "kind": action_kind_of(game, state, action)})
        state.apply_action(action)
    res = game.result(state)
    ending = TIMEOUT if (not state.is_terminal() or res.ending == TIMEOUT) else res.ending
    names = list(config.players)
    return {"game": game, "config": config, "bots": [repr(b) for b in bots], "moves": moves,
            "winners": [] if ending == TIMEOUT else list(res.winners), "ending": ending,
            "scores": {n: res.scores.get(n, 0) for n in names}, "restricted_seat": seat, "state": state}


def _lead_for_good(game, config, moves, seat: int) -> int | None:
    """The ply after which ``seat`` led (by ``Game.evaluate``) to the end."""
    state = game.new_initial_state(config)
    last_not = None
    for m in moves:
        state.apply_action(game.parse_action(state, m["move"]))
        if state.is_terminal():
            break
        vals = [game.evaluate(state, s) for s in range(len(config.players))]
        if vals[seat] < max(vals) or vals.count(max(vals)) > 1:
            last_not = m["ply"]
    return None if last_not is None else last_not + 1


def choose(result, h) -> tuple[str, int] | None:
    """(stage, index) of the game that shows finding ``h``, or None."""
    played = result.played
    rows = played.rows["confirm"]
    base = rows.get(BASELINE, {})
    n = played.players
    if h.kind == "beats-field":
        for i, row in sorted(rows.get(h.arm, {}).items()):
            b = base.get(i)
            if b is not None and row.credit[i % n] > 0 and b.credit[i % n] == 0:
                return "confirm", i
    if h.kind == "ban-costs":
        # the game where the seat without the card fell furthest below its paired game
        losses = [(b.score[i % n] - row.score[i % n], i) for i, row in sorted(rows.get(h.arm, {}).items())
                  if (b := base.get(i)) is not None and b.score and row.score]
        gap, i = max(losses, key=lambda t: (t[0], -t[1]), default=(0.0, None))
        if i is not None and gap > 0:
            return "confirm", i
    if h.kind == "taker-scores":
        gains = [(row.taker_score[h.subject], i) for i, row in sorted(base.items()) if h.subject in row.taker_score]
        gap, i = max(gains, key=lambda t: (t[0], -t[1]), default=(0.0, None))
        if i is not None and gap > 0:
            return "confirm", i
    if h.kind == "stalls":
        for i, row in sorted(rows.get(h.arm, {}).items()):
            b = base.get(i)
            if b is not None and row.timeout and not b.timeout:
                return "confirm", i
    for i, row in sorted(base.items()):
        if h.kind == "seat-advantage" and row.credit[int(h.subject)] > 0:
            return "confirm", i
        if h.kind == "role-advantage" and any(row.credit[s] > 0 and row.roles[s] == h.subject for s in range(n)):
            return "confirm", i
        if h.kind == "taker-wins" and row.taker_edge.get(h.subject, 0) > 0:
            return "confirm", i
        if h.kind == "timeouts" and row.timeout:
            return "confirm", i
    return None


def witness(result, h, expected_row) -> dict | None:
    """The witness of finding ``h``: the replayed game with marks, the paired
    baseline game for a restriction, and whether it replays the batch game."""
    picked = choose(result, h)
    if picked is None:
        return None
    stage, index = picked
    played = result.played
    arm = result.arm(h.arm)
    game_ = replay(played, arm, stage, index)
    marks = []
    pair_marks = []   # plies of the paired baseline game, kept beside its moves
    seat = game_["restricted_seat"]
    names = list(game_["config"].players)
    pair = None
    if h.arm != BASELINE:
        pair = replay(played, result.arm(BASELINE), stage, index)
        for a, b in zip(game_["moves"], pair["moves"]):
            if a["move"] != b["move"]:
                marks.append({"ply": a["ply"], "why": f"the games part ways here: {b['move']!r} in the "
                                                       f"baseline game, {a['move']!r} with the restriction"})
                break
        subject = arm.subject.lower()
        restricted = range(len(names)) if arm.whole_table else [seat]
        for m in game_["moves"]:
            if m["seat"] not in restricted:
                continue
            hit = (subject in {c.lower() for c in m["cards"]}) if arm.kind == "card" else m["kind"] == subject
            if hit and arm.restriction.startswith(("force", "always")):
                marks.append({"ply": m["ply"], "why": f"{names[m['seat']]} plays the restriction: {m['move']}"})
        if h.kind == "ban-costs" and pair is not None:
            mine, theirs = game_["scores"][names[seat]], pair["scores"][names[seat]]
            for m in pair["moves"]:
                if m["seat"] == seat and subject in {c.lower() for c in m["cards"]}:
                    pair_marks.append({"ply": m["ply"], "why": f"in this paired baseline game {names[seat]} takes "
                                                          f"{arm.subject} here; banned from it, "
                                                          f"{names[seat]} ends on {mine:g} instead of {theirs:g}"})
                    break
    elif h.kind == "taker-wins":
        for m in game_["moves"]:
            if h.subject.lower() in {c.lower() for c in m["cards"]} and names[m["seat"]] in game_["winners"]:
                marks.append({"ply": m["ply"], "why": f"{names[m['seat']]} takes {h.subject} and goes on to win"})
    elif h.kind == "taker-scores":
        others = {}
        for m in game_["moves"]:
            if h.subject.lower() in {c.lower() for c in m["cards"]} and names[m["seat"]] not in others:
                who = names[m["seat"]]
                rest = [v for k, v in game_["scores"].items() if k != who]
                others[who] = sum(rest) / len(rest) if rest else 0.0
                marks.append({"ply": m["ply"], "why": f"{who} takes {h.subject} and ends on "
                                                      f"{game_['scores'][who]:g} (the others' mean {others[who]:g})"})
    elif h.kind in ("seat-advantage", "role-advantage"):
        winner = next((s for s in range(len(names)) if names[s] in game_["winners"]), None)
        if winner is not None:
            ply = _lead_for_good(game_["game"], game_["config"], game_["moves"], winner)
            if ply is not None and ply < len(game_["moves"]):
                marks.append({"ply": ply, "why": f"{names[winner]} takes the lead for good here"})
    if h.kind in ("stalls", "timeouts") and game_["moves"]:
        marks.append({"ply": len(game_["moves"]) - 1,
                      "why": f"the game is cut off here after {len(game_['moves'])} moves (timeout)"})
    marks.sort(key=lambda m: m["ply"])
    row = expected_row(stage, h.arm, index)
    replays = (row is not None and bool(row.timeout) == (game_["ending"] == TIMEOUT)
               and [c > 0 for c in row.credit] == [n in game_["winners"] for n in names]
               and (not row.score or row.score == [float(game_["scores"][n]) for n in names]))
    doc = {"format": SAVE_FORMAT, "game": game_["game"].id, "config": game_["config"].to_dict(),
           "actions": [m["move"] for m in game_["moves"]], "cursor": marks[0]["ply"] if marks else 0,
           "seats": game_["bots"],
           "hunt": {"finding": h.key, "stage": stage, "index": index, "marks": marks,
                    "winners": game_["winners"], "ending": game_["ending"],
                    "restricted_seat": names[seat] if h.arm != BASELINE else None, "replays": replays}}
    if pair is not None:
        doc["hunt"]["baseline"] = {"winners": pair["winners"], "ending": pair["ending"], "seats": pair["bots"],
                                   "actions": [m["move"] for m in pair["moves"]], "marks": pair_marks,
                                   "scores": pair["scores"]}
    doc["hunt"]["scores"] = game_["scores"]
    return doc


def save(doc: dict, folder, name: str) -> str:
    """Write a witness into ``folder`` (through the safety module); returns its path."""
    from workbench.core import storage
    root = storage.make_folder(folder, "--out")
    path = storage.inside(root, name, "--out")
    storage.write_text(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "--out")
    return str(path)
