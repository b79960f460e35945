"""Where game ids map to their engines: games are plugins.

Every game, the bundled ones included, registers a :class:`~workbench.core.game.Game`
object under the ``workbench.games`` entry-point group (``importlib.metadata``):
``my-game = "my_package:GAME"`` in the ``[project.entry-points."workbench.games"]``
table of its pyproject.toml. A designer's game is a package of its own, installed
with ``pip install -e DIR``, and found exactly as the bundled ones are.

Entry points are read once (names only; nothing is imported), so the command
line stays fast. A game is imported when it is first asked for. A plugin that
cannot be imported, or whose object is not a Game, is *broken*: asking for it
gives one line saying which plugin and why (:class:`~workbench.core.errors.WorkbenchError`),
and :func:`load_all` / :func:`providing` leave it out and keep the line in
:func:`problems`, so one bad package never stops the others.

Pages and commands ask :func:`providing` ("which games provide X") and never
name a game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib import metadata

from .errors import WorkbenchError, suggest

GROUP = "workbench.games"


@dataclass(frozen=True)
class Plugin:
    """One entry point of the group: the id it registers and where it points."""

    id: str
    value: str          # "package.module:ATTR"
    dist: str           # the distribution that declares it

    def load(self):
        module, _, attr = self.value.partition(":")
        try:
            obj = importlib.import_module(module)
            for part in filter(None, attr.split(".")):
                obj = getattr(obj, part)
        except Exception as exc:  # any failure of a plugin's import is its own, reported in one line
            raise WorkbenchError(f"game plugin {self.id!r} ({self.value}, from {self.dist}) is broken: "
                                 f"{type(exc).__name__}: {_first_line(exc)}") from None
        from .game import Game
        if isinstance(obj, type) and issubclass(obj, Game):
            obj = obj()
        if not isinstance(obj, Game):
            raise WorkbenchError(f"game plugin {self.id!r} ({self.value}, from {self.dist}) is broken: "
                                 f"it names a {type(obj).__name__}, not a Game")
        if obj.id != self.id:
            raise WorkbenchError(f"game plugin {self.id!r} ({self.value}, from {self.dist}) is broken: "
                                 f"its Game calls itself {obj.id!r}")
        return obj


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else "(no message)"


_PLUGINS: dict[str, Plugin] | None = None
_LOADED: dict[str, object] = {}
_BROKEN: dict[str, str] = {}

#: games registered for this session (an edited pool bound to a game)
SESSION_GAMES: dict = {}


def _discover() -> dict[str, Plugin]:
    """The entry points of :data:`GROUP`, by id, in a stable order: the
    workbench's own first (as its pyproject lists them), then the others by id.
    Two distributions registering one id: the first keeps it, the clash is a problem."""
    global _PLUGINS
    if _PLUGINS is not None:
        return _PLUGINS
    found: dict[str, Plugin] = {}
    own, others = [], []
    for ep in metadata.entry_points(group=GROUP):
        dist = ep.dist.name if getattr(ep, "dist", None) is not None else "?"
        (own if dist == "tabletop-workbench" else others).append(Plugin(ep.name, ep.value, dist))
    for plugin in own + sorted(others, key=lambda p: p.id):
        if plugin.id in found:
            _BROKEN.setdefault(plugin.id, f"game plugin {plugin.id!r} from {plugin.dist} is ignored: "
                                          f"{found[plugin.id].dist} registers that id already")
            continue
        found[plugin.id] = plugin
    _PLUGINS = found
    return found


#: what :func:`refresh` calls besides forgetting the registry's own (registered by
#: the modules that cache something of a loaded game, so the registry imports none)
_ON_REFRESH: list = []


def on_refresh(forget) -> None:
    """Call ``forget()`` whenever :func:`refresh` forgets what was loaded."""
    _ON_REFRESH.append(forget)


def refresh() -> None:
    """Forget what was discovered and loaded (after installing a plugin, in tests)."""
    global _PLUGINS
    _PLUGINS = None
    _LOADED.clear()
    _BROKEN.clear()
    # what other modules keep of loaded games goes too (the card cache: pools read
    # before hold instances of the classes imported then, and a plugin imported again,
    # a test's scaffold or a reinstalled package, must not meet its old pool)
    for forget in _ON_REFRESH:
        forget()
    metadata_cache = getattr(importlib, "invalidate_caches", None)
    if metadata_cache:
        metadata_cache()


def register(game, dist: str = "(this process)") -> str:
    """Register a :class:`~workbench.core.game.Game` object in this process only
    (a notebook's experiment, a test's toy game), as if a plugin declared it;
    :func:`unregister` takes it out again. Returns its id."""
    plugins = _discover()
    plugins[game.id] = Plugin(game.id, f"{type(game).__module__}:{type(game).__name__}", dist)
    _LOADED[game.id] = game
    _BROKEN.pop(game.id, None)
    return game.id


def unregister(game_id: str) -> None:
    """Forget a game :func:`register` added (a plugin's id comes back on :func:`refresh`)."""
    _discover().pop(game_id, None)
    _LOADED.pop(game_id, None)


def game_ids() -> list[str]:
    """Every registered game id (broken plugins included: asking for one says why)."""
    return list(_discover())


def session_game_ids() -> list[str]:
    """Ids of the games registered for this session, oldest first."""
    return list(SESSION_GAMES)


def get_game(game_id: str):
    """The :class:`~workbench.core.game.Game` for ``game_id`` (a registered id,
    or one :func:`register_session_game` gave)."""
    if game_id in SESSION_GAMES:
        return SESSION_GAMES[game_id]
    if game_id in _LOADED:
        return _LOADED[game_id]
    plugins = _discover()
    if game_id not in plugins:
        raise WorkbenchError(f"unknown game {game_id!r}{suggest(game_id, plugins)}; "
                             f"choose one of {', '.join(plugins) or '(none installed)'}")
    try:
        game = plugins[game_id].load()
    except WorkbenchError as exc:
        _BROKEN[game_id] = str(exc)
        raise
    _LOADED[game_id] = game
    return game


def load_all() -> dict[str, object]:
    """Every game that loads, by id, in listing order (``Game.listing_order``,
    then discovery order): the order pages offer them, the first one being what
    a page opens on. The broken ones are left out and kept in :func:`problems`."""
    out = []
    for i, gid in enumerate(_discover()):
        try:
            out.append((get_game(gid).listing_order, i, gid))
        except WorkbenchError:
            continue
    return {gid: _LOADED[gid] for _, _, gid in sorted(out)}


def problems() -> list[str]:
    """One line per broken or clashing plugin met so far (:func:`load_all` meets all)."""
    return list(_BROKEN.values())


def providing(capability: str) -> list[str]:
    """Ids of the games that offer ``capability`` (see :data:`workbench.core.game.CAPABILITIES`),
    in registry order. A broken plugin is left out (and reported by :func:`problems`)."""
    return [gid for gid, game in load_all().items() if game.provides(capability)]


def require(game_id: str, capability: str, what: str) -> object:
    """The game, or one line saying it does not offer ``capability`` and which games do."""
    game = get_game(game_id)
    if not game.provides(capability):
        others = providing(capability)
        raise WorkbenchError(f"{game_id} has no {what}" + (f"; games with one: {', '.join(others)}" if others
                                                           else "; no installed game has one"))
    return game


def register_session_game(game, label: str = "edited") -> str:
    """Register ``game`` (a registered game bound to an edited card pool, see
    ``Game.with_cards``) for this session and return its id,
    ``<game id>@<label>-<n>``: :func:`get_game` finds it, so a saved or handed-
    over match of it (the Play page, ``Match.from_dict``) replays on that pool.
    The same game object registered twice keeps its first id."""
    if game.session_id is not None and SESSION_GAMES.get(game.session_id) is game:
        return game.session_id
    if game.id not in _discover():
        raise WorkbenchError(f"unknown game {game.id!r}; only registered games take a session pool")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in label.strip().lower()) or "edited"
    sid = f"{game.id}@{safe}-{sum(1 for k in SESSION_GAMES if k.startswith(game.id + '@')) + 1}"
    game.session_id = sid
    SESSION_GAMES[sid] = game
    return sid


def data_package(game_id: str) -> str:
    """Folder name under ``cards/`` for a game id (hyphens become underscores)."""
    return game_id.replace("-", "_")
