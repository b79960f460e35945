"""Python checks of Meaning Made's computable clauses and of its rulings file.

Each check plays seeded games with random moves and compares what the engine did
with the rule written out again here, independently of the engine's own
bookkeeping: the Stability Window's cap and who may donate, Fragile
following Vitals, and a new game's setup. (``rulings.yaml`` is checked beside the switches it names,
:func:`.data.rulings_problems`.)
"""

from __future__ import annotations

from workbench.core.rng import Rng, derive_seed
from workbench.rules.checks import check

from .notation import Donate

G = "meaning-made"


def _random_games(games: int = 12, limit: int = 400):
    """(state before, action, state after) of seeded random games, 1 to 6 players."""
    from .game import GAME
    for i in range(games):
        players = 1 + i % 6
        state = GAME.new_initial_state(GAME.config(players, seed=derive_seed(14, "check", i)))
        rng = Rng(derive_seed(14, "moves", i))
        for _ in range(limit):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = legal[rng.randbelow(len(legal))]
            before = state.clone()
            state.apply_action(action)
            yield before, action, state


@check(f"{G}/round/stability-cap", f"{G}/round/stability-window")
def stability_window_cap_and_donors():
    """No round raises Meaning by more than the cap through donations; a donor is
    not Fragile, pays 1 Support and raises Meaning by 1."""
    problems = []
    donated: dict[tuple, int] = {}
    for before, action, after in _random_games():
        if not (isinstance(action, Donate) and action.donate):
            continue
        seat = before.decider
        key = (id(before.config), before.config.seed, before.round)
        donated[key] = donated.get(key, 0) + 1
        p, q = before.players[seat], after.players[seat]
        if p.fragile:
            problems.append(f"seed {before.config.seed} round {before.round}: a Fragile player donated")
        # a donation that closes the window also plays the next round's Event
        # phase within the same action, and an Event may take Support: the
        # cost is read only where the action stayed inside the round
        if after.round == before.round and q.S != p.S - 1:
            problems.append(f"seed {before.config.seed} round {before.round}: a donation cost {p.S - q.S} Support")
        if donated[key] > before.rules.stability_cap:
            problems.append(f"seed {before.config.seed} round {before.round}: {donated[key]} donations, "
                            f"cap {before.rules.stability_cap}")
    return problems[:5]


@check(f"{G}/tracks/fragile", f"{G}/tracks/fragile-recovery")
def fragile_follows_vitals():
    """After every action a player is Fragile exactly when their Vitals are 0."""
    problems = []
    for _, action, after in _random_games(8):
        for seat, p in enumerate(after.players):
            if p.fragile != (p.vitals == 0):
                problems.append(f"seed {after.config.seed}, after {action}: seat {seat} Vitals {p.vitals}, "
                                f"Fragile {p.fragile}")
    return problems[:5]


@check(f"{G}/setup/initiative-index", f"{G}/setup/first-player", f"{G}/setup/decks")
def a_new_game_is_set_up():
    """A new game (not a scenario's position, which states its own) at every player count:
    three different face-up Initiatives, none of them the End Initiative, the rest in the
    Initiative deck; the first seat (or the one option first_player names) starts round 1
    at World Layer 1."""
    from .game import GAME
    problems = []
    for n in range(1, 7):
        state = GAME.new_initial_state(GAME.config(n, seed=derive_seed(14, "setup", n)))
        index = list(state.index)
        total = len(state.cards.initiatives)
        if None in index or len(set(index)) != 3 or state.end in index:
            problems.append(f"{n} players: face-up Initiatives {index} (End Initiative {state.end})")
        if len(state.init_deck) + len(index) + 1 != total or set(state.init_deck) & set(index):
            problems.append(f"{n} players: {len(state.init_deck)} in the Initiative deck beside {index}, of {total}")
        if (state.first, state.seat, state.round, state.world_layer) != (0, 0, 1, 1):
            problems.append(f"{n} players: first seat {state.first}, to move {state.seat}, round {state.round}, "
                            f"World Layer {state.world_layer}")
        if n > 1:   # a chosen starting player (option first_player): the last seat
            config = GAME.config(n, seed=derive_seed(14, "setup", n))
            last = config.players[-1]
            state = GAME.new_initial_state(GAME.config(n, seed=config.seed, first_player=last))
            if (state.first, state.seat) != (n - 1, n - 1):
                problems.append(f"{n} players, {last} chosen to start: first seat {state.first}, to move {state.seat}")
    return problems[:5]


@check(f"{G}/variants/limited-recycle")
def limited_recycle_copy_holds_its_own_record():
    """Limited Recycle: once per round each. A copy of a position is its own: recycling
    on the copy leaves the original able to recycle (a look-ahead that recycles does not
    spend the table's recycle)."""
    from .game import GAME
    from .notation import Recycle
    for seed in (3, 8, 21):
        state = GAME.new_initial_state(GAME.config(3, seed=seed, variants=("limited-recycle",)))
        rng = Rng(derive_seed(seed, "moves", 0))
        for _ in range(200):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            recycles = [a for a in legal if type(a) is Recycle]
            if recycles:
                copy = state.clone()
                copy.apply_action(recycles[0])
                if state.legal_actions() != legal:
                    return [f"seed {seed}: recycling on a copy changed what the original offers"]
                return []
            state.apply_action(legal[rng.randbelow(len(legal))])
    return ["no seeded game reached a Recycle under Limited Recycle"]
