"""Where batch games are played: in this process, in a process pool, or on Dask.

All three split the game indices ``0..N-1`` into chunks, play each chunk with
:func:`workbench.sim.runner.run_chunk`, and put the records back in index
order, so the tables are identical whatever the backend or the number of
workers (each game's seed depends only on the master seed and its index).

* ``serial``: in this process; no start-up cost, one core.
* ``pool``: :class:`concurrent.futures.ProcessPoolExecutor` with ``workers``
  processes (default: every core). Standard library only.
* ``dask``: a Dask distributed cluster; ``scheduler="local"`` starts a
  ``LocalCluster`` of ``workers`` single-threaded processes for the run, any
  other value is the address of a running scheduler (``tcp://host:port``).
  Dask is imported only here, so it stays an optional extra.
"""

from __future__ import annotations

import math
import os
from typing import Callable

from workbench.core.errors import WorkbenchError

from .runner import SimSpec, run_chunk

Progress = Callable[[int], None]


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def chunks(n_games: int, workers: int, per_worker: int = 8) -> list[list[int]]:
    """Game indices in contiguous chunks: about ``per_worker`` chunks for each
    worker, so a slow chunk does not leave the others idle at the end."""
    if n_games <= 0:
        return []
    size = max(1, math.ceil(n_games / (max(1, workers) * per_worker)))
    return [list(range(i, min(i + size, n_games))) for i in range(0, n_games, size)]


def run_serial(spec: SimSpec, progress: Progress | None = None) -> list[dict]:
    out = []
    for chunk in chunks(spec.games, 1, per_worker=max(1, spec.games // 20 or 1)):
        out.extend(run_chunk(spec, chunk))
        if progress:
            progress(len(chunk))
    return out


def run_pool(spec: SimSpec, workers: int | None = None, progress: Progress | None = None) -> list[dict]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    workers = workers or default_workers()
    parts = chunks(spec.games, workers)
    # fork starts workers at once with the engine already imported (Linux);
    # elsewhere the platform default is used
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[int, list[dict]] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = {pool.submit(run_chunk, spec.to_dict(), part): k for k, part in enumerate(parts)}
        for fut in as_completed(futures):
            k = futures[fut]
            results[k] = fut.result()
            if progress:
                progress(len(parts[k]))
    return [rec for k in range(len(parts)) for rec in results[k]]


def run_dask(spec: SimSpec, scheduler: str = "local", workers: int | None = None,
             progress: Progress | None = None, client=None, timeout: str = "10s") -> list[dict]:
    """Play the batch on Dask. ``client`` (an existing ``distributed.Client``)
    takes precedence over ``scheduler``; ``timeout`` bounds connecting to one."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise WorkbenchError("the Dask backend needs the optional extra: pip install 'tabletop-workbench[dask]'") from None
    workers = workers or default_workers()
    cluster = own_client = None
    try:
        if client is None:
            if scheduler == "local":
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
                own_client = client = Client(cluster)
            else:
                try:
                    own_client = client = Client(scheduler, timeout=timeout)
                except (OSError, TimeoutError) as exc:
                    raise WorkbenchError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        parts = chunks(spec.games, n_workers)
        spec_dict = spec.to_dict()
        futures = client.map(run_chunk, [spec_dict] * len(parts), parts, pure=False)
        index_of = {f.key: k for k, f in enumerate(futures)}
        results: dict[int, list[dict]] = {}
        for fut in as_completed(futures):
            k = index_of[fut.key]
            results[k] = fut.result()
            if progress:
                progress(len(parts[k]))
        return [rec for k in range(len(parts)) for rec in results[k]]
    finally:
        if own_client is not None:
            own_client.close()
        if cluster is not None:
            cluster.close()


def run_backend(spec: SimSpec, *, backend: str | None = None, workers: int | None = None,
                scheduler: str | None = None, progress: Progress | None = None) -> list[dict]:
    """Pick a backend: ``scheduler`` means Dask; ``workers == 0`` or a single
    game means serial; otherwise the process pool."""
    if backend is None:
        if scheduler:
            backend = "dask"
        elif workers == 0 or (workers == 1 and spec.games <= 1):
            backend = "serial"
        else:
            backend = "pool"
    if backend == "serial":
        return run_serial(spec, progress)
    if backend == "pool":
        return run_pool(spec, workers, progress)
    if backend == "dask":
        return run_dask(spec, scheduler or "local", workers, progress)
    raise WorkbenchError(f"unknown backend {backend!r}; choose serial, pool or dask")
