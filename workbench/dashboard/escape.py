"""Escaping for text the dashboard shows: anything that comes from card files,
rules, scenario files or the user goes through :func:`md` before it reaches a
Markdown or Alert pane, and through :func:`html.escape` before an HTML pane, so
a card name holding ``<script>`` or ``[link](javascript:...)`` shows as typed
and never runs."""

from __future__ import annotations

import html
import re

#: characters Markdown gives a meaning to; a backslash makes each literal
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")


def md(text: object) -> str:
    """``text`` as literal Markdown: HTML escaped, Markdown syntax backslashed,
    line breaks kept."""
    # quotes stay: text between tags cannot end an attribute, and an entity
    # such as &#x27; would have its "#" backslashed and show as typed
    escaped = html.escape(str(text), quote=False)
    return _MARKDOWN.sub(r"\\\1", escaped)
