"""The Play page: set up a game, give each seat to a human or a bot, step
through it with every legal action offered, travel back and forth in its
history, save and load it, and open a game handed over from a simulation.

:class:`PlayModel` is the plain model (a :class:`~workbench.core.history.Match`
plus the seat settings); :class:`PlayPage` draws it. Neither knows any rules:
the legal moves, the notation and the drawing of the table all come from the
engines (see :mod:`workbench.dashboard.tabletop`)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import panel as pn
import param

from workbench.core.bots import make_bot
from workbench.core.errors import WorkbenchError
from workbench.core.history import Match
from workbench.core.registry import game_ids, get_game
from workbench.core.rng import Rng, derive_seed

from .tabletop import draw_table
from .escape import md

HUMAN = "human"
SEAT_KINDS = [HUMAN, "greedy", "random"]

#: "play to end" gives up after this many actions, so a game whose bots never
#: finish cannot hang the page
MAX_ACTIONS_TO_END = 20_000


def available_games() -> list[str]:
    """Game ids whose engine imports; a game still being written (or broken)
    is left out instead of breaking the page."""
    out = []
    for gid in game_ids():
        try:
            get_game(gid)
        except Exception:  # noqa: BLE001 - any failure means "not offered"
            continue
        out.append(gid)
    return out


class PlayModel(param.Parameterized):
    """A game being played at the table, with its settings and its history."""

    game_id = param.Selector(objects=[], doc="which game")
    players = param.Integer(default=4, bounds=(1, 8), doc="number of seats")
    seed = param.Integer(default=1, bounds=(0, None), doc="seed of the game's random stream")
    variants = param.ListSelector(default=[], objects=[], doc="variants switched on")
    seats = param.List(default=[], item_type=str, doc="per seat: 'human' or a bot spec")
    auto_bots = param.Boolean(default=True, doc="bots answer at once after a human move")
    message = param.String(default="", doc="the last refusal or notice, one line")
    version = param.Integer(default=0, doc="bumped on every change, so views redraw")

    def __init__(self, game_id: str | None = None, games: list[str] | None = None, **params):
        games = games if games is not None else available_games()
        if not games:
            raise WorkbenchError("no game engine could be loaded")
        super().__init__(**params)
        self.param.game_id.objects = list(games)
        self.match: Match | None = None
        self._sync_game_settings(game_id or games[0], keep_players=False)
        self.new_game()

    # -- settings ------------------------------------------------------------
    @property
    def game(self):
        return get_game(self.game_id)

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
        game = self.game
        self.seats = self._fit_seats(self.seats, self.players)
        config = game.config(self.players, seed=self.seed, variants=self.variants)
        self.match = Match(game, config)
        self.message = ""
        if self.auto_bots:
            self._run_bots(stop_at_human=True)
        self._changed()

    def open_match(self, data: dict) -> None:
        """Open a saved or handed-over game (``Match.to_dict`` shape: game, config,
        actions, cursor). A game that does not replay is refused, the current
        one kept."""
        try:
            match = Match.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise WorkbenchError(f"not a saved game: missing or bad {exc}") from None
        self._sync_game_settings(match.game.id, keep_players=False)
        with param.parameterized.discard_events(self):
            self.players = len(match.config.players)
            self.seed = match.config.seed
            self.variants = [v for v in match.config.variants if v in self.param.variants.objects]
            self.seats = [HUMAN] * len(match.config.players)
        self.match = match
        self.message = f"opened a {match.game.name} game of {len(match)} actions"
        self._changed()

    def save(self, path: str | Path) -> None:
        self.match.save(path)

    def save_text(self) -> str:
        return json.dumps(self.match.to_dict(), indent=1, ensure_ascii=False) + "\n"

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

    def log(self) -> list[dict]:
        """The actions so far: ply, who acted, the notation."""
        rows = []
        for i, text in enumerate(self.match.actions):
            before = self.match.states[i]
            who = "" if before.is_terminal() else before.player_name(before.current_player())
            rows.append({"ply": i + 1, "player": who, "action": text})
        return rows

    def result(self):
        return self.game.result(self.state)

    def status(self) -> str:
        """One line saying where the game stands."""
        game, state = self.game, self.state
        position = f"position {self.ply} of {self.length}"
        if state.is_terminal():
            res = game.result(state)
            winners = ", ".join(res.winners) or "nobody"
            return f"Game over ({res.ending}) after {res.turns} rounds; winners: {winners}. {position}"
        return f"{self.to_move()} ({self.seat_kind()}) to move; {position}"

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
        return self.match.actions[-1]

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
        self.version += 1


class PlayPage(pn.viewable.Viewer):
    """The Play page: settings on the left, the table in the middle, the
    moves and the log on the right."""

    def __init__(self, model: PlayModel | None = None, **params):
        super().__init__(**params)
        self.model = model or PlayModel()
        m = self.model
        self._game = pn.widgets.Select(label="Game", options=m.param.game_id.objects,
                                       value=m.game_id, width=200)
        self._players = pn.widgets.IntInput(label="Players", value=m.players, width=90,
                                            start=m.param.players.bounds[0],
                                            end=m.param.players.bounds[1])
        self._seed = pn.widgets.IntInput(label="Seed", value=m.seed, start=0, width=100)
        self._variants = pn.widgets.MultiChoice(label="Variants", options=list(m.param.variants.objects),
                                                value=list(m.variants), width=200)
        self._new = pn.widgets.Button(label="New game", color="primary", width=200)
        self._seats = pn.Column(sizing_mode="stretch_width")
        self._moves = pn.widgets.Select(label="Legal moves", options=[], size=10, width=320)
        self._typed = pn.widgets.TextInput(label="…or type a move", placeholder="e.g. gather E I",
                                           width=320)
        self._play = pn.widgets.Button(label="Play move", color="success", width=100)
        self._bot = pn.widgets.Button(label="Bot move", width=100)
        self._end = pn.widgets.Button(label="Play to end", width=100)
        self._back = pn.widgets.Button(label="◀ Back", width=80)
        self._fwd = pn.widgets.Button(label="Forward ▶", width=80)
        self._slider = pn.widgets.IntSlider(label="History", start=0, end=1, value=0,
                                            sizing_mode="stretch_width")
        self._status = pn.pane.Markdown("", css_classes=["play-status"])
        self._message = pn.pane.Alert("", alert_type="warning", visible=False)
        self._table = pn.Column(sizing_mode="stretch_width")
        self._log = pn.pane.HTML("", height=420, styles={"overflow-y": "auto"}, width=320)
        self._download = pn.widgets.FileDownload(callback=self._save_file, filename="game.json",
                                                 label="Save game", width=200)
        self._upload = pn.widgets.FileInput(accept=".json", width=200)

        self._game.param.watch(self._on_game, "value")
        self._new.on_click(self._on_new)
        self._play.on_click(self._on_play)
        self._typed.param.watch(self._on_play, "enter_pressed")
        self._bot.on_click(lambda e: self._guard(m.bot_move))
        self._end.on_click(self._on_end)
        self._back.on_click(lambda e: self._guard(m.back))
        self._fwd.on_click(lambda e: self._guard(m.forward))
        self._slider.param.watch(self._on_slider, "value_throttled")
        self._upload.param.watch(self._on_upload, "value")
        m.param.watch(lambda e: self._refresh(), "version")
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
        self.model._changed()

    def _set_busy(self, busy: bool):
        for w in (self._play, self._bot, self._end, self._back, self._fwd, self._slider, self._new,
                  self._upload, self._game):
            w.disabled = busy

    def _on_game(self, event):
        # the widget also follows the model when a game is loaded or handed over;
        # only a choice by the designer starts a new game
        if event.new != self.model.game_id:
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
        text = self._typed.value.strip() or (self._moves.value or "")
        if self.model.move(text):
            self._typed.value = ""

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
            w = pn.widgets.Select(label=name, options=SEAT_KINDS, value=kind if kind in SEAT_KINDS
                                  else SEAT_KINDS[1], width=200)
            w.param.watch(lambda e, seat=i: self._guard(m.set_seat, seat, e.new), "value")
            widgets.append(w)
        self._seats.objects = widgets

    # -- drawing --------------------------------------------------------------
    def _refresh(self):
        m = self.model
        if m.game_id != self._shown_game or [w.value for w in self._seats.objects] != list(m.seats):
            self._on_sync_settings()
        moves = m.legal_moves()
        self._moves.options = moves
        if moves:
            self._moves.value = moves[0]
        over = m.state.is_terminal()
        for w in (self._play, self._bot, self._end, self._moves, self._typed):
            w.disabled = over
        self._back.disabled = m.ply == 0
        self._fwd.disabled = m.ply >= m.length
        self._slider.end = max(1, m.length)
        self._slider.disabled = m.length == 0
        if self._slider.value != m.ply:
            self._slider.value = m.ply
        self._status.object = f"**{md(m.game.name)}** · {md(m.status())}"
        self._message.object = md(m.message)
        self._message.visible = bool(m.message)
        self._log.object = _log_html(m.log(), m.ply)
        try:
            self._table.objects = [draw_table(m.game, m.state)]
        except Exception as exc:  # noqa: BLE001 - a drawing bug must not kill the page
            self._table.objects = [pn.pane.Alert(f"cannot draw this position: {md(exc)}",
                                                 alert_type="danger")]

    def __panel__(self):
        settings = pn.Column("### Setup", self._game, pn.Row(self._players, self._seed),
                             self._variants, "#### Seats", self._seats, self._new,
                             "#### Save / load", self._download, self._upload, width=230)
        moves = pn.Column("### Moves", self._moves, self._typed,
                          pn.Row(self._play, self._bot, self._end),
                          "### Log", self._log, width=340)
        middle = pn.Column(self._status, self._message,
                           pn.Row(self._back, self._fwd, self._slider, sizing_mode="stretch_width"),
                           self._table, sizing_mode="stretch_width")
        return pn.Row(settings, middle, moves, sizing_mode="stretch_width")

def _log_html(rows: list[dict], ply: int) -> str:
    """The log as an ordered list; the action that led to the shown position is
    highlighted and later actions (the future, after stepping back) greyed."""
    from html import escape
    if not rows:
        return "<p class='play-log'><em>no actions yet</em></p>"
    items = []
    for row in rows:
        style = ""
        if row["ply"] == ply:
            style = " style='background:#fff3b0;font-weight:bold'"
        elif row["ply"] > ply:
            style = " style='color:#999'"
        items.append(f"<li value='{row['ply']}'{style}><b>{escape(row['player'])}</b>: "
                     f"{escape(row['action'])}</li>")
    return "<ol class='play-log' style='margin:0;padding-left:2.5em'>" + "".join(items) + "</ol>"
