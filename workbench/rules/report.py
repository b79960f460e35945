"""The check registry report: every clause, its languages, its checks and their status.

For one game it gathers:

- the card data problems (``Game.validate_data()``); where there are any the
  report stops there: every scenario and check would only fail on the same data
  error (and each would be re-run on the bundled pool to tell it from a rule
  change), so they are not run until the data is valid;
- the scenario files, run strictly, each proving the clauses of its ``checks:``;
- the Python checks registered with :func:`workbench.rules.checks.check`;
- the clause table: each clause of the original with its languages (original,
  translated, fuzzy or missing per ``.po``), its checks and a status: ``fail`` if
  any check fails, ``pass`` if a check passes and none fails, ``none`` otherwise
  (no checks, or only a worked example with errata);
- check references to clause ids the rulebook does not have (a failure: the link
  between text and engine is broken);
- the placeholders of every translation against the original (lost, added,
  undefined in the language, broken), each problem a failure;
- the checks that fail only because the pool checked holds other card values
  than they assume (:mod:`workbench.rules.assumptions`): information, not failures;
- the errata report: worked examples (scenario files named ``worked-example*``)
  replayed in report mode; their divergences are errata of the text, not failures.

A game without a rules text still gets its data, scenarios and checks run, and
its clause table says "no rules text yet".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.counting import counted

WORKED_PREFIX = "worked-example"
#: what the report says in place of the checks when the card data is invalid
NOT_RUN = "scenarios, Python checks and the clause table not run: fix the card data first"


@dataclass
class CheckResult:
    kind: str              # scenario | python | example | conformance (the shipped kit, `check --conformance`)
    name: str              # file name or function name
    clauses: list[str]
    status: str            # pass | fail | errata | assumption (fails only with the pool's changed values)
    message: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "clauses": self.clauses, "status": self.status,
                "message": self.message}


@dataclass
class ClauseRow:
    id: str
    section: str | None
    languages: dict[str, str]   # lang -> original | translated | fuzzy | missing
    checks: list[str]           # names of the checks that prove it
    status: str                 # pass | fail | none

    def to_dict(self) -> dict:
        return {"id": self.id, "section": self.section, "languages": self.languages,
                "checks": self.checks, "status": self.status}


@dataclass
class GameReport:
    game: str
    name: str
    engine_error: str | None = None
    data_problems: list[str] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    has_text: bool = False
    text_error: str | None = None
    source_lang: str | None = None
    languages: list[str] = field(default_factory=list)
    clauses: list[ClauseRow] = field(default_factory=list)
    unknown_refs: list[dict] = field(default_factory=list)   # {check, clause, hint}
    unknown_rulings: list[dict] = field(default_factory=list)  # {clause, ruling, hint}: marker names no ruling
    errata: list[dict] = field(default_factory=list)         # {file, title, divergences: [...]}
    placeholder_problems: list[str] = field(default_factory=list)  # one line each, every translation
    #: checks whose card values differ from the pool checked: information, never a failure
    #: (:mod:`workbench.rules.assumptions`)
    assumptions: list = field(default_factory=list)
    #: why the checks after the card data were not run (invalid card data), else None
    not_run: str | None = None

    @property
    def failures(self) -> int:
        return (bool(self.engine_error) + len(self.data_problems) + bool(self.text_error)
                + sum(c.status == "fail" for c in self.checks) + len(self.unknown_refs)
                + len(self.unknown_rulings) + len(self.placeholder_problems))

    def counts(self) -> dict:
        out = {"pass": 0, "fail": 0, "none": 0}
        for row in self.clauses:
            out[row.status] += 1
        return out

    def to_dict(self) -> dict:
        return {
            "game": self.game, "name": self.name, "ok": self.failures == 0, "failures": self.failures,
            "engine_error": self.engine_error, "data_problems": self.data_problems,
            "checks": [c.to_dict() for c in self.checks],
            "rules_text": self.has_text, "rules_text_error": self.text_error,
            "source_lang": self.source_lang, "languages": self.languages,
            "clause_counts": self.counts(), "clauses": [r.to_dict() for r in self.clauses],
            "unknown_clause_refs": self.unknown_refs, "unknown_ruling_refs": self.unknown_rulings,
            "errata": self.errata, "placeholder_problems": self.placeholder_problems,
            "assumptions": [a.to_dict() for a in self.assumptions], "not_run": self.not_run,
        }


def _is_worked_example(path: Path) -> bool:
    return path.name.startswith(WORKED_PREFIX)


def _lookalike_problems(game) -> list[str]:
    """Two card names that read the same on screen, checked first as the pool loader
    does (the game's own checks would otherwise report a symptom of it, such as a
    count one too high)."""
    from workbench.core.data import cards_dir
    from workbench.core.errors import WorkbenchError
    from workbench.core.names import check_pool_names
    spec = getattr(game, "pool_spec", None)
    if spec is None:
        return []
    try:
        check_pool_names(cards_dir(game.id), spec.files)
    except WorkbenchError as exc:
        return [str(exc)]
    return []


def game_report(game_id: str) -> GameReport:
    from workbench.core.errors import WorkbenchError, suggest
    from workbench.core.registry import get_game
    from workbench.core.scenario import run_file, scenario_files

    from .catalog import entries_by_context, load_source, po_path, read_catalog, translation_languages
    from .checks import checks_module, load_game_checks

    rep = GameReport(game_id, game_id)
    game = None
    try:
        game = get_game(game_id)
        rep.name = game.name
    except Exception as exc:  # a broken engine is reported, the other games still run
        rep.engine_error = f"{type(exc).__name__}: {exc}"

    if game is not None:
        try:
            rep.data_problems = _lookalike_problems(game) + [str(p) for p in (game.validate_data() or [])]
        except WorkbenchError as exc:
            rep.data_problems = [str(exc)]
        except Exception as exc:
            rep.data_problems = [f"validate_data crashed: {type(exc).__name__}: {exc}"]
        if rep.data_problems:
            rep.not_run = NOT_RUN
            return rep
        from workbench.core.data import cards_dir

        from . import assumptions as assume
        folder, reference = cards_dir(game_id), assume.reference_folder(game_id)
        for path in scenario_files(game_id):
            worked = _is_worked_example(path)
            res = run_file(path, report=worked, game=game)
            if res.stated_cards and game.pool_spec is not None:
                try:
                    note = assume.stated_differences(game, path.name, res.stated_cards, folder)
                except WorkbenchError:
                    note = None  # the scenario's own setup error is reported by its run
                if note is not None:
                    rep.assumptions.append(note)
            if worked and res.divergences and reference is not None and game.pool_spec is not None:
                res = assume.worked_example_on_reference(path, game, res, folder, reference, rep.assumptions)
            if worked:
                rep.checks.append(CheckResult("example", path.name, list(res.checks),
                                              "pass" if res.passed else "errata",
                                              f"{len(res.divergences)} divergence(s)" if res.divergences else ""))
                rep.errata.append({"file": path.name, "title": res.title,
                                   "divergences": [d.to_dict() for d in res.divergences]})
            else:
                first = res.divergences[0] if res.divergences else None
                msg, status = "", "pass" if res.passed else "fail"
                if first is not None:
                    where = f"step {first.step}" if first.step is not None else "end"
                    msg = f"{where}: {first.message}"
                    if reference is not None and game.pool_spec is not None:
                        note = assume.rerun_scenario(path, game, msg, folder, reference)
                        if note is not None:
                            rep.assumptions.append(note)
                            status, msg = assume.ASSUMPTION, note.message
                rep.checks.append(CheckResult("scenario", path.name, list(res.checks), status, msg))
        try:
            python_checks = load_game_checks(game_id)
        except Exception as exc:
            python_checks = []
            rep.checks.append(CheckResult("python", checks_module(game), [],
                                          "fail", f"cannot import: {type(exc).__name__}: {exc}"))
        for chk in python_checks:
            passed, message = chk.run()
            status = "pass" if passed else "fail"
            if not passed and reference is not None and game.pool_spec is not None:
                note = assume.rerun_python_check(chk, game, message, folder, reference)
                if note is not None:
                    rep.assumptions.append(note)
                    status, message = assume.ASSUMPTION, note.message
            rep.checks.append(CheckResult("python", chk.name.rsplit(".", 1)[-1], list(chk.clauses),
                                          status, message))

    try:
        source = load_source(game_id)
    except WorkbenchError as exc:
        source, rep.text_error = None, str(exc)
    if source is None:
        return rep
    rep.has_text = True
    rep.source_lang = source.lang
    from .catalog import placeholder_problems
    rep.placeholder_problems = placeholder_problems(game_id, game=game)
    rep.languages = [source.lang] + [lang for lang in translation_languages(game_id) if lang != source.lang]
    status_of: dict[str, dict[str, tuple[str, bool]]] = {}
    for lang in rep.languages[1:]:
        try:
            live = entries_by_context(read_catalog(po_path(game_id, lang)))
        except WorkbenchError as exc:
            rep.text_error = str(exc)
            live = {}
        status_of[lang] = {c: (m.string, "fuzzy" in m.flags or m.id != source.clauses[c].body)
                           for c, m in live.items() if c in source.clauses}

    by_clause: dict[str, list[CheckResult]] = {}
    for chk in rep.checks:
        for cid in chk.clauses:
            by_clause.setdefault(cid, []).append(chk)
            if cid not in source.clauses:
                rep.unknown_refs.append({"check": chk.name, "clause": cid,
                                         "hint": suggest(cid, source.clauses).strip()})
    from .marks import load_rulings
    known_rulings = load_rulings(game_id)
    for cid, clause in source.clauses.items():
        for rid in clause.rulings:
            if rid not in known_rulings:
                rep.unknown_rulings.append({"clause": cid, "ruling": rid,
                                            "hint": suggest(rid, known_rulings).strip()})
    for cid, clause in source.clauses.items():
        langs = {source.lang: "original"}
        for lang in rep.languages[1:]:
            text, fuzzy = status_of[lang].get(cid, ("", False))
            langs[lang] = "missing" if not text else ("fuzzy" if fuzzy else "translated")
        proofs = by_clause.get(cid, [])
        if any(p.status == "fail" for p in proofs):
            status = "fail"
        elif any(p.status in ("pass", "assumption") for p in proofs):
            # a worked example with errata proves nothing, but is not a failure; a check
            # that passes on the bundled values proves the rule the engine plays
            status = "pass"
        else:
            status = "none"
        rep.clauses.append(ClauseRow(cid, clause.section, langs, [f"{p.kind}:{p.name}" for p in proofs], status))
    return rep


def check_report(game_ids: list[str]) -> list[GameReport]:
    return [game_report(g) for g in game_ids]


# --------------------------------------------------------------------------- text output
_LANG_MARK = {"original": "src", "translated": "ok", "fuzzy": "fuzzy", "missing": "--"}


def format_report(reports: list[GameReport]) -> str:
    out: list[str] = []
    for rep in reports:
        out.append(f"== {rep.name} ({rep.game}) ==")
        if rep.engine_error:
            out.append(f"  engine: FAILED to load: {rep.engine_error}")
        elif rep.data_problems:
            out.append(f"  card data: {len(rep.data_problems)} problem(s)")
            out += [f"    - {p}" for p in rep.data_problems]
        else:
            out.append("  card data: valid")
        if rep.not_run:
            out += [f"  {rep.not_run}", ""]
            continue
        scen = [c for c in rep.checks if c.kind == "scenario"]
        py = [c for c in rep.checks if c.kind == "python"]
        for label, group in (("scenarios", scen), ("python checks", py)):
            failed = [c for c in group if c.status == "fail"]
            leaning = [c for c in group if c.status == "assumption"]
            line = f"  {label}: {len(group) - len(failed) - len(leaning)} passed, {len(failed)} failed"
            out.append(line + (f", {len(leaning)} lean on card values your pool changed" if leaning else ""))
            for c in failed:
                out.append(f"    FAIL {c.name}: {c.message}")
        if rep.assumptions:
            out.append("  card values the checks assume differ from your pool (information, not failures):")
            for a in rep.assumptions:
                out.append(f"    - {a.name}: {a.message}")
        if rep.text_error:
            out.append(f"  rules text: FAILED: {rep.text_error}")
        if not rep.has_text:
            out.append("  clauses: no rules text yet")
        else:
            width = max([len(r.id) for r in rep.clauses] + [6])
            head = f"  {'clause':<{width}}  " + "  ".join(f"{lang:<5}" for lang in rep.languages) \
                   + "  checks  status"
            out.append(head)
            for r in rep.clauses:
                langs = "  ".join(f"{_LANG_MARK[r.languages[lang]]:<5}" for lang in rep.languages)
                out.append(f"  {r.id:<{width}}  {langs}  {len(r.checks):>6}  {r.status}")
                if r.status == "fail":
                    failing = [c for c in rep.checks if c.status == "fail" and r.id in c.clauses]
                    out.append(f"  {'':<{width}}  failing: " + ", ".join(f"{c.kind}:{c.name}" for c in failing))
            c = rep.counts()
            out.append(f"  {counted(len(rep.clauses), 'clause')}: {c['pass']} pass, {c['fail']} fail, {c['none']} without checks")
            for ref in rep.unknown_refs:
                hint = f" {ref['hint']}" if ref["hint"] else ""
                out.append(f"  FAIL {ref['check']} names clause {ref['clause']}, which the rulebook does not have{hint}")
            for ref in rep.unknown_rulings:
                hint = f" {ref['hint']}" if ref["hint"] else ""
                out.append(f"  FAIL the marker of {ref['clause']} names ruling {ref['ruling']}, "
                           f"which rulings.yaml does not have{hint}")
        if rep.placeholder_problems:
            out.append(f"  translation placeholders: {len(rep.placeholder_problems)} problem(s)")
            out += [f"    FAIL {p}" for p in rep.placeholder_problems]
        elif rep.has_text and len(rep.languages) > 1:
            out.append("  translation placeholders: all match the original")
        if rep.errata:
            out.append("  errata (worked examples replayed in report mode):")
            for e in rep.errata:
                divs = e["divergences"]
                out.append(f"    {e['file']}: " + (f"{len(divs)} divergence(s)" if divs else "no divergence"))
                for d in divs:
                    where = f"step {d['step']}" if d.get("step") is not None else "end"
                    out.append(f"      {where} [{d['kind']}] {d['message']}")
        else:
            out.append("  errata: no worked example")
        out.append("")
    total = sum(r.failures for r in reports)
    out.append(f"{total} failure(s)" if total else "all checks pass")
    return "\n".join(out)
