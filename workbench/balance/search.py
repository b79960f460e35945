"""The balance search: an Optuna study over draft card values.

Each trial sets every variable (Optuna's TPE sampler proposes the values; the
first trial is the pool as it is), writes the edited card files to a scratch
folder, and plays ``games_per_trial`` bot games at every player count a target
names, always on the same seeds (the master seed is fixed, so game ``i`` has
the same shuffle in every trial: the trials are paired and chance cancels in
their comparison). The trial's loss is the sum over targets and player counts
of how far each metric lies outside its band, plus a small cost per step of
change (``change_cost`` x the total distance from the current values), so that
of two proposals that fit equally the one that changes less wins.

The study lives in a SQLite file (Optuna's RDB storage) when ``study_path`` is
given: running again with the same file resumes it (only the missing trials
are played); a file made for other targets, variables or settings is refused.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from workbench.core.errors import DataError, WorkbenchError

from .pools import game_ref, write_pool
from .targets import Target, player_counts
from workbench.tweak.variables import Variable

STUDY_NAME = "balance"


@dataclass
class BalanceSpec:
    """What a balance run searches for (everything that decides its trials)."""

    game: str
    targets: list[Target]
    vary: list[str]
    trials: int = 20
    games_per_trial: int = 16
    seed: int = 1
    bots: str = "greedy"
    players: int | None = None
    allow_seed: bool = False
    change_cost: float = 0.002
    #: the search aims this far inside every band (``Target.miss``); the fresh
    #: check still judges against the band itself
    margin: float = 0.0
    workers: int | None = None
    scheduler: str | None = None
    study_path: Path | None = None

    def fingerprint(self) -> str:
        """What a resumed study must share with the one on disk."""
        doc = {"game": self.game, "targets": [t.text for t in self.targets], "vary": list(self.vary),
               "games_per_trial": self.games_per_trial, "seed": self.seed, "bots": self.bots,
               "players": self.players, "allow_seed": self.allow_seed, "change_cost": self.change_cost}
        if self.margin:  # only when set, so studies made before the option still resume
            doc["margin"] = self.margin
        return json.dumps(doc, sort_keys=True)


@dataclass
class StudyResult:
    spec: BalanceSpec
    variables: list[Variable]
    protected: list[str]
    trials: list[dict]                       # number, loss, state, values, metrics
    best: dict | None
    ran: int                                 # trials played in this call
    edits: list[dict] = field(default_factory=list)   # card, field, old, new

    @property
    def baseline(self) -> dict | None:
        return next((t for t in self.trials if t["number"] == 0 and t["state"] == "COMPLETE"), None)


def require_tweakable(game: str) -> None:
    """Refuse, in one line, a game the search does not cover (one that declares
    no ``Game.balance`` or no card graph to vary)."""
    from workbench.core.registry import require
    require(game, "balance", "balance declaration (Game.balance: targets and vary patterns)")


def open_session(game: str, folder: Path | None = None):
    from workbench.tweak import open_session
    require_tweakable(game)
    return open_session(game, folder)


def apply_values(session, raw: dict, values: dict[str, int], variables: list[Variable]) -> dict:
    """The session's card files with the variables set, validated (the
    session's own :meth:`with_values`, so every field is written exactly as an
    edit would write it). ``raw`` must be the session's files."""
    if raw is not session.raw:
        raise WorkbenchError("apply_values works on the session's own card files")
    return session.with_values(values, variables)


def measure(spec: BalanceSpec, folder: Path, counts: list[int], *, seed: int, games: int,
            progress: Callable[[int], None] | None = None, by_bot: dict | None = None) -> dict[int, object]:
    """Play ``games`` games per player count on the cards in ``folder``; returns
    ``{players: MetricData}``. ``by_bot``, when given, is filled with
    ``{players: bot_summary rows}`` (win rate and mean score per bot seated: a
    mixed table read per skill level, :func:`workbench.sim.metrics.bot_summary`)."""
    from workbench.sim import SimSpec, simulate
    from workbench.sim.metrics import bot_summary
    out = {}
    ref = game_ref(folder, spec.game)
    for n in counts:
        sim = SimSpec(ref, games=games, players=n, bots=spec.bots, seed=seed, trace=False)
        result = simulate(sim, workers=spec.workers, scheduler=spec.scheduler, progress=progress)
        out[n] = result.metric_data()
        if by_bot is not None:
            by_bot[n] = bot_summary(result)
    return out


def target_values(targets: list[Target], data: dict, default_players: int) -> dict[str, float | None]:
    """``{"metric@players": value}`` for every target at every player count it names."""
    from workbench.sim.metrics import compute
    out = {}
    for t in targets:
        for n in t.players or (default_players,):
            out[f"{t.metric}@{n}"] = compute(data[n], t.metric)
    return out


def loss_of(targets: list[Target], values: dict, default_players: int, margin: float = 0.0) -> float:
    """Sum of the targets' misses over their player counts (each band narrowed
    by ``margin``, :meth:`Target.miss`)."""
    total = 0.0
    for t in targets:
        for n in t.players or (default_players,):
            total += t.miss(values.get(f"{t.metric}@{n}"), margin)
    return total


def default_players(game: str, players: int | None) -> int:
    from workbench.core.registry import get_game
    g = get_game(game)
    return players or getattr(g, "default_players", g.min_players)


def run_study(spec: BalanceSpec, *, session=None, progress: Callable[[int, int, float | None], None] | None = None
              ) -> StudyResult:
    """Run (or resume) the study; ``progress(done, total, best_loss)`` after each trial."""
    import optuna

    if not spec.targets:
        raise WorkbenchError("give at least one --target")
    if spec.trials < 1 or spec.games_per_trial < 1:
        raise WorkbenchError("--trials and --games-per-trial must be at least 1")
    session = session or open_session(spec.game)
    from .shifts import expand
    plain, shifts, protected = expand(session, spec.vary, allow_seed=spec.allow_seed)
    # every value a trial may set: the plain variables, then each shift's members
    variables = [*plain, *(m for sh in shifts for m in sh.members)]
    n_default = default_players(spec.game, spec.players)
    counts = player_counts(spec.targets, n_default)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = None
    if spec.study_path is not None:
        path = Path(spec.study_path)
        check_study_file(path)
        from workbench.core import storage as safe
        safe.make_folder(path.parent, "--study")
        storage = f"sqlite:///{safe.check_path(path, '--study')}"
    sampler = optuna.samplers.TPESampler(seed=spec.seed, n_startup_trials=max(2, min(10, spec.trials // 3)))
    try:
        study = optuna.create_study(study_name=STUDY_NAME, storage=storage, direction="minimize",
                                    sampler=sampler, load_if_exists=True)
    except Exception as exc:  # not an Optuna database, unreadable file...
        raise WorkbenchError(f"cannot open the study {spec.study_path}: {_first_line(exc)}") from None
    stored = study.user_attrs.get("spec")
    cards = cards_hash(session.raw)
    if stored is None:
        study.set_user_attr("spec", spec.fingerprint())
        study.set_user_attr("cards", cards)
        study.set_user_attr("variables", [asdict(v) for v in variables])
        # the first trial is the pool as it stands: the proposal never does worse than it
        study.enqueue_trial({**{v.name: v.current for v in plain}, **{sh.name: 0 for sh in shifts}})
    elif stored != spec.fingerprint():
        raise WorkbenchError(f"the study in {spec.study_path} was made for other settings "
                             f"({json.loads(stored)}); use another --study file")
    elif study.user_attrs.get("cards") != cards:
        raise WorkbenchError(f"the card files changed since the study in {spec.study_path} began; "
                             "use another --study file")
    finished = [t for t in study.trials if t.state.name in ("COMPLETE", "PRUNED", "FAIL")]
    to_run = max(0, spec.trials - len(finished))
    source = session.folder

    def objective(trial) -> float:
        values = {v.name: trial.suggest_int(v.name, v.low, v.high) for v in plain}
        for sh in shifts:
            values.update(sh.values(trial.suggest_int(sh.name, sh.low, sh.high)))
        trial.set_user_attr("values", values)  # every value set (a shift's step is a parameter)
        try:
            raw = session.with_values(values, variables)
        except DataError as exc:
            trial.set_user_attr("refused", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        with tempfile.TemporaryDirectory(prefix="workbench-balance-") as tmp:
            folder = write_pool({k: raw[k] for k in raw}, source, Path(tmp))
            data = measure(spec, folder, counts, seed=spec.seed, games=spec.games_per_trial)
        metrics = target_values(spec.targets, data, n_default)
        trial.set_user_attr("metrics", metrics)
        change = sum(abs(values[v.name] - v.current) for v in variables)
        miss = loss_of(spec.targets, metrics, n_default, spec.margin)
        trial.set_user_attr("miss", miss)
        return miss + spec.change_cost * change

    done = len(finished)
    for _ in range(to_run):
        study.optimize(objective, n_trials=1, catch=())
        done += 1
        if progress:
            progress(done, spec.trials, _best_value(study))
    trials = [{"number": t.number, "state": t.state.name, "loss": t.value, "values": _values(t),
               "metrics": t.user_attrs.get("metrics", {}), "miss": t.user_attrs.get("miss"),
               "refused": t.user_attrs.get("refused")} for t in study.trials]
    complete = [t for t in trials if t["state"] == "COMPLETE"]
    best = min(complete, key=lambda t: (t["loss"], t["number"])) if complete else None
    edits = []
    if best:
        for v in variables:
            new = best["values"].get(v.name, v.current)
            if new != v.current:
                edits.append({"card": v.card, "field": v.field, "old": v.current, "new": int(new),
                              "provenance": v.provenance})
    return StudyResult(spec, variables, protected, trials, best, to_run, edits)


def _values(trial) -> dict:
    """Every card value a trial set (its parameters, with each shift's step
    spelled out; a trial stored before shifts existed has only parameters)."""
    return dict(trial.user_attrs.get("values") or trial.params)


def _best_value(study) -> float | None:
    try:
        return study.best_value
    except ValueError:
        return None


def cards_hash(raw: dict) -> str:
    """A fingerprint of the card files a study starts from."""
    return hashlib.sha1(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()[:16]


def spec_hash(spec: BalanceSpec) -> str:
    return hashlib.sha1(spec.fingerprint().encode()).hexdigest()[:10]


#: the first bytes of every SQLite 3 database file
SQLITE_HEADER = b"SQLite format 3\x00"


def check_study_file(path: Path | None) -> None:
    """Refuse, before any trial runs, a ``--study`` file that is there but is not
    a SQLite database (a folder, a FIFO, a text file...): one line, instead of
    the SQL and the link Optuna's error would print. A missing or empty file is
    a new study."""
    if path is None:
        return
    path = Path(path)
    if not path.exists():
        return
    from workbench.core.data import check_regular_file
    try:
        check_regular_file(os.stat(path), path, limit=1 << 62)
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except DataError as exc:
        raise WorkbenchError(f"--study {path} {exc.message}") from None
    except OSError as exc:
        raise WorkbenchError(f"--study {path}: cannot read it ({exc.strerror or exc})") from None
    if head and head != SQLITE_HEADER:
        raise WorkbenchError(f"--study {path} is not a SQLite file; give the .sqlite file of an earlier "
                             "study or a new file name")


def _first_line(exc: Exception) -> str:
    """An error's first line, without the SQL and background links some
    database errors append."""
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def proposal_of(spec: BalanceSpec) -> list[dict]:
    """The best trial's edits of the study stored at ``spec.study_path`` (no
    trials are run), for --undo."""
    import optuna
    if spec.study_path is None or not Path(spec.study_path).exists():
        raise WorkbenchError(f"no study file {spec.study_path}")
    check_study_file(Path(spec.study_path))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.load_study(study_name=STUDY_NAME, storage=f"sqlite:///{Path(spec.study_path).resolve()}")
        best = study.best_trial
    except Exception as exc:
        raise WorkbenchError(f"cannot read a finished study from {spec.study_path}: {_first_line(exc)}") from None
    edits = []
    values = _values(best)
    for v in study.user_attrs.get("variables", []):
        name = f"{v['card']}.{v['field']}"
        new = values.get(name, v["current"])
        if new != v["current"]:
            edits.append({"card": v["card"], "field": v["field"], "old": v["current"], "new": int(new),
                          "provenance": v["provenance"]})
    return edits
