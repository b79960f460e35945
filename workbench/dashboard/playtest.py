"""The Playtest page: the designer opens rooms, hands out seat links, watches
every seat and steers the table (pause, undo by agreement, a bot for a person
who left, the next game on the current pool, end).

:class:`PlaytestModel` holds the form and does the work through the server's
:class:`~workbench.rooms.room.RoomHall` (:func:`workbench.rooms.web.hall`);
:class:`PlaytestPage` draws it and refreshes while rooms change. The seats'
own pages are :mod:`workbench.rooms.web`; nothing of a seat's view is built here.
"""

from __future__ import annotations

import json

import panel as pn
import param

from workbench.core.errors import WorkbenchError

from .escape import md
from .names import game_name
from .progress import ProgressLine

REFRESH_MS = 700


def seat_specs(text: str, players: int) -> list[dict]:
    """``"person, Ana=person, greedy, mcts:200"`` as seat dicts; a shorter list
    is filled with people."""
    specs = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        name, _, kind = part.rpartition("=")
        kind = kind.strip()
        spec = {"kind": "person"} if kind.lower() in ("person", "human") else {"kind": "bot", "bot": kind}
        if name.strip():
            spec["name"] = name.strip()
        specs.append(spec)
    if len(specs) > players:
        raise WorkbenchError(f"{len(specs)} seats given for {players} players")
    return specs + [{"kind": "person"}] * (players - len(specs))


class PlaytestModel(param.Parameterized):
    """The open-a-room form and the designer's actions on rooms."""

    game_id = param.Selector(objects=[])
    players = param.Integer(default=4, bounds=(1, 8))
    seats = param.String(default="person, person, person, greedy",
                         doc="one per seat: person, or a bot (random, greedy, mcts:200); Name=... names the seat")
    variants = param.ListSelector(default=[], objects=[])
    options = param.String(default="", doc="game options, key=value separated by spaces")
    base_url = param.String(default="", doc="how players reach this server (LAN address or tunnel URL)")
    message = param.String(default="")
    version = param.Integer(default=0, doc="bumped whenever a room changed")

    def __init__(self, bench=None, **params):
        from .play import available_games
        super().__init__(**params)
        self.bench = bench
        games = available_games()
        self.param.game_id.objects = games
        if self.game_id is None:
            self.game_id = games[0]
        self._follow_game()

    @param.depends("game_id", watch=True)
    def _follow_game(self) -> None:
        game = self.game()
        self.param.variants.objects = list(game.variants)
        self.variants = []
        self.param.players.bounds = (game.min_players, game.max_players)
        self.players = game.default_players

    def game(self):
        """The game a new room plays: the Cards page's edited pool when the
        designer is tweaking this game's cards, else the card folder's."""
        from workbench.core.registry import get_game
        game = get_game(self.game_id)
        pool = getattr(self.bench, "pool", None) if self.bench is not None else None
        if pool is not None and pool.game_id == self.game_id and pool.cards != pool.baseline:
            return get_game(pool.session_game("edited"))
        return game

    def hall(self):
        """The server's rooms; refused outside ``workbench serve`` and on a
        read-only dashboard (whoever watches rooms sees every seat's hand)."""
        from workbench.rooms.web import serving
        if getattr(self.bench, "read_only", False):
            raise WorkbenchError("playtest rooms are run from the designer's dashboard, not a read-only one")
        hall = serving()
        if hall is None:
            raise WorkbenchError("playtest rooms need the server: run `workbench serve`")
        return hall

    def available(self) -> str | None:
        """Why rooms cannot be used here, or None when they can."""
        try:
            self.hall()
        except WorkbenchError as exc:
            return str(exc)
        return None

    def open_room(self):
        from workbench.core.options import options as parse_options
        from workbench.rooms.web import driver
        try:
            specs = seat_specs(self.seats, self.players)
            options = parse_options(self.options.split())
            room = self.hall().open_room(self.game(), self.players, specs, variants=self.variants, options=options)
        except WorkbenchError as exc:
            self.message = f"not opened: {exc}"
            return None
        driver().changed(room)
        self.message = f"room {room.id} opened: send each person their link"
        self.version += 1
        return room

    def act(self, room_id: str, what: str, seat: int | None = None) -> None:
        """One designer action on a room; a refusal becomes the message."""
        from workbench.rooms.web import driver
        try:
            hall = self.hall()
            room = hall.get(room_id)
            if what == "pause":
                room.set_paused(not room.paused)
            elif what == "undo":
                room.undo()
            elif what == "next":
                room.start_game(self.game() if room.game.id == self.game_id else None)
            elif what == "end":
                hall.close(room_id)
            elif what == "bot":
                room.replace_with_bot(seat, "greedy")
            elif what == "link":
                room.new_link(seat)
            elif what == "spectator":
                room.new_spectator_link()
            elif what == "replay":
                self.replay(room_id)
                return
            else:
                raise WorkbenchError(f"unknown action {what!r}")
            if what != "end":
                driver().changed(room)
            self.message = f"room {room_id}: {what} done"
        except WorkbenchError as exc:
            self.message = f"room {room_id}: {exc}"
        self.version += 1

    def link(self, token: str) -> str:
        from workbench.rooms.web import seat_link, served_at
        return seat_link(self.base_url or served_at(), token)

    def say(self, room_id: str, text: str) -> None:
        """The designer's chat line to a room (every seat and the spectators read it)."""
        try:
            room = self.hall().get(room_id)
            room.send_chat(room.chat(None, text))
            self.message = f"room {room_id}: said"
        except WorkbenchError as exc:
            self.message = f"room {room_id}: {exc}"
        self.version += 1

    def replay(self, room_id: str) -> None:
        """Open the room's current game on the Play page (Match replay)."""
        room = self.hall().get(room_id)
        self.open_journal_game(room.game_id, game=room.game if room.game.session_id else None)

    def journal_games(self) -> list[dict]:
        """The journal's games, newest first: id, room, game, status, moves, surveys."""
        journal = self.hall().journal
        out = []
        for row in reversed(journal.games()):
            config = json.loads(row["config"])
            out.append({"id": row["id"], "room": row["room"], "game": config.get("game"), "status": row["status"],
                        "moves": len(journal.moves(row["id"])), "surveys": len(journal.surveys(row["id"])),
                        "pool": row["pool_version"]})
        return out

    def open_journal_game(self, game_id: int, game=None) -> None:
        """Replay journal game ``game_id`` on the Play page."""
        try:
            data = self.hall().journal.saved_game(int(game_id))
            if self.bench is None:
                raise WorkbenchError("no Play page to open it on")
            self.bench.open_in_play(data, game=game, label="playtest" if game is not None else "")
            self.message = f"game {game_id} opened on the Play page"
        except WorkbenchError as exc:
            self.message = f"cannot open game {game_id}: {exc}"


class PlaytestPage(pn.viewable.Viewer):
    """The designer's view of every room."""

    def __init__(self, bench=None, **params):
        super().__init__(**params)
        self.model = PlaytestModel(bench=bench)
        m = self.model
        self.open_button = pn.widgets.Button(label="Open room", color="primary")
        self.open_button.on_click(self._on_open_room)
        self.doing = ProgressLine("playtest")
        # not bound to the model: a choice first says what it loads, then sets the model
        self.game = pn.widgets.Select(label="Game", options=list(m.param.game_id.objects), value=m.game_id)
        self.game.param.watch(self._on_game, "value")
        m.param.watch(lambda e: setattr(self.game, "value", e.new), "game_id")
        self.form = pn.Column(
            pn.pane.Markdown("### Open a playtest room\nEach person gets a link; bots answer in turn. "
                             "The journal keeps every move, chat line and survey."),
            pn.Row(self.game,
                   pn.widgets.IntInput.from_param(m.param.players, name="Players", width=100)),
            pn.widgets.TextInput.from_param(m.param.seats, name="Seats (person or a bot, comma separated)",
                                            sizing_mode="stretch_width"),
            pn.Row(pn.widgets.MultiChoice.from_param(m.param.variants, name="Variants"),
                   pn.widgets.TextInput.from_param(m.param.options, name="Options (key=value ...)")),
            pn.widgets.TextInput.from_param(m.param.base_url, name="Links start with (LAN address or tunnel)",
                                            sizing_mode="stretch_width"),
            self.open_button, self.doing.pane,
            pn.pane.Markdown(m.param.message, css_classes=["playtest-message"]),
            sizing_mode="stretch_width")
        self.rooms = pn.Column(sizing_mode="stretch_width", css_classes=["playtest-rooms"])
        import pandas as pd
        self.games = pn.widgets.Tabulator(pd.DataFrame(), disabled=True, selectable=1, show_index=False, height=220,
                                          sizing_mode="stretch_width", css_classes=["playtest-journal"])
        self.open_game = pn.widgets.Button(label="Open selected game in Play")
        self.open_game.on_click(self._open_selected)
        self._seen = None
        self._callback = None
        m.param.watch(lambda e: self.refresh(force=True), "version")
        self.refresh(force=True)
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            self._callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)
            if not m.base_url:
                # the address the designer reached this page by (a LAN name or a
                # tunnel's, when they opened it that way); they may type another
                request = pn.state.curdoc.session_context.request
                host = request.headers.get("Host") if request is not None else None
                if host:
                    scheme = request.headers.get("X-Forwarded-Proto") or "http"
                    m.base_url = f"{scheme}://{host}"

    def _signature(self):
        if self.model.available():
            return None
        hall = self.model.hall()
        return tuple((r.id, r.closed, r.paused, r.number, len(r.moves), len(r.surveyed),
                      tuple(s.connected for s in r.seats), tuple(s.kind for s in r.seats),
                      tuple(s.token_hash for s in r.seats), r.spectator_hash, len(r.chat_lines),
                      tuple(c["text"] for c in r.chat_lines[-1:])) for r in hall.rooms.values()) + tuple(hall.broken)

    def refresh(self, force: bool = False) -> None:
        sig = self._signature()
        if sig == self._seen and not force:
            return
        self._seen = sig
        why = self.model.available()
        if why:
            self.rooms.objects = [pn.pane.Alert(md(why), alert_type="info")]
            self.open_button.disabled = True
            return
        hall = self.model.hall()
        broken = [pn.pane.Alert(f"Room {md(b['id'])} ({md(b['game'])}) could not be resumed: {md(b['reason'])}. "
                                "The journal keeps its moves; the other rooms run.", alert_type="danger",
                                css_classes=["playtest-broken"]) for b in hall.broken.values()]
        self.rooms.objects = broken + [self._room_card(r) for r in hall.rooms.values()] or [
            pn.pane.Markdown("*No room is open.*")]
        import pandas as pd
        self.games.value = pd.DataFrame(self.model.journal_games(),
                                        columns=["id", "room", "game", "status", "moves", "surveys", "pool"])

    async def _on_game(self, event) -> None:
        if event.new == self.model.game_id:
            return
        await self.doing.run(f"Loading {game_name(event.new)}: its seats and variants…",
                             lambda: setattr(self.model, "game_id", event.new), disable=(self.game, self.open_button))

    async def _on_open_room(self, event=None) -> None:
        m = self.model
        await self.doing.run(f"Opening a room of {game_name(m.game_id)}: dealing and seating the bots…",
                             m.open_room, disable=(self.open_button,))

    async def _open_selected(self, event=None) -> None:
        if self.games.selection and not self.model.available():
            game_id = int(self.games.value.iloc[self.games.selection[0]]["id"])
            await self.doing.run(f"Replaying journal game {game_id} for the Play page…",
                                 lambda: self.model.open_journal_game(game_id), disable=(self.open_game,))

    def _link_cell(self, link: str | None, hint: str | None, note: str = "") -> list:
        """A seat's (or the spectators') link, clickable, with a button copying it."""
        if link is None:
            return [pn.pane.Markdown(f"issued ({md(hint or '')}…); make a new one to copy it" if hint else
                                     "none yet", width=420)]
        copy = pn.widgets.Button(label="Copy", width=70)
        copy.js_on_click(code=f"navigator.clipboard.writeText({json.dumps(link)})")
        text = f"[{md(link)}]({link})" + (f" · {md(note)}" if note else "")
        return [pn.pane.Markdown(text, width=420, css_classes=["playtest-link"]), copy]

    def _button(self, label: str, room_id: str, what: str, seat: int | None = None, kind: str = "default"):
        b = pn.widgets.Button(label=label, color=kind, width=130)
        b.on_click(lambda e: self.model.act(room_id, what, seat))
        return b

    def _room_card(self, room):
        m = self.model
        state = room.state
        status = ("over: " + room.game.result(state).ending if room.over else
                  "paused" if room.paused else f"{room.acting_seat().name} to move")
        rows = ["| Seat | Who |", "| --- | --- |"]
        seat_buttons = []
        for s in room.seats:
            if s.kind == "person":
                who = "person, " + ("here" if s.connected else "away")
                seat_buttons.append(pn.Row(pn.pane.Markdown(f"**{md(s.name)}**", width=120),
                                           *self._link_cell(m.link(s.token) if s.token else None, s.token_hint),
                                           self._button("New link", room.id, "link", s.index),
                                           self._button("Bot takes over", room.id, "bot", s.index)))
            else:
                who = f"bot ({md(s.bot)})"
            rows.append(f"| {md(s.name)} | {who} |")
        watch = m.link(room.spectator_token) if room.spectator_token else None
        seat_buttons.append(pn.Row(pn.pane.Markdown("**Spectators**", width=120),
                                   *self._link_cell(watch, None, "the public view: what every seat knows"),
                                   self._button("New spectator link", room.id, "spectator")))
        views = []
        for s in room.seats:
            obs = room.game.observation(state, s.index)
            views.append((s.name, pn.pane.JSON(obs["table"], depth=2, sizing_mode="stretch_width")))
        log = room.move_log(None)[-12:]
        log_md = "\n".join(f"{e['ply'] + 1}. {md(e['public'])} (`{e['action']}`)" for e in log) or "*no move yet*"
        controls = pn.Row(self._button("Resume" if room.paused else "Pause", room.id, "pause"),
                          self._button("Undo last move", room.id, "undo"),
                          self._button("Next game", room.id, "next"),
                          self._button("Open in Play", room.id, "replay"),
                          self._button("End room", room.id, "end", kind="danger"))
        head = (f"### Room {room.id}: {md(room.game.name)}, game {room.number}\n"
                f"{status} · {len(room.moves)} moves · pool version `{room.pool_version}` · "
                f"surveys {len(room.surveyed)}/{sum(1 for s in room.seats if s.kind == 'person')}")
        chat_md = "\n".join(f"- **{md(room.seats[c['seat']].name if c['seat'] is not None else 'designer')}**: "
                            f"{md(c['text'])}" for c in room.chat_lines) or "*no chat yet*"
        say = pn.widgets.TextInput(placeholder="say something to the table", max_length=400, width=420)
        say_button = pn.widgets.Button(label="Say", width=80)
        say_button.on_click(lambda e: (self.model.say(room.id, say.value), setattr(say, "value", "")))
        chat = pn.Column(pn.pane.Markdown(chat_md, css_classes=["playtest-chat"]), pn.Row(say, say_button))
        return pn.Card(pn.pane.Markdown(head), pn.pane.Markdown("\n".join(rows)), *seat_buttons, controls,
                       pn.Tabs(*views, ("Moves", pn.pane.Markdown(log_md)), ("Chat", chat)),
                       title=f"Room {room.id}", sizing_mode="stretch_width", css_classes=["playtest-room"])

    def __panel__(self):
        journal = pn.Column("### The journal: every game played here", self.games, self.open_game,
                            sizing_mode="stretch_width")
        return pn.Column(self.form, self.rooms, journal, sizing_mode="stretch_width")
