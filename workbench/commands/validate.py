"""Checks of command-line values, shared by the sub-commands (standard library
only at module level).

Each check returns the value ready to use or raises :class:`WorkbenchError`
with one sentence naming the option, so every command refuses bad input the
same way (exit 1, one line) before any work starts."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from workbench.core.errors import WorkbenchError, suggest
# --option values are parsed where the pages parse them too (one parser)
from workbench.core.options import OPTION_KEY, option_value, options  # noqa: F401

#: the most games one batch may play (a sweep of a million games is hours already)
MAX_GAMES = 1_000_000
#: the longest game a batch may allow before cutting it off
MAX_ACTIONS = 10_000_000
#: worker processes allowed with --many-workers (beyond the machine's cores)
MAX_WORKERS = 256
MAX_SEED = 2**64 - 1
LANG_CODE = re.compile(r"[a-z]{2,3}(-[A-Z]{2})?")
SCHEDULER = re.compile(r"(tcp|tls|inproc|ucx)://[A-Za-z0-9.\-_\[\]:]+(:\d{1,5})?")


def whole(value, option: str, low: int, high: int | None = None) -> int:
    """``value`` (text or int) as an int in ``[low, high]``."""
    if isinstance(value, bool):
        raise WorkbenchError(f"{option} must be a whole number")
    try:
        number = int(str(value).strip(), 10) if not isinstance(value, int) else value
    except ValueError:
        raise WorkbenchError(f"{option} must be a whole number, not {value!r}") from None
    if number < low or (high is not None and number > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise WorkbenchError(f"{option} must be {span}, not {number}")
    return number


def port(value) -> int:
    return whole(value, "--port", 1, 65535)


def seed(value) -> int:
    return whole(value, "--seed", 0, MAX_SEED)


def players(game, value) -> int | None:
    """``--players`` within the game's own range (None keeps the game's default)."""
    if value is None:
        return None
    low, high = game.min_players, game.max_players
    return whole(value, "--players", low, high) if low <= high else whole(value, "--players", low)


def games(value) -> int:
    return whole(value, "--games", 1, MAX_GAMES)


def max_actions(value) -> int:
    return whole(value, "--max-actions", 1, MAX_ACTIONS)


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def workers(value, *, many: bool = False) -> int | None:
    """``--workers``: 0 (this process) up to the machine's cores, or up to
    :data:`MAX_WORKERS` when ``--many-workers`` says so on purpose."""
    if value is None:
        return None
    limit = MAX_WORKERS if many else cores()
    number = whole(value, "--workers", 0)
    if number > limit:
        more = "" if many else " (add --many-workers to use more processes than cores)"
        raise WorkbenchError(f"--workers {number} is more than {limit}{' cores' if not many else ''}{more}")
    return number


def scheduler(value: str | None) -> str | None:
    """``--scheduler``: ``local`` or a Dask address such as ``tcp://host:8786``."""
    if value is None:
        return None
    text = value.strip()
    if text == "local" or SCHEDULER.fullmatch(text):
        if text != "local":
            tail = text.rsplit(":", 1)[-1]
            if tail.isdigit():
                whole(tail, "--scheduler port", 1, 65535)
        return text
    raise WorkbenchError(f"--scheduler must be 'local' or an address like tcp://host:8786, not {value!r}")


def host(value: str, port_number: int) -> str:
    """An address ``serve`` can listen on, checked by binding a socket to it (and
    closing it) before any password or token is printed: ``256.1.1.1``, a name
    that does not resolve or an address of another machine are one line here,
    not a token followed by a failure to listen."""
    import ipaddress
    import socket
    text = value.strip() if isinstance(value, str) else ""
    if not text or any(c.isspace() for c in value) or len(text) > 253:
        raise WorkbenchError(f"--host {value!r} is not an address")
    if re.fullmatch(r"[0-9.]+", text):
        try:
            ipaddress.IPv4Address(text)
        except ValueError:
            raise WorkbenchError(f"--host {value!r} is not an IPv4 address (four numbers 0-255, "
                                 "like 127.0.0.1 or 0.0.0.0)") from None
    try:
        infos = socket.getaddrinfo(text, port_number, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        raise WorkbenchError(f"--host {value!r} is not an address of this machine (it does not resolve)") \
            from None
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise WorkbenchError(f"cannot listen on {text}:{port_number}: {exc.strerror or exc}") from None
    return text


def lang(value: str, option: str = "--lang") -> str:
    """A language code: two or three lower-case letters, optionally ``-XX``
    (``en``, ``hu``, ``pt-BR``); nothing that could name a path."""
    if not isinstance(value, str) or not LANG_CODE.fullmatch(value):
        raise WorkbenchError(f"{option} must be a language code like en, hu or pt-BR, not {value!r}")
    # the shape is not enough (zz, xx-YY): Babel's CLDR data says which languages exist
    from babel import Locale, UnknownLocaleError
    try:
        Locale.parse(value.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise WorkbenchError(f"{option} {value!r} is not a language Babel (CLDR) knows; use a code like "
                             "en, hu or pt-BR") from None
    return value


def out_path(value: str | None, option: str, suffixes: tuple[str, ...] | None = None, *,
             folder_ok: bool = False) -> Path | None:
    """The one rule for output paths, for every command, checked before any work
    starts: the suffix names the format (``suffixes``); an existing folder
    (unless ``folder_ok``: an output that *is* a folder) or special file (FIFO,
    device, socket) is refused; a missing parent folder is created, as long as
    the nearest existing one is a folder this user can write in; an existing
    file must be writable."""
    if value is None:
        return None
    from workbench.core import storage
    storage.check_path(value, option)       # no link out of its folder, at any level; no special file
    path = Path(value)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise WorkbenchError(f"{option} {value!r} must end in {' or '.join(suffixes)} "
                             "(the suffix names the format written)")
    if path.is_dir() and not folder_ok:
        raise WorkbenchError(f"{option} {value!r} is a folder; give a file name")
    if path.exists() and not path.is_dir() and not path.is_file():
        raise WorkbenchError(f"{option} {value!r} is a special file (a pipe, device or socket), not a "
                             "file the workbench writes; give a file name")
    folder = path if (folder_ok and path.is_dir()) else (path.parent if str(path.parent) else Path("."))
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise WorkbenchError(f"{option} {value!r}: {str(existing)!r} is a file, not a folder")
    if existing != folder:
        try:
            storage.make_folder(folder, option)
        except storage.PathRefused:
            raise
        except WorkbenchError as exc:
            raise WorkbenchError(f"{option} {value!r}: cannot create the folder {str(folder)!r} "
                                 f"({exc})") from None
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".workbench-check-"):
            pass
    except OSError as exc:
        raise WorkbenchError(f"{option} {value!r}: cannot write in {str(folder)!r} "
                             f"({exc.strerror or exc})") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise WorkbenchError(f"{option} {value!r} exists and is not writable")
    return path


#: the longest URL accepted (browsers and TTS handle ~2,000 characters)
MAX_URL = 2000
_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
_URL_PATH = re.compile(r"^[A-Za-z0-9._~!$&()*+,;=:@%/-]*$")


def http_url(value: str, option: str) -> str:
    """An ``http://`` or ``https://`` address with a valid host (a DNS name, an
    IPv4 address or a bracketed IPv6 one) and port (1-65535), no user name,
    query or fragment, nothing but URL characters in its path, at most
    :data:`MAX_URL` characters. Returned without a trailing slash."""
    import ipaddress
    from urllib.parse import urlsplit
    bad = f"{option} {value[:80]!r}{'...' if len(value) > 80 else ''}"
    if len(value) > MAX_URL:
        raise WorkbenchError(f"{bad} is {len(value):,} characters long; a URL has at most {MAX_URL:,}")
    if any(ord(c) < 33 or ord(c) == 127 or c in "\"'<>\\`{}|^" for c in value) or not value.isascii():
        raise WorkbenchError(f"{bad} holds a space, a quote, a control or non-ASCII character; give a plain "
                             "http:// or https:// address such as https://example.org/images")
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise WorkbenchError(f"{bad} has a port outside 1-65535 or a malformed host") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise WorkbenchError(f"{bad} must be an http:// or https:// address such as https://example.org/images")
    if parts.username is not None or parts.password is not None:
        raise WorkbenchError(f"{bad}: no user name or password in the address")
    if parts.query or parts.fragment or "?" in value or "#" in value:
        raise WorkbenchError(f"{bad}: no ?query or #fragment (file names are added after the path)")
    if port is not None and not 1 <= port <= 65535 or parts.netloc.endswith(":"):
        raise WorkbenchError(f"{bad} has a port outside 1-65535")
    host = parts.hostname or ""
    if parts.netloc.split("@")[-1].startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise WorkbenchError(f"{bad}: {host!r} is not an IPv6 address") from None
    else:
        labels = host.rstrip(".").split(".")
        if not host or len(host) > 253 or not all(_HOST_LABEL.match(label) for label in labels) \
                or (labels[-1].isdigit() and not _is_ipv4(host)):
            raise WorkbenchError(f"{bad}: {host!r} is not a host name or IPv4 address")
    if not _URL_PATH.match(parts.path):
        raise WorkbenchError(f"{bad}: its path holds characters a URL does not")
    return value.rstrip("/")


def _is_ipv4(host: str) -> bool:
    import ipaddress
    try:
        ipaddress.IPv4Address(host)
        return True
    except ValueError:
        return False


def game_id(value: str) -> str:
    from workbench.core.registry import game_ids
    if value not in game_ids():
        raise WorkbenchError(f"unknown game {value!r}{suggest(value, game_ids())}; "
                             f"choose one of {', '.join(game_ids())}")
    return value


def game(ref: str):
    """The Game for a registry id or a ``package.module:ATTR`` reference that
    really is a game (``os:getcwd`` is refused)."""
    from workbench.core.game import Game
    from workbench.sim.runner import resolve_game
    if ":" not in ref:
        game_id(ref)
    found = resolve_game(ref)
    if not isinstance(found, Game):
        raise WorkbenchError(f"{ref!r} is not a game (a game id, or module:ATTR naming a Game)")
    return found
