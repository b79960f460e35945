"""Each dashboard page's title names the page and the game it shows.

A page's game is read from its model (``game_id`` or ``game``, else the game of
the live pool it draws), and the title follows it: choosing another game on the
page changes the title in the same step, so a page never shows one game under
another's name. :class:`LazyTabs` (``app.py``) puts the title above every page."""

from __future__ import annotations

import panel as pn

from .escape import md
from .names import game_name

#: model params that name a page's game, in the order they are looked for
GAME_PARAMS = ("game_id", "game", "pool")
#: also watched: a model that switches game silently and then publishes its
#: position (the Play page) tells the title through that
WATCHED = GAME_PARAMS + ("position",)


def game_of(view) -> str | None:
    """The game page ``view`` shows, or None for a page without one."""
    model = getattr(view, "model", None)
    if model is None:
        return None
    for name in ("game_id", "game"):
        if name in getattr(model, "param", ()) and isinstance(getattr(model, name), str) and getattr(model, name):
            return getattr(model, name)
    for name in ("pool", "session"):
        game_id = getattr(getattr(model, name, None), "game_id", None)
        if game_id:
            return game_id
    return None


class PageTitle:
    """``## Page · Game`` above a page, kept in step with the page's game."""

    def __init__(self, title: str, view):
        self.title, self.view = title, view
        self.pane = pn.pane.Markdown("", css_classes=["page-title", f"page-title-{title.lower()}"],
                                     margin=(0, 10))
        model = getattr(view, "model", None)
        watched = [n for n in WATCHED if model is not None and n in getattr(model, "param", ())]
        if watched:
            model.param.watch(self.update, watched)
        self.update()

    def update(self, *events) -> None:
        game_id = game_of(self.view)
        text = f"## {self.title} · {md(game_name(game_id))}" if game_id else f"## {self.title}"
        if text != self.pane.object:
            self.pane.object = text
