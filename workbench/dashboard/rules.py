"""The Rules page: every rule clause in two chosen languages side by side, the
status of the checks that prove it, and the translation review's findings,
with filters for failing checks, clauses without a check, and fuzzy or missing
translations.

The texts come from the rules model (:mod:`workbench.rules.catalog`), the
findings from :func:`workbench.rules.review.review`, the checks from the check
registry (:mod:`workbench.rules.checks`) and the scenario files' ``checks:``
lists. This module only gathers and lays them out.

The review's findings are listed per clause with the check's explanation; a
finding jumps to its clause (the table then shows that clause alone), names the
scenarios and checks that prove the clause, opens the game in Play, and can be
accepted with a reason, which :func:`workbench.rules.accepting.accept_finding`
records in the game's ``accepted-findings.yaml`` so the review stays quiet about it."""

from __future__ import annotations

from html import escape

import panel as pn
import param

from .escape import md

from workbench.core.errors import WorkbenchError

FILTERS = {
    "all": "every clause",
    "failing": "a check fails",
    "missing": "no check proves it",
    "fuzzy": "translation is fuzzy (source changed since)",
    "untranslated": "translation missing",
    "findings": "the review has findings",
}

#: check status -> (label, colour)
STATUS_STYLE = {
    "pass": ("✔ pass", "#2e7d32"),
    "fail": ("✘ fail", "#c62828"),
    "not run": ("… not run", "#666"),
    "missing": ("— no check", "#b26a00"),
}


def games_with_rules() -> list[str]:
    from workbench.core.registry import providing
    from workbench.rules.catalog import source_language
    return [g for g in providing("rulebook") if source_language(g)]


class RulesModel(param.Parameterized):
    """The clauses of one game's rulebook in two languages, with check status
    and review findings per clause."""

    game_id = param.Selector(objects=[])
    left = param.Selector(objects=[], doc="language shown on the left")
    right = param.Selector(objects=[], doc="language shown on the right")
    filter = param.Selector(default="all", objects=list(FILTERS))
    resolve = param.Boolean(default=True, doc="fill placeholders with the language's terms")
    focus = param.String(default="", doc="show only this clause (where a finding jumped to)")
    spelling = param.Boolean(default=False, doc="run the review's spelling check too (slower)")
    check_status = param.Dict(default={}, doc="clause id -> (pass or fail, failures) of the last Run checks")
    accepted = param.List(default=[], doc="keys of the findings accepted here, newest last")
    background = param.Boolean(default=False, doc="review on a thread: until a review is ready its "
                                                  "findings are not shown and review_state says so")

    def __init__(self, games: list[str] | None = None, **params):
        games = games if games is not None else games_with_rules()
        if not games:
            raise WorkbenchError("no game has a rules text yet")
        game_id = params.pop("game_id", None) or games[0]
        super().__init__(**params)
        self.param.game_id.objects = games
        self._reviews: dict[tuple[str, bool], object] = {}   # (language, spelling) -> review
        self._reviewing: dict[tuple[str, bool], object] = {}  # reviews under way on a thread
        #: with :attr:`background`, reviews asked for are not started while this is
        #: set: a page holds them until its clauses have been sent, so the review's
        #: thread does not compete with drawing the rulebook for the interpreter
        self.hold_reviews = False
        self.choose_game(game_id)

    # -- choosing ---------------------------------------------------------------
    def choose_game(self, game_id: str) -> None:
        from workbench.rules.catalog import load_source, source_language, translation_languages
        self.source = load_source(game_id)
        if self.source is None:
            raise WorkbenchError(f"{game_id} has no rules text yet")
        langs = [source_language(game_id)] + translation_languages(game_id)
        self._texts: dict[str, dict[str, tuple[str, str]]] = {}
        self._reviews = {}
        self._reviewing = {}
        with param.parameterized.discard_events(self):
            self.param.left.objects = langs
            self.param.right.objects = langs
            self.left = langs[0]
            self.right = langs[1] if len(langs) > 1 else langs[0]
            self.check_status = {}
            self.game_id = game_id
        self._checks = self._find_checks()
        # everything the game decides is in place: now the views hear of it, once
        self.param.trigger("game_id")

    @property
    def languages(self) -> list[str]:
        return list(self.param.left.objects)

    # -- texts ---------------------------------------------------------------------
    def texts(self, lang: str) -> dict[str, tuple[str, str]]:
        """clause id -> (text, state) in ``lang``; state is ``source``,
        ``translated``, ``fuzzy`` or ``missing``."""
        if lang not in self._texts:
            from workbench.rules.catalog import po_path, read_catalog, translations
            if lang == self.source.lang:
                out = {cid: (c.body, "source") for cid, c in self.source.clauses.items()}
            else:
                done = translations(read_catalog(po_path(self.game_id, lang)))
                out = {}
                for cid in self.source.clauses:
                    text, fuzzy = done.get(cid, ("", False))
                    out[cid] = (text, "missing" if not text else "fuzzy" if fuzzy else "translated")
            self._texts[lang] = out
        return self._texts[lang]

    def shown_text(self, lang: str, clause_id: str) -> str:
        from workbench.rules.marks import mark_clause
        text, _ = self.texts(lang)[clause_id]
        if not text:
            return text
        rulings = self.source.clauses[clause_id].rulings
        try:
            return mark_clause(text, rulings, self._context(lang) if self.resolve else None)
        except Exception:  # noqa: BLE001 - show the raw text rather than nothing
            return mark_clause(text, rulings)

    def _context(self, lang: str):
        from workbench.rules.placeholders import context_for
        key = f"ctx:{lang}"
        if key not in self._texts:
            self._texts[key] = context_for(self.game_id, lang)
        return self._texts[key]

    # -- review findings ------------------------------------------------------------
    def review(self, lang: str):
        """The translation review of ``lang`` (None for the source language, and,
        with :attr:`background`, None while it is being made on a thread)."""
        if lang == self.source.lang:
            return None
        key = (lang, self.spelling)  # with and without spelling are two reviews
        if key not in self._reviews:
            if self.background:
                if not self.hold_reviews:
                    self._review_later(key)
                return None
            from workbench.rules.review_memo import memo_review
            self._reviews[key] = memo_review(self.game_id, lang, spelling=self.spelling)
        return self._reviews[key]

    def _review_later(self, key) -> None:
        if key in self._reviewing:
            return
        import threading

        from workbench.rules.review_memo import memo_review
        reviews, game_id = self._reviews, self.game_id   # a game chosen meanwhile starts new ones

        def work():
            try:
                # another session's review of the same unchanged files is handed over
                reviews[key] = memo_review(game_id, key[0], spelling=key[1])
            except Exception as exc:  # noqa: BLE001 - shown on the page instead of the findings
                reviews[key] = exc
            finally:
                self._reviewing.pop(key, None)
        thread = threading.Thread(target=work, name=f"rules-review-{game_id}-{key[0]}", daemon=True)
        self._reviewing[key] = thread
        thread.start()

    def pending(self) -> list[str]:
        """The languages shown whose review is still being made."""
        return [lang for lang in self._shown_langs() if (lang, self.spelling) not in self._reviews]

    def doing(self) -> str:
        """What the review is doing, for the page's progress line ('' when done)."""
        langs = self.pending()
        if not langs:
            return ""
        from workbench.rules.review_checks.dictionary import dictionary_path, loaded
        from babel import Locale
        names = ", ".join(Locale.parse(lang).english_name for lang in langs)
        waiting = [dictionary_path(lang) for lang in [self.source.lang, *langs] if not loaded(lang)]
        step = (f"loading the spelling dictionaries ({', '.join(p.rsplit('/', 1)[-1] for p in waiting if p)}), "
                "then " if any(waiting) else "")
        return f"Reviewing the {names} translation: {step}checking {len(self.source.clauses)} clauses…"

    def _ready(self, lang: str):
        """The review of ``lang`` if it is made (an error it raised is raised here)."""
        rev = self.review(lang)
        if isinstance(rev, Exception):
            raise WorkbenchError(f"the review of {lang} failed: {rev}")
        return rev

    def _shown_langs(self) -> list[str]:
        return [lang for lang in dict.fromkeys([self.left, self.right]) if lang != self.source.lang]

    def finding_items(self, clause_id: str) -> list:
        """The review findings on ``clause_id`` in the languages shown."""
        out = []
        for lang in self._shown_langs():
            rev = self._ready(lang)
            if rev is not None:
                out += rev.by_clause().get(clause_id, [])
        return out

    def findings(self, clause_id: str) -> list[str]:
        return [f"[{f.lang}] {f.check}: {f.message}" for f in self.finding_items(clause_id)]

    def all_findings(self) -> list:
        """Every finding of the languages shown: clauses in document order, then
        the catalogue and terms files' own (duplicates, orphans, misspelt terms)."""
        order = {cid: n for n, cid in enumerate(self.source.clauses)}
        order.update({sid: n - 0.5 for n, sid in enumerate(self.source.sections)})
        found = [f for lang in self._shown_langs() if (rev := self._ready(lang)) is not None for f in rev.findings]
        return sorted(found, key=lambda f: (order.get(f.clause, len(order) + 1), f.clause, f.lang))

    @staticmethod
    def finding_key(f) -> str:
        return f"{f.lang}|{f.clause}|{f.check}|{f.detail}"

    def finding_by_key(self, key: str):
        for f in self.all_findings():
            if self.finding_key(f) == key:
                return f
        raise WorkbenchError("that finding is no longer reported; refresh the page")

    def jump(self, clause_id: str) -> None:
        """Show ``clause_id`` alone (a finding's clause); an id that is not a clause
        (a terms file entry, an orphan) shows nothing new."""
        if clause_id not in self.source.clauses:
            raise WorkbenchError(f"{clause_id} is not a clause of the rulebook (a heading, or a catalogue or "
                                 "terms entry); the review panel lists its findings")
        self.param.update(focus=clause_id, filter="all")

    def show_all(self) -> None:
        self.focus = ""

    def accept(self, key: str, reason: str) -> str:
        """Accept a finding with ``reason``: it is recorded in the game's
        accepted-findings.yaml and the review stays quiet about it. Returns the file
        written; refuses (writing nothing) without a reason."""
        from workbench.rules.accepting import accept_finding
        finding = self.finding_by_key(key)
        path = accept_finding(self.game_id, finding, reason)
        # that language's reviews read the acceptances again
        self._reviews = {k: v for k, v in self._reviews.items() if k[0] != finding.lang}
        self.accepted = [*self.accepted, key]
        return str(path)

    def review_state(self) -> str:
        """One line per language shown: findings, accepted, spelling."""
        parts = []
        for lang in self._shown_langs():
            rev = self._ready(lang)
            if rev is None:
                parts.append(f"{lang}: reviewing…")
                continue
            parts.append(f"{lang}: {len(rev.findings)} finding(s), {len(rev.accepted)} accepted, "
                         f"spelling {rev.spelling}")
        return "; ".join(parts) or "the source language has no review"

    # -- checks --------------------------------------------------------------------
    def _find_checks(self) -> dict[str, list[tuple[str, object]]]:
        """clause id -> [(check name, runner)] from Python checks and scenarios."""
        from workbench.core.scenario import load_scenario, scenario_files
        from workbench.rules.checks import load_game_checks
        found: dict[str, list[tuple[str, object]]] = {}
        try:
            python_checks = load_game_checks(self.game_id)
        except Exception:  # noqa: BLE001 - a game whose checks do not import has none to show
            python_checks = []
        for chk in python_checks:
            for clause in chk.clauses:
                found.setdefault(clause, []).append((chk.name, chk))
        for path in scenario_files(self.game_id):
            try:
                data = load_scenario(path)
            except WorkbenchError:
                continue
            for clause in data.get("checks") or ():
                found.setdefault(clause, []).append((f"scenario {path.name}", path))
        return found

    def checks_of(self, clause_id: str) -> list[str]:
        return [name for name, _ in self._checks.get(clause_id, [])]

    def status(self, clause_id: str) -> str:
        if clause_id not in self._checks:
            return "missing"
        if clause_id in self.check_status:
            return self.check_status[clause_id][0]
        return "not run"

    def run_checks(self) -> dict[str, int]:
        """Run every check of this game once (as ``workbench check`` does: a worked
        example replays in report mode, its divergences are errata, not failures);
        returns counts by status."""
        from workbench.rules.report import game_report
        report = game_report(self.game_id)
        if report.not_run:  # invalid card data: no check ran, so none passed either
            from workbench.core.errors import DataError
            self.check_status = {}
            more = f" (and {len(report.data_problems) - 1} more)" if len(report.data_problems) > 1 else ""
            raise DataError(f"{report.data_problems[0]}{more}; {report.not_run}")
        failing: dict[str, list[str]] = {}
        for chk in report.checks:
            if chk.status == "fail":
                for clause in chk.clauses:
                    failing.setdefault(clause, []).append(f"{chk.kind} {chk.name}: {chk.message}")
        status = {}
        for clause in self._checks:
            failed = failing.get(clause, [])
            status[clause] = ("fail" if failed else "pass", failed)
        self.check_status = status
        counts: dict[str, int] = {}
        for cid in self.source.clauses:
            counts[self.status(cid)] = counts.get(self.status(cid), 0) + 1
        return counts

    # -- the table ---------------------------------------------------------------------
    def rows(self) -> list[dict]:
        """One row per clause in document order, after the filter."""
        left, right = self.texts(self.left), self.texts(self.right)
        out = []
        for cid, clause in self.source.clauses.items():
            row = {"clause": cid, "section": clause.section or "", "left": left[cid][1],
                   "right": right[cid][1], "status": self.status(cid), "checks": self.checks_of(cid),
                   "failures": self.check_status.get(cid, ("", []))[1], "findings": self.findings(cid)}
            if self._keep(row):
                out.append(row)
        return out

    def _keep(self, row: dict) -> bool:
        if self.focus and row["clause"] != self.focus:
            return False
        f = self.filter
        states = {row["left"], row["right"]}
        return (f == "all" or (f == "failing" and row["status"] == "fail")
                or (f == "missing" and row["status"] == "missing")
                or (f == "fuzzy" and "fuzzy" in states)
                or (f == "untranslated" and "missing" in states)
                or (f == "findings" and bool(row["findings"])))

    def summary(self) -> dict[str, int]:
        counts = {"clauses": len(self.source.clauses)}
        for cid in self.source.clauses:
            s = self.status(cid)
            counts[s] = counts.get(s, 0) + 1
        for lang in self.languages:
            states = [st for _, st in self.texts(lang).values()]
            for st in ("fuzzy", "missing"):
                if states.count(st):
                    counts[f"{lang} {st}"] = states.count(st)
        for lang in self._shown_langs():
            rev = self._ready(lang)
            if rev is None:
                continue
            counts[f"{lang} findings"] = len(rev.findings)
            if rev.accepted:
                counts[f"{lang} accepted"] = len(rev.accepted)
        return counts


# -- drawing ------------------------------------------------------------------------------

_MD = None


def markdown_html(text: str) -> str:
    global _MD
    if _MD is None:
        from markdown_it import MarkdownIt
        _MD = MarkdownIt("commonmark", {"html": False}).enable("table")
    return _MD.render(text)


def _badge(text: str, colour: str) -> str:
    return (f"<span style='border:1px solid {colour};color:{colour};border-radius:4px;"
            f"padding:0 5px;font-size:12px;white-space:nowrap'>{escape(text)}</span>")


def rules_html(model: RulesModel) -> str:
    rows = model.rows()
    head = (f"<tr><th style='width:14%'>clause</th><th style='width:36%' lang='{escape(model.left)}'>"
            f"{escape(model.left)}</th><th style='width:36%' lang='{escape(model.right)}'>{escape(model.right)}</th>"
            f"<th>checks and findings</th></tr>")
    body = []
    for row in rows:
        cid = row["clause"]
        cells = []
        for lang, state in ((model.left, row["left"]), (model.right, row["right"])):
            text = model.shown_text(lang, cid)
            badge = "" if state in ("source", "translated") else \
                _badge(state, "#b26a00" if state == "fuzzy" else "#c62828") + "<br>"
            cells.append(f"<td lang='{escape(lang)}' class='rules-text rules-{escape(lang)}'>{badge}"
                         f"{markdown_html(text) if text else '<em>not translated</em>'}</td>")
        label, colour = STATUS_STYLE[row["status"]]
        notes = [_badge(label, colour)]
        notes += [f"<div style='font-size:12px;color:#555'>{escape(c)}</div>" for c in row["checks"]]
        notes += [f"<div style='font-size:12px;color:#c62828'>{escape(f)}</div>" for f in row["failures"]]
        notes += [_finding_html(f) for f in model.finding_items(cid)]
        body.append(f"<tr id='{_anchor(cid)}' data-clause='{escape(cid)}'><td><code style='font-size:11px'>"
                    f"{escape(cid)}</code></td>{''.join(cells)}<td>{''.join(notes)}</td></tr>")
    if not body:
        body.append("<tr><td colspan='4'><em>no clause matches this filter</em></td></tr>")
    if model.focus:
        body.insert(0, f"<tr><td colspan='4' class='rules-focus'>showing {escape(model.focus)} only "
                       "(<em>Show all clauses</em> brings the others back)</td></tr>")
    return ("<style>.rules-table{border-collapse:collapse;width:100%;font-size:14px}"
            ".rules-table td,.rules-table th{border-top:1px solid #ddd;vertical-align:top;padding:6px}"
            ".rules-table p{margin:0 0 .4em 0}</style>"
            f"<table class='rules-table'>{head}{''.join(body)}</table>")


def _anchor(clause_id: str) -> str:
    return "clause-" + "".join(ch if ch.isalnum() else "-" for ch in clause_id)


def _finding_html(f) -> str:
    """One finding: its language and check, what is wrong, and what the check is for."""
    return (f"<div class='rules-finding' data-check='{escape(f.check)}' style='font-size:12px;color:#b26a00'>"
            f"⚑ [{escape(f.lang)}] <b>{escape(f.check)}</b>: {escape(f.message)}"
            f"<div style='color:#777;font-style:italic'>{escape(f.explanation)}</div></div>")


def findings_html(model: RulesModel) -> str:
    """The review's findings grouped by clause: a link to the clause, the checks and
    scenarios that prove it, and each finding with its explanation."""
    groups: dict[str, list] = {}
    for f in model.all_findings():
        groups.setdefault(f.clause, []).append(f)
    if not groups:
        return f"<p class='rules-findings'><em>No review findings ({escape(model.review_state())}).</em></p>"
    items = []
    for clause, found in groups.items():
        is_clause = clause in model.source.clauses
        head = (f"<a href='#{_anchor(clause)}'><code>{escape(clause)}</code></a>" if is_clause
                else f"<code>{escape(clause)}</code>")
        proofs = model.checks_of(clause) if is_clause else []
        proof = (f" <span style='font-size:11px;color:#555'>proved by: {escape(', '.join(proofs))}</span>"
                 if proofs else (" <span style='font-size:11px;color:#b26a00'>no check proves it</span>"
                                 if is_clause else ""))
        items.append(f"<li data-clause='{escape(clause)}'>{head}{proof}{''.join(_finding_html(f) for f in found)}</li>")
    return (f"<div class='rules-findings'><b>{sum(len(v) for v in groups.values())} review finding(s)</b> "
            f"<span style='color:#555'>({escape(model.review_state())})</span><ul>{''.join(items)}</ul></div>")


class RulesPage(pn.viewable.Viewer):
    """Choose a game and two languages; the clauses side by side below. The
    page depends on the model's params: what is shown, the checks' status and
    the findings accepted."""

    model = param.ClassSelector(class_=RulesModel)

    def __init__(self, bench=None, model: RulesModel | None = None, **params):
        preload_dictionaries()
        super().__init__(model=model or RulesModel(background=True), **params)
        m = self.model
        self._busy = pn.indicators.LoadingSpinner(value=True, size=20, visible=False, width=20, height=20)
        self._doing = pn.pane.Markdown("", visible=False, css_classes=["rules-progress"])
        self._poll = None
        self._game = pn.widgets.Select(label="Game", options=m.param.game_id.objects, value=m.game_id)
        self._left = pn.widgets.Select(label="Left", options=m.languages, value=m.left)
        self._right = pn.widgets.Select(label="Right", options=m.languages, value=m.right)
        self._filter = pn.widgets.Select(label="Show clauses where",
                                         options={v: k for k, v in FILTERS.items()}, value=m.filter)
        self._resolve = pn.widgets.Checkbox(label="Fill in placeholders", value=m.resolve)
        self._run = pn.widgets.Button(label="Run checks", color="primary")
        self._spelling = pn.widgets.Checkbox(label="Check spelling", value=m.spelling)
        self._finding = pn.widgets.Select(label="Finding", options={}, sizing_mode="stretch_width")
        self._reason = pn.widgets.TextInput(label="Reason to accept it", placeholder="why the translation is right")
        self._jump = pn.widgets.Button(label="Jump to clause")
        self._all = pn.widgets.Button(label="Show all clauses")
        self._accept = pn.widgets.Button(label="Accept finding", color="warning")
        self._play = pn.widgets.Button(label="Open the game in Play")
        self._note = pn.pane.Markdown("")
        self._findings = pn.pane.HTML("", sizing_mode="stretch_width")
        self._bench = bench
        self._summary = pn.pane.Markdown("")
        self._table = pn.pane.HTML("", sizing_mode="stretch_width")
        self._game.param.watch(self._on_game, "value")
        for w, name in ((self._left, "left"), (self._right, "right"), (self._filter, "filter"),
                        (self._resolve, "resolve")):
            w.param.watch(lambda e, name=name: self._set(name, e.new), "value")
        self._run.on_click(self._on_run)
        self._spelling.param.watch(lambda e: self._set("spelling", e.new), "value")
        self._jump.on_click(self._on_jump)
        self._all.on_click(lambda e: self.model.show_all())
        self._accept.on_click(self._on_accept)
        self._play.on_click(self._on_play)
        # in a served page the clauses go out first; the review starts on the next
        # tick of the poll (_tick), once they are on their way to the browser
        m.hold_reviews = pn.state.curdoc is not None
        self._refresh()

    @param.depends("model.game_id", "model.left", "model.right", "model.filter", "model.resolve",
                   "model.focus", "model.spelling", "model.check_status", "model.accepted", watch=True)
    def _on_model(self) -> None:
        self._refresh()

    def _set(self, name, value):
        setattr(self.model, name, value)

    async def _on_game(self, event):
        # a game's rulebook, checks and scenarios take seconds to read on a busy
        # machine: say so first (the notice reaches the browser at the await),
        # and hide the old game's clauses rather than leave them under the new name
        import asyncio

        from .names import game_name
        self._busy.visible = self._doing.visible = True
        self._doing.object = md(f"Reading the rulebook, checks and scenarios of {game_name(event.new)}…")
        self._table.visible = False
        await asyncio.sleep(0.05)
        try:
            self.model.hold_reviews = pn.state.curdoc is not None   # the clauses first, as on opening
            self.model.choose_game(event.new)
            self._left.options = self._right.options = self.model.languages
            self._left.value, self._right.value = self.model.left, self.model.right
        finally:
            self._table.visible = True
            self._watch_review()

    def _on_run(self, event=None):
        self._run.disabled = True
        self._summary.object = "running the checks…"
        try:
            self.model.run_checks()
        except WorkbenchError as exc:
            self._summary.object = f"**Cannot run the checks:** {md(exc)}"
        finally:
            self._run.disabled = False

    def _on_jump(self, event=None):
        key = self._finding.value
        if not key:
            self._note.object = "Choose a finding first."
            return
        try:
            self.model.jump(self.model.finding_by_key(key).clause)
            self._note.object = ""
        except WorkbenchError as exc:
            self._note.object = f"**Cannot jump:** {md(exc)}"

    def _on_accept(self, event=None):
        key = self._finding.value
        if not key:
            self._note.object = "Choose a finding first."
            return
        try:
            path = self.model.accept(key, self._reason.value)
        except WorkbenchError as exc:
            self._note.object = f"**Not accepted:** {md(exc)}"
            return
        self._reason.value = ""
        self._note.object = f"Accepted; recorded in `{path}`."

    def _on_play(self, event=None):
        if self._bench is None:
            self._note.object = "Play is not part of this view."
            return
        try:
            self._bench.play.choose_game(self.model.game_id)
            self._bench.page = 0
        except WorkbenchError as exc:
            self._note.object = f"**Cannot open Play:** {md(exc)}"

    def _watch_review(self) -> None:
        """While a review is being made on its thread, say what it is doing; when
        it is ready, show its findings (a periodic callback on the event loop)."""
        m = self.model
        doing = m.doing()
        self._busy.visible = self._doing.visible = bool(doing)
        self._doing.object = md(doing)
        if doing:
            for lang in m.pending():
                m.review(lang)   # (re)starts a review whose result a newer choice set aside
            if self._poll is None and pn.state.curdoc is not None:
                self._poll = pn.state.add_periodic_callback(self._tick, period=300)
        elif self._poll is not None:
            self._poll.stop()
            self._poll = None

    def _tick(self) -> None:
        if self.model.hold_reviews:
            self.model.hold_reviews = False   # the clauses have been sent: reviews may start
            self._watch_review()
            return
        if not self.model.pending():
            self._refresh()
        else:
            self._watch_review()

    def _refresh(self):
        m = self.model
        try:
            counts = m.summary()
            self._summary.object = (" · ".join(f"**{v}** {k}" for k, v in counts.items())
                                    + f"  \nReview: {md(m.review_state())}")
            self._table.object = rules_html(m)
            self._findings.object = findings_html(m)
            options = {f"{f.clause} · [{f.lang}] {f.check} · {f.detail}"[:140]: m.finding_key(f)
                       for f in m.all_findings()}
            self._finding.options = options
            if self._finding.value not in options.values():
                self._finding.value = next(iter(options.values()), None)
        except WorkbenchError as exc:
            self._table.object = f"<p><b>Cannot show the rules:</b> {escape(str(exc))}</p>"
        self._watch_review()

    def __panel__(self):
        controls = pn.Row(self._game, self._left, self._right, self._filter,
                          pn.Column(self._resolve, self._spelling, self._run), sizing_mode="stretch_width")
        review = pn.Column(pn.Row(self._finding, self._reason, sizing_mode="stretch_width"),
                           pn.Row(self._jump, self._all, self._accept, self._play), self._note,
                           self._findings, sizing_mode="stretch_width")
        return pn.Column(controls, pn.Row(self._busy, self._doing), self._summary,
                         pn.Card(review, title="Translation review", collapsed=False, sizing_mode="stretch_width"),
                         self._table, sizing_mode="stretch_width")


def preload_dictionaries() -> None:
    """Start loading, on a background thread, every spelling dictionary the
    games' rulebooks use (once per process; the review waits for one only if it
    is still loading)."""
    global _PRELOADED
    if _PRELOADED:
        return
    _PRELOADED = True
    from workbench.rules.catalog import source_language, translation_languages
    from workbench.rules.review_checks.dictionary import preload
    locales = []
    try:
        for game_id in games_with_rules():
            locales += [source_language(game_id), *translation_languages(game_id)]
    except WorkbenchError:
        pass
    preload(locales)


_PRELOADED = False
