"""Run jobs in forked children, a few at a time, each with a time limit.

A mutant is planted in a child forked from a process that has the game loaded, so the parent
never runs mutated code and a child starts in milliseconds. Each job is a function of no
arguments run in the child; what it returns (JSON-serialisable) comes back through a pipe.
A child that overruns its limit is killed and answers ``{"timeout": limit}``; one that dies
without answering answers ``{"died": True}``.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
from typing import Any, Callable, Iterable


def _child(job: Callable[[], Any], fd: int) -> None:
    try:
        try:
            out = job()
        except BaseException as exc:  # the job's own failure is its answer
            out = {"crashed": f"{type(exc).__name__}: {exc}"[:300]}
        os.write(fd, (json.dumps(out, default=str) + "\n").encode())
    finally:
        os._exit(0)


def fork_each(jobs: Iterable[tuple[Any, Callable[[], Any], float]], workers: int,
              done: Callable[[Any, Any, float], None]) -> None:
    """Run each ``(key, job, limit_seconds)`` in its own child, ``workers`` at once, calling
    ``done(key, answer, seconds)`` in the parent as each ends."""
    pending = list(jobs)
    running: dict[int, list] = {}
    while pending or running:
        while pending and len(running) < max(1, workers):
            key, job, limit = pending.pop(0)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _child(job, w)
            os.close(w)
            running[pid] = [key, r, time.monotonic(), limit, bytearray()]
        fds = {v[1]: pid for pid, v in running.items()}
        ready, _, _ = select.select(list(fds), [], [], 0.2)
        for fd in ready:
            running[fds[fd]][4].extend(os.read(fd, 65536))
        now = time.monotonic()
        for pid in list(running):
            key, fd, started, limit, buf = running[pid]
            answer: Any = None
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                while chunk := os.read(fd, 65536):
                    buf.extend(chunk)
                try:
                    answer = json.loads(bytes(buf).decode().strip().splitlines()[-1])
                except (ValueError, IndexError):
                    answer = {"died": True}
            elif now - started > limit:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                answer = {"timeout": limit}
            else:
                continue
            os.close(fd)
            del running[pid]
            done(key, answer, now - started)
