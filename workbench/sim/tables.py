"""The three tables of a batch (games, players, cards) built from the runner's
records, one chunk at a time, and joined back in index order.

A worker turns the records of its chunk into columns (one list per column:
compact to send back, no per-row dicts); the main process makes each chunk a
polars frame and concatenates. Joining uses the same rule however the games were chunked:
frames in index order, columns in order of first appearance, a column's type
widened to the common supertype (a column that is null in one chunk takes its
type from the others), so the tables are identical for every backend and
worker count.
"""

from __future__ import annotations

from dataclasses import dataclass

#: trace columns are null in games without winners (or without tracing): kept
#: float so that every chunk has the same schema
FLOAT_COLUMNS = ("lead_change", "drama", "decisiveness")


@dataclass
class Chunk:
    """The finished games ``indices`` of one batch, column by column.

    Columns are plain lists (``{name: [value per row]}``), not polars frames:
    workers are forked, and polars' thread pool does not survive a fork, so
    frames are only built in the main process (:meth:`frames`)."""

    indices: list[int]
    games: dict
    players: dict
    cards: dict

    @property
    def start(self) -> int:
        return self.indices[0] if self.indices else -1

    def __len__(self) -> int:
        return len(self.indices)

    def frames(self):
        """(games, players, cards) as polars frames."""
        import polars as pl
        games = _frame(self.games)
        games = games.with_columns(pl.col(c).cast(pl.Float64) for c in FLOAT_COLUMNS if c in games.columns)
        if "lead_changes" in games.columns:
            games = games.with_columns(pl.col("lead_changes").cast(pl.Int64))
        cards = _frame(self.cards) if self.cards else _empty_cards()
        return games, _frame(self.players), cards


def _columns(rows: list[dict]) -> dict:
    """Rows as columns: names in order of first appearance, None where a row lacks one."""
    names: dict[str, None] = {}
    for row in rows:
        for key in row:
            names.setdefault(key)
    return {name: [row.get(name) for row in rows] for name in names}


def _frame(columns: dict):
    import polars as pl
    # strict=False: a column holding ints and floats becomes float, as it does
    # when a frame is built from rows
    return pl.DataFrame(columns, strict=False)


def _empty_cards():
    import polars as pl
    return pl.DataFrame(schema={"index": pl.Int64, "seed": pl.Int64, "card": pl.Utf8, "times_taken": pl.Int64})


def tables_from_records(records: list[dict]):
    """Three polars tables from the runner's records (in index order)."""
    import polars as pl
    games = pl.DataFrame([r["game"] for r in records], infer_schema_length=None)
    games = games.with_columns(pl.col(c).cast(pl.Float64) for c in FLOAT_COLUMNS if c in games.columns)
    if "lead_changes" in games.columns:
        games = games.with_columns(pl.col("lead_changes").cast(pl.Int64))
    players = pl.DataFrame([p for r in records for p in r["players"]], infer_schema_length=None)
    card_rows = [c for r in records for c in r["cards"]]
    cards = pl.DataFrame(card_rows, infer_schema_length=None) if card_rows else _empty_cards()
    return games, players, cards


def chunk_from_records(indices: list[int], records: list[dict]) -> Chunk:
    """Runs in a worker: plain Python only (no polars, see :class:`Chunk`)."""
    return Chunk(list(indices), _columns([r["game"] for r in records]),
                 _columns([p for r in records for p in r["players"]]),
                 _columns([c for r in records for c in r["cards"]]))


def concat_frames(frames: list):
    """Frames of consecutive chunks joined in the order given (see the module
    docstring for the rule); empty frames only count when all are empty."""
    import polars as pl
    full = [f for f in frames if f.height]
    if not full:
        return frames[0] if frames else _empty_cards()
    if len(full) == 1:
        return full[0]
    return pl.concat(full, how="diagonal_relaxed")


def join_chunks(chunks: list[Chunk]):
    """(games, players, cards) of chunks sorted by their first game index."""
    framed = [c.frames() for c in sorted(chunks, key=lambda c: c.start)]
    return tuple(concat_frames([f[k] for f in framed]) for k in range(3))
