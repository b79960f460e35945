"""The games the differential test replays, and how one case is fingerprinted.

Shared by ``regenerate.py`` (which writes the golden fingerprints) and
``tests/test_differential.py`` (which checks them), so both always play exactly
the same cases the same way.

A *play case* is one ``workbench play GAME --players N --seed S --bots B
[--variant V ...] [--option K=V ...] --json``, run in-process through the
command line's own entry point; its fingerprint is the SHA-256 of the exact
bytes printed. A *sim case* is one ``workbench.sim.simulate`` batch on the
serial backend; its fingerprint is the SHA-256 of each of its three tables
(games, players, cards) written as CSV (every column the tables of
``workbench simulate`` and ``--out`` are built from; wall-clock time is not
part of them).

The case lists are generated from a fixed recipe (no randomness at all), so a
case's position in the list never changes unless the recipe does.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from typing import Iterator

# -- the recipe ---------------------------------------------------------------

#: Meaning Made: every player count 1-6, every variant alone, and the ruling
#: switches that change play (each option with a non-default value)
MM_VARIANTS = [(), ("faster-game",), ("hard-mode",), ("cooperative",), ("competitive",), ("long-game",),
               ("high-instability",), ("limited-recycle",), ("pattern-fatigue",), ("social-requirement",),
               ("hard-mode", "pattern-fatigue"), ("faster-game", "limited-recycle")]
MM_OPTIONS = [{}, {"contributors": "printed"}, {"conversion": False}, {"recycle_marker_only": "unstarted"},
              {"prerequisites": "contribution"}, {"first_player_rotates": True}, {"fragile_table": "group"},
              {"fragile_repeat": True}, {"touchpoint_limit": "both"}, {"conversion_action": True},
              {"marker_only": "layers"}, {"bare_marker": True}, {"difficulty": "hard"}, {"round_limit": 8}]

#: Mandate 2038: 2-5 players and its three ruling switches
MD_OPTIONS = [{}, {"jv_colocated": True}, {"systemic_risk_on_customer": False}, {"jv_range_checked_once": True}]

#: Pax Transhumanity: 1-4 players and its ruling switches
PX_OPTIONS = [{}, {"labour_move": "unemployment"}, {"subsidy_rule": "both"}, {"surge_reach": "adjacent"},
              {"plurality_commercialized": "normal"}, {"round_limit": 12}]


def play_cases(game: str) -> list[dict]:
    """Every ``workbench play`` case of ``game``, in a fixed order."""
    out: list[dict] = []
    if game == "meaning-made":
        for i in range(216):
            players = 1 + i % 6
            variants = MM_VARIANTS[i % len(MM_VARIANTS)] if i % 3 else ()
            options = MM_OPTIONS[(i // 3) % len(MM_OPTIONS)] if i % 2 else {}
            if players == 1 and options.get("round_limit"):
                options = {}
            out.append(_case(game, players, 100 + i, "random", variants, options))
        for i in range(36):  # greedy and mixed tables
            players = 1 + i % 6
            bots = "greedy" if i % 3 or players == 1 else "greedy,random"
            variants = MM_VARIANTS[(5 * i) % len(MM_VARIANTS)] if i % 4 == 1 else ()
            out.append(_case(game, players, 500 + i, bots, variants, {}))
        for i in range(2):  # MCTS playouts draw through sample_legal_action
            out.append(_case(game, 2 + 2 * i, 700 + i, "mcts:5,random", (), {}))
        # a random bot behind a restricted list (seeds where the card is on offer)
        for seed, bots in [(807, "ban:Shell:random,random"), (807, "force:Shell:random,random"),
                           (808, "ban:Shell:greedy,greedy")]:
            out.append(_case(game, 3, seed, bots, (), {}))
    elif game == "mandate-2038":
        for i in range(208):
            players = 2 + i % 4
            options = MD_OPTIONS[(i // 4) % len(MD_OPTIONS)]
            out.append(_case(game, players, 100 + i, "random", (), options))
        for i in range(8):
            players = 2 + i % 4
            bots = "greedy" if i % 2 else "greedy,random"
            out.append(_case(game, players, 500 + i, bots, (), {}))
        for i in range(2):  # MCTS playouts draw through sample_legal_action
            out.append(_case(game, 2 + 2 * i, 700 + i, "mcts:5,random", (), {}))
    elif game == "pax-transhumanity":
        for i in range(200):
            players = 1 + i % 4
            options = PX_OPTIONS[(i // 4) % len(PX_OPTIONS)]
            out.append(_case(game, players, 100 + i, "random", (), options))
        for i in range(8):
            players = 1 + i % 4
            bots = "greedy" if i % 2 or players == 1 else "greedy,random"
            out.append(_case(game, players, 500 + i, bots, (), {}))
        for seed, bots in [(811, "ban:Airborne Wind Kite:random,random"),
                           (807, "force:Airborne Wind Kite:random,random")]:
            out.append(_case(game, 3, seed, bots, (), {}))
    else:
        raise ValueError(game)
    return out


def sim_cases(game: str) -> list[dict]:
    """The ``simulate`` batches of ``game`` (serial backend)."""
    players = {"meaning-made": 4, "mandate-2038": 4, "pax-transhumanity": 3}[game]
    out = [{"game": game, "games": 12, "players": players, "bots": "random", "seed": 7},
           {"game": game, "games": 3, "players": players, "bots": "greedy", "seed": 8}]
    if game == "meaning-made":
        out.append({"game": game, "games": 8, "players": 2, "bots": "random", "seed": 9,
                    "variants": ["high-instability"]})
    return out


def _case(game: str, players: int, seed: int, bots: str, variants, options) -> dict:
    return {"game": game, "players": players, "seed": seed, "bots": bots,
            "variants": list(variants), "options": dict(options)}


# -- fingerprints ---------------------------------------------------------------

def play_argv(case: dict) -> list[str]:
    """The command line of a play case, as a user would type it."""
    argv = ["play", case["game"], "--players", str(case["players"]), "--seed", str(case["seed"]),
            "--bots", case["bots"], "--json"]
    for v in case["variants"]:
        argv += ["--variant", v]
    for k, v in case["options"].items():
        argv += ["--option", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    return argv


def play_digest(case: dict) -> str:
    """SHA-256 of what ``workbench play ... --json`` prints for ``case``."""
    from workbench.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(play_argv(case))
    if code != 0:
        raise RuntimeError(f"workbench {' '.join(play_argv(case))} exited {code}")
    return hashlib.sha256(buf.getvalue().encode("utf-8")).hexdigest()


def sim_digests(case: dict) -> dict[str, str]:
    """SHA-256 of each table of a ``simulate`` batch, written as CSV."""
    from workbench.sim import SimSpec, simulate
    spec = SimSpec(game=case["game"], games=case["games"], players=case["players"], bots=case["bots"],
                   seed=case["seed"], variants=tuple(case.get("variants", ())))
    res = simulate(spec, backend="serial", workers=0)
    return {name: hashlib.sha256(table.write_csv().encode("utf-8")).hexdigest()
            for name, table in (("games", res.games), ("players", res.players), ("cards", res.cards))}


def case_label(case: dict) -> str:
    if "games" in case:
        return f"simulate {case['game']} --games {case['games']} --players {case['players']} " \
               f"--bots {case['bots']} --seed {case['seed']}" + \
               "".join(f" --variant {v}" for v in case.get("variants", ()))
    return "workbench " + " ".join(play_argv(case))


def iter_all(game: str) -> Iterator[tuple[str, dict]]:
    for case in play_cases(game):
        yield "play", case
    for case in sim_cases(game):
        yield "simulate", case


# -- a covering sample, for the build the suite does not run ---------------------

def _features(case: dict) -> set[tuple]:
    """What a case exercises: its player count, each seat's bot, each variant,
    each option value, and each pairing of players with a bot kind."""
    bots = case["bots"].split(",")
    out = {("players", case["players"])} | {("bot", b.split(":")[0]) for b in bots}
    out |= {("with", case["players"], b.split(":")[0]) for b in bots}
    out |= {("variant", v) for v in case["variants"]}
    out |= {("option", k, str(v)) for k, v in case["options"].items()}
    return out


def covering_sample(cases: list[dict], every: int = 0) -> list[int]:
    """Positions of a sample of ``cases`` that still exercises every player count,
    bot kind (and each with each player count), variant and option value at least once: a greedy set cover over :func:`_features` (first
    case first on ties, so the sample is fixed by the recipe), and, when
    ``every`` is given, every ``every``-th case besides. The other build's differential run plays these
    (the compiled build the suite runs plays every case)."""
    wanted = set().union(*(_features(c) for c in cases))
    chosen: set[int] = set(range(0, len(cases), every)) if every else set()
    for i in chosen:
        wanted -= _features(cases[i])
    while wanted:
        best = max(range(len(cases)), key=lambda i: (len(_features(cases[i]) & wanted), -i))
        chosen.add(best)
        wanted -= _features(cases[best])
    return sorted(chosen)
