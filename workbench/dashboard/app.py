"""The dashboard shell: the pages as tabs, the state they share, and serving.

:func:`create_app` builds one session's dashboard (a template when served, plain
tabs in a notebook). :class:`Workbench` is what the pages share: the Play model
(so Sweeps can hand a game to Play), one live card pool per game
(:class:`~workbench.dashboard.pool.LivePool`: the Cards, Graph and Balance
pages edit and draw the same pool, and redraw when its snapshot changes) and
which page is on screen (a hidden page defers its redraw until it is shown,
:meth:`Workbench.when_shown`). A page whose engine or module is missing shows
a one-line notice instead of breaking the others.

Pages are built on demand: only the first page is built at start-up, the
others when their tab is first opened (the Rules page alone takes seconds).
Adding a page is one line in :data:`PAGES`; its view class takes ``bench=``."""

from __future__ import annotations

import importlib
import logging
import threading

import panel as pn
import param

from .escape import md

log = logging.getLogger(__name__)

#: (tab title, module, view class); each view is built as ``View(bench=bench)``
PAGES = [
    ("Play", "workbench.dashboard.play", "PlayPage"),
    ("Cards", "workbench.dashboard.cards", "CardsPage"),
    ("Graph", "workbench.dashboard.graph", "GraphPage"),
    ("Board", "workbench.dashboard.board", "BoardPage"),
    ("Rules", "workbench.dashboard.rules", "RulesPage"),
    ("Sweeps", "workbench.dashboard.sweeps", "SweepsPage"),
    ("Print", "workbench.dashboard.print", "PrintPage"),
    ("Balance", "workbench.dashboard.balance", "BalancePage"),
    ("Playtest", "workbench.dashboard.playtest", "PlaytestPage"),
]

TITLE = "Tabletop Design Workbench"

#: what building a page does, said on its progress line the first time it is opened
OPENING = {
    "Play": "setting up a game",
    "Cards": "reading the card pool, checking it and drawing its graph",
    "Graph": "reading the card pool and drawing its graph",
    "Board": "laying out a board",
    "Rules": "reading the rulebooks, their checks and scenarios",
    "Sweeps": "reading the games' seats, bots and variants",
    "Print": "typesetting one card of every kind",
    "Balance": "reading the games' balance targets",
    "Playtest": "reading the playtest journal and the open rooms",
}

_extension_loaded = False


def load_extension() -> None:
    """Panel's extension with Tabulator, once per process."""
    global _extension_loaded
    if not _extension_loaded:
        pn.extension("tabulator", notifications=True, sizing_mode="stretch_width")
        _extension_loaded = True


class Workbench(param.Parameterized):
    """What the pages of one dashboard session share."""

    page = param.Integer(default=0, doc="index of the page shown")
    read_only = param.Boolean(default=False, constant=True,
                              doc="no card edits, saves or sweeps (workbench serve --read-only)")
    card_game = param.String(default="", doc="the game whose cards Cards and Graph show "
                                             "(default: the first game with a card graph)")
    pool = param.Parameter(default=None, doc="the LivePool of card_game (set once a page asks for it)")

    def __init__(self, **params):
        if not params.get("card_game"):
            from workbench.core.registry import providing
            params["card_game"] = next(iter(providing("card_graph")), "")
        super().__init__(**params)
        self._play = None
        self._sessions: dict[str, object] = {}
        # a page may open a pool on a thread (its progress line shows meanwhile)
        # while another page asks for the same one: it is opened once
        self._opening = threading.Lock()
        self._pending: dict[str, dict[tuple, object]] = {}

    def shown(self, title: str) -> bool:
        """Whether the page called ``title`` is the one on screen."""
        return 0 <= self.page < len(PAGES) and PAGES[self.page][0] == title

    def when_shown(self, title: str, redraw) -> None:
        """Run ``redraw`` now if page ``title`` is on screen, else once when it is
        next shown (the latest ``redraw`` of each function wins: a hidden page
        that saw ten edits redraws once)."""
        if self.shown(title):
            redraw()
        else:
            key = (id(getattr(redraw, "__self__", None)), getattr(redraw, "__qualname__", repr(redraw)))
            self._pending.setdefault(title, {})[key] = redraw

    @param.depends("page", watch=True)
    def _run_pending(self) -> None:
        if 0 <= self.page < len(PAGES):
            for redraw in self._pending.pop(PAGES[self.page][0], {}).values():
                redraw()

    @param.depends("card_game", watch=True)
    def _follow_card_game(self) -> None:
        if self.pool is not None:
            self.pool = self.tweak_session(self.card_game)

    def card_pool(self):
        """The live pool of :attr:`card_game`, opened on first use."""
        if self.pool is None or self.pool.game_id != self.card_game:
            self.pool = self.tweak_session(self.card_game)
        return self.pool

    @property
    def play(self):
        if self._play is None:
            from .play import PlayModel
            self._play = PlayModel()
        return self._play

    def tweak_session(self, game_id: str | None = None):
        """The live pool (:class:`~workbench.dashboard.pool.LivePool`) of
        ``game_id`` (default: :attr:`card_game`), shared by Cards, Graph and
        Balance, opened as ``workbench balance`` opens it."""
        game_id = game_id or self.card_game
        with self._opening:
            if game_id not in self._sessions:
                from workbench.tweak import open_session

                from .pool import LivePool
                session = open_session(game_id=game_id)
                self._sessions[game_id] = LivePool(session)
            return self._sessions[game_id]

    def open_in_play(self, data: dict, game=None, label: str = "") -> None:
        """Hand a game (``Match.to_dict`` shape, with seats) to the Play page and
        show it; ``game`` is a session game (an edited card pool) to play it with."""
        self.play.open_match(data, game=game, label=label)
        self.page = 0


def build_page(title: str, module: str, cls: str, bench: Workbench):
    try:
        view = getattr(importlib.import_module(module), cls)
        return view(bench=bench)
    except Exception as exc:  # noqa: BLE001 - one broken page must not take the app down
        log.exception("page %s failed to build", title)
        return pn.pane.Alert(f"The {title} page is not available: {md(exc)}", alert_type="warning")


class LazyTabs:
    """Tabs whose pages are built the first time they are shown. Each tab
    holds an empty column until then; the page built goes into it."""

    def __init__(self, bench: Workbench, pages=None):
        self.bench = bench
        self.pages = list(pages or PAGES)
        self.holders = [pn.Column(sizing_mode="stretch_width", css_classes=[f"page-{t.lower()}"])
                        for t, _, _ in self.pages]
        self.views: dict[int, object] = {}
        self.titles: dict[int, object] = {}
        self.tabs = pn.Tabs(*[(t, h) for (t, _, _), h in zip(self.pages, self.holders)],
                            dynamic=False, sizing_mode="stretch_width")
        self.tabs.link(bench, active="page", bidirectional=True)
        bench.param.watch(lambda e: self.show(e.new), "page")
        self.show(bench.page)

    def show(self, index: int) -> None:
        if index in self.views or not 0 <= index < len(self.pages):
            return
        title = self.pages[index][0]
        served = pn.state.curdoc is not None and pn.state.curdoc.session_context is not None
        if not served or not self.views:
            self._build(index)   # the first page is part of the first answer; a notebook waits
            return
        # a page takes seconds to build the first time: its progress line says so at
        # once, and the page is built once the browser has it (a timer on the event loop)
        from .progress import ProgressLine
        line = ProgressLine("opening")
        line.show(f"Opening the {title} page: {OPENING.get(title, 'building it')}…")
        self.views[index] = None
        self.holders[index].objects = [line.pane]
        pn.state.add_periodic_callback(lambda: self._build(index), period=50, count=1)

    def _build(self, index: int) -> None:
        title, module, cls = self.pages[index]
        self.views[index] = view = build_page(title, module, cls, self.bench)
        from .titles import PageTitle
        self.titles[index] = heading = PageTitle(title, view)   # names the page's game, and follows it
        self.holders[index].objects = [heading.pane, view]


#: runs in the browser whenever the shown tab changes (by a click or from the
#: server, as "Open in Play" does): the new page starts at its top
SCROLL_TOP = """
window.scrollTo(0, 0);
for (const el of document.querySelectorAll('#main, .main, #content')) { el.scrollTop = 0; }
"""


def create_app(served: bool = False, bench: Workbench | None = None, read_only: bool = False):
    """One dashboard. ``served`` wraps the tabs in a page template; ``read_only``
    takes no edits, saves and sweeps."""
    load_extension()
    bench = bench or Workbench(read_only=read_only)
    lazy = LazyTabs(bench)
    tabs = lazy.tabs
    tabs.jscallback(active=SCROLL_TOP)
    if not served:
        return tabs
    # Bootstrap rather than Fast: the Fast design pulls its font from Google's CDN,
    # and the workbench must work offline
    template = pn.template.BootstrapTemplate(
        title=TITLE, main=[tabs], header_background="#37474f", collapsed_sidebar=True)
    return template


def serve(port: int = 5006, host: str = "127.0.0.1", show: bool = True, password: str | None = None,
          read_only: bool = False, tts_images=None, allowed=None, session_lifetime: float = 15.0):
    """Serve the dashboard until interrupted; with ``password``, behind Panel's
    basic-auth login (a fresh cookie secret per run, so old logins expire).
    Only requests addressed to a name of ``allowed`` (default:
    :func:`workbench.rooms.hosts.allowed_hosts` of ``host``) are answered; any
    other Host gets 403 on every route (:mod:`workbench.rooms.hosts`).
    ``session_lifetime``: seconds a session with no open tab is kept before bokeh
    lets it go (bokeh's default, 15 s, unless a caller wants closed tabs let go sooner)."""
    import secrets

    from tornado.ioloop import IOLoop

    from workbench.rooms.hosts import allowed_hosts, guard_application, set_allowed

    allowed = frozenset(allowed) if allowed is not None else allowed_hosts(host)
    set_allowed(allowed)
    # the dashboard's own websocket takes pages from the allowed names only
    # (bokeh reads "host:port" and cannot take an IPv6 literal; such a page uses a name)
    origins = sorted(f"{n}:{port}" for n in allowed if ":" not in n)
    auth = {"basic_auth": password, "cookie_secret": secrets.token_hex(32)} if password else {}
    loop = IOLoop.current()
    quiet_closed_sockets(loop.asyncio_loop)

    def app():
        # one line in the server log when a tab's session ends (the tab closed and
        # bokeh let its session go); what was still being sent to it is dropped quietly
        pn.state.on_session_destroyed(_session_ended)
        _local_stylesheets(pn.state.curdoc)
        return create_app(served=True, read_only=read_only)

    from workbench.rooms.web import hall, routes, set_served_at
    set_served_at(f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}")
    hall()   # open the playtest journal and resume its rooms before the first visitor
    # the Rules page's spelling dictionaries take seconds each: loaded once for the
    # process, on a thread, while the first visitor looks at other pages
    from .rules import preload_dictionaries
    preload_dictionaries()
    # Tabletop Simulator fetches the exported images over plain HTTP (it cannot log
    # in), so that one folder of content-named PNGs is served as static files
    static = {"tts": str(tts_images)} if tts_images else {}
    # bokeh looks for unused sessions on a timer (17 s by default): looking four times
    # per lifetime lets a closed tab's session go within 1.25 lifetimes. The lifetime
    # also runs from a session's making to its tab's first connection, so a very short
    # one could let a slow tab's session go before the tab connects
    lifetime_ms = max(500, int(session_lifetime * 1000))
    server = pn.serve({"/": app}, port=port, address=host,
                      websocket_origin=origins, show=show, start=False, title=TITLE, threaded=False, loop=loop,
                      extra_patterns=routes(password), static_dirs=static,
                      unused_session_lifetime_milliseconds=lifetime_ms,
                      check_unused_sessions_milliseconds=min(17_000, max(250, lifetime_ms // 4)), **auth)
    guard_application(server._tornado)   # before the first request is read
    server.start()
    loop.start()


def _local_stylesheets(doc) -> None:
    """Panel's stylesheets of ``doc`` from this server, never from Panel's CDN.

    Panel points a component's stylesheets at the server's copy once the session's
    page is rendered (it sets the document's ``dist_url`` then). A tab slow to
    connect on a busy machine outlives its session (bokeh lets an unconnected
    session go after ``--session-lifetime``), and bokeh makes a new one when the
    tab's websocket connects; no page is rendered for that one, so every
    stylesheet pointed at cdn.holoviz.org: dozens of failed loads offline (seen
    as console errors in the browser tests at load 20-29). Setting the address
    the page would set, before any component is made, gives both sessions the
    same stylesheets."""
    from panel.io.resources import get_dist_path
    if doc is not None:
        doc._template_variables.setdefault("dist_url", get_dist_path(cdn=False))


def _session_ended(context) -> None:
    # printed like Panel's "Launching server at ...": the server log is its output
    print("a browser tab's session ended", flush=True)


def _closed_socket(exc: BaseException | None) -> bool:
    from tornado.iostream import StreamClosedError
    from tornado.websocket import WebSocketClosedError
    return isinstance(exc, (WebSocketClosedError, StreamClosedError))


def quiet_closed_sockets(loop) -> None:
    """A browser tab closed while its page was being updated (a playtest's progress,
    bots playing to the end) leaves Panel's writes to that socket failing with
    WebSocketClosedError in futures nobody awaits any more, which asyncio prints as
    "Task exception was never retrieved" with two tracebacks. The update was for a
    page no one sees: such a failure is dropped (a debug line in the log); any other
    error still reaches the loop's usual handler."""
    import logging
    log = logging.getLogger("workbench.dashboard")
    previous = loop.get_exception_handler()

    def handler(loop_, context):
        if _closed_socket(context.get("exception")):
            log.debug("dropped an update for a closed browser tab")
            return
        if previous is not None:
            previous(loop_, context)
        else:
            loop_.default_exception_handler(context)
    loop.set_exception_handler(handler)
