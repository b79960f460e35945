"""The Board page: the board a seed lays out for a game that declares one
(``Game.board``, e.g. a hex map with its adjacency and what connects). A
seed box and a "new layout" button reshuffle; bots can play some actions first
so that a board in play shows.

The layout and every rule behind it are the engine's; the tables, caption and
drawing come from the game's board module (:func:`workbench.core.game.resolve`
of ``Game.board``), so this page names no game."""

from __future__ import annotations

import panel as pn
import param

from .escape import md
from .names import game_name
from .progress import ProgressLine


def board_games() -> list[str]:
    from workbench.core.registry import providing
    return providing("board")


class BoardModel(param.Parameterized):
    """A position of a game with a board: its seed, seats and how far bots played."""

    game_id = param.Selector(default=None, objects=[], doc="the game whose board is shown")
    seed = param.Integer(default=1, bounds=(0, None))
    players = param.Integer(default=4, bounds=(1, None))
    bot_actions = param.Integer(default=0, bounds=(0, 2000), doc="actions bots play before showing")
    state = param.Parameter(default=None, doc="the position shown: a new one per build; the page depends on it")

    def __init__(self, **params):
        games = board_games()
        game_id = params.pop("game_id", None) or (games[0] if games else None)
        super().__init__(**params)
        self.param.game_id.objects = games
        self.game_id = game_id
        self._bind_game()
        self.build()

    def _bind_game(self) -> None:
        from workbench.core.game import resolve
        from workbench.core.registry import get_game
        self.game = get_game(self.game_id)
        self.view = resolve(self.game.board)
        self.param.players.bounds = (self.game.min_players, self.game.max_players)
        if not self.game.min_players <= self.players <= self.game.max_players:
            self.players = self.game.default_players

    def choose(self, game_id: str) -> None:
        """Show another game's board."""
        self.game_id = game_id
        self._bind_game()
        self.build()

    def build(self) -> None:
        """Lay the board out for the current settings (and let bots play)."""
        self.state = self.position()

    def position(self):
        """The position :meth:`build` shows, without showing it (a page computes it
        off the event loop: bots may play up to 2000 actions first)."""
        from workbench.core.bots import make_bots
        from workbench.core.play import bot_rngs
        config = self.game.config(self.players, seed=self.seed)
        state = self.game.new_initial_state(config)
        bots, rngs = make_bots("random", self.players), bot_rngs(config)
        for _ in range(self.bot_actions):
            if state.is_terminal():
                break
            seat = state.current_player()
            state.apply_action(bots[seat].choose(self.game, state, rngs[seat]))
        return state

    def reshuffle(self) -> None:
        """The next seed's layout."""
        self.seed += 1
        self.build()

    def tables(self) -> dict:
        """title -> polars table, as the game's board module gives them."""
        return self.view.tables(self.state)

    def _title(self) -> str:
        return f"{self.game.name} board, seed {self.seed}"

    def caption(self) -> str:
        played = f", after {self.bot_actions} bot actions" if self.bot_actions else ""
        return f"{self._title()}, {self.players} players{played}: {self.view.caption(self.state)}"

    def figure(self):
        return self.view.figure(self.state, title=self._title()
                                + (f", after {self.bot_actions} bot actions" if self.bot_actions else ""))


class BoardPage(pn.viewable.Viewer):
    """The seed and seats above; the board, its districts and local Power
    below, redrawn whenever the model lays out a new position."""

    model = param.ClassSelector(class_=BoardModel)

    def __init__(self, bench=None, model: BoardModel | None = None, **params):
        super().__init__(model=model or BoardModel(), **params)
        m = self.model
        self._game = pn.widgets.Select(name="Game", options=list(m.param.game_id.objects), value=m.game_id,
                                       width=200)
        self._game.param.watch(self._on_game, "value")
        self._seed = pn.widgets.IntInput(label="Seed", value=m.seed, start=0, width=120)
        self._players = pn.widgets.IntInput(label="Players", value=m.players, start=m.param.players.bounds[0],
                                            end=m.param.players.bounds[1], width=100)
        self._actions = pn.widgets.IntInput(label="Bot actions first", value=m.bot_actions, start=0,
                                            end=2000, width=140)
        self._show = pn.widgets.Button(label="Lay out", color="primary", width=100)
        self._next = pn.widgets.Button(label="Reshuffle (next seed)", width=170)
        self._plot = pn.Column()
        self._caption = pn.pane.Markdown("", css_classes=["board-caption"])
        self._side = pn.Column(sizing_mode="stretch_width")
        self._doing = ProgressLine("board")
        self._show.on_click(self._on_show)
        self._next.on_click(self._on_next)
        self._draw()

    async def _on_game(self, event):
        # a new game's board module, its first layout and drawing take seconds the
        # first time: the line says so, and the old game's board leaves the page at once
        self._plot.objects, self._side.objects, self._caption.object = [], [], ""
        await self._doing.run(f"Laying out {game_name(event.new)}'s board…", lambda: self.model.choose(event.new),
                              disable=self._buttons())

    def _buttons(self):
        return (self._game, self._show, self._next)

    def _doing_text(self, seed: int, actions: int) -> str:
        played = f" and letting bots play {actions} actions" if actions else ""
        return f"Laying out {self.model.game.name}'s board for seed {seed}{played}…"

    async def _on_show(self, event=None):
        m = self.model
        seed, players, actions = int(self._seed.value), int(self._players.value), int(self._actions.value)

        m.param.update(seed=seed, players=players, bot_actions=actions)
        await self._doing.run(self._doing_text(seed, actions), lambda state: setattr(m, "state", state),
                              off_loop=m.position, disable=self._buttons())

    async def _on_next(self, event=None):
        m = self.model
        m.seed += 1
        self._seed.value = m.seed
        await self._doing.run(self._doing_text(m.seed, m.bot_actions), lambda state: setattr(m, "state", state),
                              off_loop=m.position, disable=self._buttons())

    @param.depends("model.state", watch=True)
    def _draw(self):
        m = self.model
        self._plot.objects = [pn.pane.Bokeh(m.figure())]
        self._caption.object = md(m.caption())
        self._players.start, self._players.end = m.param.players.bounds
        self._players.value = m.players
        side = []
        for i, (title, table) in enumerate(m.tables().items()):
            side += [f"#### {title}", pn.widgets.Tabulator(table.to_pandas(), disabled=True, show_index=False,
                                                           sizing_mode="stretch_width",
                                                           **({"height": 420, "pagination": None} if i == 0 else {}))]
        self._side.objects = side

    def __panel__(self):
        controls = pn.Row(self._game, self._seed, self._players, self._actions, self._show, self._next)
        return pn.Column(controls, self._doing.pane, self._caption, pn.Row(self._plot, self._side, sizing_mode="stretch_width"),
                         sizing_mode="stretch_width")
