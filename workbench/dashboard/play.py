"""The Play page: set up a game, give each seat to a human or a bot, step
through it with every legal action offered, travel back and forth in its
history, save and load it, and open a game handed over from a simulation.

:class:`PlayModel` is the plain model (a :class:`~workbench.core.history.Match`
plus the seat settings); :class:`PlayPage` draws it. Neither knows any rules:
the legal moves, the notation and the drawing of the table all come from the
engines (see :mod:`workbench.tabletop`)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import panel as pn
import param
from panel.custom import JSComponent

from workbench.core.bots import make_bot
from workbench.core.errors import WorkbenchError
from workbench.core.history import Match
from workbench.core.registry import get_game
from workbench.core.rng import Rng, derive_seed

from workbench.tabletop import draw_table
from .escape import md

HUMAN = "human"
SEAT_KINDS = [HUMAN, "greedy", "random"]

#: "play to end" gives up after this many actions, so a game whose bots never
#: finish cannot hang the page
MAX_ACTIONS_TO_END = 20_000


def available_games() -> list[str]:
    """Game ids whose engine imports, in listing order; a game still being
    written (or broken) is left out instead of breaking the page."""
    from workbench.core.registry import load_all
    return list(load_all())


class PlayModel(param.Parameterized):
    """A game being played at the table, with its settings and its history."""

    game_id = param.Selector(objects=[], doc="which game")
    players = param.Integer(default=4, bounds=(1, 8), doc="number of seats")
    seed = param.Integer(default=1, bounds=(0, None), doc="seed of the game's random stream")
    variants = param.ListSelector(default=[], objects=[], doc="variants switched on")
    seats = param.List(default=[], item_type=str, doc="per seat: 'human' or a bot spec")
    auto_bots = param.Boolean(default=True, doc="bots answer at once after a human move")
    whole_view = param.Boolean(default=False, doc="show the designer the whole position (every hand, the "
                               "deck order) rather than what the human seat may see")
    message = param.String(default="", doc="the last refusal or notice, one line")
    position = param.Parameter(default=None, doc="what the table shows, as an immutable snapshot: game, "
                               "pool label, match, cursor, actions, the spare line, seats and message; views "
                               "depend on it and redraw when it differs")

    def __init__(self, game_id: str | None = None, games: list[str] | None = None, **params):
        games = games if games is not None else available_games()
        if not games:
            raise WorkbenchError("no game engine could be loaded")
        super().__init__(**params)
        self.param.game_id.objects = list(games)
        self.match: Match | None = None
        self._session_game = None  # a game bound to an edited card pool, opened from Cards
        self.session_label = ""
        self._sync_game_settings(game_id or games[0], keep_players=False)
        self.new_game()

    # -- settings ------------------------------------------------------------
    @property
    def game(self):
        return self._session_game or get_game(self.game_id)

    def _sync_game_settings(self, game_id: str, keep_players: bool = True) -> None:
        game = get_game(game_id)
        default = game.default_players
        with param.parameterized.discard_events(self):
            self.game_id = game_id
            self.param.players.bounds = (game.min_players, game.max_players)
            if not keep_players or not game.min_players <= self.players <= game.max_players:
                self.players = default
            self.param.variants.objects = list(game.variants)
            self.variants = [v for v in self.variants if v in game.variants]
            self.seats = self._fit_seats(self.seats, self.players)

    @staticmethod
    def _fit_seats(seats: list[str], n: int) -> list[str]:
        """One entry per seat: seat 1 a human, the others greedy bots, unless
        set otherwise."""
        seats = list(seats)[:n]
        while len(seats) < n:
            seats.append(HUMAN if not seats else "greedy")
        return seats

    def choose_game(self, game_id: str) -> None:
        """Switch game and start a fresh one with its default player count."""
        self._sync_game_settings(game_id, keep_players=False)
        self.new_game()

    def set_seat(self, seat: int, kind: str) -> None:
        if kind != HUMAN:
            make_bot(kind)  # refuse an unknown bot before storing it
        seats = list(self.seats)
        seats[seat] = kind
        self.seats = seats
        self._changed()

    # -- starting --------------------------------------------------------------
    def new_game(self) -> None:
        """A fresh game from the current settings; bots move until a human must."""
        self._session_game, self.session_label = None, ""
        game = self.game
        self.seats = self._fit_seats(self.seats, self.players)
        config = game.config(self.players, seed=self.seed, variants=self.variants)
        self.match = Match(game, config)
        self.message = ""
        if self.auto_bots:
            self._run_bots(stop_at_human=True)
        self._changed()

    def open_match(self, data: dict, game=None, label: str = "") -> None:
        """Open a saved or handed-over game (``Match.to_dict`` shape: game, config,
        actions, cursor, and optionally ``seats``: per seat ``human`` or a bot
        spec with its settings). A game that does not replay, or names an
        unknown bot, is refused, the current one kept. A file without seats
        opens with every seat human. ``game`` plays it with a session game (an
        edited card pool, named by ``label``) instead of the registered one."""
        try:
            match = Match.from_dict(data, game=game)
            seats = seats_from(data.get("seats"), len(match.config.players))
        except (KeyError, TypeError, ValueError) as exc:
            raise WorkbenchError(f"not a saved game: missing or bad {exc}") from None
        self._sync_game_settings(match.game.id, keep_players=False)
        with param.parameterized.discard_events(self):
            self.players = len(match.config.players)
            self.seed = match.config.seed
            self.variants = [v for v in match.config.variants if v in self.param.variants.objects]
            self.seats = seats
        self.match = match
        self._session_game, self.session_label = game, (label if game is not None else "")
        where = f" on the {label}" if game is not None and label else ""
        self.message = f"opened a {match.game.name} game of {len(match)} actions{where}"
        self._changed()

    def to_dict(self) -> dict:
        """The game as saved: ``Match.to_dict`` plus the seats."""
        return {**self.match.to_dict(), "seats": list(self.seats)}

    def save(self, path: str | Path) -> None:
        from workbench.core.storage import atomic_write_text
        atomic_write_text(Path(path), self.save_text())

    def save_text(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def load(self, path: str | Path) -> None:
        from workbench.core.data import read_text_file
        self.load_text(read_text_file(Path(path)))

    def load_text(self, text: str) -> None:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise WorkbenchError(f"not a saved game: {exc}") from None
        if not isinstance(data, dict):
            raise WorkbenchError("not a saved game: expected a JSON object")
        self.open_match(data)

    # -- looking ---------------------------------------------------------------
    @property
    def state(self):
        return self.match.state

    @property
    def ply(self) -> int:
        return self.match.cursor

    @property
    def length(self) -> int:
        return len(self.match)

    def legal_moves(self) -> list[str]:
        return [] if self.state.is_terminal() else self.match.legal_moves()

    def to_move(self) -> str | None:
        """Name of whoever decides now, None once the game is over."""
        if self.state.is_terminal():
            return None
        return self.state.player_name(self.state.current_player())

    def seat_kind(self) -> str | None:
        if self.state.is_terminal():
            return None
        return self.seats[self.state.current_player()]

    # -- what the table shows: a seat's observation, not the whole position -----
    def hides(self) -> bool:
        """True when the page shows a seat's observation: the game hides
        something from some seat and the designer has not asked for the whole view."""
        return bool(self.game.hidden_information) and not self.whole_view

    def viewer(self) -> int | None:
        """The seat whose observation the table shows (hot-seat): the human seat
        to move, else the human seat that moved last, else the first human seat;
        None when every seat is a bot (the table then shows what all seats know)."""
        humans = [i for i, kind in enumerate(self.seats) if kind == HUMAN]
        if not humans:
            return None
        state = self.state
        if not state.is_terminal() and state.current_player() in humans:
            return state.current_player()
        for before in reversed(self.match.states[:self.ply]):
            if not before.is_terminal() and before.current_player() in humans:
                return before.current_player()
        return humans[0]

    def seat_view(self) -> dict | None:
        """The observation the table shows (``Game.observation`` of :meth:`viewer`,
        or the spectator's when no seat is human); None: the whole position."""
        if not self.hides():
            return None
        seat = self.viewer()
        if seat is None:
            from workbench.core.observation import public_observation
            return public_observation(self.game, self.state)
        return self.game.observation(self.state, seat)

    def view_label(self) -> str:
        if not self.hides():
            return "the whole position" if self.game.hidden_information else ""
        seat = self.viewer()
        return "what every seat knows" if seat is None else f"what {self.state.player_name(seat)} sees"

    def move_groups(self) -> dict[str, list[str]]:
        """The legal moves grouped by kind (the notation's first word), kinds
        in the order the engine first lists them. While the table shows a
        seat's observation, only that seat's own moves are listed (a rival's
        options can tell what it holds)."""
        groups: dict[str, list[str]] = {}
        if self.hides() and (self.state.is_terminal() or self.viewer() != self.state.current_player()):
            return groups
        for text in self.legal_moves():
            groups.setdefault(move_kind(text), []).append(text)
        return groups

    def inspect(self) -> dict:
        """The shown position as the engine observes it (``Game.observe``; the
        seat's observation while the table shows one), JSON-safe for the state inspector."""
        view = self.seat_view()
        shown = self.game.observe(self.state) if view is None else view["table"]
        return json.loads(json.dumps(shown, default=str))

    def alternate(self) -> str:
        """One line about the spare line a fork kept, empty when there is none."""
        alt = self.match.alternate
        if alt is None:
            return ""
        return (f"other line: {len(alt)} actions after position {alt.ply}"
                + (f", from {alt.actions[0]!r}" if alt.actions else ""))

    def switch_line(self) -> None:
        """Swap to the line the last fork replaced (and back)."""
        self.match.switch_line()
        self.message = ""
        self._changed()

    def log(self) -> list[dict]:
        """The actions so far: ply, who acted, the notation (a rival's move as
        the whole table saw it, ``Game.public_move``, while a seat's view is shown)."""
        rows = []
        hides, viewer = self.hides(), self.viewer()
        for i, text in enumerate(self.match.actions):
            before = self.match.states[i]
            who = "" if before.is_terminal() else before.player_name(before.current_player())
            if hides and (before.is_terminal() or before.current_player() != viewer):
                after = self.match.states[i + 1]
                line = self.game.public_move(before, self.game.parse_action(before, text), after)
                text = line[len(who) + 2:] if line.startswith(f"{who}: ") else line.removeprefix(f"{who} ")
            rows.append({"ply": i + 1, "player": who, "action": text})
        return rows

    def result(self):
        return self.game.result(self.state)

    def status(self) -> str:
        """One line saying where the game stands."""
        game, state = self.game, self.state
        position = f"position {self.ply} of {self.length}"
        if self.session_label:
            position += f" ({self.session_label})"
        if state.is_terminal():
            res = game.result(state)
            winners = ", ".join(res.winners) or "nobody"
            return f"Game over ({res.ending}) after {res.turns} rounds; winners: {winners}. {position}"
        shown = self.view_label()
        return f"{self.to_move()} ({self.seat_kind()}) to move; {position}" + (f"; showing {shown}" if shown else "")

    # -- acting ------------------------------------------------------------------
    def move(self, text: str) -> bool:
        """Play ``text`` (notation) for whoever is to move. A refused move sets
        :attr:`message` and changes nothing; returns whether it was played."""
        text = (text or "").strip()
        if not text:
            self.message = "choose or type a move first"
            return False
        if self.state.is_terminal():
            self.message = "the game is over; step back or start a new one"
            return False
        try:
            self.match.push(text)
        except WorkbenchError as exc:
            self.message = f"refused {text!r}: {exc}"
            self._changed()
            return False
        self.message = ""
        if self.auto_bots:
            self._run_bots(stop_at_human=True)
        self._changed()
        return True

    def _bot_for(self, seat: int):
        kind = self.seats[seat] if seat < len(self.seats) else "greedy"
        return make_bot("greedy" if kind == HUMAN else kind)

    def _bot_rng(self, seat: int) -> Rng:
        # Derived from seed, seat and ply: the same position always gets the same
        # bot choice, however the designer travelled there.
        return Rng(derive_seed(self.match.config.seed, "bot", seat, self.match.cursor))

    def _bot_step(self) -> str:
        state = self.state
        seat = state.current_player()
        action = self._bot_for(seat).choose(self.game, state, self._bot_rng(seat))
        self.match.push(action)
        # the move just played, which need not be the last one: replaying the
        # recorded move keeps the future
        return self.match.actions[self.match.cursor - 1]

    def _run_bots(self, stop_at_human: bool, limit: int = MAX_ACTIONS_TO_END) -> int:
        done = 0
        while not self.state.is_terminal() and done < limit:
            if stop_at_human and self.seat_kind() == HUMAN:
                break
            self._bot_step()
            done += 1
        return done

    def bot_move(self) -> str | None:
        """One move by the seat's bot (a human seat borrows a greedy bot)."""
        if self.state.is_terminal():
            self.message = "the game is over"
            return None
        played = self._bot_step()
        self.message = ""
        self._changed()
        return played

    def play_to_end(self, limit: int = MAX_ACTIONS_TO_END, notify: bool = True) -> int:
        """Bots take every seat (humans' too) until the game ends; returns the
        number of actions played. ``notify=False`` leaves telling the views to
        the caller (the page runs this on a worker thread and redraws on the
        event loop)."""
        done = self._run_bots(stop_at_human=False, limit=limit)
        self.message = "" if self.state.is_terminal() else f"stopped after {done} actions"
        if notify:
            self._changed()
        return done

    def back(self, steps: int = 1) -> None:
        self.match.back(steps)
        self._changed()

    def forward(self, steps: int = 1) -> None:
        self.match.forward(steps)
        self._changed()

    def goto(self, ply: int) -> None:
        self.match.goto(ply)
        self._changed()

    def _changed(self) -> None:
        """Publish the position after a change (an equal one tells no view)."""
        m = self.match
        alt = m.alternate
        self.position = (self.game_id, self.session_label, id(m), m.cursor, tuple(m.actions),
                         None if alt is None else (alt.ply, tuple(alt.actions)), tuple(self.seats), self.message)


def move_kind(text: str) -> str:
    """A move's kind for grouping: the first word of its notation."""
    return (text.split() or ["?"])[0]


def seats_from(seats, n: int) -> list[str]:
    """Seats read from a saved game: ``human`` or a bot spec each (checked,
    so an unknown bot is refused); missing means human."""
    if seats is None:
        return [HUMAN] * n
    if not isinstance(seats, list) or len(seats) != n:
        raise ValueError(f"seats (expected a list of {n})")
    out = []
    for kind in seats:
        kind = str(kind).strip()
        if kind != HUMAN:
            make_bot(kind)  # raises WorkbenchError for an unknown bot
        out.append(kind)
    return out


def seats_from_bots(spec, n: int) -> list[str]:
    """Per-seat bot specs from a simulation's bots (one spec fills every seat,
    a shorter comma list repeats its last entry, as ``make_bots`` reads it)."""
    specs = [x.strip() for x in spec.split(",") if x.strip()] if isinstance(spec, str) else list(spec)
    specs = specs or ["greedy"]
    return (specs + [specs[-1]] * n)[:n]


class LogView(JSComponent):
    """The game's log as a clickable list: a click on an action shows the
    position after it (a click on the heading line, position 0). The action
    leading to the shown position is highlighted and the future greyed; only
    ``ply`` travels when stepping through time, not the whole log."""

    rows = param.List(default=[], doc="[ply, player, action] per action")
    ply = param.Integer(default=0)

    _esm = """
    export function render({ model, el }) {
      const box = document.createElement("div");
      box.className = "play-log-box";
      box.style.cssText = "height:100%;overflow-y:auto;font-size:13px";
      const head = document.createElement("div");
      head.className = "play-log-start";
      head.textContent = "start of the game";
      head.style.cssText = "cursor:pointer;color:#445;padding:1px 4px";
      head.onclick = () => model.send_msg({ ply: 0 });
      const list = document.createElement("ol");
      list.className = "play-log";
      list.style.cssText = "margin:0;padding-left:2.8em";
      box.append(head, list);
      function draw() {
        list.replaceChildren();
        for (const [ply, who, action] of model.rows) {
          const li = document.createElement("li");
          li.value = ply;
          li.dataset.ply = ply;
          li.style.cursor = "pointer";
          const b = document.createElement("b");
          b.textContent = who ? who + ": " : "";
          li.append(b, document.createTextNode(action));
          li.title = "show the position after this action";
          li.onclick = () => model.send_msg({ ply: ply });
          list.append(li);
        }
        mark();
      }
      function mark() {
        head.style.background = model.ply === 0 ? "#fff3b0" : "";
        for (const li of list.children) {
          const p = Number(li.dataset.ply);
          li.classList.toggle("current", p === model.ply);
          li.classList.toggle("future", p > model.ply);
          li.style.background = p === model.ply ? "#fff3b0" : "";
          li.style.fontWeight = p === model.ply ? "bold" : "";
          li.style.color = p > model.ply ? "#6b6b6b" : "";
          if (p === model.ply) { li.scrollIntoView({ block: "nearest" }); }
        }
      }
      model.on("rows", draw);
      model.on("ply", mark);
      draw();
      return box;
    }
    """

    def __init__(self, on_click=None, **params):
        super().__init__(**params)
        self._on_click = on_click

    def _handle_msg(self, msg) -> None:
        if self._on_click is not None and isinstance(msg, dict) and "ply" in msg:
            self._on_click(int(msg["ply"]))


ALL_KINDS = "all kinds"


class PlayPage(pn.viewable.Viewer):
    """The Play page: settings on the left, the table in the middle, the
    moves and the log on the right."""

    model = param.ClassSelector(class_=PlayModel)

    def __init__(self, model: PlayModel | None = None, bench=None, **params):
        self.bench = bench
        super().__init__(model=model or (bench.play if bench is not None else PlayModel()), **params)
        m = self.model
        self._game = pn.widgets.Select(label="Game", options=m.param.game_id.objects,
                                       value=m.game_id, width=200, css_classes=["play-game"])
        self._players = pn.widgets.IntInput(label="Players", value=m.players, width=90,
                                            start=m.param.players.bounds[0],
                                            end=m.param.players.bounds[1])
        self._seed = pn.widgets.IntInput(label="Seed", value=m.seed, start=0, width=100)
        self._variants = pn.widgets.MultiChoice(label="Variants", options=list(m.param.variants.objects),
                                                value=list(m.variants), width=200)
        self._new = pn.widgets.Button(label="New game", color="primary", width=200)
        self._whole = pn.widgets.Checkbox(name="Show the whole position (every hand)", value=m.whole_view,
                                          width=220, css_classes=["play-whole-view"])
        self._seats = pn.Column(sizing_mode="stretch_width")
        self._kind = pn.widgets.Select(label="Kind of move", options=[ALL_KINDS], width=320,
                                       css_classes=["play-kind"])
        self._filter = pn.widgets.TextInput(label="Filter moves", placeholder="words in the move",
                                            width=320, css_classes=["play-filter"])
        self._moves = pn.widgets.Select(label="Legal moves", options=[], size=12, width=320,
                                        css_classes=["play-moves"])
        self._typed = pn.widgets.AutocompleteInput(
            label="…or type a move", placeholder="", width=320, options=[],
            restrict=False, case_sensitive=False, search_strategy="includes", min_characters=1,
            css_classes=["play-typed"])
        self._play = pn.widgets.Button(label="Play move", color="success", width=100)
        self._bot = pn.widgets.Button(label="Bot move", width=100)
        self._end = pn.widgets.Button(label="Play to end", width=100)
        self._back = pn.widgets.Button(label="◀ Back", width=80)
        self._fwd = pn.widgets.Button(label="Forward ▶", width=80)
        self._slider = pn.widgets.IntSlider(label="History", start=0, end=1, value=0,
                                            sizing_mode="stretch_width")
        self._other = pn.widgets.Button(label="Other line", width=110, visible=False,
                                        css_classes=["play-other-line"])
        self._status = pn.pane.Markdown("", css_classes=["play-status"])
        self._message = pn.pane.Alert("", alert_type="warning", visible=False)
        self._table = pn.Column(sizing_mode="stretch_width")
        self._inspector = pn.pane.JSON({}, depth=2, sizing_mode="stretch_width",
                                       css_classes=["play-inspector"])
        self._inspect_card = pn.Card(self._inspector, title="State inspector (observe)", collapsed=True,
                                     sizing_mode="stretch_width")
        self._log = LogView(on_click=self._on_log_click, height=420, width=320)
        self._download = pn.widgets.FileDownload(callback=self._save_file, filename="game.json",
                                                 label="Save game", width=200)
        self._upload = pn.widgets.FileInput(accept=".json", width=200)

        self._game.param.watch(self._on_game, "value")
        self._new.on_click(self._on_new)
        self._play.on_click(self._on_play)
        self._typed.param.watch(self._on_typed, "value")
        self._kind.param.watch(lambda e: self._show_moves(), "value")
        self._filter.param.watch(lambda e: self._show_moves(), "value_input")
        self._bot.on_click(lambda e: self._guard(m.bot_move))
        self._end.on_click(self._on_end)
        self._back.on_click(lambda e: self._guard(m.back))
        self._fwd.on_click(lambda e: self._guard(m.forward))
        self._other.on_click(lambda e: self._guard(m.switch_line))
        self._slider.param.watch(self._on_slider, "value_throttled")
        self._upload.param.watch(self._on_upload, "value")
        self._whole.param.watch(self._on_whole_view, "value")
        # the inspector is filled only while open: observe() of a big game is not free
        self._inspect_card.param.watch(
            lambda e: None if e.new else setattr(self._inspector, "object", self.model.inspect()),
            "collapsed")
        self._worker: threading.Thread | None = None
        self._poll = None
        self._shown_game = m.game_id
        self._build_seats()
        self._refresh()

    # -- callbacks --------------------------------------------------------
    def _guard(self, fn, *args):
        try:
            fn(*args)
        except WorkbenchError as exc:
            self.model.message = str(exc)
            self._refresh()

    def _on_whole_view(self, event):
        self.model.whole_view = bool(event.new)
        self._refresh()

    def _on_log_click(self, ply: int):
        if ply != self.model.ply:
            self._guard(self.model.goto, ply)

    def _on_end(self, event=None):
        """Play to the end on a worker thread (a long game would otherwise
        freeze the page); a periodic callback on the event loop shows progress
        and redraws when it is done."""
        if self._worker is not None and self._worker.is_alive():
            return
        self._set_busy(True)
        self._worker = threading.Thread(target=self._end_worker, name="play-to-end", daemon=True)
        self._worker.start()
        self._poll = pn.state.add_periodic_callback(self._end_tick, period=250)

    def _end_worker(self):
        try:
            self.model.play_to_end(notify=False)
        except WorkbenchError as exc:
            self.model.message = str(exc)

    def _end_tick(self):
        if self._worker is not None and self._worker.is_alive():
            self._status.object = f"**{md(self.model.game.name)}** · bots playing… {self.model.length} actions"
            return
        if self._poll is not None:
            self._poll.stop()
            self._poll = None
        self._set_busy(False)
        # the page redraws itself (its buttons were busy), whether or not the position changed
        with param.parameterized.discard_events(self.model):
            self.model._changed()
        self._refresh()

    def _set_busy(self, busy: bool):
        for w in (self._play, self._bot, self._end, self._back, self._fwd, self._slider, self._new,
                  self._upload, self._game, self._other):
            w.disabled = busy

    async def _on_game(self, event):
        # the widget also follows the model when a game is loaded or handed over;
        # only a choice by the designer starts a new game
        if event.new != self.model.game_id:
            import asyncio

            from .names import game_name
            # setting up a game and letting the bots reach the first human seat can take
            # seconds: the status says so first (sent at the await), never the old game's line
            self._status.object = f"**{md(game_name(event.new))}** · setting up a new game…"
            await asyncio.sleep(0.05)
            self._guard(self.model.choose_game, event.new)
        self._on_sync_settings()

    def _on_new(self, event=None):
        m = self.model
        with param.parameterized.discard_events(m):
            m.players = int(self._players.value)
            m.seed = int(self._seed.value)
            m.variants = list(self._variants.value)
            m.seats = [w.value for w in self._seats.objects] or m.seats
        self._guard(m.new_game)
        self._build_seats()

    def _on_play(self, event=None):
        text = (self._typed.value or "").strip() or (self._moves.value or "")
        if self.model.move(text):
            self._typed.value = ""

    def _on_typed(self, event):
        # Enter, or a pick from the suggestions, plays the move; clearing the box does nothing
        if (event.new or "").strip():
            self._on_play()

    def _on_slider(self, event):
        if event.new != self.model.ply:
            self._guard(self.model.goto, event.new)

    def _on_upload(self, event):
        if event.new:
            raw = event.new.decode("utf-8", errors="replace")
            self._guard(self.model.load_text, raw)
            self._on_sync_settings()

    def _on_sync_settings(self):
        """Settings widgets follow the model (after a load, a hand-over, a game switch)."""
        m = self.model
        self._shown_game = m.game_id
        if self._game.value != m.game_id:
            self._game.value = m.game_id
        self._players.start, self._players.end = m.param.players.bounds
        self._players.value = m.players
        self._seed.value = m.seed
        self._variants.options = list(m.param.variants.objects)
        self._variants.value = list(m.variants)
        self._build_seats()

    def _save_file(self):
        from io import StringIO
        self._download.filename = f"{self.model.game_id}-seed{self.model.seed}.json"
        return StringIO(self.model.save_text())

    def _build_seats(self):
        m = self.model
        names = m.match.config.players
        widgets = []
        for i, kind in enumerate(m.seats):
            name = names[i] if i < len(names) else f"seat {i + 1}"
            # a bot with settings (mcts:200, ban:Shell:greedy) keeps its spec as an option
            options = SEAT_KINDS + ([kind] if kind not in SEAT_KINDS else [])
            w = pn.widgets.Select(label=name, options=options, value=kind, width=200,
                                  css_classes=["play-seat"])
            w.param.watch(lambda e, seat=i: self._guard(m.set_seat, seat, e.new), "value")
            widgets.append(w)
        self._seats.objects = widgets

    # -- drawing --------------------------------------------------------------
    def _show_moves(self):
        """The moves list: one kind (or all), narrowed by the filter words."""
        groups = self.model.move_groups()
        kind = self._kind.value
        moves = groups.get(kind, []) if kind in groups else [t for g in groups.values() for t in g]
        words = (self._filter.value_input or "").lower().split()
        if words:
            moves = [t for t in moves if all(w in t.lower() for w in words)]
        # never an empty list: a browser select without options sends back a null
        # value, which Panel refuses
        self._moves.options = moves or {"(no move matches)": ""}
        self._moves.value = moves[0] if moves else ""
        total = sum(len(g) for g in groups.values())
        self._moves.name = f"Legal moves ({len(moves)} of {total})" if len(moves) != total \
            else f"Legal moves ({total})"

    @param.depends("model.position", watch=True)
    def _on_position(self) -> None:
        self._refresh()

    def _refresh(self):
        """Redraw everything in one message to the browser, so the status line
        and the table never show two different positions. A hidden page is not
        redrawn; it catches up when shown."""
        if self.bench is None:
            self._redraw()
        else:
            self.bench.when_shown("Play", self._redraw)

    def _redraw(self):
        with pn.io.hold():
            self._draw()

    def _draw(self):
        m = self.model
        if m.game_id != self._shown_game or [w.value for w in self._seats.objects] != list(m.seats):
            self._on_sync_settings()
        groups = m.move_groups()
        kinds = [ALL_KINDS] + [f"{k}" for k in groups]
        self._kind.options = kinds
        if self._kind.value not in kinds:
            self._kind.value = ALL_KINDS
        self._show_moves()
        self._typed.options = [t for g in groups.values() for t in g]
        # the example is a move of the selected game, in its own notation
        self._typed.placeholder = f"e.g. {self._typed.options[0]}" if self._typed.options else ""
        over = m.state.is_terminal()
        for w in (self._play, self._bot, self._end, self._moves, self._typed, self._kind, self._filter):
            w.disabled = over
        self._back.disabled = m.ply == 0
        self._fwd.disabled = m.ply >= m.length
        self._slider.end = max(1, m.length)
        self._slider.disabled = m.length == 0
        if self._slider.value != m.ply:
            self._slider.value = m.ply
        alt = m.alternate()
        self._other.visible = bool(alt)
        self._other.description = alt or None
        self._status.object = f"**{md(m.game.name)}** · {md(m.status())}" + (f" · *{md(alt)}*" if alt else "")
        self._message.object = md(m.message)
        self._message.visible = bool(m.message)
        rows = [[r["ply"], r["player"], r["action"]] for r in m.log()]
        if rows != self._log.rows:
            self._log.rows = rows
        self._log.ply = m.ply
        if not self._inspect_card.collapsed:
            self._inspector.object = m.inspect()
        try:
            view = m.seat_view()
            drawn = draw_table(m.game if view is None else SeatTable(m.game, view["table"]), m.state)
        except Exception as exc:  # noqa: BLE001 - a drawing bug must not kill the page
            drawn = pn.pane.Alert(f"cannot draw this position: {md(exc)}", alert_type="danger")
        if not (self._table.objects and update_in_place(self._table.objects[0], drawn)):
            self._table.objects = [drawn]

    def __panel__(self):
        settings = pn.Column("### Setup", self._game, pn.Row(self._players, self._seed),
                             self._variants, "#### Seats", self._seats, self._whole, self._new,
                             "#### Save / load", self._download, self._upload, width=230)
        moves = pn.Column("### Moves", self._kind, self._filter, self._moves, self._typed,
                          pn.Row(self._play, self._bot, self._end),
                          "### Log", self._log, width=340)
        middle = pn.Column(self._status, self._message,
                           pn.Row(self._back, self._fwd, self._slider, self._other,
                                  sizing_mode="stretch_width"),
                           self._table, self._inspect_card, sizing_mode="stretch_width")
        return pn.Row(settings, middle, moves, sizing_mode="stretch_width")


class SeatTable:
    """The game as a table drawer sees it while a seat's observation is shown:
    ``observe`` answers with that observation's table (what the seat may know,
    masked values reading ``hidden``), everything else is the game's."""

    def __init__(self, game, table: dict):
        self._game, self._table = game, table

    def __getattr__(self, name):
        return getattr(self._game, name)

    def observe(self, state) -> dict:
        return json.loads(json.dumps(self._table))


def update_in_place(old, new) -> bool:
    """Make the drawn ``old`` show what ``new`` shows without replacing it,
    where both have the same shape (HTML and Bokeh panes, layouts of them):
    the browser then changes a pane's content instead of building a new one.
    Returns False where the shapes differ (the caller replaces ``old``)."""
    if type(old) is not type(new):
        return False
    if isinstance(old, pn.layout.ListLike):
        if len(old.objects) != len(new.objects):
            return False
        return all(update_in_place(a, b) for a, b in zip(old.objects, new.objects))
    if isinstance(old, (pn.pane.HTML, pn.pane.Markdown, pn.pane.Alert)):
        if old.object != new.object:
            old.object = new.object
        return True
    if isinstance(old, pn.pane.Bokeh):
        update_figure(old, new.object)
        return True
    return False


def update_figure(pane, fig) -> None:
    """Copy a freshly drawn figure's data into the shown one when both have
    the same renderers (the usual case when stepping through a game); a
    different figure replaces it."""
    shown = pane.object
    old_r = [r for r in getattr(shown, "renderers", []) if hasattr(r, "data_source")]
    new_r = [r for r in getattr(fig, "renderers", []) if hasattr(r, "data_source")]
    same = len(old_r) == len(new_r) and all(
        type(a.glyph) is type(b.glyph) and set(a.data_source.data) == set(b.data_source.data)
        for a, b in zip(old_r, new_r))
    if not same:
        pane.object = fig
        return
    for a, b in zip(old_r, new_r):
        a.data_source.data = dict(b.data_source.data)
    if getattr(shown, "title", None) is not None and getattr(fig, "title", None) is not None:
        shown.title.text = fig.title.text
