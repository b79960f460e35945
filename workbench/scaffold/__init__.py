"""The template ``workbench new-game`` fills in (``template/``, files ending in
``.tmpl`` with ``__ID__``, ``__PKG__``, ``__NAME__`` and ``__DIST__`` placeholders)."""
