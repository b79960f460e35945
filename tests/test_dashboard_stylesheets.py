"""A served session's Panel stylesheets come from the server, never from Panel's
CDN, also for a session no page was rendered for (bokeh makes one when a slow
tab's websocket connects after its first session was let go): the app sets the
address before any component is made (workbench.dashboard.app._local_stylesheets)."""

from __future__ import annotations

import panel as pn
from bokeh.document import Document
from bokeh.models import ImportedStyleSheet
from panel.io.resources import CDN_DIST


def _urls(doc) -> list[str]:
    column = pn.Column(pn.pane.Markdown("a line"), pn.Row(pn.widgets.Button(name="a button")))
    root = column.get_root(doc)
    return [str(s.url) for s in root.select({"type": ImportedStyleSheet})]


def test_a_session_without_a_rendered_page_takes_the_servers_stylesheets():
    from workbench.dashboard.app import _local_stylesheets
    bare = _urls(Document())
    assert any(u.startswith(CDN_DIST) for u in bare), bare   # what Panel does without the address
    doc = Document()
    _local_stylesheets(doc)
    urls = _urls(doc)
    assert urls and not [u for u in urls if u.startswith(CDN_DIST)], urls


def test_an_address_the_page_set_is_kept():
    from workbench.dashboard.app import _local_stylesheets
    doc = Document()
    doc._template_variables["dist_url"] = "/prefix/static/extensions/panel/"
    _local_stylesheets(doc)
    assert doc._template_variables["dist_url"] == "/prefix/static/extensions/panel/"
