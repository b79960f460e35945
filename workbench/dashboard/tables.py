"""Card tables in Tabulator: a polars table as the pandas frame Tabulator
shows, and an in-place update that sends only the cells that changed (the
Cards page's pool, the Graph page's analyses)."""

from __future__ import annotations


def table_frame(table):
    """The polars card table as the pandas frame Tabulator shows. An integer
    column with gaps (a field only some kinds of card have) stays whole numbers
    and blanks: pandas would make it floats, and the page would print 2.0 and NaN."""
    import pandas as pd
    frame = table.to_pandas()
    for name, dtype in zip(table.columns, table.dtypes):
        if dtype.is_integer() and table[name].null_count():
            frame[name] = pd.Series(table[name].to_list(), dtype=object)
    return frame


def patch_table(table, frame) -> None:
    """Make ``table`` show ``frame`` by patching the cells that differ; a
    change of rows or columns replaces the whole value."""
    old = table.value
    if old is None or list(old.columns) != list(frame.columns) or len(old) != len(frame):
        table.value = frame
        return
    patch: dict[str, list] = {}
    for col in frame.columns:
        a, b = old[col].tolist(), frame[col].tolist()
        changed = [(i, v) for i, (u, v) in enumerate(zip(a, b)) if not _same(u, v)]
        if changed:
            patch[col] = changed
    if patch:
        table.patch(patch, as_index=False)


def _same(a, b) -> bool:
    try:
        return bool(a == b) or (a != a and b != b)  # NaN equals NaN here
    except (TypeError, ValueError):
        return str(a) == str(b)
