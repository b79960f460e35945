"""Panel in JupyterLab without a network: what the notebooks call instead of
``pn.extension`` so every output renders offline.

``pn.extension(..., inline=True)`` inlines BokehJS and Panel's scripts and the
stylesheets of what is first displayed. Panel 1.9 still re-resolves a pane's
stylesheets to its CDN when the pane's content is updated later (a pane's
update resends all its properties), so an updated Markdown or HTML pane would
lose its styles offline; :func:`offline_extension` makes those updates inline
too."""

from __future__ import annotations

import panel as pn

_patched = False


def offline_extension(*extensions: str, **config) -> None:
    """``pn.extension`` with every resource inline, also after updates."""
    global _patched
    pn.extension(*extensions, inline=True, **config)
    if _patched:
        return
    from panel.io.notebook import patch_inline_stylesheets
    from panel.pane.base import ModelPane

    update = ModelPane._update

    def _update_inline(self, ref, model):
        update(self, ref, model)
        if pn.config.inline:
            patch_inline_stylesheets(model)

    ModelPane._update = _update_inline
    _patched = True
