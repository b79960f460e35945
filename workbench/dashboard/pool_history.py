"""The Cards page's history box: the versions of the pool being tweaked, the
edits between any two and the runs made on each, side by side.

Everything it shows comes from :mod:`workbench.core.versions` (the store in the
card folder); this module only draws it. The page hands it two callables, the
game and the folder of the pool now shown, and calls :meth:`refresh` after a
save or when the game changes."""

from __future__ import annotations

import panel as pn

from .escape import md


def _edit(e: dict) -> str:
    from workbench.core.pool_values import format_value
    if e.get("field") is None:
        return f"{e['card']}: {e['old']} → {e['new']}"
    return f"{e['card']} {e['field']}: {format_value(e['old'])} → {format_value(e['new'])}"


def _runs(runs: list[dict]) -> str:
    from workbench.core.versions import metrics_text
    if not runs:
        return "no runs recorded"
    return "; ".join(f"{r['kind']} ({r['created'][:16].replace('T', ' ')}): {metrics_text(r, 3, '→')}" for r in runs[-3:])


class PoolHistoryView(pn.viewable.Viewer):
    """Versions list, two version pickers and their comparison."""

    def __init__(self, game, folder, **params):
        super().__init__(**params)
        self._game, self._folder = game, folder
        self.note = pn.widgets.TextInput(label="Note for the next save", placeholder="e.g. one point less on the strongest card",
                                         width=300, css_classes=["cards-note"])
        self._list = pn.pane.Markdown("", css_classes=["cards-history"])
        self._old = pn.widgets.Select(label="Version", options=[], width=140)
        self._new = pn.widgets.Select(label="against", options=[], width=140)
        self._compare = pn.widgets.Button(label="Compare", width=100)
        self._diff = pn.pane.Markdown("", css_classes=["cards-history-diff"])
        self._compare.on_click(lambda e: self.compare())

    def refresh(self) -> None:
        """Read the history again (after a save, or another game chosen)."""
        from workbench.core import versions
        folder = self._folder()
        try:
            rows = versions.summary(folder)
            current = versions.pool_version(self._game(), folder)
        except Exception as exc:  # an unreadable history is shown, never raised into the page
            self._list.object = f"history unavailable: {md(str(exc))}"
            return
        if not rows:
            self._list.object = "No version recorded yet: the next save (or run) enters one."
        else:
            lines = []
            for r in rows[:12]:
                on_disk = " *(on disk)*" if r["hash"] == current else ""
                note = f" — {md(r['note'])}" if r["note"] else ""
                edits = "; ".join(md(_edit(e)) for e in r["edits"][:4])
                more = f" and {len(r['edits']) - 4} more" if len(r["edits"]) > 4 else ""
                lines.append(f"* **{r['number']}** `{r['hash']}` {r['created'][:16].replace('T', ' ')} "
                             f"{r['source']}{note}{on_disk}<br>{edits or 'no edits'}{more}<br>"
                             f"<small>{md(_runs(r['runs']))}</small>")
            self._list.object = "\n".join(lines)
        options = [str(r["number"]) for r in rows]
        self._old.options, self._new.options = options, options
        if options:
            self._new.value = options[0]
            self._old.value = options[1] if len(options) > 1 else options[0]
        self._diff.object = ""

    def compare(self) -> None:
        """The values that differ between the two versions picked and the runs of each."""
        from workbench.core import versions
        from workbench.core.errors import WorkbenchError
        folder = self._folder()
        if not self._old.value or not self._new.value:
            self._diff.object = "no versions to compare yet"
            return
        try:
            old, new = versions.resolve(folder, self._old.value), versions.resolve(folder, self._new.value)
            changed = versions.diff(folder, self._old.value, self._new.value)
        except WorkbenchError as exc:
            self._diff.object = md(str(exc))
            return
        rows = "\n".join(f"| {md(e['card'])} | {md(e['field'] or '')} | {md(str(e['old']))} | {md(str(e['new']))} |"
                         for e in changed)
        table = ("| card | field | " + f"v{old.number} | v{new.number} |\n| --- | --- | --- | --- |\n" + rows
                 if changed else "The two versions hold the same values.")
        runs = (f"\n\n**Runs on v{old.number}:** {md(_runs([r.to_dict() for r in versions.runs(folder, old.hash)]))}"
                f"\n\n**Runs on v{new.number}:** {md(_runs([r.to_dict() for r in versions.runs(folder, new.hash)]))}")
        self._diff.object = table + runs

    def __panel__(self):
        return pn.Column("#### Versions of this pool", self.note, self._list,
                         pn.Row(self._old, self._new, self._compare, align="end"), self._diff,
                         sizing_mode="stretch_width")
