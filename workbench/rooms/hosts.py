"""Who may reach ``workbench serve``: the Host allow-list and the designer's origin.

A page on another site cannot read the designer's server directly (the browser
keeps it to its own origin), but two doors stay open unless the server shuts
them itself:

* **DNS rebinding**: a name the attacker controls is pointed at 127.0.0.1, so
  the attacker's page *is* same-origin with the server, under its own name. The
  server therefore answers only requests whose ``Host`` is a name it knows
  (:func:`allowed_hosts`: the loopback names, the ``--host`` it listens on, the
  machine's own names when it listens on every address, and the names the
  designer adds with ``--allow-host`` or ``$WORKBENCH_ALLOWED_HOSTS``); any other
  Host gets 403, on the dashboard, the seat pages, the designer's API and every
  websocket (:func:`guard_application` wraps the whole Tornado application).
* **Cross-site requests**: a form or a ``no-cors`` fetch can POST ``text/plain``
  to any address without reading the answer. The designer's API acts only on an
  ``application/json`` body whose ``Origin`` names the server itself
  (:func:`origin_refusal`); a browser cannot forge either on a cross-site
  request without a CORS preflight, which the server never grants. Scripts on
  the designer's machine send ``Origin: http://127.0.0.1:PORT`` (docs/rooms.md).
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::", "")
HOSTS_ENV = "WORKBENCH_ALLOWED_HOSTS"


def host_name(host_header: str) -> str:
    """The name part of a ``Host`` header or URL netloc, lower case, without the
    port or an IPv6 address's brackets (``[::1]:5006`` -> ``::1``)."""
    host = (host_header or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def machine_names() -> set[str]:
    """This machine's own names and addresses (what a person on the LAN types
    when the server listens on every address)."""
    names = set()
    try:
        hostname = socket.gethostname()
        names |= {hostname, socket.getfqdn()}
        for info in socket.getaddrinfo(hostname, None):
            names.add(info[4][0])
    except OSError:
        pass
    try:
        # the address the default route leaves by (no packet is sent by a UDP connect)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            names.add(s.getsockname()[0])
    except OSError:
        pass
    return {host_name(n) for n in names if n}


def allowed_hosts(listen: str, extra=(), env: dict | None = None) -> frozenset[str]:
    """The Host names the server answers: the loopback names, ``listen`` (the
    ``--host`` address; every name of the machine when it is a wildcard), the
    names in ``extra`` and in ``$WORKBENCH_ALLOWED_HOSTS`` (comma separated)."""
    names = set(LOOPBACK_NAMES)
    if listen in EVERY_ADDRESS:
        names |= machine_names()
    else:
        names.add(host_name(listen))
    given = list(extra or ())
    given += ((env if env is not None else os.environ).get(HOSTS_ENV) or "").split(",")
    for name in given:
        name = name.strip()
        if name:
            names.add(host_name(urlsplit(name).netloc if "://" in name else name))
    return frozenset(names)


_allowed: frozenset[str] = frozenset(LOOPBACK_NAMES)


def set_allowed(names) -> None:
    """The allow-list this process enforces (``workbench serve`` sets it once)."""
    global _allowed
    _allowed = frozenset(names)


def allowed() -> frozenset[str]:
    return _allowed


def host_refusal(host_header: str | None, names=None) -> str | None:
    """Why a request with this ``Host`` is refused (one line), or None."""
    names = _allowed if names is None else names
    if not host_header:
        return "a request without a Host header"
    if host_name(host_header) not in names:
        # the name is not repeated: it is the caller's, not ours
        return "this server does not answer that host name (see --allow-host)"
    return None


def same_origin(origin: str | None, host_header: str | None) -> bool:
    """Whether ``Origin`` names the server reached by ``Host`` (host and port)."""
    if not origin or not host_header or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host_header.strip().lower()


def origin_refusal(method: str, headers, needs_json: bool) -> str | None:
    """Why the designer's API refuses this request (one line), or None. A
    request that changes something needs an ``Origin`` naming this server and,
    with a body, ``Content-Type: application/json``; a read with a foreign
    ``Origin`` is refused too."""
    origin, host = headers.get("Origin"), headers.get("Host")
    if method in ("GET", "HEAD"):
        if origin is not None and not same_origin(origin, host):
            return "the designer's API answers its own pages and scripts only"
        return None
    if not same_origin(origin, host):
        return ("the designer's API acts only on requests naming this server as their Origin "
                "(scripts: send the header Origin: http://HOST:PORT)")
    if needs_json:
        kind = (headers.get("Content-Type") or "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return "the designer's API takes application/json only"
    return None


def guard_application(app) -> None:
    """Make the Tornado application ``app`` (the dashboard's, with every route)
    answer 403 to a request whose Host is not allowed, before any handler runs."""
    import tornado.web

    class Refused(tornado.web.RequestHandler):
        def initialize(self, reason: str) -> None:
            self.reason = reason

        def prepare(self) -> None:
            self.set_status(403)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(self.reason + "\n")

    find = app.find_handler

    def find_handler(request, **kwargs):
        why = host_refusal(request.headers.get("Host"))
        if why is not None:
            return app.get_handler_delegate(request, Refused, {"reason": why})
        return find(request, **kwargs)

    app.find_handler = find_handler


def script_headers(base: str) -> dict:
    """The headers a script on the designer's machine sends the designer's API at
    ``base`` (``http://127.0.0.1:5006``): its own origin, and a JSON body."""
    parts = urlsplit(base)
    return {"Origin": f"{parts.scheme}://{parts.netloc}", "Content-Type": "application/json"}
