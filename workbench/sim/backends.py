"""Where batch games are played: in this process, in a process pool, or on Dask.

All three take a list of *tasks* (a spec and a run of game indices), play each
with :func:`workbench.sim.runner.run_chunk`, and yield the finished chunks as
they arrive (:func:`iter_tasks`); :func:`run_backend` collects a whole batch.
Each game's seed depends only on the master seed and its index, so the tables
are identical whatever the backend, the worker count or the chunking.

* ``serial``: in this process; no start-up cost, one core.
* ``pool``: ``workers`` processes (default: every core) of a small pool of
  our own on :mod:`multiprocessing` (one pipe per worker, one chunk at a time
  each). Standard library only. Workers ignore Ctrl-C (the main process
  decides what to keep and terminates them); a worker that dies (killed, out
  of memory) costs its own chunk, played again on a fresh process, up to
  ``retries`` times. (``ProcessPoolExecutor`` loses every chunk in flight with
  one worker and can hang at exit after its workers are terminated.)
* ``dask``: a Dask distributed cluster; ``scheduler="local"`` starts a
  ``LocalCluster`` of ``workers`` single-threaded processes for the run, any
  other value is the address of a running scheduler (``tcp://host:port``).
  Dask retries a task whose worker died by itself; when it gives up
  (``KilledWorker``) the batch stops with one line. Dask is imported only here,
  so it stays an optional extra.

Chunks are sized by guided self-scheduling (:func:`chunks`): large while much
is left, shrinking towards the end so the workers finish together, and capped
so that finished work streams back steadily (and little is lost on Ctrl-C).
Only one chunk per worker is in flight at a time, so the results waiting in
the main process stay bounded however large the batch.
"""

from __future__ import annotations

import math
import os
import signal
import threading
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from workbench.core.errors import WorkbenchError

from .runner import SimSpec, run_chunk
from .tables import Chunk, join_chunks

Progress = Callable[[int], None]
Task = tuple  # (spec as a dict, list of game indices)

#: the largest chunk: about 0.4 s of random play of the quickest bundled game, 5 s of greedy
MAX_CHUNK = 200


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def chunks(games: int | Sequence[int], workers: int, *, max_size: int = MAX_CHUNK,
           min_size: int = 1) -> list[list[int]]:
    """Game indices (``range(games)`` or the given ones) in contiguous runs.

    Guided self-scheduling: each run takes a quarter of the remaining games'
    share per worker, between ``min_size`` and ``max_size``, so early runs are
    large (little overhead) and late ones small (no worker idles at the end)."""
    indices = list(range(games)) if isinstance(games, int) else list(games)
    out, i, n = [], 0, len(indices)
    workers = max(1, workers)
    while i < n:
        size = max(min_size, min(max_size, math.ceil((n - i) / (4 * workers))))
        out.append(indices[i:i + size])
        i += size
    return out


def spec_tasks(spec: SimSpec, workers: int, **sizes) -> list[Task]:
    d = spec.to_dict()
    return [(d, part) for part in chunks(spec.games, workers, **sizes)]


# -- serial ---------------------------------------------------------------------------------------
def _iter_serial(tasks: list[Task]) -> Iterator[tuple[int, Chunk]]:
    for t, (spec, part) in enumerate(tasks):
        yield t, run_chunk(spec, part)


# -- process pool ------------------------------------------------------------------------------
def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: only the main process acts on
    # it, so a worker is stopped by the main process, never mid-chunk by itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context():
    import multiprocessing
    # fork starts workers at once with the engine already imported (Linux),
    # and lets them see games registered in this process (the Cards page's
    # edited pools); elsewhere the platform default is used
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _worker_main(conn) -> None:
    """A pool worker: play each (task, spec, indices) received, send the chunk
    (or the error) back; ``None`` ends it."""
    _worker_init()
    while True:
        try:
            msg = conn.recv()
        except EOFError:  # the main process has gone
            return
        if msg is None:
            return
        t, spec, part = msg
        try:
            reply = ("ok", t, run_chunk(spec, part))
        except Exception as exc:  # noqa: BLE001 - sent back and raised in the main process
            reply = ("error", t, exc)
        conn.send(reply)


class _Worker:
    """One worker process, its end of a pipe, and the task it is playing."""

    def __init__(self, ctx):
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.task: int | None = None

    def stop(self, *, graceful: bool) -> None:
        if graceful and self.proc.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(timeout=2)
        if self.proc.is_alive():  # has not ended on SIGTERM in 2 s
            self.proc.kill()
            self.proc.join(timeout=5)
        self.conn.close()


def _iter_pool(tasks: list[Task], workers: int, retries: int) -> Iterator[tuple[int, Chunk]]:
    """A small process pool of our own rather than ProcessPoolExecutor: one
    task per worker at a time, so a dead worker costs exactly its own chunk
    (replayed on a fresh process), and stopping is terminating processes, with
    no manager thread left to join at exit."""
    from multiprocessing.connection import wait

    ctx = _context()
    pending = deque(range(len(tasks)))
    lost_count = [0] * len(tasks)
    pool = [_Worker(ctx) for _ in range(max(1, min(workers, len(tasks))))]  # never more than chunks
    graceful = False
    try:
        while True:
            for w in pool:
                if w.task is None and pending:
                    w.task = pending.popleft()
                    w.conn.send((w.task, *tasks[w.task]))
            busy = [w for w in pool if w.task is not None]
            if not busy:
                break
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for k, w in enumerate(pool):
                if w.task is None or not (w.conn in ready or w.proc.sentinel in ready):
                    continue
                try:
                    kind, t, payload = w.conn.recv() if w.conn.poll() else (None, None, None)
                except (EOFError, OSError):
                    kind = None
                if kind is None:
                    # the process died (killed, out of memory): replay its
                    # chunk (same indices, same seeds) on a fresh process
                    t = w.task
                    lost_count[t] += 1
                    if lost_count[t] > retries:
                        part = tasks[t][1]
                        raise WorkbenchError(
                            f"a worker process died {lost_count[t]} times while playing games "
                            f"{part[0]}-{part[-1]}; giving up (out of memory? try fewer --workers)")
                    pending.appendleft(t)
                    w.task = None
                    w.stop(graceful=False)
                    pool[k] = _Worker(ctx)
                    continue
                w.task = None
                if kind == "error":
                    raise payload
                yield t, payload
        graceful = True
    finally:
        for w in pool:
            w.stop(graceful=graceful)


# -- Dask ----------------------------------------------------------------------------------------
def _quiet_dask_logs() -> None:
    """Dask logs every lost worker and cancelled task; the batch reports what
    matters in one line instead."""
    import logging
    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "distributed.worker",
                 "distributed.core", "distributed.client", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _close(closable, timeout: float) -> None:
    if closable is None:
        return
    try:
        closable.close(timeout=timeout)
    except Exception:  # noqa: BLE001 - already stopping: a slow or failed close changes nothing
        pass


@contextmanager
def _children_ignore_sigint():
    """Start processes that ignore Ctrl-C: a disposition of "ignore" is
    inherited by child processes, and Python keeps it, so a LocalCluster's
    workers leave Ctrl-C to this process (which then stops them) instead of
    each printing a traceback. Only the main thread may change handlers; from
    another thread (the dashboard) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def local_cluster(workers: int):
    """A Dask LocalCluster of ``workers`` single-threaded processes, as a run on
    this machine uses (and the benchmark measures): no dashboard, and the
    scheduler's small HTTP server on a free port (its default, 8787, may be
    taken by another run, which Dask reports as a warning line)."""
    from dask.distributed import LocalCluster
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        scheduler_kwargs={"dashboard_address": ":0"})


def _iter_dask(tasks: list[Task], scheduler: str, workers: int, client, timeout: str,
               ) -> Iterator[tuple[int, Chunk]]:
    try:
        from dask.distributed import Client, as_completed
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise WorkbenchError("the Dask backend needs the optional extra: "
                             "pip install 'tabletop-workbench[dask]'") from None
    _quiet_dask_logs()
    cluster = own_client = None
    futures, spawned = [], []
    finished = False
    try:
        if client is None:
            if scheduler == "local":
                # the worker processes read their log level from the environment
                # at start-up: cancelled tasks on Ctrl-C are not worth a warning each
                os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
                import multiprocessing
                before = {p.pid for p in multiprocessing.active_children()}
                with _children_ignore_sigint():
                    cluster = local_cluster(workers)
                spawned = [p for p in multiprocessing.active_children() if p.pid not in before]
                own_client = client = Client(cluster)
            else:
                try:
                    own_client = client = Client(scheduler, timeout=timeout)
                except (OSError, TimeoutError, ValueError, TypeError) as exc:
                    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    raise WorkbenchError(f"cannot reach the Dask scheduler at {scheduler!r}: {first} "
                                         f"(give 'local' or tcp://host:port)") from None
        futures = client.map(run_chunk, [t[0] for t in tasks], [t[1] for t in tasks], pure=False)
        task_of = {f.key: t for t, f in enumerate(futures)}
        finished = False
        for fut in as_completed(futures):
            t = task_of[fut.key]
            try:
                chunk = fut.result()
            except KilledWorker:
                part = tasks[t][1]
                raise WorkbenchError(f"Dask lost the workers playing games {part[0]}-{part[-1]} too many "
                                     f"times (KilledWorker); check the workers' memory and logs") from None
            except (FutureCancelledError, OSError, TimeoutError) as exc:
                raise WorkbenchError(f"the Dask cluster failed: {type(exc).__name__}: {exc}") from None
            fut.release()
            yield t, chunk
        finished = True
    finally:
        # a cluster of our own stopped early has its workers killed below: asking its
        # scheduler to cancel first is a call with no time limit, for nothing
        if futures and client is not None and (finished or cluster is None):
            try:
                client.cancel(futures)
            except Exception:  # the cluster may already be gone; nothing left to cancel
                pass
        # stopped early (Ctrl-C, an error): do not wait long for a tidy shutdown
        if finished:
            _close(own_client, 10)
            _close(cluster, 10)
        else:
            # stopped early (Ctrl-C, an error): no tidy shutdown of running
            # chunks; the worker processes of our LocalCluster are ended
            # first, so closing the cluster does not wait for them (nor does
            # Dask's exit handler, which closes any cluster left open)
            _close(own_client, 0.5)
            for proc in spawned:
                if proc.is_alive():
                    proc.kill()
            for proc in spawned:
                proc.join(timeout=1)
            _close(cluster, 1)
            if cluster is not None and cluster.status.name != "closed":
                # Dask's exit handler would wait 10 s more on the same dead
                # workers; the processes are gone, so it is taken off its list
                # (SpecCluster._instances is private: hence the guard)
                instances = getattr(type(cluster), "_instances", None)
                if instances is not None:
                    instances.discard(cluster)


# -- choosing ------------------------------------------------------------------------------------
def resolve_backend(backend: str | None, workers: int | None, scheduler: str | None, games: int) -> str:
    """``scheduler`` means Dask; ``workers == 0`` or a single game means serial;
    otherwise the process pool."""
    if backend is None:
        if scheduler:
            return "dask"
        if workers == 0 or (workers == 1 and games <= 1):
            return "serial"
        return "pool"
    if backend not in ("serial", "pool", "dask"):
        raise WorkbenchError(f"unknown backend {backend!r}; choose serial, pool or dask")
    return backend


def iter_tasks(tasks: list[Task], *, backend: str = "pool", workers: int | None = None,
               scheduler: str | None = None, client=None, retries: int = 2,
               timeout: str = "10s") -> Iterator[tuple[int, Chunk]]:
    """``(task number, chunk)`` as each task finishes (not in task order).

    Close the iterator (or let an exception run through it) to stop: queued
    tasks are cancelled and pool workers terminated at once."""
    if not tasks:
        return iter(())
    workers = workers or default_workers()
    if backend == "serial":
        return _iter_serial(tasks)
    if backend == "pool":
        return _iter_pool(tasks, workers, retries)
    if backend == "dask":
        return _iter_dask(tasks, scheduler or "local", workers, client, timeout)
    raise WorkbenchError(f"unknown backend {backend!r}; choose serial, pool or dask")


def iter_chunks(spec: SimSpec, *, backend: str | None = None, workers: int | None = None,
                scheduler: str | None = None, client=None, retries: int = 2,
                max_chunk: int = MAX_CHUNK) -> Iterator[Chunk]:
    """The batch's chunks as they finish (see :func:`iter_tasks`)."""
    backend = resolve_backend(backend, workers, scheduler, spec.games)
    n = 1 if backend == "serial" else (workers or default_workers())
    tasks = spec_tasks(spec, n, max_size=max_chunk)
    return (chunk for _, chunk in iter_tasks(tasks, backend=backend, workers=workers, scheduler=scheduler,
                                             client=client, retries=retries))


def run_backend(spec: SimSpec, *, backend: str | None = None, workers: int | None = None,
                scheduler: str | None = None, progress: Progress | None = None, client=None):
    """Play the whole batch; returns (games, players, cards) in index order."""
    from contextlib import closing
    done = []
    with closing(iter_chunks(spec, backend=backend, workers=workers, scheduler=scheduler,
                             client=client)) as stream:
        for chunk in stream:
            done.append(chunk)
            if progress:
                progress(len(chunk))
    return join_chunks(done)


def run_dask(spec: SimSpec, scheduler: str = "local", workers: int | None = None,
             progress: Progress | None = None, client=None, timeout: str = "10s"):
    """Play the batch on Dask. ``client`` (an existing ``distributed.Client``)
    takes precedence over ``scheduler``; ``timeout`` bounds connecting to one.
    Returns (games, players, cards)."""
    from contextlib import closing
    workers = workers or default_workers()
    if client is not None:
        workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
    done = []
    tasks = spec_tasks(spec, workers)
    with closing(_iter_dask(tasks, scheduler, workers, client, timeout)) as stream:
        for _, chunk in stream:
            done.append(chunk)
            if progress:
                progress(len(chunk))
    return join_chunks(done)
