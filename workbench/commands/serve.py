"""``workbench serve``: open the design dashboard in the browser.

Panel and the engines are imported inside :func:`run` only, so the rest of the
command line stays quick to start."""

from __future__ import annotations

import sys

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="open the design dashboard in the browser",
                       description="Serve the Panel dashboard (Play, Cards, Graph, Board, Rules, "
                                   "Sweeps) on this machine.")
    p.add_argument("--port", type=int, default=5006, help="port to listen on (default 5006)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    p.set_defaults(func=run)


def warn_if_exposed(host: str, stream=None) -> bool:
    """Print a warning when the dashboard listens beyond this machine; the
    dashboard edits card files and has no login, so anyone who can reach the
    port can change them. Returns True when it warned."""
    if host in LOCAL_HOSTS:
        return False
    print(f"warning: serving on {host}: anyone who can reach this address can play, edit and "
          f"save card files (there is no login); use 127.0.0.1 unless you mean it",
          file=stream or sys.stderr)
    return True


def run(args) -> int:
    from workbench.dashboard.app import serve

    warn_if_exposed(args.host)
    serve(port=args.port, host=args.host, show=not args.no_browser)
    return 0
