"""Run ``workbench`` commands as separate processes without paying Python's start-up
and the workbench's imports for each one.

A test that feeds the command line dozens of bad inputs wants each run in a process
of its own (its real exit code, its real stderr, nothing shared with the test), but
starting ``python -m workbench.cli`` costs about a second of imports each time, which
was most of the reliability table's time in the suite. :class:`ForkedCli` starts one
helper process that imports the command line once and then forks a fresh child per
command: the child sets the command's environment and folder, sends its output to
files, runs ``main`` exactly as ``python -m workbench.cli`` does (an uncaught
exception prints its traceback, ``SystemExit`` gives the exit code) and exits. The
helper has no threads of its own, so forking it is safe.

The child inherits the helper's imports, so anything the interpreter reads only at
start-up (``PYTHONPATH`` and friends) cannot differ from the helper's: ask
:meth:`ForkedCli.can_run` first and use a plain subprocess when it says no.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: environment variables the interpreter reads when it starts, which a forked child cannot change
_STARTUP_VARS = ("PYTHONPATH", "PYTHONHOME", "PYTHONHASHSEED", "PYTHONOPTIMIZE", "PYTHONUTF8",
                 "PYTHONIOENCODING", "PYTHONSAFEPATH", "PYTHONWARNINGS", "PYTHONDEVMODE")


class ForkedCli:
    """One helper process that forks a child per ``workbench`` command (see the module)."""

    def __init__(self, python: str, env: dict[str, str]):
        self.env = dict(env)
        self.proc = subprocess.Popen([python, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=self.env, text=True, bufsize=1)
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"the forking helper did not start: {ready!r}")

    def can_run(self, env: dict[str, str]) -> bool:
        return all(env.get(k) == self.env.get(k) for k in _STARTUP_VARS)

    def run(self, argv: list[str], env: dict[str, str], cwd: Path, timeout: float, out_dir: Path):
        """``(returncode, stdout, stderr)`` of ``workbench *argv``; raises
        :class:`subprocess.TimeoutExpired` when it runs longer than ``timeout``."""
        request = {"argv": argv, "env": env, "cwd": str(cwd), "timeout": timeout, "out": str(out_dir)}
        self.proc.stdin.write(json.dumps(request) + "\n")
        answer = json.loads(self.proc.stdout.readline())
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(["workbench", *argv], timeout)
        read = lambda name: Path(out_dir, name).read_text(encoding="utf-8", errors="replace")  # noqa: E731
        return answer["code"], read("stdout"), read("stderr")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# The helper's program. It answers each request line with one JSON line on the
# protocol pipe (a copy of its stdout taken before anything could print there).
_SERVER = r'''
import json, os, select, signal, sys, traceback
proto = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)                                  # a stray print in the helper never reaches the protocol
import workbench.cli
workbench.cli.build_parser()                   # imports every command's module once, for all children
import workbench.games
proto.write("ready\n")
for line in sys.stdin:
    req = json.loads(line)
    out = req["out"]
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.chdir(req["cwd"])
            os.environ.clear()
            os.environ.update(req["env"])
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            for fd, name in ((1, "stdout"), (2, "stderr")):
                f = os.open(os.path.join(out, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(f, fd)
            sys.stdin = open(0, closefd=False)
            sys.stdout = open(1, "w", closefd=False)
            sys.stderr = open(2, "w", closefd=False)
            sys.argv = ["workbench", *req["argv"]]
            signal.signal(signal.SIGINT, signal.default_int_handler)
            try:
                code = workbench.cli.main(req["argv"])
            except SystemExit as exc:       # as the interpreter reads it
                if exc.code is None:
                    code = 0
                elif isinstance(exc.code, int):
                    code = exc.code
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
            except BaseException:           # as `python -m` shows it: the traceback, exit 1
                traceback.print_exc()
                code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code if isinstance(code, int) else 1)
    fd = os.pidfd_open(pid)
    ready, _, _ = select.select([fd], [], [], req["timeout"])
    timed_out = not ready
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    code = os.waitstatus_to_exitcode(status)
    proto.write(json.dumps({"code": code, "timeout": timed_out}) + "\n")
'''
