"""Panel in JupyterLab without a network: what the notebooks call instead of
``pn.extension`` so every output renders offline.

``pn.extension(..., inline=True)`` inlines BokehJS and Panel's scripts and the
stylesheets of what is first displayed. Panel 1.9 still points the stylesheets
of models made or updated later (a pane whose content changes, a page that
swaps in a new figure) at its CDN: every such stylesheet goes through
``panel.io.resources.patch_stylesheet`` with the CDN as its base.
:func:`offline_extension` wraps that function so that, while
``pn.config.inline`` is on, a stylesheet from Panel's own distribution becomes a
``data:`` URL of the bundled file: the browser reads it without a request."""

from __future__ import annotations

import base64
from functools import lru_cache

import panel as pn

_patched = False


@lru_cache(maxsize=None)
def _data_url(path: str) -> str | None:
    from pathlib import Path
    file = Path(path)
    if not file.is_file():
        return None
    return "data:text/css;base64," + base64.b64encode(file.read_bytes()).decode("ascii")


def inline_stylesheet(stylesheet) -> None:
    """Point ``stylesheet`` (a bokeh ``ImportedStyleSheet``) from Panel's CDN at
    a ``data:`` URL of the same file shipped with Panel; any other is left."""
    from panel.io.resources import CDN_DIST, DIST_DIR
    try:
        url = str(stylesheet.url)
    except Exception:  # noqa: BLE001 - a stylesheet without a URL has nothing to fetch
        return
    if not url.startswith(CDN_DIST):
        return
    data = _data_url(str(DIST_DIR / url[len(CDN_DIST):].split("?")[0]))
    if data is not None:
        stylesheet.url = data


def offline_extension(*extensions: str, **config) -> None:
    """``pn.extension`` with every resource inline, also after updates."""
    global _patched
    pn.extension(*extensions, inline=True, **config)
    if _patched:
        return
    import panel.io.resources as resources
    import panel.reactive as reactive
    from panel.io.notebook import patch_inline_stylesheets
    from panel.pane.base import ModelPane

    original = resources.patch_stylesheet

    def patch_stylesheet(stylesheet, dist_url):
        original(stylesheet, dist_url)
        if pn.config.inline:
            inline_stylesheet(stylesheet)

    # both names: reactive.py imported the function, the themes import it when called
    resources.patch_stylesheet = patch_stylesheet
    reactive.patch_stylesheet = patch_stylesheet

    update = ModelPane._update

    def _update_inline(self, ref, model):
        update(self, ref, model)
        if pn.config.inline:
            patch_inline_stylesheets(model)

    ModelPane._update = _update_inline
    _patched = True
