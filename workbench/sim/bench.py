"""The measurements behind ``workbench bench``.

Each figure is a function returning a dict with the measured value, its
target, and a verdict (met, or missed by how much). ``quick`` runs a tenth of
each sweep (a fiftieth of the greedy one) and scales the time up linearly,
which the figure says.

Figures
-------
``engine``        random legal play of the game on one core, actions/s, legal
                  listing and setup included; the same loop over OpenSpiel's
                  pure-Python ``python_tic_tac_toe`` is the reference (target:
                  at least 4x its rate).
``sweep-random``  10,000 games with random bots on every core (target 30 s).
``sweep-greedy``  10,000 games with greedy bots on every core (target 120 s).
``scaling``       the same random sweep on 2 workers vs 1 (target 1.85x), best
                  of two runs each.
``dask``          the same sweep on a 2-worker Dask LocalCluster vs a 2-process
                  pool (target: at most 15% slower; cluster start-up reported
                  separately, not counted), best of two runs each.
``startup``       ``workbench --help`` wall time, best of 5 (target 0.3 s).
``paired``        the card page's progressive paired playtest
                  (:mod:`workbench.sim.progressive`): seconds to the first verdict,
                  200 greedy games per arm at most (target 2 s); the full run's
                  length and where it stopped are in the note (quick: first look
                  only). Uses ``TweakSession.stream_playtest`` (one Pattern's cost
                  raised) when it handles the game, else bans seat 1 from the card
                  taken most in a probe batch.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from workbench.core.rng import Rng, derive_seed

ALL_FIGURES = ["engine", "sweep-random", "sweep-greedy", "scaling", "dask", "startup", "paired"]


def _verdict(value: float, target: float, higher_is_better: bool) -> tuple[bool, str]:
    if higher_is_better:
        met = value >= target
        pct = (value / target - 1) * 100 if met else (1 - value / target) * 100
    else:
        met = value <= target
        pct = (1 - value / target) * 100 if met else (value / target - 1) * 100
    return met, (f"met ({pct:.0f}% to spare)" if met else f"MISSED by {pct:.0f}%")


def _figure(name, label, value, unit, target, higher, note="", **extra) -> dict:
    met, verdict = _verdict(value, target, higher)
    shown = f"{value:,.0f} {unit}" if value >= 100 else f"{value:.2f} {unit}"
    target_text = f"{'>=' if higher else '<='} {target:,.0f} {unit}" if target >= 100 else \
        f"{'>=' if higher else '<='} {target:g} {unit}"
    return {"name": name, "label": label, "value": value, "unit": unit, "target": target,
            "higher_is_better": higher, "met": met, "verdict": verdict, "shown": shown,
            "target_text": target_text, "note": note, **extra}


def random_play_rate(new_state, seconds: float, max_actions: int = 100000) -> tuple[float, int, int]:
    """Actions per second of uniformly random legal play: setup, legal listing
    and application all counted. ``new_state(i)`` makes the i-th fresh game."""
    rng = Rng(derive_seed(0, "bench"))
    new_state(0)  # warm-up: card data loading and first imports are not timed
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state(games)
        n = 0
        while not state.is_terminal() and n < max_actions:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
            n += 1
        actions += n
        games += 1
    return actions / (time.perf_counter() - start), actions, games


def openspiel_rate(seconds: float) -> float | None:
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("python_tic_tac_toe")
    return random_play_rate(lambda i: game.new_initial_state(), seconds)[0]


def fig_engine(game_id, players, quick, note):
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_id)
    secs = 1.0 if quick else 3.0
    note(f"engine: random legal play of {game_id} for {secs:.0f} s ...")
    rate, actions, games = random_play_rate(
        lambda i: game.new_initial_state(game.config(players, seed=i)), secs)
    note("engine: the same loop over OpenSpiel's python_tic_tac_toe ...")
    ref = openspiel_rate(secs)
    out = []
    if ref:
        fig = _figure("engine", f"engine: {game_id} random play, 1 core", rate, "actions/s", 4 * ref, True,
                      f"{actions:,} actions in {games} games; target = 4x OpenSpiel python_tic_tac_toe; "
                      f"catanatron reports ~69,000", ratio_to_openspiel=rate / ref)
        out.append(fig)
        out.append({"name": "engine-openspiel", "label": "reference: OpenSpiel python_tic_tac_toe",
                    "value": ref, "unit": "actions/s", "target": None, "met": None,
                    "verdict": f"ratio {rate / ref:.1f}x", "shown": f"{ref:,.0f} actions/s",
                    "target_text": "(reference)", "note": ""})
    else:
        out.append(_figure("engine", f"engine: {game_id} random play, 1 core", rate, "actions/s", 69000, True,
                           "OpenSpiel not installed: compared with catanatron's ~69,000 instead"))
    return out


def _sweep(game_id, players, bots, n, **run):
    from workbench.sim import SimSpec, simulate
    spec = SimSpec(game=game_id, games=n, players=players, bots=bots, seed=2026)
    return simulate(spec, **run)


def fig_sweep(game_id, players, quick, note, bots, target, quick_share=10):
    from workbench.sim import default_workers
    full = 10000
    n = full // quick_share if quick else full
    workers = default_workers()
    note(f"sweep-{bots}: {n:,} games, {bots} bots, {workers} workers ...")
    res = _sweep(game_id, players, bots, n, workers=workers)
    seconds = res.elapsed * full / n
    text = (f"{n:,} games took {res.elapsed:.1f} s, extrapolated to {full:,}" if quick
            else f"{res.games['actions'].sum():,} actions, {full / res.elapsed:.0f} games/s")
    return [_figure(f"sweep-{bots}", f"sweep: {full:,} games, {bots} bots, {workers} workers", seconds, "s",
                    target, False, text, games=n, measured_seconds=res.elapsed)]


def fig_scaling(game_id, players, quick, note):
    """2 workers vs 1 on the same random sweep, best of two runs each (taken
    alternately, so a neighbour's burst of load hits both alike)."""
    n = 400 if quick else 2000
    note(f"scaling: {n:,} random games on 1 worker, then on 2, twice ...")
    runs = {1: [], 2: []}
    for _ in range(2):
        for w in (1, 2):
            runs[w].append(_sweep(game_id, players, "random", n, backend="pool", workers=w))
    one = min(runs[1], key=lambda r: r.elapsed)
    two = min(runs[2], key=lambda r: r.elapsed)
    same = one.games.equals(two.games) and one.players.equals(two.players) and one.cards.equals(two.cards)
    return [_figure("scaling", "scaling: 2 workers vs 1", one.elapsed / two.elapsed, "x", 1.85, True,
                    f"{n:,} games, best of 2: {one.elapsed:.2f} s vs {two.elapsed:.2f} s; tables identical: {same}",
                    identical=same)]


def fig_dask(game_id, players, quick, note):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        return [{"name": "dask", "label": "dask: LocalCluster vs pool", "error": "dask is not installed"}]
    from workbench.sim import SimSpec
    from workbench.sim.backends import run_dask
    n = 400 if quick else 2000
    note(f"dask: {n:,} random games on a 2-process pool, then on a 2-worker LocalCluster ...")
    pool = min((_sweep(game_id, players, "random", n, backend="pool", workers=2) for _ in range(2)),
               key=lambda r: r.elapsed)
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    startup = time.perf_counter() - t0
    try:
        spec = SimSpec(game=game_id, games=n, players=players, bots="random", seed=2026)
        # one warm-up task so that importing the engine on the workers is not timed
        run_dask(SimSpec(game=game_id, games=2, players=players, bots="random", seed=1), client=client)
        dask_seconds = None
        for _ in range(2):  # best of two, as the pool below
            t0 = time.perf_counter()
            games, players, cards = run_dask(spec, client=client)
            took = time.perf_counter() - t0
            dask_seconds = took if dask_seconds is None else min(dask_seconds, took)
    finally:
        client.close()
        cluster.close()
    same = games.equals(pool.games) and players.equals(pool.players) and cards.equals(pool.cards)
    return [_figure("dask", "dask: LocalCluster time / pool time", dask_seconds / pool.elapsed, "x", 1.15, False,
                    f"{n:,} games, best of 2: pool {pool.elapsed:.2f} s, Dask {dask_seconds:.2f} s "
                    f"(+{startup:.1f} s cluster start-up, not counted); tables identical: {same}",
                    identical=same)]


def fig_startup(game_id, players, quick, note):
    script = Path(sys.executable).with_name("workbench")
    cmd = [str(script), "--help"] if script.exists() else [sys.executable, "-m", "workbench.cli", "--help"]
    note("startup: workbench --help, best of 5 ...")
    best = None
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        took = time.perf_counter() - t0
        best = took if best is None else min(best, took)
    return [_figure("startup", "start-up: workbench --help", best, "s", 0.3, False, "best of 5 runs")]


def _paired_with_tweak(game_id, players, budget, quick):
    """The card page's streaming playtest (``TweakSession.stream_playtest``), if
    it handles this game: one Pattern's Energy cost raised by one, greedy games
    on the old and the new pool. Returns (first verdict s, note, extra) or None."""
    import importlib.util
    from workbench.core.errors import WorkbenchError
    if importlib.util.find_spec("workbench.graphs.tweak") is None:
        return None
    from workbench.graphs.tweak import TweakSession
    try:
        session = TweakSession(game_id)
    except WorkbenchError:
        return None  # the card page does not edit this game
    row = session.table().filter(session.table()["kind"] == "pattern").row(0, named=True)
    session.edit(row["name"], "E", int(row["E"]) + 1)
    t0 = time.perf_counter()
    first = last = None
    stream = session.stream_playtest(n=budget, players=players, workers=None)
    for update in stream:
        first = first or (time.perf_counter() - t0, update)
        last = update
        if quick:
            stream.close()  # quick: the first verdict is the figure
            break
    took, update = first
    verdicts = "; ".join(f"{r['metric']} {r['verdict']}" for r in update.rows)
    text = (f"stream_playtest after raising {row['name']}'s Energy cost {row['E']} -> {int(row['E']) + 1}: "
            f"first look at {update.games} games per pool ({verdicts})")
    if not quick:
        text += (f"; run ended at {last.games} of {budget} games per pool after {last.elapsed:.1f} s"
                 f" ({'every metric decided' if last.decided else 'budget spent'})")
    return took, text, {"first_look_games": update.games, "final_games": None if quick else last.games,
                        "total_seconds": None if quick else last.elapsed}


def fig_paired(game_id, players, quick, note):
    """Time to the first verdict of the progressive paired playtest, 200 greedy
    games per arm at most (quick: only up to the first look)."""
    from workbench.sim import SimSpec
    from workbench.sim.progressive import paired_playtest
    budget = 200
    note(f"paired: streaming paired playtest, greedy, up to {budget} games per arm ...")
    tweak = _paired_with_tweak(game_id, players, budget, quick)
    if tweak is not None:
        took, text, extra = tweak
        return [_figure("paired", f"paired playtest: first verdict ({budget} greedy games x 2 budget)", took, "s",
                        2.0, False, text, **extra)]
    # another game: arm B bans seat 1 from the card arm A takes most
    spec = SimSpec(game=game_id, games=budget, players=players, bots="greedy", seed=2026, trace=False)
    from workbench.sim import simulate
    probe = simulate(spec.with_(games=20), workers=0).card_summary()
    card = probe["card"][0] if probe.height else None
    other = spec.with_(bots=f"ban:{card}:greedy,greedy") if card else spec
    t0 = time.perf_counter()
    stream = paired_playtest(spec, other, watch=["completion", "duration_rounds", "score_spread"])
    first = next(stream)
    took = time.perf_counter() - t0
    last = first
    if not quick:
        for last in stream:
            pass
    stream.close()
    text = f"arm B bans {card!r} for seat 1; first look at {first.games} games per arm"
    if not quick:
        text += f"; run ended at {last.games} games after {last.elapsed:.1f} s"
    return [_figure("paired", f"paired playtest: first verdict ({budget} greedy games x 2 budget)", took, "s", 2.0,
                    False, text, first_look_games=first.games)]


def run_figures(game_id: str, players: int, *, quick: bool = False, only=None, note=lambda s: None) -> list[dict]:
    """Every requested figure; one that cannot be measured carries ``error``."""
    from workbench.core.errors import WorkbenchError
    makers = {
        "engine": fig_engine,
        "sweep-random": lambda *a: fig_sweep(*a, bots="random", target=30.0),
        "sweep-greedy": lambda *a: fig_sweep(*a, bots="greedy", target=120.0, quick_share=50),
        "scaling": fig_scaling, "dask": fig_dask, "startup": fig_startup, "paired": fig_paired,
    }
    figures = []
    for name in only or ALL_FIGURES:
        try:
            figures.extend(makers[name](game_id, players, quick, note))
        except WorkbenchError as exc:
            figures.append({"name": name, "label": name, "error": str(exc)})
    return figures
