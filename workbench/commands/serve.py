"""``workbench serve``: open the design dashboard in the browser.

On this machine only (the default, 127.0.0.1) there is no login. Served beyond
it (``--host 0.0.0.0``), the dashboard asks for a password first (Panel's basic
auth): ``$WORKBENCH_PASSWORD`` when set, otherwise a random token printed once
at start-up. ``--read-only`` serves a dashboard that plays and shows but takes no
card edits, saves nothing and starts no sweeps (for showing playtesters).

Panel and the engines are imported inside :func:`run` only, so the rest of the
command line stays quick to start."""

from __future__ import annotations

import os
import sys

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
PASSWORD_ENV = "WORKBENCH_PASSWORD"
MIN_PASSWORD = 8


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="open the design dashboard in the browser",
                       description="Serve the Panel dashboard (Play, Cards, Graph, Board, Rules, "
                                   "Sweeps). Beyond this machine a password is required: "
                                   f"${PASSWORD_ENV}, or a random token printed at start-up.")
    p.add_argument("--port", type=int, default=5006, help="port to listen on, 1-65535 (default 5006)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; any other "
                        "address asks for a password)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer requests addressed to NAME (a LAN name or a tunnel's host; "
                        "repeatable; $WORKBENCH_ALLOWED_HOSTS adds more, comma separated). Requests "
                        "naming any other host get 403, so a web page cannot reach the server by DNS rebinding")
    p.add_argument("--read-only", action="store_true",
                   help="no card edits, no saves, no sweeps: for showing the dashboard to playtesters")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    p.add_argument("--session-lifetime", type=float, default=15.0, metavar="SECONDS",
                   help="how long a closed tab's session is kept before it is let go (default 15, "
                        "bokeh's own). It also bounds the time from a page's loading to its tab connecting: "
                        "keep it above a few seconds")
    p.add_argument("--tts-images", default=None, metavar="DIR",
                   help="also serve this folder (from `workbench export tts --host`) at /tts/ for "
                        "Tabletop Simulator players on your network")
    p.set_defaults(func=run)


def warn_if_exposed(host: str, stream=None, read_only: bool = False) -> bool:
    """Say so when the dashboard listens beyond this machine (it then asks for a
    password). Returns True when it warned."""
    if host in LOCAL_HOSTS:
        return False
    can = ("can play and read, not edit, save or run sweeps (read-only)" if read_only
           else "can play, edit and save card files (use --read-only to show only)")
    print(f"warning: serving on {host}: visitors must log in with the password; anyone who has it {can}",
          file=stream or sys.stderr)
    return True


def login_password(host: str, env: dict | None = None, stream=None) -> str | None:
    """The password visitors must give, or None on this machine only. A too-short
    ``$WORKBENCH_PASSWORD`` is refused; without one a random token is made and
    printed once."""
    import secrets

    from workbench.core.errors import WorkbenchError

    if host in LOCAL_HOSTS:
        return None
    password = (env if env is not None else os.environ).get(PASSWORD_ENV)
    if password is not None:
        if len(password) < MIN_PASSWORD:
            raise WorkbenchError(f"${PASSWORD_ENV} must be at least {MIN_PASSWORD} characters "
                                 "when serving beyond this machine")
        return password
    token = secrets.token_urlsafe(16)
    print(f"log in with the token {token} (set ${PASSWORD_ENV} to choose your own)",
          file=stream or sys.stderr)
    return token


def run(args) -> int:
    from workbench.commands.validate import host, port
    from workbench.core.errors import WorkbenchError

    number = port(args.port)
    host(args.host, number)  # before a password or token is printed
    if not 3 <= args.session_lifetime <= 86400:
        raise WorkbenchError(f"--session-lifetime {args.session_lifetime:g}: give seconds between 3 and 86400")
    password = login_password(args.host)
    from workbench.dashboard.app import serve

    warn_if_exposed(args.host, read_only=args.read_only)
    images = None
    if args.tts_images:
        from pathlib import Path
        images = Path(args.tts_images).expanduser().resolve()
        if not images.is_dir():
            raise WorkbenchError(f"--tts-images {args.tts_images}: no such folder "
                                 "(make it with `workbench export tts GAME --host ADDRESS --out FILE.json`)")
    from workbench.rooms.hosts import allowed_hosts
    names = allowed_hosts(args.host, getattr(args, "allow_host", None) or ())
    try:
        serve(port=number, host=args.host, show=not args.no_browser, password=password,
              read_only=args.read_only, tts_images=images, allowed=names,
              session_lifetime=args.session_lifetime)
    except OSError as exc:
        raise WorkbenchError(f"cannot listen on {args.host}:{number}: {exc.strerror or exc}") from None
    return 0
