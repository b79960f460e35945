"""The card pool the dashboard's pages share, as reactive state.

:class:`LivePool` wraps one game's tweak session
(:class:`workbench.tweak.session.TweakSession` or its pool variant). Every
change of the pool goes through it: a cell edited on the Cards page, undo,
redo, Reload from disk, a save, a balance proposal applied or taken back on
the Balance page (:func:`workbench.balance.report.apply_edits` calls
:meth:`LivePool.edit` and :meth:`LivePool.save` like any session). After each
it publishes the session's card files as :attr:`LivePool.raw`. The session
replaces that dict on every change and never mutates it, so ``raw`` is an
immutable snapshot of the pool: views declare ``param.depends("...pool.raw")``
and redraw when the pool they show is a different one, with no refresh
counter to bump. Everything else (the table, the graph, analyses, playtests)
is read from the session through the wrapper.

:func:`patch_source` and :func:`update_figure` keep a drawn bokeh figure and
send only what changed: patched columns rather than a new figure."""

from __future__ import annotations

import param


class LivePool(param.Parameterized):
    """One game's tweak session, with its state as params views can depend on."""

    game_id = param.String(default="", constant=True)
    raw = param.Dict(default={}, doc="the card files as the session holds them now (a snapshot: a new "
                                     "dict on every change, never changed in place)")
    can_undo = param.Boolean(default=False)
    can_redo = param.Boolean(default=False)
    dirty = param.Boolean(default=False, doc="edits not yet saved to the card files")

    def __init__(self, session, **params):
        super().__init__(game_id=session.game_id, **params)
        self.session = session
        self._publish()

    def __getattr__(self, name: str):
        # reads (table, graph, analyses, figure, quick_playtest, ...) are the session's
        if name.startswith("_") or name == "session" or "session" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["session"], name)

    # -- changes: each publishes the new state, a refused one raises and publishes nothing
    def edit(self, card: str, column: str, value):
        return self._publish(self.session.edit(card, column, value))

    def edit_many(self, edits, **kwargs):
        return self._publish(self.session.edit_many(edits, **kwargs))

    def add_card(self, kind: str, name: str | None = None):
        return self._publish(self.session.add_card(kind, name))

    def duplicate_card(self, card: str, name: str | None = None):
        return self._publish(self.session.duplicate_card(card, name))

    def delete_card(self, card: str):
        return self._publish(self.session.delete_card(card))

    def undo(self):
        return self._publish(self.session.undo())

    def redo(self):
        return self._publish(self.session.redo())

    def reload(self):
        return self._publish(self.session.reload())

    def save(self, note: str | None = None, source: str = "save"):
        """Save the pool (a version of its history, with ``note``)."""
        return self._publish(self.session.save(note=note, source=source))
    def _publish(self, result=None):
        s = self.session
        # param compares the old and new snapshot and tells the views only if the pool differs
        self.param.update(raw=s.raw, can_undo=s.can_undo, can_redo=s.can_redo, dirty=bool(s.dirty))
        if self.raw is not s.raw:
            # the same content in a new dict: nothing to redraw, but ``raw`` stays the session's own
            with param.discard_events(self):
                self.raw = s.raw
        return result


def live(session) -> LivePool:
    """``session`` as a :class:`LivePool` (itself if it is one already)."""
    return session if isinstance(session, LivePool) else LivePool(session)


# -- drawing: send what changed ----------------------------------------------------------------

# patch_source lives with the drawings it updates (graphs/drawing.py); kept importable here
from workbench.graphs.drawing import _same, patch_source  # noqa: E402,F401



def update_figure(shown, new) -> bool:
    """Copy the data of ``new`` (a freshly drawn figure of the same kind) into
    ``shown``, which stays on screen: data sources patched, graph layout,
    selection and title set. Returns False (nothing changed) when the two
    figures are not built alike, and the caller shows ``new`` instead."""
    from bokeh.models import GraphRenderer, LabelSet
    a, b = list(shown.renderers), list(new.renderers)
    la = [m for m in shown.center if isinstance(m, LabelSet)]
    lb = [m for m in new.center if isinstance(m, LabelSet)]
    if len(a) != len(b) or len(la) != len(lb) or any(type(x) is not type(y) for x, y in zip(a, b)):
        return False
    pairs = []
    for x, y in zip(a, b):
        if isinstance(x, GraphRenderer):
            pairs += [(x.node_renderer.data_source, y.node_renderer.data_source),
                      (x.edge_renderer.data_source, y.edge_renderer.data_source)]
        elif hasattr(x, "data_source"):
            pairs.append((x.data_source, y.data_source))
    pairs += [(x.source, y.source) for x, y in zip(la, lb)]
    for x, y in zip(a, b):
        if isinstance(x, GraphRenderer) and x.layout_provider.graph_layout != y.layout_provider.graph_layout:
            x.layout_provider.graph_layout = dict(y.layout_provider.graph_layout)
    for old, fresh in pairs:
        patch_source(old, dict(fresh.data))
        if list(old.selected.indices) != list(fresh.selected.indices):
            old.selected.indices = list(fresh.selected.indices)
    if shown.title.text != new.title.text:
        shown.title.text = new.title.text
    return True
