"""A large batch written to disk as it is played: what ``workbench simulate`` runs.

:func:`workbench.sim.simulate` keeps every table in memory, which suits a
notebook. A sweep instead writes each finished chunk to a part file at once
(Parquet, in a hidden folder beside the output), so the main process holds no
per-game rows; when the batch ends the parts are joined into the output files
one part at a time, in index order and with the same rule as
:func:`workbench.sim.tables.join_chunks` (so the files equal the tables of
``simulate``). The metrics are then computed from the per-game table and the
seat and role columns of the players table; the card summary from per-block sums over
the cards file, read 2,000 games at a time. What grows with the number of
games is the per-game table (about 30 numbers a game); the per-card and
per-player rows, which took ~30-60 KB a game as Python dicts, stay on disk.

Ctrl-C stops the workers at once; the finished games are joined and written
as usual, flagged ``partial`` (Parquet key-value metadata, or the
``.meta.json`` beside CSV files), and :class:`SweepInterrupted` says how many
were kept.
"""

from __future__ import annotations

import json
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from workbench.core import storage
from workbench.core.errors import WorkbenchError

from workbench.core.counting import counted

from . import SimResult
from .backends import iter_chunks, resolve_backend
from .runner import SimSpec, game_config, resolve_game

TABLES = ("games", "players", "cards")
FORMATS = (".parquet", ".csv")


class SweepInterrupted(WorkbenchError):
    """Ctrl-C during a sweep; ``outcome`` holds what was kept."""

    def __init__(self, message: str, outcome: "SweepOutcome"):
        super().__init__(message)
        self.outcome = outcome


@dataclass
class SweepOutcome:
    result: SimResult              # metrics, card summary (cards stay a lazy scan of the file)
    written: list[str] = field(default_factory=list)
    games_done: int = 0
    partial: bool = False


def output_paths(out: str | Path) -> tuple[str, list[Path]]:
    """The format (``.parquet`` or ``.csv``) and the three paths for ``--out``:
    ``run.parquet`` -> ``run.parquet``, ``run.players.parquet``, ``run.cards.parquet``.
    Any other suffix is refused (never Parquet under a CSV name or the reverse)."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise WorkbenchError(f"--out {out}: write .parquet or .csv, not {path.suffix or 'a name without suffix'}")
    stem = path.name[:-len(suffix)]
    if not stem:
        raise WorkbenchError(f"--out {out}: give the file a name")
    return suffix, [path, path.with_name(f"{stem}.players{suffix}"), path.with_name(f"{stem}.cards{suffix}")]


def check_output(out: str | Path) -> tuple[str, list[Path]]:
    """Refuse before any game is played an output that cannot be written."""
    import os
    fmt, paths = output_paths(out)
    folder = paths[0].parent
    if not folder.is_dir():
        raise WorkbenchError(f"--out {out}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise WorkbenchError(f"--out {out}: the folder {folder} is not writable")
    for p in paths:
        if p.is_dir():
            raise WorkbenchError(f"--out {out}: {p} is a folder")
    return fmt, paths


def _validate(spec: SimSpec) -> None:
    from workbench.core.bots import make_bots
    game = resolve_game(spec.game)
    first = game_config(spec, 0)
    game.new_initial_state(first)
    make_bots(spec.bots, len(first.players))


def run_sweep(spec: SimSpec, out: str | Path | None = None, *, backend: str | None = None,
              workers: int | None = None, scheduler: str | None = None,
              progress: Callable[[int], None] | None = None, ideal_rounds=None) -> SweepOutcome:
    """Play ``spec`` writing chunks as they finish; see the module docstring.
    Without ``out`` the parts go to a temporary folder removed at the end."""
    fmt, paths = check_output(out) if out else (None, [])
    _validate(spec)
    used = resolve_backend(backend, workers, scheduler, spec.games)
    parts = storage.scratch_folder(f".{paths[0].name}.parts-" if paths else "workbench-sweep-",
                                   paths[0].parent if paths else None)
    start = time.perf_counter()
    # (first index, games) of each chunk whose three parts are all written: a
    # Ctrl-C in the middle of writing a chunk leaves it out, never half in
    committed: list[tuple[int, int]] = []
    interrupted = False
    try:
        try:
            with closing(iter_chunks(spec, backend=used, workers=workers, scheduler=scheduler)) as stream:
                for chunk in stream:
                    for name, frame in zip(TABLES, chunk.frames()):
                        frame.write_parquet(parts / f"{chunk.start:012d}.{name}.parquet")
                    committed.append((chunk.start, len(chunk)))
                    if progress:
                        progress(len(chunk))
        except KeyboardInterrupt:
            interrupted = True  # the stream is closed: workers are gone; keep what finished
        elapsed = time.perf_counter() - start
        done = sum(n for _, n in committed)
        starts = sorted(s for s, _ in committed)
        meta = {"spec": spec.to_dict(), "games_requested": spec.games, "games_done": done,
                "partial": done < spec.games, "backend": used}
        written = _join(parts, starts, paths, fmt, meta) if paths and done else []
        result = _result(spec, parts, starts, paths, fmt, done, elapsed, used, ideal_rounds) if done else None
    finally:
        storage.remove_scratch(parts)
    outcome = SweepOutcome(result, written, done, done < spec.games)
    if interrupted:
        kept = f"kept {done} of {counted(spec.games, 'game')} in {written[0]} (flagged partial)" if written else \
            (f"{done} of {counted(spec.games, 'game')} {'was' if done == 1 else 'were'} finished (add --out to keep them)" if done
             else "no game had finished")
        raise SweepInterrupted(f"interrupted: {kept}", outcome)
    return outcome


def _part_files(parts: Path, starts: list[int], name: str) -> list[Path]:
    """The committed parts of one table, in index order; an empty cards part
    (only the four base columns) is left out when others have rows, as
    :func:`workbench.sim.tables.concat_frames` does."""
    files = [parts / f"{s:012d}.{name}.parquet" for s in starts]
    full = [f for f in files if _rows(f)]
    return full or files[:1]


def _rows(path: Path) -> int:
    import pyarrow.parquet as pq
    return pq.ParquetFile(path).metadata.num_rows


def _joined_schema(files: list[Path]):
    """The schema of the joined table: the diagonal-relaxed concatenation of
    the parts' schemas (read from their footers, no rows)."""
    import polars as pl
    empties = [pl.DataFrame(schema=pl.read_parquet_schema(f)) for f in files]
    return empties[0].schema if len(empties) == 1 else pl.concat(empties, how="diagonal_relaxed").schema


def _conformed(path: Path, schema):
    """One part read and given the joined schema (missing columns null, types widened)."""
    import polars as pl
    frame = pl.read_parquet(path)
    return frame.select([pl.col(c).cast(t) if c in frame.columns else pl.lit(None, dtype=t).alias(c)
                         for c, t in schema.items()])


def _read(parts: Path, starts: list[int], name: str, columns: list[str] | None = None):
    """A whole table from its parts (for the compact games and players columns)."""
    import polars as pl
    files = _part_files(parts, starts, name)
    schema = _joined_schema(files)
    frames = [_conformed(f, schema) for f in files]
    frames = [f.select(columns) for f in frames] if columns else frames
    return frames[0] if len(frames) == 1 else pl.concat(frames)


def _join(parts: Path, starts: list[int], paths: list[Path], fmt: str, meta: dict) -> list[str]:
    """The parts joined into the output files one part at a time (memory is one
    part, whatever the number of games), written under a temporary name and
    renamed, so a failed write leaves no half file."""
    import pyarrow.parquet as pq
    written = []
    for name, target in zip(TABLES, paths):
        files = _part_files(parts, starts, name)
        schema = _joined_schema(files)
        tmp = target.with_name(f".{target.name}.tmp")
        storage.remove_file(target.parent, tmp.name)      # one an interrupted run left
        storage.check_path(tmp, "--out")
        try:
            if fmt == ".parquet":
                writer = None
                try:
                    for f in files:
                        table = _conformed(f, schema).to_arrow()
                        if writer is None:
                            arrow_schema = table.schema.with_metadata({"workbench": json.dumps(meta)})
                            writer = pq.ParquetWriter(tmp, arrow_schema)
                        writer.write_table(table.replace_schema_metadata(arrow_schema.metadata))
                finally:
                    if writer is not None:
                        writer.close()
            else:
                with storage.open_new(tmp, "--out") as fh:
                    for k, f in enumerate(files):
                        _conformed(f, schema).write_csv(fh, include_header=k == 0)
            storage.replace(tmp, target, "--out")
        except OSError as exc:
            storage.remove_file(tmp.parent, tmp.name)
            raise WorkbenchError(f"cannot write {target}: {exc.strerror or exc}") from None
        written.append(str(target))
    if fmt == ".csv":
        stem = paths[0].name[:-len(".csv")]
        side = paths[0].with_name(f"{stem}.meta.json")
        storage.write_text(side, json.dumps(meta, indent=1) + "\n", "--out")
        written.append(str(side))
    return written


def _result(spec, parts: Path, starts, paths, fmt, done, elapsed, used, ideal_rounds) -> SimResult:
    """A SimResult over the finished games: the games table and the players'
    (index, seat, won) in memory; the cards as a lazy scan, read only by the
    card summary, block by block."""
    import polars as pl
    games = _read(parts, starts, "games")
    # score too: the tie-break share of workbench.sim.metrics compares final scores;
    # role: the role metrics group the wins by it
    players = _read(parts, starts, "players", ["index", "seat", "won", "score", "role"])
    if paths and fmt == ".parquet":
        cards = pl.scan_parquet(paths[2])
    else:
        files = _part_files(parts, starts, "cards")
        schema = _joined_schema(files)
        cards = pl.concat([pl.scan_parquet(f).select(
            [pl.col(c).cast(t) if c in pl.read_parquet_schema(f) else pl.lit(None, dtype=t).alias(c)
             for c, t in schema.items()]) for f in files])
    if ideal_rounds is None:
        ideal_rounds = getattr(resolve_game(spec.game), "ideal_rounds", None)
    result = SimResult(spec.with_(games=done) if done != spec.games else spec, games, players, cards, elapsed,
                       used, tuple(ideal_rounds) if ideal_rounds else None)
    if not (paths and fmt == ".parquet"):
        # the parts are removed at the end: summarise the card rows while they exist
        result.card_summary()
        result.metrics()  # action and card usage read the card rows too
    return result


def read_metadata(path: str | Path) -> dict:
    """The sweep's metadata (spec, games done, partial) from a Parquet output
    or from the ``.meta.json`` beside a CSV output."""
    path = Path(path)
    if path.suffix == ".csv":
        return json.loads(path.with_name(path.name[:-4] + ".meta.json").read_text(encoding="utf-8"))
    import pyarrow.parquet as pq
    kv = pq.read_metadata(path).metadata or {}
    return json.loads(kv[b"workbench"])
