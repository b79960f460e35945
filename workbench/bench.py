"""The measurements behind ``workbench bench``.

Each figure is a function returning a dict with the measured value, its
target, and a verdict (met, or missed by how much). ``quick`` runs a tenth of
each sweep (a fiftieth of the greedy one) and scales the time up linearly,
which the figure says.

Per-game figures (one section per game, :data:`GAME_FIGURES`)
--------------------------------------------------------------
``engine``        random legal play of the game on one core (setup, choosing
                  and applying all counted), as a ratio to the same loop over
                  OpenSpiel's pure-Python ``python_tic_tac_toe`` measured in
                  the same run: the two alternate in short slices so a change
                  of machine load hits both (target: at least 4x). The spread
                  of the per-slice ratios is reported beside it.
``greedy``        whole games with greedy bots in every seat on one core,
                  games/s. The reference game (the one with
                  ``Game.bench_greedy_target``: 90 games/s, what 10,000 games
                  in 60 s on 2 workers need at the 1.85x scaling target) has
                  its own target; every other game's is 0.9 x the reference's
                  games/s in the same run (issue 47). Where valgrind is
                  installed, the instructions a greedy game costs beside it
                  (:mod:`workbench.callgrind`: load-independent).
``paired``        the card page's progressive paired playtest
                  (:mod:`workbench.sim.progressive`) through the card session
                  (``TweakSession.stream_playtest``) after a typical one-card
                  edit (``Game.bench_edit``: a draft value raised by one):
                  seconds from asking to the first update on screen (a preview
                  or a look), 200 greedy games per arm at most (target 1 s), its games,
                  the same after a second edit, and (not quick) where the full
                  run ended. A game without a card session bans seat 1 from its
                  most taken card instead.

Batch figures (``--game``'s first game, :data:`BATCH_FIGURES`)
------------------------------------------------------------
``sweep-random``  10,000 games with random bots on every core (target 30 s).
``sweep-greedy``  10,000 games with greedy bots on every core (target 60 s).
``scaling``       the same random sweep on 2 workers vs 1 (target 1.85x), best
                  of two runs each, 10,000 games (quick: 2,000): with the
                  compiled rules of the first listed game 2,000 games take under a second
                  on 2 workers, where fixed costs (forking, the first chunk)
                  are no longer small beside the work.
``dask``          the same sweep (10,000 games) on a 2-worker Dask LocalCluster vs a 2-process
                  pool (target: at most 15% slower; cluster start-up reported
                  separately, not counted), best of two runs each.
``startup``       ``workbench --help`` wall time, best of 5 (target 0.3 s).
"""

from __future__ import annotations

import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from workbench.core.rng import Rng, derive_seed

#: figures measured for every game, one section each
GAME_FIGURES = ["engine", "greedy", "paired"]
#: figures of the batch machinery, measured once (on the first game asked for)
BATCH_FIGURES = ["sweep-random", "sweep-greedy", "scaling", "dask", "startup", "rooms", "rooms-resume"]
ALL_FIGURES = GAME_FIGURES + BATCH_FIGURES



def _verdict(value: float, target: float, higher_is_better: bool) -> tuple[bool, str]:
    if target == 0:   # "none at all" (moves lost): no percentage of zero to speak of
        met = value >= 0 if higher_is_better else value <= 0
        return met, ("met" if met else f"MISSED ({value:g} against none)")
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


def random_play_rate(new_state, seconds: float = 0.0, max_actions: int = 100000,
                     games_to_play: int | None = None) -> tuple[float, int, int]:
    """Actions per second of uniformly random legal play: setup, legal listing
    and application all counted. ``new_state(i)`` makes the i-th fresh game.
    Plays for ``seconds``, or exactly ``games_to_play`` games when given (a count
    that does not depend on the machine: ``analyses/callgrind_engine.py``)."""
    rng = Rng(derive_seed(0, "bench"))
    new_state(0)  # warm-up: card data loading and first imports are not timed
    actions = games = 0
    start = time.perf_counter()
    while (games < games_to_play if games_to_play is not None
           else time.perf_counter() - start < seconds):
        state = new_state(games)
        n = 0
        sample = getattr(state, "sample_legal_action", None)
        while not state.is_terminal() and n < max_actions:
            if sample is None:  # OpenSpiel's states: list, then draw
                legal = state.legal_actions()
                state.apply_action(legal[rng.randbelow(len(legal))])
            else:  # ours: the same draw, without listing where the game can
                state.apply_action(sample(rng)[0])
            n += 1
        actions += n
        games += 1
    return actions / (time.perf_counter() - start), actions, games


def openspiel_new_state():
    """A maker of fresh ``python_tic_tac_toe`` states, or None without OpenSpiel."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("python_tic_tac_toe")
    return lambda i: game.new_initial_state()


def openspiel_rate(seconds: float) -> float | None:
    new_state = openspiel_new_state()
    return None if new_state is None else random_play_rate(new_state, seconds)[0]


def fig_engine(game_id, players, quick, note):
    """Random play of ``game_id`` as a ratio to OpenSpiel's tic-tac-toe: both
    loops alternate in slices (5 each, quick 3), so the ratio compares the two
    under the same load; its spread over the slices says how steady it was."""
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_id)
    slices = 3 if quick else 5
    secs = 0.4 if quick else 0.8
    ours = lambda i: game.new_initial_state(game.config(players, seed=i))  # noqa: E731
    ttt = openspiel_new_state()
    note(f"engine: random legal play of {game_id}, {slices} slices of {secs:.1f} s"
         + (", each followed by one of OpenSpiel's python_tic_tac_toe ..." if ttt else " ..."))
    rates, refs = [], []
    for _ in range(slices):
        rates.append(random_play_rate(ours, secs)[0])
        if ttt:
            refs.append(random_play_rate(ttt, secs)[0])
    rate = sum(rates) / len(rates)
    label = f"engine: {game_id} random play / OpenSpiel tic-tac-toe, 1 core"
    if not refs:
        return [_figure("engine", f"engine: {game_id} random play, 1 core", rate, "actions/s", 69000, True,
                        "OpenSpiel not installed: compared with catanatron's ~69,000 instead",
                        actions_per_second=rate)]
    ref = sum(refs) / len(refs)
    ratios = [a / b for a, b in zip(rates, refs)]
    build = _build_of(game_id)
    return [_figure("engine", label, rate / ref, "x", 4.0, True,
                    f"{rate:,.0f} vs {ref:,.0f} actions/s; per-slice ratios "
                    f"{min(ratios):.2f}-{max(ratios):.2f} over {slices} slices; {build}",
                    actions_per_second=rate, openspiel_actions_per_second=ref,
                    ratio_min=min(ratios), ratio_max=max(ratios), build=build)]


def _build_of(game_id: str) -> str:
    """Whether this game's rules ran compiled (the optional build of
    :mod:`workbench.native`) or as plain Python, and why."""
    from workbench import native
    from workbench.sim.runner import resolve_game      # a registered id or a plugin's module path
    package = type(resolve_game(game_id)).__module__.rsplit(".", 1)[0] + "."
    compiled = any(m.startswith(package) for m in native.COMPILED_MODULES)
    if not compiled:
        return "plain Python (no compiled build of this game)"
    return native.status


def greedy_play_rate(game, players: int, seconds: float = 0.0,
                     games_to_play: int | None = None) -> tuple[float, int, int]:
    """``(games per second, actions, games)`` of whole games with greedy bots in
    every seat (seeds 0, 1, ...), for ``seconds`` (at least 2 games) or exactly
    ``games_to_play`` games (``workbench.callgrind`` counts the latter). One
    game on another seed first, untimed: card data and first imports."""
    from workbench.core.bots import make_bots
    from workbench.core.play import play_game
    play_game(game, game.config(players, seed=10**6), make_bots("greedy", players))  # warm-up
    games = actions = 0
    start = time.perf_counter()
    while (games < games_to_play if games_to_play is not None
           else time.perf_counter() - start < seconds or games < 2):
        _, log = play_game(game, game.config(players, seed=games), make_bots("greedy", players))
        actions += len(log)
        games += 1
    return games / (time.perf_counter() - start), actions, games


#: greedy games per second each game should reach as a share of the reference
#: game's (the one with ``Game.bench_greedy_target``) in the same run (issue 47)
GREEDY_SHARE_OF_REFERENCE = 0.9
#: games counted under callgrind for the greedy figure (not counted with --quick)
GREEDY_CALLGRIND_GAMES = 4


def fig_greedy(game_id, players, quick, note):
    """Whole greedy games on one core, games/s (the look-ahead is most of it),
    and, where valgrind is installed, the instructions a greedy game costs
    (callgrind: the same loop, load-independent). The other games' target is
    set after all sections ran (:func:`_greedy_against_reference`)."""
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_id)
    secs = 1.5 if quick else 5.0
    note(f"greedy: greedy games of {game_id} for {secs:.1f} s ...")
    rate, actions, games = greedy_play_rate(game, players, secs)
    took = games / rate
    text = f"{games} games, {actions / games:.0f} actions and {took / games * 1000:.0f} ms each"
    extra = {"ms_per_game": took / games * 1000, "build": _build_of(game_id)}
    from workbench import callgrind
    if quick:   # valgrind runs Python ~50x slower: a quick look leaves the count out, and says so
        extra["callgrind_error"] = "not counted with --quick"
    elif callgrind.available():
        n = GREEDY_CALLGRIND_GAMES
        note(f"greedy: {n} greedy games of {game_id} under callgrind ...")
        try:
            counted = callgrind.per_game("greedy", game_id, n)
        except RuntimeError as err:
            extra["callgrind_error"] = str(err).splitlines()[0]
        else:
            extra["instructions_per_game"] = counted["instructions_per_game"]
            extra["instructions_per_action"] = counted["instructions_per_action"]
            extra["callgrind_games"] = n
            text += (f"; callgrind: {counted['instructions_per_game'] / 1e6:,.0f} M instructions a game "
                     f"({n} games)")
    else:
        extra["callgrind_error"] = "valgrind is not installed"
    target = game.bench_greedy_target
    label = f"greedy: {game_id} greedy games, 1 core"
    if target is None:
        return [{"name": "greedy", "label": label, "value": rate, "unit": "games/s", "target": None,
                 "met": None, "verdict": "(no target)", "shown": f"{rate:.1f} games/s",
                 "target_text": "(none)", "note": text, **extra}]
    return [_figure("greedy", label, rate, "games/s", target, True,
                    text + f"; target: 10,000 games in {SWEEP_GREEDY_TARGET_S:.0f} s on 2 workers at 1.85x scaling",
                    reference=True, **extra)]


def _greedy_against_reference(sections: list[dict]) -> None:
    """Give every other game's greedy figure the same-run target: at least
    :data:`GREEDY_SHARE_OF_REFERENCE` of the reference game's games/s (the game
    with its own target), and the ratio of instructions a game where callgrind
    counted both."""
    figures = [(s["game"], f) for s in sections for f in s["figures"]
               if f.get("name") == "greedy" and "value" in f]
    ref = next(((g, f) for g, f in figures if f.get("reference")), None)
    if ref is None:
        return
    ref_game, ref_fig = ref
    for game_id, fig in figures:
        if fig is ref_fig:
            continue
        ratio = fig["value"] / ref_fig["value"]
        met, verdict = _verdict(ratio, GREEDY_SHARE_OF_REFERENCE, True)
        fig.update(target=GREEDY_SHARE_OF_REFERENCE * ref_fig["value"], met=met, verdict=verdict,
                   target_text=f">= {GREEDY_SHARE_OF_REFERENCE:g} x {ref_game}'s {ref_fig['value']:.1f} games/s",
                   ratio_to_reference=ratio, reference_game=ref_game)
        fig["note"] += f"; {ratio:.2f}x {ref_game}'s greedy games/s in this run"
        if fig.get("instructions_per_game") and ref_fig.get("instructions_per_game"):
            ic = ref_fig["instructions_per_game"] / fig["instructions_per_game"]
            fig["callgrind_ratio_to_reference"] = ic
            fig["note"] += f" ({ic:.2f}x by callgrind instructions a game)"


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
    n = 2000 if quick else 10000
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
        from dask.distributed import Client
    except ImportError:
        return [{"name": "dask", "label": "dask: LocalCluster vs pool", "error": "dask is not installed"}]
    from workbench.sim import SimSpec
    from workbench.sim.backends import local_cluster, run_dask
    n = 2000 if quick else 10000
    note(f"dask: {n:,} random games on a 2-process pool, then on a 2-worker LocalCluster ...")
    pool = min((_sweep(game_id, players, "random", n, backend="pool", workers=2) for _ in range(2)),
               key=lambda r: r.elapsed)
    t0 = time.perf_counter()
    cluster = local_cluster(2)
    client = Client(cluster)
    startup = time.perf_counter() - t0
    try:
        spec = SimSpec(game=game_id, games=n, players=players, bots="random", seed=2026)
        # one warm-up task so that importing the engine on the workers is not timed
        run_dask(SimSpec(game=game_id, games=2, players=players, bots="random", seed=1), client=client)
        dask_seconds = None
        for _ in range(2):  # best of two, as the pool above
            t0 = time.perf_counter()
            games, player_rows, cards = run_dask(spec, client=client)
            took = time.perf_counter() - t0
            dask_seconds = took if dask_seconds is None else min(dask_seconds, took)
    finally:
        client.close()
        cluster.close()
    same = games.equals(pool.games) and player_rows.equals(pool.players) and cards.equals(pool.cards)
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


#: the benchmark's one-card edit per game: the first draft value this names
#: (a ``--vary`` pattern of the card session) is raised by one
PAIRED_BUDGET = 200
#: seconds to the first verdict on screen a designer should wait at most, on a
#: quiet machine (issue 30 tightened it from 2 s: more paired games in the same
#: seconds is what a trustworthy verdict needs)
PAIRED_FIRST_VERDICT_S = 1.0
#: seconds for 10,000 greedy games on 2 workers (issue 30; was 120 s)
SWEEP_GREEDY_TARGET_S = 60.0


def _first_verdict(session, players, budget, full):
    """Seconds from asking for the streamed playtest to its first update, that
    update, and the last one (``full``: the run played to its end)."""
    t0 = time.perf_counter()
    stream = session.stream_playtest(n=budget, players=players, workers=None)
    first = last = None
    looked = None   # seconds to the first scheduled look (one that may decide)
    with closing(stream):
        for update in stream:
            if first is None:
                first = (time.perf_counter() - t0, update)
            if looked is None and not update.preview:
                looked = time.perf_counter() - t0
            last = update
            if not full:
                break
    return first[0], first[1], last, looked


def _paired_with_tweak(game_id, players, budget, quick):
    """The card page's streamed playtest (``TweakSession.stream_playtest``)
    after a typical one-card edit (``Game.bench_edit``): the first playtest of
    a fresh session, then again after a second edit of the same value (the
    designer's next step: warm process, the game's pace known). Returns
    (first verdict s, note, extra) or None for a game without a card session."""
    from workbench.core.errors import WorkbenchError
    from workbench.tweak import open_session
    from workbench.sim.runner import resolve_game
    pattern = resolve_game(game_id).bench_edit
    if pattern is None:
        return None
    t0 = time.perf_counter()
    try:
        session = open_session(game_id)
    except WorkbenchError:
        return None  # the card page does not edit this game
    opened = time.perf_counter() - t0
    var = session.variables([pattern])[0][0]
    session.edit(var.card, var.field, var.current + 1)
    took, first, last, looked = _first_verdict(session, players, budget, full=not quick)
    session.edit(var.card, var.field, var.current + 2)
    again, second, _, _ = _first_verdict(session, players, budget, full=False)
    verdicts = "; ".join(f"{r['metric']} {r['verdict']}" for r in first.rows)
    kind = "preview" if first.preview else "look"
    text = (f"session opened in {opened:.1f} s; {var.card}'s {var.field} {var.current} -> {var.current + 1}: "
            f"first update a {kind} of {first.games} games per pool ({verdicts}); looks at "
            f"{', '.join(map(str, first.schedule))}. After a second edit ({var.current + 2}): "
            f"{again:.2f} s, {second.games} games")
    if not quick:
        text += (f". Full run: first look ({first.schedule[0]} games) after {looked:.1f} s, ended at "
                 f"{last.games} of {budget} games per pool after {last.elapsed:.1f} s"
                 f" ({'every metric decided' if last.decided else 'budget spent'}: "
                 + "; ".join(f"{r['metric']} {r['verdict']}" for r in last.rows) + ")")
    return took, text, {"edit": f"{var.card}.{var.field} {var.current} -> {var.current + 1}",
                        "first_update_games": first.games, "first_update_preview": first.preview,
                        "schedule": first.schedule, "second_edit_seconds": again,
                        "second_edit_games": second.games,
                        "first_look_seconds": None if quick else looked,
                        "final_games": None if quick else last.games,
                        "final_decided": None if quick else last.decided,
                        "total_seconds": None if quick else last.elapsed}


def fig_paired(game_id, players, quick, note):
    """Time to the first verdict of the progressive paired playtest, 200 greedy
    games per arm at most (quick: only up to the first look)."""
    from workbench.sim import SimSpec
    from workbench.sim.progressive import paired_playtest
    budget = PAIRED_BUDGET
    label = f"paired playtest: first verdict ({budget} greedy games x 2 budget)"
    note(f"paired: streamed paired playtest of a one-card edit, greedy, up to {budget} games per arm ...")
    tweak = _paired_with_tweak(game_id, players, budget, quick)
    if tweak is not None:
        took, text, extra = tweak
        return [_figure("paired", label, took, "s", PAIRED_FIRST_VERDICT_S, False, text, **extra)]
    # a game without a card session: arm B bans seat 1 from the card arm A takes most
    spec = SimSpec(game=game_id, games=budget, players=players, bots="greedy", seed=2026, trace=False)
    from workbench.sim import simulate
    probe = simulate(spec.with_(games=20), workers=0).card_summary()
    # the most taken card a bot spec can name (a comma or colon would split the spec)
    card = next((c for c in probe["card"] if "," not in c and ":" not in c), None) if probe.height else None
    other = spec.with_(bots=f"ban:{card}:greedy,greedy") if card else spec
    t0 = time.perf_counter()
    stream = paired_playtest(spec, other, watch=["completion", "duration_rounds", "score_spread"])
    with closing(stream):
        first = next(stream)
        took = time.perf_counter() - t0
        last = first
        if not quick:
            for last in stream:
                pass
    text = f"arm B bans {card!r} for seat 1; first update at {first.games} games per arm"
    if not quick:
        text += f"; run ended at {last.games} games after {last.elapsed:.1f} s"
    return [_figure("paired", label, took, "s", PAIRED_FIRST_VERDICT_S, False, text, first_update_games=first.games,
                    first_update_preview=first.preview)]


def fig_rooms(game_id, players, quick, note):
    """5 playtest rooms of 4 people at once on a real server (workbench.rooms.bench)."""
    from workbench.rooms.bench import latency
    moves, cycles = (10, 2) if quick else (40, 4)
    note(f"rooms: 5 rooms x 4 seats on a served {game_id}, {moves} moves each, {cycles} cycles ...")
    r = latency(game_id, rooms=5, seats=4, moves=moves, cycles=cycles)
    spread = f"{r['deliveries']:,} deliveries; p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms"
    return [_figure("rooms", "rooms: a move reaching every seat (median)", r["median_ms"], "ms", 300, False, spread),
            _figure("rooms", "rooms: server memory growth after the first cycle",
                    max(r["rss_growth_mb_after_first_cycle"], 0.0), "MB", 5, False,
                    f"resident MB after each cycle: {r['rss_mb_after_each_cycle']}")]


def fig_rooms_resume(game_id, players, quick, note):
    """kill -9 of a process playing rooms, then a restart from the journal."""
    from workbench.rooms.bench import resume_tries
    tries = 5 if quick else 20
    note(f"rooms-resume: {tries} kills with SIGKILL mid-game ...")
    r = resume_tries(tries, game_id)
    return [_figure("rooms-resume", f"rooms: moves lost over {tries} kill -9 restarts", r["moves_lost"], "moves", 0,
                    False, f"{r['acknowledged_moves_checked']:,} acknowledged moves checked")]


FIGURE_MAKERS = {
    "engine": fig_engine,
    "greedy": fig_greedy,
    "paired": fig_paired,
    "sweep-random": lambda *a: fig_sweep(*a, bots="random", target=30.0),
    "sweep-greedy": lambda *a: fig_sweep(*a, bots="greedy", target=SWEEP_GREEDY_TARGET_S, quick_share=50),
    "scaling": fig_scaling,
    "dask": fig_dask,
    "startup": fig_startup,
    "rooms": fig_rooms,
    "rooms-resume": fig_rooms_resume,
}


def run_figures(game_id: str, players: int, *, quick: bool = False, only=None, note=lambda s: None) -> list[dict]:
    """Every requested figure for one game; one that cannot be measured carries ``error``."""
    from workbench.core.errors import WorkbenchError
    figures = []
    for name in only or ALL_FIGURES:
        try:
            figures.extend(FIGURE_MAKERS[name](game_id, players, quick, note))
        except WorkbenchError as exc:
            figures.append({"name": name, "label": name, "error": str(exc)})
    return figures


def game_players(game_id: str, players: int | None) -> int:
    """``players`` if given, else the game's default table size."""
    if players:
        return players
    from workbench.sim.runner import resolve_game
    game = resolve_game(game_id)
    return game.default_players


def run_sections(game_ids, players: int | None, *, quick: bool = False, only=None,
                 note=lambda s: None) -> tuple[list[dict], list[dict]]:
    """``(sections, batch)``: one section ``{game, players, figures}`` per game with
    its per-game figures, then the batch figures measured on the first game."""
    only = list(only or ALL_FIGURES)
    per_game = [n for n in only if n in GAME_FIGURES]
    batch_names = [n for n in only if n in BATCH_FIGURES]
    sections = []
    if per_game:
        for game_id in game_ids:
            n = game_players(game_id, players)
            sections.append({"game": game_id, "players": n,
                             "figures": run_figures(game_id, n, quick=quick, only=per_game, note=note)})
        _greedy_against_reference(sections)
    batch = []
    if batch_names:
        first = game_ids[0]
        batch = run_figures(first, game_players(first, players), quick=quick, only=batch_names, note=note)
    return sections, batch


def play_loop(loop: str, what: str, games: int) -> int:
    """The bench's ``loop`` (``random`` or ``greedy``) for exactly ``games``
    fixed-seed games of ``what`` (a game id, or ``tic-tac-toe`` for OpenSpiel's,
    random play only); the actions played. What :mod:`workbench.callgrind`
    counts, in a child process: ``python -m workbench.bench --loop LOOP WHAT N``."""
    if what == "tic-tac-toe":
        new_state = openspiel_new_state()
        if new_state is None:
            raise SystemExit("OpenSpiel is not installed")
        return random_play_rate(new_state, games_to_play=games)[1]
    from workbench.sim.runner import resolve_game
    game = resolve_game(what)
    if loop == "greedy":
        return greedy_play_rate(game, game.default_players, games_to_play=games)[1]
    new_state = lambda i: game.new_initial_state(game.config(game.default_players, seed=i))  # noqa: E731
    return random_play_rate(new_state, games_to_play=games)[1]


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--loop" and sys.argv[2] in ("random", "greedy"):
        print("actions", play_loop(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        sys.exit("usage: python -m workbench.bench --loop random|greedy GAME N (workbench bench measures)")
