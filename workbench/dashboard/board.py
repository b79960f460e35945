"""The Board page: the Mandate 2038 hex map a seed lays out, its adjacency, and
local Power (which districts are energy districts, each player's Power sources
and which Facilities are connected or offline). A seed box and a "new layout"
button reshuffle; bots can play some actions first so that Power shows on a
board in play.

The layout, adjacency and Power rules are the engine's
(:mod:`workbench.games.mandate_2038.board`); the drawing is its bokeh figure."""

from __future__ import annotations

import panel as pn
import param

from .escape import md

GAME_ID = "mandate-2038"


class BoardModel(param.Parameterized):
    """A Mandate 2038 position to inspect: its seed, seats and how far bots played."""

    seed = param.Integer(default=1, bounds=(0, None))
    players = param.Integer(default=4, bounds=(2, 5))
    bot_actions = param.Integer(default=0, bounds=(0, 2000), doc="actions bots play before showing")
    state = param.Parameter(default=None, doc="the position shown: a new one per build; the page depends on it")

    def __init__(self, **params):
        super().__init__(**params)
        from workbench.core.registry import get_game
        self.game = get_game(GAME_ID)
        self.param.players.bounds = (self.game.min_players, self.game.max_players)
        self.build()

    def build(self) -> None:
        """Lay the board out for the current settings (and let bots play)."""
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
        self.state = state

    def reshuffle(self) -> None:
        """The next seed's layout."""
        self.seed += 1
        self.build()

    def tiles(self):
        """polars: one row per district with kind, ring, control, energy and neighbours."""
        import polars as pl
        from workbench.commands.board import board_document
        from workbench.games.mandate_2038 import board
        doc = board_document(self.state)
        rows = []
        for i, t in enumerate(doc["tiles"]):
            rows.append({"tile": t["id"], "kind": t["name"], "q": t["q"], "r": t["r"], "ring": t["ring"],
                         "energy": board.is_energy(self.state, i), "control": t["control"] or "",
                         "neighbours": ", ".join(doc["adjacency"][t["id"]]),
                         "degree": len(doc["adjacency"][t["id"]])})
        return pl.DataFrame(rows)

    def power(self):
        """polars: one row per player: Power sources, connected and offline Facilities."""
        import polars as pl
        from workbench.games.mandate_2038 import board
        s = self.state
        rows = []
        for seat in range(len(s.players)):
            ids = s.tile_ids
            facilities = s.players[seat].facilities
            rows.append({
                "player": s.player_name(seat),
                "power sources": ", ".join(ids[p] for p in board.power_sources(s, seat)) or "none",
                "connected": ", ".join(f"F{f + 1}@{ids[facilities[f]]}"
                                       for f in board.connected_facilities(s, seat)) or "none",
                "offline": ", ".join(f"F{f + 1}@{ids[facilities[f]]}"
                                     for f in board.offline_facilities(s, seat)) or "none"})
        return pl.DataFrame(rows)

    def caption(self) -> str:
        tiles = self.tiles()
        energy = tiles.filter(tiles["energy"])["tile"].to_list()
        played = f", after {self.bot_actions} bot actions" if self.bot_actions else ""
        return (f"Mandate 2038 board, seed {self.seed}, {self.players} players{played}: "
                f"{tiles.height} districts, {tiles['degree'].sum() // 2} adjacencies; "
                f"energy districts {', '.join(energy) or 'none'}")

    def figure(self):
        from workbench.games.mandate_2038.drawing import board_figure
        return board_figure(self.state, title=f"Mandate 2038 board, seed {self.seed}"
                            + (f", after {self.bot_actions} bot actions" if self.bot_actions else ""))


class BoardPage(pn.viewable.Viewer):
    """The seed and seats above; the board, its districts and local Power
    below, redrawn whenever the model lays out a new position."""

    model = param.ClassSelector(class_=BoardModel)

    def __init__(self, bench=None, model: BoardModel | None = None, **params):
        super().__init__(model=model or BoardModel(), **params)
        m = self.model
        self._seed = pn.widgets.IntInput(label="Seed", value=m.seed, start=0, width=120)
        self._players = pn.widgets.IntInput(label="Players", value=m.players, start=m.param.players.bounds[0],
                                            end=m.param.players.bounds[1], width=100)
        self._actions = pn.widgets.IntInput(label="Bot actions first", value=m.bot_actions, start=0,
                                            end=2000, width=140)
        self._show = pn.widgets.Button(label="Lay out", color="primary", width=100)
        self._next = pn.widgets.Button(label="Reshuffle (next seed)", width=170)
        self._plot = pn.Column()
        self._caption = pn.pane.Markdown("", css_classes=["board-caption"])
        self._tiles = pn.widgets.Tabulator(m.tiles().to_pandas(), disabled=True, show_index=False, height=420,
                                           sizing_mode="stretch_width", pagination=None)
        self._power = pn.widgets.Tabulator(m.power().to_pandas(), disabled=True, show_index=False,
                                           sizing_mode="stretch_width")
        self._show.on_click(self._on_show)
        self._next.on_click(self._on_next)
        self._draw()

    def _on_show(self, event=None):
        m = self.model
        m.param.update(seed=int(self._seed.value), players=int(self._players.value),
                       bot_actions=int(self._actions.value))
        m.build()

    def _on_next(self, event=None):
        self.model.reshuffle()
        self._seed.value = self.model.seed

    @param.depends("model.state", watch=True)
    def _draw(self):
        m = self.model
        self._plot.objects = [pn.pane.Bokeh(m.figure())]
        self._caption.object = md(m.caption())
        self._tiles.value = m.tiles().to_pandas()
        self._power.value = m.power().to_pandas()

    def __panel__(self):
        controls = pn.Row(self._seed, self._players, self._actions, self._show, self._next)
        side = pn.Column("#### Districts and adjacency", self._tiles, "#### Local Power", self._power,
                         sizing_mode="stretch_width")
        return pn.Column(controls, self._caption, pn.Row(self._plot, side, sizing_mode="stretch_width"),
                         sizing_mode="stretch_width")
